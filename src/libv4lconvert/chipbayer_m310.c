/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * MR97310A (M310) frames: a 12-byte header (ignored), then a BGGR mosaic
 * coded pixel by pixel, MSB first (learnt from the format's public
 * descriptions and by observing the original library's output on probe
 * frames):
 *   0 -> +0, 101 -> +3, 110 -> -3, 1000 -> +8, 1001 -> -8, 11100 -> +20,
 *   1111 -> -20, 11101 v -> the absolute value v << 3 (v: 5 bits),
 * each difference added to a prediction from the same colour, and the
 * result clamped to 0 .. 255. The first two pixels of rows 0 and 1 are
 * plain 8-bit values, and the rest of those rows predict from two to the
 * left. Later rows predict from L (two left), UL, U, UR (two rows up, two
 * left / same / two right):
 *   first column pair  (U + UR) / 2  (U alone when there is no UR)
 *   last column pair   (L + UL + U + 1) / 3
 *   elsewhere          (L + U + UL / 2 + UR / 2 + 1) / 3 (halves rounded
 *                      down)
 * A frame whose bits run past its end is incomplete (EAGAIN), like the
 * original, which checks that. (The original then passes every third
 * consecutive corrupt frame on as if it were good; this decoder does not.)
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>

#include "chipbayer.h"
#include "chipbayer_bits.h"

struct m310_code {
	int16_t val;
	uint8_t len;
	uint8_t abs;
};

/* Indexed by the next 10 bits (the longest code). */
static struct m310_code m310_table[1024];

static void m310_init(void)
{
	static const struct {
		uint8_t prefix, len;
		int8_t val;
	} codes[] = { { 0x00, 1, 0 },  { 0xa0, 3, 3 },  { 0xc0, 3, -3 },
		      { 0x80, 4, 8 },  { 0x90, 4, -8 }, { 0xe0, 5, 20 },
		      { 0xf0, 4, -20 } };

	for (int j = 0; j < 1024; j++) {
		struct m310_code *c = &m310_table[j];
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

/* The next pixel: prediction p plus the next code. */
static inline uint8_t m310_pixel(struct v4lc_bits *b, int p)
{
	const struct m310_code *c;

	if (b->cnt < 10)
		v4lc_bits_refill(b);
	c = &m310_table[v4lc_bits_peek(b, 10)];
	v4lc_bits_skip(b, c->len);
	return v4lc_clamp255(c->abs ? c->val : p + c->val);
}

int v4lc_decode_m310(const uint8_t *src, size_t size, uint8_t *dst, int width,
		     int height, char *err, size_t errlen)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	struct v4lc_bits b;
	size_t w = (size_t)width;

	pthread_once(&once, m310_init);
	if (size < 12) {
		if (err)
			snprintf(err, errlen, "incomplete MR97310A frame");
		return -EAGAIN;
	}
	v4lc_bits_init(&b, src + 12, size - 12);
	for (int y = 0; y < height; y++) {
		uint8_t *row = dst + (size_t)y * w;
		const uint8_t *up = row - 2 * w;
		int x = 0;

		if (y < 2) {
			for (; x < width && x < 2; x++) {
				v4lc_bits_refill(&b);
				row[x] = (uint8_t)v4lc_bits_peek(&b, 8);
				v4lc_bits_skip(&b, 8);
			}
			for (; x < width; x++)
				row[x] = m310_pixel(&b, row[x - 2]);
			continue;
		}
		for (; x < width && x < 2; x++)
			row[x] =
				m310_pixel(&b, x + 2 < width
						       ? (up[x] + up[x + 2]) / 2
						       : up[x]);
		for (; x < width - 2; x++)
			row[x] = m310_pixel(&b, (row[x - 2] + up[x] +
						 (up[x - 2] >> 1) +
						 (up[x + 2] >> 1) + 1) /
							3);
		for (; x < width; x++)
			row[x] =
				m310_pixel(&b, (row[x - 2] + up[x - 2] + up[x] +
						1) / 3);
	}
	if (v4lc_bits_over(&b)) {
		if (err)
			snprintf(err, errlen, "incomplete MR97310A frame");
		return -EAGAIN;
	}
	return 0;
}
