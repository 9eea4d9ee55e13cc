/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* proc statistics with AVX2: src/x86/proc_tmpl.h on 32-byte vectors. */
#include <immintrin.h>

#define VEC_BITS 256
#include "x86/vec.h"
#include "x86/proc_tmpl.h"

PROC_SUM4(sum4_avx2)
PROC_SUM3(sum3_avx2)

void v4lc_proc_init_avx2(struct v4lc_proc_dsp *dsp)
{
	dsp->sum4 = sum4_avx2;
	dsp->sum3 = sum3_avx2;
}
