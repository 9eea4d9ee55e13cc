/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "checkasm.h"

#include <linux/videodev2.h>

/*
 * Colour matrices: the standard ones the library builds, then random sets
 * whose intermediates still fit 16-bit lanes (the range pixel.h promises):
 * y_off 0..32, yk < 20480 (Q14 < 1.25), chroma magnitudes and ug + vg
 * below 20480 (Q13 < 2.5).
 */
#define NSTD 4
#define NRAND 4
#define NMAT (NSTD + NRAND)

static const struct v4lc_colorimetry std_cm[NSTD] = {
	{ V4L2_COLORSPACE_SMPTE170M, V4L2_YCBCR_ENC_601,
	  V4L2_QUANTIZATION_LIM_RANGE },
	{ V4L2_COLORSPACE_REC709, V4L2_YCBCR_ENC_709,
	  V4L2_QUANTIZATION_FULL_RANGE },
	{ V4L2_COLORSPACE_BT2020, V4L2_YCBCR_ENC_BT2020,
	  V4L2_QUANTIZATION_LIM_RANGE },
	{ V4L2_COLORSPACE_JPEG, 0, 0 }, /* 601 full range */
};

static void matrices(struct v4lc_yuv2rgb *m)
{
	for (int i = 0; i < NSTD; i++)
		v4lc_yuv2rgb_init(&m[i], &std_cm[i]);
	for (int i = NSTD; i < NMAT; i++) {
		int ug = checkasm_rand() % 20480;

		m[i].y_off = (int16_t)(checkasm_rand() % 33);
		m[i].yk = (int16_t)(checkasm_rand() % 20480);
		m[i].vr = (int16_t)(checkasm_rand() % 20480);
		m[i].ub = (int16_t)(checkasm_rand() % 20480);
		m[i].ug = (int16_t)ug;
		m[i].vg = (int16_t)(checkasm_rand() % (20480 - ug));
	}
}

static const char *const order_name[V4LC_RGB_ORDERS] = { "rgb24", "bgr24" };

/* layout 0: planar, 1: nv12, 2: nv21 */
static void check_one(int layout, int order, const struct v4lc_yuv2rgb *mats)
{
	static const char *const layout_name[] = { "planar", "nv12", "nv21" };
	v4lc_planar_rgb_fn *pref = checkasm_ref->yuv420.planar[order];
	v4lc_planar_rgb_fn *pnew = checkasm_new->yuv420.planar[order];
	v4lc_semiplanar_rgb_fn *sref = NULL, *snew = NULL;
	int tested;

	if (layout == 1) {
		sref = checkasm_ref->yuv420.nv12[order];
		snew = checkasm_new->yuv420.nv12[order];
	} else if (layout == 2) {
		sref = checkasm_ref->yuv420.nv21[order];
		snew = checkasm_new->yuv420.nv21[order];
	}
	if (layout == 0)
		tested = checkasm_func(pnew, pref, "yuv420_%s_to_%s",
				       layout_name[layout], order_name[order]);
	else
		tested = checkasm_func(snew, sref, "yuv420_%s_to_%s",
				       layout_name[layout], order_name[order]);
	if (!tested)
		return;

	for (int w = 0; w < checkasm_nwidths; w++) {
		int width = checkasm_widths[w];
		size_t cw = (size_t)(width + 1) / 2; /* chroma samples */
		size_t size = (size_t)width * 3;
		uint8_t *y = checkasm_in_alloc((size_t)width);
		uint8_t *u = checkasm_in_alloc(cw);
		uint8_t *v = checkasm_in_alloc(cw);
		uint8_t *uv = checkasm_in_alloc(2 * cw);
		uint8_t *dref = checkasm_out_alloc(size, 0);
		uint8_t *dnew = checkasm_out_alloc(size, 0);

		for (int kind = 0; kind < CHECKASM_PATTERNS; kind++) {
			/* Luma and chroma patterns differ, to mix extremes. */
			int ckind = (kind + 3 * (w & 1)) % CHECKASM_PATTERNS;

			checkasm_pattern(y, (size_t)width, kind);
			checkasm_pattern(u, cw, ckind);
			checkasm_pattern(v, cw,
					 (ckind + 1) % CHECKASM_PATTERNS);
			checkasm_pattern(uv, 2 * cw, ckind);
			for (int m = 0; m < NMAT; m++) {
				const struct v4lc_yuv2rgb *k = &mats[m];

				if (layout == 0) {
					pref(y, u, v, dref, width, k);
					pnew(y, u, v, dnew, width, k);
				} else {
					sref(y, uv, dref, width, k);
					snew(y, uv, dnew, width, k);
				}
				if (!checkasm_check_bytes(dref, dnew, size,
							  order_name[order],
							  width))
					checkasm_fail(
						"  (pattern %d, matrix %d)",
						kind, m);
			}
		}
		if (layout == 0)
			checkasm_bench(width, width,
				       pref(y, u, v, dref, width, mats),
				       pnew(y, u, v, dnew, width, mats));
		else
			checkasm_bench(width, width,
				       sref(y, uv, dref, width, mats),
				       snew(y, uv, dnew, width, mats));
		checkasm_in_free(y);
		checkasm_in_free(u);
		checkasm_in_free(v);
		checkasm_in_free(uv);
		checkasm_out_free(dref);
		checkasm_out_free(dnew);
	}
	checkasm_report();
}

void checkasm_check_yuv420(void)
{
	struct v4lc_yuv2rgb mats[NMAT];

	matrices(mats);
	for (int layout = 0; layout < 3; layout++)
		for (int order = 0; order < V4LC_RGB_ORDERS; order++)
			check_one(layout, order, mats);
}
