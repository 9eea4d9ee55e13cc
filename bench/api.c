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

/* The run: its options, both libraries, the frames. */
struct bench {
	int w, h, runs, markdown;
	const char *filter;
	struct origlib orig;
	int have_orig;
	struct v4lconvert_data *ours, *ours1, *theirs;
	uint8_t *src, *dst, *img, *jpg;
	size_t jpg_size;
};

/* -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv, struct bench *b)
{
	for (int i = 1; i < argc; i++) {
		if (sscanf(argv[i], "--size=%dx%d", &b->w, &b->h) == 2)
			continue;
		if (sscanf(argv[i], "--runs=%d", &b->runs) == 1)
			continue;
		if (!strncmp(argv[i], "--filter=", 9))
			b->filter = argv[i] + 9;
		else if (!strcmp(argv[i], "--markdown"))
			b->markdown = 1;
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
	if (b->runs < 1 || b->runs > 64 || b->w < 16 || b->h < 16 ||
	    b->w % 16 || b->h % 16) {
		fprintf(stderr, "sizes must be multiples of 16, runs 1..64\n");
		return 2;
	}
	return -1;
}

/* Both libraries (ours twice: one instance for the 1T rows) and the
 * frames: a raw source buffer, the destination, one MJPEG frame. */
static void bench_open(struct bench *b)
{
	int w = b->w, h = b->h;

	b->have_orig = origlib_open(&b->orig, 1) == 0;
	if (b->have_orig)
		b->theirs = origlib_create_plain(&b->orig);
	b->ours = v4lconvert_create(-1);
	b->ours1 = v4lconvert_create(-1); /* LIBV4LCONVERT_THREADS=1 */
	b->src = malloc((size_t)w * h * 4 + (size_t)w * 16);
	b->dst = malloc((size_t)w * h * 3);
	b->img = jt_make_image(w, h, 1);
	b->jpg = jt_compress(b->img, w, h, TJSAMP_422, 85, 0, &b->jpg_size);
}

static void bench_close(struct bench *b)
{
	free(b->src);
	free(b->dst);
	free(b->img);
	free(b->jpg);
	v4lconvert_destroy(b->ours);
	v4lconvert_destroy(b->ours1);
	if (b->have_orig) {
		b->orig.destroy(b->theirs);
		origlib_close(&b->orig);
	}
}

static void print_header(const struct bench *b)
{
	/* The library reads the same variable to cap its tier. */
	const char *tier = getenv("LIBV4LCONVERT_SIMD");

	tier = tier && *tier ? tier : "best tier";
	if (b->markdown)
		printf("| %dx%d | ours (%s) MPix/s | original MPix/s | ratio | memcpy MPix/s | ours / memcpy |\n"
		       "|---|---:|---:|---:|---:|---:|\n",
		       b->w, b->h, tier);
	else
		printf("%dx%d, ours at %s\n%-16s %9s  %9s   %7s  %9s  %s\n",
		       b->w, b->h, tier, "conversion", "ours", "original",
		       "ratio", "memcpy", "ours/memcpy");
}

/* The formats of job jb and its source frame (random bytes, or the MJPEG
 * frame) into *in; returns its size. */
static int job_source(struct bench *b, const struct job *jb,
		      struct v4l2_format *s, struct v4l2_format *d,
		      uint8_t **in)
{
	int w = b->w, h = b->h, in_size;

	memset(s, 0, sizeof(*s));
	s->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	s->fmt.pix.pixelformat = jb->src;
	s->fmt.pix.width = (uint32_t)w;
	s->fmt.pix.height = (uint32_t)h;
	*d = *s;
	d->fmt.pix.pixelformat = jb->dst;
	v4lconvert_fixup_fmt(d);
	if (!jb->bpp_num) {
		*in = b->jpg;
		return (int)b->jpg_size;
	}
	*in = b->src;
	in_size = (int)((size_t)w * h * jb->bpp_num / jb->bpp_den);
	s->fmt.pix.bytesperline = (uint32_t)(w * jb->line_bpp);
	/* HM12 chroma comes in whole 16-line tile rows */
	if (jb->src == V4L2_PIX_FMT_NV12_16L16)
		in_size = w * h + w * ((h / 2 + 15) / 16 * 16);
	s->fmt.pix.sizeimage = (uint32_t)in_size;
	for (int i = 0; i < in_size; i++)
		b->src[i] = (uint8_t)(jt_rand() >> 8);
	return in_size;
}

