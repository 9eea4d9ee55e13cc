/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * v4l-samples: the main job without a camera. Generates a recognisable test
 * image (colour bars, R/G/B/grey ramps and a moving square per frame) as
 * RGB24, derives sample frames in every source format the converter
 * supports, converts each to every destination format, applies every
 * transform to one result, and writes viewable PNGs.
 *
 *   v4l-samples [--out DIR] [--size WxH] [--frames N]
 *
 * Exit status: 0 when every conversion succeeded and every image was
 * written, 1 otherwise, 2 for bad usage.
 */
#include <errno.h>
#include <linux/videodev2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "core/frame.h"
#include "dispatch/cpu.h"
#include "dispatch/dsp.h"
#include "png.h"

/* ------------------------------------------------------------------ */
/* The test image.                                                     */

/* 100 % bars: white, yellow, cyan, green, magenta, red, blue, black. */
static const uint8_t bars[8][3] = {
	{ 255, 255, 255 }, { 255, 255, 0 }, { 0, 255, 255 }, { 0, 255, 0 },
	{ 255, 0, 255 },   { 255, 0, 0 },   { 0, 0, 255 },   { 0, 0, 0 },
};

/*
 * Top two thirds: the bars. Bottom third: four horizontal ramps 0..255
 * (grey, red, green, blue). An orange square with a white core moves
 * along a diagonal from frame to frame.
 */
static void draw_test_image(uint8_t *rgb, int w, int h, int frame)
{
	int bar_h = (2 * h) / 3;
	int ramp_h = h - bar_h;
	int sq = (w < h ? w : h) / 6;
	int sx = 0, sy = 0;

	if (sq < 2)
		sq = 2;
	if (sq > w)
		sq = w;
	if (sq > h)
		sq = h;
	if (w > sq)
		sx = (frame * (w / 16 + 1) + w / 8) % (w - sq + 1);
	if (h > sq)
		sy = (frame * (h / 16 + 1) + h / 8) % (h - sq + 1);

	for (int y = 0; y < h; y++) {
		uint8_t *row = rgb + (size_t)y * 3 * (size_t)w;

		for (int x = 0; x < w; x++) {
			uint8_t *p = row + 3 * (size_t)x;
			int v = w > 1 ? (255 * x + (w - 1) / 2) / (w - 1) : 0;

			if (y < bar_h) {
				memcpy(p, bars[(8 * x) / w], 3);
			} else {
				int strip =
					ramp_h ? (4 * (y - bar_h)) / ramp_h : 0;

				p[0] = (uint8_t)(strip == 0 || strip == 1 ? v
									  : 0);
				p[1] = (uint8_t)(strip == 0 || strip == 2 ? v
									  : 0);
				p[2] = (uint8_t)(strip == 0 || strip == 3 ? v
									  : 0);
			}
			if (x >= sx && x < sx + sq && y >= sy && y < sy + sq) {
				int core = x >= sx + sq / 4 &&
					   x < sx + sq - sq / 4 &&
					   y >= sy + sq / 4 &&
					   y < sy + sq - sq / 4;

				p[0] = 255;
				p[1] = core ? 255 : 128;
				p[2] = core ? 255 : 0;
			}
		}
	}
}

/* ------------------------------------------------------------------ */
/* Formats.                                                            */

struct fmt {
	const char *name;
	uint32_t fourcc;
};

static const struct fmt sources[] = {
	{ "YUYV", V4L2_PIX_FMT_YUYV },   { "YVYU", V4L2_PIX_FMT_YVYU },
	{ "UYVY", V4L2_PIX_FMT_UYVY },   { "VYUY", V4L2_PIX_FMT_VYUY },
	{ "YU12", V4L2_PIX_FMT_YUV420 }, { "YV12", V4L2_PIX_FMT_YVU420 },
	{ "NV12", V4L2_PIX_FMT_NV12 },   { "NV21", V4L2_PIX_FMT_NV21 },
	{ "RGB3", V4L2_PIX_FMT_RGB24 },  { "BGR3", V4L2_PIX_FMT_BGR24 },
};
#define NSOURCES (int)(sizeof(sources) / sizeof(sources[0]))

static const struct fmt dests[] = {
	{ "RGB3", V4L2_PIX_FMT_RGB24 },
	{ "BGR3", V4L2_PIX_FMT_BGR24 },
	{ "YU12", V4L2_PIX_FMT_YUV420 },
	{ "YV12", V4L2_PIX_FMT_YVU420 },
};
#define NDESTS (int)(sizeof(dests) / sizeof(dests[0]))

