/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The chip formats' entries (chipenc.h): per family the sizes its encoder
 * takes, its largest frame, and the call of the encoder with the settings
 * a camera of the format would use.
 */
#include "vcam/chipenc.h"

#include <errno.h>
#include <linux/videodev2.h>
#include <stdlib.h>
#include <string.h>

#include "vcam/chipenc_bayer.h"
#include "vcam/chipenc_jpeg.h"
#include "vcam/chipenc_jpgl.h"
#include "vcam/chipenc_ov51x.h"

struct v4lc_chipenc_family {
	int (*size_ok)(uint32_t fourcc, int w, int h);
	size_t (*bound)(uint32_t fourcc, int w, int h);
	long (*encode)(uint32_t fourcc, const uint8_t *in, int w, int h,
		       uint32_t seq, uint8_t *dst, size_t size);
};

/* A frame made in its own buffer, into dst; frees it. */
static long deliver(uint8_t *frame, size_t n, uint8_t *dst, size_t size)
{
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

/* ---- the six fixed YUV 4:2:0 layouts ---- */

static size_t layout_bound(uint32_t fourcc, int w, int h)
{
	(void)fourcc;
	return (size_t)w * (size_t)h * 3 / 2;
}

static long layout_encode(uint32_t fourcc, const uint8_t *in, int w, int h,
			  uint32_t seq, uint8_t *dst, size_t size)
{
	(void)seq;
	return v4lc_chipenc_yuv(fourcc, in, w, h, dst, size);
}

static const struct v4lc_chipenc_family layouts = { v4lc_chipenc_yuv_size_ok,
						    layout_bound,
						    layout_encode };

/* ---- CPIA ---- */

static size_t cpia_bound(uint32_t fourcc, int w, int h)
{
	(void)fourcc;
	return v4lc_chipenc_cpia_bound(w, h);
}

static long cpia_encode(uint32_t fourcc, const uint8_t *in, int w, int h,
			uint32_t seq, uint8_t *dst, size_t size)
{
	struct v4lc_chipenc_cpia o = { (int)(seq & 1), NULL, NULL, NULL, 0, 0 };
	long n = v4lc_chipenc_cpia_encode(in, w, h, &o, dst, size);

	(void)fourcc;
	return n >= 0 && (size_t)n > size ? -ENOSPC : n;
}

static const struct v4lc_chipenc_family cpia = { v4lc_chipenc_yuv_size_ok,
						 cpia_bound, cpia_encode };

/* ---- OV511, OV518 ---- */

static int ov51x_size_ok(uint32_t fourcc, int w, int h)
{
	/* and within the original helpers' 500000-byte output */
	if (w < 16 || h < 16 || (size_t)w * (size_t)h * 3 / 2 > 500000)
		return 0;
	if (fourcc == V4L2_PIX_FMT_OV511)
		return w % 16 == 0 && h % 16 == 0;
	return w % 16 == 0 && h % 8 == 0;
}

static size_t ov51x_bound(uint32_t fourcc, int w, int h)
{
	size_t n = (size_t)w * (size_t)h;

	if (fourcc == V4L2_PIX_FMT_OV511)
		return n / 256 * 6 * 112 + 64; /* records of <= 112 bytes */
	return 2 * n + 4096;                   /* far above these quantisers */
}

static long ov51x_encode(uint32_t fourcc, const uint8_t *in, int w, int h,
			 uint32_t seq, uint8_t *dst, size_t size)
{
	size_t n = 0;
	uint8_t *f;

	(void)seq;
	f = fourcc == V4L2_PIX_FMT_OV511
		    ? v4lc_chipenc_ov511_image(in, w, h, &n)
		    : v4lc_chipenc_ov518_image(in, w, h, 2, &n);
	return deliver(f, n, dst, size);
}

static const struct v4lc_chipenc_family ov51x = { ov51x_size_ok, ov51x_bound,
						  ov51x_encode };

/* ---- the Bayer chips ---- */

static int bayer_size_ok(uint32_t fourcc, int w, int h)
{
	(void)fourcc;
	return w >= 8 && h >= 2 && !((w | h) & 1);
}

static size_t bayer_bound(uint32_t fourcc, int w, int h)
{
	size_t W = (size_t)w, H = (size_t)h;

	if (fourcc == V4L2_PIX_FMT_STV0680)
		return W * H; /* a reordering: exactly the image */
	/* at most 16 bits a pixel, a 2-byte row header, an 80-byte header */
	return 80 + H * (2 * W + 2);
}

static v4lc_chipenc_bayer_fn *bayer_encoder(uint32_t fourcc)
{
	switch (fourcc) {
	case V4L2_PIX_FMT_SN9C10X:
		return v4lc_chipenc_s910;
	case V4L2_PIX_FMT_PAC207:
		return v4lc_chipenc_p207;
	case V4L2_PIX_FMT_STV0680:
		return v4lc_chipenc_s680;
	case V4L2_PIX_FMT_SN9C2028:
		return v4lc_chipenc_sonx;
	case V4L2_PIX_FMT_MR97310A:
		return v4lc_chipenc_m310;
	case V4L2_PIX_FMT_SQ905C:
		return v4lc_chipenc_905c;
	default:
		return v4lc_chipenc_s561;
	}
}

static long bayer_encode(uint32_t fourcc, const uint8_t *in, int w, int h,
			 uint32_t seq, uint8_t *dst, size_t size)
{
	size_t n = bayer_encoder(fourcc)(in, w, h, dst, size, seq, NULL);

	if (!n)
		return -ENOMEM;
	return n > size ? -ENOSPC : (long)n;
}

static const struct v4lc_chipenc_family bayer = { bayer_size_ok, bayer_bound,
						  bayer_encode };

/* ---- PJPG, JL20, S401 ---- */

static int jpeg_size_ok(uint32_t fourcc, int w, int h)
{
	switch (fourcc) {
	case V4L2_PIX_FMT_PJPG:
		return w >= 16 && h >= 8 && w % 16 == 0 && h % 8 == 0;
	case V4L2_PIX_FMT_JL2005BCD:
		return w >= 16 && h >= 16 && w % 16 == 0 && h % 16 == 0 &&
		       w / 8 < 256 && h / 8 < 256;
	default: /* S401 */
		return w >= 2 && h >= 2 && !((w | h) & 1);
	}
}

static size_t jpeg_bound(uint32_t fourcc, int w, int h)
{
	size_t n = (size_t)w * (size_t)h;

	if (fourcc == V4L2_PIX_FMT_SE401)
		/* 3 values a pixel, at most 13 bits each; packet headers */
		return 5 * n + 8 * (size_t)h + 64;
	/* far above what these quantizers give; checked when encoding */
	return 3 * n + 4096;
}

static long jpeg_encode(uint32_t fourcc, const uint8_t *in, int w, int h,
			uint32_t seq, uint8_t *dst, size_t size)
{
	static const int markers[] = { 0x44 }, codes[] = { 1 };
	uint8_t *frame;
	size_t n = 0;

	(void)seq;
	if (fourcc == V4L2_PIX_FMT_PJPG)
		frame = v4lc_chipenc_pjpg_encode(in, w, h, markers, 1, codes, 1,
						 &n);
	else if (fourcc == V4L2_PIX_FMT_JL2005BCD)
		frame = v4lc_chipenc_jl20_encode(in, w, h, 80, &n);
	else
		frame = v4lc_chipenc_se401_rgb(in, w, h, &n);
	return deliver(frame, n, dst, size);
}

static const struct v4lc_chipenc_family jpeg = { jpeg_size_ok, jpeg_bound,
						 jpeg_encode };

/* ---- JPGL ---- */

static int jpgl_size_ok(uint32_t fourcc, int w, int h)
{
	(void)fourcc;
	return w >= 16 && h >= 4 && w % 16 == 0 && h % 4 == 0 && w <= 4096 &&
	       h <= 4096;
}

static size_t jpgl_bound(uint32_t fourcc, int w, int h)
{
	(void)fourcc;
	/* a block takes at most 11 + 15 * 16 + 2 bits: under 3 bytes a
	   pixel for six blocks a 64-pixel macroblock */
	return 3 * (size_t)w * (size_t)h + 64;
}

static long jpgl_encode(uint32_t fourcc, const uint8_t *in, int w, int h,
			uint32_t seq, uint8_t *dst, size_t size)
{
	size_t n = 0;
	uint8_t *frame;

	(void)fourcc;
	(void)seq;
	frame = v4lc_jpgl_encode(in, w, h, NULL, &n);
	return deliver(frame, n, dst, size);
}

static const struct v4lc_chipenc_family jpgl = { jpgl_size_ok, jpgl_bound,
						 jpgl_encode };

/* ---- the table ---- */

#define YU12 V4LC_CHIPENC_YU12
#define RGB24 V4LC_CHIPENC_RGB24
#define BAYER8 V4LC_CHIPENC_BAYER8

static const struct v4lc_chipenc chipencs[] = {
	{ V4L2_PIX_FMT_SPCA501, YU12, 0, &layouts },
	{ V4L2_PIX_FMT_SPCA505, YU12, 0, &layouts },
	{ V4L2_PIX_FMT_SPCA508, YU12, 0, &layouts },
	{ V4L2_PIX_FMT_CIT_YYVYUY, YU12, 0, &layouts },
	{ V4L2_PIX_FMT_KONICA420, YU12, 0, &layouts },
	{ V4L2_PIX_FMT_SN9C20X_I420, YU12, 0, &layouts },
	{ V4L2_PIX_FMT_CPIA1, YU12, 0, &cpia },
	{ V4L2_PIX_FMT_OV511, YU12, 0, &ov51x },
	{ V4L2_PIX_FMT_OV518, YU12, 0, &ov51x },
	{ V4L2_PIX_FMT_SN9C10X, BAYER8, V4L2_PIX_FMT_SBGGR8, &bayer },
	{ V4L2_PIX_FMT_PAC207, BAYER8, V4L2_PIX_FMT_SBGGR8, &bayer },
	{ V4L2_PIX_FMT_STV0680, BAYER8, V4L2_PIX_FMT_SRGGB8, &bayer },
	{ V4L2_PIX_FMT_SN9C2028, BAYER8, V4L2_PIX_FMT_SBGGR8, &bayer },
	{ V4L2_PIX_FMT_MR97310A, BAYER8, V4L2_PIX_FMT_SBGGR8, &bayer },
	{ V4L2_PIX_FMT_SQ905C, BAYER8, V4L2_PIX_FMT_SRGGB8, &bayer },
	{ V4L2_PIX_FMT_SPCA561, BAYER8, V4L2_PIX_FMT_SGBRG8, &bayer },
	{ V4L2_PIX_FMT_PJPG, RGB24, 0, &jpeg },
	{ V4L2_PIX_FMT_JL2005BCD, BAYER8, V4L2_PIX_FMT_SRGGB8, &jpeg },
	{ V4L2_PIX_FMT_SE401, RGB24, 0, &jpeg },
	{ V4L2_PIX_FMT_JPGL, RGB24, 0, &jpgl },
};

const struct v4lc_chipenc *v4lc_chipenc_at(size_t i)
{
	return i < sizeof(chipencs) / sizeof(chipencs[0]) ? &chipencs[i] : NULL;
}

const struct v4lc_chipenc *v4lc_chipenc_find(uint32_t fourcc)
{
	const struct v4lc_chipenc *e;

	for (size_t i = 0; (e = v4lc_chipenc_at(i)); i++)
		if (e->fourcc == fourcc)
			return e;
	return NULL;
}

int v4lc_chipenc_size_ok(const struct v4lc_chipenc *e, int w, int h)
{
	return e->family->size_ok(e->fourcc, w, h);
}

size_t v4lc_chipenc_bound(const struct v4lc_chipenc *e, int w, int h)
{
	return e->family->bound(e->fourcc, w, h);
}

long v4lc_chipenc_encode(const struct v4lc_chipenc *e, const uint8_t *in, int w,
			 int h, uint32_t seq, uint8_t *dst, size_t size)
{
	if (!v4lc_chipenc_size_ok(e, w, h))
		return -EINVAL;
	return e->family->encode(e->fourcc, in, w, h, seq, dst, size);
}
