/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "checkasm.h"

#include <linux/videodev2.h>

#include "scalar/bayer.h"

static const char *const order_names[V4LC_BAYER_ORDERS] = { "bggr", "gbrg",
							    "grbg", "rggb" };

/*
 * Every demosaic pointer, every width, every pattern; the three input rows
 * come from independent buffers that end exactly at the row end, with
 * different patterns in each row so that swapped rows show.
 */
static void check_demosaic(void)
{
	for (int o = 0; o < V4LC_BAYER_ORDERS; o++)
		for (int p = 0; p < 2; p++)
			for (int ro = 0; ro < V4LC_RGB_ORDERS; ro++) {
				v4lc_bayer_row_fn *fn =
					checkasm_new->bayer.demosaic[o][p][ro];
				v4lc_bayer_row_fn *ref_fn =
					checkasm_ref->bayer.demosaic[o][p][ro];

				if (!checkasm_func(fn, ref_fn,
						   "bayer_demosaic_%s_%d_%s",
						   order_names[o], p,
						   ro ? "bgr" : "rgb"))
					continue;
				for (int w = 0; w < checkasm_nwidths; w++) {
					int width = checkasm_widths[w];
					size_t size = (size_t)width * 3;
					uint8_t *a = checkasm_in_alloc(
						(size_t)width);
					uint8_t *c = checkasm_in_alloc(
						(size_t)width);
					uint8_t *b = checkasm_in_alloc(
						(size_t)width);
					uint8_t *ref =
						checkasm_out_alloc(size, 0x5a);
					uint8_t *out =
						checkasm_out_alloc(size, 0x5a);
					int ok = 1;

					for (int kind = 0;
					     kind < CHECKASM_PATTERNS * 3 && ok;
					     kind++) {
						checkasm_pattern(
							a, (size_t)width,
							kind % CHECKASM_PATTERNS);
						checkasm_pattern(
							c, (size_t)width,
							(kind / 3 + kind) %
								CHECKASM_PATTERNS);
						checkasm_pattern(
							b, (size_t)width,
							(kind * 5 +
							 1) % CHECKASM_PATTERNS);
						ref_fn(a, c, b, ref, width);
						fn(a, c, b, out, width);
						ok = checkasm_check_bytes(
							ref, out, size, "rgb",
							width);
					}
					checkasm_bench(width, width,
						       ref_fn(a, c, b, ref,
							      width),
						       fn(a, c, b, out, width));
					checkasm_in_free(a);
					checkasm_in_free(c);
					checkasm_in_free(b);
					checkasm_out_free(ref);
					checkasm_out_free(out);
				}
				checkasm_report();
			}
}

static void check_unpack10p(void)
{
	if (!checkasm_func(checkasm_new->bayer.unpack10p,
			   checkasm_ref->bayer.unpack10p, "bayer_unpack10p"))
		return;
	for (int w = 0; w < checkasm_nwidths; w++) {
		int width = checkasm_widths[w];
		size_t in_size = ((size_t)width * 5 + 3) / 4;
		uint8_t *src = checkasm_in_alloc(in_size);
		uint8_t *ref = checkasm_out_alloc((size_t)width, 0x5a);
		uint8_t *out = checkasm_out_alloc((size_t)width, 0x5a);

		for (int kind = 0; kind < CHECKASM_PATTERNS; kind++) {
			checkasm_pattern(src, in_size, kind);
			checkasm_ref->bayer.unpack10p(src, ref, width);
			checkasm_new->bayer.unpack10p(src, out, width);
			if (!checkasm_check_bytes(ref, out, (size_t)width,
						  "grey8", width))
				break;
		}
		checkasm_bench(width, width,
			       checkasm_ref->bayer.unpack10p(src, ref, width),
			       checkasm_new->bayer.unpack10p(src, out, width));
		checkasm_in_free(src);
		checkasm_out_free(ref);
		checkasm_out_free(out);
	}
	checkasm_report();
}