/* calibrate, with our decoder's worker thread off: the library reads the
 * variable when the first large frame comes. */
static void calibrate_one_thread(struct timed *t)
{
	const char *old = getenv("LIBV4LCONVERT_THREADS");
	char *keep = old ? strdup(old) : NULL;

	setenv("LIBV4LCONVERT_THREADS", "1", 1);
	calibrate(t);
	if (keep)
		setenv("LIBV4LCONVERT_THREADS", keep, 1);
	else
		unsetenv("LIBV4LCONVERT_THREADS");
	free(keep);
}

/* Ours, the original and memcpy on job jb; one row. */
static void run_job(struct bench *b, const struct job *jb)
{
	int w = b->w, h = b->h, in_size, dsz;
	struct v4l2_format s, d;
	uint8_t *in;
	double med[3], lo[3], hi[3], ratio = 0;
	struct timed t[3] = { 0 };

	in_size = job_source(b, jb, &s, &d, &in);
	dsz = (int)d.fmt.pix.sizeimage;
	t[0] = (struct timed){ .fn = v4lconvert_convert,
			       .cv = jb->one_thread ? b->ours1 : b->ours };
	t[1] = (struct timed){ .fn = b->have_orig ? b->orig.convert : NULL,
			       .cv = b->theirs };
	for (int k = 0; k < 2; k++) {
		t[k].s = &s;
		t[k].d = &d;
		t[k].src = in;
		t[k].dst = b->dst;
		t[k].src_size = in_size;
		t[k].dst_size = w * h * 3;
	}
	/* memcpy of the larger of source and destination */
	t[2].src = b->src;
	t[2].dst = b->dst;
	t[2].src_size = jb->bpp_num && dsz < in_size ? in_size : dsz;
	if (t[2].src_size > w * h * 3)
		t[2].src_size = w * h * 3;
	if (jb->one_thread)
		calibrate_one_thread(&t[0]);
	else
		calibrate(&t[0]);
	if (b->have_orig)
		calibrate(&t[1]);
	calibrate(&t[2]);
	measure(t, 3, b->runs, (double)w * h, med, lo, hi, &ratio);
	if (med[0] == 0)
		printf("%s: ours failed: %s\n", jb->name,
		       v4lconvert_get_error_message(b->ours));
	else if (b->markdown)
		printf("| %s | %.0f (%.0f-%.0f) | %.0f (%.0f-%.0f) | %.2fx | %.0f | %.0f %% |\n",
		       jb->name, med[0], lo[0], hi[0], med[1], lo[1], hi[1],
		       ratio, med[2], 100 * med[0] / med[2]);
	else
		printf("%-16s %9.0f  %9.0f   %6.2fx  %9.0f  %4.0f %%\n",
		       jb->name, med[0], med[1], ratio, med[2],
		       100 * med[0] / med[2]);
}

int main(int argc, char **argv)
{
	struct bench b = { .w = 1280, .h = 720, .runs = 11 };
	int r = parse_args(argc, argv, &b);

	if (r >= 0)
		return r;
	bench_open(&b);
	print_header(&b);
	for (size_t j = 0; j < sizeof(jobs) / sizeof(jobs[0]); j++)
		if (!b.filter || strstr(jobs[j].name, b.filter))
			run_job(&b, &jobs[j]);
	bench_close(&b);
	return 0;
}
