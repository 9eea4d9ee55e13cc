/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One function-pointer table per kernel family.
 *
 * Adding a family: define its struct below and add it to struct v4lc_dsp,
 * write src/scalar/<family>.c (which provides v4lc_<family>_init_c) with
 * src/scalar/<family>.h (the prototypes of its scalar kernels) and list it
 * in src/meson.build; per instruction set, src/<isa>/<family>.c provides
 * v4lc_<family>_init_<isa>, overriding only what it speeds up. Each init
 * function is declared in dispatch/dsp_inits.h, called from its family's
 * function in dispatch/dsp.c and listed in src/dispatch/README.md.
 *
 * All kernels work on rows (or, for rotations, on whole planes) and never
 * touch a byte outside the pixels they are asked for; odd widths are legal.
 * The scalar kernel is the specification: every SIMD kernel is bit-exact.
 */
#ifndef V4LC_DISPATCH_DSP_H
#define V4LC_DISPATCH_DSP_H

#include <stdint.h>

#include "core/colour.h"
#include "dispatch/cpu.h"

/* Byte orders of packed YUV 4:2:2, used to index the yuv422 tables. */
enum v4lc_yuv422_order {
	V4LC_YUYV, /* Y0 U Y1 V */
	V4LC_YVYU, /* Y0 V Y1 U */
	V4LC_UYVY, /* U Y0 V Y1 */
	V4LC_VYUY, /* V Y0 U Y1 */
	V4LC_YUV422_ORDERS
};

/* Byte offsets of Y0, U, Y1 and V inside a pixel pair, per order. */
enum { V4LC_422_Y0, V4LC_422_U, V4LC_422_Y1, V4LC_422_V };
static const uint8_t v4lc_yuv422_offsets[V4LC_YUV422_ORDERS][4] = {
	[V4LC_YUYV] = { 0, 1, 2, 3 },
	[V4LC_YVYU] = { 0, 3, 2, 1 },
	[V4LC_UYVY] = { 1, 0, 3, 2 },
	[V4LC_VYUY] = { 1, 2, 3, 0 },
};

/* Luma at the odd bytes (UYVY, VYUY); V before U in a pair (YVYU, VYUY). */
static inline int v4lc_yuv422_luma_odd(int order)
{
	return v4lc_yuv422_offsets[order][V4LC_422_Y0] & 1;
}

static inline int v4lc_yuv422_v_first(int order)
{
	return v4lc_yuv422_offsets[order][V4LC_422_V] <
	       v4lc_yuv422_offsets[order][V4LC_422_U];
}

/* Output channel orders for 24-bit RGB. */
enum v4lc_rgb_order {
	V4LC_RGB24, /* R G B */
	V4LC_BGR24, /* B G R */
	V4LC_RGB_ORDERS
};

/*
 * Kernel types are function types, so a scalar kernel can be declared by
 * name in a SIMD file that hands it the tail of a row:
 *   v4lc_row_copy_fn v4lc_rgb_swap_rb24_c;
 * Scalar kernels are exported as v4lc_<family>_<kernel>_c for that purpose.
 */
typedef void v4lc_row_copy_fn(const uint8_t *src, uint8_t *dst, int width);

/* rgb: 24-bit R<->B swap (the same kernel serves both directions). */
struct v4lc_rgb_dsp {
	v4lc_row_copy_fn *swap_rb24;
};

/*
 * flip: mirrors and 90-degree rotations. A vertical flip is a row copy in
 * reverse order and needs no kernel; 180 degrees is mirror rows in reverse
 * order. Rotations work on whole planes (w x h source, h x w destination).
 */
typedef void v4lc_rotate_fn(const uint8_t *src, int src_stride, uint8_t *dst,
			    int dst_stride, int width, int height);
struct v4lc_flip_dsp {
	v4lc_row_copy_fn *mirror8;  /* 1 byte per pixel (a YUV plane) */
	v4lc_row_copy_fn *mirror24; /* 3 bytes per pixel (RGB24/BGR24) */
	v4lc_rotate_fn *rot90cw8, *rot90ccw8;
	v4lc_rotate_fn *rot90cw24, *rot90ccw24;
	/*
	 * Packed 4:2:2 rows of `width` pixels, 4 * ((width + 1) / 2) bytes:
	 * mirror_yuyv for luma at even bytes (YUYV, YVYU), mirror_uyvy for
	 * luma at odd bytes (UYVY, VYUY). Pixel pairs are reversed, the two
	 * luma samples of each pair swapped, chroma stays with its pair; odd
	 * widths: see src/scalar/flip.c.
	 */
	v4lc_row_copy_fn *mirror_yuyv, *mirror_uyvy;
};

