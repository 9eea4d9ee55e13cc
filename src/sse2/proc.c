/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* proc statistics with SSE2: src/x86/proc_tmpl.h on 16-byte vectors. */
#include <emmintrin.h>

#define VEC_BITS 128
#include "x86/vec.h"
#include "x86/proc_tmpl.h"

PROC_SUM4(sum4_sse2)
PROC_SUM3(sum3_sse2)

void v4lc_proc_init_sse2(struct v4lc_proc_dsp *dsp)
{
	dsp->sum4 = sum4_sse2;
	dsp->sum3 = sum3_sse2;
}
