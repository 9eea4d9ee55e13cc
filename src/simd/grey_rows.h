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
 * shorter rows go to the scalar kernels. This file defines the macros
 * that make the steps kernels (below).
 */
#include <stddef.h>

#include "scalar/grey.h"
#include "simd/row_any.h"

/*
 * GREY_TO_RGB24(fn) defines the kernel `fn`, the to_rgb24 entry;
 * GREY_16(fn, be, tail) the le16 one (be16 if be), the scalar `tail`
 * making rows narrower than a step. Each instruction set's file names its
 * kernels in them and in its v4lc_grey_init_<isa>.
 */
#define GREY_TO_RGB24(fn)                                                      \
	V4LC_ANY_BACK(fn, (const uint8_t *src, uint8_t *dst, int width),       \
		      GREY_STEP, rgb24_step(src + x, dst + 3 * (ptrdiff_t)x),  \
		      v4lc_grey_to_rgb24_c(src, dst, width))
#define GREY_16(fn, be, tail)                                                  \
	V4LC_ANY_BACK(fn,                                                      \
		      (const uint8_t *src, uint8_t *dst, int width,            \
		       int shift),                                             \
		      GREY_STEP,                                               \
		      grey16_step(src + 2 * (ptrdiff_t)x, dst + x, shift, be), \
		      tail(src, dst, width, shift))