/*
 * yuv422: packed 4:2:2 rows. A row of `width` pixels holds
 * 2 * ((width + 1) / 2) pixel pairs' worth of bytes; an odd last pixel uses
 * the chroma of its (partial) pair.
 *
 * to_rgb[order][rgb_order] converts one row.
 * to_yuv420[order] converts two source rows into two luma rows and one row
 * of each chroma plane: chroma is the rounded average (a + b + 1) >> 1 of the
 * two rows. For an odd last row the caller passes src1 == src0 and
 * y1 == y0. YVU420 output is the same call with u and v swapped.
 */
typedef void v4lc_yuv422_rgb_fn(const uint8_t *src, uint8_t *dst, int width,
				const struct v4lc_yuv2rgb *k);
typedef void v4lc_yuv422_420_fn(const uint8_t *src0, const uint8_t *src1,
				uint8_t *y0, uint8_t *y1, uint8_t *u,
				uint8_t *v, int width);
struct v4lc_yuv422_dsp {
	v4lc_yuv422_rgb_fn *to_rgb[V4LC_YUV422_ORDERS][V4LC_RGB_ORDERS];
	v4lc_yuv422_420_fn *to_yuv420[V4LC_YUV422_ORDERS];
};

/*
 * yuv420: one output row from planar or semi-planar YUV with horizontally
 * subsampled chroma (each chroma sample covers two pixels; the caller picks
 * the chroma row, so the same kernels serve 4:2:0 and 4:2:2).
 * planar[rgb_order](y, u, v, ...): YVU order is the same call with u and v
 * swapped. nv12[rgb_order] reads interleaved U,V; nv21[rgb_order] V,U.
 */
typedef void v4lc_planar_rgb_fn(const uint8_t *y, const uint8_t *u,
				const uint8_t *v, uint8_t *dst, int width,
				const struct v4lc_yuv2rgb *k);
typedef void v4lc_semiplanar_rgb_fn(const uint8_t *y, const uint8_t *uv,
				    uint8_t *dst, int width,
				    const struct v4lc_yuv2rgb *k);
struct v4lc_yuv420_dsp {
	v4lc_planar_rgb_fn *planar[V4LC_RGB_ORDERS];
	v4lc_semiplanar_rgb_fn *nv12[V4LC_RGB_ORDERS];
	v4lc_semiplanar_rgb_fn *nv21[V4LC_RGB_ORDERS];
};

/*
 * rgb2yuv: two rows of 24-bit RGB (or BGR) to two luma rows and one row of
 * each chroma plane, per the formulas in src/scalar/pixel.h. For an odd
 * last row the caller passes src1 == src0 and y1 == y0; an odd last column
 * is replicated into its 2x2 chroma block.
 */
typedef void v4lc_rgb2yuv_fn(const uint8_t *src0, const uint8_t *src1,
			     uint8_t *y0, uint8_t *y1, uint8_t *u, uint8_t *v,
			     int width, const struct v4lc_rgb2yuv *k);
struct v4lc_rgb2yuv_dsp {
	v4lc_rgb2yuv_fn *to_yuv420[V4LC_RGB_ORDERS];
};

/*
 * rgbpack: packed 16/32-bit RGB rows to 24-bit RGB or BGR.
 * rgb565[rgb_order]: V4L2 RGBP, little-endian 16-bit words with R in bits
 * 15..11, G in 10..5, B in 4..0; each field is widened to 8 bits by bit
 * replication (v << 3 | v >> 2 for 5 bits, v << 2 | v >> 4 for 6 bits).
 * rgb32[layout][rgb_order]: 4 bytes per pixel, the byte order in memory
 * named by the layout; the X/A byte is ignored.
 */
