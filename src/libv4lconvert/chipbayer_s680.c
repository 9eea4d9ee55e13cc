/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * STV0680 (S680) frames: an RGGB mosaic whose rows are reordered, each row
 * holding first the pixels of its even columns, then those of its odd
 * columns ((w + 1) / 2 and w / 2 bytes; widths are even on these cameras,
 * where the original agrees). Rows are w bytes apart. A frame shorter
 * than w * h bytes gives EPIPE, the missing pixels zero.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "chipbayer.h"

/* Bytes 0..3 of x at bytes 0, 2, 4, 6. */
static inline uint64_t s680_spread(uint32_t x)
{
	uint64_t v = x;

	v = (v | v << 16) & 0x0000ffff0000ffffull;
	return (v | v << 8) & 0x00ff00ff00ff00ffull;
}

static void s680_row(const uint8_t *src, uint8_t *row, int w)
{
	const uint8_t *ev = src, *od = src + (w + 1) / 2;
	int half = w / 2, i = 0;

	for (; i + 4 <= half; i += 4) {
		uint32_t a, b;
		uint64_t v;

		memcpy(&a, ev + i, 4);
		memcpy(&b, od + i, 4);
		v = s680_spread(a) | s680_spread(b) << 8;
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
		v = __builtin_bswap64(v);
#endif
		memcpy(row + 2 * i, &v, 8);
	}
	for (; i < half; i++) {
		row[2 * i] = ev[i];
		row[2 * i + 1] = od[i];
	}
	if (w & 1)
		row[w - 1] = ev[half];
}

int v4lc_decode_s680(const uint8_t *src, size_t size, uint8_t *dst, int width,
		     int height, char *err, size_t errlen)
{
	size_t w = (size_t)width;
	int full = (int)(size / w < (size_t)height ? size / w : (size_t)height);

	for (int y = 0; y < full; y++)
		s680_row(src + (size_t)y * w, dst + (size_t)y * w, width);
	if (full == height)
		return 0;
	{
		/* the partial row pixel by pixel, then zeros */
		uint8_t *row = dst + (size_t)full * w;
		const uint8_t *s = src + (size_t)full * w;
		size_t have = size - (size_t)full * w, ne = (w + 1) / 2;

		memset(row, 0, w * (size_t)(height - full));
		for (size_t i = 0; i < have; i++)
			row[i < ne ? 2 * i : 2 * (i - ne) + 1] = s[i];
	}
	if (err)
		snprintf(err, errlen, "short STV0680 frame: %zu of %zu bytes",
			 size, w * (size_t)height);
	return -EPIPE;
}
