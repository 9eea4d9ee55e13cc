/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The scalar flip kernels (src/scalar/flip.c), for the SIMD files' row ends
 * and small planes.
 */
#ifndef V4LC_SCALAR_FLIP_H
#define V4LC_SCALAR_FLIP_H

#include "dispatch/dsp.h"

v4lc_row_copy_fn v4lc_flip_mirror8_c, v4lc_flip_mirror24_c;
v4lc_row_copy_fn v4lc_flip_mirror_yuyv_c, v4lc_flip_mirror_uyvy_c;
v4lc_rotate_fn v4lc_flip_rot90cw8_c, v4lc_flip_rot90ccw8_c;
v4lc_rotate_fn v4lc_flip_rot90cw24_c, v4lc_flip_rot90ccw24_c;

#endif
