/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The rows of the rgbpack kernels (dispatch/dsp.h, src/scalar/rgbpack.c),
 * for every instruction set. Its file defines, then includes this one:
 *   RGBPACK_STEP: the pixels of a step;
 *   pick_step(s, d, sel, last): RGBPACK_STEP 4-byte pixels to 3-byte ones,
 *     the bytes of enum v4lc_pick `sel`;
 *   rgb565_step(s, d, bgr, last): RGBPACK_STEP RGB565 words to RGB24 (BGR24
 *     if bgr);
 *   both writing 3 * RGBPACK_STEP bytes, and, unless last, perhaps 2 more.
 * Rows of a step or more end with a step moved back to end at the row end;
 * shorter rows go to the scalar kernels. This file defines the macros
 * that make the steps kernels (below).
 */
#include <stddef.h>

#include "scalar/rgbpack.h"
#include "simd/row_any.h"

/*
 * RGBPACK_PICK(fn, sel, tail) defines the kernel `fn`, 4-byte pixels to the
 * three bytes `sel` (enum v4lc_pick), the scalar `tail` making rows
 * narrower than a step; RGBPACK_565(fn, bgr, tail) an rgb565[] entry
 * (RGB24, or BGR24 if bgr). Each instruction set's file names its kernels
 * in them and in its v4lc_rgbpack_init_<isa>.
 */
#define RGBPACK_PICK(fn, sel, tail)                                            \
	V4LC_ANY_BACK(fn, (const uint8_t *src, uint8_t *dst, int width),       \
		      RGBPACK_STEP,                                            \
		      pick_step(src + 4 * (ptrdiff_t)x,                        \
				dst + 3 * (ptrdiff_t)x, sel,                   \
				x + RGBPACK_STEP == width),                    \
		      tail(src, dst, width))
#define RGBPACK_565(fn, bgr, tail)                                             \
	V4LC_ANY_BACK(fn, (const uint8_t *src, uint8_t *dst, int width),       \
		      RGBPACK_STEP,                                            \
		      rgb565_step(src + 2 * (ptrdiff_t)x,                      \
				  dst + 3 * (ptrdiff_t)x, bgr,                 \
				  x + RGBPACK_STEP == width),                  \
		      tail(src, dst, width))
