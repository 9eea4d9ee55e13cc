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
 *
 * mirror_yuyv/mirror_uyvy: packed 4:2:2 rows. A row of `width` pixels is
 * P = (width + 1) / 2 pairs of 4 bytes, pair j holding luma Y[2j], Y[2j+1]
 * and one chroma sample of each kind; mirror_yuyv has the luma at bytes 0
 * and 2 of a pair (YUYV, YVYU), mirror_uyvy at bytes 1 and 3 (UYVY, VYUY).
 * The two chroma bytes are never told apart, so one kernel serves both
 * chroma orders. With W = width:
 *
 *   luma:   dst Y[x] = src Y[W - 1 - x]            for 0 <= x < W
 *   chroma: dst pair j = chroma of src pair P - 1 - j   (both bytes, as is)
 *
 * For even W this reverses the pairs and swaps the two luma samples of each
 * pair. For odd W the last pair has one pixel and a spare luma slot Y[W]:
 * luma is still mirrored exactly, chroma pair j goes with dst pixel 2j (the
 * pixel of the pair whose source pixel owned that chroma, as the 4:2:0
 * transforms do), and the spare slot repeats the last pixel's luma,
 * dst Y[W] = dst Y[W - 1] (= src Y[0]); the source's spare slot is never
 * read. All 4 * P bytes of dst are written.
 */
#include "scalar/flip.h"

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
			d[x] = src[(ptrdiff_t)(height - 1 - x) * src_stride +
				   y];
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
			const uint8_t *s =
				src + (ptrdiff_t)(height - 1 - x) * src_stride +
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

/* Luma at byte offset `lo` (0 or 1) of each 16-bit word, chroma at 1 - lo. */
static void mirror422(const uint8_t *src, uint8_t *dst, int width, int lo)
{
	int pairs = (width + 1) / 2;

	for (int x = 0; x < width; x++)
		dst[2 * x + lo] = src[2 * (width - 1 - x) + lo];
	if (width & 1)
		dst[2 * width + lo] = dst[2 * (width - 1) + lo];
	for (int j = 0; j < pairs; j++) {
		const uint8_t *s = src + 4 * (ptrdiff_t)(pairs - 1 - j);
		uint8_t *d = dst + 4 * (ptrdiff_t)j;

		d[1 - lo] = s[1 - lo];
		d[3 - lo] = s[3 - lo];
	}
}

void v4lc_flip_mirror_yuyv_c(const uint8_t *src, uint8_t *dst, int width)
{
	mirror422(src, dst, width, 0);
}

void v4lc_flip_mirror_uyvy_c(const uint8_t *src, uint8_t *dst, int width)
{
	mirror422(src, dst, width, 1);
}

void v4lc_flip_init_c(struct v4lc_flip_dsp *dsp)
{
	dsp->mirror8 = v4lc_flip_mirror8_c;
	dsp->mirror24 = v4lc_flip_mirror24_c;
	dsp->rot90cw8 = v4lc_flip_rot90cw8_c;
	dsp->rot90ccw8 = v4lc_flip_rot90ccw8_c;
	dsp->rot90cw24 = v4lc_flip_rot90cw24_c;
	dsp->rot90ccw24 = v4lc_flip_rot90ccw24_c;
	dsp->mirror_yuyv = v4lc_flip_mirror_yuyv_c;
	dsp->mirror_uyvy = v4lc_flip_mirror_uyvy_c;
}
