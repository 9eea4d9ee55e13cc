/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The virtual camera's picture: an RGB24 test pattern, deterministic for a
 * sequence number, converted to each format the camera offers.
 */
#include "vcam/vcam.h"
#include "vcam/lens.h"
#include "vcam/chipenc.h"
#include "vcam/chipenc_jpgl.h"
#include "vcam/chipenc_ov51x.h"

#include <errno.h>
#include <linux/videodev2.h>
#include <stdlib.h>
#include <string.h>
#include <turbojpeg.h>

#include "core/colour.h"
#include "core/frame.h"
#include "dispatch/dsp.h"
#include "scalar/pixel.h"

#ifndef V4L2_PIX_FMT_PJPG
#define V4L2_PIX_FMT_PJPG v4l2_fourcc('P', 'J', 'P', 'G')
#endif
#ifndef V4L2_PIX_FMT_JL2005BCD
#define V4L2_PIX_FMT_JL2005BCD v4l2_fourcc('J', 'L', '2', '0')
#endif
#ifndef V4L2_PIX_FMT_SE401
#define V4L2_PIX_FMT_SE401 v4l2_fourcc('S', '4', '0', '1')
#endif
#ifndef V4L2_PIX_FMT_OV511
#define V4L2_PIX_FMT_OV511 v4l2_fourcc('O', '5', '1', '1')
#endif
#ifndef V4L2_PIX_FMT_OV518
#define V4L2_PIX_FMT_OV518 v4l2_fourcc('O', '5', '1', '8')
#endif
#ifndef V4L2_PIX_FMT_JPGL
#define V4L2_PIX_FMT_JPGL v4l2_fourcc('J', 'P', 'G', 'L')
#endif

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
	case V4L2_PIX_FMT_SPCA501:
	case V4L2_PIX_FMT_SPCA505:
	case V4L2_PIX_FMT_SPCA508:
	case V4L2_PIX_FMT_CIT_YYVYUY:
	case V4L2_PIX_FMT_KONICA420:
	case V4L2_PIX_FMT_SN9C20X_I420:
		return wh + wh / 2;
	case V4L2_PIX_FMT_CPIA1:
		/* A frame with no skips, the largest the camera sends. */
		return (uint32_t)v4lc_chipenc_cpia_bound(w, h);
	case V4L2_PIX_FMT_JPGL:
		return (uint32_t)v4lc_chipenc_jpgl_bound(w, h);
	}
	if (v4lc_chipenc_bayer_order(fourcc))
		return (uint32_t)v4lc_chipenc_bayer_bound(fourcc, w, h);
	if (v4lc_chipenc_jpeg_bound(fourcc, w, h))
		return (uint32_t)v4lc_chipenc_jpeg_bound(fourcc, w, h);
	if (v4lc_chipenc_ov51x_bound(fourcc, w, h))
		return (uint32_t)v4lc_chipenc_ov51x_bound(fourcc, w, h);
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
	{ V4L2_PIX_FMT_SPCA501, 3, { { 160, 120 }, { 320, 240 }, { 640, 480 } } },
	{ V4L2_PIX_FMT_SPCA505, 5, { { 160, 120 }, { 176, 144 }, { 320, 240 },
				     { 352, 288 }, { 640, 480 } } },
	{ V4L2_PIX_FMT_SPCA508, 4, { { 160, 120 }, { 176, 144 }, { 320, 240 },
				     { 352, 288 } } },
	{ V4L2_PIX_FMT_CIT_YYVYUY, 4, { { 160, 120 }, { 176, 144 }, { 320, 240 },
					{ 352, 288 } } },
	{ V4L2_PIX_FMT_KONICA420, 2, { { 160, 120 }, { 320, 240 } } },
	{ V4L2_PIX_FMT_SN9C20X_I420, 4, { { 160, 120 }, { 320, 240 },
					  { 640, 480 }, { 1280, 1024 } } },
	{ V4L2_PIX_FMT_CPIA1, 4, { { 160, 120 }, { 176, 144 }, { 320, 240 },
				   { 352, 288 } } },
	{ V4L2_PIX_FMT_SN9C10X, 3, { { 160, 120 }, { 320, 240 }, { 640, 480 } } },
	{ V4L2_PIX_FMT_PAC207, 2, { { 176, 144 }, { 352, 288 } } },
	{ V4L2_PIX_FMT_STV0680, 4, { { 160, 120 }, { 176, 144 }, { 320, 240 },
				     { 352, 288 } } },
	{ V4L2_PIX_FMT_SN9C2028, 3, { { 160, 120 }, { 320, 240 }, { 640, 480 } } },
	{ V4L2_PIX_FMT_MR97310A, 5, { { 160, 120 }, { 176, 144 }, { 320, 240 },
				      { 352, 288 }, { 640, 480 } } },
	{ V4L2_PIX_FMT_SQ905C, 2, { { 320, 240 }, { 640, 480 } } },
	/* the SPCA561 rev 012A sends S561 in these modes only */
	{ V4L2_PIX_FMT_SPCA561, 2, { { 320, 240 }, { 352, 288 } } },
	{ V4L2_PIX_FMT_PJPG, 3, { { 160, 120 }, { 320, 240 }, { 640, 480 } } },
	{ V4L2_PIX_FMT_JL2005BCD, 2, { { 320, 240 }, { 640, 480 } } },
	{ V4L2_PIX_FMT_SE401, 3, { { 160, 120 }, { 320, 240 }, { 640, 480 } } },
	{ V4L2_PIX_FMT_OV511, 4, { { 176, 144 }, { 320, 240 }, { 352, 288 },
				   { 640, 480 } } },
	{ V4L2_PIX_FMT_OV518, 5, { { 160, 120 }, { 176, 144 }, { 320, 240 },
				   { 352, 288 }, { 640, 480 } } },
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
	if (w < 2 || h < 2 || w > 8192 || h > 8192 || (w & 1) || (h & 1))
		return 0;
	if (v4lc_chipenc_bayer_order(fourcc))
		return w >= 8;
	if (v4lc_chipenc_jpeg_bound(fourcc, w, h))
		return v4lc_chipenc_jpeg_size_ok(fourcc, w, h);
	if (fourcc == V4L2_PIX_FMT_JPGL)
		return v4lc_chipenc_jpgl_size_ok(w, h);
	if (v4lc_chipenc_ov51x_bound(fourcc, w, h))
		return v4lc_chipenc_ov51x_size_ok(fourcc, w, h);
	if (find_chip(fourcc))
		return v4lc_chipenc_yuv_size_ok(fourcc, w, h);
	return 1;
}

