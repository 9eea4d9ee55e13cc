/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The dispatch: one function per kernel family fills its table with the
 * scalar kernels, then lets each instruction-set tier of the build
 * override what it speeds up, in ascending order, every tier's init
 * function named here (src/dispatch/README.md: which tier covers which
 * entry). A tier runs only when the flags hold it and every tier below it
 * (V4LC_TIER_*, dispatch/cpu.h), so a tier's file may leave to a lower one
 * what it does not do better. V4LC_SIMD is set by src/meson.build when it
 * builds the architecture's tier libraries; without it, only the scalar
 * kernels are linked.
 */
#include "dispatch/dsp.h"

#include <pthread.h>

#if defined(V4LC_SIMD) && defined(V4LC_ARCH_X86)
#define V4LC_DSP_X86 1
#elif defined(V4LC_SIMD) && defined(V4LC_ARCH_ARM)
#define V4LC_DSP_ARM 1
#endif

/* Whether `flags` hold the tier whose flags are `tier`. */
static inline int has(unsigned flags, unsigned tier)
{
	return (flags & tier) == tier;
}

static void rgb_init(struct v4lc_rgb_dsp *dsp, unsigned flags)
{
	v4lc_rgb_init_c(dsp);
#ifdef V4LC_DSP_X86
	if (has(flags, V4LC_TIER_SSE2))
		v4lc_rgb_init_sse2(dsp);
	if (has(flags, V4LC_TIER_SSSE3))
		v4lc_rgb_init_ssse3(dsp);
	if (has(flags, V4LC_TIER_AVX2))
		v4lc_rgb_init_avx2(dsp);
#elif defined(V4LC_DSP_ARM)
	if (has(flags, V4LC_TIER_NEON))
		v4lc_rgb_init_neon(dsp);
#endif
	(void)flags;
}

static void flip_init(struct v4lc_flip_dsp *dsp, unsigned flags)
{
	v4lc_flip_init_c(dsp);
#ifdef V4LC_DSP_X86
	if (has(flags, V4LC_TIER_SSE2))
		v4lc_flip_init_sse2(dsp);
	if (has(flags, V4LC_TIER_SSSE3))
		v4lc_flip_init_ssse3(dsp);
	if (has(flags, V4LC_TIER_AVX2))
		v4lc_flip_init_avx2(dsp);
#elif defined(V4LC_DSP_ARM)
	if (has(flags, V4LC_TIER_NEON))
		v4lc_flip_init_neon(dsp);
#endif
	(void)flags;
}

static void yuv422_init(struct v4lc_yuv422_dsp *dsp, unsigned flags)
{
	v4lc_yuv422_init_c(dsp);
#ifdef V4LC_DSP_X86
	if (has(flags, V4LC_TIER_SSE2))
		v4lc_yuv422_init_sse2(dsp);
	if (has(flags, V4LC_TIER_SSSE3))
		v4lc_yuv422_init_ssse3(dsp);
	if (has(flags, V4LC_TIER_AVX2))
		v4lc_yuv422_init_avx2(dsp);
#elif defined(V4LC_DSP_ARM)
	if (has(flags, V4LC_TIER_NEON))
		v4lc_yuv422_init_neon(dsp);
#endif
	(void)flags;
}

static void yuv420_init(struct v4lc_yuv420_dsp *dsp, unsigned flags)
{
	v4lc_yuv420_init_c(dsp);
#ifdef V4LC_DSP_X86
	if (has(flags, V4LC_TIER_SSE2))
		v4lc_yuv420_init_sse2(dsp);
	if (has(flags, V4LC_TIER_SSSE3))
		v4lc_yuv420_init_ssse3(dsp);
	if (has(flags, V4LC_TIER_AVX2))
		v4lc_yuv420_init_avx2(dsp);
#elif defined(V4LC_DSP_ARM)
	if (has(flags, V4LC_TIER_NEON))
		v4lc_yuv420_init_neon(dsp);
#endif
	(void)flags;
}

static void rgb2yuv_init(struct v4lc_rgb2yuv_dsp *dsp, unsigned flags)
{
	v4lc_rgb2yuv_init_c(dsp);
#ifdef V4LC_DSP_X86
	if (has(flags, V4LC_TIER_SSE2))
		v4lc_rgb2yuv_init_sse2(dsp);
	if (has(flags, V4LC_TIER_SSSE3))
		v4lc_rgb2yuv_init_ssse3(dsp);
	if (has(flags, V4LC_TIER_AVX2))
		v4lc_rgb2yuv_init_avx2(dsp);
#elif defined(V4LC_DSP_ARM)
	if (has(flags, V4LC_TIER_NEON))
		v4lc_rgb2yuv_init_neon(dsp);
#endif
	(void)flags;
}

