/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "checkasm.h"

#include <linux/videodev2.h>

/*
 * Colour matrices: standard ones built by the library, then random sets
 * within the range pixel.h promises 16-bit lanes for: y_off 0..32,
 * yk < 20480 (Q14 < 1.25), chroma magnitudes and ug + vg below 20480
 * (Q13 < 2.5).
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
	{ V4L2_COLORSPACE_JPEG, 0, 0 },
};

static void matrices(struct v4lc_yuv2rgb *m)
{
	for (int i = 0; i < NSTD; i++)
		v4lc_yuv2rgb_init(&m[i], &std_cm[i]);
	for (int i = NSTD; i < NMAT; i++) {
		int ug = (int)(checkasm_rand() % 20480);

		m[i].y_off = (int16_t)(checkasm_rand() % 33);
		m[i].yk = (int16_t)(checkasm_rand() % 20480);
		m[i].vr = (int16_t)(checkasm_rand() % 20480);
		m[i].ub = (int16_t)(checkasm_rand() % 20480);
		m[i].ug = (int16_t)ug;
		m[i].vg = (int16_t)(checkasm_rand() % (unsigned)(20480 - ug));
	}
	/* The largest allowed set, so extremes of the lanes are reached. */
	m[NMAT - 1].y_off = 32;
	m[NMAT - 1].yk = 20479;
	m[NMAT - 1].vr = 20479;
	m[NMAT - 1].ub = 20479;
	m[NMAT - 1].ug = 10239;
	m[NMAT - 1].vg = 10240;
}

static const char *const order_name[V4LC_YUV422_ORDERS] = { "yuyv", "yvyu",
							    "uyvy", "vyuy" };
static const char *const rgb_name[V4LC_RGB_ORDERS] = { "rgb24", "bgr24" };

/* Bytes of a packed row: (width + 1) / 2 complete pixel pairs. */
static size_t row_bytes(int width)
{
	return (size_t)4 * (size_t)((width + 1) / 2);
}

static void check_rgb(int order, int rgb, const struct v4lc_yuv2rgb *mats)
{
	v4lc_yuv422_rgb_fn *ref = checkasm_ref->yuv422.to_rgb[order][rgb];
	v4lc_yuv422_rgb_fn *fn = checkasm_new->yuv422.to_rgb[order][rgb];

	if (!checkasm_func(fn, ref, "yuv422_%s_to_%s", order_name[order],
			   rgb_name[rgb]))
		return;
	for (int w = 0; w < checkasm_nwidths; w++) {
		int width = checkasm_widths[w];
		size_t in = row_bytes(width), size = (size_t)width * 3;
		uint8_t *src = checkasm_in_alloc(in);
		uint8_t *dref = checkasm_out_alloc(size, 0);
		uint8_t *dnew = checkasm_out_alloc(size, 0);

		for (int kind = 0; kind < CHECKASM_PATTERNS; kind++) {
			checkasm_pattern(src, in, kind);
			for (int m = 0; m < NMAT; m++) {
				ref(src, dref, width, &mats[m]);
				fn(src, dnew, width, &mats[m]);
				if (!checkasm_check_bytes(dref, dnew, size,
							  rgb_name[rgb], width))
					checkasm_fail(
						"  (pattern %d, matrix %d)",
						kind, m);
			}
		}
		checkasm_bench(width, width, ref(src, dref, width, mats),
			       fn(src, dnew, width, mats));
		checkasm_in_free(src);
		checkasm_out_free(dref);
		checkasm_out_free(dnew);
	}
	checkasm_report();
}

struct planes {
	uint8_t *y0, *y1, *u, *v;
};

static void planes_alloc(struct planes *p, int width)
{
	size_t cw = (size_t)(width + 1) / 2;

	p->y0 = checkasm_out_alloc((size_t)width, 0);
	p->y1 = checkasm_out_alloc((size_t)width, 0);
	p->u = checkasm_out_alloc(cw, 0);
	p->v = checkasm_out_alloc(cw, 0);
}

static void planes_free(struct planes *p)
{
	checkasm_out_free(p->y0);
	checkasm_out_free(p->y1);
	checkasm_out_free(p->u);
	checkasm_out_free(p->v);
}

static void check_yuv420(int order)
{
	v4lc_yuv422_420_fn *ref = checkasm_ref->yuv422.to_yuv420[order];
	v4lc_yuv422_420_fn *fn = checkasm_new->yuv422.to_yuv420[order];

	if (!checkasm_func(fn, ref, "yuv422_%s_to_yuv420", order_name[order]))
		return;
	for (int w = 0; w < checkasm_nwidths; w++) {
		int width = checkasm_widths[w];
		size_t in = row_bytes(width), cw = (size_t)(width + 1) / 2;
		uint8_t *s0 = checkasm_in_alloc(in);
		uint8_t *s1 = checkasm_in_alloc(in);
		struct planes r, n;

		planes_alloc(&r, width);
		planes_alloc(&n, width);
		for (int kind = 0; kind < CHECKASM_PATTERNS; kind++) {
			int ok = 1;

			checkasm_pattern(s0, in, kind);
			checkasm_pattern(s1, in,
					 (kind + 1 + (w & 1)) %
						 CHECKASM_PATTERNS);
			/* Two rows. */
			ref(s0, s1, r.y0, r.y1, r.u, r.v, width);
			fn(s0, s1, n.y0, n.y1, n.u, n.v, width);
			ok &= checkasm_check_bytes(r.y0, n.y0, (size_t)width,
						   "y0", width);
			ok &= checkasm_check_bytes(r.y1, n.y1, (size_t)width,
						   "y1", width);
			ok &= checkasm_check_bytes(r.u, n.u, cw, "u", width);
			ok &= checkasm_check_bytes(r.v, n.v, cw, "v", width);
			/* The odd last row: one source row, one luma row. */
			ref(s1, s1, r.y0, r.y0, r.u, r.v, width);
			fn(s1, s1, n.y0, n.y0, n.u, n.v, width);
			ok &= checkasm_check_bytes(r.y0, n.y0, (size_t)width,
						   "last y", width);
			ok &= checkasm_check_bytes(r.u, n.u, cw, "last u",
						   width);
			ok &= checkasm_check_bytes(r.v, n.v, cw, "last v",
						   width);
			ok &= checkasm_out_guard_ok(n.y1, (size_t)width);
			if (!ok)
				checkasm_fail("  (pattern %d)", kind);
		}
		checkasm_bench(width, 2 * width,
			       ref(s0, s1, r.y0, r.y1, r.u, r.v, width),
			       fn(s0, s1, n.y0, n.y1, n.u, n.v, width));
		checkasm_in_free(s0);
		checkasm_in_free(s1);
		planes_free(&r);
		planes_free(&n);
	}
	checkasm_report();
}

void checkasm_check_yuv422(void)
{
	struct v4lc_yuv2rgb mats[NMAT];

	matrices(mats);
	for (int order = 0; order < V4LC_YUV422_ORDERS; order++)
		for (int rgb = 0; rgb < V4LC_RGB_ORDERS; rgb++)
			check_rgb(order, rgb, mats);
	for (int order = 0; order < V4LC_YUV422_ORDERS; order++)
		check_yuv420(order);
}
