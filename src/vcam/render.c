/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The virtual camera's picture: an RGB24 test pattern, deterministic for a
 * sequence number, converted to each format the camera offers by the
 * format's encoder (formats.h).
 */
#include "vcam/vcam.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "vcam/formats.h"
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

/* The RGB24 picture in format fourcc (size checked): bytes used, -errno;
 * quality: the JPEG formats'. Its encoder is its row's (formats.c). */
static int render_format(uint32_t fourcc, const uint8_t *rgb, int w, int h,
			 uint32_t seq, int quality, uint8_t *dst, size_t size)
{
	const struct vcam_format *v = v4lc_vcam_format(fourcc);
	const struct v4lc_format *f = v4lc_format_row(fourcc);

	if (!v || !f)
		return -EINVAL;
	return v->encode(f, rgb, w, h, seq, quality, dst, size);
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
	const struct v4lc_format *f = v4lc_format_row(fourcc);
	uint32_t need = v4lc_vcam_sizeimage(fourcc, w, h);
	uint8_t *rgb;
	int ret;

	if (!v4lc_vcam_size_ok(fourcc, w, h) || !need || !f)
		return -EINVAL;
	/* JPEG's sizeimage is libjpeg-turbo's worst case: a frame fits less */
	if (f->layout != V4LC_L_JPEG && size < need)
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
