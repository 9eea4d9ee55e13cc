/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The virtual camera's frame geometry (see vcam.h): bytesperline and
 * sizeimage per format, the sizes the chip formats are offered in, the
 * sizes the renderer takes, the colorspace reported.
 */
#include "vcam/vcam.h"

#include <linux/videodev2.h>
#include <turbojpeg.h>

#include "vcam/chipenc.h"
#include "vcam/priv.h"

uint32_t v4lc_vcam_bytesperline(uint32_t fourcc, int w)
{
	switch (fourcc) {
	case V4L2_PIX_FMT_YUYV:
	case V4L2_PIX_FMT_YVYU:
	case V4L2_PIX_FMT_UYVY:
	case V4L2_PIX_FMT_VYUY:
		return 2u * (uint32_t)w;
	case V4L2_PIX_FMT_YUV420:
	case V4L2_PIX_FMT_YVU420:
	case V4L2_PIX_FMT_NV12:
	case V4L2_PIX_FMT_NV21:
	case V4L2_PIX_FMT_GREY:
	case V4L2_PIX_FMT_SBGGR8:
	case V4L2_PIX_FMT_SGBRG8:
	case V4L2_PIX_FMT_SGRBG8:
	case V4L2_PIX_FMT_SRGGB8:
		return (uint32_t)w;
	case V4L2_PIX_FMT_RGB24:
	case V4L2_PIX_FMT_BGR24:
		return 3u * (uint32_t)w;
	case V4L2_PIX_FMT_MJPEG:
	case V4L2_PIX_FMT_JPEG:
		return 0;
	}
	/* The chip formats: width, as their (gspca) drivers report. */
	if (v4lc_vcam_is_chip(fourcc))
		return (uint32_t)w;
	return 0;
}

uint32_t v4lc_vcam_sizeimage(uint32_t fourcc, int w, int h)
{
	const struct v4lc_chipenc *e = v4lc_chipenc_find(fourcc);
	uint32_t wh = (uint32_t)w * (uint32_t)h;

	switch (fourcc) {
	case V4L2_PIX_FMT_YUV420:
	case V4L2_PIX_FMT_YVU420:
	case V4L2_PIX_FMT_NV12:
	case V4L2_PIX_FMT_NV21:
		return wh + wh / 2;
	case V4L2_PIX_FMT_MJPEG:
	case V4L2_PIX_FMT_JPEG:
		/* libjpeg-turbo's worst case for 4:2:2. */
		return (uint32_t)tjBufSize(w, h, TJSAMP_422);
	}
	/* A chip format: its encoder's largest frame (CPIA: a frame without
	 * skips, the largest the camera sends). */
	if (e)
		return (uint32_t)v4lc_chipenc_bound(e, w, h);
	return v4lc_vcam_bytesperline(fourcc, w) * (uint32_t)h;
}

/*
 * The chip formats: the frame sizes each offers (modes of the cameras that
 * send it), and the sizes its encoder accepts.
 */
struct chip_sizes {
	uint32_t fourcc;
	int n;
	int sizes[6][2];
};

