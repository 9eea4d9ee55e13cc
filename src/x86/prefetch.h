/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Software prefetch for the x86 kernels whose source streams the hardware
 * prefetchers follow poorly, and the distances each family measured best.
 */
#ifndef V4LC_X86_PREFETCH_H
#define V4LC_X86_PREFETCH_H

#include <stdint.h>

/*
 * A prefetch of the line at p into every cache level: a hint, which cannot
 * fault, so p may lie past the end of the frame. An asm statement because
 * GCC 12 at -O2 and -O3 deleted _mm_prefetch from the row loops of
 * src/x86/rgb2yuv_tmpl.h (its tree dead-code pass; -fno-tree-dce kept it).
 */
static inline void v_prefetch(const uint8_t *p)
{
	__asm__ volatile("prefetcht0 %0" : : "m"(*(const volatile uint8_t *)p));
}

/*
 * Prefetch distance in source bytes of the packed 4:2:2 -> YUV420 steps,
 * one prefetch per row and 64-byte step (src/sse2/yuv422.c,
 * src/ssse3/yuv422.c, src/avx2/yuv422.c): two source rows read side by
 * side are two streams, which the hardware prefetchers kept up with poorly
 * on frames fresh from memory; 4096 beat 1024 and 2048 and matched 8192
 * (bench/results/choices.md).
 */
#define YUV422_PF 4096

#endif
