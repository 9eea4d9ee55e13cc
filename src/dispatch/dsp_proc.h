/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * proc: the image-processing kernels (white balance, gamma, auto gain):
 * a statistics pass and lookup-table application (part of dispatch/dsp.h).
 *
 * sum4(src, n, sum): sum[k] = the sum of src[i] over 0 <= i < n with
 *   i % 4 == k (overwritten, not accumulated). One kernel serves 8-bit Bayer
 *   rows (even columns: sum[0] + sum[2], odd: sum[1] + sum[3]), packed 4:2:2
 *   rows (YUYV: Y = sum[0] + sum[2], U = sum[1], V = sum[3]) and planes
 *   (all four). n < 2^24 (so that no sum overflows).
 * sum3(src, width, sum): sum[c] = the sum of channel c of `width` 24-bit
 *   pixels (overwritten). width < 2^24.
 * lut4(src, dst, n, lut): dst[i] = lut[i % 4][src[i]] for 0 <= i < n; src
 *   and dst may be the same buffer (in place), not otherwise overlap.
 * lut3(src, dst, width, lut): dst[3j + c] = lut[c][src[3j + c]] for `width`
 *   24-bit pixels; in place allowed as for lut4.
 */
#ifndef V4LC_DISPATCH_DSP_PROC_H
#define V4LC_DISPATCH_DSP_PROC_H

#include <stdint.h>

typedef void v4lc_proc_sum4_fn(const uint8_t *src, int n, uint32_t sum[4]);
typedef void v4lc_proc_sum3_fn(const uint8_t *src, int width, uint32_t sum[3]);
typedef void v4lc_proc_lut4_fn(const uint8_t *src, uint8_t *dst, int n,
			       const uint8_t lut[4][256]);
typedef void v4lc_proc_lut3_fn(const uint8_t *src, uint8_t *dst, int width,
			       const uint8_t lut[3][256]);

struct v4lc_proc_dsp {
	v4lc_proc_sum4_fn *sum4;
	v4lc_proc_sum3_fn *sum3;
	v4lc_proc_lut4_fn *lut4;
	v4lc_proc_lut3_fn *lut3;
};

#endif
