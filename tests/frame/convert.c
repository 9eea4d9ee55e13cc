/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * v4lc_frame_convert against a naive per-pixel implementation written here
 * from the formulas documented in src/scalar/pixel.h (transcribed, not
 * included) and the layouts of core/frame.h: every format pair, odd and even
 * sizes, minimal and padded strides, three colour matrices. The destination
 * is pre-filled with a canary, so stride padding must stay untouched, and
 * every instruction-set tier the CPU has must give the identical frame.
 */
#include <errno.h>
#include <linux/videodev2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/frame.h"
#include "../common/check.h"
#include "../common/rng.h"

#define CANARY 0xA5

enum kind { PACKED, RGB, PLANAR, SEMI };

struct format {
	uint32_t fourcc;
	const char *name;
	enum kind kind;
	/* PACKED: byte offsets of Y0, U, Y1, V in a pair; RGB: 1 if BGR;
	 * PLANAR/SEMI: 1 if V comes first */
	int y0, u, y1, v;
	int alt;
};

static const struct format formats[] = {
	{ V4L2_PIX_FMT_YUYV, "YUYV", PACKED, 0, 1, 2, 3, 0 },
	{ V4L2_PIX_FMT_YVYU, "YVYU", PACKED, 0, 3, 2, 1, 0 },
	{ V4L2_PIX_FMT_UYVY, "UYVY", PACKED, 1, 0, 3, 2, 0 },
	{ V4L2_PIX_FMT_VYUY, "VYUY", PACKED, 1, 2, 3, 0, 0 },
	{ V4L2_PIX_FMT_YUV420, "YU12", PLANAR, 0, 0, 0, 0, 0 },
	{ V4L2_PIX_FMT_YVU420, "YV12", PLANAR, 0, 0, 0, 0, 1 },
	{ V4L2_PIX_FMT_NV12, "NV12", SEMI, 0, 0, 0, 0, 0 },
	{ V4L2_PIX_FMT_NV21, "NV21", SEMI, 0, 0, 0, 0, 1 },
	{ V4L2_PIX_FMT_RGB24, "RGB3", RGB, 0, 0, 0, 0, 0 },
	{ V4L2_PIX_FMT_BGR24, "BGR3", RGB, 0, 0, 0, 0, 1 },
};
#define NFORMATS (int)(sizeof(formats) / sizeof(formats[0]))

static int checked;

/* ------------------------------------------------------------------ */
/* Layout (core/frame.h), written out independently.                   */

struct layout {
	size_t stride, cstride, luma_bytes, chroma_bytes, total;
};

static size_t min_stride(const struct format *f, int w)
{
	switch (f->kind) {
	case PACKED:
		return 4 * (size_t)((w + 1) / 2);
	case RGB:
		return 3 * (size_t)w;
	case PLANAR:
		return (size_t)w;
	default:
		return (size_t)(w + (w & 1));
	}
}

static struct layout layout_of(const struct format *f, int w, int h,
			       size_t stride)
{
	struct layout l;
	size_t ch = (size_t)(h + 1) / 2;

	l.stride = stride ? stride : min_stride(f, w);
	l.luma_bytes = l.stride * (size_t)h;
	l.cstride = f->kind == PLANAR ? (l.stride + 1) / 2 : l.stride;
	l.chroma_bytes =
		f->kind == PLANAR || f->kind == SEMI ? l.cstride * ch : 0;
	l.total = l.luma_bytes + (f->kind == PLANAR ? 2 : 1) * l.chroma_bytes;
	return l;
}

/* Sample accessors. `which` 0 = U, 1 = V for chroma. */
static uint8_t *luma_px(const struct format *f, const struct layout *l,
			uint8_t *p, int x, int y)
{
	uint8_t *row = p + (size_t)y * l->stride;

	if (f->kind == PACKED)
		return row + 4 * (size_t)(x / 2) + (x & 1 ? f->y1 : f->y0);
	return row + x;
}

