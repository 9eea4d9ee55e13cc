/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Bayer kernels: the specification every SIMD kernel reproduces bit for bit.
 *
 * Bilinear demosaic. Every output pixel keeps the channel its sensor site
 * sampled; each missing channel is the rounded mean of the nearest samples
 * of that colour:
 *   - green at a red or blue site: the 4 cross neighbours (left, right,
 *     above, below), (a + b + c + d + 2) >> 2;
 *   - blue at a red site and red at a blue site: the 4 diagonal neighbours,
 *     (a + b + c + d + 2) >> 2;
 *   - at a green site, the colour of its own row from the 2 horizontal
 *     neighbours and the other colour from the 2 vertical neighbours,
 *     (a + b + 1) >> 1.
 * Frame edges mirror, which keeps the Bayer phase: row -1 is row 1, column
 * -1 is column 1, row h is row h - 2, column w is column w - 2. A frame one
 * pixel wide (or high) has no mirror column (row): the missing neighbour
 * index is then clamped to 0, i.e. the pixel's own column (row) is
 * replicated. Formally, with M(j) = j < 0 ? -j : j >= n ? 2 n - 2 - j : j,
 * a neighbour j of a row (or column) of n samples is sample
 * max(0, min(n - 1, M(j))).
 *
 * Rows are made one at a time from three input rows: the caller passes the
 * rows above and below, mirrored (or clamped) at the top and bottom, and the
 * kernel mirrors columns. A row holds two colours: green and its "own"
 * colour C (red or blue), with C at even columns ("C G C G", C-first) or at
 * odd columns ("G C G C", G-first). The neighbouring rows hold green and
 * the "other" colour O. Four kernels cover every order and both byte
 * orders, named after the row they turn into RGB24:
 *   rg: C-first, bytes C, G, O     gr: G-first, bytes C, G, O
 *   bg: C-first, bytes O, G, C     gb: G-first, bytes O, G, C
 * e.g. a "B G B G" row to BGR24 is kernel rg (own colour first).
 *
 * unpack10p: MIPI CSI-2 RAW10 (V4L2 SBGGR10P etc.): each group of 4 pixels
 * is 5 bytes, the 4 high bytes (bits 9..2) then one byte of the 4 pairs of
 * low bits; the 8-bit output is the high byte. A last partial group of k
 * pixels is read as its first k bytes only.
 */
#include <stddef.h>

#include "scalar/bayer.h"
#include "scalar/pixel.h"

static inline int mirror(int j, int n)
{
	if (j < 0)
		j = -j;
	if (j >= n)
		j = 2 * n - 2 - j;
	return j < 0 ? 0 : j;
}

/*
 * One output pixel x of a row of width w. cfirst: C at even columns;
 * ownfirst: bytes C, G, O (else O, G, C).
 */
static inline __attribute__((always_inline)) void
pixel(const uint8_t *a, const uint8_t *c, const uint8_t *b, uint8_t *d, int l,
      int x, int r, int cfirst, int ownfirst)
{
	int own, g, oth;

	if ((x & 1) != cfirst) { /* C site */
		own = c[x];
		g = (c[l] + c[r] + a[x] + b[x] + 2) >> 2;
		oth = (a[l] + a[r] + b[l] + b[r] + 2) >> 2;
	} else { /* G site */
		own = (c[l] + c[r] + 1) >> 1;
		g = c[x];
		oth = (a[x] + b[x] + 1) >> 1;
	}
	d[0] = (uint8_t)(ownfirst ? own : oth);
	d[1] = (uint8_t)g;
	d[2] = (uint8_t)(ownfirst ? oth : own);
}

static inline __attribute__((always_inline)) void
span(const uint8_t *a, const uint8_t *c, const uint8_t *b, uint8_t *dst, int w,
     int x0, int x1, int cfirst, int ownfirst)
{
	int x = x0;

	/* The edges mirror; the interior needs no index checks. */
	for (; x < x1 && x < 1; x++)
		pixel(a, c, b, dst + 3 * x, mirror(x - 1, w), x,
		      mirror(x + 1, w), cfirst, ownfirst);
	for (; x < x1 && x < w - 1; x++)
		pixel(a, c, b, dst + 3 * x, x - 1, x, x + 1, cfirst, ownfirst);
	for (; x < x1; x++)
		pixel(a, c, b, dst + 3 * x, mirror(x - 1, w), x,
		      mirror(x + 1, w), cfirst, ownfirst);
}

