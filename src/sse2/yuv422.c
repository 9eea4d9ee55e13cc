/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * SSE2 yuv422 kernels, bit-exact with the scalar ones (pixel.h formulas in
 * 16-bit lanes), 16 pixels per step to RGB, 32 to YUV 4:2:0
 * (src/x86/yuv422_128_tmpl.h, shared with SSSE3); the rows come from
 * src/simd/yuv422_rows.h.
 *
 * Unpacking: 32 source bytes are 8 pixel pairs. Masking or shifting the
 * 16-bit lanes separates luma from chroma; packuswb gathers 16 luma bytes
 * (pixel order) and 16 chroma bytes (first, second chroma of each pair).
 * Luma then splits into even and odd pixels as 16-bit lanes, so lane i of
 * each holds one pixel of pair i and one chroma lane serves both: no
 * chroma duplication (src/x86/yuv2rgb.h). Chroma bytes are XORed with 0x80
 * once, after which (C - 128) << 8 is a plain shift or mask. The output is
 * written as pixel pairs with overlapping 8-byte stores
 * (src/sse2/rgb_pairs.h), the last step of a row exactly.
 */
#include <emmintrin.h>

#define VEC_BITS 128
#include "x86/vec.h"
#include "x86/yuv2rgb.h"
#include "sse2/rgb_pairs.h"
#include "dispatch/dsp.h"

static inline void store_rgb(const __m128i p[3], uint8_t *dst, int last)
{
	store_rgb48(p, dst, last);
}

#include "x86/yuv422_128_tmpl.h"
