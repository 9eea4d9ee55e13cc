/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * vcam-ops: the rendered frames against independent expectations: the
 * bars and the moving square by definition, flips as exact mirrors, every
 * format against the RGB frame through BT.601 in double precision, and
 * JPEG frames decoded by TurboJPEG.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <turbojpeg.h>

#include <linux/videodev2.h>

#include "ops.h"
#include "../common/check.h"

/* The 75% bars at the centre of bar b (top area), by definition. */
static const uint8_t bar_rgb[8][3] = {
	{ 191, 191, 191 }, { 191, 191, 0 }, { 0, 191, 191 }, { 0, 191, 0 },
	{ 191, 0, 191 },   { 191, 0, 0 },   { 0, 0, 191 },   { 0, 0, 0 },
};

static int near(int a, int b, int tol)
{
	return a - b <= tol && b - a <= tol;
}

/* BT.601 limited range in double precision. */
static void ref_yuv(const uint8_t *rgb, double *y, double *u, double *v)
{
	double r = rgb[0], g = rgb[1], b = rgb[2];
	double yy = 0.299 * r + 0.587 * g + 0.114 * b;

	*y = 16 + yy * 219 / 255;
	*u = 128 + (b - yy) / 1.772 * 224 / 255;
	*v = 128 + (r - yy) / 1.402 * 224 / 255;
}

/* The RGB frame and one rendered frame of another format, both w x h;
 * x and y (both even) name the 2x2 block of samples being compared. */
struct px_ctx {
	const uint8_t *rgb, *buf;
	int w, h, x, y;
	uint32_t fc;
};

static const uint8_t *ctx_rgb(const struct px_ctx *c, int dy)
{
	return c->rgb + ((size_t)(c->y + dy) * c->w + c->x) * 3;
}

/* YUYV, YVYU, UYVY, VYUY: both lumas, and the pair's mean chroma. */
static int packed422_bad(const struct px_ctx *c)
{
	static const char *ord[] = { "YUYV", "YVYU", "UYVY", "VYUY" };
	const uint8_t *p = ctx_rgb(c, 0);
	const uint8_t *d = c->buf + (size_t)c->y * c->w * 2 + (size_t)c->x * 2;
	const char *o = ord[c->fc == V4L2_PIX_FMT_YUYV   ? 0
			    : c->fc == V4L2_PIX_FMT_YVYU ? 1
			    : c->fc == V4L2_PIX_FMT_UYVY ? 2
							 : 3];
	double ry, ru, rv, ry1, ru1, rv1;
	int yv = -1, uv = -1, vv = -1, y1v = -1, yi = 0;

	ref_yuv(p, &ry, &ru, &rv);
	ref_yuv(p + 3, &ry1, &ru1, &rv1);
	for (int k = 0; k < 4; k++) {
		if (o[k] == 'Y')
			*(yi++ ? &y1v : &yv) = d[k];
		else if (o[k] == 'U')
			uv = d[k];
		else
			vv = d[k];
	}
	/* 4:2:2 chroma: the pair's mean. */
	return !near(yv, (int)(ry + 0.5), 1) ||
	       !near(y1v, (int)(ry1 + 0.5), 1) ||
	       !near(uv, (int)((ru + ru1) / 2 + 0.5), 1) ||
	       !near(vv, (int)((rv + rv1) / 2 + 0.5), 1);
}

