/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "checkasm.h"

#include <linux/videodev2.h>

/* n chroma samples per call: a width checks n = width. */
static void check_split(void)
{
	if (!checkasm_func(checkasm_new->yuvlayout.deinterleave,
			   checkasm_ref->yuvlayout.deinterleave,
			   "yuvlayout_deinterleave"))
		return;
	for (int w = 0; w < checkasm_nwidths; w++) {
		int n = checkasm_widths[w];
		uint8_t *uv = checkasm_in_alloc(2 * (size_t)n);
		uint8_t *ra = checkasm_out_alloc((size_t)n, 0);
		uint8_t *rb = checkasm_out_alloc((size_t)n, 0);
		uint8_t *na = checkasm_out_alloc((size_t)n, 0);
		uint8_t *nb = checkasm_out_alloc((size_t)n, 0);

		for (int kind = 0; kind < CHECKASM_PATTERNS; kind++) {
			checkasm_pattern(uv, 2 * (size_t)n, kind);
			checkasm_ref->yuvlayout.deinterleave(uv, ra, rb, n);
			checkasm_new->yuvlayout.deinterleave(uv, na, nb, n);
			checkasm_check_bytes(ra, na, (size_t)n, "a", n);
			checkasm_check_bytes(rb, nb, (size_t)n, "b", n);
		}
		checkasm_bench(n, n,
			       checkasm_ref->yuvlayout.deinterleave(uv, ra, rb,
								    n),
			       checkasm_new->yuvlayout.deinterleave(uv, na, nb,
								    n));
		checkasm_in_free(uv);
		checkasm_out_free(ra);
		checkasm_out_free(rb);
		checkasm_out_free(na);
		checkasm_out_free(nb);
	}
	checkasm_report();
}

static void check_split_avg(int nv24)
{
	v4lc_uv_split_avg_fn *ref =
		nv24 ? checkasm_ref->yuvlayout.nv24_to_yuv420
		     : checkasm_ref->yuvlayout.deinterleave_avg;
	v4lc_uv_split_avg_fn *fn =
		nv24 ? checkasm_new->yuvlayout.nv24_to_yuv420
		     : checkasm_new->yuvlayout.deinterleave_avg;

	if (!checkasm_func(fn, ref,
			   nv24 ? "yuvlayout_nv24_to_yuv420"
				: "yuvlayout_deinterleave_avg"))
		return;
	for (int w = 0; w < checkasm_nwidths; w++) {
		int n = checkasm_widths[w];
		/* nv24: n pixels in, (n + 1) / 2 samples out */
		size_t in = 2 * (size_t)n,
		       out = nv24 ? (size_t)(n + 1) / 2 : (size_t)n;
		uint8_t *uv0 = checkasm_in_alloc(in);
		uint8_t *uv1 = checkasm_in_alloc(in);
		uint8_t *ra = checkasm_out_alloc(out, 0);
		uint8_t *rb = checkasm_out_alloc(out, 0);
		uint8_t *na = checkasm_out_alloc(out, 0);
		uint8_t *nb = checkasm_out_alloc(out, 0);

		for (int kind = 0; kind < CHECKASM_PATTERNS; kind++) {
			checkasm_pattern(uv0, in, kind);
			checkasm_pattern(uv1, in,
					 (kind + 1) % CHECKASM_PATTERNS);
			for (int same = 0; same < 2; same++) {
				const uint8_t *s1 = same ? uv0 : uv1;

				ref(uv0, s1, ra, rb, n);
				fn(uv0, s1, na, nb, n);
				checkasm_check_bytes(ra, na, out, "a", n);
				checkasm_check_bytes(rb, nb, out, "b", n);
			}
		}
		checkasm_bench(n, n, ref(uv0, uv1, ra, rb, n),
			       fn(uv0, uv1, na, nb, n));
		checkasm_in_free(uv0);
		checkasm_in_free(uv1);
		checkasm_out_free(ra);
		checkasm_out_free(rb);
		checkasm_out_free(na);
		checkasm_out_free(nb);
	}
	checkasm_report();
}