enum v4lc_rgb32_layout {
	V4LC_BGRX32, /* B G R X: BGR32 (BGR4), ABGR32 (AR24), XBGR32 (XR24) */
	V4LC_XRGB32, /* X R G B: RGB32 (RGB4), ARGB32 (BA24), XRGB32 (BX24) */
	V4LC_XBGR32, /* X B G R: BGRA32 (RA24), BGRX32 (RX24) */
	V4LC_RGBX32, /* R G B X: RGBA32 (AB24), RGBX32 (XB24) */
	V4LC_RGB32_LAYOUTS
};
struct v4lc_rgbpack_dsp {
	v4lc_row_copy_fn *rgb565[V4LC_RGB_ORDERS];
	v4lc_row_copy_fn *rgb32[V4LC_RGB32_LAYOUTS][V4LC_RGB_ORDERS];
};

/*
 * grey: luma-only rows.
 * to_rgb24: 8-bit grey to R = G = B (the same bytes serve BGR24).
 * le16 / be16: 16-bit little- / big-endian words to 8 bits, value >> shift
 * truncated to 8 bits (Y10: 2, Y12: 4, Y16 and Y16_BE: 8); shift is 0..8.
 * y10bpack: V4L2 Y10BPACK (4 pixels in 5 bytes, MSB first, a row of
 * `width` pixels occupies (10 * width + 7) / 8 bytes) to the top 8 bits.
 */
typedef void v4lc_grey16_fn(const uint8_t *src, uint8_t *dst, int width,
			    int shift);
struct v4lc_grey_dsp {
	v4lc_row_copy_fn *to_rgb24;
	v4lc_grey16_fn *le16, *be16;
	v4lc_row_copy_fn *y10bpack;
};

/*
 * yuvlayout: reshaping chroma between YUV layouts (n = chroma samples).
 * deinterleave(uv, a, b, n): a[i] = uv[2i], b[i] = uv[2i + 1].
 * deinterleave_avg(uv0, uv1, a, b, n): the same from two rows, each output
 *   the rounded average (x0 + x1 + 1) >> 1 of the two rows' samples.
 * avg(p0, p1, dst, n): dst[i] = (p0[i] + p1[i] + 1) >> 1.
 * nv24[rgb_order] / nv42[rgb_order]: one RGB row of `width` pixels from a
 *   luma row and a full-resolution interleaved U,V (nv24) or V,U (nv42) row.
 * nv24_to_yuv420(uv0, uv1, a, b, width): interleaved 4:4:4 chroma of two
 *   rows of `width` pixels to one 4:2:0 row of (width + 1) / 2 samples:
 *   a[i] = (uv0[4i] + uv0[4i+2] + uv1[4i] + uv1[4i+2] + 2) >> 2, b[i] the
 *   same at odd offsets; an odd last column counts twice (its 2x2 block).
 */
typedef void v4lc_uv_split_fn(const uint8_t *uv, uint8_t *a, uint8_t *b, int n);
typedef void v4lc_uv_split_avg_fn(const uint8_t *uv0, const uint8_t *uv1,
				  uint8_t *a, uint8_t *b, int n);
typedef void v4lc_row_avg_fn(const uint8_t *p0, const uint8_t *p1, uint8_t *dst,
			     int n);
struct v4lc_yuvlayout_dsp {
	v4lc_uv_split_fn *deinterleave;
	v4lc_uv_split_avg_fn *deinterleave_avg;
	v4lc_row_avg_fn *avg;
	v4lc_semiplanar_rgb_fn *nv24[V4LC_RGB_ORDERS];
	v4lc_semiplanar_rgb_fn *nv42[V4LC_RGB_ORDERS];
	v4lc_uv_split_avg_fn *nv24_to_yuv420;
};

/*
 * bayer: raw Bayer rows (specification: src/scalar/bayer.c).
 * demosaic[order][y & 1][rgb_order] makes one row of 24-bit RGB or BGR from
 * the rows above, at and below row y (at the frame edges the caller passes
 * the mirrored rows: row -1 is row 1, row h is row h - 2; for h == 1 all
 * three are row 0). Column mirroring is done by the kernel.
 * unpack10p: MIPI CSI-2 10-bit packed (4 pixels in 5 bytes: four high bytes,
 * then one byte of 2-bit LSBs) to the high 8 bits. Deeper unpacked Bayer
 * uses the grey family's le16 reduction.
 */
