/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * flip family, scalar specification.
 *
 * mirror8/mirror24: dst pixel x = src pixel (width - 1 - x), pixels of one
 * and three bytes (the byte order inside a 24-bit pixel is kept).
 *
 * Rotations take the SOURCE geometry: a plane of `width` x `height` pixels
 * at `src` (rows `src_stride` bytes apart) becomes a plane of `height`
 * columns and `width` rows at `dst` (rows `dst_stride` bytes apart). With
 * S[r][c] the source pixel at row r, column c and D likewise:
 *
 *   rot90cw:  D[y][x] = S[height - 1 - x][y]
 *             (the source's first column, read bottom-up, is the
 *             destination's first row; the top-left corner goes top-right)
 *   rot90ccw: D[y][x] = S[x][width - 1 - y]
 *             (the source's last column, read top-down, is the
 *             destination's first row; the top-left corner goes bottom-left)
 *
 * for 0 <= y < width, 0 <= x < height. Only those pixels are written: the
 * stride padding of the destination is left alone.
 */
#include "dispatch/dsp.h"

#include <stddef.h>

void v4lc_flip_mirror8_c(const uint8_t *src, uint8_t *dst, int width)
{
	for (int x = 0; x < width; x++)
		dst[x] = src[width - 1 - x];
}

void v4lc_flip_mirror24_c(const uint8_t *src, uint8_t *dst, int width)
{
	const uint8_t *s = src + 3 * (ptrdiff_t)width;

	for (int x = 0; x < width; x++, dst += 3) {
		s -= 3;
		dst[0] = s[0];
		dst[1] = s[1];
		dst[2] = s[2];
	}
}

void v4lc_flip_rot90cw8_c(const uint8_t *src, int src_stride, uint8_t *dst,
			  int dst_stride, int width, int height)
{
	for (int y = 0; y < width; y++) {
		uint8_t *d = dst + (ptrdiff_t)y * dst_stride;

		for (int x = 0; x < height; x++)
			d[x] = src[(ptrdiff_t)(height - 1 - x) * src_stride + y];
	}
}

void v4lc_flip_rot90ccw8_c(const uint8_t *src, int src_stride, uint8_t *dst,
			   int dst_stride, int width, int height)
{
	for (int y = 0; y < width; y++) {
		uint8_t *d = dst + (ptrdiff_t)y * dst_stride;

		for (int x = 0; x < height; x++)
			d[x] = src[(ptrdiff_t)x * src_stride + (width - 1 - y)];
	}
}

void v4lc_flip_rot90cw24_c(const uint8_t *src, int src_stride, uint8_t *dst,
			   int dst_stride, int width, int height)
{
	for (int y = 0; y < width; y++) {
		uint8_t *d = dst + (ptrdiff_t)y * dst_stride;

		for (int x = 0; x < height; x++, d += 3) {
			const uint8_t *s = src +
					   (ptrdiff_t)(height - 1 - x) * src_stride +
					   3 * (ptrdiff_t)y;

			d[0] = s[0];
			d[1] = s[1];
			d[2] = s[2];
		}
	}
}

void v4lc_flip_rot90ccw24_c(const uint8_t *src, int src_stride, uint8_t *dst,
			    int dst_stride, int width, int height)
{
	for (int y = 0; y < width; y++) {
		uint8_t *d = dst + (ptrdiff_t)y * dst_stride;

		for (int x = 0; x < height; x++, d += 3) {
			const uint8_t *s = src + (ptrdiff_t)x * src_stride +
					   3 * (ptrdiff_t)(width - 1 - y);

			d[0] = s[0];
			d[1] = s[1];
			d[2] = s[2];
		}
	}
}

void v4lc_flip_init_c(struct v4lc_flip_dsp *dsp)
{
	dsp->mirror8 = v4lc_flip_mirror8_c;
	dsp->mirror24 = v4lc_flip_mirror24_c;
	dsp->rot90cw8 = v4lc_flip_rot90cw8_c;
	dsp->rot90ccw8 = v4lc_flip_rot90ccw8_c;
	dsp->rot90cw24 = v4lc_flip_rot90cw24_c;
	dsp->rot90ccw24 = v4lc_flip_rot90ccw24_c;
}
