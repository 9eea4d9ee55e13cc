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
 * is one vqrshrun #5.
 */
#include <arm_neon.h>

#include "scalar/yuv422.h"

struct coefs {
	int16x8_t yoff6, c128_7, yk, vr, ug, vg, ub;
};

/* One channel of 8 pixels: clamp((t + 16) >> 5). */
#define OUT(t) vqrshrun_n_s16((t), 5)

/*
 * 16 pixels from one vld4 of 8 pairs; oy0, ou, oy1, ov are the byte
 * offsets of Y0, U, Y1, V in a pair (the vld4 vector indices). Writes
 * exactly 48 bytes.
 */
static inline void pixels16(const uint8_t *src, uint8_t *dst,
			    const struct coefs *k, int oy0, int ou, int oy1,
			    int ov, int bgr)
{
	uint8x8x4_t p = vld4_u8(src);
	int16x8_t ye, yo, u, v, cr, cg, cb;
	uint8x8_t re, ge, be, ro, go, bo;
	uint8x8x2_t zr, zg, zb;
	uint8x16x3_t out;

	/* (Y - y_off) << 6 and (C - 128) << 7 as signed 16-bit. */
	ye = vsubq_s16(vreinterpretq_s16_u16(vshll_n_u8(p.val[oy0], 6)), k->yoff6);
	yo = vsubq_s16(vreinterpretq_s16_u16(vshll_n_u8(p.val[oy1], 6)), k->yoff6);
	u = vsubq_s16(vreinterpretq_s16_u16(vshll_n_u8(p.val[ou], 7)), k->c128_7);
	v = vsubq_s16(vreinterpretq_s16_u16(vshll_n_u8(p.val[ov], 7)), k->c128_7);

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
	vst3q_u8(dst, out);
}

static inline void rgb_row(const uint8_t *src, uint8_t *dst, int width,
			   const struct v4lc_yuv2rgb *kp, int oy0, int ou,
			   int oy1, int ov, int bgr, v4lc_yuv422_rgb_fn *tail)
{
	struct coefs k;
	int x;

	k.yoff6 = vdupq_n_s16((int16_t)(kp->y_off * 64));
	k.c128_7 = vdupq_n_s16(128 * 128);
	k.yk = vdupq_n_s16(kp->yk);
	k.vr = vdupq_n_s16(kp->vr);
	k.ug = vdupq_n_s16(kp->ug);
	k.vg = vdupq_n_s16(kp->vg);
	k.ub = vdupq_n_s16(kp->ub);
	for (x = 0; x + 16 <= width; x += 16)
		pixels16(src + 2 * x, dst + 3 * x, &k, oy0, ou, oy1, ov, bgr);
	if (x < width)
		tail(src + 2 * x, dst + 3 * x, width - x, kp);
}

static inline void yuv420_row(const uint8_t *s0, const uint8_t *s1,
			      uint8_t *y0, uint8_t *y1, uint8_t *u, uint8_t *v,
			      int width, int oy0, int ou, int oy1, int ov,
			      v4lc_yuv422_420_fn *tail)
{
	int x;

	for (x = 0; x + 32 <= width; x += 32) {
		uint8x16x4_t a = vld4q_u8(s0 + 2 * x);
		uint8x16x4_t b = vld4q_u8(s1 + 2 * x);
		uint8x16x2_t ya, yb;

		ya.val[0] = a.val[oy0];
		ya.val[1] = a.val[oy1];
		yb.val[0] = b.val[oy0];
		yb.val[1] = b.val[oy1];
		vst2q_u8(y0 + x, ya);
		vst2q_u8(y1 + x, yb);
		vst1q_u8(u + x / 2, vrhaddq_u8(a.val[ou], b.val[ou]));
		vst1q_u8(v + x / 2, vrhaddq_u8(a.val[ov], b.val[ov]));
	}
	if (x + 16 <= width) {
		uint8x8x4_t a = vld4_u8(s0 + 2 * x);
		uint8x8x4_t b = vld4_u8(s1 + 2 * x);
		uint8x8x2_t ya, yb;

		ya.val[0] = a.val[oy0];
		ya.val[1] = a.val[oy1];
		yb.val[0] = b.val[oy0];
		yb.val[1] = b.val[oy1];
		vst2_u8(y0 + x, ya);
		vst2_u8(y1 + x, yb);
		vst1_u8(u + x / 2, vrhadd_u8(a.val[ou], b.val[ou]));
		vst1_u8(v + x / 2, vrhadd_u8(a.val[ov], b.val[ov]));
		x += 16;
	}
	if (x < width)
		tail(s0 + 2 * x, s1 + 2 * x, y0 + x, y1 + x, u + x / 2,
		     v + x / 2, width - x);
}

/* Byte offsets of Y0, U, Y1, V inside a pixel pair, per order. */
#define YUYV_OFFS 0, 1, 2, 3
#define YVYU_OFFS 0, 3, 2, 1
#define UYVY_OFFS 1, 0, 3, 2
#define VYUY_OFFS 1, 2, 3, 0

#define ORDER(name, OFFS)                                                    \
	static void name##_to_rgb24_neon(const uint8_t *src, uint8_t *dst,   \
					 int width,                          \
					 const struct v4lc_yuv2rgb *k)       \
	{                                                                    \
		rgb_row(src, dst, width, k, OFFS, 0,                         \
			v4lc_yuv422_##name##_to_rgb24_c);                    \
	}                                                                    \
	static void name##_to_bgr24_neon(const uint8_t *src, uint8_t *dst,   \
					 int width,                          \
					 const struct v4lc_yuv2rgb *k)       \
	{                                                                    \
		rgb_row(src, dst, width, k, OFFS, 1,                         \
			v4lc_yuv422_##name##_to_bgr24_c);                    \
	}                                                                    \
	static void name##_to_yuv420_neon(const uint8_t *s0,                 \
					  const uint8_t *s1, uint8_t *y0,    \
					  uint8_t *y1, uint8_t *u,           \
					  uint8_t *v, int width)             \
	{                                                                    \
		yuv420_row(s0, s1, y0, y1, u, v, width, OFFS,                \
			   v4lc_yuv422_##name##_to_yuv420_c);                \
	}

ORDER(yuyv, YUYV_OFFS)
ORDER(yvyu, YVYU_OFFS)
ORDER(uyvy, UYVY_OFFS)
ORDER(vyuy, VYUY_OFFS)

void v4lc_yuv422_init_neon(struct v4lc_yuv422_dsp *dsp)
{
#define SET(ORD, name)                                                       \
	dsp->to_rgb[ORD][V4LC_RGB24] = name##_to_rgb24_neon;                 \
	dsp->to_rgb[ORD][V4LC_BGR24] = name##_to_bgr24_neon;                 \
	dsp->to_yuv420[ORD] = name##_to_yuv420_neon;
	SET(V4LC_YUYV, yuyv)
	SET(V4LC_YVYU, yvyu)
	SET(V4LC_UYVY, uyvy)
	SET(V4LC_VYUY, vyuy)
#undef SET
}
