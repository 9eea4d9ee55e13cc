/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * MJPEG at a fraction of the camera's size: the scaled decode
 * (v4lconvert_convert straight from 1920x1080 MJPEG to 960x540 or 480x270,
 * libjpeg-turbo's IDCT scaling) against the path it replaces (the full
 * 1920x1080 decode through v4lconvert_convert, then the 2x2 mean of fit.c's
 * v4lc_halve, and for 1/4 the centred crop of that). Both paths are timed
 * in wall-clock and process CPU time (the full-size decode may share a
 * frame with a second thread, src/jpeg/mjpeg_split.c); each figure is the
 * median of --runs runs of --frames frames, the runs of the two paths
 * interleaved.
 *
 *   mjpeg_scale [--runs=N] [--frames=N] [--size=WxH] [--quality=Q]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libv4lconvert.h>

#include "../tests/jpeg/jpegtest.h"

static double clock_s(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static struct v4l2_format pixfmt(uint32_t fourcc, int w, int h)
{
	struct v4l2_format f;

	memset(&f, 0, sizeof(f));
	f.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	f.fmt.pix.pixelformat = fourcc;
	f.fmt.pix.width = (uint32_t)w;
	f.fmt.pix.height = (uint32_t)h;
	return f;
}

static size_t bytes(uint32_t fcc, int w, int h)
{
	if (fcc == V4L2_PIX_FMT_RGB24)
		return (size_t)w * h * 3;
	return (size_t)w * h + 2 * (size_t)((w + 1) / 2) * ((h + 1) / 2);
}

/* fit.c's halving and centred crop of one plane (bpp bytes a pixel). */
static void halve_crop(const uint8_t *src, int sw, int sh, uint8_t *half,
		       uint8_t *dst, int dw, int dh, int bpp)
{
	int hw = sw / 2, hh = sh / 2;
	int ox = ((hw - dw) / 2) & ~1, oy = ((hh - dh) / 2) & ~1;
	size_t ss = (size_t)sw * bpp, hs = (size_t)hw * bpp;

	for (int y = 0; y < hh; y++) {
		const uint8_t *a = src + (size_t)(2 * y) * ss, *b = a + ss;
		uint8_t *d = half + (size_t)y * hs;

		for (int x = 0; x < hw * bpp; x++) {
			int i = (x / bpp) * 2 * bpp + x % bpp;

			d[x] = (uint8_t)((a[i] + a[i + bpp] + b[i] +
					  b[i + bpp] + 2) >>
					 2);
		}
	}
	if (hw == dw && hh == dh) {
		memcpy(dst, half, (size_t)hw * hh * bpp);
		return;
	}
	for (int y = 0; y < dh; y++)
		memcpy(dst + (size_t)y * dw * bpp,
		       half + (size_t)(y + oy) * hs + (size_t)ox * bpp,
		       (size_t)dw * bpp);
}

struct path {
	struct v4lconvert_data *cv;
	struct v4l2_format src, full, dst;
	const uint8_t *jpg;
	size_t n;
	uint8_t *big, *half, *out;
};

/* The old path: full decode, then halve (and crop) every plane. */
static void old_frame(struct path *p)
{
	uint32_t fcc = p->dst.fmt.pix.pixelformat;
	int sw = (int)p->full.fmt.pix.width, sh = (int)p->full.fmt.pix.height;
	int dw = (int)p->dst.fmt.pix.width, dh = (int)p->dst.fmt.pix.height;

	if (v4lconvert_convert(p->cv, &p->src, &p->full, (uint8_t *)p->jpg,
			       (int)p->n, p->big,
			       (int)bytes(fcc, sw, sh)) < 0) {
		fprintf(stderr, "full decode: %s\n",
			v4lconvert_get_error_message(p->cv));
		exit(1);
	}
	if (fcc == V4L2_PIX_FMT_RGB24) {
		halve_crop(p->big, sw, sh, p->half, p->out, dw, dh, 3);
		return;
	}
	halve_crop(p->big, sw, sh, p->half, p->out, dw, dh, 1);
	halve_crop(p->big + (size_t)sw * sh, sw / 2, sh / 2, p->half,
		   p->out + (size_t)dw * dh, dw / 2, dh / 2, 1);
	halve_crop(p->big + (size_t)sw * sh * 5 / 4, sw / 2, sh / 2, p->half,
		   p->out + (size_t)dw * dh * 5 / 4, dw / 2, dh / 2, 1);
}

static void new_frame(struct path *p)
{
	uint32_t fcc = p->dst.fmt.pix.pixelformat;
	int dw = (int)p->dst.fmt.pix.width, dh = (int)p->dst.fmt.pix.height;

	if (v4lconvert_convert(p->cv, &p->src, &p->dst, (uint8_t *)p->jpg,
			       (int)p->n, p->out,
			       (int)bytes(fcc, dw, dh)) < 0) {
		fprintf(stderr, "scaled decode: %s\n",
			v4lconvert_get_error_message(p->cv));
		exit(1);
	}
}

static void run(const uint8_t *jpg, size_t n, int sw, int sh, uint32_t fcc,
		int denom, int runs, int frames)
{
	int dw = sw / denom, dh = sh / denom;
	struct path p = { .jpg = jpg, .n = n };
	double *w[2], *c[2], med[2][2];

	p.cv = v4lconvert_create(-1);
	p.src = pixfmt(V4L2_PIX_FMT_MJPEG, sw, sh);
	p.full = pixfmt(fcc, sw, sh);
	p.dst = pixfmt(fcc, dw, dh);
	p.big = jt_xmalloc(bytes(fcc, sw, sh));
	p.half = jt_xmalloc(bytes(V4L2_PIX_FMT_RGB24, sw / 2, sh / 2));
	p.out = jt_xmalloc(bytes(fcc, sw, sh));
	for (int k = 0; k < 2; k++) {
		w[k] = jt_xmalloc(sizeof(double) * (size_t)runs);
		c[k] = jt_xmalloc(sizeof(double) * (size_t)runs);
	}
	old_frame(&p); /* warm up both */
	new_frame(&p);
	for (int r = 0; r < runs; r++)
		for (int k = 0; k < 2; k++) {
			double w0 = clock_s(CLOCK_MONOTONIC);
			double c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);

			for (int f = 0; f < frames; f++)
				(k ? new_frame : old_frame)(&p);
			w[k][r] = (clock_s(CLOCK_MONOTONIC) - w0) / frames;
			c[k][r] = (clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0) /
				  frames;
		}
	for (int k = 0; k < 2; k++) {
		med[k][0] = median(w[k], runs);
		med[k][1] = median(c[k], runs);
	}
	printf("| %dx%d -> %dx%d %-5s | %7.2f | %7.2f | %7.2f | %7.2f | "
	       "%5.2fx | %5.2fx |\n",
	       sw, sh, dw, dh, fcc == V4L2_PIX_FMT_RGB24 ? "RGB24" : "YU12",
	       med[0][0] * 1e3, med[0][1] * 1e3, med[1][0] * 1e3,
	       med[1][1] * 1e3, med[0][0] / med[1][0], med[0][1] / med[1][1]);
	for (int k = 0; k < 2; k++) {
		free(w[k]);
		free(c[k]);
	}
	free(p.big);
	free(p.half);
	free(p.out);
	v4lconvert_destroy(p.cv);
}

