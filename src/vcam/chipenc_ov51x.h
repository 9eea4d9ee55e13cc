/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Test-side encoders for the OV511 ('O511') and OV518 ('O518') frames
 * (written from the clean-room specification's frame description; the
 * tests of tests/chip/ov51x include this header, and the virtual camera
 * compiles it into src/vcam/chipenc_ov51x.c).
 *
 * Both take a callback that supplies each block in the decoder's order:
 *  - OV518: 8x4 blocks, per 8-row stripe the upper-half Y blocks, then
 *    U, V, Y, Y per 16 columns of the lower half; the callback fills 32
 *    coefficients in scan order, c[0] the DC DIFFERENCE (to the previous
 *    block of that component). Entropy-coded with the JPEG example tables.
 *  - OV511: 8x8 blocks, steps of U, V, Y, Y, Y, Y (U/V and Y in raster
 *    order of their planes when w and h are multiples of 16); the
 *    callback writes the block's byte record (co511_record builds one).
 * The image encoders (co518_image, co511_image) use a float forward
 * transform matched to the decoders' integer inverse ones.
 */
#ifndef V4LC_VCAM_CHIPENC_OV51X_H
#define V4LC_VCAM_CHIPENC_OV51X_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "jpeg/ov518_tables.h"

/* ---- the virtual camera's entry points (chipenc_ov51x.c) ---- */

/*
 * A frame from a planar YUV420 picture (stride w, chroma w/2); w % 16 and
 * h % 16 (OV511) / h % 8 (OV518). Returns the frame size, -EINVAL (format
 * or size), -ENOSPC (size below the frame) or -ENOMEM. bound: the size the
 * camera reports (frames are far below it).
 */
int v4lc_chipenc_ov51x_size_ok(uint32_t fourcc, int w, int h);
size_t v4lc_chipenc_ov51x_bound(uint32_t fourcc, int w, int h);
long v4lc_chipenc_ov51x(uint32_t fourcc, const uint8_t *yuv, int w, int h,
			uint8_t *dst, size_t size);

/* ---- bit writer ---- */

struct co_bits {
	uint8_t *p;
	size_t n, cap;
	uint64_t acc;
	int nacc;
	int oom;
};

static inline void co_put(struct co_bits *b, uint32_t v, int len)
{
	for (int i = len - 1; i >= 0; i--) {
		b->acc = b->acc << 1 | ((v >> i) & 1);
		if (++b->nacc == 8) {
			if (b->n == b->cap) {
				size_t nc = b->cap ? 2 * b->cap : 4096;
				uint8_t *np = (uint8_t *)realloc(b->p, nc);

				if (!np) {
					b->oom = 1;
					b->nacc = 0;
					continue;
				}
				b->p = np;
				b->cap = nc;
			}
			b->p[b->n++] = (uint8_t)b->acc;
			b->nacc = 0;
		}
	}
}

static inline void co_byte(struct co_bits *b, uint8_t v)
{
	co_put(b, v, 8);
}

/* ---- OV518 ---- */

typedef void co518_block_fn(void *ctx, int comp, int x, int y,
			    int32_t c[32]);

static inline int co_size(int32_t v)
{
	int s = 0;
	uint32_t a = (uint32_t)(v < 0 ? -v : v);

	while (a) {
		s++;
		a >>= 1;
	}
	return s;
}

static inline void co_value(struct co_bits *b, int32_t v, int s)
{
	if (s)
		co_put(b, (uint32_t)(v > 0 ? v : v + (1 << s) - 1), s);
}

static inline void co518_code(struct co_bits *b, const struct ov518_ac_code *t,
			      int run, int size)
{
	for (int i = 0; i < 163; i++)
		if (t[i].run == run && t[i].size == size) {
			co_put(b, t[i].code, t[i].len);
			return;
		}
}

static inline void co518_put_block(struct co_bits *b, int chroma,
				   const int32_t c[32])
{
	const struct ov518_dc_code *dc = chroma ? ov518_cdc : ov518_ydc;
	const struct ov518_ac_code *ac = chroma ? ov518_cac : ov518_yac;
	int32_t d = c[0] < -2047 ? -2047 : c[0] > 2047 ? 2047 : c[0];
	int s = co_size(d), run = 0;

	co_put(b, dc[s].code, dc[s].len);
	co_value(b, d, s);
	for (int i = 1; i < 32; i++) {
		int32_t v = c[i] < -1023 ? -1023 : c[i] > 1023 ? 1023 : c[i];

		if (!v) {
			run++;
			continue;
		}
		while (run >= 16) {
			co518_code(b, ac, 16, 0);
			run -= 16;
		}
		s = co_size(v);
		co518_code(b, ac, run, s);
		co_value(b, v, s);
		run = 0;
	}
	co518_code(b, ac, -1, 0); /* EOB, also after a full block */
}

