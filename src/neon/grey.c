/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <arm_neon.h>

#include "scalar/grey.h"

static void to_rgb24_neon(const uint8_t *src, uint8_t *dst, int width)
{
	int x = 0;

	for (; x + 16 <= width; x += 16) {
		uint8x16x3_t out;

		out.val[0] = out.val[1] = out.val[2] = vld1q_u8(src + x);
		vst3q_u8(dst + 3 * x, out);
	}
	if (x < width)
		v4lc_grey_to_rgb24_c(src + x, dst + 3 * x, width - x);
}

static inline int grey16(const uint8_t *src, uint8_t *dst, int width,
			 int shift, int be)
{
	const int16x8_t cnt = vdupq_n_s16((int16_t)-shift);
	int x = 0;

	for (; x + 16 <= width; x += 16) {
		uint8x16_t a = vld1q_u8(src + 2 * x);
		uint8x16_t b = vld1q_u8(src + 2 * x + 16);

		if (be) {
			a = vrev16q_u8(a);
			b = vrev16q_u8(b);
		}
		/* vmovn keeps the low 8 bits: the truncation of the spec. */
		vst1q_u8(dst + x,
			 vcombine_u8(vmovn_u16(vshlq_u16(vreinterpretq_u16_u8(a), cnt)),
				     vmovn_u16(vshlq_u16(vreinterpretq_u16_u8(b), cnt))));
	}
	return x;
}

static void le16_neon(const uint8_t *src, uint8_t *dst, int width, int shift)
{
	int x = grey16(src, dst, width, shift, 0);

	if (x < width)
		v4lc_grey_le16_c(src + 2 * x, dst + x, width - x, shift);
}

static void be16_neon(const uint8_t *src, uint8_t *dst, int width, int shift)
{
	int x = grey16(src, dst, width, shift, 1);

	if (x < width)
		v4lc_grey_be16_c(src + 2 * x, dst + x, width - x, shift);
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

void v4lc_grey_init_neon(struct v4lc_grey_dsp *dsp)
{
	dsp->to_rgb24 = to_rgb24_neon;
	dsp->le16 = le16_neon;
	dsp->be16 = be16_neon;
	dsp->y10bpack = y10bpack_neon;
}
