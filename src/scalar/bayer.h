/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The scalar bayer kernels (src/scalar/bayer.c) and the pieces of them the
 * SIMD files call for the row edges and for filling their tables.
 *
 * Row kinds: the four row kernels of src/scalar/bayer.c as
 * kind = 2 * cfirst + ownfirst: 0 gb, 1 gr, 2 bg, 3 rg.
 */
#ifndef V4LC_SCALAR_BAYER_H
#define V4LC_SCALAR_BAYER_H

#include "dispatch/dsp.h"

v4lc_bayer_row_fn v4lc_bayer_gb_c, v4lc_bayer_gr_c, v4lc_bayer_bg_c,
	v4lc_bayer_rg_c;
v4lc_row_copy_fn v4lc_bayer_unpack10p_c;

/* Pixels x0 .. x1 - 1 of a demosaiced row of width w, of row kind `kind`. */
void v4lc_bayer_span_c(const uint8_t *a, const uint8_t *c, const uint8_t *b,
		       uint8_t *dst, int w, int x0, int x1, int kind);

/*
 * Fused Bayer -> YUV 4:2:0 (the specification of bayer.to_yuv420, which
 * the scalar table leaves NULL), and its column pairs from x0 (even) to
 * x1, kind = 2 * cfirst0 + red0 of row y.
 */
v4lc_bayer_yuv_fn v4lc_bayer_bggr_yuv420_c, v4lc_bayer_gbrg_yuv420_c,
	v4lc_bayer_grbg_yuv420_c, v4lc_bayer_rggb_yuv420_c;
void v4lc_bayer_yuv_span_c(const uint8_t *const rows[4], uint8_t *y0,
			   uint8_t *y1, uint8_t *u, uint8_t *v, int w, int x0,
			   int x1, int kind, const struct v4lc_rgb2yuv *k);

/*
 * Planar path: split, and split from sample i0 on (with the pads and
 * odd[-1]); the planar kernels (the specification of bayer.planar, which
 * the scalar table leaves NULL), and their pixels x0 .. x1 - 1.
 */
v4lc_bayer_split_fn v4lc_bayer_split_c;
void v4lc_bayer_split_span_c(const uint8_t *src, uint8_t *even, uint8_t *odd,
			     int w, int i0);
v4lc_bayer_planar_fn v4lc_bayer_planar_gb_c, v4lc_bayer_planar_gr_c,
	v4lc_bayer_planar_bg_c, v4lc_bayer_planar_rg_c;
void v4lc_bayer_planar_span_c(const uint8_t *const pl[6], uint8_t *dst, int x0,
			      int x1, int kind);

/*
 * Fill demosaic[order][parity][rgb_order] (or planar[...]) from four
 * kernels indexed by row kind; v4lc_bayer_fill_planar with NULL clears it.
 */
void v4lc_bayer_fill_table(struct v4lc_bayer_dsp *dsp,
			   v4lc_bayer_row_fn *const kinds[4]);
void v4lc_bayer_fill_planar(struct v4lc_bayer_dsp *dsp,
			    v4lc_bayer_planar_fn *const kinds[4]);

#endif
