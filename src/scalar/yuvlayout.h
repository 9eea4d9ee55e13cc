/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The scalar yuvlayout kernels (src/scalar/yuvlayout.c), for the SIMD
 * files' short rows.
 */
#ifndef V4LC_SCALAR_YUVLAYOUT_H
#define V4LC_SCALAR_YUVLAYOUT_H

#include "dispatch/dsp.h"

v4lc_uv_split_fn v4lc_yuvlayout_deinterleave_c;
v4lc_uv_split_avg_fn v4lc_yuvlayout_deinterleave_avg_c;
v4lc_uv_split_avg_fn v4lc_yuvlayout_nv24_to_yuv420_c;
v4lc_row_avg_fn v4lc_yuvlayout_avg_c;
v4lc_semiplanar_rgb_fn v4lc_yuvlayout_nv24_rgb_c, v4lc_yuvlayout_nv24_bgr_c;
v4lc_semiplanar_rgb_fn v4lc_yuvlayout_nv42_rgb_c, v4lc_yuvlayout_nv42_bgr_c;

#endif
