/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <arm_neon.h>

#include "scalar/rgb.h"

static void swap_rb24_neon(const uint8_t *src, uint8_t *dst, int width)
{
	int x = 0;

	for (; x + 16 <= width; x += 16) {
		uint8x16x3_t p = vld3q_u8(src + 3 * x);
		uint8x16_t r = p.val[0];

		p.val[0] = p.val[2];
		p.val[2] = r;
		vst3q_u8(dst + 3 * x, p);
	}
	if (x < width)
		v4lc_rgb_swap_rb24_c(src + 3 * x, dst + 3 * x, width - x);
}

void v4lc_rgb_init_neon(struct v4lc_rgb_dsp *dsp)
{
	dsp->swap_rb24 = swap_rb24_neon;
}