/*
 * A whole frame: header, coded blocks, padding, quantisation bytes (qy,
 * qc: 32 each, non-zero so that no unit is all zero). Returns the frame
 * (malloc) or NULL; *len its size. *zero_unit is set when some 8-byte unit
 * came out all zero (the decoder would drop it: re-encode differently).
 */
static inline uint8_t *co518_frame(int w, int h, const uint8_t qy[32],
				   const uint8_t qc[32], co518_block_fn *cb,
				   void *ctx, size_t *len, int *zero_unit)
{
	static const uint8_t hdr[8] = { 0, 0, 0, 0, 0x12, 0, 1, 0 };
	struct co_bits b = { NULL, 0, 0, 0, 0, 0 };
	int32_t c[32];

	for (int i = 0; i < 8; i++)
		co_byte(&b, hdr[i]);
	for (int y = 0; y == 0 || y < h; y += 8) {
		for (int x = 0; x == 0 || x < w; x += 8) {
			memset(c, 0, sizeof(c));
			cb(ctx, 0, x, y, c);
			co518_put_block(&b, 0, c);
		}
		for (int x = 0; x == 0 || x < w; x += 16) {
			for (int k = 1; k <= 2; k++) {
				memset(c, 0, sizeof(c));
				cb(ctx, k, x / 2, y / 2, c);
				co518_put_block(&b, 1, c);
			}
			for (int k = 0; k < 2; k++) {
				memset(c, 0, sizeof(c));
				cb(ctx, 0, x + 8 * k, y + 4, c);
				co518_put_block(&b, 0, c);
			}
		}
	}
	while (b.nacc)
		co_put(&b, 1, 1);
	while (b.n % 8)
		co_byte(&b, 0xff);
	for (int i = 0; i < 32; i++)
		co_byte(&b, qy[i]);
	for (int i = 0; i < 32; i++)
		co_byte(&b, qc[i]);
	if (b.oom) {
		free(b.p);
		return NULL;
	}
	*zero_unit = 0;
	for (size_t u = 0; u + 8 <= b.n; u += 8) {
		uint64_t v;

		memcpy(&v, b.p + u, 8);
		if (!v)
			*zero_unit = 1;
	}
	*len = b.n;
	return b.p;
}

/*
 * Image encoding: forward transform by projection on W's rows, the first
 * CO518_IMG_COEFS scan positions only (the rest stay zero: cheaper, and
 * enough for a test picture).
 */
#define CO518_IMG_COEFS 15
struct co518_img {
	const uint8_t *pl[3];
	int stride[3];
	uint8_t qy[32], qc[32];
	int32_t pred[3];
	double norm[32];
};

static inline void co518_img_block(void *ctx, int comp, int x, int y,
				   int32_t c[32])
{
	struct co518_img *e = (struct co518_img *)ctx;
	const uint8_t *q = comp ? e->qc : e->qy;
	double px[32];

	for (int r = 0; r < 4; r++)
		for (int k = 0; k < 8; k++)
			px[8 * r + k] =
				e->pl[comp][(size_t)(y + r) * e->stride[comp] +
					    (size_t)(x + k)] -
				128.0;
	for (int j = 0; j < CO518_IMG_COEFS; j++) {
		int k = ov518_scan[j];
		double g = 0, div = q[j] + 1.0;

		for (int p = 0; p < 32; p++)
			g += px[p] * ov518_weight[k][p];
		g = g * 131072.0 / e->norm[k];
		if (j == 1 && !comp)
			div /= 2;
		c[j] = (int32_t)lrint(g / div);
	}
	c[0] -= e->pred[comp];
	if (c[0] > 2047)
		c[0] = 2047;
	if (c[0] < -2047)
		c[0] = -2047;
	e->pred[comp] += c[0];
}

/*
 * A frame from planar YUV420 (w % 16, h % 8); quality 0 (coarse) .. 3
 * (fine) picks the quantiser; re-encoded with the next coarser one when a
 * unit came out all zero. NULL on failure.
 */
