/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The scalar rgb kernel (src/scalar/rgb.c), for the SIMD files' row ends.
 */
#ifndef V4LC_SCALAR_RGB_H
#define V4LC_SCALAR_RGB_H

#include "dispatch/dsp.h"

v4lc_row_copy_fn v4lc_rgb_swap_rb24_c;

#endif