/* 75% colour bars: white, yellow, cyan, green, magenta, red, blue, black. */
static const uint8_t bars[8][3] = {
	{ 191, 191, 191 }, { 191, 191, 0 }, { 0, 191, 191 }, { 0, 191, 0 },
	{ 191, 0, 191 },   { 191, 0, 0 },   { 0, 0, 191 },   { 0, 0, 0 },
};

/*
 * The pattern, upright: 75% colour bars over rows [0, 3h/4), a grey ramp
 * (left dark, right bright) below, with a red tint on rows [3h/4, 7h/8);
 * a square of side h/8 whose top-left corner bounces along both axes with
 * the sequence number, white with a black top-left quadrant (any flip
 * shows). Rows are built from per-frame templates.
 */
static void pattern_rgb(uint8_t *dst, int w, int h, uint32_t seq,
			unsigned flip)
{
	size_t row_bytes = 3 * (size_t)w;
	uint8_t *tpl = malloc(3 * row_bytes);
	int side = h / 8 > 2 ? h / 8 : 2;
	int rx = w - side, ry = h * 3 / 4 - side;
	/* The square moves a few pixels per frame and bounces at the edges. */
	uint32_t px = rx > 0 ? (seq * 7u) % (2u * (uint32_t)rx) : 0;
	uint32_t py = ry > 0 ? (seq * 3u) % (2u * (uint32_t)ry) : 0;
	int sx = px > (uint32_t)rx ? 2 * rx - (int)px : (int)px;
	int sy = py > (uint32_t)ry ? 2 * ry - (int)py : (int)py;

	if (!tpl) {
		memset(dst, 0, row_bytes * (size_t)h);
		return;
	}
	/* Templates: bars, tinted ramp, ramp (already mirrored for hflip). */
	for (int x = 0; x < w; x++) {
		int ux = flip & V4LC_VCAM_HFLIP ? w - 1 - x : x;
		uint8_t g = (uint8_t)(w > 1 ? (ux * 255) / (w - 1) : 0);
		uint8_t *b = tpl + 3 * (size_t)x;
		uint8_t *t = b + row_bytes, *r = t + row_bytes;

		memcpy(b, bars[(ux * 8) / w], 3);
		t[0] = (uint8_t)(255 - g / 2);
		t[1] = t[2] = g;
		r[0] = r[1] = r[2] = g;
	}
	for (int y = 0; y < h; y++) {
		int uy = flip & V4LC_VCAM_VFLIP ? h - 1 - y : y;
		uint8_t *row = dst + (size_t)y * row_bytes;
		int k = uy < h * 3 / 4 ? 0 : uy < h * 7 / 8 ? 1 : 2;

		memcpy(row, tpl + (size_t)k * row_bytes, row_bytes);
		if (uy < sy || uy >= sy + side)
			continue;
		for (int ux = sx; ux < sx + side; ux++) {
			int x = flip & V4LC_VCAM_HFLIP ? w - 1 - ux : ux;
			int dark = ux < sx + side / 2 && uy < sy + side / 2;

			memset(row + 3 * (size_t)x, dark ? 16 : 235, 3);
		}
	}
	free(tpl);
}

