/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The loops of the flip kernels (dispatch/dsp.h, src/scalar/flip.c) around
 * an instruction set's vectors. Its file defines, then includes this one:
 *   struct mirror422, mirror422_init(&m, lo, width) and
 *   mirror422_step(src, dst, width, x0, &m): packed 4:2:2 mirror, luma at
 *     byte `lo` of each word, of MIRROR422_STEP destination pixels from
 *     pixel x0 (even; chroma of the pairs they make up);
 *   and, for the rotations, tile8(s, sstep, d, dstep) and
 *   tile24(s, sstep, d, dstep): a TILE8 x TILE8 tile of 8-bit pixels (a
 *     TILE24 x TILE24 one of 24-bit pixels), source rows s + i * sstep,
 *     transposed to destination rows d + j * dstep (d_j pixel i = s_i
 *     pixel j).
 * This file defines flip_init_rows(dsp), for v4lc_flip_init_<isa>: the
 * packed 4:2:2 mirrors, and the rotations when TILE8 is defined.
 *
 * Packed 4:2:2 mirrors: the destination vectors from pixel 0 to the last
 * whole pair, the last one moved back; an odd width's last pair (one pixel
 * and its spare slot) is the scalar kernel on the first source pair.
 * Rotations: square tiles; the last tile of a row or column is moved back
 * so it ends at the plane's edge (overlapping the previous one: the same
 * bytes written twice, nothing outside the plane); planes smaller than a
 * tile go to the scalar kernels. The source rows of a tile are read in the
 * order that makes the transpose land in destination order. 24-bit tiles
 * go in bands of 16 destination columns (a band's source rows stay in L1).
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

#ifdef TILE8
/* dst[y][x] = src[height - 1 - x][y]: a tile's source rows bottom-up. */
static void V4LC_ISA_FN(rot90cw8)(const uint8_t *src, int src_stride,
				  uint8_t *dst, int dst_stride, int width,
				  int height)
{
	const ptrdiff_t ss = src_stride, ds = dst_stride;

	if (width < TILE8 || height < TILE8) {
		v4lc_flip_rot90cw8_c(src, src_stride, dst, dst_stride, width,
				     height);
		return;
	}
	for (int xs = 0; xs < height; xs += TILE8) {
		int x0 = v4lc_step_at(xs, TILE8, height);
		const uint8_t *s = src + (height - 1 - x0) * ss;

		for (int ys = 0; ys < width; ys += TILE8) {
			int y0 = v4lc_step_at(ys, TILE8, width);

			tile8(s + y0, -ss, dst + y0 * ds + x0, ds);
		}
	}
}

/* dst[y][x] = src[x][width - 1 - y]: destination rows bottom-up. */
static void V4LC_ISA_FN(rot90ccw8)(const uint8_t *src, int src_stride,
				   uint8_t *dst, int dst_stride, int width,
				   int height)
{
	const ptrdiff_t ss = src_stride, ds = dst_stride;

	if (width < TILE8 || height < TILE8) {
		v4lc_flip_rot90ccw8_c(src, src_stride, dst, dst_stride, width,
				      height);
		return;
	}
	for (int xs = 0; xs < height; xs += TILE8) {
		int x0 = v4lc_step_at(xs, TILE8, height);
		const uint8_t *s = src + x0 * ss;

		for (int ys = 0; ys < width; ys += TILE8) {
			int y0 = v4lc_step_at(ys, TILE8, width);

			tile8(s + (width - TILE8 - y0), ss,
			      dst + (y0 + TILE8 - 1) * ds + x0, -ds);
		}
	}
}

static void V4LC_ISA_FN(rot90cw24)(const uint8_t *src, int src_stride,
				   uint8_t *dst, int dst_stride, int width,
				   int height)
{
	const ptrdiff_t ss = src_stride, ds = dst_stride;

	if (width < TILE24 || height < TILE24) {
		v4lc_flip_rot90cw24_c(src, src_stride, dst, dst_stride, width,
				      height);
		return;
	}
	for (int xb = 0; xb < height; xb += 16) {
		int xe = xb + 16 < height ? xb + 16 : height;

		for (int ys = 0; ys < width; ys += TILE24) {
			int y0 = v4lc_step_at(ys, TILE24, width);

			for (int xs = xb; xs < xe; xs += TILE24) {
				int x0 = v4lc_step_at(xs, TILE24, height);

				tile24(src + (height - 1 - x0) * ss + 3 * y0,
				       -ss, dst + y0 * ds + 3 * x0, ds);
			}
		}
	}
}

static void V4LC_ISA_FN(rot90ccw24)(const uint8_t *src, int src_stride,
				    uint8_t *dst, int dst_stride, int width,
				    int height)
{
	const ptrdiff_t ss = src_stride, ds = dst_stride;

	if (width < TILE24 || height < TILE24) {
		v4lc_flip_rot90ccw24_c(src, src_stride, dst, dst_stride, width,
				       height);
		return;
	}
	for (int xb = 0; xb < height; xb += 16) {
		int xe = xb + 16 < height ? xb + 16 : height;

		for (int ys = 0; ys < width; ys += TILE24) {
			int y0 = v4lc_step_at(ys, TILE24, width);

			for (int xs = xb; xs < xe; xs += TILE24) {
				int x0 = v4lc_step_at(xs, TILE24, height);

				tile24(src + x0 * ss + 3 * (width - TILE24 - y0),
				       ss, dst + (y0 + TILE24 - 1) * ds + 3 * x0,
				       -ds);
			}
		}
	}
}
#endif

static void flip_init_rows(struct v4lc_flip_dsp *dsp)
{
	dsp->mirror_yuyv = V4LC_ISA_FN(mirror_yuyv);
	dsp->mirror_uyvy = V4LC_ISA_FN(mirror_uyvy);
#ifdef TILE8
	dsp->rot90cw8 = V4LC_ISA_FN(rot90cw8);
	dsp->rot90ccw8 = V4LC_ISA_FN(rot90ccw8);
	dsp->rot90cw24 = V4LC_ISA_FN(rot90cw24);
	dsp->rot90ccw24 = V4LC_ISA_FN(rot90ccw24);
#endif
}