/*
 * Fused Bayer -> YUV420: both the scalar fused kernels (the specification
 * restated; the scalar tier itself runs the two passes) and the tier's are
 * compared with the composition of the scalar
 * demosaic rows [order][0] and [order][1] and the scalar rgb2yuv kernel,
 * for four independent input rows (edges mirrored by the kernels), every
 * width, several matrices (standard ones and random weights).
 */
static void check_yuv420_one(v4lc_bayer_yuv_fn *fn, int o,
			     const struct v4lc_rgb2yuv *mats, int nmat)
{
	for (int wi = 0; wi < checkasm_nwidths; wi++) {
		int width = checkasm_widths[wi], cw = (width + 1) / 2, ok = 1;
		uint8_t *in[4],
			*rgb0 = checkasm_out_alloc((size_t)width * 3, 0);
		uint8_t *rgb1 = checkasm_out_alloc((size_t)width * 3, 0);
		uint8_t *ref[4], *out[4];
		size_t sz[4] = { (size_t)width, (size_t)width, (size_t)cw,
				 (size_t)cw };
		const uint8_t *rows[4];

		for (int i = 0; i < 4; i++) {
			in[i] = checkasm_in_alloc((size_t)width);
			rows[i] = in[i];
			ref[i] = checkasm_out_alloc(sz[i], 0x5a);
			out[i] = checkasm_out_alloc(sz[i], 0x5a);
		}
		for (int kind = 0; kind < CHECKASM_PATTERNS * 2 && ok; kind++) {
			const struct v4lc_rgb2yuv *m = &mats[kind % nmat];

			for (int i = 0; i < 4; i++)
				checkasm_pattern(in[i], (size_t)width,
						 (kind + 3 * i + kind / 7) %
							 CHECKASM_PATTERNS);
			checkasm_ref->bayer.demosaic[o][0][V4LC_RGB24](in[0],
								       in[1],
								       in[2],
								       rgb0,
								       width);
			checkasm_ref->bayer.demosaic[o][1][V4LC_RGB24](in[1],
								       in[2],
								       in[3],
								       rgb1,
								       width);
			checkasm_ref->rgb2yuv.to_yuv420[V4LC_RGB24](rgb0, rgb1,
								    ref[0],
								    ref[1],
								    ref[2],
								    ref[3],
								    width, m);
			fn(rows, out[0], out[1], out[2], out[3], width, m);
			for (int i = 0; i < 4 && ok; i++)
				ok = checkasm_check_bytes(ref[i], out[i], sz[i],
							  i < 2 ? "luma"
								: "chroma",
							  width);
		}
		/* against what the scalar tier runs: two rows, then rgb2yuv */
		checkasm_bench(width, 2 * width,
			       (checkasm_ref->bayer.demosaic[o][0][V4LC_RGB24](
					in[0], in[1], in[2], rgb0, width),
				checkasm_ref->bayer.demosaic[o][1][V4LC_RGB24](
					in[1], in[2], in[3], rgb1, width),
				checkasm_ref->rgb2yuv
					.to_yuv420[V4LC_RGB24](rgb0, rgb1,
							       ref[0], ref[1],
							       ref[2], ref[3],
							       width, mats)),
			       fn(rows, out[0], out[1], out[2], out[3], width,
				  mats));
		for (int i = 0; i < 4; i++) {
			checkasm_in_free(in[i]);
			checkasm_out_free(ref[i]);
			checkasm_out_free(out[i]);
		}
		checkasm_out_free(rgb0);
		checkasm_out_free(rgb1);
	}
	checkasm_report();
}

