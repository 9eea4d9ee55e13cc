/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* JPEG-Lite decoder (see jpgl.h). */
#include "jpeg/jpgl.h"
#include "jpeg/fail.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <linux/videodev2.h>

/* ---- tables ---- */

static inline uint8_t clamp8(int v)
{
	return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
}

/* clip[384 + v] = v clamped to 0..255, for v in -384..639 */
static uint8_t clip_tab[1024];

/* The prefix code: code bits, run, magnitude (run -1: EOB, -2/-3: escapes). */
static const struct {
	const char *code;
	int run, mag;
} vlc_codes[] = {
	{ "00", -1, 0 },        { "10", 0, 1 },         { "011", 0, 2 },
	{ "110", 1, 1 },        { "1110", 0, 3 },       { "01000", 2, 1 },
	{ "01011", 3, 1 },      { "010010", 1, 2 },     { "010100", 0, 4 },
	{ "111101", 4, 1 },     { "111110", 0, 5 },     { "1111000", 5, 1 },
	{ "1111001", 1, 3 },    { "1111110", 0, 6 },    { "0100110", -2, 0 },
	{ "0100111", -3, 0 },   { "01010100", 2, 2 },   { "01010111", 6, 1 },
	{ "11111111", 0, 7 },   { "010101010", 3, 2 },  { "010101100", 1, 4 },
	{ "111111100", 0, 8 },  { "0101010110", 1, 5 }, { "0101010111", 0, 9 },
	{ "0101011010", 7, 1 }, { "0101011011", 2, 3 }, { "1111111010", 0, 10 },
	{ "1111111011", 8, 1 },
};

enum { K_AC, K_EOB, K_ESCA, K_ESCB };

/* Indexed by the next 11 bits. AC: len includes the sign bit. */
struct vlc {
	int8_t amp;
	uint8_t len, adv, kind;
};

#define PEEK_BITS 11
static struct vlc vlc_tab[1 << PEEK_BITS];

/* The colour tables of the RGB output: 16.16 fixed-point BT.601 terms. */
struct ctab {
	int32_t y[256], r[256], gr[256], gb[256], b[256];
};
static struct ctab ctab;

static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void tables_init(void)
{
	for (int i = 0; i < 256; i++) {
		ctab.y[i] = 76284 * (i - 16);
		ctab.r[i] = 104595 * (i - 128);
		ctab.gr[i] = 53281 * (i - 128);
		ctab.gb[i] = 25625 * (i - 128);
		ctab.b[i] = 132252 * (i - 128);
	}
	for (int i = 0; i < 1024; i++)
		clip_tab[i] = clamp8(i - 384);
	for (unsigned i = 0; i < (1u << PEEK_BITS); i++) {
		struct vlc e = { 0, 0, 0, K_EOB };

		for (size_t c = 0; c < sizeof(vlc_codes) / sizeof(vlc_codes[0]);
		     c++) {
			unsigned len = (unsigned)strlen(vlc_codes[c].code),
				 v = 0;

			for (unsigned k = 0; k < len; k++)
				v = 2 * v +
				    (unsigned)(vlc_codes[c].code[k] - '0');
			if ((i >> (PEEK_BITS - len)) != v)
				continue;
			if (vlc_codes[c].run == -1) {
				e.kind = K_EOB;
				e.len = 2;
			} else if (vlc_codes[c].run < -1) {
				e.kind = vlc_codes[c].run == -2 ? K_ESCA
								: K_ESCB;
				e.len = 16;
			} else {
				int neg = (i >> (PEEK_BITS - len - 1)) & 1;

				e.kind = K_AC;
				e.len = (uint8_t)(len + 1);
				e.adv = (uint8_t)(vlc_codes[c].run + 1);
				e.amp = (int8_t)(neg ? -vlc_codes[c].mag
						     : vlc_codes[c].mag);
			}
			break;
		}
		vlc_tab[i] = e;
	}
}

/* Natural index (4 * row + column) of zig-zag position p. */
static const uint8_t zigzag[16] = { 0, 1,  4,  8,  5, 2,  3,  6,
				    9, 12, 13, 10, 7, 11, 14, 15 };

