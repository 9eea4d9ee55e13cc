/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * NEON Bayer kernels, bit-exact with src/scalar/bayer.c (aarch64 and armhf).
 *
 * Demosaic: 16 pixels a step; every lane computes both its C-site and
 * G-site values and vbsl picks by column parity (even columns are the low
 * bytes of 16-bit lanes). Means of two are vrhadd; the mean of four is
 * vrhadd(p, q) of the two pair means minus the exact parity correction
 * explained in src/sse2/bayer.c. vst3q interleaves the three channels.
 *
 * unpack10p: the high bytes of 5-byte groups are gathered with vtbl2 (it
 * exists on both ISAs).
 */
#include <arm_neon.h>
#include <stddef.h>

#include "dispatch/dsp.h"

v4lc_row_copy_fn v4lc_bayer_unpack10p_c;
void v4lc_bayer_span_c(const uint8_t *a, const uint8_t *c, const uint8_t *b,
		       uint8_t *dst, int w, int x0, int x1, int kind);
void v4lc_bayer_fill_table(struct v4lc_bayer_dsp *dsp,
			   v4lc_bayer_row_fn *const kinds[4]);

static inline uint8x16_t avg4(uint8x16_t a, uint8x16_t b, uint8x16_t c,
			      uint8x16_t d, uint8x16_t p, uint8x16_t q)
{
	uint8x16_t odd = vorrq_u8(veorq_u8(a, b), veorq_u8(c, d));
	uint8x16_t corr = vandq_u8(vandq_u8(odd, veorq_u8(p, q)), vdupq_n_u8(1));

	return vsubq_u8(vrhaddq_u8(p, q), corr);
}

static inline __attribute__((always_inline)) void
step16(const uint8_t *a, const uint8_t *c, const uint8_t *b, uint8_t *d,
       int cfirst, int ownfirst)
{
	const uint8x16_t even = vreinterpretq_u8_u16(vdupq_n_u16(0x00ff));
	uint8x16_t cl = vld1q_u8(c - 1), cc = vld1q_u8(c), cr = vld1q_u8(c + 1);
	uint8x16_t al = vld1q_u8(a - 1), ac = vld1q_u8(a), ar = vld1q_u8(a + 1);
	uint8x16_t bl = vld1q_u8(b - 1), bc = vld1q_u8(b), br = vld1q_u8(b + 1);
	uint8x16_t h2 = vrhaddq_u8(cl, cr), v2 = vrhaddq_u8(ac, bc);
	uint8x16_t cross = avg4(cl, cr, ac, bc, h2, v2);
	uint8x16_t diag = avg4(al, ar, bl, br, vrhaddq_u8(al, ar),
			       vrhaddq_u8(bl, br));
	uint8x16_t own, oth;
	uint8x16x3_t out;

	if (cfirst) {
		own = vbslq_u8(even, cc, h2);
		out.val[1] = vbslq_u8(even, cross, cc);
		oth = vbslq_u8(even, diag, v2);
	} else {
		own = vbslq_u8(even, h2, cc);
		out.val[1] = vbslq_u8(even, cc, cross);
		oth = vbslq_u8(even, v2, diag);
	}
	out.val[0] = ownfirst ? own : oth;
	out.val[2] = ownfirst ? oth : own;
	vst3q_u8(d, out);
}

/* As the SSE2 row: scalar edges, 16-pixel steps, one overlapped step. */
static inline __attribute__((always_inline)) void
row(const uint8_t *a, const uint8_t *c, const uint8_t *b, uint8_t *d, int w,
    int cfirst, int ownfirst)
{
	int kind = 2 * cfirst + ownfirst, x = 2;

	if (w < 19) {
		v4lc_bayer_span_c(a, c, b, d, w, 0, w, kind);
		return;
	}
	v4lc_bayer_span_c(a, c, b, d, w, 0, 2, kind);
	for (; x <= w - 17; x += 16)
		step16(a + x, c + x, b + x, d + 3 * x, cfirst, ownfirst);
	if (w - x > 2) {
		x = (w - 17) & ~1;
		step16(a + x, c + x, b + x, d + 3 * x, cfirst, ownfirst);
		x += 16;
	}
	v4lc_bayer_span_c(a, c, b, d, w, x, w, kind);
}

#define KERNEL(name, cfirst, ownfirst)                                       \
	static void name##_neon(const uint8_t *a, const uint8_t *c,          \
				const uint8_t *b, uint8_t *d, int w)         \
	{                                                                    \
		row(a, c, b, d, w, cfirst, ownfirst);                        \
	}
KERNEL(gb, 0, 0)
KERNEL(gr, 0, 1)
KERNEL(bg, 1, 0)
KERNEL(rg, 1, 1)
#undef KERNEL

/*
 * 16 pixels (four groups, 20 bytes) a step: groups 0, 1 from bytes 0..15,
 * groups 2, 3 from bytes 10..25 with the same table, so a step reads 26
 * bytes and runs while they exist in the row.
 */
static void unpack10p_neon(const uint8_t *src, uint8_t *dst, int width)
{
	static const uint8_t idx[8] = { 0, 1, 2, 3, 5, 6, 7, 8 };
	const uint8x8_t t = vld1_u8(idx);
	long n = ((long)width * 5 + 3) / 4;
	int x = 0;

	for (; x + 16 <= width && (long)x / 4 * 5 + 26 <= n; x += 16) {
		const uint8_t *s = src + x / 4 * 5;
		uint8x8x2_t lo = { { vld1_u8(s), vld1_u8(s + 8) } };
		uint8x8x2_t hi = { { vld1_u8(s + 10), vld1_u8(s + 18) } };

		vst1_u8(dst + x, vtbl2_u8(lo, t));
		vst1_u8(dst + x + 8, vtbl2_u8(hi, t));
	}
	if (x < width)
		v4lc_bayer_unpack10p_c(src + x / 4 * 5, dst + x, width - x);
}

void v4lc_bayer_init_neon(struct v4lc_bayer_dsp *dsp)
{
	static v4lc_bayer_row_fn *const kinds[4] = { gb_neon, gr_neon, bg_neon,
						     rg_neon };

	v4lc_bayer_fill_table(dsp, kinds);
	/* No fused Bayer -> YUV420 here: the two-pass rows with this tier's
	 * demosaic and rgb2yuv kernels beat the scalar fused kernel. */
	for (int o = 0; o < V4LC_BAYER_ORDERS; o++)
		dsp->to_yuv420[o] = NULL;
	dsp->unpack10p = unpack10p_neon;
}
