/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * SN9C2028 (SONX) frames: a 12-byte header (ignored), then a BGGR mosaic
 * row by row, MSB first (learnt from the format's public descriptions and
 * by observing the original library's output on probe frames). Every row
 * starts with two plain 8-bit pixels; each further pixel is a difference
 * from the pixel two to the left, in the prefix code
 *   0 -> +0, 101 -> +3, 110 -> -3, 1000 -> +8, 1001 -> -8, 11100 -> +20,
 *   1111 -> -20, 11101 v -> the absolute value v << 3 (v: 5 bits),
 * results clamped to 0 .. 255. The original does not check the length;
 * here bits past the end read as zero and give EPIPE.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>

#include "chipbayer.h"
#include "chipbayer_bits.h"

struct sonx_code {
	int16_t val;
	uint8_t len;
	uint8_t abs;
};

/* Indexed by the next 10 bits (the longest code). */
static struct sonx_code sonx_table[1024];

static void sonx_init(void)
{
	static const struct {
		uint8_t prefix, len;
		int8_t val;
	} codes[] = { { 0x00, 1, 0 },  { 0xa0, 3, 3 },  { 0xc0, 3, -3 },
		      { 0x80, 4, 8 },  { 0x90, 4, -8 }, { 0xe0, 5, 20 },
		      { 0xf0, 4, -20 } };

	for (int j = 0; j < 1024; j++) {
		struct sonx_code *c = &sonx_table[j];
		int i = j >> 2;

		if ((i & 0xf8) == 0xe8) {
			c->abs = 1;
			c->len = 10;
			c->val = (int16_t)((j & 31) << 3);
			continue;
		}
		for (size_t k = 0; k < sizeof(codes) / sizeof(codes[0]); k++)
			if ((i >> (8 - codes[k].len)) ==
			    (codes[k].prefix >> (8 - codes[k].len))) {
				c->abs = 0;
				c->len = codes[k].len;
				c->val = codes[k].val;
			}
	}
}

int v4lc_decode_sonx(const uint8_t *src, size_t size, uint8_t *dst, int width,
		     int height, char *err, size_t errlen)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	struct v4lc_bits b;
	size_t w = (size_t)width;

	pthread_once(&once, sonx_init);
	/* A frame shorter than its header: all zeros past the end. */
	v4lc_bits_init(&b, size >= 12 ? src + 12 : src,
		       size >= 12 ? size - 12 : 0);
	for (int y = 0; y < height; y++) {
		uint8_t *row = dst + (size_t)y * w;
		int x = 0;

		v4lc_bits_refill(&b);
		for (; x < width && x < 2; x++) {
			row[x] = (uint8_t)v4lc_bits_peek(&b, 8);
			v4lc_bits_skip(&b, 8);
		}
		for (; x < width; x++) {
			const struct sonx_code *c;

			if (b.cnt < 10)
				v4lc_bits_refill(&b);
			c = &sonx_table[v4lc_bits_peek(&b, 10)];
			v4lc_bits_skip(&b, c->len);
			row[x] = v4lc_clamp255(c->abs ? c->val
						      : row[x - 2] + c->val);
		}
	}
	if (size < 12 || v4lc_bits_over(&b)) {
		if (err)
			snprintf(err, errlen, "short SN9C2028 frame: %zu bytes",
				 size);
		return -EPIPE;
	}
	return 0;
}
