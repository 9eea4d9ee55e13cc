/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The virtual camera's encoders (formats.h): the RGB24 picture in each
 * form it sends, through libv4lconvert's frame layer, libjpeg-turbo and
 * the chip encoders. Each takes what distinguishes the formats it serves
 * (component order, chroma order, CFA order) from the format's row of the
 * format table.
 */
#include "vcam/formats.h"

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

int v4lc_vcam_put_rgb24(const struct v4lc_format *f, const uint8_t *rgb, int w,
			int h, uint32_t seq, int quality, uint8_t *dst,
			size_t size)
{
	size_t n = 3 * (size_t)w * (size_t)h;

	(void)f;
	(void)seq;
	(void)quality;
	(void)size;
	memcpy(dst, rgb, n);
	return (int)n;
}

/* The frame layer's conversion of the RGB24 picture into fourcc. */
static int rgb_to(const uint8_t *rgb, int w, int h, uint32_t fourcc,
		  uint8_t *dst, size_t size)
{
	struct v4lc_frame s = {
		V4L2_PIX_FMT_RGB24,       w, h, 0, (uint8_t *)rgb,
		3 * (size_t)w * (size_t)h
	};
	struct v4lc_frame d = { fourcc, w, h, 0, dst, size };

	return v4lc_frame_convert(v4lc_dsp_get(), &s, &d, NULL);
}

int v4lc_vcam_put_frame(const struct v4lc_format *f, const uint8_t *rgb, int w,
			int h, uint32_t seq, int quality, uint8_t *dst,
			size_t size)
{
	int ret = rgb_to(rgb, w, h, f->fourcc, dst, size);

	(void)seq;
	(void)quality;
	return ret ? ret : (int)v4lc_format_frame(f, w, h);
}