/* Packed 4:2:2 from RGB24 with the formulas of src/scalar/pixel.h. */
static void rgb_to_packed422(const uint8_t *rgb, uint8_t *dst, int w, int h,
			     uint32_t fourcc)
{
	struct v4lc_colorimetry c = { 0, 0, 0 };
	struct v4lc_rgb2yuv k;
	int iy0, iu, iy1, iv;

	v4lc_rgb2yuv_init(&k, &c);
	switch (fourcc) {
	case V4L2_PIX_FMT_YUYV: iy0 = 0; iu = 1; iy1 = 2; iv = 3; break;
	case V4L2_PIX_FMT_YVYU: iy0 = 0; iv = 1; iy1 = 2; iu = 3; break;
	case V4L2_PIX_FMT_UYVY: iu = 0; iy0 = 1; iv = 2; iy1 = 3; break;
	default:                iv = 0; iy0 = 1; iu = 2; iy1 = 3; break;
	}
	for (int y = 0; y < h; y++) {
		const uint8_t *s = rgb + (size_t)y * 3 * (size_t)w;
		uint8_t *d = dst + (size_t)y * 2 * (size_t)w;

		for (int x = 0; x < w; x += 2, s += 6, d += 4) {
			/* Both pixels count twice: the 2x2 sum of pixel.h. */
			d[iy0] = v4lc_rgb_to_y(&k, s[0], s[1], s[2]);
			d[iy1] = v4lc_rgb_to_y(&k, s[3], s[4], s[5]);
			v4lc_rgb_to_uv(&k, 2 * (s[0] + s[3]), 2 * (s[1] + s[4]),
				       2 * (s[2] + s[5]), &d[iu], &d[iv]);
		}
	}
}

/* Copy a JPEG without its DHT segments. Returns the bytes written or -1. */
static long strip_dht(const uint8_t *src, size_t n, uint8_t *dst, size_t size)
{
	size_t i = 2, o = 2;

	if (n < 4 || src[0] != 0xff || src[1] != 0xd8 || size < 2)
		return -1;
	dst[0] = 0xff;
	dst[1] = 0xd8;
	while (i + 4 <= n) {
		size_t len;

		if (src[i] != 0xff)
			return -1;
		len = 2 + ((size_t)src[i + 2] << 8 | src[i + 3]);
		if (src[i + 1] == 0xda) /* SOS: the rest is entropy data */
			len = n - i;
		if (i + len > n)
			return -1;
		if (src[i + 1] != 0xc4) {
			if (o + len > size)
				return -1;
			memcpy(dst + o, src + i, len);
			o += len;
		}
		if (src[i + 1] == 0xda)
			return (long)o;
		i += len;
	}
	return -1;
}

static int render_jpeg(const uint8_t *rgb, int w, int h, uint8_t *dst,
		       size_t size)
{
	tjhandle tj = tjInitCompress();
	unsigned char *jpeg = NULL;
	unsigned long jsize = 0;
	long n;

	if (!tj)
		return -ENOMEM;
	if (tjCompress2(tj, rgb, w, 3 * w, h, TJPF_RGB, &jpeg, &jsize,
			TJSAMP_422, 80, TJFLAG_ACCURATEDCT) != 0) {
		tjFree(jpeg);
		tjDestroy(tj);
		return -EIO;
	}
	n = strip_dht(jpeg, jsize, dst, size);
	tjFree(jpeg);
	tjDestroy(tj);
	if (n < 0)
		return jsize > size ? -ENOSPC : -EIO;
	return (int)n;
}

