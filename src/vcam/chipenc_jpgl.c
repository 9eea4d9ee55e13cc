/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* JPEG-Lite encoder (see chipenc_jpgl.h). */
#include "vcam/chipenc_jpgl.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* ---- bit writer ---- */

void v4lc_jpgl_bw_init(struct v4lc_jpgl_bw *bw)
{
	memset(bw, 0, sizeof(*bw));
}

static void put_word(struct v4lc_jpgl_bw *bw, unsigned w)
{
	if (bw->oom)
		return;
	if (bw->len + 2 > bw->cap) {
		size_t cap = bw->cap ? 2 * bw->cap : 4096;
		uint8_t *b = realloc(bw->buf, cap);

		if (!b) {
			bw->oom = 1;
			return;
		}
		bw->buf = b;
		bw->cap = cap;
	}
	bw->buf[bw->len++] = (uint8_t)(w & 0xff);
	bw->buf[bw->len++] = (uint8_t)(w >> 8);
}

void v4lc_jpgl_put(struct v4lc_jpgl_bw *bw, uint32_t v, int n)
{
	for (int i = n - 1; i >= 0; i--) {
		bw->acc = (bw->acc << 1) | ((v >> i) & 1);
		if (++bw->nacc == 16) {
			put_word(bw, bw->acc & 0xffff);
			bw->acc = 0;
			bw->nacc = 0;
		}
	}
	bw->bits += (uint64_t)n;
}

void v4lc_jpgl_put_header(struct v4lc_jpgl_bw *bw, int q, int delta_mode,
			  int dc)
{
	v4lc_jpgl_put(bw, (uint32_t)q & 3, 2);
	if (delta_mode) {
		v4lc_jpgl_put(bw, 1, 1);
		v4lc_jpgl_put(bw, (uint32_t)dc & 31, 5);
	} else {
		v4lc_jpgl_put(bw, 0, 1);
		v4lc_jpgl_put(bw, (uint32_t)dc & 255, 8);
	}
}

/* The format's code table: code, its length, run, magnitude. */
static const struct {
	uint16_t code;
	uint8_t len, run, mag;
} ac_codes[] = {
	{ 0x2, 2, 0, 1 },    { 0x3, 3, 0, 2 },    { 0x6, 3, 1, 1 },
	{ 0xe, 4, 0, 3 },    { 0x8, 5, 2, 1 },    { 0xb, 5, 3, 1 },
	{ 0x12, 6, 1, 2 },   { 0x14, 6, 0, 4 },   { 0x3d, 6, 4, 1 },
	{ 0x3e, 6, 0, 5 },   { 0x78, 7, 5, 1 },   { 0x79, 7, 1, 3 },
	{ 0x7e, 7, 0, 6 },   { 0x54, 8, 2, 2 },   { 0x57, 8, 6, 1 },
	{ 0xff, 8, 0, 7 },   { 0xaa, 9, 3, 2 },   { 0xac, 9, 1, 4 },
	{ 0x1fc, 9, 0, 8 },  { 0x156, 10, 1, 5 }, { 0x157, 10, 0, 9 },
	{ 0x15a, 10, 7, 1 }, { 0x15b, 10, 2, 3 }, { 0x3fa, 10, 0, 10 },
	{ 0x3fb, 10, 8, 1 },
};

int v4lc_jpgl_put_ac(struct v4lc_jpgl_bw *bw, int run, int amp, int esc)
{
	unsigned s = amp < 0, m = (unsigned)(amp < 0 ? -amp : amp);

	if (run < 0 || run > 15 || esc < 0 || esc > 2)
		return -1;
	if (!esc && m) {
		for (size_t i = 0; i < sizeof(ac_codes) / sizeof(ac_codes[0]);
		     i++)
			if (ac_codes[i].run == run && ac_codes[i].mag == m) {
				v4lc_jpgl_put(bw, ac_codes[i].code,
					      ac_codes[i].len);
				v4lc_jpgl_put(bw, s, 1);
				return 0;
			}
	}
	if (esc == 1 || (!esc && run <= 7 && m <= 31)) {
		if (run > 7 || m > 31)
			return -1;
		v4lc_jpgl_put(bw, 0x26, 7);
		v4lc_jpgl_put(bw, (s << 8) | ((unsigned)run << 5) | m, 9);
		return 0;
	}
	if (m > 15)
		return -1;
	v4lc_jpgl_put(bw, 0x27, 7);
	v4lc_jpgl_put(bw, (s << 8) | ((unsigned)run << 4) | m, 9);
	return 0;
}

void v4lc_jpgl_put_eob(struct v4lc_jpgl_bw *bw)
{
	v4lc_jpgl_put(bw, 0, 2);
}

