/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Whole-frame conversions through the public API, ours against the
 * distribution's libv4lconvert in the same process on the same frames:
 * MPix/s (median of several timed batches, with the min-max spread) and the
 * ratio. Our tier follows LIBV4LCONVERT_SIMD, so run it once per tier.
 * The batches of ours, the original and a memcpy of the larger of the
 * source and destination frames (the bandwidth ceiling for moving those
 * bytes once) are interleaved, so load from other processes hits all three
 * alike. The ratio is the median of the per-run ratios ours / original
 * (adjacent batches), steadier than the ratio of the medians on a loaded
 * machine.
 *
 * Time is the CPU time of the whole process by default: every thread's,
 * so the worker thread that decodes part of a large MJPEG frame
 * counts (CPU cost), while time slices lost to other processes on a shared
 * machine do not. --wall measures wall-clock time instead, where that
 * worker shortens a conversion. The rows "MJPEG->... 1T" are ours with
 * the worker off (LIBV4LCONVERT_THREADS=1), for comparison.
 *
 *   bench/api [--size=WxH] [--runs=N] [--filter=SUBSTRING] [--markdown]
 *           [--wall]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libv4lconvert.h>

#include "../tests/common/origlib.h"
#include "../tests/jpeg/jpegtest.h"

struct job {
	const char *name;
	uint32_t src, dst;
	int bpp_num, bpp_den; /* source bytes per pixel; 0 = MJPEG */
	int line_bpp;         /* bytes per pixel of the first plane's lines */
	int one_thread;       /* ours with LIBV4LCONVERT_THREADS=1 */
};

static const struct job jobs[] = {
	{ "YUYV->RGB24", V4L2_PIX_FMT_YUYV, V4L2_PIX_FMT_RGB24, 2, 1, 2, 0 },
	{ "UYVY->RGB24", V4L2_PIX_FMT_UYVY, V4L2_PIX_FMT_RGB24, 2, 1, 2, 0 },
	{ "YUYV->YUV420", V4L2_PIX_FMT_YUYV, V4L2_PIX_FMT_YUV420, 2, 1, 2, 0 },
	{ "YUV420->RGB24", V4L2_PIX_FMT_YUV420, V4L2_PIX_FMT_RGB24, 3, 2, 1,
	  0 },
	{ "NV12->RGB24", V4L2_PIX_FMT_NV12, V4L2_PIX_FMT_RGB24, 3, 2, 1, 0 },
	{ "RGB24->YUV420", V4L2_PIX_FMT_RGB24, V4L2_PIX_FMT_YUV420, 3, 1, 3,
	  0 },
	{ "RGB24->BGR24", V4L2_PIX_FMT_RGB24, V4L2_PIX_FMT_BGR24, 3, 1, 3, 0 },
	{ "YUV420->YVU420", V4L2_PIX_FMT_YUV420, V4L2_PIX_FMT_YVU420, 3, 2, 1,
	  0 },
	{ "RGB565->RGB24", V4L2_PIX_FMT_RGB565, V4L2_PIX_FMT_RGB24, 2, 1, 2,
	  0 },
	{ "XRGB32->RGB24", V4L2_PIX_FMT_XRGB32, V4L2_PIX_FMT_RGB24, 4, 1, 4,
	  0 },
	{ "GREY->RGB24", V4L2_PIX_FMT_GREY, V4L2_PIX_FMT_RGB24, 1, 1, 1, 0 },
	{ "Y16->RGB24", V4L2_PIX_FMT_Y16, V4L2_PIX_FMT_RGB24, 2, 1, 2, 0 },
	{ "HSV24->RGB24", V4L2_PIX_FMT_HSV24, V4L2_PIX_FMT_RGB24, 3, 1, 3, 0 },
	{ "SBGGR8->RGB24", V4L2_PIX_FMT_SBGGR8, V4L2_PIX_FMT_RGB24, 1, 1, 1,
	  0 },
	{ "SBGGR8->YUV420", V4L2_PIX_FMT_SBGGR8, V4L2_PIX_FMT_YUV420, 1, 1, 1,
	  0 },
	{ "SBGGR10->RGB24", V4L2_PIX_FMT_SBGGR10, V4L2_PIX_FMT_RGB24, 2, 1, 2,
	  0 },
	{ "NV16->RGB24", V4L2_PIX_FMT_NV16, V4L2_PIX_FMT_RGB24, 2, 1, 1, 0 },
	{ "M420->YUV420", V4L2_PIX_FMT_M420, V4L2_PIX_FMT_YUV420, 3, 2, 1, 0 },
	{ "HM12->YUV420", V4L2_PIX_FMT_NV12_16L16, V4L2_PIX_FMT_YUV420, 3, 2, 1,
	  0 },
	{ "MJPEG->RGB24", V4L2_PIX_FMT_MJPEG, V4L2_PIX_FMT_RGB24, 0, 1, 0, 0 },
	{ "MJPEG->RGB24 1T", V4L2_PIX_FMT_MJPEG, V4L2_PIX_FMT_RGB24, 0, 1, 0,
	  1 },
	{ "MJPEG->YUV420", V4L2_PIX_FMT_MJPEG, V4L2_PIX_FMT_YUV420, 0, 1, 0,
	  0 },
	{ "MJPEG->YUV420 1T", V4L2_PIX_FMT_MJPEG, V4L2_PIX_FMT_YUV420, 0, 1, 0,
	  1 },
};

