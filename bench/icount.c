/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bench/icount: one conversion of each kind through a libv4lconvert's public
 * API, each measured alone under callgrind (bench/callgrind.sh runs it as
 * `valgrind --tool=callgrind`). A warm-up call first (tables, buffers), then
 * CALLGRIND_ZERO_STATS, one conversion, CALLGRIND_DUMP_STATS_AT(name): each
 * dump holds the instructions of exactly one frame conversion, kernels by
 * name. Outside valgrind the requests do nothing.
 *
 *   icount --lib=ours|orig [--size=WxH]
 *
 * Our tier follows LIBV4LCONVERT_SIMD (one process per tier).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <valgrind/callgrind.h>

#include "../tests/common/origlib.h"
#include "../tests/jpeg/jpegtest.h"

#ifndef V4LC_OURS_PATH
#define V4LC_OURS_PATH "src/libv4lconvert/libv4lconvert.so.0"
#endif

static const struct {
	const char *name;
	uint32_t src, dst;
	int hflip, vflip;
	int sbpp2, dbpp2; /* bytes per pixel x 2; 0 = MJPEG */
} convs[] = {
	{ "YUYV->RGB24", V4L2_PIX_FMT_YUYV, V4L2_PIX_FMT_RGB24, 0, 0, 4, 6 },
	{ "UYVY->RGB24", V4L2_PIX_FMT_UYVY, V4L2_PIX_FMT_RGB24, 0, 0, 4, 6 },
	{ "NV12->RGB24", V4L2_PIX_FMT_NV12, V4L2_PIX_FMT_RGB24, 0, 0, 3, 6 },
	{ "YUV420->RGB24", V4L2_PIX_FMT_YUV420, V4L2_PIX_FMT_RGB24, 0, 0, 3,
	  6 },
	{ "RGB24->YUV420", V4L2_PIX_FMT_RGB24, V4L2_PIX_FMT_YUV420, 0, 0, 6,
	  3 },
	{ "YUYV->YUV420", V4L2_PIX_FMT_YUYV, V4L2_PIX_FMT_YUV420, 0, 0, 4, 3 },
	{ "RGB24 hflip", V4L2_PIX_FMT_RGB24, V4L2_PIX_FMT_RGB24, 1, 0, 6, 6 },
	{ "RGB24 vflip", V4L2_PIX_FMT_RGB24, V4L2_PIX_FMT_RGB24, 0, 1, 6, 6 },
	{ "RGB24 rot180", V4L2_PIX_FMT_RGB24, V4L2_PIX_FMT_RGB24, 1, 1, 6, 6 },
	{ "YUV420 hflip", V4L2_PIX_FMT_YUV420, V4L2_PIX_FMT_YUV420, 1, 0, 3,
	  3 },
	{ "YUV420 vflip", V4L2_PIX_FMT_YUV420, V4L2_PIX_FMT_YUV420, 0, 1, 3,
	  3 },
	{ "YUV420 rot180", V4L2_PIX_FMT_YUV420, V4L2_PIX_FMT_YUV420, 1, 1, 3,
	  3 },
	{ "SBGGR8->RGB24", V4L2_PIX_FMT_SBGGR8, V4L2_PIX_FMT_RGB24, 0, 0, 2,
	  6 },
	{ "SBGGR8->YUV420", V4L2_PIX_FMT_SBGGR8, V4L2_PIX_FMT_YUV420, 0, 0, 2,
	  3 },
	{ "GREY->RGB24", V4L2_PIX_FMT_GREY, V4L2_PIX_FMT_RGB24, 0, 0, 2, 6 },
	{ "RGB24->BGR24", V4L2_PIX_FMT_RGB24, V4L2_PIX_FMT_BGR24, 0, 0, 6, 6 },
	{ "MJPEG->RGB24", V4L2_PIX_FMT_MJPEG, V4L2_PIX_FMT_RGB24, 0, 0, 0, 6 },
	{ "MJPEG->YUV420", V4L2_PIX_FMT_MJPEG, V4L2_PIX_FMT_YUV420, 0, 0, 0,
	  3 },
};

static void fill_fmt(struct v4l2_format *f, uint32_t fourcc, int w, int h,
		     size_t size, int bpp2)
{
	memset(f, 0, sizeof(*f));
	f->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	f->fmt.pix.width = (unsigned)w;
	f->fmt.pix.height = (unsigned)h;
	f->fmt.pix.pixelformat = fourcc;
	f->fmt.pix.field = V4L2_FIELD_NONE;
	f->fmt.pix.bytesperline = bpp2 == 3 ? (unsigned)w
				  : bpp2    ? (unsigned)(w * bpp2 / 2)
					    : 0;
	f->fmt.pix.sizeimage = (unsigned)size;
}

int main(int argc, char **argv)
{
	const char *lib = "ours";
	int w = 640, h = 480;

	for (int i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "--lib=", 6))
			lib = argv[i] + 6;
		else if (sscanf(argv[i], "--size=%dx%d", &w, &h) != 2) {
			fprintf(stderr,
				"usage: %s --lib=ours|orig [--size=WxH]\n",
				argv[0]);
			return 2;
		}
	}

	struct origlib o;
	struct v4lconvert_data *plain, *flip;
	const char *path = strcmp(lib, "orig") ? V4LC_OURS_PATH : NULL;

	if (origlib_open_path(&o, path, 0) ||
	    !(plain = origlib_create_plain(&o)) ||
	    !(flip = origlib_create_flip(&o))) {
		fprintf(stderr, "cannot load %s\n",
			path ? path : "the original");
		return 1;
	}

	size_t wh = (size_t)w * h, jsize;
	uint8_t *img = jt_make_image(w, h, 3);
	uint8_t *jpg = jt_compress(img, w, h, TJSAMP_422, 85, 0, &jsize);
	uint8_t *src = malloc(wh * 3), *dst = malloc(wh * 3);

	memcpy(src, img, wh * 3);
	for (size_t i = 0; i < sizeof(convs) / sizeof(convs[0]); i++) {
		struct v4l2_format sf, df;
		size_t ssize = convs[i].sbpp2 ? wh * (size_t)convs[i].sbpp2 / 2
					      : jsize;
		size_t dsize = wh * (size_t)convs[i].dbpp2 / 2;
		uint8_t *s = convs[i].sbpp2 ? src : jpg;
		struct v4lconvert_data *cv = plain;
		int r;

		if (convs[i].hflip || convs[i].vflip) {
			cv = flip;
			if (origlib_set_flip(&o, flip, convs[i].hflip,
					     convs[i].vflip))
				return 1;
		}
		fill_fmt(&sf, convs[i].src, w, h, ssize, convs[i].sbpp2);
		fill_fmt(&df, convs[i].dst, w, h, dsize, convs[i].dbpp2);
		r = o.convert(cv, &sf, &df, s, (int)ssize, dst, (int)dsize);
		CALLGRIND_ZERO_STATS;
		r |= o.convert(cv, &sf, &df, s, (int)ssize, dst, (int)dsize);
		CALLGRIND_DUMP_STATS_AT(convs[i].name);
		printf("%s %s\n", convs[i].name, r < 0 ? "failed" : "ok");
	}
	o.destroy(plain);
	o.destroy(flip);
	origlib_close(&o);
	free(img);
	free(jpg);
	free(src);
	free(dst);
	return 0;
}
