/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The scalar rgb2yuv kernels (src/scalar/rgb2yuv.c), for the SIMD files' row
 * ends.
 */
#ifndef V4LC_SCALAR_RGB2YUV_H
#define V4LC_SCALAR_RGB2YUV_H

#include "dispatch/dsp.h"

v4lc_rgb2yuv_fn v4lc_rgb2yuv_rgb24_to_yuv420_c, v4lc_rgb2yuv_bgr24_to_yuv420_c;

#endif