static const struct chip_sizes chip_sizes[] = {
	{ V4L2_PIX_FMT_SPCA501,
	  3,
	  { { 160, 120 }, { 320, 240 }, { 640, 480 } } },
	{ V4L2_PIX_FMT_SPCA505,
	  5,
	  { { 160, 120 },
	    { 176, 144 },
	    { 320, 240 },
	    { 352, 288 },
	    { 640, 480 } } },
	{ V4L2_PIX_FMT_SPCA508,
	  4,
	  { { 160, 120 }, { 176, 144 }, { 320, 240 }, { 352, 288 } } },
	{ V4L2_PIX_FMT_CIT_YYVYUY,
	  4,
	  { { 160, 120 }, { 176, 144 }, { 320, 240 }, { 352, 288 } } },
	{ V4L2_PIX_FMT_KONICA420, 2, { { 160, 120 }, { 320, 240 } } },
	{ V4L2_PIX_FMT_SN9C20X_I420,
	  4,
	  { { 160, 120 }, { 320, 240 }, { 640, 480 }, { 1280, 1024 } } },
	{ V4L2_PIX_FMT_CPIA1,
	  4,
	  { { 160, 120 }, { 176, 144 }, { 320, 240 }, { 352, 288 } } },
	{ V4L2_PIX_FMT_SN9C10X,
	  3,
	  { { 160, 120 }, { 320, 240 }, { 640, 480 } } },
	{ V4L2_PIX_FMT_PAC207, 2, { { 176, 144 }, { 352, 288 } } },
	{ V4L2_PIX_FMT_STV0680,
	  4,
	  { { 160, 120 }, { 176, 144 }, { 320, 240 }, { 352, 288 } } },
	{ V4L2_PIX_FMT_SN9C2028,
	  3,
	  { { 160, 120 }, { 320, 240 }, { 640, 480 } } },
	{ V4L2_PIX_FMT_MR97310A,
	  5,
	  { { 160, 120 },
	    { 176, 144 },
	    { 320, 240 },
	    { 352, 288 },
	    { 640, 480 } } },
	{ V4L2_PIX_FMT_SQ905C, 2, { { 320, 240 }, { 640, 480 } } },
	/* the SPCA561 rev 012A sends S561 in these modes only */
	{ V4L2_PIX_FMT_SPCA561, 2, { { 320, 240 }, { 352, 288 } } },
	{ V4L2_PIX_FMT_PJPG, 3, { { 160, 120 }, { 320, 240 }, { 640, 480 } } },
	{ V4L2_PIX_FMT_JL2005BCD, 2, { { 320, 240 }, { 640, 480 } } },
	{ V4L2_PIX_FMT_SE401, 3, { { 160, 120 }, { 320, 240 }, { 640, 480 } } },
	{ V4L2_PIX_FMT_OV511,
	  4,
	  { { 176, 144 }, { 320, 240 }, { 352, 288 }, { 640, 480 } } },
	{ V4L2_PIX_FMT_OV518,
	  5,
	  { { 160, 120 },
	    { 176, 144 },
	    { 320, 240 },
	    { 352, 288 },
	    { 640, 480 } } },
	/* nw800: 352x288; nw801/nw802: 320x240, some 640x480 */
	{ V4L2_PIX_FMT_JPGL, 3, { { 320, 240 }, { 352, 288 }, { 640, 480 } } },
};

static const struct chip_sizes *find_chip(uint32_t fourcc)
{
	for (size_t i = 0; i < sizeof(chip_sizes) / sizeof(chip_sizes[0]); i++)
		if (chip_sizes[i].fourcc == fourcc)
			return &chip_sizes[i];
	return NULL;
}

int v4lc_vcam_is_chip(uint32_t fourcc)
{
	return find_chip(fourcc) != NULL;
}

int v4lc_vcam_chip_sizes(uint32_t fourcc, const int (**sizes)[2])
{
	const struct chip_sizes *c = find_chip(fourcc);

	if (!c)
		return 0;
	*sizes = c->sizes;
	return c->n;
}

int v4lc_vcam_size_ok(uint32_t fourcc, int w, int h)
{
	const struct v4lc_chipenc *e = v4lc_chipenc_find(fourcc);

	if (w < 2 || h < 2 || w > 8192 || h > 8192 || (w & 1) || (h & 1))
		return 0;
	return !e || v4lc_chipenc_size_ok(e, w, h);
}

uint32_t v4lc_vcam_colorspace(uint32_t fourcc)
{
	switch (fourcc) {
	case V4L2_PIX_FMT_RGB24:
	case V4L2_PIX_FMT_BGR24:
	case V4L2_PIX_FMT_SBGGR8:
	case V4L2_PIX_FMT_SGBRG8:
	case V4L2_PIX_FMT_SGRBG8:
	case V4L2_PIX_FMT_SRGGB8:
	case V4L2_PIX_FMT_SN9C10X:
	case V4L2_PIX_FMT_PAC207:
	case V4L2_PIX_FMT_STV0680:
	case V4L2_PIX_FMT_SN9C2028:
	case V4L2_PIX_FMT_MR97310A:
	case V4L2_PIX_FMT_SQ905C:
	case V4L2_PIX_FMT_SPCA561:
	case V4L2_PIX_FMT_JL2005BCD:
	case V4L2_PIX_FMT_SE401:
	case V4L2_PIX_FMT_JPGL:
		return V4L2_COLORSPACE_SRGB;
	case V4L2_PIX_FMT_MJPEG:
	case V4L2_PIX_FMT_JPEG:
	case V4L2_PIX_FMT_PJPG:
		return V4L2_COLORSPACE_JPEG;
	}
	return V4L2_COLORSPACE_DEFAULT;
}