static uint8_t *chroma_px(const struct format *f, const struct layout *l,
			  uint8_t *p, int cx, int cy, int which)
{
	if (f->kind == PACKED) /* cy is a full row here */
		return p + (size_t)cy * l->stride + 4 * (size_t)cx +
		       (which ? f->v : f->u);
	if (f->kind == PLANAR) {
		int plane = which ^ f->alt;

		return p + l->luma_bytes + (size_t)plane * l->chroma_bytes +
		       (size_t)cy * l->cstride + cx;
	}
	return p + l->luma_bytes + (size_t)cy * l->cstride + 2 * (size_t)cx +
	       (which ^ f->alt);
}

static uint8_t *rgb_px(const struct format *f, const struct layout *l,
		       uint8_t *p, int x, int y, int c /* 0 R, 1 G, 2 B */)
{
	int pos = f->alt ? 2 - c : c;

	return p + (size_t)y * l->stride + 3 * (size_t)x + pos;
}

/* ------------------------------------------------------------------ */
/* The formulas of src/scalar/pixel.h, transcribed.                    */

/* floor(a * b / 65536) with a, b signed 16-bit values */
static int mulhi_signed(int a, int b)
{
	long p = (long)a * b;

	return p >= 0 ? (int)(p / 65536) : -(int)((-p + 65535) / 65536);
}

static unsigned mulhi_unsigned(unsigned a, unsigned b)
{
	return (unsigned)(((unsigned long)a * b) / 65536);
}

/* floor(x / 32) for possibly negative x */
static int floor_div32(int x)
{
	return x >= 0 ? x / 32 : -((-x + 31) / 32);
}

static uint8_t sat(int x)
{
	if (x < 0)
		return 0;
	if (x > 255)
		return 255;
	return (uint8_t)x;
}

static void ref_yuv2rgb(const struct v4lc_yuv2rgb *k, int Y, int U, int V,
			uint8_t rgb[3])
{
	int ys = mulhi_signed((Y - k->y_off) * 128, k->yk);
	int u8 = (U - 128) * 256, v8 = (V - 128) * 256;
	int cr = mulhi_signed(v8, k->vr);
	int cg = mulhi_signed(u8, k->ug) + mulhi_signed(v8, k->vg);
	int cb = mulhi_signed(u8, k->ub);

	rgb[0] = sat(floor_div32(ys + cr + 16));
	rgb[1] = sat(floor_div32(ys - cg + 16));
	rgb[2] = sat(floor_div32(ys + cb + 16));
}

static uint8_t ref_rgb2y(const struct v4lc_rgb2yuv *k, int r, int g, int b)
{
	unsigned s = mulhi_unsigned((unsigned)r * 256, k->yr) +
		     mulhi_unsigned((unsigned)g * 256, k->yg) +
		     mulhi_unsigned((unsigned)b * 256, k->yb) +
		     (unsigned)k->y_off * 256 + 128;

	return (uint8_t)(s / 256);
}

static void ref_rgb2uv(const struct v4lc_rgb2yuv *k, int sr, int sg, int sb,
		       uint8_t *u, uint8_t *v)
{
	unsigned su = (32896u + mulhi_unsigned((unsigned)sb * 64, k->ub) -
		       mulhi_unsigned((unsigned)sr * 64, k->ur) -
		       mulhi_unsigned((unsigned)sg * 64, k->ug)) %
		      65536u;
	unsigned sv = (32896u + mulhi_unsigned((unsigned)sr * 64, k->vr) -
		       mulhi_unsigned((unsigned)sg * 64, k->vg) -
		       mulhi_unsigned((unsigned)sb * 64, k->vb)) %
		      65536u;

	*u = (uint8_t)(su / 256);
	*v = (uint8_t)(sv / 256);
}

/* ------------------------------------------------------------------ */
/* Naive whole-frame reference.                                         */

