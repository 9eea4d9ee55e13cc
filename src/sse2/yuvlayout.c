/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SSE2 chroma reshaping, 16 samples a step: src/x86/yuvlayout_tmpl.h. */
#include <emmintrin.h>

#define VEC_BITS 128
#include "x86/vec.h"
#include "x86/yuvlayout_tmpl.h"

YUVLAYOUT_DEINTERLEAVE(deinterleave_sse2)
YUVLAYOUT_DEINTERLEAVE_AVG(deinterleave_avg_sse2)
YUVLAYOUT_AVG(avg_sse2)

void v4lc_yuvlayout_init_sse2(struct v4lc_yuvlayout_dsp *dsp)
{
	dsp->deinterleave = deinterleave_sse2;
	dsp->deinterleave_avg = deinterleave_avg_sse2;
	dsp->avg = avg_sse2;
}
