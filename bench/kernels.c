/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Frame-level conversion throughput, per SIMD tier, side by side with the
 * distribution's libv4lconvert (loaded with dlopen from its absolute path)
 * on the same frames in the same process.
 *
 *   kernels [--quick] [--markdown] [--filter=GLOB] [--runs=N] [--size=WxH]
 *           [--original=PATH]
 *
 * Each figure is the median (and the min-max spread) of --runs timed runs;
 * a run repeats the conversion enough times to last about 20 ms (10 ms with
 * --quick). The runs of every tier and of the original are interleaved.
 * MPix/s counts source pixels.
 */
#include <errno.h>
#include <fnmatch.h>
#include <linux/videodev2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "../tests/common/origlib.h"
#include "core/frame.h"
#include "dispatch/cpu.h"
#include "dispatch/dsp.h"

/* --------------------------------------------------------------------- */
/* The distribution's libv4lconvert (tests/common/origlib.c).             */

struct original {
	struct origlib lib;
	struct v4lconvert_data *plain; /* no emulated controls */
	struct v4lconvert_data *flip;  /* emulated HFLIP/VFLIP enabled */
};

static int orig_load(struct original *o, const char *path)
{
	memset(o, 0, sizeof(*o));
	/* This program has no libv4lconvert of ours: ASan may load it. */
	if (origlib_open_path(&o->lib, path, ORIGLIB_QUIET))
		return -1;
	o->plain = origlib_create_plain(&o->lib);
	o->flip = origlib_create_flip(&o->lib);
	if (!o->plain) {
		if (o->flip)
			o->lib.destroy(o->flip);
		origlib_close(&o->lib);
		return -1;
	}
	return 0;
}

static void orig_unload(struct original *o)
{
	if (!o->lib.handle)
		return;
	o->lib.destroy(o->plain);
	if (o->flip)
		o->lib.destroy(o->flip);
	origlib_close(&o->lib);
}

/* --------------------------------------------------------------------- */
/* Conversions.                                                           */

enum kind { K_CONVERT, K_TRANSFORM, K_MEMCPY };

struct conv {
	const char *name;
	enum kind kind;
	uint32_t src, dst;
	int op;             /* enum v4lc_transform for K_TRANSFORM */
	int ohflip, ovflip; /* the original's emulated flips; -1 = n/a */
};

#define CONV(n, s, d)                                                          \
	{                                                                      \
		n, K_CONVERT, V4L2_PIX_FMT_##s, V4L2_PIX_FMT_##d, 0, 0, 0      \
	}
#define XFORM(n, f, o, h, v)                                                   \
	{                                                                      \
		n, K_TRANSFORM, V4L2_PIX_FMT_##f, V4L2_PIX_FMT_##f,            \
			V4LC_XFORM_##o, h, v                                   \
	}
#define COPY(n, f)                                                             \
	{                                                                      \
		n, K_MEMCPY, V4L2_PIX_FMT_##f, V4L2_PIX_FMT_##f, 0, -1, -1     \
	}

static const struct conv convs[] = {
	COPY("memcpy RGB24 (3 B/px)", RGB24),
	COPY("memcpy YUYV (2 B/px)", YUYV),
	COPY("memcpy YUV420 (1.5 B/px)", YUV420),
	CONV("YUYV->RGB24", YUYV, RGB24),
	CONV("UYVY->RGB24", UYVY, RGB24),
	CONV("YUYV->YUV420", YUYV, YUV420),
	CONV("YUV420->RGB24", YUV420, RGB24),
	CONV("NV12->RGB24", NV12, RGB24),
	CONV("RGB24->YUV420", RGB24, YUV420),
	CONV("RGB24->BGR24", RGB24, BGR24),
	XFORM("RGB24 hflip", RGB24, HFLIP, 1, 0),
	XFORM("RGB24 vflip", RGB24, VFLIP, 0, 1),
	XFORM("RGB24 rot180", RGB24, ROT180, 1, 1),
	XFORM("RGB24 rot90", RGB24, ROT90CW, -1, -1),
	XFORM("YUV420 hflip", YUV420, HFLIP, 1, 0),
	XFORM("YUV420 vflip", YUV420, VFLIP, 0, 1),
	XFORM("YUV420 rot180", YUV420, ROT180, 1, 1),
	XFORM("YUV420 rot90", YUV420, ROT90CW, -1, -1),
};

