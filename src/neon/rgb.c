/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * NEON 24-bit R<->B swap, 16 pixels a step (vld3q / vst3q), the rest by the
 * scalar kernel: each step reads its pixels before writing them, so the
 * kernel also works in place.
 */
#include <arm_neon.h>
#include <stddef.h>

#include "scalar/rgb.h"
#include "simd/row_any.h"

static inline void swap_step(const uint8_t *src, uint8_t *dst)
{
	uint8x16x3_t p = vld3q_u8(src);
	uint8x16_t r = p.val[0];

	p.val[0] = p.val[2];
	p.val[2] = r;
	vst3q_u8(dst, p);
}

V4LC_ANY_TAIL(swap_rb24_neon, (const uint8_t *src, uint8_t *dst, int width), 16,
	      swap_step(src + 3 * (ptrdiff_t)x, dst + 3 * (ptrdiff_t)x),
	      v4lc_rgb_swap_rb24_c(src + 3 * (ptrdiff_t)x,
				   dst + 3 * (ptrdiff_t)x, width - x))

void v4lc_rgb_init_neon(struct v4lc_rgb_dsp *dsp)
{
	dsp->swap_rb24 = swap_rb24_neon;
}
