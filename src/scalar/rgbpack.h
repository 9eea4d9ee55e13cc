/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The scalar rgbpack kernels (src/scalar/rgbpack.c), for the SIMD files' row
 * ends. pick<abc>: output bytes 0, 1, 2 are bytes a, b, c of each 4-byte
 * pixel; each serves two (layout, order) entries of the table.
 */
#ifndef V4LC_SCALAR_RGBPACK_H
#define V4LC_SCALAR_RGBPACK_H

#include "dispatch/dsp.h"

v4lc_row_copy_fn v4lc_rgbpack_rgb565_rgb_c, v4lc_rgbpack_rgb565_bgr_c;
v4lc_row_copy_fn v4lc_rgbpack_pick012_c, v4lc_rgbpack_pick210_c;
v4lc_row_copy_fn v4lc_rgbpack_pick123_c, v4lc_rgbpack_pick321_c;

/* The four byte selections, for the SIMD kernels' steps. */
enum v4lc_pick { V4LC_PICK012, V4LC_PICK210, V4LC_PICK123, V4LC_PICK321 };

#endif