/* YUV of pixel (x, y) as used for RGB output (chroma of its 2x1/2x2 cell). */
static void yuv_at(const struct format *f, const struct layout *l, uint8_t *p,
		   int x, int y, int yuv[3])
{
	int cy = f->kind == PACKED ? y : y / 2;

	yuv[0] = *luma_px(f, l, p, x, y);
	yuv[1] = *chroma_px(f, l, p, x / 2, cy, 0);
	yuv[2] = *chroma_px(f, l, p, x / 2, cy, 1);
}

/* Returns 0 when the pair is supported, with the expected frame in `d`. */
static int reference(const struct format *sf, const struct layout *sl,
		     uint8_t *s, const struct format *df,
		     const struct layout *dl, uint8_t *d, int w, int h,
		     const struct v4lc_colorimetry *c)
{
	struct v4lc_colorimetry zero = { 0, 0, 0 };
	int cw = (w + 1) / 2, ch = (h + 1) / 2;

	if (!c)
		c = &zero;

	if (sf == df) { /* same format: payload bytes of every row */
		for (int y = 0; y < h; y++)
			memcpy(d + (size_t)y * dl->stride,
			       s + (size_t)y * sl->stride,
			       min_stride(sf, w) - (sf->kind == SEMI
							    ? (size_t)(w & 1)
							    : 0));
		if (sf->kind == PLANAR)
			for (int pl = 0; pl < 2; pl++)
				for (int y = 0; y < ch; y++)
					memcpy(d + dl->luma_bytes +
						       pl * dl->chroma_bytes +
						       (size_t)y * dl->cstride,
					       s + sl->luma_bytes +
						       pl * sl->chroma_bytes +
						       (size_t)y * sl->cstride,
					       (size_t)cw);
		if (sf->kind == SEMI)
			for (int y = 0; y < ch; y++)
				memcpy(d + dl->luma_bytes +
					       (size_t)y * dl->cstride,
				       s + sl->luma_bytes +
					       (size_t)y * sl->cstride,
				       2 * (size_t)cw);
		return 0;
	}

	if (df->kind == RGB) {
		struct v4lc_yuv2rgb k;

		v4lc_yuv2rgb_init(&k, c);
		for (int y = 0; y < h; y++)
			for (int x = 0; x < w; x++) {
				uint8_t rgb[3];

				if (sf->kind == RGB) {
					for (int i = 0; i < 3; i++)
						rgb[i] = *rgb_px(sf, sl, s, x,
								 y, i);
				} else {
					int yuv[3];

					yuv_at(sf, sl, s, x, y, yuv);
					ref_yuv2rgb(&k, yuv[0], yuv[1], yuv[2],
						    rgb);
				}
				for (int i = 0; i < 3; i++)
					*rgb_px(df, dl, d, x, y, i) = rgb[i];
			}
		return 0;
	}
	if (df->kind != PLANAR)
		return -EINVAL;

	if (sf->kind == RGB) {
		struct v4lc_rgb2yuv k;

		v4lc_rgb2yuv_init(&k, c);
		for (int y = 0; y < h; y++)
			for (int x = 0; x < w; x++)
				*luma_px(df, dl, d, x, y) =
					ref_rgb2y(&k,
						  *rgb_px(sf, sl, s, x, y, 0),
						  *rgb_px(sf, sl, s, x, y, 1),
						  *rgb_px(sf, sl, s, x, y, 2));
		for (int by = 0; by < ch; by++)
			for (int bx = 0; bx < cw; bx++) {
				int xs[2] = { 2 * bx, 2 * bx + 1 < w
							      ? 2 * bx + 1
							      : 2 * bx };
				int ys[2] = { 2 * by, 2 * by + 1 < h
							      ? 2 * by + 1
							      : 2 * by };
				int sum[3] = { 0, 0, 0 };

				for (int i = 0; i < 2; i++)
					for (int j = 0; j < 2; j++)
						for (int cc = 0; cc < 3; cc++)
							sum[cc] +=
								*rgb_px(sf, sl,
									s,
									xs[j],
									ys[i],
									cc);
				ref_rgb2uv(&k, sum[0], sum[1], sum[2],
					   chroma_px(df, dl, d, bx, by, 0),
					   chroma_px(df, dl, d, bx, by, 1));
			}
		return 0;
	}

	/* YUV source to planar 4:2:0 */
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++)
			*luma_px(df, dl, d, x, y) = *luma_px(sf, sl, s, x, y);
	for (int by = 0; by < ch; by++)
		for (int bx = 0; bx < cw; bx++)
			for (int which = 0; which < 2; which++) {
				int val;

				if (sf->kind == PACKED) {
					int r0 = 2 * by;
					int r1 = r0 + 1 < h ? r0 + 1 : r0;

					val = (*chroma_px(sf, sl, s, bx, r0,
							  which) +
					       *chroma_px(sf, sl, s, bx, r1,
							  which) +
					       1) /
					      2;
				} else {
					val = *chroma_px(sf, sl, s, bx, by,
							 which);
				}
				*chroma_px(df, dl, d, bx, by, which) =
					(uint8_t)val;
			}
	return 0;
}