static const struct {
	const char *name;
	enum v4lc_transform op;
} xforms[] = {
	{ "hflip", V4LC_XFORM_HFLIP },       { "vflip", V4LC_XFORM_VFLIP },
	{ "rot180", V4LC_XFORM_ROT180 },     { "rot90cw", V4LC_XFORM_ROT90CW },
	{ "rot90ccw", V4LC_XFORM_ROT90CCW },
};
#define NXFORMS (int)(sizeof(xforms) / sizeof(xforms[0]))

/* Sources are transformed from the YUYV conversions to these formats. */
static const uint32_t xform_formats[] = { V4L2_PIX_FMT_RGB24,
					  V4L2_PIX_FMT_YUV420 };

static const char *fmt_name(uint32_t fourcc)
{
	for (int i = 0; i < NSOURCES; i++)
		if (sources[i].fourcc == fourcc)
			return sources[i].name;
	return "?";
}

static int frame_alloc(struct v4lc_frame *f, uint32_t fourcc, int w, int h)
{
	memset(f, 0, sizeof(*f));
	f->fourcc = fourcc;
	f->width = w;
	f->height = h;
	f->size = v4lc_frame_bytes(fourcc, w, h, 0);
	if (!f->size)
		return -1;
	f->data = calloc(1, f->size);
	return f->data ? 0 : -1;
}

static uint8_t clamp8(double v)
{
	return v <= 0 ? 0 : v >= 255 ? 255 : (uint8_t)(v + 0.5);
}

/*
 * Fallback for a build without the rgb2yuv family: RGB24 -> YU12 with the
 * V4L2 default matrix (BT.601, limited range), chroma averaged over each
 * 2x2 block.
 */
static void rgb_to_yu12_tool(const uint8_t *rgb, struct v4lc_frame *yu)
{
	int w = yu->width, h = yu->height;
	int cw = (w + 1) / 2, ch = (h + 1) / 2;
	uint8_t *py = yu->data, *pu = py + (size_t)w * h;
	uint8_t *pv = pu + (size_t)cw * ch;

	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			const uint8_t *p = rgb + 3 * ((size_t)y * w + x);

			py[(size_t)y * w + x] =
				clamp8(16 + (65.481 * p[0] + 128.553 * p[1] +
					     24.966 * p[2]) /
						    255);
		}
	for (int y = 0; y < ch; y++)
		for (int x = 0; x < cw; x++) {
			double u = 0, v = 0;
			int n = 0;

			for (int dy = 0; dy < 2; dy++)
				for (int dx = 0; dx < 2; dx++) {
					int yy = 2 * y + dy, xx = 2 * x + dx;
					const uint8_t *p;

					if (yy >= h || xx >= w)
						continue;
					p = rgb + 3 * ((size_t)yy * w + xx);
					u += (-37.797 * p[0] - 74.203 * p[1] +
					      112.0 * p[2]) /
					     255;
					v += (112.0 * p[0] - 93.786 * p[1] -
					      18.214 * p[2]) /
					     255;
					n++;
				}
			pu[(size_t)y * cw + x] = clamp8(128 + u / n);
			pv[(size_t)y * cw + x] = clamp8(128 + v / n);
		}
}

/*
 * Every source format from the RGB24 image: BGR3 and YU12 through the
 * converter (the tool's own RGB->YU12 if the converter lacks it), YV12
 * from YU12 through the converter, and NV12/NV21 and the packed 4:2:2
 * orders from the YU12 planes by plain byte shuffling here (4:2:2 chroma
 * takes the 4:2:0 chroma row of its row pair).
 */
