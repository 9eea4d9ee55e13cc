/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * NEON yuv422 kernels (AArch64 and 32-bit ARM), bit-exact with pixel.h.
 *
 * vld4 deinterleaves 8 (or 16) pixel pairs into even luma, odd luma and
 * the two chroma planes, so each chroma lane serves the pixel pair in the
 * same lane of the luma vectors.
 *
 * pixel.h's mulhi_s16(a << s, k) is computed as vqdmulh(a << (s - 1), k):
 * vqdmulh returns (2 * x * k) >> 16, the same product and the same floor,
 * and saturates only for x = k = -32768, which x never is (it is at least
 * -32 << 6 for luma and -128 << 7 for chroma). Then clamp((t + 16) >> 5)
 * is one vqrshrun #5. The rows come from src/simd/yuv422_rows.h.
 */
#include <arm_neon.h>

#include "dispatch/dsp.h"

#define YUV422_STEP 16

struct coefs {
	int16x8_t yoff6, c128_7, yk, vr, ug, vg, ub;
};

/* One channel of 8 pixels: clamp((t + 16) >> 5). */
#define OUT(t) vqrshrun_n_s16((t), 5)

/*
 * 16 pixels from one vld4 of 8 pairs: the byte offsets of Y0, U, Y1, V in
 * a pair are the vld4 vector indices. Writes exactly 48 bytes.
 */
static inline __attribute__((always_inline)) void
rgb_step(const uint8_t *src, uint8_t *dst, const struct coefs *k, int order,
	 int bgr, int last)
{
	const uint8_t *o = v4lc_yuv422_offsets[order];
	const int oy0 = o[V4LC_422_Y0], ou = o[V4LC_422_U];
	const int oy1 = o[V4LC_422_Y1], ov = o[V4LC_422_V];
	uint8x8x4_t p = vld4_u8(src);
	int16x8_t ye, yo, u, v, cr, cg, cb;
	uint8x8_t re, ge, be, ro, go, bo;
	uint8x8x2_t zr, zg, zb;
	uint8x16x3_t out;

	/* (Y - y_off) << 6 and (C - 128) << 7 as signed 16-bit. */
	ye = vsubq_s16(vreinterpretq_s16_u16(vshll_n_u8(p.val[oy0], 6)),
		       k->yoff6);
	yo = vsubq_s16(vreinterpretq_s16_u16(vshll_n_u8(p.val[oy1], 6)),
		       k->yoff6);
	u = vsubq_s16(vreinterpretq_s16_u16(vshll_n_u8(p.val[ou], 7)),
		      k->c128_7);
	v = vsubq_s16(vreinterpretq_s16_u16(vshll_n_u8(p.val[ov], 7)),
		      k->c128_7);

	ye = vqdmulhq_s16(ye, k->yk);
	yo = vqdmulhq_s16(yo, k->yk);
	cr = vqdmulhq_s16(v, k->vr);
	cb = vqdmulhq_s16(u, k->ub);
	cg = vaddq_s16(vqdmulhq_s16(u, k->ug), vqdmulhq_s16(v, k->vg));

	re = OUT(vaddq_s16(ye, cr));
	ge = OUT(vsubq_s16(ye, cg));
	be = OUT(vaddq_s16(ye, cb));
	ro = OUT(vaddq_s16(yo, cr));
	go = OUT(vsubq_s16(yo, cg));
	bo = OUT(vaddq_s16(yo, cb));

	zr = vzip_u8(re, ro);
	zg = vzip_u8(ge, go);
	zb = vzip_u8(be, bo);
	out.val[bgr ? 2 : 0] = vcombine_u8(zr.val[0], zr.val[1]);
	out.val[1] = vcombine_u8(zg.val[0], zg.val[1]);
	out.val[bgr ? 0 : 2] = vcombine_u8(zb.val[0], zb.val[1]);
	(void)last;
	vst3q_u8(dst, out);
}

static inline void coefs_init(struct coefs *c, const struct v4lc_yuv2rgb *k)
{
	c->yoff6 = vdupq_n_s16((int16_t)(k->y_off * 64));
	c->c128_7 = vdupq_n_s16(128 * 128);
	c->yk = vdupq_n_s16(k->yk);
	c->vr = vdupq_n_s16(k->vr);
	c->ug = vdupq_n_s16(k->ug);
	c->vg = vdupq_n_s16(k->vg);
	c->ub = vdupq_n_s16(k->ub);
}