static inline uint8_t *co518_image(const uint8_t *yuv, int w, int h,
				   int quality, size_t *len)
{
	struct co518_img e;
	size_t wh = (size_t)w * (size_t)h;

	memset(&e, 0, sizeof(e));
	e.pl[0] = yuv;
	e.pl[1] = yuv + wh;
	e.pl[2] = yuv + wh + wh / 4;
	e.stride[0] = w;
	e.stride[1] = e.stride[2] = w / 2;
	for (int k = 0; k < 32; k++) {
		e.norm[k] = 0;
		for (int p = 0; p < 32; p++)
			e.norm[k] += (double)ov518_weight[k][p] *
				     ov518_weight[k][p];
	}
	for (int t = 0; t < 8; t++) {
		int qv = (3 - quality) + t;
		int zu;
		uint8_t *f;

		for (int j = 0; j < 32; j++) {
			e.qy[j] = (uint8_t)(1 + qv + j / 3);
			e.qc[j] = (uint8_t)(2 + qv + j / 2);
		}
		e.pred[0] = e.pred[1] = e.pred[2] = 0;
		f = co518_frame(w, h, e.qy, e.qc, co518_img_block, &e, len, &zu);
		if (!f || !zu)
			return f;
		free(f);
	}
	return NULL;
}

/* ---- OV511 ---- */

/* Writes one block record at out (<= 112 bytes), returns its length. */
typedef int co511_block_fn(void *ctx, int comp, int x, int y, uint8_t *out);

/*
 * A record from values z[0..n-1] (scan order; z[0] the DC, -2048..2047):
 * eight: 8-bit AC values (else 12-bit), table: a zero table listing the
 * non-zero AC values only (else all n - 1 are written).
 */
static inline int co511_record(const int32_t *z, int n, int eight, int table,
			       uint8_t *out)
{
	int k = 1, m = 0;
	int32_t vals[64];

	out[0] = (uint8_t)((n - 1) | (eight ? 0x40 : 0) | (table ? 0x80 : 0));
	if (table) {
		int nz = (n + 7) / 8;

		memset(out + 1, 0, (size_t)nz);
		for (int i = 1; i < n; i++)
			if (z[i])
				out[1 + i / 8] |= (uint8_t)(0x80 >> (i % 8));
		k += nz;
	}
	out[k++] = (uint8_t)(z[0] & 0xff);
	out[k++] = (uint8_t)((z[0] >> 8) & 0x0f);
	for (int i = 1; i < n; i++)
		if (!table || z[i])
			vals[m++] = z[i];
	for (int i = 0; i < m; i++) {
		if (eight) {
			out[k++] = (uint8_t)(vals[i] & 0xff);
		} else if (!(i & 1)) {
			uint32_t a = (uint32_t)vals[i] & 0xfff;
			uint32_t b = i + 1 < m ? (uint32_t)vals[i + 1] & 0xfff : 0;

			out[k++] = (uint8_t)(a & 0xff);
			out[k++] = (uint8_t)((a >> 8) | (b & 15) << 4);
			if (i + 1 < m)
				out[k++] = (uint8_t)(b >> 4);
		}
	}
	return k;
}

/*
 * A whole compressed frame (flag 0x48): 8 zero bytes, the flag, the
 * records, zero padding to 32 bytes, the 11-byte footer. NULL on failure.
 */
static inline uint8_t *co511_frame(int w, int h, co511_block_fn *cb,
				   void *ctx, size_t *len)
{
	size_t wh = (size_t)w * (size_t)h, steps = wh / 256;
	size_t cap = 9 + steps * 6 * 112 + 32 + 11, n = 9;
	uint8_t *f = (uint8_t *)malloc(cap);
	int cbw = w / 16 > 0 ? w / 16 : 1, ybw = w / 8 > 0 ? w / 8 : 1;

	if (!f)
		return NULL;
	memset(f, 0, 9);
	f[8] = 0x48;
	for (size_t s = 0; s < steps; s++) {
		int cx = (int)(s % (size_t)cbw) * 8, cy = (int)(s / (size_t)cbw) * 8;

		n += (size_t)cb(ctx, 1, cx, cy, f + n);
		n += (size_t)cb(ctx, 2, cx, cy, f + n);
		for (int k = 0; k < 4; k++) {
			size_t yb = 4 * s + (size_t)k;

			n += (size_t)cb(ctx, 0, (int)(yb % (size_t)ybw) * 8,
					(int)(yb / (size_t)ybw) * 8, f + n);
		}
	}
	while (n % 32)
		f[n++] = 0;
	memset(f + n, 0, 8);
	f[n + 8] = 0x88;
	f[n + 9] = (uint8_t)(w / 8 - 1);
	f[n + 10] = (uint8_t)(h / 8 - 1);
	*len = n + 11;
	return f;
}