static void check_yuv420(void)
{
	static v4lc_bayer_yuv_fn *const specs[V4LC_BAYER_ORDERS] = {
		[V4LC_BGGR] = v4lc_bayer_bggr_yuv420_c,
		[V4LC_GBRG] = v4lc_bayer_gbrg_yuv420_c,
		[V4LC_GRBG] = v4lc_bayer_grbg_yuv420_c,
		[V4LC_RGGB] = v4lc_bayer_rggb_yuv420_c,
	};
	static const struct v4lc_colorimetry cm[3] = {
		{ V4L2_COLORSPACE_SMPTE170M, V4L2_YCBCR_ENC_601,
		  V4L2_QUANTIZATION_LIM_RANGE },
		{ V4L2_COLORSPACE_REC709, V4L2_YCBCR_ENC_709,
		  V4L2_QUANTIZATION_FULL_RANGE },
		{ V4L2_COLORSPACE_JPEG, 0, 0 },
	};
	struct v4lc_rgb2yuv mats[5];

	for (int i = 0; i < 3; i++)
		v4lc_rgb2yuv_init(&mats[i], &cm[i]);
	for (int i = 3; i < 5; i++) {
		/* random weights; the luma sum stays below 2^16 (see rgb2yuv) */
		unsigned y_off = checkasm_rand() % 33;
		unsigned budget = 65535u - 256u * y_off - 256u;
		unsigned yr = checkasm_rand() % (budget + 1);
		unsigned yg = checkasm_rand() % (budget - yr + 1);
		unsigned yb = checkasm_rand() % (budget - yr - yg + 1);

		mats[i].y_off = (uint16_t)y_off;
		mats[i].yr = (uint16_t)yr;
		mats[i].yg = (uint16_t)yg;
		mats[i].yb = (uint16_t)yb;
		mats[i].ur = (uint16_t)checkasm_rand();
		mats[i].ug = (uint16_t)checkasm_rand();
		mats[i].ub = (uint16_t)checkasm_rand();
		mats[i].vr = (uint16_t)checkasm_rand();
		mats[i].vg = (uint16_t)checkasm_rand();
		mats[i].vb = (uint16_t)checkasm_rand();
	}
	for (int o = 0; o < V4LC_BAYER_ORDERS; o++) {
		v4lc_bayer_yuv_fn *spec = specs[o];
		v4lc_bayer_yuv_fn *fn = checkasm_new->bayer.to_yuv420[o];

		if (checkasm_func(spec, NULL, "bayer_yuv420_spec_%s",
				  order_names[o]))
			check_yuv420_one(spec, o, mats, 5);
		if (checkasm_func(fn, spec, "bayer_yuv420_%s", order_names[o]))
			check_yuv420_one(fn, o, mats, 5);
	}
}

/*
 * Planar path: split against the scalar split (guard bytes after both
 * planes and before them), the scalar planar kernels (the specification)
 * against the scalar row kernels, and the tier's planar kernels against
 * the scalar planar kernels, on planes in buffers that end exactly at the
 * last pad (odd planes start exactly at index -1).
 */
static void check_split(void)
{
	v4lc_bayer_split_fn *fn = checkasm_new->bayer.split;

	if (!checkasm_func(fn, v4lc_bayer_split_c, "bayer_split"))
		return;
	for (int wi = 0; wi < checkasm_nwidths; wi++) {
		int width = checkasm_widths[wi], ok = 1;
		size_t ne = (size_t)(width + 1) / 2 + 1,
		       no = (size_t)width / 2 + 2;
		uint8_t *src = checkasm_in_alloc((size_t)width);
		/* one guard byte before each plane, CHECKASM_GUARD after */
		uint8_t *re = checkasm_out_alloc(ne + 1, 0x5a);
		uint8_t *ro = checkasm_out_alloc(no + 1, 0x5a);
		uint8_t *oe = checkasm_out_alloc(ne + 1, 0x5a);
		uint8_t *oo = checkasm_out_alloc(no + 1, 0x5a);

		for (int kind = 0; kind < CHECKASM_PATTERNS && ok; kind++) {
			checkasm_pattern(src, (size_t)width, kind);
			v4lc_bayer_split_c(src, re + 1, ro + 2, width);
			fn(src, oe + 1, oo + 2, width);
			ok = checkasm_check_bytes(re, oe, ne + 1, "even",
						  width) &&
			     checkasm_check_bytes(ro, oo, no + 1, "odd", width);
			if (ok && (oe[0] != 0x5a || oo[0] != 0x5a)) {
				checkasm_fail(
					"width %d: byte before a plane written",
					width);
				ok = 0;
			}
		}
		checkasm_bench(width, width,
			       v4lc_bayer_split_c(src, re + 1, ro + 2, width),
			       fn(src, oe + 1, oo + 2, width));
		checkasm_in_free(src);
		checkasm_out_free(re);
		checkasm_out_free(ro);
		checkasm_out_free(oe);
		checkasm_out_free(oo);
	}
	checkasm_report();
}

