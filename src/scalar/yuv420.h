/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The scalar yuv420 kernels (src/scalar/yuv420.c), for the SIMD files' row
 * ends.
 */
#ifndef V4LC_SCALAR_YUV420_H
#define V4LC_SCALAR_YUV420_H

#include "dispatch/dsp.h"

v4lc_planar_rgb_fn v4lc_yuv420_planar_rgb24_c, v4lc_yuv420_planar_bgr24_c;
v4lc_semiplanar_rgb_fn v4lc_yuv420_nv12_rgb24_c, v4lc_yuv420_nv12_bgr24_c;
v4lc_semiplanar_rgb_fn v4lc_yuv420_nv21_rgb24_c, v4lc_yuv420_nv21_bgr24_c;

#endif