static int bayer_order(uint32_t fourcc, const char **order)
{
	switch (fourcc) {
	case V4L2_PIX_FMT_SBGGR8: *order = "BGGR"; return 1;
	case V4L2_PIX_FMT_SGBRG8: *order = "GBRG"; return 1;
	case V4L2_PIX_FMT_SGRBG8: *order = "GRBG"; return 1;
	case V4L2_PIX_FMT_SRGGB8: *order = "RGGB"; return 1;
	}
	return 0;
}

/* Sample the RGB picture on a Bayer grid of the given 8-bit order. */
static void rgb_to_bayer(const uint8_t *rgb, uint8_t *dst, int w, int h,
			 const char *order)
{
	for (int y = 0; y < h; y++) {
		for (int x = 0; x < w; x++) {
			char c = order[(y & 1) * 2 + (x & 1)];
			int ch = c == 'R' ? 0 : c == 'G' ? 1 : 2;
			size_t i = (size_t)y * (size_t)w + (size_t)x;

			dst[i] = rgb[3 * i + (size_t)ch];
		}
	}
}

int v4lc_vcam_render_flip(uint32_t fourcc, int w, int h, uint32_t seq,
			  unsigned flip, uint8_t *dst, size_t size)
{
	return v4lc_vcam_render_optics(fourcc, w, h, seq, flip, NULL, dst,
				       size);
}

