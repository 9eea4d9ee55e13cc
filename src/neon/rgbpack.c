/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * NEON packed 16/32-bit RGB rows to 24-bit RGB/BGR (aarch64 and armhf), 16
 * pixels a step; the row loops come from src/simd/rgbpack_rows.h.
 */
#include <arm_neon.h>

#include "scalar/rgbpack.h"

/* De-interleave 16 pixels and store bytes a, b, c of each. */
static inline __attribute__((always_inline)) void
pick_step(const uint8_t *src, uint8_t *dst, int p, int last)
{
	static const uint8_t sel[4][3] = {
		[V4LC_PICK012] = { 0, 1, 2 },
		[V4LC_PICK210] = { 2, 1, 0 },
		[V4LC_PICK123] = { 1, 2, 3 },
		[V4LC_PICK321] = { 3, 2, 1 },
	};
	uint8x16x4_t in = vld4q_u8(src);
	uint8x16x3_t out;

	(void)last;
	out.val[0] = in.val[sel[p][0]];
	out.val[1] = in.val[sel[p][1]];
	out.val[2] = in.val[sel[p][2]];
	vst3q_u8(dst, out);
}

/*
 * RGB565: vld2 splits the words into low bytes (G2..0 B4..0) and high
 * bytes (R4..0 G5..3). Bit replication is shift-right-and-insert, which
 * keeps the destination's top bits: R = vsri(hi, hi, 5); B = vsri(t, t, 5)
 * with t = lo << 3; G = vsri(t, t, 6) with t = vsri(hi << 5, lo, 3), the
 * six G bits at the top.
 */
static inline __attribute__((always_inline)) void
rgb565_step(const uint8_t *src, uint8_t *dst, int swap, int last)
{
	uint8x16x2_t in = vld2q_u8(src);
	uint8x16_t lo = in.val[0], hi = in.val[1], t;
	uint8x16x3_t out;

	(void)last;
	t = vshlq_n_u8(lo, 3);
	out.val[swap ? 0 : 2] = vsriq_n_u8(t, t, 5);
	t = vsriq_n_u8(vshlq_n_u8(hi, 5), lo, 3);
	out.val[1] = vsriq_n_u8(t, t, 6);
	out.val[swap ? 2 : 0] = vsriq_n_u8(hi, hi, 5);
	vst3q_u8(dst, out);
}

#define RGBPACK_STEP 16

#include "simd/rgbpack_rows.h"

RGBPACK_PICK(pick012_neon, V4LC_PICK012, v4lc_rgbpack_pick012_c)
RGBPACK_PICK(pick210_neon, V4LC_PICK210, v4lc_rgbpack_pick210_c)
RGBPACK_PICK(pick123_neon, V4LC_PICK123, v4lc_rgbpack_pick123_c)
RGBPACK_PICK(pick321_neon, V4LC_PICK321, v4lc_rgbpack_pick321_c)
RGBPACK_565(rgb565_rgb_neon, 0, v4lc_rgbpack_rgb565_rgb_c)
RGBPACK_565(rgb565_bgr_neon, 1, v4lc_rgbpack_rgb565_bgr_c)

void v4lc_rgbpack_init_neon(struct v4lc_rgbpack_dsp *dsp)
{
	dsp->rgb565[V4LC_RGB24] = rgb565_rgb_neon;
	dsp->rgb565[V4LC_BGR24] = rgb565_bgr_neon;
	dsp->rgb32[V4LC_BGRX32][V4LC_RGB24] = pick210_neon;
	dsp->rgb32[V4LC_BGRX32][V4LC_BGR24] = pick012_neon;
	dsp->rgb32[V4LC_XRGB32][V4LC_RGB24] = pick123_neon;
	dsp->rgb32[V4LC_XRGB32][V4LC_BGR24] = pick321_neon;
	dsp->rgb32[V4LC_XBGR32][V4LC_RGB24] = pick321_neon;
	dsp->rgb32[V4LC_XBGR32][V4LC_BGR24] = pick123_neon;
	dsp->rgb32[V4LC_RGBX32][V4LC_RGB24] = pick012_neon;
	dsp->rgb32[V4LC_RGBX32][V4LC_BGR24] = pick210_neon;
}
