/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The init functions of every kernel family (part of dispatch/dsp.h):
 * v4lc_<family>_init_c (src/scalar/<family>.c) fills the whole table,
 * v4lc_<family>_init_<isa> (src/<isa>/<family>.c) overrides what that
 * instruction set speeds up. A build defines those of its architecture's
 * tiers; dispatch/dsp.c calls them, src/dispatch/README.md tells which tier
 * covers which entry.
 */
#ifndef V4LC_DISPATCH_DSP_INITS_H
#define V4LC_DISPATCH_DSP_INITS_H

void v4lc_rgb_init_c(struct v4lc_rgb_dsp *dsp);
void v4lc_rgb_init_sse2(struct v4lc_rgb_dsp *dsp);
void v4lc_rgb_init_ssse3(struct v4lc_rgb_dsp *dsp);
void v4lc_rgb_init_avx2(struct v4lc_rgb_dsp *dsp);
void v4lc_rgb_init_neon(struct v4lc_rgb_dsp *dsp);

void v4lc_flip_init_c(struct v4lc_flip_dsp *dsp);
void v4lc_flip_init_sse2(struct v4lc_flip_dsp *dsp);
void v4lc_flip_init_ssse3(struct v4lc_flip_dsp *dsp);
void v4lc_flip_init_avx2(struct v4lc_flip_dsp *dsp);
void v4lc_flip_init_neon(struct v4lc_flip_dsp *dsp);

void v4lc_yuv422_init_c(struct v4lc_yuv422_dsp *dsp);
void v4lc_yuv422_init_sse2(struct v4lc_yuv422_dsp *dsp);
void v4lc_yuv422_init_ssse3(struct v4lc_yuv422_dsp *dsp);
void v4lc_yuv422_init_avx2(struct v4lc_yuv422_dsp *dsp);
void v4lc_yuv422_init_neon(struct v4lc_yuv422_dsp *dsp);

void v4lc_yuv420_init_c(struct v4lc_yuv420_dsp *dsp);
void v4lc_yuv420_init_sse2(struct v4lc_yuv420_dsp *dsp);
void v4lc_yuv420_init_ssse3(struct v4lc_yuv420_dsp *dsp);
void v4lc_yuv420_init_avx2(struct v4lc_yuv420_dsp *dsp);
void v4lc_yuv420_init_neon(struct v4lc_yuv420_dsp *dsp);

void v4lc_rgb2yuv_init_c(struct v4lc_rgb2yuv_dsp *dsp);
void v4lc_rgb2yuv_init_sse2(struct v4lc_rgb2yuv_dsp *dsp);
void v4lc_rgb2yuv_init_ssse3(struct v4lc_rgb2yuv_dsp *dsp);
void v4lc_rgb2yuv_init_avx2(struct v4lc_rgb2yuv_dsp *dsp);
void v4lc_rgb2yuv_init_neon(struct v4lc_rgb2yuv_dsp *dsp);

void v4lc_rgbpack_init_c(struct v4lc_rgbpack_dsp *dsp);
void v4lc_rgbpack_init_sse2(struct v4lc_rgbpack_dsp *dsp);
void v4lc_rgbpack_init_avx2(struct v4lc_rgbpack_dsp *dsp);
void v4lc_rgbpack_init_neon(struct v4lc_rgbpack_dsp *dsp);

void v4lc_grey_init_c(struct v4lc_grey_dsp *dsp);
void v4lc_grey_init_sse2(struct v4lc_grey_dsp *dsp);
void v4lc_grey_init_avx2(struct v4lc_grey_dsp *dsp);
void v4lc_grey_init_neon(struct v4lc_grey_dsp *dsp);

void v4lc_bayer_init_c(struct v4lc_bayer_dsp *dsp);
void v4lc_bayer_init_sse2(struct v4lc_bayer_dsp *dsp);
void v4lc_bayer_init_avx2(struct v4lc_bayer_dsp *dsp);
void v4lc_bayer_init_neon(struct v4lc_bayer_dsp *dsp);

void v4lc_yuvlayout_init_c(struct v4lc_yuvlayout_dsp *dsp);
void v4lc_yuvlayout_init_sse2(struct v4lc_yuvlayout_dsp *dsp);
void v4lc_yuvlayout_init_avx2(struct v4lc_yuvlayout_dsp *dsp);
void v4lc_yuvlayout_init_neon(struct v4lc_yuvlayout_dsp *dsp);

void v4lc_proc_init_c(struct v4lc_proc_dsp *dsp);
void v4lc_proc_init_sse2(struct v4lc_proc_dsp *dsp);
void v4lc_proc_init_avx2(struct v4lc_proc_dsp *dsp);
void v4lc_proc_init_neon(struct v4lc_proc_dsp *dsp);

void v4lc_focus_init_c(struct v4lc_focus_dsp *dsp);
void v4lc_focus_init_sse2(struct v4lc_focus_dsp *dsp);
void v4lc_focus_init_neon(struct v4lc_focus_dsp *dsp);

#endif