static int make_sources(const struct v4lc_dsp *dsp, struct v4lc_frame *src,
			int w, int h, int *fallback)
{
	struct v4lc_frame *rgb = NULL, *yu12 = NULL;
	int cw = (w + 1) / 2;
	size_t ysize = (size_t)w * h, csize = (size_t)cw * ((h + 1) / 2);

	for (int i = 0; i < NSOURCES; i++) {
		if (sources[i].fourcc == V4L2_PIX_FMT_RGB24)
			rgb = &src[i];
		if (sources[i].fourcc == V4L2_PIX_FMT_YUV420)
			yu12 = &src[i];
	}
	if (v4lc_frame_convert(dsp, rgb, yu12, NULL)) {
		rgb_to_yu12_tool(rgb->data, yu12);
		*fallback = 1;
	}
	for (int i = 0; i < NSOURCES; i++) {
		struct v4lc_frame *f = &src[i];
		const uint8_t *y = yu12->data, *u = y + ysize, *v = u + csize;
		int order[4]; /* byte positions of Y0, U, Y1, V in a pair */

		switch (f->fourcc) {
		case V4L2_PIX_FMT_RGB24:
		case V4L2_PIX_FMT_YUV420:
			continue;
		case V4L2_PIX_FMT_BGR24:
		case V4L2_PIX_FMT_YVU420: {
			const struct v4lc_frame *from =
				f->fourcc == V4L2_PIX_FMT_BGR24 ? rgb : yu12;

			if (v4lc_frame_convert(dsp, from, f, NULL)) {
				fprintf(stderr,
					"v4l-samples: cannot build %s source "
					"(%s -> %s unsupported)\n",
					fmt_name(f->fourcc),
					fmt_name(from->fourcc),
					fmt_name(f->fourcc));
				return -1;
			}
			continue;
		}
		case V4L2_PIX_FMT_NV12:
		case V4L2_PIX_FMT_NV21: {
			int swap = f->fourcc == V4L2_PIX_FMT_NV21;
			size_t stride =
				(size_t)v4lc_frame_min_stride(f->fourcc, w);
			uint8_t *uv = f->data + stride * h;

			for (int r = 0; r < h; r++)
				memcpy(f->data + (size_t)r * stride,
				       y + (size_t)r * w, (size_t)w);
			for (int r = 0; r < (h + 1) / 2; r++)
				for (int x = 0; x < cw; x++) {
					size_t c = (size_t)r * cw + x;
					uint8_t *p = uv + (size_t)r * stride +
						     2 * (size_t)x;

					p[swap] = u[c];
					p[!swap] = v[c];
				}
			continue;
		}
		case V4L2_PIX_FMT_YUYV:
			order[0] = 0, order[1] = 1, order[2] = 2, order[3] = 3;
			break;
		case V4L2_PIX_FMT_YVYU:
			order[0] = 0, order[1] = 3, order[2] = 2, order[3] = 1;
			break;
		case V4L2_PIX_FMT_UYVY:
			order[0] = 1, order[1] = 0, order[2] = 3, order[3] = 2;
			break;
		case V4L2_PIX_FMT_VYUY:
			order[0] = 1, order[1] = 2, order[2] = 3, order[3] = 0;
			break;
		default:
			return -1;
		}
		/* Packed 4:2:2. */
		for (int r = 0; r < h; r++) {
			uint8_t *d = f->data + (size_t)r * 4 * cw;
			const uint8_t *yr = y + (size_t)r * w;
			size_t c = (size_t)(r / 2) * cw;

			for (int x = 0; x < cw; x++) {
				int x1 = 2 * x + 1 < w ? 2 * x + 1 : 2 * x;

				d[4 * x + order[0]] = yr[2 * x];
				d[4 * x + order[1]] = u[c + x];
				d[4 * x + order[2]] = yr[x1];
				d[4 * x + order[3]] = v[c + x];
			}
		}
	}
	return 0;
}

/* ------------------------------------------------------------------ */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int mkdirs(const char *path)
{
	char buf[4096];
	size_t n = strlen(path);

	if (n == 0 || n >= sizeof(buf))
		return -1;
	memcpy(buf, path, n + 1);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0777) && errno != EEXIST)
			return -1;
		*p = '/';
	}
	if (mkdir(buf, 0777) && errno != EEXIST)
		return -1;
	return 0;
}

struct ctx {
	const struct v4lc_dsp *dsp;
	const char *out;
	struct v4lc_frame view;  /* RGB24 scratch for viewing YUV results */
	struct v4lc_frame rview; /* the same for rotated (h x w) results */
	/* the source and destination frames, and the transforms' YU12 ones */
	struct v4lc_frame src[NSOURCES], dst[NDESTS], xdst, xdst_rot;
	int w, h;
	int images, failures, conversions;
	double conv_time;
};

