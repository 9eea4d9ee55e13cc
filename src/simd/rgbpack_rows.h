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
 * shorter rows go to the scalar kernels. This file defines the table
 * entries and v4lc_rgbpack_init_<isa>.
 */
#include <stddef.h>

#include "scalar/rgbpack.h"
#include "simd/row_any.h"

#define PICK(name, sel)                                                        \
	V4LC_ANY_BACK(V4LC_ISA_FN(name),                                       \
		      (const uint8_t *src, uint8_t *dst, int width),           \
		      RGBPACK_STEP,                                            \
		      pick_step(src + 4 * (ptrdiff_t)x,                        \
				dst + 3 * (ptrdiff_t)x, sel,                   \
				x + RGBPACK_STEP == width),                    \
		      v4lc_rgbpack_##name##_c(src, dst, width))
PICK(pick012, V4LC_PICK012)
PICK(pick210, V4LC_PICK210)
PICK(pick123, V4LC_PICK123)
PICK(pick321, V4LC_PICK321)
#undef PICK

#define RGB565(name, bgr)                                                      \
	V4LC_ANY_BACK(V4LC_ISA_FN(name),                                       \
		      (const uint8_t *src, uint8_t *dst, int width),           \
		      RGBPACK_STEP,                                            \
		      rgb565_step(src + 2 * (ptrdiff_t)x,                      \
				  dst + 3 * (ptrdiff_t)x, bgr,                 \
				  x + RGBPACK_STEP == width),                  \
		      v4lc_rgbpack_##name##_c(src, dst, width))
RGB565(rgb565_rgb, 0)
RGB565(rgb565_bgr, 1)
#undef RGB565

void V4LC_ISA_INIT(rgbpack)(struct v4lc_rgbpack_dsp *dsp)
{
	dsp->rgb565[V4LC_RGB24] = V4LC_ISA_FN(rgb565_rgb);
	dsp->rgb565[V4LC_BGR24] = V4LC_ISA_FN(rgb565_bgr);
	dsp->rgb32[V4LC_BGRX32][V4LC_RGB24] = V4LC_ISA_FN(pick210);
	dsp->rgb32[V4LC_BGRX32][V4LC_BGR24] = V4LC_ISA_FN(pick012);
	dsp->rgb32[V4LC_XRGB32][V4LC_RGB24] = V4LC_ISA_FN(pick123);
	dsp->rgb32[V4LC_XRGB32][V4LC_BGR24] = V4LC_ISA_FN(pick321);
	dsp->rgb32[V4LC_XBGR32][V4LC_RGB24] = V4LC_ISA_FN(pick321);
	dsp->rgb32[V4LC_XBGR32][V4LC_BGR24] = V4LC_ISA_FN(pick123);
	dsp->rgb32[V4LC_RGBX32][V4LC_RGB24] = V4LC_ISA_FN(pick012);
	dsp->rgb32[V4LC_RGBX32][V4LC_BGR24] = V4LC_ISA_FN(pick210);
}
