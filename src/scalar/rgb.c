/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "scalar/rgb.h"

void v4lc_rgb_swap_rb24_c(const uint8_t *src, uint8_t *dst, int width)
{
	for (int x = 0; x < width; x++, src += 3, dst += 3) {
		uint8_t r = src[0];

		dst[0] = src[2];
		dst[1] = src[1];
		dst[2] = r;
	}
}

void v4lc_rgb_init_c(struct v4lc_rgb_dsp *dsp)
{
	dsp->swap_rb24 = v4lc_rgb_swap_rb24_c;
}