typedef int convert_fn(struct v4lconvert_data *, const struct v4l2_format *,
		       const struct v4l2_format *, unsigned char *, int,
		       unsigned char *, int);

/*
 * CPU time of the process by default (all its threads: our MJPEG worker
 * too): time slices lost to other processes on a shared machine do not
 * count. --wall: wall-clock time instead.
 */
static clockid_t clock_id = CLOCK_PROCESS_CPUTIME_ID;

static double now(void)
{
	struct timespec ts;

	clock_gettime(clock_id, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* One timed setting: a conversion through one library, or a memcpy. */
struct timed {
	convert_fn *fn; /* NULL: memcpy of `src_size` bytes */
	struct v4lconvert_data *cv;
	struct v4l2_format *s, *d;
	uint8_t *src, *dst;
	int src_size, dst_size, iters;
	double r[64];
};

static double batch(struct timed *t)
{
	double t0 = now();

	for (int i = 0; i < t->iters; i++)
		if (t->fn)
			t->fn(t->cv, t->s, t->d, t->src, t->src_size, t->dst,
			      t->dst_size);
		else
			memcpy(t->dst, t->src, (size_t)t->src_size);
	return now() - t0;
}

/* Iterations for a batch of ~20 ms; 0 when the conversion fails. */
static int calibrate(struct timed *t)
{
	if (t->fn && t->fn(t->cv, t->s, t->d, t->src, t->src_size, t->dst,
			   t->dst_size) < 0)
		return 0;
	for (t->iters = 1;; t->iters *= 2)
		if (batch(t) > 0.02 || t->iters > 1 << 20)
			return 1;
}

/*
 * Runs of the settings are interleaved (run k of each before run k + 1 of
 * any), so load from other processes hits them alike; median MPix/s and
 * the spread of each.
 */
static void measure(struct timed *t, int n, int runs, double pix, double *med,
		    double *lo, double *hi, double *ratio)
{
	double q[64];

	for (int k = 0; k < runs; k++)
		for (int j = 0; j < n; j++)
			if (t[j].iters)
				t[j].r[k] =
					pix * t[j].iters / batch(&t[j]) / 1e6;
	/* ours / original per run (adjacent batches), then the median */
	*ratio = 0;
	if (t[0].iters && t[1].iters) {
		for (int k = 0; k < runs; k++)
			q[k] = t[0].r[k] / t[1].r[k];
		qsort(q, (size_t)runs, sizeof(q[0]), cmp_double);
		*ratio = q[runs / 2];
	}
	for (int j = 0; j < n; j++) {
		med[j] = lo[j] = hi[j] = 0;
		if (!t[j].iters)
			continue;
		qsort(t[j].r, (size_t)runs, sizeof(t[j].r[0]), cmp_double);
		lo[j] = t[j].r[0];
		hi[j] = t[j].r[runs - 1];
		med[j] = t[j].r[runs / 2];
	}
}

int main(int argc, char **argv)
{
	int w = 1280, h = 720, runs = 11, markdown = 0;
	const char *filter = NULL;
	struct origlib orig;
	struct v4lconvert_data *ours, *ours1, *theirs = NULL;
	int have_orig;

	for (int i = 1; i < argc; i++) {
		if (sscanf(argv[i], "--size=%dx%d", &w, &h) == 2)
			continue;
		if (sscanf(argv[i], "--runs=%d", &runs) == 1)
			continue;
		if (!strncmp(argv[i], "--filter=", 9))
			filter = argv[i] + 9;
		else if (!strcmp(argv[i], "--markdown"))
			markdown = 1;
		else if (!strcmp(argv[i], "--wall"))
			clock_id = CLOCK_MONOTONIC;
		else {
			fprintf(stderr,
				"usage: %s [--size=WxH] [--runs=N] "
				"[--filter=S] [--markdown] [--wall]\n",
				argv[0]);
			return 2;
		}
	}
	if (runs < 1 || runs > 64 || w < 16 || h < 16 || w % 16 || h % 16) {
		fprintf(stderr, "sizes must be multiples of 16, runs 1..64\n");
		return 2;
	}

	have_orig = origlib_open(&orig, 1) == 0;
	if (have_orig)
		theirs = origlib_create_plain(&orig);
	ours = v4lconvert_create(-1);
	ours1 = v4lconvert_create(-1); /* LIBV4LCONVERT_THREADS=1 */

	size_t raw = (size_t)w * h * 4 + (size_t)w * 16, jpg_size;
	uint8_t *src = malloc(raw), *dst = malloc((size_t)w * h * 3);
	uint8_t *img = jt_make_image(w, h, 1);
	uint8_t *jpg = jt_compress(img, w, h, TJSAMP_422, 85, 0, &jpg_size);

	/* The library reads the same variable to cap its tier. */
	const char *tier = getenv("LIBV4LCONVERT_SIMD");

	tier = tier && *tier ? tier : "best tier";
	if (markdown)
		printf("| %dx%d | ours (%s) MPix/s | original MPix/s | ratio | memcpy MPix/s | ours / memcpy |\n"
		       "|---|---:|---:|---:|---:|---:|\n",
		       w, h, tier);
	else
		printf("%dx%d, ours at %s\n%-16s %9s  %9s   %7s  %9s  %s\n", w,
		       h, tier, "conversion", "ours", "original", "ratio",
		       "memcpy", "ours/memcpy");
	for (size_t j = 0; j < sizeof(jobs) / sizeof(jobs[0]); j++) {
		const struct job *jb = &jobs[j];
		struct v4l2_format s, d;
		uint8_t *in = src;
		int in_size;
		double a, b = 0, alo, ahi, blo = 0, bhi = 0, mc, ratio = 0;

		if (filter && !strstr(jb->name, filter))
			continue;
		memset(&s, 0, sizeof(s));
		s.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		s.fmt.pix.pixelformat = jb->src;
		s.fmt.pix.width = (uint32_t)w;
		s.fmt.pix.height = (uint32_t)h;
		d = s;
		d.fmt.pix.pixelformat = jb->dst;
		v4lconvert_fixup_fmt(&d);
		if (jb->bpp_num) {
			in_size = (int)((size_t)w * h * jb->bpp_num /
					jb->bpp_den);
			s.fmt.pix.bytesperline = (uint32_t)(w * jb->line_bpp);
			/* HM12 chroma comes in whole 16-line tile rows */
			if (jb->src == V4L2_PIX_FMT_NV12_16L16)
				in_size = w * h + w * ((h / 2 + 15) / 16 * 16);
			s.fmt.pix.sizeimage = (uint32_t)in_size;
			for (int i = 0; i < in_size; i++)
				src[i] = (uint8_t)(jt_rand() >> 8);
		} else {
			in = jpg;
			in_size = (int)jpg_size;
		}
		{
			struct timed t[3] = {
				{ v4lconvert_convert,
				  jb->one_thread ? ours1 : ours,
				  &s,
				  &d,
				  in,
				  dst,
				  in_size,
				  w * h * 3,
				  0,
				  { 0 } },
				{ have_orig ? orig.convert : NULL,
				  theirs,
				  &s,
				  &d,
				  in,
				  dst,
				  in_size,
				  w * h * 3,
				  0,
				  { 0 } },
				/* memcpy of the larger of source and destination */
				{ NULL,
				  NULL,
				  NULL,
				  NULL,
				  src,
				  dst,
				  0,
				  0,
				  0,
				  { 0 } },
			};
			double med[3], lo[3], hi[3];
			int dsz = (int)d.fmt.pix.sizeimage;

			t[2].src_size =
				jb->bpp_num && dsz < in_size ? in_size : dsz;
			if (t[2].src_size > w * h * 3)
				t[2].src_size = w * h * 3;
			if (jb->one_thread) {
				/* read when the first large frame comes */
				const char *old =
					getenv("LIBV4LCONVERT_THREADS");
				char *keep = old ? strdup(old) : NULL;

				setenv("LIBV4LCONVERT_THREADS", "1", 1);
				calibrate(&t[0]);
				if (keep)
					setenv("LIBV4LCONVERT_THREADS", keep,
					       1);
				else
					unsetenv("LIBV4LCONVERT_THREADS");
				free(keep);
			} else
				calibrate(&t[0]);
			if (have_orig)
				calibrate(&t[1]);
			calibrate(&t[2]);
			measure(t, 3, runs, (double)w * h, med, lo, hi, &ratio);
			a = med[0], alo = lo[0], ahi = hi[0];
			b = med[1], blo = lo[1], bhi = hi[1];
			mc = med[2];
		}
		if (a == 0)
			printf("%s: ours failed: %s\n", jb->name,
			       v4lconvert_get_error_message(ours));
		else if (markdown)
			printf("| %s | %.0f (%.0f-%.0f) | %.0f (%.0f-%.0f) | %.2fx | %.0f | %.0f %% |\n",
			       jb->name, a, alo, ahi, b, blo, bhi, ratio, mc,
			       100 * a / mc);
		else
			printf("%-16s %9.0f  %9.0f   %6.2fx  %9.0f  %4.0f %%\n",
			       jb->name, a, b, ratio, mc, 100 * a / mc);
	}
	free(src);
	free(dst);
	free(img);
	free(jpg);
	v4lconvert_destroy(ours);
	v4lconvert_destroy(ours1);
	if (have_orig) {
		orig.destroy(theirs);
		origlib_close(&orig);
	}
	return 0;
}