static void check_avg(void)
{
	if (!checkasm_func(checkasm_new->yuvlayout.avg,
			   checkasm_ref->yuvlayout.avg, "yuvlayout_avg"))
		return;
	for (int w = 0; w < checkasm_nwidths; w++) {
		int n = checkasm_widths[w];
		uint8_t *p0 = checkasm_in_alloc((size_t)n);
		uint8_t *p1 = checkasm_in_alloc((size_t)n);
		uint8_t *r = checkasm_out_alloc((size_t)n, 0);
		uint8_t *o = checkasm_out_alloc((size_t)n, 0);

		for (int kind = 0; kind < CHECKASM_PATTERNS; kind++) {
			checkasm_pattern(p0, (size_t)n, kind);
			checkasm_pattern(p1, (size_t)n,
					 (kind + 3) % CHECKASM_PATTERNS);
			checkasm_ref->yuvlayout.avg(p0, p1, r, n);
			checkasm_new->yuvlayout.avg(p0, p1, o, n);
			checkasm_check_bytes(r, o, (size_t)n, "avg", n);
		}
		checkasm_bench(n, n, checkasm_ref->yuvlayout.avg(p0, p1, r, n),
			       checkasm_new->yuvlayout.avg(p0, p1, o, n));
		checkasm_in_free(p0);
		checkasm_in_free(p1);
		checkasm_out_free(r);
		checkasm_out_free(o);
	}
	checkasm_report();
}

static const struct v4lc_colorimetry cms[3] = {
	{ V4L2_COLORSPACE_SMPTE170M, V4L2_YCBCR_ENC_601,
	  V4L2_QUANTIZATION_LIM_RANGE },
	{ V4L2_COLORSPACE_REC709, V4L2_YCBCR_ENC_709,
	  V4L2_QUANTIZATION_FULL_RANGE },
	{ V4L2_COLORSPACE_BT2020, V4L2_YCBCR_ENC_BT2020,
	  V4L2_QUANTIZATION_LIM_RANGE },
};

static void check_nv24(int swap, int order)
{
	v4lc_semiplanar_rgb_fn *ref =
		swap ? checkasm_ref->yuvlayout.nv42[order]
		     : checkasm_ref->yuvlayout.nv24[order];
	v4lc_semiplanar_rgb_fn *fn = swap ? checkasm_new->yuvlayout.nv42[order]
					  : checkasm_new->yuvlayout.nv24[order];

	if (!checkasm_func(fn, ref, "yuvlayout_%s_to_%s",
			   swap ? "nv42" : "nv24", order ? "bgr24" : "rgb24"))
		return;
	for (int w = 0; w < checkasm_nwidths; w++) {
		int n = checkasm_widths[w];
		size_t size = 3 * (size_t)n;
		uint8_t *y = checkasm_in_alloc((size_t)n);
		uint8_t *uv = checkasm_in_alloc(2 * (size_t)n);
		uint8_t *r = checkasm_out_alloc(size, 0);
		uint8_t *o = checkasm_out_alloc(size, 0);

		for (int kind = 0; kind < CHECKASM_PATTERNS; kind++)
			for (int m = 0; m < 3; m++) {
				struct v4lc_yuv2rgb k;

				v4lc_yuv2rgb_init(&k, &cms[m]);
				checkasm_pattern(y, (size_t)n, kind);
				checkasm_pattern(uv, 2 * (size_t)n,
						 (kind + m) %
							 CHECKASM_PATTERNS);
				ref(y, uv, r, n, &k);
				fn(y, uv, o, n, &k);
				checkasm_check_bytes(r, o, size, "rgb", n);
			}
		{
			struct v4lc_yuv2rgb k;

			v4lc_yuv2rgb_init(&k, &cms[0]);
			checkasm_bench(n, n, ref(y, uv, r, n, &k),
				       fn(y, uv, o, n, &k));
		}
		checkasm_in_free(y);
		checkasm_in_free(uv);
		checkasm_out_free(r);
		checkasm_out_free(o);
	}
	checkasm_report();
}

void checkasm_check_yuvlayout(void)
{
	check_split();
	check_split_avg(0);
	check_avg();
	check_split_avg(1);
	for (int swap = 0; swap < 2; swap++)
		for (int order = 0; order < V4LC_RGB_ORDERS; order++)
			check_nv24(swap, order);
}