/* YU12, YV12, NV12, NV21: the top-left luma, the block's mean chroma. */
static int planar420_bad(const struct px_ctx *c)
{
	uint32_t fc = c->fc;
	size_t cy = (size_t)(c->y / 2) * (c->w / 2) + c->x / 2;
	size_t nn = (size_t)c->w * c->h;
	int swap = fc == V4L2_PIX_FMT_YVU420 || fc == V4L2_PIX_FMT_NV21;
	const uint8_t *p = ctx_rgb(c, 0), *p2 = ctx_rgb(c, 1);
	double ry, ru, rv, ry1, ru1, rv1, ty, tu, tv, qy, qu, qv;
	int a, b, yv, uv, vv;

	if (fc == V4L2_PIX_FMT_NV12 || fc == V4L2_PIX_FMT_NV21) {
		a = c->buf[nn + 2 * cy];
		b = c->buf[nn + 2 * cy + 1];
	} else {
		a = c->buf[nn + cy];
		b = c->buf[nn + nn / 4 + cy];
	}
	uv = swap ? b : a;
	vv = swap ? a : b;
	yv = c->buf[(size_t)c->y * c->w + c->x];
	/* Chroma tolerance: the block may straddle a bar edge vertically
	 * never (bars are columns), but the square edge: compare in flat
	 * areas. */
	ref_yuv(p, &ry, &ru, &rv);
	ref_yuv(p + 3, &ry1, &ru1, &rv1);
	ref_yuv(p2, &ty, &tu, &tv);
	ref_yuv(p2 + 3, &qy, &qu, &qv);
	return !near(yv, (int)(ry + 0.5), 1) ||
	       !near(uv, (int)((ru + ru1 + tu + qu) / 4 + 0.5), 2) ||
	       !near(vv, (int)((rv + rv1 + tv + qv) / 4 + 0.5), 2);
}

/* RGB24: the two pixels as they are; BGR24: the first one swapped. */
static int rgb_bad(const struct px_ctx *c)
{
	const uint8_t *p = ctx_rgb(c, 0);
	const uint8_t *d = c->buf + ((size_t)c->y * c->w + c->x) * 3;

	if (c->fc == V4L2_PIX_FMT_RGB24)
		return memcmp(d, p, 6) != 0;
	return d[0] != p[2] || d[1] != p[1] || d[2] != p[0];
}

/* GREY: the full-range BT.601 luma. */
static int grey_bad(const struct px_ctx *c)
{
	const uint8_t *p = ctx_rgb(c, 0);
	double l = 0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2];

	return !near(c->buf[(size_t)c->y * c->w + c->x], (int)(l + 0.5), 1);
}

/* 8-bit Bayer: the 2x2 cell at (x, y), positions 0 1 / 2 3 holding the
 * colours the fourcc names, each the RGB frame's sample there. */
static int bayer_bad(const struct px_ctx *c)
{
	const char *o = c->fc == V4L2_PIX_FMT_SBGGR8   ? "BGGR"
			: c->fc == V4L2_PIX_FMT_SGBRG8 ? "GBRG"
			: c->fc == V4L2_PIX_FMT_SGRBG8 ? "GRBG"
						       : "RGGB";
	int bad = 0;

	for (int k = 0; k < 4; k++) {
		size_t px =
			(size_t)(c->y + k / 2) * c->w + (size_t)(c->x + k % 2);
		int ch = o[k] == 'R' ? 0 : o[k] == 'G' ? 1 : 2;

		bad |= c->buf[px] != c->rgb[px * 3 + ch];
	}
	return bad;
}

/* Which comparison each format gets; JPEG frames are not compared here. */
static const struct {
	uint32_t fourcc;
	int (*bad)(const struct px_ctx *c);
} px_checks[] = {
	{ V4L2_PIX_FMT_YUYV, packed422_bad },
	{ V4L2_PIX_FMT_YVYU, packed422_bad },
	{ V4L2_PIX_FMT_UYVY, packed422_bad },
	{ V4L2_PIX_FMT_VYUY, packed422_bad },
	{ V4L2_PIX_FMT_YUV420, planar420_bad },
	{ V4L2_PIX_FMT_YVU420, planar420_bad },
	{ V4L2_PIX_FMT_NV12, planar420_bad },
	{ V4L2_PIX_FMT_NV21, planar420_bad },
	{ V4L2_PIX_FMT_RGB24, rgb_bad },
	{ V4L2_PIX_FMT_BGR24, rgb_bad },
	{ V4L2_PIX_FMT_GREY, grey_bad },
	{ V4L2_PIX_FMT_SBGGR8, bayer_bad },
	{ V4L2_PIX_FMT_SGBRG8, bayer_bad },
	{ V4L2_PIX_FMT_SGRBG8, bayer_bad },
	{ V4L2_PIX_FMT_SRGGB8, bayer_bad },
};

