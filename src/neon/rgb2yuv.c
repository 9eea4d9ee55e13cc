/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * RGB24/BGR24 -> YUV420 with NEON (aarch64 and armhf), 16 pixels per step.
 * vld3q_u8 deinterleaves the channels. mulhi_u16 (pmulhuw) is emulated
 * exactly: vmull_n_u16 to 32 bits, and the high 16-bit halves of the
 * products picked by vuzpq_u16 (.val[1] on little-endian). Luma operands
 * are c << 8 (vshll_n_u8); chroma sums are per-row pair sums (vpaddlq_u8,
 * vpadalq_u8) << 6, with wrapping 16-bit adds as in v4lc_rgb_to_uv.
 */
#include <arm_neon.h>

#include "scalar/rgb2yuv.h"

/* (a * k) >> 16 per unsigned 16-bit lane. */
static inline uint16x8_t mulhi(uint16x8_t a, uint16_t k)
{
	uint32x4_t lo = vmull_n_u16(vget_low_u16(a), k);
	uint32x4_t hi = vmull_n_u16(vget_high_u16(a), k);

	return vuzpq_u16(vreinterpretq_u16_u32(lo), vreinterpretq_u16_u32(hi))
		.val[1];
}

/* Luma of 8 pixels (channels as c << 8). */
static inline uint8x8_t luma8(const struct v4lc_rgb2yuv *k, uint16x8_t yadd,
			      uint16x8_t r, uint16x8_t g, uint16x8_t b)
{
	uint16x8_t s = vaddq_u16(mulhi(r, k->yr), mulhi(g, k->yg));

	s = vaddq_u16(s, mulhi(b, k->yb));
	return vshrn_n_u16(vaddq_u16(s, yadd), 8);
}

static inline void luma16(const struct v4lc_rgb2yuv *k, uint16x8_t yadd,
			  uint8x16_t r, uint8x16_t g, uint8x16_t b,
			  uint8_t *dst)
{
	uint8x8_t lo = luma8(k, yadd, vshll_n_u8(vget_low_u8(r), 8),
			     vshll_n_u8(vget_low_u8(g), 8),
			     vshll_n_u8(vget_low_u8(b), 8));
	uint8x8_t hi = luma8(k, yadd, vshll_n_u8(vget_high_u8(r), 8),
			     vshll_n_u8(vget_high_u8(g), 8),
			     vshll_n_u8(vget_high_u8(b), 8));

	vst1q_u8(dst, vcombine_u8(lo, hi));
}

/* 2x2 block sums of one channel over both rows, << 6. */
static inline uint16x8_t block_sum(uint8x16_t a, uint8x16_t b)
{
	return vshlq_n_u16(vpadalq_u8(vpaddlq_u8(a), b), 6);
}

static inline __attribute__((always_inline)) void
rows(const uint8_t *src0, const uint8_t *src1, uint8_t *y0, uint8_t *y1,
     uint8_t *u, uint8_t *v, int width, const struct v4lc_rgb2yuv *kp, int bgr)
{
	/* A local copy: byte stores may alias *kp and force reloads. */
	const struct v4lc_rgb2yuv kc = *kp, *k = &kc;
	const int ri = bgr ? 2 : 0, bi = bgr ? 0 : 2;
	const uint16x8_t yadd = vdupq_n_u16((uint16_t)((k->y_off << 8) + 128));
	const uint16x8_t cadd = vdupq_n_u16(32896);
	int x = 0;

	for (; x + 16 <= width; x += 16) {
		uint8x16x3_t p0 = vld3q_u8(src0 + 3 * x);
		uint8x16x3_t p1 = vld3q_u8(src1 + 3 * x);
		uint16x8_t sr, sg, sb, cu, cv;

		luma16(k, yadd, p0.val[ri], p0.val[1], p0.val[bi], y0 + x);
		luma16(k, yadd, p1.val[ri], p1.val[1], p1.val[bi], y1 + x);

		sr = block_sum(p0.val[ri], p1.val[ri]);
		sg = block_sum(p0.val[1], p1.val[1]);
		sb = block_sum(p0.val[bi], p1.val[bi]);
		cu = vaddq_u16(cadd, mulhi(sb, k->ub));
		cu = vsubq_u16(cu, mulhi(sr, k->ur));
		cu = vsubq_u16(cu, mulhi(sg, k->ug));
		cv = vaddq_u16(cadd, mulhi(sr, k->vr));
		cv = vsubq_u16(cv, mulhi(sg, k->vg));
		cv = vsubq_u16(cv, mulhi(sb, k->vb));
		vst1_u8(u + x / 2, vshrn_n_u16(cu, 8));
		vst1_u8(v + x / 2, vshrn_n_u16(cv, 8));
	}
	if (x < width)
		(bgr ? v4lc_rgb2yuv_bgr24_to_yuv420_c
		     : v4lc_rgb2yuv_rgb24_to_yuv420_c)(src0 + 3 * x,
						       src1 + 3 * x, y0 + x,
						       y1 + x, u + x / 2,
						       v + x / 2, width - x,
						       kp);
}

static void rgb24_to_yuv420_neon(const uint8_t *src0, const uint8_t *src1,
				 uint8_t *y0, uint8_t *y1, uint8_t *u,
				 uint8_t *v, int width,
				 const struct v4lc_rgb2yuv *k)
{
	rows(src0, src1, y0, y1, u, v, width, k, 0);
}

static void bgr24_to_yuv420_neon(const uint8_t *src0, const uint8_t *src1,
				 uint8_t *y0, uint8_t *y1, uint8_t *u,
				 uint8_t *v, int width,
				 const struct v4lc_rgb2yuv *k)
{
	rows(src0, src1, y0, y1, u, v, width, k, 1);
}

void v4lc_rgb2yuv_init_neon(struct v4lc_rgb2yuv_dsp *dsp)
{
	dsp->to_yuv420[V4LC_RGB24] = rgb24_to_yuv420_neon;
	dsp->to_yuv420[V4LC_BGR24] = bgr24_to_yuv420_neon;
}