struct job {
	const struct conv *c;
	const struct v4lc_dsp *dsp; /* ours */
	struct original *orig;      /* or the original */
	struct v4lc_frame src, dst;
	struct v4l2_format osrc, odst;
};

static int run_once(struct job *j)
{
	if (j->orig) {
		struct v4lconvert_data *inst = j->c->kind == K_TRANSFORM
						       ? j->orig->flip
						       : j->orig->plain;
		int r = j->orig->lib.convert(inst, &j->osrc, &j->odst,
					     j->src.data, (int)j->src.size,
					     j->dst.data, (int)j->dst.size);
		return r < 0 ? -1 : 0;
	}
	switch (j->c->kind) {
	case K_MEMCPY:
		memcpy(j->dst.data, j->src.data, j->src.size);
		return 0;
	case K_CONVERT:
		return v4lc_frame_convert(j->dsp, &j->src, &j->dst, NULL);
	case K_TRANSFORM:
		return v4lc_frame_transform(j->dsp, &j->src, &j->dst,
					    (enum v4lc_transform)j->c->op);
	}
	return -EINVAL;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double time_iters(struct job *j, long iters)
{
	double t0 = now();

	for (long i = 0; i < iters; i++)
		run_once(j);
	return now() - t0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct result {
	int ok;
	double median, min, max;
};

#define MAX_RUNS 101

/* How many calls make one timed run last `target` seconds; 0 on failure. */
static long calibrate(struct job *j, double target)
{
	long iters = 1;
	double t;

	if (run_once(j)) /* also the warm-up */
		return 0;
	for (;;) {
		t = time_iters(j, iters);
		if (t >= target || iters >= (1L << 30))
			return iters;
		if (t < target / 64)
			iters *= 8;
		else
			iters = (long)((double)iters * target * 1.1 / t) + 1;
	}
}

static struct result summarise(double *mpix, int runs)
{
	struct result res;

	qsort(mpix, (size_t)runs, sizeof(double), cmp_double);
	res.ok = 1;
	res.min = mpix[0];
	res.max = mpix[runs - 1];
	res.median = runs & 1 ? mpix[runs / 2]
			      : 0.5 * (mpix[runs / 2 - 1] + mpix[runs / 2]);
	return res;
}

/*
 * Time several candidates on the same frames. The runs are interleaved
 * (run r of every candidate before run r + 1 of any), so that load from
 * other processes on a shared machine hits all of them alike and the
 * ratios stay meaningful even when absolute figures drift.
 */
#define MAX_CANDIDATES 8
static void measure_all(struct job *jobs, int n, int runs, double target,
			double pixels, struct result *res)
{
	long iters[MAX_CANDIDATES];
	static double mpix[MAX_CANDIDATES][MAX_RUNS];

	for (int c = 0; c < n; c++) {
		iters[c] = calibrate(&jobs[c], target);
		res[c] = (struct result){ 0, 0, 0, 0 };
	}
	for (int r = 0; r < runs; r++)
		for (int c = 0; c < n; c++) {
			double t;

			if (!iters[c])
				continue;
			t = time_iters(&jobs[c], iters[c]);
			mpix[c][r] = pixels * (double)iters[c] / t / 1e6;
		}
	for (int c = 0; c < n; c++)
		if (iters[c])
			res[c] = summarise(mpix[c], runs);
}

/* --------------------------------------------------------------------- */

static uint8_t *alloc_frame(size_t size)
{
	size_t rounded = (size + 63) & ~(size_t)63;
	uint8_t *p = aligned_alloc(64, rounded ? rounded : 64);

	if (!p) {
		fprintf(stderr, "kernels: out of memory\n");
		exit(2);
	}
	return p;
}

static void fill_random(uint8_t *p, size_t n, uint32_t seed)
{
	uint32_t x = seed * 2654435761u + 1;

	for (size_t i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		p[i] = (uint8_t)(x >> 11);
	}
}

static void v4l2_fmt(struct v4l2_format *f, uint32_t fourcc, int w, int h,
		     size_t size)
{
	memset(f, 0, sizeof(*f));
	f->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	f->fmt.pix.width = (uint32_t)w;
	f->fmt.pix.height = (uint32_t)h;
	f->fmt.pix.pixelformat = fourcc;
	f->fmt.pix.field = V4L2_FIELD_NONE;
	f->fmt.pix.bytesperline = (uint32_t)v4lc_frame_min_stride(fourcc, w);
	f->fmt.pix.sizeimage = (uint32_t)size;
	f->fmt.pix.colorspace = V4L2_COLORSPACE_SMPTE170M;
}

struct tier {
	const char *name;
	unsigned flags;
	struct v4lc_dsp dsp;
};

static void add_tier(struct tier *tiers, int *n, const char *name,
		     unsigned flags)
{
	struct tier *t = &tiers[(*n)++];

	memset(t, 0, sizeof(*t));
	t->name = name;
	t->flags = flags;
	v4lc_dsp_init(&t->dsp, flags);
}

struct opts {
	int quick, markdown, runs;
	const char *filter;
	double target;
};

static void fmt_num(char *buf, size_t n, double v)
{
	if (v >= 100)
		snprintf(buf, n, "%.0f", v);
	else
		snprintf(buf, n, "%.1f", v);
}

static void fmt_result(char *buf, size_t n, const struct result *r,
		       const char *absent)
{
	char a[24], b[24], c[24];

	if (!r->ok) {
		snprintf(buf, n, "%s", absent);
		return;
	}
	fmt_num(a, sizeof(a), r->median);
	fmt_num(b, sizeof(b), r->min);
	fmt_num(c, sizeof(c), r->max);
	snprintf(buf, n, "%s [%s-%s]", a, b, c);
}

static void print_row(const struct opts *op, const char *name, int w, int h,
		      const char *tier, const struct result *ours,
		      const struct result *orig, const char *orig_absent)
{
	char size[32], so[96], sg[96], ratio[32];

	snprintf(size, sizeof(size), "%dx%d", w, h);
	fmt_result(so, sizeof(so), ours, "fails");
	fmt_result(sg, sizeof(sg), orig, orig_absent);
	if (ours->ok && orig->ok && orig->median > 0)
		snprintf(ratio, sizeof(ratio), "%.2fx",
			 ours->median / orig->median);
	else
		snprintf(ratio, sizeof(ratio), "-");
	if (op->markdown)
		printf("| %s | %s | %s | %s | %s | %s |\n", name, size, tier,
		       so, sg, ratio);
	else
		printf("%-26s %-10s %-7s %22s %22s %8s\n", name, size, tier, so,
		       sg, ratio);
	fflush(stdout);
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: kernels [--quick] [--markdown] [--filter=GLOB] "
		"[--runs=N] [--size=WxH] [--original=PATH]\n"
		"  --quick        1280x720 only, 7 runs of ~10 ms\n"
		"  --markdown     emit a Markdown table\n"
		"  --filter=GLOB  only conversions whose name matches "
		"(fnmatch, e.g. '*flip*')\n"
		"  --runs=N       timed runs per figure (default 15)\n"
		"  --size=WxH     one frame size instead of the default three\n"
		"  --original=P   the libv4lconvert to compare with "
		"(default %s)\n",
		origlib_default_path);
}

/* What every conversion is measured with. */
struct bench {
	struct opts op;
	int sizes[3][2], nsizes;
	const char *orig_path;
	struct tier tiers[8];
	int ntiers;
	struct original orig;
	int have_orig;
};

/* -1 to go on, else the exit status. */
static int parse_args(int argc, char **argv, struct bench *b)
{
	struct opts *op = &b->op;
	int runs_set = 0, size_set = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--quick")) {
			op->quick = 1;
		} else if (!strcmp(a, "--markdown")) {
			op->markdown = 1;
		} else if (!strncmp(a, "--filter=", 9)) {
			op->filter = a + 9;
		} else if (!strncmp(a, "--runs=", 7)) {
			op->runs = atoi(a + 7);
			runs_set = 1;
			if (op->runs < 1 || op->runs > MAX_RUNS) {
				fprintf(stderr, "kernels: --runs 1..%d\n",
					MAX_RUNS);
				return 2;
			}
		} else if (!strncmp(a, "--size=", 7)) {
			if (sscanf(a + 7, "%dx%d", &b->sizes[0][0],
				   &b->sizes[0][1]) != 2 ||
			    b->sizes[0][0] < 1 || b->sizes[0][1] < 1 ||
			    b->sizes[0][0] > 16384 || b->sizes[0][1] > 16384) {
				fprintf(stderr, "kernels: bad --size\n");
				return 2;
			}
			size_set = 1;
		} else if (!strncmp(a, "--original=", 11)) {
			b->orig_path = a + 11;
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			return 0;
		} else {
			usage(stderr);
			return 2;
		}
	}
	if (op->quick) {
		if (!size_set) {
			b->sizes[0][0] = 1280;
			b->sizes[0][1] = 720;
		}
		if (!runs_set)
			op->runs = 7;
		op->target = 0.010;
	}
	if (op->quick || size_set)
		b->nsizes = 1;
	return -1;
}