/* AC weight of zig-zag position p, quantiser q. */
static const uint32_t weights[4][16] = {
	{ 32768, 17808, 794, 18618, 850, 18618, 43115, 1828, 40960, 1924, 2089,
	  45511, 2089, 49648, 2216, 2521 },
	{ 32768, 35617, 1589, 37236, 1700, 37236, 86231, 3656, 81920, 3849,
	  4179, 91022, 4179, 99296, 4432, 5043 },
	{ 32768, 71234, 3179, 74472, 3401, 74472, 172463, 7313, 163840, 7698,
	  8358, 182044, 8358, 198593, 8865, 10087 },
	{ 32768, 142469, 6359, 148945, 6803, 148945, 344926, 14627, 327680,
	  15397, 16716, 364088, 16716, 397187, 17730, 20175 },
};

/* ---- bit reader: 64-bit window, MSB = next bit ---- */

struct bits {
	const uint8_t *s;
	size_t n;
	size_t pos; /* bytes taken into the window (even; may pass n) */
	uint64_t win;
	int cnt; /* valid bits at the top of win */
};

static inline uint64_t load_words(const uint8_t *p)
{
	/* 4 little-endian 16-bit words, first word in the top bits */
	return ((uint64_t)p[1] << 56) | ((uint64_t)p[0] << 48) |
	       ((uint64_t)p[3] << 40) | ((uint64_t)p[2] << 32) |
	       ((uint64_t)p[5] << 24) | ((uint64_t)p[4] << 16) |
	       ((uint64_t)p[7] << 8) | (uint64_t)p[6];
}

/*
 * At least 49 valid bits afterwards (called with at most 48). Bytes at or
 * past n read as zero.
 */
static inline void refill(struct bits *b)
{
	if (b->pos + 8 <= b->n) {
		int k = (64 - b->cnt) >> 4;

		/* The bits below the k words are the right ones too. */
		b->win |= load_words(b->s + b->pos) >> b->cnt;
		b->pos += 2 * (size_t)k;
		b->cnt += 16 * k;
		return;
	}
	while (b->cnt <= 48) {
		unsigned w = 0;

		if (b->pos < b->n)
			w = b->s[b->pos];
		if (b->pos + 1 < b->n)
			w |= (unsigned)b->s[b->pos + 1] << 8;
		b->win |= (uint64_t)w << (48 - b->cnt);
		b->cnt += 16;
		b->pos += 2;
	}
}

static inline void skip(struct bits *b, int n)
{
	b->win <<= n;
	b->cnt -= n;
}

/* ---- blocks ---- */

static inline uint8_t clip(int v)
{
	return clip_tab[384 + v];
}

/* Pass 2 of the transform on one row b (4 values) into 4 samples. */
static inline void idct_row(const uint32_t *b, uint8_t *o)
{
	uint32_t e = 128 * (b[0] + b[2]), f = 128 * (b[0] - b[2]);
	uint32_t p = 183 * b[1] + 86 * b[3], r = 86 * b[1] - 183 * b[3];

	/* (int32 >> 22) + 128 lies in -384..639 */
	o[0] = clip(((int32_t)(e + p) >> 22) + 128);
	o[1] = clip(((int32_t)(f + r) >> 22) + 128);
	o[2] = clip(((int32_t)(f - r) >> 22) + 128);
	o[3] = clip(((int32_t)(e - p) >> 22) + 128);
}

/*
 * 4x4 inverse transform of c (natural order), wrapping int32 arithmetic;
 * mask: bit i set when c[i] may be non-zero (i >= 1).
 */