void v4lc_bayer_span_c(const uint8_t *a, const uint8_t *c, const uint8_t *b,
		       uint8_t *dst, int w, int x0, int x1, int kind)
{
	switch (kind) {
	case 0:
		span(a, c, b, dst, w, x0, x1, 0, 0);
		break;
	case 1:
		span(a, c, b, dst, w, x0, x1, 0, 1);
		break;
	case 2:
		span(a, c, b, dst, w, x0, x1, 1, 0);
		break;
	default:
		span(a, c, b, dst, w, x0, x1, 1, 1);
		break;
	}
}

/* cfirst here means "C at even columns", i.e. (x & 1) == 0 is a C site. */
#define BAYER_KERNEL(fn, cfirst, ownfirst)                                     \
	void fn(const uint8_t *a, const uint8_t *c, const uint8_t *b,          \
		uint8_t *dst, int w)                                           \
	{                                                                      \
		span(a, c, b, dst, w, 0, w, cfirst, ownfirst);                 \
	}
BAYER_KERNEL(v4lc_bayer_gb_c, 0, 0)
BAYER_KERNEL(v4lc_bayer_gr_c, 0, 1)
BAYER_KERNEL(v4lc_bayer_bg_c, 1, 0)
BAYER_KERNEL(v4lc_bayer_rg_c, 1, 1)
#undef BAYER_KERNEL

/*
 * Planar path (see dsp.h): split de-interleaves a row's columns once, with
 * mirrored pads, so that the planar kernels need no edge cases: column j of
 * a row is even[j / 2] (j even) or odd[(j - 1) / 2] (j odd) for every
 * -1 <= j <= w, the mirror already applied. v4lc_bayer_split_span_c writes
 * even[i] and odd[i] for i >= i0 (and the pads, and odd[-1]); SIMD kernels
 * call it for the row tail.
 */
void v4lc_bayer_split_span_c(const uint8_t *src, uint8_t *even, uint8_t *odd,
			     int w, int i0)
{
	int ne = (w + 1) / 2, no = w / 2;

	odd[-1] = src[mirror(-1, w)];
	for (int i = i0; i <= ne; i++)
		even[i] = src[mirror(2 * i, w)];
	for (int i = i0; i <= no; i++)
		odd[i] = src[mirror(2 * i + 1, w)];
}

void v4lc_bayer_split_c(const uint8_t *src, uint8_t *even, uint8_t *odd, int w)
{
	v4lc_bayer_split_span_c(src, even, odd, w, 0);
}

static inline int col(const uint8_t *e, const uint8_t *o, int j)
{
	return (j & 1) ? o[(j - 1) >> 1] : e[j >> 1];
}

/*
 * Pixels x0 .. x1 - 1 from planes (a even, a odd, c even, c odd, b even,
 * b odd): the rule of pixel() with columns read through col(), kind as
 * v4lc_bayer_span_c. The specification of the planar kernels.
 */
void v4lc_bayer_planar_span_c(const uint8_t *const pl[6], uint8_t *dst, int x0,
			      int x1, int kind)
{
	const uint8_t *ae = pl[0], *ao = pl[1], *ce = pl[2], *co = pl[3],
		      *be = pl[4], *bo = pl[5];
	int cfirst = kind >> 1, ownfirst = kind & 1;

	for (int x = x0; x < x1; x++) {
		int own, g, oth;
		uint8_t *d = dst + 3 * x;

		if ((x & 1) != cfirst) { /* C site */
			own = col(ce, co, x);
			g = (col(ce, co, x - 1) + col(ce, co, x + 1) +
			     col(ae, ao, x) + col(be, bo, x) + 2) >>
			    2;
			oth = (col(ae, ao, x - 1) + col(ae, ao, x + 1) +
			       col(be, bo, x - 1) + col(be, bo, x + 1) + 2) >>
			      2;
		} else { /* G site */
			own = (col(ce, co, x - 1) + col(ce, co, x + 1) + 1) >>
			      1;
			g = col(ce, co, x);
			oth = (col(ae, ao, x) + col(be, bo, x) + 1) >> 1;
		}
		d[0] = (uint8_t)(ownfirst ? own : oth);
		d[1] = (uint8_t)g;
		d[2] = (uint8_t)(ownfirst ? oth : own);
	}
}

#define PLANAR_KERNEL(fn, kind)                                                \
	void fn(const uint8_t *const pl[6], uint8_t *dst, int w)               \
	{                                                                      \
		v4lc_bayer_planar_span_c(pl, dst, 0, w, kind);                 \
	}
