/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The scalar yuv422 kernels (src/scalar/yuv422.c), for the SIMD files' row
 * ends.
 */
#ifndef V4LC_SCALAR_YUV422_H
#define V4LC_SCALAR_YUV422_H

#include "dispatch/dsp.h"

v4lc_yuv422_rgb_fn v4lc_yuv422_yuyv_to_rgb24_c, v4lc_yuv422_yuyv_to_bgr24_c;
v4lc_yuv422_420_fn v4lc_yuv422_yuyv_to_yuv420_c;
v4lc_yuv422_rgb_fn v4lc_yuv422_yvyu_to_rgb24_c, v4lc_yuv422_yvyu_to_bgr24_c;
v4lc_yuv422_420_fn v4lc_yuv422_yvyu_to_yuv420_c;
v4lc_yuv422_rgb_fn v4lc_yuv422_uyvy_to_rgb24_c, v4lc_yuv422_uyvy_to_bgr24_c;
v4lc_yuv422_420_fn v4lc_yuv422_uyvy_to_yuv420_c;
v4lc_yuv422_rgb_fn v4lc_yuv422_vyuy_to_rgb24_c, v4lc_yuv422_vyuy_to_bgr24_c;
v4lc_yuv422_420_fn v4lc_yuv422_vyuy_to_yuv420_c;

#endif
