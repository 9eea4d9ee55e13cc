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

static int cpia_size_ok(uint32_t fourcc, int w, int h)
{
	(void)fourcc;
	return v4lc_chipenc_cpia_size_ok(w, h);
}

static const struct v4lc_chipenc_family cpia = { cpia_size_ok, cpia_bound,
						 cpia_encode };

/* ---- OV511, OV518 ---- */

/* w x h in blocks of 16 x bh, within the original helpers' 500000-byte
 * output */
static int ov51x_size_ok(int w, int h, int bh)
{
	if (w < 16 || h < 16 || (size_t)w * (size_t)h * 3 / 2 > 500000)
		return 0;
	return w % 16 == 0 && h % bh == 0;
}

static int ov511_size_ok(uint32_t fourcc, int w, int h)
{
	(void)fourcc;
	return ov51x_size_ok(w, h, 16);
}

static int ov518_size_ok(uint32_t fourcc, int w, int h)
{
	(void)fourcc;
	return ov51x_size_ok(w, h, 8);
}

static size_t ov511_bound(uint32_t fourcc, int w, int h)
{
	(void)fourcc;
	/* records of <= 112 bytes */
	return (size_t)w * (size_t)h / 256 * 6 * 112 + 64;
}

static size_t ov518_bound(uint32_t fourcc, int w, int h)
{
	(void)fourcc;
	return 2 * (size_t)w * (size_t)h +
	       4096; /* far above these quantisers */
}

static long ov511_encode(uint32_t fourcc, const uint8_t *in, int w, int h,
			 uint32_t seq, uint8_t *dst, size_t size)
{
	size_t n = 0;
	uint8_t *f = v4lc_chipenc_ov511_image(in, w, h, &n);

	(void)fourcc;
	(void)seq;
	return deliver(f, n, dst, size);
}

static long ov518_encode(uint32_t fourcc, const uint8_t *in, int w, int h,
			 uint32_t seq, uint8_t *dst, size_t size)
{
	size_t n = 0;
	uint8_t *f = v4lc_chipenc_ov518_image(in, w, h, 2, &n);

	(void)fourcc;
	(void)seq;
	return deliver(f, n, dst, size);
}

static const struct v4lc_chipenc_family ov511 = { ov511_size_ok, ov511_bound,
						  ov511_encode };
static const struct v4lc_chipenc_family ov518 = { ov518_size_ok, ov518_bound,
						  ov518_encode };

/* ---- the Bayer chips ---- */

static int bayer_size_ok(uint32_t fourcc, int w, int h)
{
	(void)fourcc;
	return w >= 8 && h >= 2 && !((w | h) & 1);
}

static size_t bayer_bound(uint32_t fourcc, int w, int h)
{
	(void)fourcc;
	/* at most 16 bits a pixel, a 2-byte row header, an 80-byte header */
	return 80 + (size_t)h * (2 * (size_t)w + 2);
}

static size_t s680_bound(uint32_t fourcc, int w, int h)
{
	(void)fourcc;
	return (size_t)w * (size_t)h; /* a reordering: exactly the image */
}

static long bayer_run(v4lc_chipenc_bayer_fn *enc, const uint8_t *in, int w,
		      int h, uint32_t seq, uint8_t *dst, size_t size)
{
	size_t n = enc(in, w, h, dst, size, seq, NULL);

	if (!n)
		return -ENOMEM;
	return n > size ? -ENOSPC : (long)n;
}

/* The family bayer_<name> of a Bayer chip: its encoder v4lc_chipenc_<name>,
 * its bound. */
#define BAYER_CHIP(name, bound)                                                \
	static long bayer_##name##_encode(uint32_t fourcc, const uint8_t *in,  \
					  int w, int h, uint32_t seq,          \
					  uint8_t *dst, size_t size)           \
	{                                                                      \
		(void)fourcc;                                                  \
		return bayer_run(v4lc_chipenc_##name, in, w, h, seq, dst,      \
				 size);                                        \
	}                                                                      \
	static const struct v4lc_chipenc_family bayer_##name = {               \
		bayer_size_ok, bound, bayer_##name##_encode                    \
	};
BAYER_CHIP(s910, bayer_bound)
BAYER_CHIP(p207, bayer_bound)
BAYER_CHIP(s680, s680_bound)
BAYER_CHIP(sonx, bayer_bound)
BAYER_CHIP(m310, bayer_bound)
BAYER_CHIP(905c, bayer_bound)
BAYER_CHIP(s561, bayer_bound)
#undef BAYER_CHIP