/* Whether the library converts the pair: to RGB and planar YUV from all. */
static int pair_possible(const struct format *sf, const struct format *df)
{
	return sf == df || df->kind == RGB || df->kind == PLANAR;
}

/* ------------------------------------------------------------------ */

static uint32_t rng = 0x2545f491u;

static uint8_t rnd8(void)
{
	return (uint8_t)(xorshift32(&rng) >> 24);
}

struct tier {
	unsigned flags;
	const char *name;
	struct v4lc_dsp dsp;
};

static struct tier tiers[8];
static int ntiers;

/* Scalar, then every tier of the build (dispatch/cpu.h) the CPU runs. */
static void init_tiers(void)
{
	unsigned have = v4lc_cpu_flags();

	tiers[0].name = "scalar";
	v4lc_dsp_init(&tiers[0].dsp, 0);
	ntiers = 1;
	for (size_t i = 0; v4lc_cpu_tiers[i].name; i++) {
		unsigned flags = v4lc_cpu_tiers[i].flags;

		if ((have & flags) != flags || ntiers == 8)
			continue;
		tiers[ntiers].flags = flags;
		tiers[ntiers].name = v4lc_cpu_tiers[i].name;
		v4lc_dsp_init(&tiers[ntiers].dsp, flags);
		ntiers++;
	}
}

static void first_diff(const uint8_t *want, const uint8_t *got, size_t n,
		       const struct layout *l, char *out, size_t outsz)
{
	for (size_t i = 0; i < n; i++)
		if (want[i] != got[i]) {
			const char *where =
				i < l->luma_bytes ? "plane 0" : "chroma";
			size_t off = i < l->luma_bytes ? i : i - l->luma_bytes;
			size_t st = i < l->luma_bytes ? l->stride : l->cstride;

			snprintf(
				out, outsz,
				"byte %zu (%s row %zu col %zu): want %u got %u",
				i, where, st ? off / st : 0, st ? off % st : 0,
				want[i], got[i]);
			return;
		}
	snprintf(out, outsz, "no difference");
}

