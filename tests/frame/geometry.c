/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Frame geometry: v4lc_frame_min_stride and v4lc_frame_bytes for every
 * format (hand-computed values and the layout rules of core/frame.h),
 * overflow, and the error codes of v4lc_frame_convert.
 */
#include <errno.h>
#include <limits.h>
#include <linux/videodev2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/frame.h"
#include "../common/check.h"

enum kind { PACKED, RGB, PLANAR, SEMI };

static const struct {
	uint32_t fourcc;
	const char *name;
	enum kind kind;
} formats[] = {
	{ V4L2_PIX_FMT_YUYV, "YUYV", PACKED },
	{ V4L2_PIX_FMT_YVYU, "YVYU", PACKED },
	{ V4L2_PIX_FMT_UYVY, "UYVY", PACKED },
	{ V4L2_PIX_FMT_VYUY, "VYUY", PACKED },
	{ V4L2_PIX_FMT_YUV420, "YU12", PLANAR },
	{ V4L2_PIX_FMT_YVU420, "YV12", PLANAR },
	{ V4L2_PIX_FMT_NV12, "NV12", SEMI },
	{ V4L2_PIX_FMT_NV21, "NV21", SEMI },
	{ V4L2_PIX_FMT_RGB24, "RGB3", RGB },
	{ V4L2_PIX_FMT_BGR24, "BGR3", RGB },
};
#define NFORMATS (int)(sizeof(formats) / sizeof(formats[0]))

/* The documented rules, in 64-bit arithmetic (test sizes are small). */
static long long ref_min_stride(enum kind k, long long w)
{
	switch (k) {
	case PACKED:
		return 4 * ((w + 1) / 2);
	case RGB:
		return 3 * w;
	case PLANAR:
		return w;
	default:
		return w + (w & 1);
	}
}

static long long ref_bytes(enum kind k, long long w, long long h,
			   long long stride)
{
	if (stride == 0)
		stride = ref_min_stride(k, w);
	switch (k) {
	case PLANAR:
		return stride * h + 2 * ((stride + 1) / 2) * ((h + 1) / 2);
	case SEMI:
		return stride * h + stride * ((h + 1) / 2);
	default:
		return stride * h;
	}
}

static void check_hand_values(void)
{
	/* A few values worked out by hand, independent of the rules above. */
	CHECK(v4lc_frame_min_stride(V4L2_PIX_FMT_YUYV, 1) == 4, "YUYV w1");
	CHECK(v4lc_frame_min_stride(V4L2_PIX_FMT_UYVY, 5) == 12, "UYVY w5");
	CHECK(v4lc_frame_min_stride(V4L2_PIX_FMT_RGB24, 7) == 21, "RGB w7");
	CHECK(v4lc_frame_min_stride(V4L2_PIX_FMT_YUV420, 7) == 7, "YU12 w7");
	CHECK(v4lc_frame_min_stride(V4L2_PIX_FMT_NV12, 7) == 8, "NV12 w7");
	CHECK(v4lc_frame_min_stride(V4L2_PIX_FMT_NV21, 8) == 8, "NV21 w8");
	CHECK(v4lc_frame_bytes(V4L2_PIX_FMT_YUV420, 640, 480, 0) == 460800,
	      "YU12 VGA");
	CHECK(v4lc_frame_bytes(V4L2_PIX_FMT_NV12, 640, 480, 0) == 460800,
	      "NV12 VGA");
	CHECK(v4lc_frame_bytes(V4L2_PIX_FMT_YUYV, 640, 480, 0) == 614400,
	      "YUYV VGA");
	CHECK(v4lc_frame_bytes(V4L2_PIX_FMT_BGR24, 640, 480, 0) == 921600,
	      "BGR3 VGA");
	/* 5x3 YU12: 15 luma + 2 * (3 * 2) chroma = 27 */
	CHECK(v4lc_frame_bytes(V4L2_PIX_FMT_YUV420, 5, 3, 0) == 27, "YU12 5x3");
	/* stride 9: 27 + 2 * (5 * 2) = 47 */
	CHECK(v4lc_frame_bytes(V4L2_PIX_FMT_YVU420, 5, 3, 9) == 47,
	      "YV12 5x3 s9");
	/* 5x3 NV21: stride 6, 18 + 12 = 30 */
	CHECK(v4lc_frame_bytes(V4L2_PIX_FMT_NV21, 5, 3, 0) == 30, "NV21 5x3");
	CHECK(v4lc_frame_bytes(V4L2_PIX_FMT_VYUY, 3, 1, 0) == 8, "VYUY 3x1");
}

