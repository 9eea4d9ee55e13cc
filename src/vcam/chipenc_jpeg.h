/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Test-side encoders for the JPEG-family chip formats: a baseline JPEG
 * entropy coder written for the tests (standard Huffman tables taken from
 * libjpeg's compressor defaults), a float forward DCT, and the Pixart
 * (PJPG) frame layout: a SOF0/SOS header without DQT/DHT, then the entropy
 * data with an 8-bit marker in front of every MCU (Y0 Y1 Cb Cr, 4:2:2).
 * (Moved here from tests/chip/jpeg/chipenc.h: the tests of tests/chip/jpeg
 * include it, and the virtual camera compiles it into
 * src/vcam/chipenc_jpeg.c, which calls ce_init_tables once.)
 */
#ifndef V4LC_TEST_CHIPENC_H
#define V4LC_TEST_CHIPENC_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

static const int ce_zigzag[64] = { /* zigzag index -> natural index */
	0,  1,  8,  16, 9,  2,  3,  10, 17, 24, 32, 25, 18, 11, 4,  5,
	12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6,  7,  14, 21, 28,
	35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51,
	58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63
};

struct ce_huff {
	uint16_t code[256];
	uint8_t len[256];
};

/* tables[0] DC luma, [1] AC luma, [2] DC chroma, [3] AC chroma */
static struct ce_huff ce_tables[4];

static inline void ce_build(struct ce_huff *h, const JHUFF_TBL *t)
{
	int k = 0, code = 0;

	memset(h, 0, sizeof(*h));
	for (int l = 1; l <= 16; l++) {
		for (int i = 0; i < t->bits[l]; i++, k++) {
			h->code[t->huffval[k]] = (uint16_t)code++;
			h->len[t->huffval[k]] = (uint8_t)l;
		}
		code <<= 1;
	}
}

static inline void ce_init_tables(void)
{
	struct jpeg_compress_struct c;
	struct jpeg_error_mgr e;

	c.err = jpeg_std_error(&e);
	jpeg_create_compress(&c);
	c.in_color_space = JCS_YCbCr;
	c.input_components = 3;
	jpeg_set_defaults(&c);
	ce_build(&ce_tables[0], c.dc_huff_tbl_ptrs[0]);
	ce_build(&ce_tables[1], c.ac_huff_tbl_ptrs[0]);
	ce_build(&ce_tables[2], c.dc_huff_tbl_ptrs[1]);
	ce_build(&ce_tables[3], c.ac_huff_tbl_ptrs[1]);
	jpeg_destroy_compress(&c);
}

struct ce_bits {
	uint8_t *buf;
	size_t n, cap;
	uint32_t acc;
	int nacc;
	int stuff; /* insert 0x00 after each 0xff */
};

static inline void ce_byte(struct ce_bits *b, uint8_t v)
{
	if (b->n + 2 > b->cap) {
		b->cap = b->cap ? 2 * b->cap : 4096;
		b->buf = realloc(b->buf, b->cap);
		if (!b->buf)
			abort();
	}
	b->buf[b->n++] = v;
}

static inline void ce_put(struct ce_bits *b, uint32_t v, int n)
{
	for (int i = n - 1; i >= 0; i--) {
		b->acc = (b->acc << 1) | ((v >> i) & 1);
		if (++b->nacc == 8) {
			ce_byte(b, (uint8_t)b->acc);
			if (b->stuff && (b->acc & 0xff) == 0xff)
				ce_byte(b, 0);
			b->acc = 0;
			b->nacc = 0;
		}
	}
}

static inline void ce_flush(struct ce_bits *b)
{
	while (b->nacc)
		ce_put(b, 1, 1);
}

static inline int ce_category(int v)
{
	int a = v < 0 ? -v : v, n = 0;

	while (a) {
		n++;
		a >>= 1;
	}
	return n;
}

static inline void ce_value(struct ce_bits *b, int v, int n)
{
	if (n)
		ce_put(b, (uint32_t)(v < 0 ? v + (1 << n) - 1 : v), n);
}

/* One block of quantized coefficients (natural order); pred: DC predictor. */
static inline void ce_block(struct ce_bits *b, const int *coef, int *pred, int chroma)
{
	const struct ce_huff *dc = &ce_tables[chroma ? 2 : 0];
	const struct ce_huff *ac = &ce_tables[chroma ? 3 : 1];
	int d = coef[0] - *pred, n = ce_category(d), run = 0;

	*pred = coef[0];
	ce_put(b, dc->code[n], dc->len[n]);
	ce_value(b, d, n);
	for (int k = 1; k < 64; k++) {
		int v = coef[ce_zigzag[k]];

		if (!v) {
			run++;
			continue;
		}
		while (run > 15) {
			ce_put(b, ac->code[0xf0], ac->len[0xf0]);
			run -= 16;
		}
		n = ce_category(v);
		ce_put(b, ac->code[(run << 4) | n], ac->len[(run << 4) | n]);
		ce_value(b, v, n);
		run = 0;
	}
	if (run)
		ce_put(b, ac->code[0], ac->len[0]);
}

/* Forward DCT of an 8x8 block of samples (level shift included), double,
 * separable with a cosine table. */
static inline void ce_fdct(const uint8_t *src, int stride, double *out)
{
	static double cs[8][8]; /* [u][x], with the 1/2 and C(u) factors */
	static int ready;
	double t[64];

	if (!ready) {
		for (int u = 0; u < 8; u++)
			for (int x = 0; x < 8; x++)
				cs[u][x] = (u ? 0.5 : 0.5 * M_SQRT1_2) *
					   cos((2 * x + 1) * u * M_PI / 16);
		ready = 1;
	}
	for (int y = 0; y < 8; y++)
		for (int u = 0; u < 8; u++) {
			double a = 0;

			for (int x = 0; x < 8; x++)
				a += (src[y * stride + x] - 128.0) * cs[u][x];
			t[y * 8 + u] = a;
		}
	for (int v = 0; v < 8; v++)
		for (int u = 0; u < 8; u++) {
			double a = 0;

			for (int y = 0; y < 8; y++)
				a += t[y * 8 + u] * cs[v][y];
			out[v * 8 + u] = a;
		}
}

/* The SOF0/SOS header of a Pixart frame: Y 2x1 (table 0), Cb and Cr 1x1
 * (table 1); no DQT, no DHT. Returns its length (at most 64 bytes). */
static inline size_t ce_pjpg_header(uint8_t *p, int w, int h)
{
	static const uint8_t tail[] = {
		0x03, 0x01, 0x21, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01,
		0xff, 0xda, 0x00, 0x0c, 0x03, 0x01, 0x00, 0x02, 0x11, 0x03,
		0x11, 0x00, 0x3f, 0x00
	};
	size_t n = 0;

	p[n++] = 0xff, p[n++] = 0xd8, p[n++] = 0xff, p[n++] = 0xc0;
	p[n++] = 0x00, p[n++] = 0x11, p[n++] = 0x08;
	p[n++] = (uint8_t)(h >> 8), p[n++] = (uint8_t)h;
	p[n++] = (uint8_t)(w >> 8), p[n++] = (uint8_t)w;
	memcpy(p + n, tail, sizeof(tail));
	return n + sizeof(tail);
}

/*
 * Quantization steps (zigzag order) of the original for MCU marker 0x44
 * (bit 7 clear) and 0xc4 (bit 7 set), measured black-box through the
 * distribution's libv4lconvert: luma 8 (DC and zigzag 1-5), 16 (6-27),
 * 32 (28-42), 64 (43-63); chroma without bit 7: 16 (0-5), 32 (6-14), 99
 * (15-63); with bit 7 chroma = luma.
 */
static inline int ce_pjpg_q(int marker, int chroma, int k)
{
	if (chroma && !(marker & 0x80))
		return k < 6 ? 16 : k < 15 ? 32 : 99;
	return k < 6 ? 8 : k < 28 ? 16 : k < 43 ? 32 : 64;
}

/* Cut entropy data into the Pixart chunk layout: size byte, then a first
 * chunk of 1018 bytes, then (ff ff ff code, 2048 >> code bytes)... with the
 * codes taken in turn from `codes` (ncodes > 0, codes 1-6), and a last
 * header with code 0 (the rest of the frame) unless a chunk ends exactly
 * at the end; then ff d9. (The original's chunk rule, found black-box: a
 * chunk of code 1-6 must be complete, code 0 takes the rest.) */
static inline size_t ce_pjpg_chunk(const uint8_t *d, size_t n, uint8_t size_code,
				   const int *codes, int ncodes, uint8_t *out)
{
	size_t o = 0, chunk = 1018;
	int ci = 0;

	out[o++] = size_code;
	if (size_code == 0x60) {
		memcpy(out + o, d, n);
		o += n;
		out[o++] = 0xff;
		out[o++] = 0xd9;
		return o;
	}
	for (int rest = 0;;) {
		size_t t = n < chunk ? n : chunk;

		memcpy(out + o, d, t);
		o += t;
		d += t;
		n -= t;
		if (rest || (!n && t < chunk))
			break;
		/* A chunk must be complete; code 0 takes the rest (here
		 * perhaps nothing but the end marker). */
		chunk = (size_t)2048 >> codes[ci];
		rest = n < chunk;
		out[o++] = 0xff;
		out[o++] = 0xff;
		out[o++] = 0xff;
		out[o++] = (uint8_t)(rest ? 0 : codes[ci]);
		ci = (ci + 1) % ncodes;
	}
	/* The end of frame the kernel driver appends. */
	out[o++] = 0xff;
	out[o++] = 0xd9;
	return o;
}

/*
 * A PJPG frame of an RGB image (w multiple of 16, h of 8): JFIF full-range
 * YCbCr, chroma averaged to 4:2:2, float DCT, quantized with the steps
 * above for markers[mcu % nmarkers]. Returns the malloc'd frame.
 */
static inline uint8_t *ce_pjpg_encode(const uint8_t *rgb, int w, int h,
				      const int *markers, int nmarkers,
				      const int *codes, int ncodes, size_t *len)
{
	size_t np = (size_t)w * h;
	uint8_t *ycc = malloc(np * 3), *out;
	struct ce_bits b = { 0 };
	int pred[3] = { 0, 0, 0 }, m = 0;
	uint8_t size_code = w <= 160 ? 0x60 : w <= 320 ? 0x61 : 0x62;
	size_t hl;

	if (!ycc)
		abort();
	for (size_t i = 0; i < np; i++) {
		double r = rgb[3 * i], g = rgb[3 * i + 1], bl = rgb[3 * i + 2];
		double y = 0.299 * r + 0.587 * g + 0.114 * bl;
		double cb = 128 - 0.168736 * r - 0.331264 * g + 0.5 * bl;
		double cr = 128 + 0.5 * r - 0.418688 * g - 0.081312 * bl;

		ycc[i] = (uint8_t)lround(y < 0 ? 0 : y > 255 ? 255 : y);
		ycc[np + i] = (uint8_t)lround(cb < 0 ? 0 : cb > 255 ? 255 : cb);
		ycc[2 * np + i] = (uint8_t)lround(cr < 0 ? 0 : cr > 255 ? 255 : cr);
	}
	b.stuff = 1;
	for (int my = 0; my < h; my += 8)
		for (int mx = 0; mx < w; mx += 16, m++) {
			int marker = markers[m % nmarkers];
			uint8_t blk[64];
			double f[64];
			int q[64];

			ce_put(&b, (uint32_t)marker, 8);
			for (int k = 0; k < 4; k++) {
				int c = k < 2 ? 0 : k - 1;

				for (int y = 0; y < 8; y++)
					for (int x = 0; x < 8; x++) {
						size_t o = (size_t)(my + y) * w;

						if (!c)
							blk[y * 8 + x] = ycc[o + mx + 8 * k + x];
						else
							blk[y * 8 + x] = (uint8_t)((ycc[c * np + o + mx + 2 * x] +
										    ycc[c * np + o + mx + 2 * x + 1] + 1) / 2);
					}
				ce_fdct(blk, 8, f);
				for (int z = 0; z < 64; z++) {
					int nat = ce_zigzag[z];

					q[nat] = (int)lround(f[nat] / ce_pjpg_q(marker, c > 0, z));
				}
				ce_block(&b, q, &pred[c], c > 0);
			}
		}
	ce_flush(&b);
	out = malloc(64 + b.n + (b.n / 32 + 2) * 4 + 4);
	if (!out)
		abort();
	hl = ce_pjpg_header(out, w, h);
	hl += ce_pjpg_chunk(b.buf, b.n, size_code, codes, ncodes, out + hl);
	free(b.buf);
	free(ycc);
	*len = hl;
	return out;
}

/* ---- JL2005B/C/D ---- */

/* The quantization table (natural order) for a quality 1-100: the JPEG
 * Annex K luminance table scaled as the public format description says. */
static inline void ce_jl20_qtable(int quality, int *q)
{
	static const int k1[64] = {
		16, 11, 10, 16, 24,  40,  51,  61,  12, 12, 14, 19, 26,  58,  60,  55,
		14, 13, 16, 24, 40,  57,  69,  56,  14, 17, 22, 29, 51,  87,  80,  62,
		18, 22, 37, 56, 68,  109, 103, 77,  24, 35, 55, 64, 81,  104, 113, 92,
		49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
	};
	int scale = quality <= 0 ? 5000 : quality <= 50 ? 5000 / quality
			   : quality <= 100 ? 2 * (100 - quality) : 0;

	for (int i = 0; i < 64; i++) {
		int v = (k1[i] * scale + 50) / 100;

		q[i] = v < 1 ? 1 : v > 255 ? 255 : v;
	}
}

/*
 * A JL20 frame of an RGGB mosaic (w, h multiples of 16): the 16-byte
 * header (height / 8 at byte 4, width / 8 at 5, quality at 13), then per 16-pixel strip the MCUs top to bottom (greens of rows
 * 0-7, greens of rows 8-15, reds, blues), ff d9, zero padding to 16 bytes;
 * then filler to a multiple of 0x200 bytes.
 */
static inline uint8_t *ce_jl20_encode(const uint8_t *bay, int w, int h,
				      int quality, size_t *len)
{
	struct ce_bits b = { 0 };
	int q[64];
	uint8_t *out;
	size_t total;

	ce_jl20_qtable(quality, q);
	b.stuff = 1;
	for (int x0 = 0; x0 < w; x0 += 16) {
		int pred[3] = { 0, 0, 0 };

		for (int y0 = 0; y0 < h; y0 += 16)
			for (int k = 0; k < 4; k++) {
				uint8_t blk[64];
				double f[64];
				int c[64];

				for (int r = 0; r < 8; r++)
					for (int i = 0; i < 8; i++) {
						int y, x;

						if (k < 2) { /* greens */
							y = y0 + 8 * k + r;
							x = x0 + 2 * i + (y % 2 ? 0 : 1);
						} else { /* reds, blues */
							y = y0 + 2 * r + (k == 3);
							x = x0 + 2 * i + (k == 3);
						}
						blk[r * 8 + i] = bay[(size_t)y * w + x];
					}
				ce_fdct(blk, 8, f);
				for (int z = 0; z < 64; z++)
					c[z] = (int)lround(f[z] / q[z]);
				ce_block(&b, c, &pred[k < 2 ? 0 : k - 1], 0);
			}
		ce_flush(&b);
		ce_byte(&b, 0xff);
		ce_byte(&b, 0xd9);
		while (b.n % 16)
			ce_byte(&b, 0);
	}
	total = 16 + b.n;
	total = (total + 0x1ff) & ~(size_t)0x1ff;
	out = calloc(1, total);
	if (!out)
		abort();
	out[13] = (uint8_t)quality;
	out[4] = (uint8_t)(h / 8);
	out[5] = (uint8_t)(w / 8);
	memcpy(out + 16, b.buf, b.n);
	for (size_t i = 16 + b.n; i < total; i++)
		out[i] = (uint8_t)(i * 37 + 11); /* "bogus data" */
	free(b.buf);
	*len = total;
	return out;
}

/* ---- SE401 ---- */

/* One value of the SE401 code: n ones and a zero (n = the JPEG magnitude
 * category of v), then n bits as in JPEG (v < 0 stored as v + 2^n - 1). */
static inline void ce_se401_value(struct ce_bits *b, int v)
{
	int n = ce_category(v);

	for (int i = 0; i < n; i++)
		ce_put(b, 1, 1);
	ce_put(b, 0, 1);
	ce_value(b, v, n);
}

/*
 * An SE401 frame from the coded values (3 per pixel, stream order), `pp`
 * pixels a packet: each packet a 4-byte header (byte 0 bits 7-6: 0x80
 * first packet, 0x40 last, 0 otherwise; bits 5-0 and byte 1: pixels;
 * bytes 2-3: bits of data, big-endian), the bits, zero padding to
 * ((bits + 47) >> 4) << 1 bytes in all.
 */
static inline uint8_t *ce_se401_encode(const int *vals, int npix, int pp,
				       size_t *len)
{
	size_t cap = 1024, n = 0;
	uint8_t *out = malloc(cap);

	if (!out)
		abort();
	for (int p0 = 0; p0 < npix; p0 += pp) {
		int cnt = npix - p0 < pp ? npix - p0 : pp;
		struct ce_bits b = { 0 };
		size_t bits, plen;

		for (int i = 3 * p0; i < 3 * (p0 + cnt); i++)
			ce_se401_value(&b, vals[i]);
		bits = b.n * 8 + (size_t)b.nacc;
		while (b.nacc)
			ce_put(&b, 0, 1);
		plen = ((bits + 47) >> 4) << 1;
		if (n + plen + 8 > cap) {
			cap = 2 * (n + plen + 8);
			out = realloc(out, cap);
			if (!out)
				abort();
		}
		memset(out + n, 0, plen);
		out[n] = (uint8_t)((p0 == 0 ? 0x80 : 0) |
				   (p0 + cnt >= npix ? 0x40 : 0) |
				   ((cnt >> 8) & 0x3f));
		out[n + 1] = (uint8_t)cnt;
		out[n + 2] = (uint8_t)(bits >> 8);
		out[n + 3] = (uint8_t)bits;
		memcpy(out + n + 4, b.buf, b.n);
		n += plen;
		free(b.buf);
	}
	*len = n;
	return out;
}

#endif
