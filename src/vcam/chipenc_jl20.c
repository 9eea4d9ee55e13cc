/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The JL2005B/C/D (JL20) frame encoder (chipenc_jpeg.h): baseline JPEG
 * blocks of the Bayer colour planes in 16-pixel strips.
 */
#include "vcam/chipenc_jpeg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vcam/chipenc_jpeg_coder.h"

/*
 * The quantization table (natural order) for a quality 1-100: the JPEG
 * Annex K luminance table scaled as the public format description says.
 */
static void jl20_qtable(int quality, int *q)
{
	static const int k1[64] = {
		16,  11,  10,  16,  24, 40, 51,  61,  12,  12,  14,  19,  26,
		58,  60,  55,  14,  13, 16, 24,  40,  57,  69,  56,  14,  17,
		22,  29,  51,  87,  80, 62, 18,  22,  37,  56,  68,  109, 103,
		77,  24,  35,  55,  64, 81, 104, 113, 92,  49,  64,  78,  87,
		103, 121, 120, 101, 72, 92, 95,  98,  112, 100, 103, 99,
	};
	int scale = quality <= 0     ? 5000
		    : quality <= 50  ? 5000 / quality
		    : quality <= 100 ? 2 * (100 - quality)
				     : 0;

	for (int i = 0; i < 64; i++) {
		int v = (k1[i] * scale + 50) / 100;

		q[i] = v < 1 ? 1 : v > 255 ? 255 : v;
	}
}

/*
 * Block k of the 16x16 MCU at (x0, y0): the greens of rows 0-7 (k 0),
 * of rows 8-15 (k 1), the reds (2), the blues (3) of an RGGB mosaic.
 */
static void mcu_block(const uint8_t *bay, int w, int x0, int y0, int k,
		      uint8_t blk[64])
{
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
}

/* One 16-pixel strip, top to bottom: its MCUs, ff d9, zeros to 16 bytes. */
static void put_strip(struct v4lc_jenc_bits *b, const uint8_t *bay, int w,
		      int h, int x0, const int q[64])
{
	int pred[3] = { 0, 0, 0 };

	for (int y0 = 0; y0 < h; y0 += 16)
		for (int k = 0; k < 4; k++) {
			uint8_t blk[64];
			double f[64];
			int c[64];

			mcu_block(bay, w, x0, y0, k, blk);
			v4lc_jenc_fdct(blk, 8, f);
			for (int z = 0; z < 64; z++)
				c[z] = (int)lround(f[z] / q[z]);
			v4lc_jenc_block(b, c, &pred[k < 2 ? 0 : k - 1], 0);
		}
	v4lc_jenc_flush(b);
	v4lc_jenc_byte(b, 0xff);
	v4lc_jenc_byte(b, 0xd9);
	while (b->n % 16 && !b->oom)
		v4lc_jenc_byte(b, 0);
}

uint8_t *v4lc_chipenc_jl20_encode(const uint8_t *bay, int w, int h, int quality,
				  size_t *len)
{
	struct v4lc_jenc_bits b = { 0 };
	int q[64];
	uint8_t *out = NULL;
	size_t total;

	jl20_qtable(quality, q);
	b.stuff = 1;
	for (int x0 = 0; x0 < w; x0 += 16)
		put_strip(&b, bay, w, h, x0, q);
	total = (16 + b.n + 0x1ff) & ~(size_t)0x1ff;
	if (!b.oom)
		out = calloc(1, total);
	if (out) {
		out[13] = (uint8_t)quality;
		out[4] = (uint8_t)(h / 8);
		out[5] = (uint8_t)(w / 8);
		memcpy(out + 16, b.buf, b.n);
		for (size_t i = 16 + b.n; i < total; i++)
			out[i] = (uint8_t)(i * 37 + 11); /* "bogus data" */
		*len = total;
	}
	free(b.buf);
	return out;
}