int main(int argc, char **argv)
{
	int runs = 15, frames = 10, sw = 1920, sh = 1080, q = 85, removed;
	static const uint32_t fccs[] = { V4L2_PIX_FMT_RGB24,
					 V4L2_PIX_FMT_YUV420 };
	uint8_t *img, *jpg, *bare;
	size_t n, m;

	for (int i = 1; i < argc; i++)
		if (sscanf(argv[i], "--runs=%d", &runs) != 1 &&
		    sscanf(argv[i], "--frames=%d", &frames) != 1 &&
		    sscanf(argv[i], "--size=%dx%d", &sw, &sh) != 2 &&
		    sscanf(argv[i], "--quality=%d", &q) != 1) {
			fprintf(stderr,
				"usage: %s [--runs=N] [--frames=N] "
				"[--size=WxH] [--quality=Q]\n",
				argv[0]);
			return 2;
		}
	if (runs < 1 || frames < 1 || sw < 16 || sh < 16 || sw % 8 || sh % 8) {
		fprintf(stderr, "bad arguments (sizes: multiples of 8)\n");
		return 2;
	}
	img = jt_make_image(sw, sh, 1);
	jpg = jt_compress(img, sw, sh, TJSAMP_422, q, 0, &n);
	bare = jt_xmalloc(n);
	m = jt_strip_dht(jpg, n, bare, &removed); /* as webcams send it */
	printf("MJPEG %dx%d 4:2:2 q%d (%zu bytes), median of %d runs of %d "
	       "frames, ms per frame\n\n",
	       sw, sh, q, m, runs, frames);
	printf("| conversion | old wall | old CPU | scaled wall | scaled CPU "
	       "| wall gain | CPU gain |\n");
	printf("|---|---:|---:|---:|---:|---:|---:|\n");
	for (size_t f = 0; f < JT_ARRAY_SIZE(fccs); f++)
		for (int denom = 2; denom <= 4; denom *= 2)
			run(bare, m, sw, sh, fccs[f], denom, runs, frames);
	free(img);
	free(jpg);
	free(bare);
	return 0;
}
