/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * flip family, NEON (aarch64 and 32-bit armhf: only intrinsics both have).
 *
 * Mirrors: vrev64q_u8 reverses each half of a vector, swapping the halves
 * (vextq_u8 by 8) finishes the 16-byte reversal; 24-bit pixels are
 * de-interleaved by vld3q so each channel reverses the same way, and vst3q
 * re-interleaves them.
 * Rotations (the loops in src/simd/flip_rows.h): 8x8 tiles transposed by
 * vtrn at 8, 16 and 32 bits (24-bit pixels: the three channels from vld3
 * transposed separately).
 * Packed 4:2:2 mirrors: as the SSE2 file explains, one vector of luma
 * words reversed in each half (vrev64q_u16) and one of pairs (vrev64q_u32),
 * blended by vbslq, then one half swap (vextq_u8).
 */
#include <arm_neon.h>
#include <stddef.h>

#include "scalar/flip.h"

static inline uint8x16_t rev16(uint8x16_t v)
{
	v = vrev64q_u8(v);
	return vextq_u8(v, v, 8); /* one EXT (vcombine of halves: moves) */
}

/* Two vectors a step, as in the SSE2 file. */
static inline void mirror8_step(const uint8_t *s, uint8_t *d)
{
	vst1q_u8(d, rev16(vld1q_u8(s + 16)));
	vst1q_u8(d + 16, rev16(vld1q_u8(s)));
}

#define MIRROR8_STEP 32

static inline void mirror24_block(const uint8_t *s, uint8_t *d)
{
	uint8x16x3_t p = vld3q_u8(s);

	p.val[0] = rev16(p.val[0]);
	p.val[1] = rev16(p.val[1]);
	p.val[2] = rev16(p.val[2]);
	vst3q_u8(d, p);
}

static void mirror24_neon(const uint8_t *src, uint8_t *dst, int width)
{
	int x = 0;

	if (width < 16) {
		v4lc_flip_mirror24_c(src, dst, width);
		return;
	}
	for (; x + 16 <= width; x += 16)
		mirror24_block(src + 3 * (ptrdiff_t)(width - 16 - x),
			       dst + 3 * (ptrdiff_t)x);
	if (x < width)
		mirror24_block(src, dst + 3 * (ptrdiff_t)(width - 16));
}

/* Transpose 8 rows of 8 bytes in place. */
static inline void transpose8(uint8x8_t r[8])
{
	uint8x8x2_t t01 = vtrn_u8(r[0], r[1]), t23 = vtrn_u8(r[2], r[3]);
	uint8x8x2_t t45 = vtrn_u8(r[4], r[5]), t67 = vtrn_u8(r[6], r[7]);
	/* t01.val[0]: columns 0,2,4,6 of rows 0,1 interleaved; val[1]: odd */
	uint16x4x2_t u02 = vtrn_u16(vreinterpret_u16_u8(t01.val[0]),
				    vreinterpret_u16_u8(t23.val[0]));
	uint16x4x2_t u13 = vtrn_u16(vreinterpret_u16_u8(t01.val[1]),
				    vreinterpret_u16_u8(t23.val[1]));
	uint16x4x2_t u46 = vtrn_u16(vreinterpret_u16_u8(t45.val[0]),
				    vreinterpret_u16_u8(t67.val[0]));
	uint16x4x2_t u57 = vtrn_u16(vreinterpret_u16_u8(t45.val[1]),
				    vreinterpret_u16_u8(t67.val[1]));
	/* u02.val[0]: columns 0 and 4 of rows 0..3; val[1]: columns 2, 6 */
	uint32x2x2_t v04 = vtrn_u32(vreinterpret_u32_u16(u02.val[0]),
				    vreinterpret_u32_u16(u46.val[0]));
	uint32x2x2_t v26 = vtrn_u32(vreinterpret_u32_u16(u02.val[1]),
				    vreinterpret_u32_u16(u46.val[1]));
	uint32x2x2_t v15 = vtrn_u32(vreinterpret_u32_u16(u13.val[0]),
				    vreinterpret_u32_u16(u57.val[0]));
	uint32x2x2_t v37 = vtrn_u32(vreinterpret_u32_u16(u13.val[1]),
				    vreinterpret_u32_u16(u57.val[1]));

	r[0] = vreinterpret_u8_u32(v04.val[0]);
	r[4] = vreinterpret_u8_u32(v04.val[1]);
	r[1] = vreinterpret_u8_u32(v15.val[0]);
	r[5] = vreinterpret_u8_u32(v15.val[1]);
	r[2] = vreinterpret_u8_u32(v26.val[0]);
	r[6] = vreinterpret_u8_u32(v26.val[1]);
	r[3] = vreinterpret_u8_u32(v37.val[0]);
	r[7] = vreinterpret_u8_u32(v37.val[1]);
}

