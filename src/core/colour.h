/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Fixed-point colour matrices derived from V4L2 colorimetry.
 *
 * The constants are chosen so that SIMD kernels can use 16-bit lanes
 * (pmulhw/pmulhuw on x86, vqdmulh-free widening multiplies on NEON) and still
 * be bit-exact with the scalar formulas in src/scalar/pixel.h, while staying
 * within one level of the exact double-precision conversion.
 */
#ifndef V4LC_CORE_COLOUR_H
#define V4LC_CORE_COLOUR_H

#include <stdint.h>

/*
 * YUV -> RGB. With Y' = Y - y_off, U' = U - 128, V' = V - 128:
 *   R = Y'*yk + V'*vr,  G = Y'*yk - U'*ug - V'*vg,  B = Y'*yk + U'*ub
 * yk is Q14, the chroma coefficients are Q13 magnitudes (all < 4.0).
 */
struct v4lc_yuv2rgb {
	int16_t y_off;
	int16_t yk;
	int16_t vr, ug, vg, ub;
};

/*
 * RGB -> YUV, Q16 magnitudes (unsigned lanes):
 *   Y = y_off + yr*R + yg*G + yb*B
 *   U = 128 + ub*B - ur*R - ug*G
 *   V = 128 + vr*R - vg*G - vb*B
 * ub and vr are capped at 32767 so the unsigned sums cannot wrap.
 */
struct v4lc_rgb2yuv {
	uint16_t y_off;
	uint16_t yr, yg, yb;
	uint16_t ur, ug, ub;
	uint16_t vr, vg, vb;
};

/* The two fields of struct v4l2_pix_format that decide the matrix. */
struct v4lc_colorimetry {
	uint32_t colorspace;   /* enum v4l2_colorspace */
	uint32_t ycbcr_enc;    /* enum v4l2_ycbcr_encoding, 0 = default */
	uint32_t quantization; /* enum v4l2_quantization, 0 = default */
};

/* Luma weights (Kr, Kb) and range after V4L2's defaulting rules. */
void v4lc_colorimetry_resolve(const struct v4lc_colorimetry *c, double *kr,
			      double *kb, int *full_range);

void v4lc_yuv2rgb_init(struct v4lc_yuv2rgb *k,
		       const struct v4lc_colorimetry *c);
/* Exported by libv4lconvert.so to the project's other libraries. */
__attribute__((visibility("default"))) void
v4lc_rgb2yuv_init(struct v4lc_rgb2yuv *k, const struct v4lc_colorimetry *c);

#endif
