/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bench/convert_cli: a whole-process conversion, for hyperfine (bench/run):
 * load a libv4lconvert (ours or the distribution's) with dlopen, read a file
 * of frames, convert every frame through v4lconvert_convert, and write the
 * converted frames to stdout.
 *
 *   convert_cli --make=FILE --conv=NAME --size=WxH --frames=N
 *       write N source frames (a test image; MJPEG: 4:2:2 q85 JPEGs, each
 *       preceded by its length as 4 little-endian bytes)
 *   convert_cli --lib=ours|orig|PATH --conv=NAME --size=WxH FILE [--repeat=R]
 *       convert the frames of FILE (R times over) and write them to stdout
 *
 * NAME: YUYV->RGB24, NV12->RGB24, RGB24->YUV420, YUYV->YUV420,
 * SBGGR8->RGB24, SBGGR8->YUV420, MJPEG->RGB24, MJPEG->YUV420.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../tests/common/origlib.h"
#include "../tests/jpeg/jpegtest.h"

#ifndef V4LC_OURS_PATH
#define V4LC_OURS_PATH "src/libv4lconvert/libv4lconvert.so.0"
#endif

static const struct {
	const char *name;
	uint32_t src, dst;
	int sbpp2, dbpp2; /* bytes per pixel x 2; 0 = MJPEG */
} convs[] = {
	{ "YUYV->RGB24", V4L2_PIX_FMT_YUYV, V4L2_PIX_FMT_RGB24, 4, 6 },
	{ "NV12->RGB24", V4L2_PIX_FMT_NV12, V4L2_PIX_FMT_RGB24, 3, 6 },
	{ "RGB24->YUV420", V4L2_PIX_FMT_RGB24, V4L2_PIX_FMT_YUV420, 6, 3 },
	{ "YUYV->YUV420", V4L2_PIX_FMT_YUYV, V4L2_PIX_FMT_YUV420, 4, 3 },
	{ "SBGGR8->RGB24", V4L2_PIX_FMT_SBGGR8, V4L2_PIX_FMT_RGB24, 2, 6 },
	{ "SBGGR8->YUV420", V4L2_PIX_FMT_SBGGR8, V4L2_PIX_FMT_YUV420, 2, 3 },
	{ "MJPEG->RGB24", V4L2_PIX_FMT_MJPEG, V4L2_PIX_FMT_RGB24, 0, 6 },
	{ "MJPEG->YUV420", V4L2_PIX_FMT_MJPEG, V4L2_PIX_FMT_YUV420, 0, 3 },
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

static int usage(const char *argv0)
{
	fprintf(stderr,
		"usage: %s --make=FILE --conv=NAME --size=WxH --frames=N\n"
		"       %s --lib=ours|orig|PATH --conv=NAME --size=WxH "
		"[--repeat=R] FILE\n",
		argv0, argv0);
	return 2;
}

static int make(const char *path, int ci, int w, int h, int frames)
{
	FILE *f = fopen(path, "wb");
	size_t wh = (size_t)w * h;

	if (!f) {
		perror(path);
		return 1;
	}
	for (int i = 0; i < frames; i++) {
		uint8_t *img = jt_make_image(w, h, (unsigned)i);

		if (!convs[ci].sbpp2) {
			size_t n;
			uint8_t *jpg =
				jt_compress(img, w, h, TJSAMP_422, 85, 0, &n);
			uint8_t len[4] = { (uint8_t)n, (uint8_t)(n >> 8),
					   (uint8_t)(n >> 16),
					   (uint8_t)(n >> 24) };

			fwrite(len, 1, 4, f);
			fwrite(jpg, 1, n, f);
			free(jpg);
		} else {
			/* the image's bytes stand for any raw source format */
			size_t n = wh * (size_t)convs[ci].sbpp2 / 2;

			for (size_t o = 0; o < n; o += wh * 3)
				fwrite(img, 1, n - o < wh * 3 ? n - o : wh * 3,
				       f);
		}
		free(img);
	}
	return fclose(f) ? 1 : 0;
}

int main(int argc, char **argv)
{
	const char *make_path = NULL, *lib = NULL, *in = NULL, *name = NULL;
	int w = 1280, h = 720, frames = 30, repeat = 1, ci = -1;

	for (int i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "--make=", 7))
			make_path = argv[i] + 7;
		else if (!strncmp(argv[i], "--lib=", 6))
			lib = argv[i] + 6;
		else if (!strncmp(argv[i], "--conv=", 7))
			name = argv[i] + 7;
		else if (sscanf(argv[i], "--size=%dx%d", &w, &h) == 2)
			;
		else if (sscanf(argv[i], "--frames=%d", &frames) == 1)
			;
		else if (sscanf(argv[i], "--repeat=%d", &repeat) == 1)
			;
		else if (argv[i][0] != '-' && !in)
			in = argv[i];
		else
			return usage(argv[0]);
	}
	for (size_t i = 0; name && i < sizeof(convs) / sizeof(convs[0]); i++)
		if (!strcmp(name, convs[i].name))
			ci = (int)i;
	if (ci < 0 || w < 16 || h < 16 || w % 16 || h % 16)
		return usage(argv[0]);
	if (make_path)
		return make(make_path, ci, w, h, frames);
	if (!lib || !in)
		return usage(argv[0]);

	/* the input, whole */
	FILE *f = fopen(in, "rb");
	size_t size = 0, cap = 1 << 20, n;
	uint8_t *data = malloc(cap);

	if (!f || !data) {
		perror(in);
		return 1;
	}
	while ((n = fread(data + size, 1, cap - size, f)) > 0) {
		size += n;
		if (size == cap && !(data = realloc(data, cap *= 2)))
			return 1;
	}
	fclose(f);

	struct origlib o;
	struct v4lconvert_data *cv;
	const char *path = !strcmp(lib, "ours")   ? V4LC_OURS_PATH
			   : !strcmp(lib, "orig") ? NULL
						  : lib;

	if (origlib_open_path(&o, path, 0) ||
	    !(cv = origlib_create_plain(&o))) {
		fprintf(stderr, "cannot load %s\n",
			path ? path : "the original");
		return 1;
	}

	size_t wh = (size_t)w * h;
	size_t dsize = wh * (size_t)convs[ci].dbpp2 / 2;
	uint8_t *dst = malloc(dsize);
	struct v4l2_format sf, df;
	unsigned long converted = 0;

	fill_fmt(&df, convs[ci].dst, w, h, dsize, convs[ci].dbpp2);
	for (int r = 0; r < repeat; r++) {
		size_t pos = 0;

		while (pos < size) {
			size_t fsize;

			if (convs[ci].sbpp2) {
				fsize = wh * (size_t)convs[ci].sbpp2 / 2;
			} else {
				if (pos + 4 > size)
					break;
				fsize = data[pos] | (size_t)data[pos + 1] << 8 |
					(size_t)data[pos + 2] << 16 |
					(size_t)data[pos + 3] << 24;
				pos += 4;
			}
			if (pos + fsize > size)
				break;
			fill_fmt(&sf, convs[ci].src, w, h, fsize,
				 convs[ci].sbpp2);
			if (o.convert(cv, &sf, &df, data + pos, (int)fsize, dst,
				      (int)dsize) < 0) {
				fprintf(stderr, "convert: %s\n",
					o.get_error_message(cv));
				return 1;
			}
			if (fwrite(dst, 1, dsize, stdout) != dsize)
				return 1;
			converted++;
			pos += fsize;
		}
	}
	fprintf(stderr, "%lu frames converted\n", converted);
	o.destroy(cv);
	origlib_close(&o);
	free(dst);
	free(data);
	return 0;
}