/* Write an RGB3/BGR3 frame as is, a YU12/YV12 frame through RGB24. */
static int save(struct ctx *cx, const struct v4lc_frame *f, const char *name)
{
	char path[4096];
	const struct v4lc_frame *rgb = f;
	int bgr = f->fourcc == V4L2_PIX_FMT_BGR24;

	if (f->fourcc == V4L2_PIX_FMT_YUV420 ||
	    f->fourcc == V4L2_PIX_FMT_YVU420) {
		struct v4lc_frame *v =
			f->width == cx->view.width &&
					f->height == cx->view.height
				? &cx->view
				: &cx->rview;
		int r = v4lc_frame_convert(cx->dsp, f, v, NULL);

		if (r) {
			fprintf(stderr,
				"v4l-samples: %s: cannot view %s as RGB3 (%s)\n",
				name, fmt_name(f->fourcc), strerror(-r));
			return -1;
		}
		rgb = v;
	}
	snprintf(path, sizeof(path), "%s/%s.png", cx->out, name);
	if (png_write(path, rgb->data, rgb->width, rgb->height,
		      (size_t)v4lc_frame_min_stride(rgb->fourcc, rgb->width),
		      bgr)) {
		fprintf(stderr, "v4l-samples: cannot write %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	cx->images++;
	return 0;
}

/* Best of a few calls, in seconds; returns the first call's status. */
#define REPS 3
static int timed_convert(struct ctx *cx, const struct v4lc_frame *s,
			 struct v4lc_frame *d, int xform, double *best)
{
	int ret = 0;

	*best = 0;
	for (int i = 0; i < REPS; i++) {
		double t0 = now(), t;
		int r;

		if (xform < 0) {
			r = v4lc_frame_convert(cx->dsp, s, d, NULL);
		} else {
			r = v4lc_frame_transform(cx->dsp, s, d,
						 (enum v4lc_transform)xform);
		}
		t = now() - t0;
		if (i == 0)
			ret = r;
		if (r)
			return r;
		if (i == 0 || t < *best)
			*best = t;
	}
	cx->conv_time += *best;
	return ret;
}

static void progress(struct ctx *cx, int frame, const char *what, int w, int h,
		     int r, double t, const char *file)
{
	cx->conversions++;
	if (r) {
		cx->failures++;
		printf("f%03d %-26s %5dx%-5d FAILED (%s)\n", frame, what, w, h,
		       strerror(-r));
	} else {
		printf("f%03d %-26s %5dx%-5d %9.1f MPix/s  %s.png\n", frame,
		       what, w, h, (double)w * h / t / 1e6, file);
	}
	fflush(stdout);
}

static void usage(FILE *f)
{
	fprintf(f, "usage: v4l-samples [--out DIR] [--size WxH] [--frames N]\n"
		   "  --out DIR     where the PNGs go (default: samples)\n"
		   "  --size WxH    frame size (default 640x480; odd sizes "
		   "allowed)\n"
		   "  --frames N    frames, the square moves (default 2)\n");
}

/* The options into cx and *frames: -1 to go on, else the exit code. */
static int parse_args(int argc, char **argv, struct ctx *cx, int *frames)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(a, "--out") && val) {
			cx->out = val;
			i++;
		} else if (!strcmp(a, "--size") && val) {
			if (sscanf(val, "%dx%d", &cx->w, &cx->h) != 2 ||
			    cx->w < 1 || cx->h < 1 || cx->w > 16384 ||
			    cx->h > 16384) {
				fprintf(stderr, "v4l-samples: bad --size %s\n",
					val);
				return 2;
			}
			i++;
		} else if (!strcmp(a, "--frames") && val) {
			*frames = atoi(val);
			if (*frames < 1 || *frames > 1000) {
				fprintf(stderr,
					"v4l-samples: --frames 1..1000\n");
				return 2;
			}
			i++;
		} else {
			usage(stderr);
			return 2;
		}
	}
	return -1;
}

/* Every frame of cx; -1 when one cannot be allocated. */
static int alloc_frames(struct ctx *cx)
{
	int w = cx->w, h = cx->h;

	for (int i = 0; i < NSOURCES; i++)
		if (frame_alloc(&cx->src[i], sources[i].fourcc, w, h))
			return -1;
	for (int i = 0; i < NDESTS; i++)
		if (frame_alloc(&cx->dst[i], dests[i].fourcc, w, h))
			return -1;
	if (frame_alloc(&cx->view, V4L2_PIX_FMT_RGB24, w, h) ||
	    frame_alloc(&cx->rview, V4L2_PIX_FMT_RGB24, h, w) ||
	    frame_alloc(&cx->xdst, V4L2_PIX_FMT_YUV420, w, h) ||
	    frame_alloc(&cx->xdst_rot, V4L2_PIX_FMT_YUV420, h, w))
		return -1;
	return 0;
}

static void free_frames(struct ctx *cx)
{
	for (int i = 0; i < NSOURCES; i++)
		free(cx->src[i].data);
	for (int i = 0; i < NDESTS; i++)
		free(cx->dst[i].data);
	free(cx->view.data);
	free(cx->rview.data);
	free(cx->xdst.data);
	free(cx->xdst_rot.data);
}