int v4lc_vcam_render_optics(uint32_t fourcc, int w, int h, uint32_t seq,
			    unsigned flip, const struct v4lc_vcam_optics *o,
			    uint8_t *dst, size_t size)
{
	uint32_t need = v4lc_vcam_sizeimage(fourcc, w, h);
	size_t rgb_size, n = (size_t)w * (size_t)h;
	uint8_t *rgb;
	const char *order;
	int ret = 0;

	if (!v4lc_vcam_size_ok(fourcc, w, h) || !need)
		return -EINVAL;
	if (fourcc != V4L2_PIX_FMT_MJPEG && fourcc != V4L2_PIX_FMT_JPEG &&
	    size < need)
		return -ENOSPC;
	rgb_size = 3 * n;
	rgb = malloc(rgb_size);
	if (!rgb)
		return -ENOMEM;
	pattern_rgb(rgb, w, h, seq, flip);
	if (o && o->texture)
		v4lc_vcam_lens_texture(rgb, w, h);
	if (o && o->blur > 0 && v4lc_vcam_lens_blur(rgb, w, h, o->blur) < 0) {
		free(rgb);
		return -ENOMEM;
	}

	switch (fourcc) {
	case V4L2_PIX_FMT_RGB24:
		memcpy(dst, rgb, rgb_size);
		ret = (int)need;
		break;
	case V4L2_PIX_FMT_BGR24:
	case V4L2_PIX_FMT_YUV420:
	case V4L2_PIX_FMT_YVU420: {
		struct v4lc_frame s = { V4L2_PIX_FMT_RGB24, w, h, 0, rgb,
					rgb_size };
		struct v4lc_frame d = { fourcc, w, h, 0, dst, size };

		ret = v4lc_frame_convert(v4lc_dsp_get(), &s, &d, NULL);
		if (!ret)
			ret = (int)need;
		break;
	}
	case V4L2_PIX_FMT_NV12:
	case V4L2_PIX_FMT_NV21: {
		/* Planar 4:2:0 by the frame layer, then interleave chroma. */
		size_t cn = n / 4;
		uint8_t *tmp = malloc(n + 2 * cn);
		struct v4lc_frame s = { V4L2_PIX_FMT_RGB24, w, h, 0, rgb,
					rgb_size };
		struct v4lc_frame d = { V4L2_PIX_FMT_YUV420, w, h, 0, tmp,
					n + 2 * cn };
		const uint8_t *u, *v;

		if (!tmp) {
			ret = -ENOMEM;
			break;
		}
		ret = v4lc_frame_convert(v4lc_dsp_get(), &s, &d, NULL);
		if (!ret) {
			memcpy(dst, tmp, n);
			u = tmp + n;
			v = u + cn;
			if (fourcc == V4L2_PIX_FMT_NV21) {
				const uint8_t *t = u;

				u = v;
				v = t;
			}
			for (size_t i = 0; i < cn; i++) {
				dst[n + 2 * i] = u[i];
				dst[n + 2 * i + 1] = v[i];
			}
			ret = (int)need;
		}
		free(tmp);
		break;
	}
	case V4L2_PIX_FMT_YUYV:
	case V4L2_PIX_FMT_YVYU:
	case V4L2_PIX_FMT_UYVY:
	case V4L2_PIX_FMT_VYUY:
		rgb_to_packed422(rgb, dst, w, h, fourcc);
		ret = (int)need;
		break;
	case V4L2_PIX_FMT_GREY:
		/* Full-range BT.601 luma. */
		for (size_t i = 0; i < n; i++)
			dst[i] = (uint8_t)((77 * rgb[3 * i] +
					    150 * rgb[3 * i + 1] +
					    29 * rgb[3 * i + 2] + 128) >> 8);
		ret = (int)need;
		break;
	case V4L2_PIX_FMT_MJPEG:
	case V4L2_PIX_FMT_JPEG:
		ret = render_jpeg(rgb, w, h, dst, size);
		break;
	case V4L2_PIX_FMT_SPCA501:
	case V4L2_PIX_FMT_SPCA505:
	case V4L2_PIX_FMT_SPCA508:
	case V4L2_PIX_FMT_CIT_YYVYUY:
	case V4L2_PIX_FMT_KONICA420:
	case V4L2_PIX_FMT_SN9C20X_I420:
	case V4L2_PIX_FMT_OV511:
	case V4L2_PIX_FMT_OV518:
	case V4L2_PIX_FMT_CPIA1: {
		/* Planar 4:2:0 by the frame layer, then the chip's encoder. */
		size_t yn = n + n / 2;
		uint8_t *tmp = malloc(yn);
		struct v4lc_frame s = { V4L2_PIX_FMT_RGB24, w, h, 0, rgb,
					rgb_size };
		struct v4lc_frame d = { V4L2_PIX_FMT_YUV420, w, h, 0, tmp, yn };

		if (!tmp) {
			ret = -ENOMEM;
			break;
		}
		ret = v4lc_frame_convert(v4lc_dsp_get(), &s, &d, NULL);
		if (!ret && fourcc == V4L2_PIX_FMT_CPIA1) {
			/* Odd frames compressed (no skips: frames stay
			 * independent of each other), even ones not. */
			struct v4lc_chipenc_cpia co = { (int)(seq & 1), NULL,
							NULL, NULL, 0, 0 };
			long cn = v4lc_chipenc_cpia_encode(tmp, w, h, &co, dst,
							   size);

			ret = cn < 0 ? (int)cn : (size_t)cn > size ? -ENOSPC :
								   (int)cn;
		} else if (!ret && (fourcc == V4L2_PIX_FMT_OV511 ||
				    fourcc == V4L2_PIX_FMT_OV518)) {
			long on = v4lc_chipenc_ov51x(fourcc, tmp, w, h, dst,
						     size);

			ret = (int)on;
		} else if (!ret) {
			ret = v4lc_chipenc_yuv(fourcc, tmp, w, h, dst, size);
		}
		free(tmp);
		break;
	}
	case V4L2_PIX_FMT_PJPG:
	case V4L2_PIX_FMT_SE401:
		ret = (int)v4lc_chipenc_jpeg(fourcc, rgb, w, h, dst, size);
		break;
	case V4L2_PIX_FMT_JPGL:
		ret = (int)v4lc_chipenc_jpgl(rgb, w, h, dst, size);
		break;
	case V4L2_PIX_FMT_JL2005BCD: {
		uint8_t *bay = malloc(n);

		if (!bay) {
			ret = -ENOMEM;
			break;
		}
		rgb_to_bayer(rgb, bay, w, h, "RGGB");
		ret = (int)v4lc_chipenc_jpeg(fourcc, bay, w, h, dst, size);
		free(bay);
		break;
	}
	default:
		if (bayer_order(v4lc_chipenc_bayer_order(fourcc), &order)) {
			/* A chip Bayer format: Bayer, then the encoder. */
			uint8_t *bay = malloc(n);
			long bn;

			if (!bay) {
				ret = -ENOMEM;
				break;
			}
			rgb_to_bayer(rgb, bay, w, h, order);
			bn = v4lc_chipenc_bayer(fourcc, bay, w, h, seq, dst, size);
			ret = (int)bn;
			free(bay);
			break;
		}
		if (!bayer_order(fourcc, &order)) {
			ret = -EINVAL;
			break;
		}
		rgb_to_bayer(rgb, dst, w, h, order);
		ret = (int)need;
		break;
	}
	free(rgb);
	return ret;
}

int v4lc_vcam_render(uint32_t fourcc, int w, int h, uint32_t seq,
		     uint8_t *dst, size_t size)
{
	return v4lc_vcam_render_flip(fourcc, w, h, seq, 0, dst, size);
}