static void run_case(const struct format *sf, const struct format *df, int w,
		     int h, int spad, int dpad,
		     const struct v4lc_colorimetry *c, const char *cname)
{
	size_t sstride = spad < 0 ? 0 : min_stride(sf, w) + (size_t)spad;
	size_t dstride = dpad < 0 ? 0 : min_stride(df, w) + (size_t)dpad;
	struct layout sl = layout_of(sf, w, h, sstride);
	struct layout dl = layout_of(df, w, h, dstride);
	uint8_t *s = malloc(sl.total), *want = malloc(dl.total);
	uint8_t *first = malloc(dl.total);
	int supported = pair_possible(sf, df);

	if (!s || !want || !first) {
		printf("out of memory\n");
		exit(2);
	}
	for (size_t i = 0; i < sl.total; i++)
		s[i] = rnd8();
	memset(want, CANARY, dl.total);
	if (supported && reference(sf, &sl, s, df, &dl, want, w, h, c) != 0) {
		printf("internal: no reference for %s->%s\n", sf->name,
		       df->name);
		exit(2);
	}

	for (int t = 0; t < ntiers; t++) {
		/* exact size: ASan sees any write past the frame */
		uint8_t *d = malloc(dl.total);
		struct v4lc_frame src = { sf->fourcc,   w, h,
					  (int)sstride, s, sl.total };
		struct v4lc_frame dst = { df->fourcc,   w, h,
					  (int)dstride, d, dl.total };
		int ret;

		if (!d) {
			printf("out of memory\n");
			exit(2);
		}
		memset(d, CANARY, dl.total);
		ret = v4lc_frame_convert(&tiers[t].dsp, &src, &dst, c);
		checked++;
		if (!supported) {
			CHECK(ret == -EINVAL,
			      "%s->%s %dx%d: unsupported pair returned %d",
			      sf->name, df->name, w, h, ret);
			free(d);
			continue;
		}
		CHECK(ret == 0,
		      "%s->%s %dx%d strides %zu/%zu %s [%s]: returned %d",
		      sf->name, df->name, w, h, sstride, dstride, cname,
		      tiers[t].name, ret);
		if (ret == 0 && memcmp(want, d, dl.total)) {
			char msg[160];

			first_diff(want, d, dl.total, &dl, msg, sizeof(msg));
			CHECK(0, "%s->%s %dx%d strides %zu/%zu %s [%s]: %s",
			      sf->name, df->name, w, h, sstride, dstride, cname,
			      tiers[t].name, msg);
		}
		if (t == 0) {
			memcpy(first, d, dl.total);
		} else {
			CHECK(!memcmp(first, d, dl.total),
			      "%s->%s %dx%d: tier %s differs from %s", sf->name,
			      df->name, w, h, tiers[t].name, tiers[0].name);
		}
		free(d);
	}
	free(s);
	free(want);
	free(first);
}

int main(void)
{
	static const int sizes[][2] = {
		{ 1, 1 },   { 2, 1 },   { 1, 4 },  { 2, 2 },
		{ 3, 5 },   { 5, 3 },   { 17, 9 }, { 33, 34 },
		{ 64, 48 }, { 130, 7 }, { 47, 1 },
	};
	/* -1 = stride 0 (minimal, implicit), then explicit padded strides */
	static const int pads[][2] = {
		{ -1, -1 }, { 0, 0 }, { 1, 3 }, { 16, 5 }, { 7, 64 }
	};
	static const struct v4lc_colorimetry c709full = {
		V4L2_COLORSPACE_REC709, V4L2_YCBCR_ENC_709,
		V4L2_QUANTIZATION_FULL_RANGE
	};
	static const struct v4lc_colorimetry c2020 = { V4L2_COLORSPACE_BT2020,
						       0, 0 };
	const struct {
		const struct v4lc_colorimetry *c;
		const char *name;
	} cms[] = { { NULL, "default" },
		    { &c709full, "709-full" },
		    { &c2020, "2020" } };

	init_tiers();
	printf("tiers:");
	for (int t = 0; t < ntiers; t++)
		printf(" %s", tiers[t].name);
	printf("\n");

	for (int a = 0; a < NFORMATS; a++)
		for (int b = 0; b < NFORMATS; b++) {
			const struct format *sf = &formats[a];
			const struct format *df = &formats[b];

			if (!pair_possible(sf, df)) {
				/* must be refused, one probe is enough */
				run_case(sf, df, 4, 2, 0, 0, NULL, "default");
				continue;
			}
			for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]);
			     i++)
				for (size_t p = 0;
				     p < sizeof(pads) / sizeof(pads[0]); p++)
					for (size_t m = 0;
					     m < sizeof(cms) / sizeof(cms[0]);
					     m++)
						run_case(sf, df, sizes[i][0],
							 sizes[i][1],
							 pads[p][0], pads[p][1],
							 cms[m].c, cms[m].name);
		}

	printf("convert: %d conversions checked, %d failure(s)\n", checked,
	       failures);
	return failures ? 1 : 0;
}
