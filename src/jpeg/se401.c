/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SE401 decoder (see se401.h). */
#include "jpeg/se401.h"
#include "jpeg/fail.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

struct row_state {
	uint8_t *row;  /* the current output row */
	int x;         /* samples written in it */
	int rows_left; /* rows not started yet */
	int width3;
	uint8_t *next;
};

/*
 * Decode `values` values from `bits` bits at p into the rows: a 64-bit
 * window, the unary length counted with one clz. Returns 0, or -1 when the
 * bits run out first, a length exceeds 16, or the frame is full.
 */
static int packet(const uint8_t *p, unsigned bits, int values,
		  struct row_state *s)
{
	uint64_t win = 0;
	int have = 0;
	size_t byte = 0, nbytes = ((size_t)bits + 7) / 8;

	while (values--) {
		int n, total, v;

		while (have <= 56 && byte < nbytes) {
			win |= (uint64_t)p[byte++] << (56 - have);
			have += 8;
		}
		n = ~win ? __builtin_clzll(~win) : 64;
		if (n > 16)
			return -1;
		total = 2 * n + 1;
		if ((unsigned)total > bits)
			return -1;
		v = n ? (int)((win << (n + 1)) >> (64 - n)) : 0;
		win <<= total;
		have -= total;
		bits -= (unsigned)total;
		if (n && v < (1 << (n - 1)))
			v -= (1 << n) - 1;
		if (s->x == s->width3) {
			if (!s->rows_left)
				return -1;
			s->row = s->next;
			s->next += s->width3;
			s->rows_left--;
			s->x = 0;
		}
		s->row[s->x] =
			(uint8_t)((s->x >= 3 ? s->row[s->x - 3] : 0) + 8 * v);
		s->x++;
	}
	return 0;
}

int v4lc_se401_decode(const uint8_t *src, size_t n, uint8_t *rgb, int w, int h,
		      char *err, size_t err_len)
{
	size_t pos = 0, total, done = 0;
	struct row_state s;
	int first = 1;

	if (w <= 0 || h <= 0 || w > 16383 || h > 16383)
		return v4lc_jpeg_fail(err, err_len, -EINVAL,
				      "bad SE401 size %dx%d", w, h);
	total = (size_t)w * h;
	s.width3 = 3 * w;
	s.row = rgb;
	s.next = rgb + s.width3;
	s.x = 0;
	s.rows_left = h - 1;
	while (done < total) {
		unsigned info, cnt, bits;
		size_t plen;

		if (pos + 4 > n)
			return v4lc_jpeg_fail(err, err_len, -EIO,
					      "SE401 frame size mismatch");
		info = src[pos] & 0xc0;
		cnt = ((unsigned)(src[pos] & 0x3f) << 8) | src[pos + 1];
		bits = ((unsigned)src[pos + 2] << 8) | src[pos + 3];
		plen = ((size_t)(bits + 47) >> 4) << 1;
		if (info != (first ? 0x80u : done + cnt >= total ? 0x40u : 0u))
			return v4lc_jpeg_fail(err, err_len, -EIO,
					      "invalid SE401 frame info 0x%02x",
					      info);
		if (pos + plen > n)
			return v4lc_jpeg_fail(err, err_len, -EIO,
					      "short SE401 packet");
		if (done + cnt > total)
			return v4lc_jpeg_fail(err, err_len, -EIO,
					      "SE401 frame size mismatch");
		if (packet(src + pos + 4, bits, 3 * (int)cnt, &s))
			return v4lc_jpeg_fail(
				err, err_len, -EIO,
				"corrupt SE401 packet at byte %zu", pos);
		done += cnt;
		pos += plen;
		first = 0;
	}
	if (pos != n)
		return v4lc_jpeg_fail(err, err_len, -EIO,
				      "SE401 frame size mismatch");
	return 0;
}
