/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The rows of the grey kernels (dispatch/dsp.h, src/scalar/grey.c), for
 * every instruction set. Its file defines, then includes this one:
 *   GREY_STEP: the pixels of a step;
 *   rgb24_step(s, d): GREY_STEP grey bytes to 3 * GREY_STEP bytes;
 *   grey16_step(s, d, shift, be): GREY_STEP 16-bit words, little-endian or
 *     (be) big-endian, to bytes as v4lc_grey_le16_c does;
 *   y10bpack_<isa>: its whole Y10BPACK kernel (the groups of 5 bytes make
 *     each instruction set's row ends its own).
 * Rows of a step or more end with a step moved back to end at the row end;
 * shorter rows go to the scalar kernels. This file defines the other table
 * entries and v4lc_grey_init_<isa>.
 */
#include <stddef.h>

#include "scalar/grey.h"
#include "simd/row_any.h"

V4LC_ANY_BACK(V4LC_ISA_FN(to_rgb24),
	      (const uint8_t *src, uint8_t *dst, int width), GREY_STEP,
	      rgb24_step(src + x, dst + 3 * (ptrdiff_t)x),
	      v4lc_grey_to_rgb24_c(src, dst, width))

V4LC_ANY_BACK(V4LC_ISA_FN(le16),
	      (const uint8_t *src, uint8_t *dst, int width, int shift),
	      GREY_STEP, grey16_step(src + 2 * (ptrdiff_t)x, dst + x, shift, 0),
	      v4lc_grey_le16_c(src, dst, width, shift))

V4LC_ANY_BACK(V4LC_ISA_FN(be16),
	      (const uint8_t *src, uint8_t *dst, int width, int shift),
	      GREY_STEP, grey16_step(src + 2 * (ptrdiff_t)x, dst + x, shift, 1),
	      v4lc_grey_be16_c(src, dst, width, shift))

void V4LC_ISA_INIT(grey)(struct v4lc_grey_dsp *dsp)
{
	dsp->to_rgb24 = V4LC_ISA_FN(to_rgb24);
	dsp->le16 = V4LC_ISA_FN(le16);
	dsp->be16 = V4LC_ISA_FN(be16);
	dsp->y10bpack = V4LC_ISA_FN(y10bpack);
}
