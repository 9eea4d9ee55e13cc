/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The focus measure's specification (dispatch/dsp_focus.h). */
#include "scalar/focus.h"

void v4lc_focus_laplacian_c(const uint8_t *above, const uint8_t *cur,
			    const uint8_t *below, int width, int64_t *sum,
			    uint64_t *sumsq)
{
	int64_t s = 0;
	uint64_t q = 0;

	for (int x = 1; x < width - 1; x++) {
		int l = 4 * cur[x] - cur[x - 1] - cur[x + 1] - above[x] -
			below[x];

		s += l;
		q += (uint64_t)(l * l);
	}
	*sum += s;
	*sumsq += q;
}

void v4lc_focus_init_c(struct v4lc_focus_dsp *dsp)
{
	dsp->laplacian = v4lc_focus_laplacian_c;
}
