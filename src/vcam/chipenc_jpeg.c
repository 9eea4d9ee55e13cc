/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The JPEG-family chip formats' encoders for the virtual camera
 * (chipenc.h): PJPG and JL20 are the encoders the tests of tests/chip/jpeg
 * use, in src/vcam/chipenc_jpeg.h (one copy; this file only wraps them);
 * S401 takes its packet writer from there too, the picture -> code values
 * step is here.
 */
#include "vcam/chipenc.h"

#include <errno.h>
#include <linux/videodev2.h>
#include <pthread.h>

#include "vcam/chipenc_jpeg.h"

#ifndef V4L2_PIX_FMT_PJPG
#define V4L2_PIX_FMT_PJPG v4l2_fourcc('P', 'J', 'P', 'G')
#endif
#ifndef V4L2_PIX_FMT_JL2005BCD
#define V4L2_PIX_FMT_JL2005BCD v4l2_fourcc('J', 'L', '2', '0')
#endif
#ifndef V4L2_PIX_FMT_SE401
#define V4L2_PIX_FMT_SE401 v4l2_fourcc('S', '4', '0', '1')
#endif

static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

int v4lc_chipenc_jpeg_size_ok(uint32_t fourcc, int w, int h)
{
	switch (fourcc) {
	case V4L2_PIX_FMT_PJPG:
		return w >= 16 && h >= 8 && w % 16 == 0 && h % 8 == 0;
	case V4L2_PIX_FMT_JL2005BCD:
		return w >= 16 && h >= 16 && w % 16 == 0 && h % 16 == 0 &&
		       w / 8 < 256 && h / 8 < 256;
	case V4L2_PIX_FMT_SE401:
		return w >= 2 && h >= 2 && !((w | h) & 1);
	}
	return 0;
}

size_t v4lc_chipenc_jpeg_bound(uint32_t fourcc, int w, int h)
{
	size_t n = (size_t)w * (size_t)h;

	switch (fourcc) {
	case V4L2_PIX_FMT_PJPG:
	case V4L2_PIX_FMT_JL2005BCD:
		/* far above what these quantizers give; checked when encoding */
		return 3 * n + 4096;
	case V4L2_PIX_FMT_SE401:
		/* 3 values a pixel, at most 13 bits each; packet headers */
		return 5 * n + 8 * (size_t)h + 64;
	}
	return 0;
}

/* SE401 code values of an RGB24 picture, one packet a row. */
static uint8_t *se401(const uint8_t *rgb, int w, int h, size_t *len)
{
	int *vals = malloc(sizeof(int) * 3 * (size_t)w * (size_t)h);
	uint8_t *out;

	if (!vals)
		return NULL;
	for (int y = 0; y < h; y++) {
		int prev[3] = { 0, 0, 0 };

		for (int x = 0; x < w; x++)
			for (int c = 0; c < 3; c++) {
				size_t i = 3 * ((size_t)y * w + x) + (size_t)c;
				int d = rgb[i] - prev[c];
				/* nearest multiple of 8 (the step of a value) */
				int v = d >= 0 ? (d + 4) / 8 : -((-d + 3) / 8);

				/* no wrap modulo 256 */
				while (prev[c] + 8 * v > 255)
					v--;
				while (prev[c] + 8 * v < 0)
					v++;

				vals[i] = v;
				prev[c] = (prev[c] + 8 * v) & 255;
			}
	}
	out = ce_se401_encode(vals, w * h, w, len);
	free(vals);
	return out;
}

long v4lc_chipenc_jpeg(uint32_t fourcc, const uint8_t *img, int w, int h,
		       uint8_t *dst, size_t size)
{
	static const int markers[] = { 0x44 }, codes[] = { 1 };
	uint8_t *frame;
	size_t n = 0;

	if (!v4lc_chipenc_jpeg_size_ok(fourcc, w, h))
		return -EINVAL;
	pthread_once(&tables_once, ce_init_tables);
	switch (fourcc) {
	case V4L2_PIX_FMT_PJPG:
		frame = ce_pjpg_encode(img, w, h, markers, 1, codes, 1, &n);
		break;
	case V4L2_PIX_FMT_JL2005BCD:
		frame = ce_jl20_encode(img, w, h, 80, &n);
		break;
	default:
		frame = se401(img, w, h, &n);
		break;
	}
	if (!frame)
		return -ENOMEM;
	if (n > size) {
		free(frame);
		return -ENOSPC;
	}
	memcpy(dst, frame, n);
	free(frame);
	return (long)n;
}