static void check_rules(void)
{
	static const int sizes[] = { 1,   2,   3,   4,    5,    7,    8,   15,
				     16,  17,  31,  33,   63,   64,   65,  100,
				     101, 639, 640, 1279, 1920, 4095, 4096 };
	const int n = (int)(sizeof(sizes) / sizeof(sizes[0]));

	for (int f = 0; f < NFORMATS; f++) {
		enum kind k = formats[f].kind;

		for (int i = 0; i < n; i++) {
			int w = sizes[i];
			long long ms = ref_min_stride(k, w);

			CHECK(v4lc_frame_min_stride(formats[f].fourcc, w) == ms,
			      "%s min_stride(%d) = %d, want %lld",
			      formats[f].name, w,
			      v4lc_frame_min_stride(formats[f].fourcc, w), ms);
			for (int j = 0; j < n; j++) {
				int h = sizes[j];
				static const int pads[] = { 0, 1, 2, 3, 64 };

				CHECK(v4lc_frame_bytes(formats[f].fourcc, w, h,
						       0) ==
					      (size_t)ref_bytes(k, w, h, 0),
				      "%s bytes(%d, %d, 0)", formats[f].name, w,
				      h);
				for (int p = 0; p < 5; p++) {
					long long st = ms + pads[p];

					CHECK(v4lc_frame_bytes(formats[f]
								       .fourcc,
							       w, h, (int)st) ==
						      (size_t)ref_bytes(k, w, h,
									st),
					      "%s bytes(%d, %d, %lld)",
					      formats[f].name, w, h, st);
				}
				/* A stride below the minimum is bad geometry. */
				if (ms > 1)
					CHECK(v4lc_frame_bytes(formats[f]
								       .fourcc,
							       w, h,
							       (int)ms - 1) ==
						      0,
					      "%s short stride accepted",
					      formats[f].name);
			}
		}
		/* Bad sizes and strides. */
		CHECK(v4lc_frame_min_stride(formats[f].fourcc, 0) == 0,
		      "%s width 0", formats[f].name);
		CHECK(v4lc_frame_min_stride(formats[f].fourcc, -2) == 0,
		      "%s width -2", formats[f].name);
		CHECK(v4lc_frame_bytes(formats[f].fourcc, 0, 8, 0) == 0,
		      "%s bytes width 0", formats[f].name);
		CHECK(v4lc_frame_bytes(formats[f].fourcc, 8, 0, 0) == 0,
		      "%s bytes height 0", formats[f].name);
		CHECK(v4lc_frame_bytes(formats[f].fourcc, 8, -1, 0) == 0,
		      "%s bytes height -1", formats[f].name);
		CHECK(v4lc_frame_bytes(formats[f].fourcc, 8, 8, -64) == 0,
		      "%s bytes negative stride", formats[f].name);
	}
}

