/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The sharpness measure of the autofocus. */
#ifndef V4LC_FOCUS_MEASURE_H
#define V4LC_FOCUS_MEASURE_H

#include <stddef.h>
#include <stdint.h>

#include "dispatch/dsp.h"

/*
 * Variance of the Laplacian (dispatch/dsp_focus.h) over the centre half of
 * a luma plane (columns [w/4, 3w/4), rows [h/4, 3h/4)): larger is sharper.
 * Returns 0 for a plane too small to have a centre.
 */
double v4lc_focus_measure(const struct v4lc_dsp *dsp, const uint8_t *luma,
			  size_t stride, int w, int h);

/*
 * The same on packed 4:2:2 (luma every other byte from `first`, 0 for
 * YUYV/YVYU, 1 for UYVY/VYUY): the centre rows' luma is gathered into
 * `rows` (at least 3 * w bytes) as it goes.
 */
double v4lc_focus_measure_packed(const struct v4lc_dsp *dsp,
				 const uint8_t *frame, size_t stride, int w,
				 int h, int first, uint8_t *rows);

#endif