/* scalar, then every tier the CPU runs. */
static void find_tiers(struct bench *b)
{
	unsigned cpu = v4lc_cpu_detect();

	add_tier(b->tiers, &b->ntiers, "scalar", 0);
	for (const struct v4lc_cpu_tier *t = v4lc_cpu_tiers;
	     t->name &&
	     b->ntiers < (int)(sizeof(b->tiers) / sizeof(b->tiers[0]));
	     t++)
		if ((cpu & t->flags) == t->flags)
			add_tier(b->tiers, &b->ntiers, t->name, t->flags);
}

static void print_header(const struct bench *b)
{
	const char *orig = b->have_orig ? b->orig.lib.path : "n/a (not loaded)";

	if (b->op.markdown) {
		printf("Tiers: %s", b->tiers[0].name);
		for (int t = 1; t < b->ntiers; t++)
			printf(", %s", b->tiers[t].name);
		printf(". Original: %s. MPix/s of source pixels, median "
		       "[min-max] of %d runs of ~%.0f ms.\n\n",
		       orig, b->op.runs, b->op.target * 1e3);
		printf("| conversion | size | tier | ours MPix/s | original "
		       "MPix/s | ratio |\n");
		printf("|---|---|---|---:|---:|---:|\n");
	} else {
		printf("# tiers:");
		for (int t = 0; t < b->ntiers; t++)
			printf(" %s", b->tiers[t].name);
		printf("; original: %s\n", orig);
		printf("# MPix/s of source pixels, median [min-max] of %d "
		       "runs of ~%.0f ms\n",
		       b->op.runs, b->op.target * 1e3);
		printf("%-26s %-10s %-7s %22s %22s %8s\n", "conversion", "size",
		       "tier", "ours MPix/s", "original MPix/s", "ratio");
	}
	fflush(stdout);
}

