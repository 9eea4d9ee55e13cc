/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "checkasm.h"

#include <linux/videodev2.h>

/*
 * Matrices: the standard ones the library builds, then random sets. Chroma
 * sums are taken modulo 2^16 by the specification, so any chroma
 * coefficients are fair game; the luma sum is not modular, so random luma
 * weights keep 255/256 * (yr + yg + yb) + 256 * y_off + 128 below 65536.
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

static void matrices(struct v4lc_rgb2yuv *m)
{
	for (int i = 0; i < NSTD; i++)
		v4lc_rgb2yuv_init(&m[i], &std_cm[i]);
	for (int i = NSTD; i < NMAT; i++) {
		/* y_off 0..32; luma weights summing to at most `budget` */
		unsigned y_off = checkasm_rand() % 33;
		unsigned budget = 65535u - 256u * y_off - 256u;
		unsigned yr = checkasm_rand() % (budget + 1);
		unsigned yg = checkasm_rand() % (budget - yr + 1);
		unsigned yb = checkasm_rand() % (budget - yr - yg + 1);

		m[i].y_off = (uint16_t)y_off;
		m[i].yr = (uint16_t)yr;
		m[i].yg = (uint16_t)yg;
		m[i].yb = (uint16_t)yb;
		m[i].ur = (uint16_t)checkasm_rand();
		m[i].ug = (uint16_t)checkasm_rand();
		m[i].ub = (uint16_t)checkasm_rand();
		m[i].vr = (uint16_t)checkasm_rand();
		m[i].vg = (uint16_t)checkasm_rand();
		m[i].vb = (uint16_t)checkasm_rand();
	}
}

static const char *const order_name[V4LC_RGB_ORDERS] = { "rgb24", "bgr24" };

struct bufs {
	uint8_t *y0, *y1, *u, *v;
};

static void bufs_alloc(struct bufs *b, size_t w, size_t cw)
{
	b->y0 = checkasm_out_alloc(w, 0x3c);
	b->y1 = checkasm_out_alloc(w, 0x3c);
	b->u = checkasm_out_alloc(cw, 0x3c);
	b->v = checkasm_out_alloc(cw, 0x3c);
}

static void bufs_free(struct bufs *b)
{
	checkasm_out_free(b->y0);
	checkasm_out_free(b->y1);
	checkasm_out_free(b->u);
	checkasm_out_free(b->v);
}

static int compare(const struct bufs *r, const struct bufs *n, size_t w,
		   size_t cw, int width)
{
	int ok = 1;

	ok &= checkasm_check_bytes(r->y0, n->y0, w, "y0", width);
	/* After a single-row call y1 must be untouched (contents, guard). */
	ok &= checkasm_check_bytes(r->y1, n->y1, w, "y1", width);
	ok &= checkasm_check_bytes(r->u, n->u, cw, "u", width);
	ok &= checkasm_check_bytes(r->v, n->v, cw, "v", width);
	return ok;
}

static void check_order(int order, const struct v4lc_rgb2yuv *mats)
{
	v4lc_rgb2yuv_fn *ref = checkasm_ref->rgb2yuv.to_yuv420[order];
	v4lc_rgb2yuv_fn *fn = checkasm_new->rgb2yuv.to_yuv420[order];

	if (!checkasm_func(fn, ref, "rgb2yuv_%s_to_yuv420", order_name[order]))
		return;

	for (int w = 0; w < checkasm_nwidths; w++) {
		int width = checkasm_widths[w];
		size_t sw = (size_t)width * 3, yw = (size_t)width;
		size_t cw = (size_t)(width + 1) / 2;
		uint8_t *s0 = checkasm_in_alloc(sw);
		uint8_t *s1 = checkasm_in_alloc(sw);
		struct bufs r, n;

		bufs_alloc(&r, yw, cw);
		bufs_alloc(&n, yw, cw);
		for (int kind = 0; kind < CHECKASM_PATTERNS; kind++) {
			/* The two rows get different patterns to mix extremes. */
			int kind1 = (kind + 1 + (w % 3)) % CHECKASM_PATTERNS;

			checkasm_pattern(s0, sw, kind);
			checkasm_pattern(s1, sw, kind1);
			for (int m = 0; m < NMAT; m++) {
				const struct v4lc_rgb2yuv *k = &mats[m];

				/* Two rows. */
				ref(s0, s1, r.y0, r.y1, r.u, r.v, width, k);
				fn(s0, s1, n.y0, n.y1, n.u, n.v, width, k);
				if (!compare(&r, &n, yw, cw, width))
					checkasm_fail(
						"  (two rows, pattern %d/%d, matrix %d)",
						kind, kind1, m);

				/* Odd last row: src1 == src0, y1 == y0. */
				ref(s1, s1, r.y0, r.y0, r.u, r.v, width, k);
				fn(s1, s1, n.y0, n.y0, n.u, n.v, width, k);
				if (!compare(&r, &n, yw, cw, width))
					checkasm_fail(
						"  (last row, pattern %d, matrix %d)",
						kind1, m);
			}
		}
		checkasm_bench(width, 2 * width,
			       ref(s0, s1, r.y0, r.y1, r.u, r.v, width, mats),
			       fn(s0, s1, n.y0, n.y1, n.u, n.v, width, mats));
		checkasm_in_free(s0);
		checkasm_in_free(s1);
		bufs_free(&r);
		bufs_free(&n);
	}
	checkasm_report();
}

void checkasm_check_rgb2yuv(void)
{
	struct v4lc_rgb2yuv mats[NMAT];

	matrices(mats);
	for (int order = 0; order < V4LC_RGB_ORDERS; order++)
		check_order(order, mats);
}