/* NV12/NV21: planar 4:2:0, then the chroma interleaved (swap_uv: V first). */
int v4lc_vcam_put_nv(const struct v4lc_format *f, const uint8_t *rgb, int w,
		     int h, uint32_t seq, int quality, uint8_t *dst,
		     size_t size)
{
	size_t n = (size_t)w * (size_t)h, cn = n / 4;
	uint8_t *tmp = malloc(n + 2 * cn);
	const uint8_t *u, *v;
	int ret;

	(void)seq;
	(void)quality;
	(void)size;
	if (!tmp)
		return -ENOMEM;
	ret = rgb_to(rgb, w, h, V4L2_PIX_FMT_YUV420, tmp, n + 2 * cn);
	if (!ret) {
		memcpy(dst, tmp, n);
		u = tmp + n;
		v = u + cn;
		if (f->swap_uv) {
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
	return ret ? ret : (int)(n + 2 * cn);
}

/* Packed 4:2:2 in the row's order, with the formulas of
 * src/scalar/pixel.h. */
int v4lc_vcam_put_packed(const struct v4lc_format *f, const uint8_t *rgb, int w,
			 int h, uint32_t seq, int quality, uint8_t *dst,
			 size_t size)
{
	const uint8_t *o = v4lc_yuv422_offsets[f->order];
	struct v4lc_colorimetry c = { 0, 0, 0 };
	struct v4lc_rgb2yuv k;

	(void)seq;
	(void)quality;
	(void)size;
	v4lc_rgb2yuv_init(&k, &c);
	for (int y = 0; y < h; y++) {
		const uint8_t *s = rgb + (size_t)y * 3 * (size_t)w;
		uint8_t *d = dst + (size_t)y * 2 * (size_t)w;

		for (int x = 0; x < w; x += 2, s += 6, d += 4) {
			/* Both pixels count twice: the 2x2 sum of pixel.h. */
			d[o[V4LC_422_Y0]] = v4lc_rgb_to_y(&k, s[0], s[1], s[2]);
			d[o[V4LC_422_Y1]] = v4lc_rgb_to_y(&k, s[3], s[4], s[5]);
			v4lc_rgb_to_uv(&k, 2 * (s[0] + s[3]), 2 * (s[1] + s[4]),
				       2 * (s[2] + s[5]), &d[o[V4LC_422_U]],
				       &d[o[V4LC_422_V]]);
		}
	}
	return 2 * w * h;
}

int v4lc_vcam_put_grey(const struct v4lc_format *f, const uint8_t *rgb, int w,
		       int h, uint32_t seq, int quality, uint8_t *dst,
		       size_t size)
{
	size_t n = (size_t)w * (size_t)h;

	(void)f;
	(void)seq;
	(void)quality;
	(void)size;
	/* Full-range BT.601 luma. */
	for (size_t i = 0; i < n; i++)
		dst[i] = (uint8_t)((77 * rgb[3 * i] + 150 * rgb[3 * i + 1] +
				    29 * rgb[3 * i + 2] + 128) >>
				   8);
	return (int)n;
}

/* Sample the RGB picture on a Bayer grid of CFA order (v4lc_bayer_order). */
static void rgb_to_bayer(const uint8_t *rgb, uint8_t *dst, int w, int h,
			 int order)
{
	/* The colour (0 R, 1 G, 2 B) at (x & 1, y & 1), per order. */
	static const uint8_t cfa[V4LC_BAYER_ORDERS][4] = {
		[V4LC_BGGR] = { 2, 1, 1, 0 },
		[V4LC_GBRG] = { 1, 2, 0, 1 },
		[V4LC_GRBG] = { 1, 0, 2, 1 },
		[V4LC_RGGB] = { 0, 1, 1, 2 },
	};

	for (int y = 0; y < h; y++) {
		for (int x = 0; x < w; x++) {
			int ch = cfa[order][(y & 1) * 2 + (x & 1)];
			size_t i = (size_t)y * (size_t)w + (size_t)x;

			dst[i] = rgb[3 * i + (size_t)ch];
		}
	}
}

int v4lc_vcam_put_bayer(const struct v4lc_format *f, const uint8_t *rgb, int w,
			int h, uint32_t seq, int quality, uint8_t *dst,
			size_t size)
{
	(void)seq;
	(void)quality;
	(void)size;
	rgb_to_bayer(rgb, dst, w, h, f->order);
	return w * h;
}
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

int v4lc_vcam_put_jpeg(const struct v4lc_format *f, const uint8_t *rgb, int w,
		       int h, uint32_t seq, int quality, uint8_t *dst,
		       size_t size)
{
	(void)f;
	(void)seq;
	return render_jpeg(rgb, w, h, quality, dst, size);
}

/* A chip format: the picture in the encoder's input form, then the
 * encoder (chipenc.h). */
int v4lc_vcam_put_chip(const struct v4lc_format *f, const uint8_t *rgb, int w,
		       int h, uint32_t seq, int quality, uint8_t *dst,
		       size_t size)
{
	const struct v4lc_chipenc *e = v4lc_chipenc_find(f->fourcc);
	size_t n = (size_t)w * (size_t)h;
	uint8_t *in = NULL;
	long ret = 0;

	(void)quality;
	if (!e)
		return -EINVAL;
	if (e->input == V4LC_CHIPENC_RGB24)
		return (int)v4lc_chipenc_encode(e, rgb, w, h, seq, dst, size);
	in = malloc(e->input == V4LC_CHIPENC_YU12 ? n + n / 2 : n);
	if (!in)
		return -ENOMEM;
	if (e->input == V4LC_CHIPENC_YU12)
		ret = rgb_to(rgb, w, h, V4L2_PIX_FMT_YUV420, in, n + n / 2);
	else
		rgb_to_bayer(rgb, in, w, h, v4lc_format_row(e->bayer)->order);
	if (!ret)
		ret = v4lc_chipenc_encode(e, in, w, h, seq, dst, size);
	free(in);
	return (int)ret;
}