uint8_t *v4lc_jpgl_bw_finish(struct v4lc_jpgl_bw *bw, size_t extra, size_t *len)
{
	uint64_t bits = bw->bits;

	if (bw->nacc)
		v4lc_jpgl_put(bw, 0, 16 - bw->nacc);
	for (size_t i = 0; i < (extra + 1) / 2; i++)
		put_word(bw, 0);
	bw->bits = bits;
	if (bw->oom || !bw->buf) {
		free(bw->buf);
		bw->buf = NULL;
		return NULL;
	}
	*len = bw->len - ((extra + 1) / 2 * 2 - extra);
	return bw->buf;
}

/* ---- least-squares fit of the AC patterns ---- */

/* Natural index of zig-zag position p; AC weights per quantiser. */
static const uint8_t zz[16] = { 0, 1,  4,  8,  5, 2,  3,  6,
				9, 12, 13, 10, 7, 11, 14, 15 };
static const double wts[4][16] = {
	{ 32768, 17808, 794, 18618, 850, 18618, 43115, 1828, 40960, 1924, 2089,
	  45511, 2089, 49648, 2216, 2521 },
	{ 32768, 35617, 1589, 37236, 1700, 37236, 86231, 3656, 81920, 3849,
	  4179, 91022, 4179, 99296, 4432, 5043 },
	{ 32768, 71234, 3179, 74472, 3401, 74472, 172463, 7313, 163840, 7698,
	  8358, 182044, 8358, 198593, 8865, 10087 },
	{ 32768, 142469, 6359, 148945, 6803, 148945, 344926, 14627, 327680,
	  15397, 16716, 364088, 16716, 397187, 17730, 20175 },
};

/* fit[q][p - 1][i]: amplitude of position p = sum over samples i. */
static double fit[4][15][16];
static pthread_once_t fit_once = PTHREAD_ONCE_INIT;

/* The format's inverse transform in real arithmetic, before the shift. */
static void pattern(const double c[16], double out[16])
{
	double g[16];

	for (int u = 0; u < 4; u++) {
		double a0 = c[u], a1 = c[4 + u], a2 = c[8 + u], a3 = c[12 + u];
		double e = a0 + a2, f = a0 - a2;
		double p = 32 * a1 + 16 * a3, r = 15 * a1 - 32 * a3;

		g[u] = e + p;
		g[4 + u] = f + r;
		g[8 + u] = f - r;
		g[12 + u] = e - p;
	}
	for (int y = 0; y < 4; y++) {
		const double *b = g + 4 * y;
		double e = 128 * (b[0] + b[2]), f = 128 * (b[0] - b[2]);
		double p = 183 * b[1] + 86 * b[3], r = 86 * b[1] - 183 * b[3];

		out[4 * y + 0] = (e + p) / 4194304.0;
		out[4 * y + 1] = (f + r) / 4194304.0;
		out[4 * y + 2] = (f - r) / 4194304.0;
		out[4 * y + 3] = (e - p) / 4194304.0;
	}
}

static void fit_init(void)
{
	for (int q = 0; q < 4; q++) {
		double a[16][15], n[15][30];

		for (int p = 1; p < 16; p++) {
			double c[16] = { 0 }, o[16];

			c[zz[p]] = wts[q][p];
			pattern(c, o);
			for (int i = 0; i < 16; i++)
				a[i][p - 1] = o[i];
		}
		/* [A^T A | I], Gauss-Jordan with partial pivoting */
		for (int r = 0; r < 15; r++)
			for (int c = 0; c < 30; c++) {
				double s = 0;

				if (c < 15)
					for (int i = 0; i < 16; i++)
						s += a[i][r] * a[i][c];
				else
					s = c - 15 == r;
				n[r][c] = s;
			}
		for (int c = 0; c < 15; c++) {
			int piv = c;

			for (int r = c + 1; r < 15; r++)
				if (fabs(n[r][c]) > fabs(n[piv][c]))
					piv = r;
			for (int k = 0; k < 30; k++) {
				double t = n[c][k];

				n[c][k] = n[piv][k];
				n[piv][k] = t;
			}
			for (int k = 29; k >= c; k--)
				n[c][k] /= n[c][c];
			for (int r = 0; r < 15; r++)
				if (r != c && n[r][c] != 0) {
					double f = n[r][c];

					for (int k = c; k < 30; k++)
						n[r][k] -= f * n[c][k];
				}
		}
		/* fit = (A^T A)^-1 A^T */
		for (int p = 0; p < 15; p++)
			for (int i = 0; i < 16; i++) {
				double s = 0;

				for (int k = 0; k < 15; k++)
					s += n[p][15 + k] * a[i][k];
				fit[q][p][i] = s;
			}
	}
}

/* ---- picture encoder ---- */

static uint32_t lcg(uint32_t *s)
{
	*s = *s * 1664525u + 1013904223u;
	return *s >> 16;
}