static void idct(const uint32_t c[16], unsigned mask, uint8_t out[16])
{
	uint32_t g[16];

	if (!(mask & 0xfff0)) {
		/* row 0 only: pass 1 copies it to every row */
		idct_row(c, out);
		memcpy(out + 4, out, 4);
		memcpy(out + 8, out, 8);
		return;
	}
	if (!(mask & ~0x1111u)) {
		/* column 0 only: every row of pass 2 is flat */
		uint32_t a0 = c[0], a1 = c[4], a2 = c[8], a3 = c[12];
		uint32_t e = a0 + a2, f = a0 - a2;
		uint32_t p = 32 * a1 + 16 * a3, r = 15 * a1 - 32 * a3;

		memset(out, clip(((int32_t)(128 * (e + p)) >> 22) + 128), 4);
		memset(out + 4, clip(((int32_t)(128 * (f + r)) >> 22) + 128),
		       4);
		memset(out + 8, clip(((int32_t)(128 * (f - r)) >> 22) + 128),
		       4);
		memset(out + 12, clip(((int32_t)(128 * (e - p)) >> 22) + 128),
		       4);
		return;
	}

	for (int u = 0; u < 4; u++) {
		uint32_t a0 = c[u], a1 = c[4 + u], a2 = c[8 + u],
			 a3 = c[12 + u];
		uint32_t e = a0 + a2, f = a0 - a2;
		uint32_t p = 32 * a1 + 16 * a3, r = 15 * a1 - 32 * a3;

		g[u] = e + p;
		g[4 + u] = f + r;
		g[8 + u] = f - r;
		g[12 + u] = e - p;
	}
	for (int y = 0; y < 4; y++)
		idct_row(g + 4 * y, out + 4 * y);
}

/* One block: header, AC codes, samples into out (row-major 4x4). */
static void block(struct bits *b, int *dc, uint8_t out[16])
{
	uint32_t c[16];
	const uint32_t *wt;
	unsigned h, mask = 0;
	int p = 0;

	if (b->cnt < 11)
		refill(b);
	h = (unsigned)(b->win >> 53);
	wt = weights[h >> 9];
	if (h & 0x100) {
		*dc += (int)((h >> 3) & 15) - (int)(h & 0x80 ? 16 : 0);
		skip(b, 8);
	} else {
		*dc = (int)(h & 127) - (int)(h & 128);
		skip(b, 11);
	}
	memset(c, 0, sizeof(c));
	c[0] = (uint32_t)*dc << 15;
	for (;;) {
		struct vlc e;
		int amp;

		if (b->cnt < 16) /* a code takes at most 16 bits */
			refill(b);
		e = vlc_tab[b->win >> (64 - PEEK_BITS)];
		if (e.kind == K_AC) {
			p += e.adv;
			amp = e.amp;
		} else if (e.kind == K_EOB) {
			skip(b, 2);
			break;
		} else {
			unsigned v = (unsigned)(b->win >> 48) & 511;

			if (e.kind == K_ESCA) {
				p += (int)((v >> 5) & 7) + 1;
				amp = (int)(v & 31);
			} else {
				p += (int)((v >> 4) & 15) + 1;
				amp = (int)(v & 15);
			}
			if (v & 256)
				amp = -amp;
		}
		skip(b, e.len);
		if (p > 15) {
			/* Aborted: the raw coefficients, untransformed. */
			for (int i = 0; i < 16; i++) {
				int64_t v = (int64_t)(int32_t)c[i] + 128;

				out[i] = (uint8_t)(v < 0     ? 0
						   : v > 255 ? 255
							     : v);
			}
			return;
		}
		c[zigzag[p]] = (uint32_t)amp * wt[p];
		mask |= 1u << zigzag[p];
	}
	if (!mask) {
		/* DC only: (dc << 22) >> 22, in int32 */
		int32_t s = (int32_t)((uint32_t)*dc << 22) >> 22;

		memset(out, clip(s + 128), 16);
		return;
	}
	idct(c, mask, out);
}

/* ---- block rows ---- */

/*
 * The row scratch, laid out like the original's: luma 4 lines of stride
 * w at 0, Cr 4 lines of stride s = w / 4 + 1 at 4w, Cb at 5w + 4, then
 * slack for the spill of a last macroblock that passes the right edge.
 */
#define SCRATCH_SLACK 64

