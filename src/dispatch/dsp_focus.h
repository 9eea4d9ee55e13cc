/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Kernel family `focus`: the sharpness measure of the software autofocus
 * (src/focus); part of dispatch/dsp.h.
 */
#ifndef V4LC_DISPATCH_DSP_FOCUS_H
#define V4LC_DISPATCH_DSP_FOCUS_H

#include <stdint.h>

/*
 * Laplacian statistics of one row of luma: for every x in [1, width - 2],
 *   L = 4 * cur[x] - cur[x - 1] - cur[x + 1] - above[x] - below[x]
 * adds L to *sum and L * L to *sumsq. Reads cur[0 .. width - 1] and
 * above/below[1 .. width - 2]; a row narrower than 3 adds nothing. The
 * variance of L over a region is the focus measure: defocus blur removes
 * exactly the high frequencies the Laplacian keeps.
 */
typedef void v4lc_focus_lap_fn(const uint8_t *above, const uint8_t *cur,
			       const uint8_t *below, int width, int64_t *sum,
			       uint64_t *sumsq);

struct v4lc_focus_dsp {
	v4lc_focus_lap_fn *laplacian;
};

#endif