static inline __attribute__((always_inline)) void
yuv420_step(const uint8_t *s0, const uint8_t *s1, uint8_t *y0, uint8_t *y1,
	    uint8_t *u, uint8_t *v, int order)
{
	const uint8_t *o = v4lc_yuv422_offsets[order];
	uint8x16x4_t a = vld4q_u8(s0), b = vld4q_u8(s1);
	uint8x16x2_t ya, yb;

	ya.val[0] = a.val[o[V4LC_422_Y0]];
	ya.val[1] = a.val[o[V4LC_422_Y1]];
	yb.val[0] = b.val[o[V4LC_422_Y0]];
	yb.val[1] = b.val[o[V4LC_422_Y1]];
	vst2q_u8(y0, ya);
	vst2q_u8(y1, yb);
	vst1q_u8(u, vrhaddq_u8(a.val[o[V4LC_422_U]], b.val[o[V4LC_422_U]]));
	vst1q_u8(v, vrhaddq_u8(a.val[o[V4LC_422_V]], b.val[o[V4LC_422_V]]));
}

#include "simd/yuv422_rows.h"

YUV422_TO_RGB(yuyv_to_rgb24_neon, V4LC_YUYV, 0, v4lc_yuv422_yuyv_to_rgb24_c)
YUV422_TO_RGB(yuyv_to_bgr24_neon, V4LC_YUYV, 1, v4lc_yuv422_yuyv_to_bgr24_c)
YUV422_TO_YUV420(yuyv_to_yuv420_neon, V4LC_YUYV, v4lc_yuv422_yuyv_to_yuv420_c)
YUV422_TO_RGB(yvyu_to_rgb24_neon, V4LC_YVYU, 0, v4lc_yuv422_yvyu_to_rgb24_c)
YUV422_TO_RGB(yvyu_to_bgr24_neon, V4LC_YVYU, 1, v4lc_yuv422_yvyu_to_bgr24_c)
YUV422_TO_YUV420(yvyu_to_yuv420_neon, V4LC_YVYU, v4lc_yuv422_yvyu_to_yuv420_c)
YUV422_TO_RGB(uyvy_to_rgb24_neon, V4LC_UYVY, 0, v4lc_yuv422_uyvy_to_rgb24_c)
YUV422_TO_RGB(uyvy_to_bgr24_neon, V4LC_UYVY, 1, v4lc_yuv422_uyvy_to_bgr24_c)
YUV422_TO_YUV420(uyvy_to_yuv420_neon, V4LC_UYVY, v4lc_yuv422_uyvy_to_yuv420_c)
YUV422_TO_RGB(vyuy_to_rgb24_neon, V4LC_VYUY, 0, v4lc_yuv422_vyuy_to_rgb24_c)
YUV422_TO_RGB(vyuy_to_bgr24_neon, V4LC_VYUY, 1, v4lc_yuv422_vyuy_to_bgr24_c)
YUV422_TO_YUV420(vyuy_to_yuv420_neon, V4LC_VYUY, v4lc_yuv422_vyuy_to_yuv420_c)

void v4lc_yuv422_init_neon(struct v4lc_yuv422_dsp *dsp)
{
	dsp->to_rgb[V4LC_YUYV][V4LC_RGB24] = yuyv_to_rgb24_neon;
	dsp->to_rgb[V4LC_YUYV][V4LC_BGR24] = yuyv_to_bgr24_neon;
	dsp->to_yuv420[V4LC_YUYV] = yuyv_to_yuv420_neon;
	dsp->to_rgb[V4LC_YVYU][V4LC_RGB24] = yvyu_to_rgb24_neon;
	dsp->to_rgb[V4LC_YVYU][V4LC_BGR24] = yvyu_to_bgr24_neon;
	dsp->to_yuv420[V4LC_YVYU] = yvyu_to_yuv420_neon;
	dsp->to_rgb[V4LC_UYVY][V4LC_RGB24] = uyvy_to_rgb24_neon;
	dsp->to_rgb[V4LC_UYVY][V4LC_BGR24] = uyvy_to_bgr24_neon;
	dsp->to_yuv420[V4LC_UYVY] = uyvy_to_yuv420_neon;
	dsp->to_rgb[V4LC_VYUY][V4LC_RGB24] = vyuy_to_rgb24_neon;
	dsp->to_rgb[V4LC_VYUY][V4LC_BGR24] = vyuy_to_bgr24_neon;
	dsp->to_yuv420[V4LC_VYUY] = vyuy_to_yuv420_neon;
}