static int (*px_check(uint32_t fourcc))(const struct px_ctx *)
{
	for (size_t i = 0; i < sizeof(px_checks) / sizeof(px_checks[0]); i++)
		if (px_checks[i].fourcc == fourcc)
			return px_checks[i].bad;
	return NULL;
}

/* The bars by definition, the square where frame 0 puts it, and it moves
 * (rgb2: scratch of the same size). */
static void pattern_rgb(uint8_t *rgb, uint8_t *rgb2, int w, int h)
{
	size_t rgb_size = (size_t)w * h * 3;
	int row = h / 2 + 7; /* in the bars, below any square position? */

	CHECK(v4lc_vcam_render(V4L2_PIX_FMT_RGB24, w, h, 0, rgb, rgb_size) ==
	      (int)rgb_size);
	/* Bars at the centre of each bar, on rows of the bar area that the
	 * square (top-left at seq 0, h/8 high) does not cover. */
	for (int b = 0; b < 8; b++) {
		int x = b * w / 8 + w / 16;
		const uint8_t *p = rgb + ((size_t)row * w + x) * 3;

		CHECK(!memcmp(p, bar_rgb[b], 3));
	}
	/* The square at frame 0 is at the top-left: top-left quadrant dark,
	 * bottom-right quadrant bright. */
	CHECK(rgb[(5 * w + 5) * 3] < 32);
	CHECK(rgb[((h / 8 - 3) * w + h / 8 - 3) * 3] > 200);
	/* It moves: frame 10 differs from frame 0, frame 0 is repeatable. */
	CHECK(v4lc_vcam_render(V4L2_PIX_FMT_RGB24, w, h, 10, rgb2, rgb_size) ==
	      (int)rgb_size);
	CHECK(memcmp(rgb, rgb2, rgb_size) != 0);
	CHECK(v4lc_vcam_render(V4L2_PIX_FMT_RGB24, w, h, 0, rgb2, rgb_size) ==
	      (int)rgb_size);
	CHECK(!memcmp(rgb, rgb2, rgb_size));
}

/* Flips are exact mirrors of the upright frame. */
static void pattern_flips(uint8_t *rgb, uint8_t *rgb2, int w, int h)
{
	size_t rgb_size = (size_t)w * h * 3;

	for (unsigned fl = 1; fl <= 3; fl++) {
		int bad = 0;

		CHECK(v4lc_vcam_render_flip(V4L2_PIX_FMT_RGB24, w, h, 3, fl,
					    rgb2, rgb_size) == (int)rgb_size);
		CHECK(v4lc_vcam_render(V4L2_PIX_FMT_RGB24, w, h, 3, rgb,
				       rgb_size) == (int)rgb_size);
		for (int y = 0; y < h && !bad; y++)
			for (int x = 0; x < w; x++) {
				int sx = fl & 1 ? w - 1 - x : x;
				int sy = fl & 2 ? h - 1 - y : y;

				if (memcmp(rgb2 + ((size_t)y * w + x) * 3,
					   rgb + ((size_t)sy * w + sx) * 3,
					   3)) {
					bad = 1;
					break;
				}
			}
		CHECK(!bad);
	}
}

/* Format fe of frame 5 against rgb, frame 5 in RGB24 (buf: 2 x its size):
 * its size, the refusal of a buffer one byte short, every 2x2 block. */
