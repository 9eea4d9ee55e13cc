/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * NEON luma-only rows, 16 pixels a step; the row loops come from
 * src/simd/grey_rows.h.
 */
#include <arm_neon.h>

#include "scalar/grey.h"

static inline void rgb24_step(const uint8_t *src, uint8_t *dst)
{
	uint8x16x3_t out;

	out.val[0] = out.val[1] = out.val[2] = vld1q_u8(src);
	vst3q_u8(dst, out);
}

static inline void grey16_step(const uint8_t *src, uint8_t *dst, int shift,
			       int be)
{
	const int16x8_t cnt = vdupq_n_s16((int16_t)-shift);
	uint8x16_t a = vld1q_u8(src), b = vld1q_u8(src + 16);

	if (be) {
		a = vrev16q_u8(a);
		b = vrev16q_u8(b);
	}
	/* vmovn keeps the low 8 bits: the truncation of the spec. */
	vst1q_u8(dst,
		 vcombine_u8(vmovn_u16(vshlq_u16(vreinterpretq_u16_u8(a), cnt)),
			     vmovn_u16(
				     vshlq_u16(vreinterpretq_u16_u8(b), cnt))));
}

/*
 * Y10BPACK, 8 pixels from 10 bytes (16 loaded): pixel k of a group is the
 * big-endian word of bytes k, k+1 shifted right by 8 - 2k. A table lookup
 * gathers the high and low bytes of the eight words.
 */
static void y10bpack_neon(const uint8_t *src, uint8_t *dst, int width)
{
	static const uint8_t hi_idx[8] = { 0, 1, 2, 3, 5, 6, 7, 8 };
	static const uint8_t lo_idx[8] = { 1, 2, 3, 4, 6, 7, 8, 9 };
	static const int16_t shifts[8] = { -8, -6, -4, -2, -8, -6, -4, -2 };
	const uint8x8_t hi_i = vld1_u8(hi_idx), lo_i = vld1_u8(lo_idx);
	const int16x8_t sh = vld1q_s16(shifts);
	const int nbytes = (int)(((int64_t)width * 10 + 7) / 8);
	int x = 0, i = 0;

	for (; x + 8 <= width && i + 16 <= nbytes; x += 8, i += 10) {
		uint8x16_t in = vld1q_u8(src + i);
		uint8x8x2_t t = { { vget_low_u8(in), vget_high_u8(in) } };
		uint16x8_t w = vorrq_u16(vshll_n_u8(vtbl2_u8(t, hi_i), 8),
					 vmovl_u8(vtbl2_u8(t, lo_i)));

		vst1_u8(dst + x, vmovn_u16(vshlq_u16(w, sh)));
	}
	if (x < width)
		v4lc_grey_y10bpack_c(src + i, dst + x, width - x);
}

#define GREY_STEP 16

#include "simd/grey_rows.h"

GREY_TO_RGB24(to_rgb24_neon)
GREY_16(le16_neon, 0, v4lc_grey_le16_c)
GREY_16(be16_neon, 1, v4lc_grey_be16_c)

void v4lc_grey_init_neon(struct v4lc_grey_dsp *dsp)
{
	dsp->to_rgb24 = to_rgb24_neon;
	dsp->le16 = le16_neon;
	dsp->be16 = be16_neon;
	dsp->y10bpack = y10bpack_neon;
}