enum v4lc_bayer_order {
	V4LC_BGGR, /* row 0: B G B G ..., row 1: G R G R ... */
	V4LC_GBRG, /* row 0: G B G B ..., row 1: R G R G ... */
	V4LC_GRBG, /* row 0: G R G R ..., row 1: B G B G ... */
	V4LC_RGGB, /* row 0: R G R G ..., row 1: G B G B ... */
	V4LC_BAYER_ORDERS
};
typedef void v4lc_bayer_row_fn(const uint8_t *above, const uint8_t *cur,
			       const uint8_t *below, uint8_t *dst, int width);
/*
 * to_yuv420[order]: rows y (even) and y + 1 demosaiced as demosaic[order][0]
 * and [1] to RGB24 and converted as rgb2yuv (one pass, no RGB rows); rows
 * holds rows y - 1, y, y + 1, y + 2 (mirrored by the caller). NULL in a
 * tier where the two-pass row path is faster.
 */
typedef void v4lc_bayer_yuv_fn(const uint8_t *const rows[4], uint8_t *y0,
			       uint8_t *y1, uint8_t *u, uint8_t *v, int width,
			       const struct v4lc_rgb2yuv *k);
/*
 * Planar path (the row's columns de-interleaved once, then used for the
 * three output rows that need it): split writes a row of `width` samples as
 * even[i] = row[M(2 i)] for 0 <= i <= (width + 1) / 2 and
 * odd[i] = row[M(2 i + 1)] for -1 <= i <= width / 2, M the column mirror of
 * src/scalar/bayer.c (one mirrored pad element past each end, and one
 * before the odd plane). planar[order][y & 1][rgb_order] makes exactly the
 * row demosaic[order][y & 1][rgb_order] makes, from the planes of the rows
 * above, at and below: planes = { above.even, above.odd, cur.even,
 * cur.odd, below.even, below.odd }. NULL in a tier where the row kernels
 * are faster.
 */
typedef void v4lc_bayer_split_fn(const uint8_t *src, uint8_t *even,
				 uint8_t *odd, int width);
typedef void v4lc_bayer_planar_fn(const uint8_t *const planes[6], uint8_t *dst,
				  int width);
struct v4lc_bayer_dsp {
	v4lc_bayer_row_fn *demosaic[V4LC_BAYER_ORDERS][2][V4LC_RGB_ORDERS];
	v4lc_row_copy_fn *unpack10p;
	v4lc_bayer_yuv_fn *to_yuv420[V4LC_BAYER_ORDERS];
	v4lc_bayer_split_fn *split;
	v4lc_bayer_planar_fn *planar[V4LC_BAYER_ORDERS][2][V4LC_RGB_ORDERS];
};

#include "dispatch/dsp_proc.h"
#include "dispatch/dsp_focus.h"

/* Every family's table: what a tier fills (dispatch/dsp.c). */
struct v4lc_dsp {
	struct v4lc_rgb_dsp rgb;
	struct v4lc_flip_dsp flip;
	struct v4lc_yuv422_dsp yuv422;
	struct v4lc_yuv420_dsp yuv420;
	struct v4lc_rgb2yuv_dsp rgb2yuv;
	struct v4lc_rgbpack_dsp rgbpack;
	struct v4lc_grey_dsp grey;
	struct v4lc_bayer_dsp bayer;
	struct v4lc_yuvlayout_dsp yuvlayout;
	struct v4lc_proc_dsp proc;
	struct v4lc_focus_dsp focus;
};

#include "dispatch/dsp_inits.h"

/*
 * Fill every table for the tiers in `cpu_flags`: scalar first, then each
 * instruction set in ascending order. Pure: tests and benches build tables
 * for any tier without touching the process-wide one.
 */
void v4lc_dsp_init(struct v4lc_dsp *dsp, unsigned cpu_flags);

/*
 * The process-wide tables for v4lc_cpu_flags(), filled once. Exported by
 * libv4lconvert.so to the project's other libraries (libv4lconvert.map), so
 * a process has one copy of the kernels and one dispatch state.
 */
__attribute__((visibility("default"))) const struct v4lc_dsp *
v4lc_dsp_get(void);

#endif
