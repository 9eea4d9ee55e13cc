/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * SSSE3 yuv422 kernels, bit-exact with the scalar ones: SSE2's steps
 * (src/x86/yuv422_128_tmpl.h), the 48 output bytes of 16 pixels gathered
 * by pshufb (src/x86/rgb_gather.h) into three whole 16-byte stores.
 */
#include <tmmintrin.h>

#define VEC_BITS 128
#include "x86/vec.h"
#include "x86/yuv2rgb.h"
#include "sse2/rgb_pairs.h"
#include "x86/rgb_gather.h"
#include "dispatch/dsp.h"

static inline void store_rgb(const __m128i p[3], uint8_t *dst, int last)
{
	(void)last;
	store_rgb48_pshufb(p, dst);
}

#include "x86/yuv422_128_tmpl.h"