static void check_overflow(void)
{
	for (int f = 0; f < NFORMATS; f++) {
		uint32_t fc = formats[f].fourcc;
		enum kind k = formats[f].kind;
		long long ms = ref_min_stride(k, INT_MAX);

		/* min_stride: 0 exactly when the stride does not fit an int */
		CHECK(v4lc_frame_min_stride(fc, INT_MAX) ==
			      (ms > INT_MAX ? 0 : ms),
		      "%s min_stride(INT_MAX) = %d", formats[f].name,
		      v4lc_frame_min_stride(fc, INT_MAX));
		CHECK(v4lc_frame_min_stride(fc, INT_MAX / 3 + 1) ==
			      (ref_min_stride(k, INT_MAX / 3 + 1) > INT_MAX
				       ? 0
				       : ref_min_stride(k, INT_MAX / 3 + 1)),
		      "%s min_stride(INT_MAX/3+1)", formats[f].name);

		/*
		 * bytes of a (INT_MAX - 1) x INT_MAX frame: 0 when the exact
		 * size (which fits 64 bits) does not fit size_t, else exact.
		 */
		{
			unsigned long long exact;
			long long st =
				k == PLANAR || k == SEMI ? INT_MAX - 1 : 0;
			size_t got = v4lc_frame_bytes(fc, INT_MAX - 1, INT_MAX,
						      (int)st);
			long long mst = ref_min_stride(k, INT_MAX - 1);

			if (mst > INT_MAX) {
				CHECK(got == 0, "%s huge width accepted",
				      formats[f].name);
				continue;
			}
			if (st == 0)
				st = mst;
			exact = (unsigned long long)st * INT_MAX;
			if (k == PLANAR)
				exact += (unsigned long long)2 *
					 ((st + 1) / 2) *
					 (((long long)INT_MAX + 1) / 2);
			else if (k == SEMI)
				exact += (unsigned long long)st *
					 (((long long)INT_MAX + 1) / 2);
			if (exact > (unsigned long long)SIZE_MAX)
				CHECK(got == 0, "%s overflow not detected",
				      formats[f].name);
			else
				CHECK(got == (size_t)exact,
				      "%s huge frame size wrong",
				      formats[f].name);
		}
	}
	/* A 32-bit size_t must overflow on these; a 64-bit one must not. */
	if (sizeof(size_t) == 4) {
		CHECK(v4lc_frame_bytes(V4L2_PIX_FMT_RGB24, 40000, 40000, 0) ==
			      0,
		      "RGB 40000^2 on 32 bits");
		CHECK(v4lc_frame_bytes(V4L2_PIX_FMT_YUV420, 65536, 65536, 0) ==
			      0,
		      "YU12 65536^2 on 32 bits");
		CHECK(v4lc_frame_bytes(V4L2_PIX_FMT_NV12, 65536, 65535, 0) == 0,
		      "NV12 65536x65535 on 32 bits");
	} else {
		CHECK(v4lc_frame_bytes(V4L2_PIX_FMT_RGB24, 40000, 40000, 0) ==
			      4800000000ull,
		      "RGB 40000^2 on 64 bits");
	}
	CHECK(v4lc_frame_bytes(0x12345678, 16, 16, 0) == 0, "unknown fourcc");
	CHECK(v4lc_frame_min_stride(0x12345678, 16) == 0, "unknown fourcc");
	CHECK(v4lc_frame_min_stride(V4L2_PIX_FMT_MJPEG, 16) == 0, "MJPG");
}

static int conv(uint32_t sfc, int sw, int sh, int sst, uint8_t *sdata,
		size_t ssize, uint32_t dfc, int dw, int dh, int dst_,
		uint8_t *ddata, size_t dsize)
{
	struct v4lc_frame s = { sfc, sw, sh, sst, sdata, ssize };
	struct v4lc_frame d = { dfc, dw, dh, dst_, ddata, dsize };

	return v4lc_frame_convert(v4lc_dsp_get(), &s, &d, NULL);
}

