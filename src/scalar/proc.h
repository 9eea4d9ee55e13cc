/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The scalar proc kernels (src/scalar/proc.c), for the SIMD files' row ends.
 */
#ifndef V4LC_SCALAR_PROC_H
#define V4LC_SCALAR_PROC_H

#include "dispatch/dsp.h"

v4lc_proc_sum4_fn v4lc_proc_sum4_c;
v4lc_proc_sum3_fn v4lc_proc_sum3_c;
v4lc_proc_lut4_fn v4lc_proc_lut4_c;
v4lc_proc_lut3_fn v4lc_proc_lut3_c;

#endif