static void pattern_format(const struct fmt_expect *fe, const uint8_t *rgb,
			   uint8_t *buf, int w, int h)
{
	size_t rgb_size = (size_t)w * h * 3;
	uint32_t fc = fe->fourcc;
	int n = v4lc_vcam_render(fc, w, h, 5, buf, rgb_size * 2);
	int (*bad_at)(const struct px_ctx *) = px_check(fc);
	struct px_ctx c = { .rgb = rgb, .buf = buf, .w = w, .h = h, .fc = fc };
	int bad = 0;

	CHECK(n > 0);
	if (n <= 0)
		return;
	if (!is_jpeg(fc))
		CHECK((size_t)n == (size_t)w * h * fe->size_num / fe->size_den);
	/* Too small a buffer is refused. */
	if (!is_jpeg(fc))
		CHECK(v4lc_vcam_render(fc, w, h, 5, buf, (size_t)n - 1) ==
		      -ENOSPC);
	for (c.y = 0; c.y < h && !bad && bad_at; c.y += 2) {
		for (c.x = 0; c.x < w; c.x += 2) {
			bad = bad_at(&c);
			if (bad) {
				fprintf(stderr, "%s: mismatch at %d,%d\n",
					fe->name, c.x, c.y);
				break;
			}
		}
	}
	CHECK(!bad);
}

void test_pattern(void)
{
	const int w = 640, h = 480;
	size_t rgb_size = (size_t)w * h * 3;
	uint8_t *rgb = malloc(rgb_size), *buf = malloc(rgb_size * 2);
	uint8_t *rgb2 = malloc(rgb_size);

	if (!rgb || !buf || !rgb2) {
		CHECK(!"malloc");
		goto out;
	}
	pattern_rgb(rgb, rgb2, w, h);
	pattern_flips(rgb, rgb2, w, h);
	/* Every other format against the RGB frame. */
	CHECK(v4lc_vcam_render(V4L2_PIX_FMT_RGB24, w, h, 5, rgb, rgb_size) ==
	      (int)rgb_size);
	for (size_t i = 0; i < NFMTS; i++)
		pattern_format(&fmts[i], rgb, buf, w, h);
out:
	free(rgb);
	free(rgb2);
	free(buf);
}

/* JPEG checks: no DHT before SOS, decodes, looks like the RGB frame. */
void check_jpeg(const uint8_t *j, size_t n, int w, int h, uint32_t seq)
{
	size_t i = 2;
	int has_dht = 0, has_sos = 0;
	tjhandle tj;
	int jw = 0, jh = 0, sub = -1, cs = -1;
	uint8_t *out, *ref;
	double err = 0;

	CHECK(n > 4 && j[0] == 0xff && j[1] == 0xd8);
	CHECK(j[n - 2] == 0xff && j[n - 1] == 0xd9);
	while (i + 4 <= n && j[i] == 0xff) {
		if (j[i + 1] == 0xc4)
			has_dht = 1;
		if (j[i + 1] == 0xda) {
			has_sos = 1;
			break;
		}
		i += 2 + ((size_t)j[i + 2] << 8 | j[i + 3]);
	}
	CHECK(has_sos);
	CHECK(!has_dht);

	tj = tjInitDecompress();
	out = malloc((size_t)w * h * 3);
	ref = malloc((size_t)w * h * 3);
	if (!tj || !out || !ref) {
		CHECK(!"tj/malloc");
		goto out;
	}
	CHECK(tjDecompressHeader3(tj, j, (unsigned long)n, &jw, &jh, &sub,
				  &cs) == 0);
	CHECK(jw == w && jh == h && sub == TJSAMP_422);
	CHECK(tjDecompress2(tj, j, (unsigned long)n, out, w, 0, h, TJPF_RGB,
			    0) == 0);
	CHECK(v4lc_vcam_render(V4L2_PIX_FMT_RGB24, w, h, seq, ref,
			       (size_t)w * h * 3) == w * h * 3);
	for (size_t k = 0; k < (size_t)w * h * 3; k++)
		err += abs((int)out[k] - (int)ref[k]);
	err /= (double)w * h * 3;
	CHECK(err < 4.0);
out:
	if (tj)
		tjDestroy(tj);
	free(out);
	free(ref);
}