PLANAR_KERNEL(v4lc_bayer_planar_gb_c, 0)
PLANAR_KERNEL(v4lc_bayer_planar_gr_c, 1)
PLANAR_KERNEL(v4lc_bayer_planar_bg_c, 2)
PLANAR_KERNEL(v4lc_bayer_planar_rg_c, 3)
#undef PLANAR_KERNEL

void v4lc_bayer_unpack10p_c(const uint8_t *src, uint8_t *dst, int width)
{
	int x = 0;

	for (; x + 4 <= width; x += 4, src += 5, dst += 4) {
		dst[0] = src[0];
		dst[1] = src[1];
		dst[2] = src[2];
		dst[3] = src[3];
	}
	for (int i = 0; x < width; x++, i++)
		*dst++ = src[i];
}

/*
 * Bayer -> YUV 4:2:0, two rows in one pass: exactly demosaic[order][0] and
 * [1] to RGB24 followed by the rgb2yuv rule (v4lc_rgb_to_y per pixel,
 * v4lc_rgb_to_uv of each 2x2 block sum; an odd last column counts twice).
 * Row y holds colour C0 (red when red0) at even columns when cfirst0; row
 * y + 1 holds the other colour, at the other parity.
 * v4lc_bayer_yuv_span_c does column pairs from x0 (even) to x1, kind =
 * 2 * cfirst0 + red0; SIMD kernels call it for the row edges.
 */
static inline __attribute__((always_inline)) void
rgb_px(const uint8_t *a, const uint8_t *c, const uint8_t *b, int w, int x,
       int cfirst, int red, uint8_t d[3])
{
	if (x > 0 && x < w - 1)
		pixel(a, c, b, d, x - 1, x, x + 1, cfirst, red);
	else
		pixel(a, c, b, d, mirror(x - 1, w), x, mirror(x + 1, w), cfirst,
		      red);
}

static inline __attribute__((always_inline)) void
yuv_span(const uint8_t *const rows[4], uint8_t *y0, uint8_t *y1, uint8_t *u,
	 uint8_t *v, int w, int x0, int x1, int cfirst0, int red0,
	 const struct v4lc_rgb2yuv *kp)
{
	const struct v4lc_rgb2yuv kc = *kp, *k = &kc;

	for (int x = x0; x < x1; x += 2) {
		uint8_t p[4][3]; /* row 0 x, x + 1, row 1 x, x + 1 */
		int n = x + 1 < w ? 2 : 1;

		for (int i = 0; i < n; i++) {
			rgb_px(rows[0], rows[1], rows[2], w, x + i, cfirst0,
			       red0, p[i]);
			rgb_px(rows[1], rows[2], rows[3], w, x + i, !cfirst0,
			       !red0, p[2 + i]);
			y0[x + i] = v4lc_rgb_to_y(k, p[i][0], p[i][1], p[i][2]);
			y1[x + i] = v4lc_rgb_to_y(k, p[2 + i][0], p[2 + i][1],
						  p[2 + i][2]);
		}
		if (n == 1)
			for (int j = 0; j < 3; j++) {
				p[1][j] = p[0][j];
				p[3][j] = p[2][j];
			}
		v4lc_rgb_to_uv(k, p[0][0] + p[1][0] + p[2][0] + p[3][0],
			       p[0][1] + p[1][1] + p[2][1] + p[3][1],
			       p[0][2] + p[1][2] + p[2][2] + p[3][2], &u[x / 2],
			       &v[x / 2]);
	}
}

void v4lc_bayer_yuv_span_c(const uint8_t *const rows[4], uint8_t *y0,
			   uint8_t *y1, uint8_t *u, uint8_t *v, int w, int x0,
			   int x1, int kind, const struct v4lc_rgb2yuv *k)
{
	switch (kind) {
	case 0:
		yuv_span(rows, y0, y1, u, v, w, x0, x1, 0, 0, k);
		break;
	case 1:
		yuv_span(rows, y0, y1, u, v, w, x0, x1, 0, 1, k);
		break;
	case 2:
		yuv_span(rows, y0, y1, u, v, w, x0, x1, 1, 0, k);
		break;
	default:
		yuv_span(rows, y0, y1, u, v, w, x0, x1, 1, 1, k);
		break;
	}
}

/* Row 0: BGGR "B G", GBRG "G B", GRBG "G R", RGGB "R G". */
#define YUV_KERNEL(fn, cfirst0, red0)                                          \
	void fn(const uint8_t *const rows[4], uint8_t *y0, uint8_t *y1,        \
		uint8_t *u, uint8_t *v, int w, const struct v4lc_rgb2yuv *k)   \
	{                                                                      \
		yuv_span(rows, y0, y1, u, v, w, 0, w, cfirst0, red0, k);       \
	}