/* Whether the original does conversion cv (its flips set if it is one). */
static int orig_does(struct bench *b, const struct conv *cv)
{
	return b->have_orig && cv->ohflip >= 0 &&
	       (cv->kind == K_CONVERT ||
		(b->orig.flip &&
		 origlib_set_flip(&b->orig.lib, b->orig.flip, cv->ohflip,
				  cv->ovflip) == 0));
}

/* Candidates of job j: each tier (or memcpy), then the original; one row
 * per tier with the original's figure beside it. */
static void bench_job(struct bench *b, const struct job *j, int dw, int dh)
{
	const struct conv *cv = j->c;
	int w = j->src.width, h = j->src.height;
	struct job jobs[MAX_CANDIDATES];
	struct result res[MAX_CANDIDATES], ro = { 0, 0, 0, 0 };
	const char *orig_absent = "n/a";
	int n = 0, oi = -1;

	if (cv->kind == K_MEMCPY) {
		jobs[n++] = *j;
		orig_absent = "-";
	} else {
		for (int t = 0; t < b->ntiers; t++) {
			jobs[n] = *j;
			jobs[n++].dsp = &b->tiers[t].dsp;
		}
		if (orig_does(b, cv)) {
			oi = n;
			jobs[n] = *j;
			jobs[n].orig = &b->orig;
			v4l2_fmt(&jobs[n].osrc, cv->src, w, h, j->src.size);
			v4l2_fmt(&jobs[n].odst, cv->dst, dw, dh, j->dst.size);
			n++;
		}
	}
	measure_all(jobs, n, b->op.runs, b->op.target, (double)w * (double)h,
		    res);
	if (oi >= 0) {
		ro = res[oi];
		if (!ro.ok)
			orig_absent = "fails";
	}
	for (int t = 0; t < (oi >= 0 ? oi : n); t++)
		print_row(&b->op, cv->name, w, h,
			  cv->kind == K_MEMCPY ? "libc" : b->tiers[t].name,
			  &res[t], &ro, orig_absent);
}