static void rgbpack_init(struct v4lc_rgbpack_dsp *dsp, unsigned flags)
{
	v4lc_rgbpack_init_c(dsp);
#ifdef V4LC_DSP_X86
	if (has(flags, V4LC_TIER_SSE2))
		v4lc_rgbpack_init_sse2(dsp);
	if (has(flags, V4LC_TIER_AVX2))
		v4lc_rgbpack_init_avx2(dsp);
#elif defined(V4LC_DSP_ARM)
	if (has(flags, V4LC_TIER_NEON))
		v4lc_rgbpack_init_neon(dsp);
#endif
	(void)flags;
}

static void grey_init(struct v4lc_grey_dsp *dsp, unsigned flags)
{
	v4lc_grey_init_c(dsp);
#ifdef V4LC_DSP_X86
	if (has(flags, V4LC_TIER_SSE2))
		v4lc_grey_init_sse2(dsp);
	if (has(flags, V4LC_TIER_AVX2))
		v4lc_grey_init_avx2(dsp);
#elif defined(V4LC_DSP_ARM)
	if (has(flags, V4LC_TIER_NEON))
		v4lc_grey_init_neon(dsp);
#endif
	(void)flags;
}

static void bayer_init(struct v4lc_bayer_dsp *dsp, unsigned flags)
{
	v4lc_bayer_init_c(dsp);
#ifdef V4LC_DSP_X86
	if (has(flags, V4LC_TIER_SSE2))
		v4lc_bayer_init_sse2(dsp);
	if (has(flags, V4LC_TIER_AVX2))
		v4lc_bayer_init_avx2(dsp);
#elif defined(V4LC_DSP_ARM)
	if (has(flags, V4LC_TIER_NEON))
		v4lc_bayer_init_neon(dsp);
#endif
	(void)flags;
}

static void yuvlayout_init(struct v4lc_yuvlayout_dsp *dsp, unsigned flags)
{
	v4lc_yuvlayout_init_c(dsp);
#ifdef V4LC_DSP_X86
	if (has(flags, V4LC_TIER_SSE2))
		v4lc_yuvlayout_init_sse2(dsp);
	if (has(flags, V4LC_TIER_AVX2))
		v4lc_yuvlayout_init_avx2(dsp);
#elif defined(V4LC_DSP_ARM)
	if (has(flags, V4LC_TIER_NEON))
		v4lc_yuvlayout_init_neon(dsp);
#endif
	(void)flags;
}

static void proc_init(struct v4lc_proc_dsp *dsp, unsigned flags)
{
	v4lc_proc_init_c(dsp);
#ifdef V4LC_DSP_X86
	if (has(flags, V4LC_TIER_SSE2))
		v4lc_proc_init_sse2(dsp);
	if (has(flags, V4LC_TIER_AVX2))
		v4lc_proc_init_avx2(dsp);
#elif defined(V4LC_DSP_ARM)
	if (has(flags, V4LC_TIER_NEON))
		v4lc_proc_init_neon(dsp);
#endif
	(void)flags;
}

static void focus_init(struct v4lc_focus_dsp *dsp, unsigned flags)
{
	v4lc_focus_init_c(dsp);
#ifdef V4LC_DSP_X86
	if (has(flags, V4LC_TIER_SSE2))
		v4lc_focus_init_sse2(dsp);
#elif defined(V4LC_DSP_ARM)
	if (has(flags, V4LC_TIER_NEON))
		v4lc_focus_init_neon(dsp);
#endif
	(void)flags;
}

void v4lc_dsp_init(struct v4lc_dsp *dsp, unsigned cpu_flags)
{
	rgb_init(&dsp->rgb, cpu_flags);
	flip_init(&dsp->flip, cpu_flags);
	yuv422_init(&dsp->yuv422, cpu_flags);
	yuv420_init(&dsp->yuv420, cpu_flags);
	rgb2yuv_init(&dsp->rgb2yuv, cpu_flags);
	rgbpack_init(&dsp->rgbpack, cpu_flags);
	grey_init(&dsp->grey, cpu_flags);
	bayer_init(&dsp->bayer, cpu_flags);
	yuvlayout_init(&dsp->yuvlayout, cpu_flags);
	proc_init(&dsp->proc, cpu_flags);
	focus_init(&dsp->focus, cpu_flags);
}

static struct v4lc_dsp dsp_tables;
static pthread_once_t dsp_once = PTHREAD_ONCE_INIT;

static void dsp_fill(void)
{
	v4lc_dsp_init(&dsp_tables, v4lc_cpu_flags());
}

const struct v4lc_dsp *v4lc_dsp_get(void)
{
	pthread_once(&dsp_once, dsp_fill);
	return &dsp_tables;
}
