/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * proc with NEON: statistics through de-interleaving loads (vld4/vld3 put
 * each phase of the pattern in its own register) and pairwise widening
 * adds; on AArch64 also the lookup tables, as four 64-byte table lookups
 * (tbl, then tbx for each further quarter of the table).
 */
#include <arm_neon.h>

#include "scalar/proc.h"

static uint32_t hsum32(uint32x4_t v)
{
	uint64x2_t s = vpaddlq_u32(v);

	return (uint32_t)(vgetq_lane_u64(s, 0) + vgetq_lane_u64(s, 1));
}

static void sum4_neon(const uint8_t *src, int n, uint32_t sum[4])
{
	uint32x4_t acc[4] = { vdupq_n_u32(0), vdupq_n_u32(0), vdupq_n_u32(0),
			      vdupq_n_u32(0) };
	uint32_t tail[4];
	int i = 0;

	while (i + 64 <= n) {
		uint16x8_t a[4] = { vdupq_n_u16(0), vdupq_n_u16(0),
				    vdupq_n_u16(0), vdupq_n_u16(0) };

		/* 128 blocks at most: a 16-bit lane gets 2 x 255 per block */
		for (int b = 0; b < 128 && i + 64 <= n; b++, i += 64) {
			uint8x16x4_t v = vld4q_u8(src + i);

			a[0] = vpadalq_u8(a[0], v.val[0]);
			a[1] = vpadalq_u8(a[1], v.val[1]);
			a[2] = vpadalq_u8(a[2], v.val[2]);
			a[3] = vpadalq_u8(a[3], v.val[3]);
		}
		for (int k = 0; k < 4; k++)
			acc[k] = vpadalq_u16(acc[k], a[k]);
	}
	v4lc_proc_sum4_c(src + i, n - i, tail);
	for (int k = 0; k < 4; k++)
		sum[k] = hsum32(acc[k]) + tail[k];
}

static void sum3_neon(const uint8_t *src, int width, uint32_t sum[3])
{
	uint32x4_t acc[3] = { vdupq_n_u32(0), vdupq_n_u32(0), vdupq_n_u32(0) };
	uint32_t tail[3];
	int j = 0;

	while (j + 16 <= width) {
		uint16x8_t a[3] = { vdupq_n_u16(0), vdupq_n_u16(0),
				    vdupq_n_u16(0) };

		for (int b = 0; b < 128 && j + 16 <= width; b++, j += 16) {
			uint8x16x3_t v = vld3q_u8(src + 3 * j);

			a[0] = vpadalq_u8(a[0], v.val[0]);
			a[1] = vpadalq_u8(a[1], v.val[1]);
			a[2] = vpadalq_u8(a[2], v.val[2]);
		}
		for (int c = 0; c < 3; c++)
			acc[c] = vpadalq_u16(acc[c], a[c]);
	}
	v4lc_proc_sum3_c(src + 3 * j, width - j, tail);
	for (int c = 0; c < 3; c++)
		sum[c] = hsum32(acc[c]) + tail[c];
}

#ifdef __aarch64__
struct table {
	uint8x16x4_t q[4];
};

static inline struct table load_table(const uint8_t *lut)
{
	struct table t;

	for (int k = 0; k < 4; k++)
		t.q[k] = vld1q_u8_x4(lut + 64 * k);
	return t;
}

static inline uint8x16_t lookup(const struct table *t, uint8x16_t i)
{
	const uint8x16_t c64 = vdupq_n_u8(64);
	uint8x16_t r = vqtbl4q_u8(t->q[0], i);

	i = vsubq_u8(i, c64);
	r = vqtbx4q_u8(r, t->q[1], i);
	i = vsubq_u8(i, c64);
	r = vqtbx4q_u8(r, t->q[2], i);
	i = vsubq_u8(i, c64);
	return vqtbx4q_u8(r, t->q[3], i);
}

static void lut4_neon(const uint8_t *src, uint8_t *dst, int n,
		      const uint8_t lut[4][256])
{
	int i = 0;

	if (n >= 64) {
		struct table t[4];

		for (int k = 0; k < 4; k++)
			t[k] = load_table(lut[k]);
		for (; i + 64 <= n; i += 64) {
			uint8x16x4_t v = vld4q_u8(src + i);

			for (int k = 0; k < 4; k++)
				v.val[k] = lookup(&t[k], v.val[k]);
			vst4q_u8(dst + i, v);
		}
	}
	v4lc_proc_lut4_c(src + i, dst + i, n - i, lut);
}

static void lut3_neon(const uint8_t *src, uint8_t *dst, int width,
		      const uint8_t lut[3][256])
{
	int j = 0;

	if (width >= 16) {
		struct table t[3];

		for (int c = 0; c < 3; c++)
			t[c] = load_table(lut[c]);
		for (; j + 16 <= width; j += 16) {
			uint8x16x3_t v = vld3q_u8(src + 3 * j);

			for (int c = 0; c < 3; c++)
				v.val[c] = lookup(&t[c], v.val[c]);
			vst3q_u8(dst + 3 * j, v);
		}
	}
	v4lc_proc_lut3_c(src + 3 * j, dst + 3 * j, width - j, lut);
}
#endif

void v4lc_proc_init_neon(struct v4lc_proc_dsp *dsp)
{
	dsp->sum4 = sum4_neon;
	dsp->sum3 = sum3_neon;
#ifdef __aarch64__
	dsp->lut4 = lut4_neon;
	dsp->lut3 = lut3_neon;
#endif
}
