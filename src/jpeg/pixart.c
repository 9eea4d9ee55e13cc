/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Pixart JPEG (PJPG) decoder: our own baseline Huffman decoder (64-bit bit
 * buffer, 9-bit lookup tables), a float IDCT and 4:2:2 output stages.
 *
 * Quantization: the frame carries no tables. The original library builds
 * them per MCU marker from tables found by trial and error; we measured
 * its behaviour black-box (single-coefficient frames through the
 * distribution's libv4lconvert) and reproduce the measured structure:
 *   - the DC step is 8 (luma, and chroma when marker bit 7 is set) or 16
 *     (chroma otherwise);
 *   - index i = (marker >> 2) & 31 selects a scale S[i] (percent);
 *   - i >= 16: luma AC steps are 8, 16, 32, 64 (zigzag 1-5, 6-27, 28-42,
 *     43-63) times S; i < 16: 8, 16, 32 (zigzag 1-27, 28-53, 54-63) times S;
 *   - chroma with bit 7 set uses the luma table; otherwise its zigzag 1-5
 *     and 6-14 take the luma's second and third step and 15-63 that third
 *     step times 99/32.
 * With the scales below, a test image coded with each marker 0x04-0xfc
 * decodes to the original's bytes, apart from a few bytes for 0xb0, 0xb4
 * and 0xe8 (+-1 or 2, float rounding at a boundary, it seems). Marker 0
 * is never sent by the hardware; the original then uses tables it has not
 * set up (a black frame); we use the index-0 tables.
 * Arithmetic, also matched black-box: the IDCT result v becomes
 * ((int)(8 v) + 4) >> 3 (truncation, then rounding down) plus 128; RGB is
 * 10-bit fixed-point JFIF with the chroma of a pair of pixels replicated.
 * RGB24 output is then byte-identical with the original's apart from rare
 * +-1 where the two float IDCTs round a boundary value differently.
 * YUV420: luma identical; chroma averaged over each 4:2:2 row pair (the
 * original keeps the even row).
 */
#include "jpeg/pixart.h"
#include "jpeg/fail.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <linux/videodev2.h>

#define LOOK 9

struct huff {
	/* lookup: (length << 8) | symbol, 0 = longer code */
	uint16_t look[1 << LOOK];
	int32_t maxcode[18]; /* largest code of each length, -1 if none */
	int32_t valptr[17];  /* index of the first symbol of each length */
	int32_t mincode[17];
	uint8_t vals[256];
};

struct v4lc_pjpg {
	struct huff dc[2], ac[2];
	uint8_t *buf; /* the de-chunked entropy data */
	size_t buf_size;
	float idct[8][8];   /* [x][u] */
	float idct_t[8][8]; /* [u][x] */
	int16_t cr_r[256], cb_b[256];
	int32_t cb_g[256], cr_g[256];
	uint8_t clip[1024]; /* clip[384 + v] = v clamped to 0-255 */
};

static const uint8_t zigzag[64] = {
	0,  1,  8,  16, 9,  2,  3,  10, 17, 24, 32, 25, 18, 11, 4,  5,
	12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6,  7,  14, 21, 28,
	35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51,
	58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
	/* k > 63 (corrupt runs) never index this table */
};

/* Scales (percent) of the 32 marker indices: measured, then each settled
 * where our output matched the original's exactly. */
static const uint16_t scale[32] = {
	25,  30,  35,  40,  45,  50,  55,  60,  65,  70,  75,
	80,  85,  90,  95,  100, 100, 100, 120, 140, 160, 180,
	210, 240, 270, 300, 330, 360, 390, 420, 450, 480,
};

static int step(int base, int s)
{
	int v = (base * s + 50) / 100;

	return v < 1 ? 1 : v > 255 ? 255 : v;
}

void v4lc_pjpg_qtable(int marker, int chroma, uint16_t q[64])
{
	int i = (marker >> 2) & 31, s = scale[i];
	uint16_t y[64];
	int g2, g3;

	y[0] = 8;
	for (int k = 1; k < 64; k++) {
		if (i >= 16)
			y[k] = (uint16_t)step(k < 6    ? 8
					      : k < 28 ? 16
					      : k < 43 ? 32
						       : 64,
					      s);
		else if (k < 28)
			y[k] = (uint16_t)step(8, s);
		else
			y[k] = (uint16_t)step(k < 54 ? 16 : 32, s);
	}
	if (!chroma || (marker & 0x80)) {
		for (int k = 0; k < 64; k++)
			q[zigzag[k]] = y[k];
		return;
	}
	g2 = i >= 16 ? y[6] : y[28];
	g3 = i >= 16 ? y[28] : y[54];
	q[0] = 16;
	for (int k = 1; k < 64; k++) {
		int v = k < 6 ? g2 : k < 15 ? g3 : (g3 * 99 + 16) / 32;

		q[zigzag[k]] = (uint16_t)(v > 255 ? 255 : v);
	}
}

static void huff_build(struct huff *h, const JHUFF_TBL *t)
{
	int code = 0, k = 0;

	memset(h, 0, sizeof(*h));
	for (int l = 1; l <= 16; l++) {
		h->valptr[l] = k;
		h->mincode[l] = code;
		for (int i = 0; i < t->bits[l]; i++, k++, code++) {
			h->vals[k] = t->huffval[k];
			if (l <= LOOK) {
				int shift = LOOK - l;

				for (int f = 0; f < (1 << shift); f++)
					h->look[(code << shift) | f] =
						(uint16_t)((l << 8) |
							   t->huffval[k]);
			}
		}
		h->maxcode[l] = t->bits[l] ? code - 1 : -1;
		code <<= 1;
	}
	h->maxcode[17] = 0x7fffffff; /* sentinel: invalid code */
}

static void build_colour(struct v4lc_pjpg *p);

struct v4lc_pjpg *v4lc_pjpg_new(void)
{
	struct v4lc_pjpg *p = calloc(1, sizeof(*p));
	struct jpeg_compress_struct c;
	struct jpeg_error_mgr e;

	if (!p)
		return NULL;
	/* The standard tables (ITU-T T.81 K.3) as libjpeg's defaults. */
	c.err = jpeg_std_error(&e);
	jpeg_create_compress(&c);
	c.in_color_space = JCS_YCbCr;
	c.input_components = 3;
	jpeg_set_defaults(&c);
	for (int t = 0; t < 2; t++) {
		huff_build(&p->dc[t], c.dc_huff_tbl_ptrs[t]);
		huff_build(&p->ac[t], c.ac_huff_tbl_ptrs[t]);
	}
	jpeg_destroy_compress(&c);
	for (int x = 0; x < 8; x++)
		for (int u = 0; u < 8; u++)
			p->idct[x][u] = p->idct_t[u][x] =
				(float)((u ? 0.5 : 0.5 * M_SQRT1_2) *
					cos((2 * x + 1) * u * M_PI / 16));
	build_colour(p);
	return p;
}

void v4lc_pjpg_free(struct v4lc_pjpg *p)
{
	if (!p)
		return;
	free(p->buf);
	free(p);
}

/* ---- bit reader over the de-chunked data (0xff 0x00 stuffing) ---- */

struct bits {
	const uint8_t *p, *end;
	uint64_t acc; /* left-aligned */
	int n;
	int extra; /* made-up bits at the bottom of acc (data ended) */
};

static void refill(struct bits *b)
{
	while (b->n <= 56) {
		uint8_t c = 0;

		if (b->p < b->end && !(b->p[0] == 0xff && b->p + 1 < b->end &&
				       b->p[1] != 0x00)) {
			c = *b->p++;
			if (c == 0xff) {
				if (b->p < b->end)
					b->p++; /* the stuffed 0x00 */
			}
		} else {
			b->extra += 8;
		}
		b->acc |= (uint64_t)c << (56 - b->n);
		b->n += 8;
	}
}

static inline uint32_t peek(struct bits *b, int k)
{
	return (uint32_t)(b->acc >> (64 - k));
}

static inline void skip(struct bits *b, int k)
{
	b->acc <<= k;
	b->n -= k;
}

static inline uint32_t getb(struct bits *b, int k)
{
	uint32_t v;

	if (!k)
		return 0;
	if (b->n < k)
		refill(b);
	v = peek(b, k);
	skip(b, k);
	return v;
}

/* One Huffman symbol, or -1 for an invalid code. */
static inline int decode_sym(struct bits *b, const struct huff *h)
{
	uint32_t e;
	int l;
	int32_t code;

	if (b->n < 16)
		refill(b);
	e = h->look[peek(b, LOOK)];
	if (e) {
		skip(b, e >> 8);
		return e & 0xff;
	}
	for (l = LOOK + 1; l <= 16; l++) {
		code = (int32_t)peek(b, l);
		if (h->maxcode[l] >= 0 && code <= h->maxcode[l] &&
		    code >= h->mincode[l]) {
			skip(b, l);
			return h->vals[h->valptr[l] + code - h->mincode[l]];
		}
	}
	return -1;
}

static inline int extend(uint32_t v, int s)
{
	return v < (1u << (s - 1)) ? (int)v - (1 << s) + 1 : (int)v;
}

/* Decode one block into coef (natural order, dequantized). 0 or -1. */
static int decode_block(struct bits *b, const struct huff *dc,
			const struct huff *ac, const uint16_t *q, int *pred,
			float *coef, int *only_dc)
{
	int s = decode_sym(b, dc), k;

	if (s < 0 || s > 11)
		return -1;
	*pred += s ? extend(getb(b, s), s) : 0;
	memset(coef, 0, 64 * sizeof(float));
	coef[0] = (float)(*pred * q[0]);
	*only_dc = 1;
	for (k = 1; k < 64;) {
		int rs = decode_sym(b, ac), r, z;

		if (rs < 0)
			return -1;
		r = rs >> 4;
		z = rs & 15;
		if (!z) {
			if (r != 15)
				break; /* EOB */
			k += 16;
			continue;
		}
		k += r;
		if (k > 63)
			return -1;
		coef[zigzag[k]] = (float)(extend(getb(b, z), z) * q[zigzag[k]]);
		*only_dc = 0;
		k++;
	}
	return 0;
}

/*
 * v + 128, rounded and clamped the way the original's decoder does (found
 * black-box): 8 v truncated toward zero, then rounded down to a multiple
 * of 8 after adding 4, so negative values round up a little more often.
 */
static inline uint8_t clamp8(float v)
{
	float s = v * 8.0f;
	int i;

	if (s <= -1100.0f)
		return 0;
	if (s >= 1100.0f)
		return 255;
	i = (((int)s + 4) >> 3) + 128;
	return (uint8_t)(i < 0 ? 0 : i > 255 ? 255 : i);
}

/*
 * IDCT of one block into 8x8 samples (stride 8): two passes of 8x8 matrix
 * products, written so that the inner loops run over 8 contiguous floats
 * (the compiler vectorizes them); rows of zero coefficients are skipped.
 */
static void idct(const struct v4lc_pjpg *p, const float *c, int only_dc,
		 uint8_t *out)
{
	float t[64];
	int rows[8], nrows = 0, cols[8], ncols = 0, colmask = 0;

	if (only_dc) {
		memset(out, clamp8(c[0] / 8), 64);
		return;
	}
	for (int v = 0; v < 8; v++) {
		int nz = 0;

		for (int u = 0; u < 8; u++)
			if (c[v * 8 + u] != 0) {
				nz = 1;
				colmask |= 1 << u;
			}
		if (nz)
			rows[nrows++] = v;
	}
	/* Columns of zero coefficients give zero intermediate columns: the
	 * horizontal pass skips them (adding exact zeros changes nothing). */
	for (int u = 0; u < 8; u++)
		if (colmask & (1 << u))
			cols[ncols++] = u;
	/* vertical: t[y][u] = sum_v C(y, v) c[v][u] */
	for (int y = 0; y < 8; y++) {
		float acc[8] = { 0 };

		for (int r = 0; r < nrows; r++) {
			int v = rows[r];
			float k = p->idct[y][v];

			for (int u = 0; u < 8; u++)
				acc[u] += k * c[v * 8 + u];
		}
		memcpy(t + y * 8, acc, sizeof(acc));
	}
	/* horizontal: out[y][x] = sum_u t[y][u] C(x, u) */
	for (int y = 0; y < 8; y++) {
		float acc[8] = { 0 };

		for (int i = 0; i < ncols; i++) {
			int u = cols[i];
			float k = t[y * 8 + u];

			for (int x = 0; x < 8; x++)
				acc[x] += k * p->idct_t[u][x];
		}
		for (int x = 0; x < 8; x++)
			out[y * 8 + x] = clamp8(acc[x]);
	}
}

/* Full-range (JFIF) YCbCr to RGB, 16-bit fixed point, through tables. */
#define FIX10(x) ((int)((x)*1024 + 0.5))

static void build_colour(struct v4lc_pjpg *p)
{
	/* 10-bit fixed point with the rounding half added to each term: the
	 * arithmetic whose results match the original's output. */
	for (int i = 0; i < 256; i++) {
		int c = i - 128;

		p->cr_r[i] = (int16_t)((FIX10(1.40200) * c + 512) >> 10);
		p->cb_b[i] = (int16_t)((FIX10(1.77200) * c + 512) >> 10);
		p->cb_g[i] = -FIX10(0.34414) * c;
		p->cr_g[i] = -FIX10(0.71414) * c + 512;
	}
	for (int i = 0; i < 1024; i++) {
		int v = i - 384;

		p->clip[i] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
	}
}

/* One MCU (16x8) to packed RGB or BGR rows of stride `stride`. */
static void mcu_rgb(const struct v4lc_pjpg *p, uint8_t blk[4][64], uint8_t *dst,
		    size_t stride, int bgr)
{
	const uint8_t *clip = p->clip + 384;
	int ri = bgr ? 2 : 0, bi = bgr ? 0 : 2;

	for (int y = 0; y < 8; y++, dst += stride) {
		const uint8_t *cb = blk[2] + y * 8, *cr = blk[3] + y * 8;

		for (int x = 0; x < 8; x++) {
			int dr = p->cr_r[cr[x]], db = p->cb_b[cb[x]];
			int dg = (p->cb_g[cb[x]] + p->cr_g[cr[x]]) >> 10;
			const uint8_t *ys = blk[x >> 2] + y * 8 + (x & 3) * 2;
			uint8_t *o = dst + 6 * x;

			o[ri] = clip[ys[0] + dr];
			o[1] = clip[ys[0] + dg];
			o[bi] = clip[ys[0] + db];
			o[3 + ri] = clip[ys[1] + dr];
			o[4] = clip[ys[1] + dg];
			o[3 + bi] = clip[ys[1] + db];
		}
	}
}

/* Remove the chunk headers; returns the entropy data length, or <0. */
static long dechunk(struct v4lc_pjpg *p, const uint8_t *s, size_t n,
		    int *short_frame, char *err, size_t err_len)
{
	size_t out = 0, chunk = 1018;
	int code, rest = 0;

	if (n < 1)
		return v4lc_jpeg_fail(err, err_len, -EPIPE,
				      "short Pixart JPEG frame");
	if (p->buf_size < n) {
		uint8_t *nb = malloc(n);

		if (!nb)
			return v4lc_jpeg_fail(err, err_len, -ENOMEM,
					      "out of memory");
		free(p->buf);
		p->buf = nb;
		p->buf_size = n;
	}
	code = *s++;
	n--;
	if (code == 0x60) { /* 160x120: not chunked */
		memcpy(p->buf, s, n);
		return (long)n;
	}
	for (;;) {
		if (n < chunk) {
			/* A chunk must be complete (the original refuses the
			 * frame); we decode what there is. */
			memcpy(p->buf + out, s, n);
			*short_frame = 1;
			return (long)(out + n);
		}
		memcpy(p->buf + out, s, chunk);
		out += chunk;
		s += chunk;
		n -= chunk;
		if (rest)
			break;
		if (n < 4) {
			*short_frame = 1; /* no header with code 0 */
			break;
		}
		if (s[0] != 0xff || s[1] != 0xff || s[2] != 0xff)
			return v4lc_jpeg_fail(
				err, err_len, -EPIPE,
				"missing Pixart chunk header after %zu "
				"bytes",
				out);
		if (s[3] > 6)
			return v4lc_jpeg_fail(err, err_len, -EPIPE,
					      "bad Pixart chunk size code %d",
					      s[3]);
		rest = !s[3]; /* code 0: the rest of the frame */
		chunk = rest ? n - 4 : (size_t)2048 >> s[3];
		s += 4;
		n -= 4;
	}
	return (long)out;
}

/* What the header says: size, component ids, the chroma Huffman tables. */
struct header {
	int w, h;
	int ids[3];
	int tdc[2], tac[2]; /* DC and AC table of Cb, Cr */
	size_t sos;         /* where the entropy-coded data starts */
};

/* The SOF0: Pixart's layout (8-bit, Y 2x1, Cb and Cr 1x1) only. */
static int parse_sof(const uint8_t *f, size_t l, struct header *hd)
{
	if (l != 17 || f[0] != 8 || f[5] != 3 || f[7] != 0x21 ||
	    f[10] != 0x11 || f[13] != 0x11)
		return -1;
	hd->h = (f[1] << 8) | f[2];
	hd->w = (f[3] << 8) | f[4];
	for (int c = 0; c < 3; c++)
		hd->ids[c] = f[6 + 3 * c];
	return 0;
}

/*
 * The SOS: one scan of the three components in SOF order, luma with
 * Huffman tables 0, chroma with 0 or 1.
 */
static int parse_sos(const uint8_t *f, size_t l, struct header *hd)
{
	if (hd->w < 0 || l != 12 || f[0] != 3)
		return -1;
	for (int c = 0; c < 3; c++)
		if (f[1 + 2 * c] != hd->ids[c] || (f[2 + 2 * c] & 0xee) ||
		    (!c && f[2]))
			return -2;
	for (int c = 0; c < 2; c++) {
		hd->tdc[c] = f[4 + 2 * c] >> 4;
		hd->tac[c] = f[4 + 2 * c] & 15;
	}
	return 0;
}

/* The marker segments up to the SOS. 0 or -EAGAIN. */
static int parse_header(const uint8_t *src, size_t n, struct header *hd,
			char *err, size_t err_len)
{
	size_t i = 2;

	*hd = (struct header){ -1, -1, { 0, 0, 0 }, { 1, 1 }, { 1, 1 }, 0 };
	while (!hd->sos) {
		size_t l;
		uint8_t m;
		int r;

		if (i + 4 > n)
			return v4lc_jpeg_fail(err, err_len, -EAGAIN,
					      "JPEG header cut short");
		if (src[i] != 0xff)
			return v4lc_jpeg_fail(err, err_len, -EAGAIN,
					      "bad JPEG marker");
		m = src[i + 1];
		if (m == 0xff) {
			i++;
			continue;
		}
		l = ((size_t)src[i + 2] << 8) | src[i + 3];
		if (l < 2 || i + 2 + l > n)
			return v4lc_jpeg_fail(err, err_len, -EAGAIN,
					      "JPEG segment cut short");
		if (m == 0xc0 || m == 0xc1) {
			if (parse_sof(src + i + 4, l, hd))
				return v4lc_jpeg_fail(
					err, err_len, -EAGAIN,
					"not a Pixart 4:2:2 frame");
		} else if (m == 0xda) {
			r = parse_sos(src + i + 4, l, hd);
			if (r)
				return v4lc_jpeg_fail(
					err, err_len, -EAGAIN, "%s",
					r == -1 ? "unsupported JPEG scan"
						: "JPEG scan does not "
						  "match the frame");
			hd->sos = i + 2 + l;
		} else if ((m >= 0xc2 && m <= 0xcf && m != 0xc4 && m != 0xcc) ||
			   m == 0xd9) {
			return v4lc_jpeg_fail(err, err_len, -EAGAIN,
					      "unsupported JPEG marker 0x%02x",
					      m);
		}
		i += 2 + l;
	}
	if (hd->w < 0)
		return v4lc_jpeg_fail(err, err_len, -EAGAIN,
				      "JPEG frame without SOF");
	return 0;
}

/*
 * One MCU (16x8) into planar 4:2:0: luma copied, the chroma of each 4:2:2
 * row pair averaged.
 */
static void mcu_yuv(uint8_t blk[4][64], uint8_t *dst, int w, int h, int mx,
		    int my, int yvu)
{
	size_t cw = (size_t)w / 2;
	uint8_t *up = dst + (size_t)w * h, *vp = up + cw * (h / 2);

	if (yvu) {
		uint8_t *t = up;

		up = vp;
		vp = t;
	}
	for (int y = 0; y < 8; y++) {
		memcpy(dst + (size_t)(my + y) * w + mx, blk[0] + y * 8, 8);
		memcpy(dst + (size_t)(my + y) * w + mx + 8, blk[1] + y * 8, 8);
	}
	for (int y = 0; y < 4; y++)
		for (int x = 0; x < 8; x++) {
			size_t o = (size_t)(my / 2 + y) * cw + mx / 2 + x;

			up[o] = (uint8_t)((blk[2][2 * y * 8 + x] +
					   blk[2][(2 * y + 1) * 8 + x] + 1) >>
					  1);
			vp[o] = (uint8_t)((blk[3][2 * y * 8 + x] +
					   blk[3][(2 * y + 1) * 8 + x] + 1) >>
					  1);
		}
}

/* The destination of a frame. */
struct out {
	uint8_t *dst;
	int w, h;
	int rgb, bgr, yvu;
};

/*
 * The MCUs from the bit reader into the destination: 0, or -EPIPE where
 * the data ends or breaks (dst keeps what was decoded; the rest is left
 * as it is).
 */
static int decode_mcus(const struct v4lc_pjpg *p, const struct header *hd,
		       struct bits *b, const struct out *o, char *err,
		       size_t err_len)
{
	int first = -1, cur = -1, pred[3] = { 0, 0, 0 };
	uint16_t q[2][64];
	float coef[64];
	uint8_t blk[4][64];

	for (int my = 0; my < o->h; my += 8)
		for (int mx = 0; mx < o->w; mx += 16) {
			int marker, od;

			if (b->n < b->extra)
				return v4lc_jpeg_fail(
					err, err_len, -EPIPE,
					"short Pixart JPEG frame");
			marker = (int)getb(b, 8);
			if (first < 0)
				first = marker;
			else if ((marker ^ first) & 0x80)
				return v4lc_jpeg_fail(
					err, err_len, -EPIPE,
					"Pixart JPEG: chrominance table "
					"changed within the frame");
			if (marker != cur) {
				v4lc_pjpg_qtable(marker, 0, q[0]);
				v4lc_pjpg_qtable(marker, 1, q[1]);
				cur = marker;
			}
			for (int k = 0; k < 4; k++) {
				int c = k < 2 ? 0 : k - 1;

				/* EPIPE like the original: the frame is
				 * partly decoded. */
				if (decode_block(b,
						 &p->dc[c ? hd->tdc[c - 1] : 0],
						 &p->ac[c ? hd->tac[c - 1] : 0],
						 q[!!c], &pred[c], coef, &od))
					return v4lc_jpeg_fail(
						err, err_len, -EPIPE,
						"corrupt Pixart JPEG data "
						"at %dx%d",
						mx, my);
				idct(p, coef, od, blk[k]);
			}
			if (o->rgb)
				mcu_rgb(p, blk,
					o->dst + ((size_t)my * o->w + mx) * 3,
					(size_t)o->w * 3, o->bgr);
			else
				mcu_yuv(blk, o->dst, o->w, o->h, mx, my,
					o->yvu);
		}
	return 0;
}

int v4lc_pjpg_decode(struct v4lc_pjpg *p, const uint8_t *src, size_t n,
		     uint32_t fourcc, uint8_t *dst, size_t dst_size, int w,
		     int h, char *err, size_t err_len)
{
	struct out o = { dst, w, h, 1, 0, 0 };
	struct header hd;
	struct bits b;
	size_t need;
	int short_frame = 0, ret;
	long len;

	switch (fourcc) {
	case V4L2_PIX_FMT_RGB24:
		break;
	case V4L2_PIX_FMT_BGR24:
		o.bgr = 1;
		break;
	case V4L2_PIX_FMT_YUV420:
		o.rgb = 0;
		break;
	case V4L2_PIX_FMT_YVU420:
		o.rgb = 0;
		o.yvu = 1;
		break;
	default:
		return v4lc_jpeg_fail(err, err_len, -EINVAL,
				      "unsupported destination");
	}
	if (!p || w <= 0 || h <= 0 || w % 16 || h % 8 || w > 65535 || h > 65535)
		return v4lc_jpeg_fail(
			err, err_len, -EINVAL,
			"Pixart JPEG size %dx%d is not a multiple of 16x8", w,
			h);
	need = o.rgb ? (size_t)w * h * 3 : (size_t)w * h * 3 / 2;
	if (!dst || dst_size < need)
		return v4lc_jpeg_fail(err, err_len, -EFAULT,
				      "destination too small");
	if (!src || n < 4 || src[0] != 0xff || src[1] != 0xd8)
		return v4lc_jpeg_fail(err, err_len, -EAGAIN,
				      "not a JPEG frame");
	ret = parse_header(src, n, &hd, err, err_len);
	if (ret)
		return ret;
	if (hd.w != w || hd.h != h)
		return v4lc_jpeg_fail(
			err, err_len, -EIO,
			"JPEG size %dx%d does not match the format %dx%d", hd.w,
			hd.h, w, h);

	len = dechunk(p, src + hd.sos, n - hd.sos, &short_frame, err, err_len);
	if (len < 0)
		return (int)len;
	b = (struct bits){ p->buf, p->buf + len, 0, 0, 0 };
	ret = decode_mcus(p, &hd, &b, &o, err, err_len);
	if (ret)
		return ret;
	if (b.n < b.extra || short_frame)
		return v4lc_jpeg_fail(err, err_len, -EPIPE,
				      "short Pixart JPEG frame");
	/* Like the original: the data must end with EOI right after the
	 * last MCU (no whole byte left over). */
	if (b.n - b.extra >= 8 || b.p + 1 >= b.end || b.p[0] != 0xff ||
	    b.p[1] != 0xd9)
		return v4lc_jpeg_fail(err, err_len, -EPIPE,
				      "Pixart JPEG data does not end with EOI");
	return 0;
}