static void check_convert_errors(void)
{
	static uint8_t a[1 << 16], b[1 << 16];
	const size_t rgb = v4lc_frame_bytes(V4L2_PIX_FMT_RGB24, 16, 8, 0);
	const size_t yu = v4lc_frame_bytes(V4L2_PIX_FMT_YUV420, 16, 8, 0);
	const uint32_t R = V4L2_PIX_FMT_RGB24, B = V4L2_PIX_FMT_BGR24;
	const uint32_t Y = V4L2_PIX_FMT_YUV420, V = V4L2_PIX_FMT_YVU420;
	struct v4lc_frame s = { R, 16, 8, 0, a, rgb };
	struct v4lc_frame d = { B, 16, 8, 0, b, rgb };

	/* Always supported (copies, swaps of the base build). */
	CHECK(conv(R, 16, 8, 0, a, rgb, R, 16, 8, 0, b, rgb) == 0, "RGB copy");
	CHECK(conv(Y, 16, 8, 0, a, yu, V, 16, 8, 0, b, yu) == 0, "YU12->YV12");
	CHECK(conv(R, 16, 8, 0, a, rgb, B, 16, 8, 0, b, rgb) == 0, "RGB->BGR");

	/* Buffers too small for their geometry: -EFAULT. */
	CHECK(conv(R, 16, 8, 0, a, rgb - 1, B, 16, 8, 0, b, rgb) == -EFAULT,
	      "short src");
	CHECK(conv(R, 16, 8, 0, a, rgb, B, 16, 8, 0, b, rgb - 1) == -EFAULT,
	      "short dst");
	CHECK(conv(R, 16, 8, 60, a, 60 * 8 - 1, B, 16, 8, 0, b, rgb) == -EFAULT,
	      "short strided src");
	CHECK(conv(Y, 16, 8, 0, a, yu, V, 16, 8, 20, b, yu) == -EFAULT,
	      "short strided YV12 dst");
	CHECK(conv(Y, 16, 8, 0, a, yu - 1, Y, 16, 8, 0, b, yu) == -EFAULT,
	      "YU12 missing the last chroma byte");
	CHECK(conv(R, 16, 8, 0, NULL, rgb, B, 16, 8, 0, b, rgb) == -EFAULT,
	      "NULL src data");
	CHECK(conv(R, 16, 8, 0, a, rgb, B, 16, 8, 0, NULL, rgb) == -EFAULT,
	      "NULL dst data");

	/* Unknown formats and unsupported pairs: -EINVAL. */
	CHECK(conv(0x12345678, 16, 8, 0, a, sizeof(a), R, 16, 8, 0, b, rgb) ==
		      -EINVAL,
	      "unknown src");
	CHECK(conv(R, 16, 8, 0, a, rgb, 0x12345678, 16, 8, 0, b, sizeof(b)) ==
		      -EINVAL,
	      "unknown dst");
	CHECK(conv(V4L2_PIX_FMT_MJPEG, 16, 8, 0, a, sizeof(a), R, 16, 8, 0, b,
		   rgb) == -EINVAL,
	      "MJPG src");
	CHECK(conv(R, 16, 8, 0, a, rgb, V4L2_PIX_FMT_YUYV, 16, 8, 0, b,
		   sizeof(b)) == -EINVAL,
	      "YUYV is no destination");
	CHECK(conv(R, 16, 8, 0, a, rgb, V4L2_PIX_FMT_NV12, 16, 8, 0, b,
		   sizeof(b)) == -EINVAL,
	      "NV12 is no destination");
	CHECK(conv(V4L2_PIX_FMT_UYVY, 16, 8, 0, a, sizeof(a), V4L2_PIX_FMT_YUYV,
		   16, 8, 0, b, sizeof(b)) == -EINVAL,
	      "UYVY->YUYV");

	/* Mismatched or bad geometry: -EINVAL, even with huge buffers. */
	CHECK(conv(R, 16, 8, 0, a, sizeof(a), B, 16, 9, 0, b, sizeof(b)) ==
		      -EINVAL,
	      "height mismatch");
	CHECK(conv(R, 16, 8, 0, a, sizeof(a), B, 15, 8, 0, b, sizeof(b)) ==
		      -EINVAL,
	      "width mismatch");
	CHECK(conv(R, 0, 8, 0, a, sizeof(a), B, 0, 8, 0, b, sizeof(b)) ==
		      -EINVAL,
	      "width 0");
	CHECK(conv(R, 16, -8, 0, a, sizeof(a), B, 16, -8, 0, b, sizeof(b)) ==
		      -EINVAL,
	      "negative height");
	CHECK(conv(R, 16, 8, 47, a, sizeof(a), B, 16, 8, 0, b, sizeof(b)) ==
		      -EINVAL,
	      "src stride below minimum");
	CHECK(conv(R, 16, 8, 0, a, sizeof(a), B, 16, 8, -48, b, sizeof(b)) ==
		      -EINVAL,
	      "negative dst stride");
	CHECK(conv(V4L2_PIX_FMT_NV12, 15, 8, 15, a, sizeof(a), Y, 15, 8, 0, b,
		   sizeof(b)) == -EINVAL,
	      "NV12 odd width needs an even stride");
	CHECK(conv(R, INT_MAX, 8, 0, a, sizeof(a), B, INT_MAX, 8, 0, b,
		   sizeof(b)) == -EINVAL,
	      "overflowing width");
	CHECK(v4lc_frame_convert(v4lc_dsp_get(), &s, NULL, NULL) == -EINVAL,
	      "NULL dst");
	CHECK(v4lc_frame_convert(v4lc_dsp_get(), NULL, &d, NULL) == -EINVAL,
	      "NULL src");
	CHECK(v4lc_frame_convert(NULL, &s, &d, NULL) == -EINVAL, "NULL dsp");
}

int main(void)
{
	check_hand_values();
	check_rules();
	check_overflow();
	check_convert_errors();
	if (failures) {
		printf("geometry: %d failure(s)\n", failures);
		return 1;
	}
	printf("geometry: all checks passed\n");
	return 0;
}