static void place(uint8_t *scr, int w, int x0, uint8_t blk[6][16], int exact)
{
	int s = w / 4 + 1;
	uint8_t *lum = scr, *cr = scr + 4 * w, *cb = scr + 5 * w + 4;

	if (!exact) {
		for (int y = 0; y < 4; y++) {
			for (int k = 0; k < 4; k++)
				memcpy(lum + y * w + x0 + 4 * k, blk[k] + 4 * y,
				       4);
			memcpy(cr + x0 / 4 + y * s, blk[5] + 4 * y, 4);
			memcpy(cb + x0 / 4 + y * s, blk[4] + 4 * y, 4);
		}
		return;
	}
	/* Past the right edge: the stores in the original's order. */
	for (int y = 0; y < 4; y++)
		for (int x = 0; x < 4; x++) {
			for (int k = 0; k < 4; k++)
				lum[y * w + x0 + 4 * k + x] = blk[k][4 * y + x];
			cr[x0 / 4 + y * s + x] = blk[5][4 * y + x];
			cb[x0 / 4 + y * s + x] = blk[4][4 * y + x];
		}
}

static void decode_row(struct bits *b, uint8_t *scr, int w)
{
	int s = w / 4 + 1;
	int dcy = 0, dcb = 0, dcr = 0;
	uint8_t blk[6][16];

	for (int x0 = 0; x0 < w; x0 += 16) {
		for (int k = 0; k < 4; k++)
			block(b, &dcy, blk[k]);
		block(b, &dcb, blk[4]);
		block(b, &dcr, blk[5]);
		place(scr, w, x0, blk, x0 + 16 > w);
	}
	for (int y = 0; y < 4; y++) {
		uint8_t *cr = scr + 4 * w + y * s,
			*cb = scr + 5 * w + 4 + y * s;

		cr[w / 4] = cr[w / 4 - 1];
		cb[w / 4] = cb[w / 4 - 1];
	}
}

/* ---- output ---- */

/* (v >> 16) lies in -278..535 for every Y, Cb, Cr */
static inline uint8_t clamp_sh16(int32_t v)
{
	return clip(v >> 16);
}

/* One line of 4:1:1 samples to RGB24 (bgr 0) or BGR24 (bgr 1). */
static inline void line_rgb(const struct ctab *restrict t,
			    const uint8_t *restrict lum,
			    const uint8_t *restrict cr,
			    const uint8_t *restrict cb, int groups,
			    uint8_t *restrict o, const int bgr)
{
	for (int g = 0; g < groups; g++, lum += 4, o += 12) {
		int r0 = cr[g], r1 = cr[g + 1], b0 = cb[g], b1 = cb[g + 1];
		int rv[4] = { r0, (3 * r0 + r1) >> 2, (r0 + r1) >> 1,
			      (r0 + 3 * r1) >> 2 };
		int bv[4] = { b0, (3 * b0 + b1) >> 2, (b0 + b1) >> 1,
			      (b0 + 3 * b1) >> 2 };
		uint8_t px[12];

		for (int m = 0; m < 4; m++) {
			int32_t yy = t->y[lum[m]];
			uint8_t r = clamp_sh16(yy + t->r[rv[m]]);
			uint8_t gg =
				clamp_sh16(yy - t->gr[rv[m]] - t->gb[bv[m]]);
			uint8_t b = clamp_sh16(yy + t->b[bv[m]]);

			px[3 * m] = bgr ? b : r;
			px[3 * m + 1] = gg;
			px[3 * m + 2] = bgr ? r : b;
		}
		memcpy(o, px, 12);
	}
}

static void row_rgb(const struct ctab *t, const uint8_t *scr, int w,
		    uint8_t *dst, int bgr)
{
	int s = w / 4 + 1;

	for (int y = 0; y < 4; y++) {
		const uint8_t *lum = scr + y * w;
		const uint8_t *cr = scr + 4 * w + y * s;
		const uint8_t *cb = scr + 5 * w + 4 + y * s;
		uint8_t *o = dst + (size_t)y * 3 * w;

		if (bgr)
			line_rgb(t, lum, cr, cb, w / 4, o, 1);
		else
			line_rgb(t, lum, cr, cb, w / 4, o, 0);
	}
}

/*
 * 4:2:0 chroma of line pair (l, l + 1) of the row from one chroma area:
 * per column pair the sum over both lines of 8x the interpolated chroma
 * of its two pixels ((7 c0 + c1) or (3 c0 + 5 c1)), rounded / 16.
 */