/* A block of 16 samples (row-major); pred: the component's predictor. */
static void code_block(struct v4lc_jpgl_bw *bw, const uint8_t smp[16],
		       int *pred, const struct v4lc_jpgl_enc *o, uint32_t *rnd)
{
	double mean = 0, t[16];
	int dc, q, amp[16] = { 0 }, run = 0;

	for (int i = 0; i < 16; i++)
		mean += smp[i];
	mean /= 16;
	dc = (int)floor(mean - 128 + 0.5);
	dc = dc < -128 ? -128 : dc > 127 ? 127 : dc;
	for (int i = 0; i < 16; i++)
		t[i] = smp[i] - 128 - dc;
	for (q = o->q < 0 ? 0 : o->q; q < 4; q++) {
		int big = 0;

		for (int p = 1; p < 16; p++) {
			double s = 0;

			for (int i = 0; i < 16; i++)
				s += fit[q][p - 1][i] * t[i];
			amp[p] = (int)floor(s + 0.5);
			if (amp[p] > 15 || amp[p] < -15)
				big = 1;
		}
		if (!big || o->q >= 0 || q == 3)
			break;
	}
	if (q > 3)
		q = 3;
	if (!o->direct_dc && dc - *pred >= -16 && dc - *pred <= 15)
		v4lc_jpgl_put_header(bw, q, 1, dc - *pred);
	else
		v4lc_jpgl_put_header(bw, q, 0, dc);
	*pred = dc;
	for (int p = 1; p < 16; p++) {
		int a = amp[p] > 15 ? 15 : amp[p] < -15 ? -15 : amp[p];
		int esc = 0;

		if (!a) {
			run++;
			continue;
		}
		if (o->seed && lcg(rnd) % 4 == 0)
			esc = run <= 7 && lcg(rnd) % 2 ? 1 : 2;
		(void)v4lc_jpgl_put_ac(bw, run, a, esc);
		run = 0;
	}
	v4lc_jpgl_put_eob(bw);
}

static uint8_t clampd(double v)
{
	return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : floor(v + 0.5));
}

uint8_t *v4lc_jpgl_encode(const uint8_t *rgb, int w, int h,
			  const struct v4lc_jpgl_enc *opt, size_t *len)
{
	static const struct v4lc_jpgl_enc dflt = { -1, 0, 0 };
	const struct v4lc_jpgl_enc *o = opt ? opt : &dflt;
	int wm = (w + 15) / 16 * 16;
	uint8_t *yl, *cb, *cr; /* 4 lines of the block row */
	uint32_t rnd = o->seed;
	struct v4lc_jpgl_bw bw;

	if (w <= 0 || h <= 0 || w % 4 || h % 4 || w > 16384 || h > 16384)
		return NULL;
	pthread_once(&fit_once, fit_init);
	yl = malloc(3 * 4 * (size_t)wm);
	if (!yl)
		return NULL;
	cb = yl + 4 * wm;
	cr = cb + 4 * wm;
	v4lc_jpgl_bw_init(&bw);
	for (int r = 0; r < h / 4; r++) {
		int py = 0, pb = 0, pr = 0;

		/* BT.601 video range, at every pixel (edge repeated) */
		for (int y = 0; y < 4; y++)
			for (int x = 0; x < wm; x++) {
				const uint8_t *p =
					rgb + 3 * ((size_t)(4 * r + y) * w +
						   (size_t)(x < w ? x : w - 1));
				double R = p[0], G = p[1], B = p[2];

				yl[y * wm + x] =
					clampd(16 + (65.481 * R + 128.553 * G +
						     24.966 * B) /
							    255);
				cb[y * wm + x] =
					clampd(128 + (-37.797 * R - 74.203 * G +
						      112.0 * B) /
							     255);
				cr[y * wm + x] =
					clampd(128 + (112.0 * R - 93.786 * G -
						      18.214 * B) /
							     255);
			}
		for (int x0 = 0; x0 < w; x0 += 16) {
			uint8_t blk[16];

			for (int k = 0; k < 4; k++) {
				for (int i = 0; i < 16; i++)
					blk[i] = yl[(i / 4) * wm + x0 + 4 * k +
						    i % 4];
				code_block(&bw, blk, &py, o, &rnd);
			}
			for (int c = 0; c < 2; c++) {
				const uint8_t *pl = c ? cr : cb;

				/* chroma at column x0 + 4j: triangle filter */
				for (int i = 0; i < 16; i++) {
					int y = i / 4, xc = x0 + 4 * (i % 4),
					    s = 0;

					for (int d = -3; d <= 3; d++) {
						int x = xc + d;

						x = x < 0     ? 0
						    : x >= wm ? wm - 1
							      : x;
						s += (4 - abs(d)) *
						     pl[y * wm + x];
					}
					blk[i] = (uint8_t)((s + 8) / 16);
				}
				code_block(&bw, blk, c ? &pr : &pb, o, &rnd);
			}
		}
	}
	free(yl);
	return v4lc_jpgl_bw_finish(&bw, 0, len);
}
