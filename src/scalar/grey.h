/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The scalar grey kernels (src/scalar/grey.c), for the SIMD files' row ends.
 */
#ifndef V4LC_SCALAR_GREY_H
#define V4LC_SCALAR_GREY_H

#include "dispatch/dsp.h"

v4lc_row_copy_fn v4lc_grey_to_rgb24_c, v4lc_grey_y10bpack_c;
v4lc_grey16_fn v4lc_grey_le16_c, v4lc_grey_be16_c;

#endif
