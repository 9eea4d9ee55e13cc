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
 * This file defines flip_init_rows(dsp), for v4lc_flip_init_<isa>: the
 * packed 4:2:2 mirrors, the 8-bit one with MIRROR8_STEP, and the rotations
 * with TILE8.
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

static void V4LC_ISA_FN(mirror_yuyv)(const uint8_t *src, uint8_t *dst,
				     int width)
{
	mirror422(src, dst, width, 0, v4lc_flip_mirror_yuyv_c);
}

static void V4LC_ISA_FN(mirror_uyvy)(const uint8_t *src, uint8_t *dst,
				     int width)
{
	mirror422(src, dst, width, 1, v4lc_flip_mirror_uyvy_c);
}

#ifdef MIRROR8_STEP
/* From the row's end backwards; the last step the row's first bytes. */
static void V4LC_ISA_FN(mirror8)(const uint8_t *src, uint8_t *dst, int width)
{
	const int n = MIRROR8_STEP;

	if (width < n) {
		v4lc_flip_mirror8_c(src, dst, width);
		return;
	}
	V4LC_STEPS(x, 0, n, width, mirror8_step(src + width - n - x, dst + x));
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

#define ROTATE(name, bpp, cw)                                                  \
	static void V4LC_ISA_FN(name)(const uint8_t *src, int src_stride,      \
				      uint8_t *dst, int dst_stride, int width, \
				      int height)                              \
	{                                                                      \
		const int t = bpp == 1 ? TILE8 : TILE24;                       \
                                                                               \
		if (width < t || height < t)                                   \
			v4lc_flip_##name##_c(src, src_stride, dst, dst_stride, \
					     width, height);                   \
		else if (bpp == 1)                                             \
			rotate8(src, src_stride, dst, dst_stride, width,       \
				height, cw);                                   \
		else                                                           \
			rotate24(src, src_stride, dst, dst_stride, width,      \
				 height, cw);                                  \
	}
ROTATE(rot90cw8, 1, 1)
ROTATE(rot90ccw8, 1, 0)
ROTATE(rot90cw24, 3, 1)
ROTATE(rot90ccw24, 3, 0)
#undef ROTATE
#endif

static void flip_init_rows(struct v4lc_flip_dsp *dsp)
{
	dsp->mirror_yuyv = V4LC_ISA_FN(mirror_yuyv);
	dsp->mirror_uyvy = V4LC_ISA_FN(mirror_uyvy);
#ifdef MIRROR8_STEP
	dsp->mirror8 = V4LC_ISA_FN(mirror8);
#endif
#ifdef TILE8
	dsp->rot90cw8 = V4LC_ISA_FN(rot90cw8);
	dsp->rot90ccw8 = V4LC_ISA_FN(rot90ccw8);
	dsp->rot90cw24 = V4LC_ISA_FN(rot90cw24);
	dsp->rot90ccw24 = V4LC_ISA_FN(rot90ccw24);
#endif
}
