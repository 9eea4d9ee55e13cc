/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * SQ905C (905C) frames: an 80-byte header (ignored), then an RGGB mosaic
 * pixel by pixel, MSB first (learnt from the format's public descriptions
 * and by observing the original library's output on probe frames). Each
 * pixel is a difference from a prediction:
 *   0 -> +2, 10 -> -3, 110 -> +10, 1110 -> -11,
 *   1111vvvv -> +20 +34 +52 +76 +110 +144 -21 -35 -53 -77 -110 -144 for
 *   v = 0 .. 11 (12 .. 15 are invalid: the frame is corrupt),
 * clamped to 0 .. 255. The prediction averages (rounding down) the pixel
 * two to the left (L) and an upper neighbour of the same colour (U): two
 * rows up for red and blue, up one row and right one column for green
 * (left one column in the last column).
 * Without U (the first row of each colour) the average is of L and 128
 * (128 and 128 at the start of the row); without L (the first two
 * columns) it is U alone. The original does not check the length (bits
 * past the end read as zero here, and give EPIPE); at an invalid code it
 * stops and keeps the rest of its old buffer (here: zeros and EAGAIN).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "chipbayer.h"
#include "chipbayer_bits.h"

struct q905_code {
	int16_t val;
	uint8_t len; /* 0: invalid */
};

/* Indexed by the next 8 bits (the longest code). */
static struct q905_code q905_table[256];

static void q905_init(void)
{
	static const int16_t longv[12] = { 20,  34,  52,  76,  110,  144,
					   -21, -35, -53, -77, -110, -144 };

	for (int i = 0; i < 256; i++) {
		struct q905_code *c = &q905_table[i];

		if (i < 0x80)
			c->val = 2, c->len = 1;
		else if (i < 0xc0)
			c->val = -3, c->len = 2;
		else if (i < 0xe0)
			c->val = 10, c->len = 3;
		else if (i < 0xf0)
			c->val = -11, c->len = 4;
		else if (i < 0xfc)
			c->val = longv[i & 15], c->len = 8;
		else
			c->val = 0, c->len = 0;
	}
}

int v4lc_decode_905c(const uint8_t *src, size_t size, uint8_t *dst, int width,
		     int height, char *err, size_t errlen)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	struct v4lc_bits b;
	size_t w = (size_t)width;

	pthread_once(&once, q905_init);
	v4lc_bits_init(&b, size >= 80 ? src + 80 : src,
		       size >= 80 ? size - 80 : 0);
	for (int y = 0; y < height; y++) {
		uint8_t *row = dst + (size_t)y * w;

		for (int x = 0; x < width; x++) {
			const struct q905_code *c;
			int green = (x ^ y) & 1, p;
			const uint8_t *u = NULL;

			if (!green && y >= 2)
				u = row + x - 2 * w;
			else if (green && y >= 1)
				u = row + x + (x + 1 < width ? 1 : -1) - w;
			if (!u)
				p = ((x >= 2 ? row[x - 2] : 128) + 128) >> 1;
			else if (x < 2)
				p = *u;
			else
				p = (row[x - 2] + *u) >> 1;
			if (b.cnt < 8)
				v4lc_bits_refill(&b);
			c = &q905_table[v4lc_bits_peek(&b, 8)];
			if (!c->len) {
				size_t done = (size_t)y * w + (size_t)x;

				memset(dst + done, 0,
				       w * (size_t)height - done);
				if (err)
					snprintf(
						err, errlen,
						"invalid code in SQ905C frame");
				return -EAGAIN;
			}
			v4lc_bits_skip(&b, c->len);
			row[x] = v4lc_clamp255(p + c->val);
		}
	}
	if (size < 80 || v4lc_bits_over(&b)) {
		if (err)
			snprintf(err, errlen, "short SQ905C frame: %zu bytes",
				 size);
		return -EPIPE;
	}
	return 0;
}
