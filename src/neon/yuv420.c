/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * NEON yuv420 kernels (aarch64 and armhf), bit-exact with pixel.h,
 * 16 pixels per step.
 *
 * mulhi_s16(a, b) for an even a is vqdmulh(a / 2, b): (2 * (a/2) * b) >> 16,
 * and a / 2 never reaches -32768, so nothing saturates. Luma is loaded as
 * even/odd halves (vld2) that share one chroma lane each; vqshrun does the
 * arithmetic >> 5 and the clamp to 0..255 in one step. The rows come from
 * src/simd/yuv420_rows.h.
 */
#include <arm_neon.h>

#include "core/colour.h"

struct coefs {
	int16x8_t yoff6, yk, vr, ug, vg, ub, round, c16k;
};

static inline void coefs_init(struct coefs *c, const struct v4lc_yuv2rgb *k)
{
	c->yoff6 = vdupq_n_s16((int16_t)(k->y_off * 64));
	c->yk = vdupq_n_s16(k->yk);
	c->vr = vdupq_n_s16(k->vr);
	c->ug = vdupq_n_s16(k->ug);
	c->vg = vdupq_n_s16(k->vg);
	c->ub = vdupq_n_s16(k->ub);
	c->round = vdupq_n_s16(16);
	c->c16k = vdupq_n_s16(16384);
}

/* (x - 128) << 7, i.e. half of pixel.h's (x - 128) << 8 */
static inline int16x8_t chroma_half(uint8x8_t x, const struct coefs *c)
{
	return vsubq_s16(vreinterpretq_s16_u16(vshll_n_u8(x, 7)), c->c16k);
}

static inline int16x8_t luma_q5(uint8x8_t y, const struct coefs *c)
{
	int16x8_t h =
		vsubq_s16(vreinterpretq_s16_u16(vshll_n_u8(y, 6)), c->yoff6);

	return vqdmulhq_s16(h, c->yk);
}

static inline uint8x16_t zip16(uint8x8_t even, uint8x8_t odd)
{
	uint8x8x2_t z = vzip_u8(even, odd);

	return vcombine_u8(z.val[0], z.val[1]);
}

static inline void pixels16(const uint8_t *ysrc, uint8x8_t u, uint8x8_t v,
			    uint8_t *dst, const struct coefs *c, int bgr)
{
	uint8x8x2_t y = vld2_u8(ysrc);
	int16x8_t ye = luma_q5(y.val[0], c), yo = luma_q5(y.val[1], c);
	int16x8_t uh = chroma_half(u, c), vh = chroma_half(v, c);
	int16x8_t cr = vaddq_s16(vqdmulhq_s16(vh, c->vr), c->round);
	int16x8_t cb = vaddq_s16(vqdmulhq_s16(uh, c->ub), c->round);
	int16x8_t cg = vsubq_s16(vaddq_s16(vqdmulhq_s16(uh, c->ug),
					   vqdmulhq_s16(vh, c->vg)),
				 c->round);
	uint8x16_t r = zip16(vqshrun_n_s16(vaddq_s16(ye, cr), 5),
			     vqshrun_n_s16(vaddq_s16(yo, cr), 5));
	uint8x16_t g = zip16(vqshrun_n_s16(vsubq_s16(ye, cg), 5),
			     vqshrun_n_s16(vsubq_s16(yo, cg), 5));
	uint8x16_t b = zip16(vqshrun_n_s16(vaddq_s16(ye, cb), 5),
			     vqshrun_n_s16(vaddq_s16(yo, cb), 5));
	uint8x16x3_t out;

	out.val[0] = bgr ? b : r;
	out.val[1] = g;
	out.val[2] = bgr ? r : b;
	vst3q_u8(dst, out);
}

static inline void planar_step(const uint8_t *y, const uint8_t *u,
			       const uint8_t *v, uint8_t *dst,
			       const struct coefs *c, int bgr, int last)
{
	(void)last;
	pixels16(y, vld1_u8(u), vld1_u8(v), dst, c, bgr);
}

static inline void semi_step(const uint8_t *y, const uint8_t *uv, uint8_t *dst,
			     const struct coefs *c, int vfirst, int bgr,
			     int last)
{
	uint8x8x2_t p = vld2_u8(uv);

	(void)last;
	pixels16(y, p.val[vfirst], p.val[!vfirst], dst, c, bgr);
}

#define YUV420_STEP 16
#include "simd/yuv420_rows.h"

YUV420_PLANAR(planar_rgb24_neon, 0, v4lc_yuv420_planar_rgb24_c)
YUV420_PLANAR(planar_bgr24_neon, 1, v4lc_yuv420_planar_bgr24_c)
YUV420_SEMI(nv12_rgb24_neon, 0, 0, v4lc_yuv420_nv12_rgb24_c)
YUV420_SEMI(nv12_bgr24_neon, 0, 1, v4lc_yuv420_nv12_bgr24_c)
YUV420_SEMI(nv21_rgb24_neon, 1, 0, v4lc_yuv420_nv21_rgb24_c)
YUV420_SEMI(nv21_bgr24_neon, 1, 1, v4lc_yuv420_nv21_bgr24_c)

void v4lc_yuv420_init_neon(struct v4lc_yuv420_dsp *dsp)
{
	dsp->planar[V4LC_RGB24] = planar_rgb24_neon;
	dsp->planar[V4LC_BGR24] = planar_bgr24_neon;
	dsp->nv12[V4LC_RGB24] = nv12_rgb24_neon;
	dsp->nv12[V4LC_BGR24] = nv12_bgr24_neon;
	dsp->nv21[V4LC_RGB24] = nv21_rgb24_neon;
	dsp->nv21[V4LC_BGR24] = nv21_bgr24_neon;
}
