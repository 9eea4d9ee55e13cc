/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The virtual camera's picture: an RGB24 test pattern, deterministic for a
 * sequence number, converted to each format the camera offers (through
 * libv4lconvert's frame layer, libjpeg-turbo and the chip encoders).
 */
#include "vcam/vcam.h"

#include <errno.h>
#include <linux/videodev2.h>
#include <stdlib.h>
#include <string.h>
#include <turbojpeg.h>

#include "core/colour.h"
#include "core/frame.h"
#include "dispatch/dsp.h"
#include "scalar/pixel.h"
#include "vcam/chipenc.h"
#include "vcam/lens.h"
#include "vcam/priv.h"

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
static void pattern_rgb(uint8_t *dst, int w, int h, uint32_t seq, unsigned flip)
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

/* A triangle wave of period 2 * half, from -100 to 100. */
static int tri(int t, int half)
{
	int m = t % (2 * half);

	return (m < half ? m : 2 * half - m) * 200 / half - 100;
}

/*
 * The "scene" picture, upright: smooth colour gradients (red across, green
 * down, a blue wave drifting with the sequence number), a faint fine
 * grain, a few sharp-edged patches moving with it: the cost of a natural
 * scene to a JPEG coder (the image of bench/mjpeg_scale), which the bars
 * are not.
 */
static void scene_rgb(uint8_t *dst, int w, int h, uint32_t seq, unsigned flip)
{
	for (int y = 0; y < h; y++) {
		int uy = flip & V4LC_VCAM_VFLIP ? h - 1 - y : y;
		uint8_t *p = dst + (size_t)y * 3 * (size_t)w;

		for (int x = 0; x < w; x++, p += 3) {
			int ux = flip & V4LC_VCAM_HFLIP ? w - 1 - x : x;
			int fx = w > 1 ? ux * 255 / (w - 1) : 0;
			int fy = h > 1 ? uy * 255 / (h - 1) : 0;
			unsigned mx = (unsigned)ux + seq * 4u;
			int edge = ((mx / 24 + (unsigned)uy / 16) & 3) ? 0 : 40;
			int n = (int)((mx * 7u + (unsigned)uy * 13u) % 9) - 4;
			int r = fx - edge + n;
			int g = fy * (510 - fx) / 510 + edge + n;
			int b = 128 + tri((int)mx, 45) * tri(uy, 63) / 100 + n;

			p[0] = (uint8_t)(r < 0 ? 0 : r > 255 ? 255 : r);
			p[1] = (uint8_t)(g < 0 ? 0 : g > 255 ? 255 : g);
			p[2] = (uint8_t)(b < 0 ? 0 : b > 255 ? 255 : b);
		}
	}
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
	case V4L2_PIX_FMT_YUYV:
		iy0 = 0;
		iu = 1;
		iy1 = 2;
		iv = 3;
		break;
	case V4L2_PIX_FMT_YVYU:
		iy0 = 0;
		iv = 1;
		iy1 = 2;
		iu = 3;
		break;
	case V4L2_PIX_FMT_UYVY:
		iu = 0;
		iy0 = 1;
		iv = 2;
		iy1 = 3;
		break;
	default:
		iv = 0;
		iy0 = 1;
		iu = 2;
		iy1 = 3;
		break;
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

static int render_jpeg(const uint8_t *rgb, int w, int h, int quality,
		       uint8_t *dst, size_t size)
{
	tjhandle tj = tjInitCompress();
	unsigned char *jpeg = NULL;
	unsigned long jsize = 0;
	long n;

	if (!tj)
		return -ENOMEM;
	if (tjCompress2(tj, rgb, w, 3 * w, h, TJPF_RGB, &jpeg, &jsize,
			TJSAMP_422, quality, TJFLAG_ACCURATEDCT) != 0) {
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

/* The colour order of an 8-bit Bayer fourcc ("BGGR"...), NULL for none. */
static const char *bayer_order(uint32_t fourcc)
{
	switch (fourcc) {
	case V4L2_PIX_FMT_SBGGR8:
		return "BGGR";
	case V4L2_PIX_FMT_SGBRG8:
		return "GBRG";
	case V4L2_PIX_FMT_SGRBG8:
		return "GRBG";
	case V4L2_PIX_FMT_SRGGB8:
		return "RGGB";
	}
	return NULL;
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

/* Planar 4:2:0 (YU12 or YV12) by the frame layer, into dst. */
static int rgb_to_yuv420(const uint8_t *rgb, int w, int h, uint32_t fourcc,
			 uint8_t *dst, size_t size)
{
	struct v4lc_frame s = {
		V4L2_PIX_FMT_RGB24,       w, h, 0, (uint8_t *)rgb,
		3 * (size_t)w * (size_t)h
	};
	struct v4lc_frame d = { fourcc, w, h, 0, dst, size };

	return v4lc_frame_convert(v4lc_dsp_get(), &s, &d, NULL);
}

/* NV12/NV21: planar 4:2:0, then the chroma interleaved. */
static int rgb_to_nv(const uint8_t *rgb, int w, int h, uint32_t fourcc,
		     uint8_t *dst)
{
	size_t n = (size_t)w * (size_t)h, cn = n / 4;
	uint8_t *tmp = malloc(n + 2 * cn);
	const uint8_t *u, *v;
	int ret;

	if (!tmp)
		return -ENOMEM;
	ret = rgb_to_yuv420(rgb, w, h, V4L2_PIX_FMT_YUV420, tmp, n + 2 * cn);
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
	}
	free(tmp);
	return ret;
}

/* A chip format: the picture in the encoder's input form, then the
 * encoder (chipenc.h). */
static int render_chip(const struct v4lc_chipenc *e, const uint8_t *rgb, int w,
		       int h, uint32_t seq, uint8_t *dst, size_t size)
{
	size_t n = (size_t)w * (size_t)h;
	uint8_t *in = NULL;
	long ret;

	if (e->input == V4LC_CHIPENC_RGB24)
		return (int)v4lc_chipenc_encode(e, rgb, w, h, seq, dst, size);
	in = malloc(e->input == V4LC_CHIPENC_YU12 ? n + n / 2 : n);
	if (!in)
		return -ENOMEM;
	if (e->input == V4LC_CHIPENC_YU12) {
		ret = rgb_to_yuv420(rgb, w, h, V4L2_PIX_FMT_YUV420, in,
				    n + n / 2);
	} else {
		rgb_to_bayer(rgb, in, w, h, bayer_order(e->bayer));
		ret = 0;
	}
	if (!ret)
		ret = v4lc_chipenc_encode(e, in, w, h, seq, dst, size);
	free(in);
	return (int)ret;
}

/* The RGB24 picture in format fourcc (size checked): bytes used, -errno;
 * quality: the JPEG formats'. */
static int render_format(uint32_t fourcc, const uint8_t *rgb, int w, int h,
			 uint32_t seq, int quality, uint8_t *dst, size_t size)
{
	const struct v4lc_chipenc *e = v4lc_chipenc_find(fourcc);
	int need = (int)v4lc_vcam_sizeimage(fourcc, w, h);
	size_t n = (size_t)w * (size_t)h;
	const char *order;
	int ret;

	switch (fourcc) {
	case V4L2_PIX_FMT_RGB24:
		memcpy(dst, rgb, 3 * n);
		return need;
	case V4L2_PIX_FMT_BGR24:
	case V4L2_PIX_FMT_YUV420:
	case V4L2_PIX_FMT_YVU420:
		ret = rgb_to_yuv420(rgb, w, h, fourcc, dst, size);
		return ret ? ret : need;
	case V4L2_PIX_FMT_NV12:
	case V4L2_PIX_FMT_NV21:
		ret = rgb_to_nv(rgb, w, h, fourcc, dst);
		return ret ? ret : need;
	case V4L2_PIX_FMT_YUYV:
	case V4L2_PIX_FMT_YVYU:
	case V4L2_PIX_FMT_UYVY:
	case V4L2_PIX_FMT_VYUY:
		rgb_to_packed422(rgb, dst, w, h, fourcc);
		return need;
	case V4L2_PIX_FMT_GREY:
		/* Full-range BT.601 luma. */
		for (size_t i = 0; i < n; i++)
			dst[i] = (uint8_t)((77 * rgb[3 * i] +
					    150 * rgb[3 * i + 1] +
					    29 * rgb[3 * i + 2] + 128) >>
					   8);
		return need;
	case V4L2_PIX_FMT_MJPEG:
	case V4L2_PIX_FMT_JPEG:
		return render_jpeg(rgb, w, h, quality, dst, size);
	}
	if (e)
		return render_chip(e, rgb, w, h, seq, dst, size);
	order = bayer_order(fourcc);
	if (!order)
		return -EINVAL;
	rgb_to_bayer(rgb, dst, w, h, order);
	return need;
}

int v4lc_vcam_render_flip(uint32_t fourcc, int w, int h, uint32_t seq,
			  unsigned flip, uint8_t *dst, size_t size)
{
	return v4lc_vcam_render_optics(fourcc, w, h, seq, flip, NULL, dst,
				       size);
}

int v4lc_vcam_render_picture(uint32_t fourcc, int w, int h, uint32_t seq,
			     unsigned flip, const struct v4lc_vcam_optics *o,
			     int scene, uint8_t *dst, size_t size)
{
	uint32_t need = v4lc_vcam_sizeimage(fourcc, w, h);
	uint8_t *rgb;
	int ret;

	if (!v4lc_vcam_size_ok(fourcc, w, h) || !need)
		return -EINVAL;
	if (fourcc != V4L2_PIX_FMT_MJPEG && fourcc != V4L2_PIX_FMT_JPEG &&
	    size < need)
		return -ENOSPC;
	rgb = malloc(3 * (size_t)w * (size_t)h);
	if (!rgb)
		return -ENOMEM;
	if (scene)
		scene_rgb(rgb, w, h, seq, flip);
	else
		pattern_rgb(rgb, w, h, seq, flip);
	if (o && o->texture)
		v4lc_vcam_lens_texture(rgb, w, h);
	if (o && o->blur > 0 && v4lc_vcam_lens_blur(rgb, w, h, o->blur) < 0)
		ret = -ENOMEM;
	else
		ret = render_format(fourcc, rgb, w, h, seq, scene ? 85 : 80,
				    dst, size);
	free(rgb);
	return ret;
}

int v4lc_vcam_render_optics(uint32_t fourcc, int w, int h, uint32_t seq,
			    unsigned flip, const struct v4lc_vcam_optics *o,
			    uint8_t *dst, size_t size)
{
	return v4lc_vcam_render_picture(fourcc, w, h, seq, flip, o, 0, dst,
					size);
}

int v4lc_vcam_render(uint32_t fourcc, int w, int h, uint32_t seq, uint8_t *dst,
		     size_t size)
{
	return v4lc_vcam_render_flip(fourcc, w, h, seq, 0, dst, size);
}
