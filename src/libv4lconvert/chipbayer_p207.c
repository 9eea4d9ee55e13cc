/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * PAC207 (P207) frames: rows of a BGGR mosaic, each introduced by a 16-bit
 * big-endian header (learnt from the format's public descriptions and by
 * observing the original library's output on probe frames):
 *   0x0ff0  the row follows as width plain bytes;
 *   0x1ee1, 0x2dd2, 0x3cc3  a compressed row with step 5, 9 or 17;
 *   0x4bb4  the row repeats the row two above (zeros for rows 0 and 1);
 *   anything else: a corrupt frame.
 * A compressed row starts with two plain bytes (the first pixel of each
 * colour) and codes every further pixel as a difference from the pixel two
 * to the left, MSB first:
 *   00 -> 0, 01 -> -1, 10 -> +1, 1100 -> -2, 1101 -> +2, 11100 -> -3,
 *   11101 -> +3, 111100 -> -4, 111101 -> +4 (times the step), and
 *   11111 v -> the absolute value v << (q + 1), where v has 7 - q bits
 *   and q is 1, 2, 3 for steps 5, 9, 17 (the header's top nibble);
 * results clamped to 0 .. 255. The row's data is padded to a multiple of
 * 16 bits. A frame whose next row header is missing is corrupt (EAGAIN, as
 * the original); row data running past the end of the frame reads zeros
 * and gives EPIPE.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "chipbayer.h"
#include "chipbayer_bits.h"

struct p207_code {
	int16_t val; /* difference (times the step) or absolute value */
	uint8_t len;
	uint8_t abs;
};

/* Per q = 1 .. 3, indexed by the next 11 bits (the longest code). */
static struct p207_code p207_table[3][2048];

static void p207_init(void)
{
	static const struct {
		uint8_t prefix, len;
		int8_t val;
	} codes[] = { { 0x00, 2, 0 },  { 0x40, 2, -1 }, { 0x80, 2, 1 },
		      { 0xc0, 4, -2 }, { 0xd0, 4, 2 },  { 0xe0, 5, -3 },
		      { 0xe8, 5, 3 },  { 0xf0, 6, -4 }, { 0xf4, 6, 4 } };

	for (int q = 1; q <= 3; q++) {
		int step = (1 << q) * 2 + 1, nb = 7 - q;

		for (int j = 0; j < 2048; j++) {
			struct p207_code *c = &p207_table[q - 1][j];
			int i = j >> 3;

			if (i >= 0xf8) {
				c->abs = 1;
				c->len = (uint8_t)(5 + nb);
				c->val = (int16_t)(((j >> (6 - nb)) &
						    ((1 << nb) - 1))
						   << (q + 1));
				continue;
			}
			for (size_t k = 0; k < sizeof(codes) / sizeof(codes[0]);
			     k++)
				if ((i >> (8 - codes[k].len)) ==
				    (codes[k].prefix >> (8 - codes[k].len))) {
					c->abs = 0;
					c->len = codes[k].len;
					c->val = (int16_t)(codes[k].val * step);
				}
		}
	}
}

/* One compressed row from src[0 .. size - 1]; returns the bytes used. */
static size_t p207_row(const uint8_t *src, size_t size, uint8_t *row, int w,
		       int q, int *over)
{
	const struct p207_code *table = p207_table[q - 1];
	struct v4lc_bits b;
	int x, n0 = w < 2 ? w : 2;
	uint64_t used;

	v4lc_bits_init(&b, src, size);
	v4lc_bits_refill(&b);
	for (x = 0; x < n0; x++) {
		row[x] = (uint8_t)v4lc_bits_peek(&b, 8);
		v4lc_bits_skip(&b, 8);
	}
	for (; x < w; x++) {
		const struct p207_code *c;
		int v;

		if (b.cnt < 11)
			v4lc_bits_refill(&b);
		c = &table[v4lc_bits_peek(&b, 11)];
		v4lc_bits_skip(&b, c->len);
		v = c->abs ? c->val : row[x - 2] + c->val;
		row[x] = v4lc_clamp255(v);
	}
	if (v4lc_bits_over(&b))
		*over = 1;
	used = (v4lc_bits_used(&b) + 15) / 16 * 2;
	return (size_t)used;
}

int v4lc_decode_p207(const uint8_t *src, size_t size, uint8_t *dst, int width,
		     int height, char *err, size_t errlen)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	size_t w = (size_t)width, pos = 0;
	int over = 0;

	pthread_once(&once, p207_init);
	for (int y = 0; y < height; y++) {
		uint8_t *row = dst + (size_t)y * w;
		unsigned hdr;

		if (pos > size || size - pos < 2) {
			if (err)
				snprintf(err, errlen,
					 "incomplete PAC207 frame");
			return -EAGAIN;
		}
		hdr = (unsigned)src[pos] << 8 | src[pos + 1];
		pos += 2;
		switch (hdr) {
		case 0x0ff0:
			if (size - pos >= w) {
				memcpy(row, src + pos, w);
			} else {
				memcpy(row, src + pos, size - pos);
				memset(row + (size - pos), 0, w - (size - pos));
				over = 1;
			}
			pos += w;
			break;
		case 0x1ee1:
		case 0x2dd2:
		case 0x3cc3:
			pos += p207_row(src + pos, size - pos, row, width,
					(int)(hdr >> 12), &over);
			break;
		case 0x4bb4:
			if (y >= 2)
				memcpy(row, row - 2 * w, w);
			else
				memset(row, 0, w);
			break;
		default:
			if (err)
				snprintf(err, errlen,
					 "unknown PAC207 row header 0x%04x",
					 hdr);
			return -EAGAIN;
		}
	}
	if (over) {
		if (err)
			snprintf(err, errlen, "short PAC207 frame: %zu bytes",
				 size);
		return -EPIPE;
	}
	return 0;
}
