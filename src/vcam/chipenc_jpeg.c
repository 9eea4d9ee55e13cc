/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The baseline JPEG entropy coder of the JPEG-family chip encoders
 * (chipenc_jpeg_coder.h), written for them: the standard Huffman tables
 * come from libjpeg's compressor defaults.
 */
#include "vcam/chipenc_jpeg_coder.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

const int v4lc_jenc_zigzag[64] = { 0,  1,  8,  16, 9,  2,  3,  10, 17, 24, 32,
				   25, 18, 11, 4,  5,  12, 19, 26, 33, 40, 48,
				   41, 34, 27, 20, 13, 6,  7,  14, 21, 28, 35,
				   42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23,
				   30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39,
				   46, 53, 60, 61, 54, 47, 55, 62, 63 };

struct ce_huff {
	uint16_t code[256];
	uint8_t len[256];
};

/*
 * Filled once (init_once): tables[0] DC luma, [1] AC luma, [2] DC chroma,
 * [3] AC chroma; the DCT's cosines [u][x] with the 1/2 and C(u) factors.
 */
static struct ce_huff ce_tables[4];
static double dct_cos[8][8];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void ce_build(struct ce_huff *h, const JHUFF_TBL *t)
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

static void init_once(void)
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
	for (int u = 0; u < 8; u++)
		for (int x = 0; x < 8; x++)
			dct_cos[u][x] = (u ? 0.5 : 0.5 * M_SQRT1_2) *
					cos((2 * x + 1) * u * M_PI / 16);
}

void v4lc_jenc_byte(struct v4lc_jenc_bits *b, uint8_t v)
{
	if (b->oom)
		return;
	if (b->n + 2 > b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 4096;
		uint8_t *p = realloc(b->buf, cap);

		if (!p) {
			b->oom = 1;
			return;
		}
		b->buf = p;
		b->cap = cap;
	}
	b->buf[b->n++] = v;
}

void v4lc_jenc_put(struct v4lc_jenc_bits *b, uint32_t v, int n)
{
	for (int i = n - 1; i >= 0; i--) {
		b->acc = (b->acc << 1) | ((v >> i) & 1);
		if (++b->nacc == 8) {
			v4lc_jenc_byte(b, (uint8_t)b->acc);
			if (b->stuff && (b->acc & 0xff) == 0xff)
				v4lc_jenc_byte(b, 0);
			b->acc = 0;
			b->nacc = 0;
		}
	}
}

void v4lc_jenc_flush(struct v4lc_jenc_bits *b)
{
	while (b->nacc)
		v4lc_jenc_put(b, 1, 1);
}

int v4lc_jenc_category(int v)
{
	int a = v < 0 ? -v : v, n = 0;

	while (a) {
		n++;
		a >>= 1;
	}
	return n;
}

void v4lc_jenc_value(struct v4lc_jenc_bits *b, int v, int n)
{
	if (n)
		v4lc_jenc_put(b, (uint32_t)(v < 0 ? v + (1 << n) - 1 : v), n);
}

void v4lc_jenc_block(struct v4lc_jenc_bits *b, const int *coef, int *pred,
		     int chroma)
{
	const struct ce_huff *dc, *ac;
	int d, n, run = 0;

	pthread_once(&tables_once, init_once);
	dc = &ce_tables[chroma ? 2 : 0];
	ac = &ce_tables[chroma ? 3 : 1];
	d = coef[0] - *pred;
	n = v4lc_jenc_category(d);
	*pred = coef[0];
	v4lc_jenc_put(b, dc->code[n], dc->len[n]);
	v4lc_jenc_value(b, d, n);
	for (int k = 1; k < 64; k++) {
		int v = coef[v4lc_jenc_zigzag[k]];

		if (!v) {
			run++;
			continue;
		}
		while (run > 15) {
			v4lc_jenc_put(b, ac->code[0xf0], ac->len[0xf0]);
			run -= 16;
		}
		n = v4lc_jenc_category(v);
		v4lc_jenc_put(b, ac->code[(run << 4) | n],
			      ac->len[(run << 4) | n]);
		v4lc_jenc_value(b, v, n);
		run = 0;
	}
	if (run)
		v4lc_jenc_put(b, ac->code[0], ac->len[0]);
}

void v4lc_jenc_fdct(const uint8_t *src, int stride, double *out)
{
	double t[64];

	pthread_once(&tables_once, init_once);
	for (int y = 0; y < 8; y++)
		for (int u = 0; u < 8; u++) {
			double a = 0;

			for (int x = 0; x < 8; x++)
				a += (src[y * stride + x] - 128.0) *
				     dct_cos[u][x];
			t[y * 8 + u] = a;
		}
	for (int v = 0; v < 8; v++)
		for (int u = 0; u < 8; u++) {
			double a = 0;

			for (int y = 0; y < 8; y++)
				a += t[y * 8 + u] * dct_cos[v][y];
			out[v * 8 + u] = a;
		}
}
