/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The scalar focus kernel (src/scalar/focus.c), for the SIMD files' row ends.
 */
#ifndef V4LC_SCALAR_FOCUS_H
#define V4LC_SCALAR_FOCUS_H

#include "dispatch/dsp.h"

v4lc_focus_lap_fn v4lc_focus_laplacian_c;

#endif