/* Every transform of the YUYV source's result in destination d. */
static void convert_xforms(struct ctx *cx, int fr, int s, int d)
{
	const struct v4lc_frame *in = &cx->dst[d];
	char what[64], name[128];
	double t;
	int r;

	for (int x = 0; x < NXFORMS; x++) {
		int rot = xforms[x].op == V4LC_XFORM_ROT90CW ||
			  xforms[x].op == V4LC_XFORM_ROT90CCW;
		struct v4lc_frame *o;

		if (dests[d].fourcc == V4L2_PIX_FMT_RGB24)
			o = rot ? &cx->rview : &cx->view;
		else
			o = rot ? &cx->xdst_rot : &cx->xdst;
		snprintf(what, sizeof(what), "%s -> %s %s", sources[s].name,
			 dests[d].name, xforms[x].name);
		snprintf(name, sizeof(name), "f%03d-%s-to-%s-%s", fr,
			 sources[s].name, dests[d].name, xforms[x].name);
		memset(o->data, 0, o->size);
		r = timed_convert(cx, in, o, (int)xforms[x].op, &t);
		progress(cx, fr, what, in->width, in->height, r, t, name);
		if (!r && save(cx, o, name))
			cx->failures++;
	}
}

/* Whether destination d's results get the transforms. */
static int xform_dest(int d)
{
	for (size_t k = 0; k < sizeof(xform_formats) / sizeof(xform_formats[0]);
	     k++)
		if (dests[d].fourcc == xform_formats[k])
			return 1;
	return 0;
}

/* Source s to every destination (and the transforms of the YUYV ones). */
static void convert_source(struct ctx *cx, int fr, int s)
{
	char what[64], name[128];
	double t;
	int r;

	for (int d = 0; d < NDESTS; d++) {
		snprintf(what, sizeof(what), "%s -> %s", sources[s].name,
			 dests[d].name);
		snprintf(name, sizeof(name), "f%03d-%s-to-%s", fr,
			 sources[s].name, dests[d].name);
		memset(cx->dst[d].data, 0, cx->dst[d].size);
		r = timed_convert(cx, &cx->src[s], &cx->dst[d], -1, &t);
		progress(cx, fr, what, cx->w, cx->h, r, t, name);
		if (!r && save(cx, &cx->dst[d], name))
			cx->failures++;
		if (!r && sources[s].fourcc == V4L2_PIX_FMT_YUYV &&
		    xform_dest(d))
			convert_xforms(cx, fr, s, d);
	}
}

/* Frame fr: draw it, make the sources, convert each; -1 to stop. */
static int convert_frame(struct ctx *cx, int fr, int *fallback)
{
	struct v4lc_frame *rgb = NULL;
	char name[128];

	for (int i = 0; i < NSOURCES; i++)
		if (sources[i].fourcc == V4L2_PIX_FMT_RGB24)
			rgb = &cx->src[i];
	draw_test_image(rgb->data, cx->w, cx->h, fr);
	if (make_sources(cx->dsp, cx->src, cx->w, cx->h, fallback)) {
		cx->failures++;
		return -1;
	}
	snprintf(name, sizeof(name), "f%03d-source", fr);
	if (save(cx, rgb, name))
		cx->failures++;
	for (int s = 0; s < NSOURCES; s++)
		convert_source(cx, fr, s);
	return 0;
}

int main(int argc, char **argv)
{
	static struct ctx cx;
	int frames = 2, fallback = 0, r;
	double t_start = now();

	cx.out = "samples";
	cx.w = 640;
	cx.h = 480;
	r = parse_args(argc, argv, &cx, &frames);
	if (r >= 0)
		return r;
	if (mkdirs(cx.out)) {
		fprintf(stderr, "v4l-samples: cannot create %s: %s\n", cx.out,
			strerror(errno));
		return 1;
	}
	cx.dsp = v4lc_dsp_get();
	if (alloc_frames(&cx)) {
		fprintf(stderr, "v4l-samples: out of memory or bad geometry\n");
		return 1;
	}

	printf("v4l-samples: %dx%d, %d frame%s, SIMD tier %s, writing to %s\n",
	       cx.w, cx.h, frames, frames == 1 ? "" : "s",
	       v4lc_cpu_tier_name(v4lc_cpu_flags()), cx.out);
	for (int fr = 0; fr < frames; fr++)
		if (convert_frame(&cx, fr, &fallback))
			break;

	if (fallback)
		printf("note: the converter lacks RGB3 -> YU12; the YUV "
		       "sources were built by the tool's own formula\n");
	printf("summary: %d images written to %s, %d conversions, %d "
	       "failed, conversion time %.1f ms, total %.2f s\n",
	       cx.images, cx.out, cx.conversions, cx.failures,
	       cx.conv_time * 1e3, now() - t_start);
	free_frames(&cx);
	return cx.failures ? 1 : 0;
}