struct co511_img {
	const uint8_t *pl[3];
	int stride[3];
	int h[3];
};

/* Scan index, (u, v) cell and shifts of the 16 coefficients used. */
static const struct {
	uint8_t i, u, v, sy, sc;
} co511_used[16] = {
	{ 0, 0, 0, 0, 0 },  { 1, 0, 1, 1, 2 },	{ 5, 0, 2, 1, 2 },
	{ 6, 0, 3, 2, 3 },  { 2, 1, 0, 1, 2 },	{ 4, 1, 1, 1, 2 },
	{ 7, 1, 2, 1, 2 },  { 13, 1, 3, 2, 4 }, { 3, 2, 0, 1, 2 },
	{ 8, 2, 1, 1, 2 },  { 12, 2, 2, 2, 3 }, { 17, 2, 3, 2, 4 },
	{ 9, 3, 0, 2, 3 },  { 11, 3, 1, 2, 4 }, { 18, 3, 2, 2, 4 },
	{ 24, 3, 3, 3, 4 },
};

static inline double co511_k(int n, int t)
{
	static const int k[8][4] = {
		{ 11584, 16068, 15136, 13624 }, { 11584, 13624, 6270, -3196 },
		{ 11584, 9104, -6270, -16068 }, { 11584, 3196, -15136, -9104 },
		{ 11584, -3196, -15136, 9104 }, { 11584, -9104, -6270, 16068 },
		{ 11584, -13624, 6270, 3196 },	{ 11584, -16068, 15136, -13624 },
	};
	return k[n][t];
}

static inline int co511_img_block(void *ctx, int comp, int x, int y,
				  uint8_t *out)
{
	struct co511_img *e = (struct co511_img *)ctx;
	double rows[8][4], nrm[4] = { 0, 0, 0, 0 };
	int32_t z[64];
	int n = 1, big = 0;

	for (int t = 0; t < 4; t++)
		for (int q = 0; q < 8; q++)
			nrm[t] += co511_k(q, t) * co511_k(q, t);
	/* pixel(row r, col q) ~ sum K[q][u] K[r][v] D[u][v] / 2^30: project
	 * each row on the K[.][u], then the columns on the K[.][v] */
	for (int r = 0; r < 8; r++) {
		int yy = y + r < e->h[comp] ? y + r : e->h[comp] - 1;
		const uint8_t *row = e->pl[comp] + (size_t)yy * e->stride[comp] +
				     (size_t)x;

		for (int u = 0; u < 4; u++) {
			double s = 0;

			for (int q = 0; q < 8; q++)
				s += (row[q] - 128.0) * co511_k(q, u);
			rows[r][u] = s;
		}
	}
	memset(z, 0, sizeof(z));
	for (int c = 0; c < 16; c++) {
		int u = co511_used[c].u, v = co511_used[c].v, i = co511_used[c].i;
		int sh = comp ? co511_used[c].sc : co511_used[c].sy;
		double s = 0, d;

		for (int r = 0; r < 8; r++)
			s += rows[r][u] * co511_k(r, v);
		d = s * 1073741824.0 / (nrm[u] * nrm[v]);
		z[i] = (int32_t)lrint(d / (1 << sh));
		if (z[i] > 2047)
			z[i] = 2047;
		if (z[i] < -2048)
			z[i] = -2048;
	}
	for (int i = 1; i < 64; i++)
		if (z[i]) {
			n = i + 1;
			if (z[i] > 127 || z[i] < -128)
				big = 1;
		}
	return co511_record(z, n, !big, 1, out);
}

/* A compressed frame from planar YUV420 (w % 16, h % 16). */
static inline uint8_t *co511_image(const uint8_t *yuv, int w, int h,
				   size_t *len)
{
	struct co511_img e;
	size_t wh = (size_t)w * (size_t)h;

	e.pl[0] = yuv;
	e.pl[1] = yuv + wh;
	e.pl[2] = yuv + wh + wh / 4;
	e.stride[0] = w;
	e.stride[1] = e.stride[2] = w / 2;
	e.h[0] = h;
	e.h[1] = e.h[2] = h / 2;
	return co511_frame(w, h, co511_img_block, &e, len);
}

#endif