/* An 8x8 tile: source rows s + i * sstep to destination rows d + j * dstep. */
static inline void tile8(const uint8_t *s, ptrdiff_t sstep, uint8_t *d,
			 ptrdiff_t dstep)
{
	uint8x8_t r[8];

	for (int i = 0; i < 8; i++)
		r[i] = vld1_u8(s + i * sstep);
	transpose8(r);
	for (int j = 0; j < 8; j++)
		vst1_u8(d + j * dstep, r[j]);
}

#define TILE8 8

/*
 * One 8x8 pixel tile of 24-bit pixels: source rows s + i * sstep (8 pixels
 * each) to destination rows d + j * dstep (d_j pixel i = s_i pixel j).
 */
static inline void tile24(const uint8_t *s, ptrdiff_t sstep, uint8_t *d,
			  ptrdiff_t dstep)
{
	uint8x8_t c0[8], c1[8], c2[8];

	for (int i = 0; i < 8; i++) {
		uint8x8x3_t p = vld3_u8(s + i * sstep);

		c0[i] = p.val[0];
		c1[i] = p.val[1];
		c2[i] = p.val[2];
	}
	transpose8(c0);
	transpose8(c1);
	transpose8(c2);
	for (int j = 0; j < 8; j++) {
		uint8x8x3_t p;

		p.val[0] = c0[j];
		p.val[1] = c1[j];
		p.val[2] = c2[j];
		vst3_u8(d + j * dstep, p);
	}
}

#define TILE24 8

struct mirror422 {
	uint8x16_t lmask; /* the luma bytes of each word */
};

static inline void mirror422_init(struct mirror422 *m, int lo, int width)
{
	(void)width;
	m->lmask = vreinterpretq_u8_u16(
		vdupq_n_u16(lo ? (uint16_t)0xff00 : (uint16_t)0x00ff));
}

static inline void mirror422_step(const uint8_t *src, uint8_t *dst, int width,
				  int x0, const struct mirror422 *m)
{
	int pairs = (width + 1) / 2;
	uint16x8_t l = vreinterpretq_u16_u8(
		vld1q_u8(src + 2 * (ptrdiff_t)(width - 8 - x0)));
	uint32x4_t c = vreinterpretq_u32_u8(
		vld1q_u8(src + 4 * (ptrdiff_t)pairs - 16 - 2 * (ptrdiff_t)x0));
	uint8x16_t v;

	/* reversed within halves, blended, then one half swap for both */
	l = vrev64q_u16(l);
	c = vrev64q_u32(c);
	v = vbslq_u8(m->lmask, vreinterpretq_u8_u16(l),
		     vreinterpretq_u8_u32(c));
	vst1q_u8(dst + 2 * (ptrdiff_t)x0, vextq_u8(v, v, 8));
}

#define MIRROR422_STEP 8

#include "simd/flip_rows.h"

FLIP_MIRROR422(mirror_yuyv_neon, 0, v4lc_flip_mirror_yuyv_c)
FLIP_MIRROR422(mirror_uyvy_neon, 1, v4lc_flip_mirror_uyvy_c)
FLIP_MIRROR8(mirror8_neon)
FLIP_ROTATE(rot90cw8_neon, 1, 1, v4lc_flip_rot90cw8_c)
FLIP_ROTATE(rot90ccw8_neon, 1, 0, v4lc_flip_rot90ccw8_c)
FLIP_ROTATE(rot90cw24_neon, 3, 1, v4lc_flip_rot90cw24_c)
FLIP_ROTATE(rot90ccw24_neon, 3, 0, v4lc_flip_rot90ccw24_c)

void v4lc_flip_init_neon(struct v4lc_flip_dsp *dsp)
{
	dsp->mirror8 = mirror8_neon;
	dsp->mirror24 = mirror24_neon;
	dsp->mirror_yuyv = mirror_yuyv_neon;
	dsp->mirror_uyvy = mirror_uyvy_neon;
	dsp->rot90cw8 = rot90cw8_neon;
	dsp->rot90ccw8 = rot90ccw8_neon;
	dsp->rot90cw24 = rot90cw24_neon;
	dsp->rot90ccw24 = rot90ccw24_neon;
}