YUV_KERNEL(v4lc_bayer_bggr_yuv420_c, 1, 0)
YUV_KERNEL(v4lc_bayer_gbrg_yuv420_c, 0, 0)
YUV_KERNEL(v4lc_bayer_grbg_yuv420_c, 0, 1)
YUV_KERNEL(v4lc_bayer_rggb_yuv420_c, 1, 1)
#undef YUV_KERNEL

/*
 * Fill demosaic[order][parity][rgb_order] from the four row kernels:
 * kinds[row colour pattern] per the comment at the top.
 */
void v4lc_bayer_fill_table(struct v4lc_bayer_dsp *dsp,
			   v4lc_bayer_row_fn *const kinds[4])
{
	/*
	 * Row patterns: 0 "B G", 1 "G B", 2 "G R", 3 "R G" (first two
	 * columns). first[order][parity].
	 */
	static const uint8_t first[V4LC_BAYER_ORDERS][2] = {
		[V4LC_BGGR] = { 0, 2 },
		[V4LC_GBRG] = { 1, 3 },
		[V4LC_GRBG] = { 2, 0 },
		[V4LC_RGGB] = { 3, 1 },
	};
	/*
	 * RGB24: "B G" -> bg, "G B" -> gb, "G R" -> gr, "R G" -> rg.
	 * BGR24 swaps R and B: "B G" -> rg, "G B" -> gr, "G R" -> gb,
	 * "R G" -> bg. kinds[]: 0 gb, 1 gr, 2 bg, 3 rg.
	 */
	static const uint8_t kind[4][V4LC_RGB_ORDERS] = {
		{ 2, 3 }, /* B G */
		{ 0, 1 }, /* G B */
		{ 1, 0 }, /* G R */
		{ 3, 2 }, /* R G */
	};

	for (int o = 0; o < V4LC_BAYER_ORDERS; o++)
		for (int p = 0; p < 2; p++)
			for (int r = 0; r < V4LC_RGB_ORDERS; r++)
				dsp->demosaic[o][p][r] =
					kinds[kind[first[o][p]][r]];
}

/* The same table layout: kinds[] 0 gb, 1 gr, 2 bg, 3 rg. */
void v4lc_bayer_fill_planar(struct v4lc_bayer_dsp *dsp,
			    v4lc_bayer_planar_fn *const kinds[4])
{
	static const uint8_t first[V4LC_BAYER_ORDERS][2] = {
		[V4LC_BGGR] = { 0, 2 },
		[V4LC_GBRG] = { 1, 3 },
		[V4LC_GRBG] = { 2, 0 },
		[V4LC_RGGB] = { 3, 1 },
	};
	static const uint8_t kind[4][V4LC_RGB_ORDERS] = {
		{ 2, 3 },
		{ 0, 1 },
		{ 1, 0 },
		{ 3, 2 },
	};

	for (int o = 0; o < V4LC_BAYER_ORDERS; o++)
		for (int p = 0; p < 2; p++)
			for (int r = 0; r < V4LC_RGB_ORDERS; r++)
				dsp->planar[o][p][r] =
					kinds ? kinds[kind[first[o][p]][r]]
					      : NULL;
}

void v4lc_bayer_init_c(struct v4lc_bayer_dsp *dsp)
{
	static v4lc_bayer_row_fn *const kinds[4] = {
		v4lc_bayer_gb_c,
		v4lc_bayer_gr_c,
		v4lc_bayer_bg_c,
		v4lc_bayer_rg_c,
	};

	v4lc_bayer_fill_table(dsp, kinds);
	dsp->unpack10p = v4lc_bayer_unpack10p_c;
	/*
	 * The scalar tier keeps the two-pass rows (measured faster than
	 * these per-pixel kernels); v4lc_bayer_<order>_yuv420_c remain the
	 * specification the SIMD kernels are checked against.
	 */
	for (int o = 0; o < V4LC_BAYER_ORDERS; o++)
		dsp->to_yuv420[o] = NULL;
	/*
	 * Likewise the planar kernels: the row kernels serve the scalar tier;
	 * v4lc_bayer_planar_<kind>_c are the specification.
	 */
	dsp->split = v4lc_bayer_split_c;
	v4lc_bayer_fill_planar(dsp, NULL);
}