static void chroma_pair(const uint8_t *area, int w, int l, uint8_t *out)
{
	int s = w / 4 + 1;
	const uint8_t *a = area + l * s, *b = a + s;

	for (int g = 0; g < w / 4; g++) {
		int a0 = a[g], a1 = a[g + 1], b0 = b[g], b1 = b[g + 1];

		out[2 * g] = (uint8_t)((7 * (a0 + b0) + a1 + b1 + 8) >> 4);
		out[2 * g + 1] =
			(uint8_t)((3 * (a0 + b0) + 5 * (a1 + b1) + 8) >> 4);
	}
}

size_t v4lc_jpgl_work_size(int width)
{
	if (width <= 0 || width > V4LC_JPGL_MAX_DIM)
		return 0;
	return (size_t)6 * (size_t)width + 8 + SCRATCH_SLACK;
}

/* Block row r (4 lines, decoded into scr) into the YUV planes of dst. */
static void row_yuv(const uint8_t *scr, int w, int h, int r, int yvu,
		    uint8_t *dst)
{
	size_t luma = (size_t)w * (size_t)h;
	size_t cplane = (size_t)(w / 2) * (size_t)((h + 1) / 2);

	memcpy(dst + (size_t)r * 4 * w, scr, 4 * (size_t)w);
	for (int l = 0; l < 4; l += 2) {
		size_t off = (size_t)(2 * r + l / 2) * (size_t)(w / 2);
		uint8_t *u = dst + luma + off, *v = u + cplane;

		if (yvu) {
			uint8_t *x = u;

			u = v;
			v = x;
		}
		chroma_pair(scr + 5 * w + 4, w, l, u);
		chroma_pair(scr + 4 * w, w, l, v);
	}
}

int v4lc_jpgl_decode(const uint8_t *src, size_t n, uint32_t fourcc,
		     uint8_t *dst, size_t dst_size, int w, int h, uint8_t *work,
		     char *err, size_t err_len)
{
	struct bits b = { src, src ? n : 0, 0, 0, 0 };
	int yuv, bgr = fourcc == V4L2_PIX_FMT_BGR24;
	size_t need, luma;

	if (w <= 0 || h < 4 || w % 4 || w > V4LC_JPGL_MAX_DIM ||
	    h > V4LC_JPGL_MAX_DIM)
		return v4lc_jpeg_fail(err, err_len, -EINVAL,
				      "bad JPGL size %dx%d", w, h);
	luma = (size_t)w * (size_t)h;
	switch (fourcc) {
	case V4L2_PIX_FMT_RGB24:
	case V4L2_PIX_FMT_BGR24:
		yuv = 0;
		need = 3 * luma;
		break;
	case V4L2_PIX_FMT_YUV420:
	case V4L2_PIX_FMT_YVU420:
		yuv = 1;
		need = luma + 2 * (size_t)(w / 2) * (size_t)((h + 1) / 2);
		break;
	default:
		return v4lc_jpeg_fail(err, err_len, -EINVAL,
				      "JPGL: unsupported destination format");
	}
	if (!dst || dst_size < need)
		return v4lc_jpeg_fail(err, err_len, -EFAULT,
				      "JPGL: destination too small");
	pthread_once(&tables_once, tables_init);
	for (int r = 0; r < h / 4; r++) {
		decode_row(&b, work, w);
		if (yuv)
			row_yuv(work, w, h, r, fourcc == V4L2_PIX_FMT_YVU420,
				dst);
		else
			row_rgb(&ctab, work, w, dst + (size_t)r * 12 * w, bgr);
	}
	/*
	 * Bits taken: 8 * pos - cnt. The frame has 16 * (n / 2): of an odd
	 * last byte, the low half of a word, the first 8 bits are missing.
	 */
	if (8 * (uint64_t)b.pos - (uint64_t)b.cnt > 16 * (uint64_t)(b.n / 2))
		return v4lc_jpeg_fail(err, err_len, -EPIPE,
				      "short JPGL frame (%zu bytes)", n);
	return 0;
}