static void check_planar_one(v4lc_bayer_planar_fn *fn,
			     v4lc_bayer_planar_fn *ref_pl,
			     v4lc_bayer_row_fn *ref_row)
{
	for (int wi = 0; wi < checkasm_nwidths; wi++) {
		int width = checkasm_widths[wi], ok = 1;
		size_t ne = (size_t)(width + 1) / 2 + 1,
		       no = (size_t)width / 2 + 2;
		size_t size = (size_t)width * 3;
		uint8_t *rows[3], *pl[6];
		const uint8_t *planes[6];
		uint8_t *ref = checkasm_out_alloc(size, 0x5a);
		uint8_t *out = checkasm_out_alloc(size, 0x5a);

		for (int r = 0; r < 3; r++) {
			rows[r] = checkasm_in_alloc((size_t)width);
			pl[2 * r] = checkasm_in_alloc(ne);
			pl[2 * r + 1] = checkasm_in_alloc(no);
		}
		for (int kind = 0; kind < CHECKASM_PATTERNS * 3 && ok; kind++) {
			checkasm_pattern(rows[0], (size_t)width,
					 kind % CHECKASM_PATTERNS);
			checkasm_pattern(rows[1], (size_t)width,
					 (kind / 3 + kind) % CHECKASM_PATTERNS);
			checkasm_pattern(rows[2], (size_t)width,
					 (kind * 5 + 1) % CHECKASM_PATTERNS);
			for (int r = 0; r < 3; r++) {
				v4lc_bayer_split_c(rows[r], pl[2 * r],
						   pl[2 * r + 1] + 1, width);
				planes[2 * r] = pl[2 * r];
				planes[2 * r + 1] = pl[2 * r + 1] + 1;
			}
			if (ref_pl)
				ref_pl(planes, ref, width);
			else
				ref_row(rows[0], rows[1], rows[2], ref, width);
			fn(planes, out, width);
			ok = checkasm_check_bytes(ref, out, size, "rgb", width);
		}
		/* against the scalar tier's row kernel (the split not counted) */
		checkasm_bench(width, width,
			       ref_row(rows[0], rows[1], rows[2], ref, width),
			       fn(planes, out, width));
		for (int i = 0; i < 6; i++)
			checkasm_in_free(pl[i]);
		for (int r = 0; r < 3; r++)
			checkasm_in_free(rows[r]);
		checkasm_out_free(ref);
		checkasm_out_free(out);
	}
	checkasm_report();
}

static void check_planar(void)
{
	static v4lc_bayer_planar_fn *const kinds[4] = {
		v4lc_bayer_planar_gb_c,
		v4lc_bayer_planar_gr_c,
		v4lc_bayer_planar_bg_c,
		v4lc_bayer_planar_rg_c,
	};
	struct v4lc_bayer_dsp spec;

	v4lc_bayer_fill_planar(&spec, kinds);
	for (int o = 0; o < V4LC_BAYER_ORDERS; o++)
		for (int p = 0; p < 2; p++)
			for (int ro = 0; ro < V4LC_RGB_ORDERS; ro++) {
				v4lc_bayer_planar_fn *sp =
					spec.planar[o][p][ro];
				v4lc_bayer_planar_fn *fn =
					checkasm_new->bayer.planar[o][p][ro];
				v4lc_bayer_row_fn *row =
					checkasm_ref->bayer.demosaic[o][p][ro];

				if (checkasm_func(sp, NULL,
						  "bayer_planar_spec_%s_%d_%s",
						  order_names[o], p,
						  ro ? "bgr" : "rgb"))
					check_planar_one(sp, NULL, row);
				if (checkasm_func(fn, sp,
						  "bayer_planar_%s_%d_%s",
						  order_names[o], p,
						  ro ? "bgr" : "rgb"))
					check_planar_one(fn, sp, row);
			}
}

void checkasm_check_bayer(void)
{
	check_demosaic();
	check_yuv420();
	check_unpack10p();
	check_split();
	check_planar();
}