/* ---- PJPG, JL20, S401 ---- */

static int pjpg_size_ok(uint32_t fourcc, int w, int h)
{
	(void)fourcc;
	return w >= 16 && h >= 8 && w % 16 == 0 && h % 8 == 0;
}

static int jl20_size_ok(uint32_t fourcc, int w, int h)
{
	(void)fourcc;
	return w >= 16 && h >= 16 && w % 16 == 0 && h % 16 == 0 &&
	       w / 8 < 256 && h / 8 < 256;
}

static int s401_size_ok(uint32_t fourcc, int w, int h)
{
	(void)fourcc;
	return w >= 2 && h >= 2 && !((w | h) & 1);
}

static size_t jpeg_bound(uint32_t fourcc, int w, int h)
{
	(void)fourcc;
	/* far above what these quantizers give; checked when encoding */
	return 3 * (size_t)w * (size_t)h + 4096;
}

static size_t s401_bound(uint32_t fourcc, int w, int h)
{
	(void)fourcc;
	/* 3 values a pixel, at most 13 bits each; packet headers */
	return 5 * (size_t)w * (size_t)h + 8 * (size_t)h + 64;
}

static long pjpg_encode(uint32_t fourcc, const uint8_t *in, int w, int h,
			uint32_t seq, uint8_t *dst, size_t size)
{
	static const int markers[] = { 0x44 }, codes[] = { 1 };
	size_t n = 0;
	uint8_t *frame =
		v4lc_chipenc_pjpg_encode(in, w, h, markers, 1, codes, 1, &n);

	(void)fourcc;
	(void)seq;
	return deliver(frame, n, dst, size);
}

static long jl20_encode(uint32_t fourcc, const uint8_t *in, int w, int h,
			uint32_t seq, uint8_t *dst, size_t size)
{
	size_t n = 0;
	uint8_t *frame = v4lc_chipenc_jl20_encode(in, w, h, 80, &n);

	(void)fourcc;
	(void)seq;
	return deliver(frame, n, dst, size);
}

static long s401_encode(uint32_t fourcc, const uint8_t *in, int w, int h,
			uint32_t seq, uint8_t *dst, size_t size)
{
	size_t n = 0;
	uint8_t *frame = v4lc_chipenc_se401_rgb(in, w, h, &n);

	(void)fourcc;
	(void)seq;
	return deliver(frame, n, dst, size);
}

static const struct v4lc_chipenc_family pjpg = { pjpg_size_ok, jpeg_bound,
						 pjpg_encode };
static const struct v4lc_chipenc_family jl20 = { jl20_size_ok, jpeg_bound,
						 jl20_encode };
static const struct v4lc_chipenc_family s401 = { s401_size_ok, s401_bound,
						 s401_encode };

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
	{ V4L2_PIX_FMT_OV511, YU12, 0, &ov511 },
	{ V4L2_PIX_FMT_OV518, YU12, 0, &ov518 },
	{ V4L2_PIX_FMT_SN9C10X, BAYER8, V4L2_PIX_FMT_SBGGR8, &bayer_s910 },
	{ V4L2_PIX_FMT_PAC207, BAYER8, V4L2_PIX_FMT_SBGGR8, &bayer_p207 },
	{ V4L2_PIX_FMT_STV0680, BAYER8, V4L2_PIX_FMT_SRGGB8, &bayer_s680 },
	{ V4L2_PIX_FMT_SN9C2028, BAYER8, V4L2_PIX_FMT_SBGGR8, &bayer_sonx },
	{ V4L2_PIX_FMT_MR97310A, BAYER8, V4L2_PIX_FMT_SBGGR8, &bayer_m310 },
	{ V4L2_PIX_FMT_SQ905C, BAYER8, V4L2_PIX_FMT_SRGGB8, &bayer_905c },
	{ V4L2_PIX_FMT_SPCA561, BAYER8, V4L2_PIX_FMT_SGBRG8, &bayer_s561 },
	{ V4L2_PIX_FMT_PJPG, RGB24, 0, &pjpg },
	{ V4L2_PIX_FMT_JL2005BCD, BAYER8, V4L2_PIX_FMT_SRGGB8, &jl20 },
	{ V4L2_PIX_FMT_SE401, RGB24, 0, &s401 },
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