/* Conversion number c at w x h, on random frames. 0, or -1 if its frame
 * sizes are impossible. */
static int bench_conversion(struct bench *b, size_t c, int w, int h)
{
	const struct conv *cv = &convs[c];
	int rot = cv->kind == K_TRANSFORM && (cv->op == V4LC_XFORM_ROT90CW ||
					      cv->op == V4LC_XFORM_ROT90CCW);
	int dw = rot ? h : w, dh = rot ? w : h;
	struct job j;

	memset(&j, 0, sizeof(j));
	j.c = cv;
	j.src = (struct v4lc_frame){
		cv->src, w, h, 0, NULL, v4lc_frame_bytes(cv->src, w, h, 0)
	};
	j.dst = (struct v4lc_frame){
		cv->dst, dw, dh, 0, NULL, v4lc_frame_bytes(cv->dst, dw, dh, 0)
	};
	if (!j.src.size || !j.dst.size) {
		fprintf(stderr, "kernels: bad geometry\n");
		return -1;
	}
	j.src.data = alloc_frame(j.src.size);
	j.dst.data = alloc_frame(j.dst.size);
	fill_random(j.src.data, j.src.size, (uint32_t)c + 1);
	memset(j.dst.data, 0, j.dst.size);
	bench_job(b, &j, dw, dh);
	free(j.src.data);
	free(j.dst.data);
	return 0;
}

int main(int argc, char **argv)
{
	static struct bench b = {
		.op = { 0, 0, 15, NULL, 0.020 },
		.sizes = { { 640, 480 }, { 1280, 720 }, { 1920, 1080 } },
		.nsizes = 3,
	};
	int r;

	b.orig_path = origlib_default_path;
	r = parse_args(argc, argv, &b);
	if (r >= 0)
		return r;
	find_tiers(&b);
	b.have_orig = orig_load(&b.orig, b.orig_path) == 0;
	print_header(&b);
	for (int s = 0; s < b.nsizes; s++)
		for (size_t c = 0; c < sizeof(convs) / sizeof(convs[0]); c++)
			if (!b.op.filter ||
			    !fnmatch(b.op.filter, convs[c].name, 0))
				if (bench_conversion(&b, c, b.sizes[s][0],
						     b.sizes[s][1]) < 0)
					return 2;
	if (!b.op.markdown)
		printf("# fails: the conversion returned an error; n/a: the "
		       "original has no such operation or is not "
		       "installed\n");
	orig_unload(&b.orig);
	return 0;
}
