/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * SN9C10X (S910) frames: Sonix DPCM of a BGGR mosaic, written from the
 * public description of the format. Each pixel is one code of a fixed
 * prefix code, MSB first:
 *   0 -> +0, 100 -> +4, 101 -> -4, 1101 -> +11, 1111 -> -11,
 *   11001 -> +20, 110000 -> -20, 110001xx -> nothing (skipped: no pixel),
 *   1110vvvv -> the absolute value vvvv << 4.
 * The first two pixels of the first two rows are plain 8-bit values.
 * Differences apply to a prediction from the same colour: the first two
 * columns of later rows from two rows above; the rest of the first two rows from two columns
 * to the left; everything else from the mean (rounded down) of those two.
 * Results are clamped to 0 .. 255. A code is at most 8 bits, so the first
 * byte of the remaining stream selects it in a 256-entry table.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>

#include "chipbayer.h"
#include "chipbayer_bits.h"

struct s910_code {
	int16_t val;
	uint8_t len;
	uint8_t abs; /* 1: absolute value, 2: no pixel */
};

static struct s910_code s910_table[256];

static void s910_init(void)
{
	for (int i = 0; i < 256; i++) {
		struct s910_code *c = &s910_table[i];

		c->abs = 0;
		if (!(i & 0x80)) {
			c->val = 0, c->len = 1;
		} else if ((i & 0xe0) == 0x80) {
			c->val = 4, c->len = 3;
		} else if ((i & 0xe0) == 0xa0) {
			c->val = -4, c->len = 3;
		} else if ((i & 0xf0) == 0xd0) {
			c->val = 11, c->len = 4;
		} else if ((i & 0xf0) == 0xf0) {
			c->val = -11, c->len = 4;
		} else if ((i & 0xf8) == 0xc8) {
			c->val = 20, c->len = 5;
		} else if ((i & 0xfc) == 0xc0) {
			c->val = -20, c->len = 6;
		} else if ((i & 0xfc) == 0xc4) {
			c->val = 0, c->len = 8;
			c->abs = 2;
		} else { /* 1110vvvv */
			c->val = (int16_t)((i & 0x0f) << 4), c->len = 8;
			c->abs = 1;
		}
	}
}

int v4lc_decode_s910(const uint8_t *src, size_t size, uint8_t *dst, int width,
		     int height, char *err, size_t errlen)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	struct v4lc_bits b;
	size_t w = (size_t)width;

	pthread_once(&once, s910_init);
	v4lc_bits_init(&b, src, size);
	for (int y = 0; y < height; y++) {
		uint8_t *row = dst + (size_t)y * w;
		const uint8_t *up = row - 2 * w;

		for (int x = 0; x < width; x++) {
			const struct s910_code *c;
			int v;

			if (!(x & 3))
				v4lc_bits_refill(&b);
			if (y < 2 && x < 2) {
				row[x] = (uint8_t)v4lc_bits_peek(&b, 8);
				v4lc_bits_skip(&b, 8);
				continue;
			}
			c = &s910_table[v4lc_bits_peek(&b, 8)];
			v4lc_bits_skip(&b, c->len);
			while (__builtin_expect(c->abs == 2, 0)) {
				v4lc_bits_refill(&b);
				c = &s910_table[v4lc_bits_peek(&b, 8)];
				v4lc_bits_skip(&b, c->len);
			} /* ends: past the input, zeros read as code 0 */
			v = c->val;
			if (!c->abs) {
				if (x < 2)
					v += up[x];
				else if (y < 2)
					v += row[x - 2];
				else
					v += (row[x - 2] + up[x]) >> 1;
			}
			row[x] = v4lc_clamp255(v);
		}
	}
	if (v4lc_bits_over(&b)) {
		if (err)
			snprintf(err, errlen, "short SN9C10X frame: %zu bytes",
				 size);
		return -EPIPE;
	}
	return 0;
}
