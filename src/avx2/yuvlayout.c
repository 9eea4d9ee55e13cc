/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* AVX2 chroma reshaping, 32 samples a step: src/x86/yuvlayout_tmpl.h. */
#include <immintrin.h>

#define VEC_BITS 256
#include "x86/vec.h"
#include "x86/yuvlayout_tmpl.h"

YUVLAYOUT_DEINTERLEAVE(deinterleave_avx2)
YUVLAYOUT_DEINTERLEAVE_AVG(deinterleave_avg_avx2)
YUVLAYOUT_AVG(avg_avx2)

void v4lc_yuvlayout_init_avx2(struct v4lc_yuvlayout_dsp *dsp)
{
	dsp->deinterleave = deinterleave_avx2;
	dsp->deinterleave_avg = deinterleave_avg_avx2;
	dsp->avg = avg_avx2;
}
