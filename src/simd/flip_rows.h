/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The loops of the flip kernels (dispatch/dsp.h, src/scalar/flip.c) around
 * an instruction set's vectors. Its file defines, then includes this one:
 *   struct mirror422, mirror422_init(&m, lo, width) and
 *   mirror422_step(src, dst, width, x0, &m): packed 4:2:2 mirror, luma at
 *     byte `lo` of each word, of MIRROR422_STEP destination pixels from
 *     pixel x0 (even; chroma of the pairs they make up);
 *   optionally MIRROR8_STEP and mirror8_step(s, d): MIRROR8_STEP bytes
 *     reversed;
 *   and, for the rotations, tile8(s, sstep, d, dstep) and
 *   tile24(s, sstep, d, dstep): a TILE8 x TILE8 tile of 8-bit pixels (a
 *     TILE24 x TILE24 one of 24-bit pixels), source rows s + i * sstep,
 *     transposed to destination rows d + j * dstep (d_j pixel i = s_i
 *     pixel j); optionally ROT8_BAND, the 8-bit rotations' band (below).
 * This file defines the loops and the macros that make them kernels:
 *   FLIP_MIRROR422(fn, lo, tail): a packed 4:2:2 mirror, luma at byte `lo`
 *     of each word (mirror_yuyv: 0, mirror_uyvy: 1), `tail` its scalar
 *     kernel;
 *   FLIP_MIRROR8(fn), with MIRROR8_STEP: the 8-bit mirror;
 *   FLIP_ROTATE(fn, bpp, cw, tail), with TILE8: a rotation of bpp-byte
 *     pixels, clockwise if cw, `tail` its scalar kernel.
 * Each instruction set's file names its kernels in them and in its
 * v4lc_flip_init_<isa>.
 *
 * Packed 4:2:2 mirrors: the destination vectors from pixel 0 to the last
 * whole pair, the last one moved back; an odd width's last pair (one pixel
 * and its spare slot) is the scalar kernel on the first source pair.
 * Rotations: square tiles; the last tile of a row or column is moved back
 * so it ends at the plane's edge (overlapping the previous one: the same
 * bytes written twice, nothing outside the plane); planes smaller than a
 * tile go to the scalar kernels. The source rows of a tile are read in the
 * order that makes the transpose land in destination order.
 */
#include <stddef.h>

#include "scalar/flip.h"
#include "simd/row_any.h"

static inline __attribute__((always_inline)) void
mirror422(const uint8_t *src, uint8_t *dst, int width, int lo,
	  v4lc_row_copy_fn *scalar)
{
	const int pairs = (width + 1) / 2;
	struct mirror422 m;

	if (width < 16) {
		scalar(src, dst, width);
		return;
	}
	mirror422_init(&m, lo, width);
	V4LC_STEPS(x0, 0, MIRROR422_STEP, width & ~1,
		   mirror422_step(src, dst, width, x0, &m));
	if (width & 1)
		scalar(src, dst + 4 * (ptrdiff_t)(pairs - 1), 1);
}

#define FLIP_MIRROR422(fn, lo, tail)                                           \
	static void fn(const uint8_t *src, uint8_t *dst, int width)            \
	{                                                                      \
		mirror422(src, dst, width, lo, tail);                          \
	}

#ifdef MIRROR8_STEP
/* From the row's end backwards; the last step the row's first bytes. */
static inline __attribute__((always_inline)) void
mirror8_row(const uint8_t *src, uint8_t *dst, int width)
{
	const int n = MIRROR8_STEP;

	if (width < n) {
		v4lc_flip_mirror8_c(src, dst, width);
		return;
	}
	V4LC_STEPS(x, 0, n, width, mirror8_step(src + width - n - x, dst + x));
}

#define FLIP_MIRROR8(fn)                                                       \
	static void fn(const uint8_t *src, uint8_t *dst, int width)            \
	{                                                                      \
		mirror8_row(src, dst, width);                                  \
	}
#endif

#ifdef TILE8
/*
 * Tile (x0, y0) of a plane of width x height pixels of bpp bytes, t x t
 * pixels: clockwise, dst[y][x] = src[height - 1 - x][y] (the tile's source
 * rows bottom-up); counter-clockwise, dst[y][x] = src[x][width - 1 - y]
 * (its destination rows bottom-up).
 */
static inline __attribute__((always_inline)) void
rotate_tile(const uint8_t *src, ptrdiff_t ss, uint8_t *dst, ptrdiff_t ds,
	    int width, int height, int x0, int y0, int bpp, int cw)
{
	const int t = bpp == 1 ? TILE8 : TILE24;
	const uint8_t *s = cw ? src + (height - 1 - x0) * ss + bpp * y0
			      : src + x0 * ss + bpp * (width - t - y0);
	uint8_t *d = dst + bpp * x0 + (cw ? y0 : y0 + t - 1) * ds;

	if (bpp == 1)
		tile8(s, cw ? -ss : ss, d, cw ? ds : -ds);
	else
		tile24(s, cw ? -ss : ss, d, cw ? ds : -ds);
}

/*
 * 8-bit: bands of ROT8_BAND destination columns (a multiple of TILE8; one
 * column of tiles unless the file sets it), by destination rows within a
 * band: wider bands fill more of each destination line per visit, and
 * read more source rows side by side.
 */
#ifndef ROT8_BAND
#define ROT8_BAND TILE8
#endif
static inline __attribute__((always_inline)) void
rotate8(const uint8_t *src, ptrdiff_t ss, uint8_t *dst, ptrdiff_t ds, int width,
	int height, int cw)
{
	for (int xb = 0; xb < height; xb += ROT8_BAND) {
		int xe = xb + ROT8_BAND < height ? xb + ROT8_BAND : height;

		for (int ys = 0; ys < width; ys += TILE8) {
			int y0 = v4lc_step_at(ys, TILE8, width);

			for (int xs = xb; xs < xe; xs += TILE8)
				rotate_tile(src, ss, dst, ds, width, height,
					    v4lc_step_at(xs, TILE8, height), y0,
					    1, cw);
		}
	}
}

/* 24-bit: bands of 16 destination columns (a band's source rows stay in
 * L1), by destination rows within a band. */
static inline __attribute__((always_inline)) void
rotate24(const uint8_t *src, ptrdiff_t ss, uint8_t *dst, ptrdiff_t ds,
	 int width, int height, int cw)
{
	for (int xb = 0; xb < height; xb += 16) {
		int xe = xb + 16 < height ? xb + 16 : height;

		for (int ys = 0; ys < width; ys += TILE24) {
			int y0 = v4lc_step_at(ys, TILE24, width);

			for (int xs = xb; xs < xe; xs += TILE24)
				rotate_tile(src, ss, dst, ds, width, height,
					    v4lc_step_at(xs, TILE24, height),
					    y0, 3, cw);
		}
	}
}

#define FLIP_ROTATE(fn, bpp, cw, tail)                                         \
	static void fn(const uint8_t *src, int src_stride, uint8_t *dst,       \
		       int dst_stride, int width, int height)                  \
	{                                                                      \
		const int t = bpp == 1 ? TILE8 : TILE24;                       \
                                                                               \
		if (width < t || height < t)                                   \
			tail(src, src_stride, dst, dst_stride, width, height); \
		else if (bpp == 1)                                             \
			rotate8(src, src_stride, dst, dst_stride, width,       \
				height, cw);                                   \
		else                                                           \
			rotate24(src, src_stride, dst, dst_stride, width,      \
				 height, cw);                                  \
	}
#endif
