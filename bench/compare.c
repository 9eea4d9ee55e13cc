/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bench/compare: the same frames through every library a webcam program
 * could use, in one process, interleaved run by run:
 *
 *   - ours, through the public libv4lconvert API, at each SIMD tier. The
 *     library reads LIBV4LCONVERT_SIMD once per process, so each tier is a
 *     private copy of our libv4lconvert.so.0 (a temporary file, unlinked
 *     once mapped) loaded with dlopen(RTLD_LOCAL | RTLD_DEEPBIND) while the
 *     variable names that tier: every copy has its own tier, and all tiers
 *     run in this process, interleaved with the peers. The rotations by
 *     90 and 270 degrees, which the public API applies only to the JPEG
 *     of cameras with the rot90-jpeg quirk, call our frame layer
 *     (v4lc_frame_transform, linked in) with each tier's kernel table
 *     instead;
 *   - the distribution's libv4lconvert (tests/common/origlib.c);
 *   - libyuv at its SSSE3, AVX2 and best (AVX-512) levels (MaskCpuFlags:
 *     "libyuv ssse3" runs its SSSE3 code and nothing above it);
 *   - libswscale (unscaled conversion);
 *   - libjpeg-turbo's tjDecompress2 / tjDecompressToYUV2 for MJPEG;
 *   - memcpy of (source + destination bytes) / 2: the same bytes moved.
 *
 * Every figure is MPix/s of source pixels, the median of --runs batches of
 * ~8 ms of the process's CPU time (all its threads, so the worker thread of
 * our MJPEG->YUV420 decoder counts; other processes' time slices do not),
 * or of wall-clock time with --wall (where that worker shortens a frame);
 * ratios are medians of per-run ratios (adjacent batches of one run).
 * "cache": one source and one destination frame, reused (they stay in the
 * caches); "fresh": a pool of frames of more than 3x the L3 cache, cycled,
 * so every conversion reads and writes memory the caches no longer hold.
 *
 *   bench/compare [--runs=N] [--size=WxH] [--mode=cache|fresh]
 *                 [--filter=SUBSTRING] [--markdown=FILE] [--tsv=FILE]
 *                 [--ours=PATH] [--wall]
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libavutil/log.h>

#include "compare.h"
#include "../tests/jpeg/jpegtest.h"

#ifndef V4LC_OURS_PATH
#define V4LC_OURS_PATH "src/libv4lconvert/libv4lconvert.so.0"
#endif

static clockid_t clock_id = CLOCK_PROCESS_CPUTIME_ID; /* --wall: monotonic */

static double now(void)
{
	struct timespec ts;

	clock_gettime(clock_id, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double batch(struct setting *s, int id)
{
	struct cand *c = &s->c[id];
	double t0;

	select_tier(id);
	t0 = now();
	for (int i = 0; i < c->iters; i++) {
		size_t k = c->pos++ % s->nslots;

		call(s, id, s->spool + k * s->sslot, s->dpool + k * s->dslot);
	}
	return now() - t0;
}

static void calibrate(struct setting *s, int id)
{
	struct cand *c = &s->c[id];

	c->ok = 0;
	if (!applicable(s, id))
		return;
	select_tier(id);
	if (call(s, id, s->spool, s->dpool) < 0)
		return;
	for (c->iters = 1;; c->iters *= 2)
		if (batch(s, id) > 0.008 || c->iters > 1 << 20)
			break;
	c->ok = 1;
}

/* Median over runs of a[k] / b[k]; 0 when either is missing. */
double ratio(const struct setting *s, int a, int b, int runs)
{
	double q[MAXRUNS];

	if (!s->c[a].ok || !s->c[b].ok)
		return 0;
	for (int k = 0; k < runs; k++)
		q[k] = s->c[a].r[k] / s->c[b].r[k];
	qsort(q, (size_t)runs, sizeof(q[0]), cmp_double);
	return q[runs / 2];
}

static uint8_t *jpeg_frame(int w, int h, size_t *size)
{
	uint8_t *img = jt_make_image(w, h, 1);
	uint8_t *jpg = jt_compress(img, w, h, TJSAMP_422, 85, 0, size);

	free(img);
	return jpg;
}

void *xalloc(size_t n)
{
	void *p = NULL;

	if (posix_memalign(&p, 64, n ? n : 64)) {
		fprintf(stderr, "out of memory (%zu bytes)\n", n);
		exit(1);
	}
	return p;
}

static int sws_ok = 1;

/* Prepare the buffers and peers of one setting; 0 when it cannot run. */
static int setup(struct setting *s, const struct conv *cv, int w, int h,
		 int fresh)
{
	size_t wh = (size_t)w * h;
	uint8_t *img = jt_make_image(w, h, 7), *jpg = NULL;

	memset(s, 0, sizeof(*s));
	s->cv = cv;
	s->w = w;
	s->h = h;
	s->fresh = fresh;
	if (cv->sbpp2)
		s->sbytes = wh * (size_t)cv->sbpp2 / 2;
	else
		jpg = jpeg_frame(w, h, &s->sbytes);
	s->dbytes = wh * (size_t)cv->dbpp2 / 2;
	/* a slot holds the memcpy's bytes too; MJPEG peers write 4 B/px */
	s->sslot = s->sbytes > (s->sbytes + s->dbytes) / 2
			   ? s->sbytes
			   : (s->sbytes + s->dbytes) / 2;
	s->dslot = cv->sbpp2 ? wh * 3 : wh * 4;
	/* libyuv rotates RGB24 frames as ARGB ones */
	if (cv->yuv == Y_ARGBROT90 || cv->yuv == Y_ARGBROT270)
		s->sslot = s->dslot = wh * 4;
	s->sslot = (s->sslot + 63) & ~(size_t)63;
	s->dslot = (s->dslot + 63) & ~(size_t)63;
	s->nslots = 1;
	if (fresh) {
		s->nslots = POOL_BYTES / (s->sbytes + s->dbytes) + 1;
		if (s->nslots < 2)
			s->nslots = 2;
	}
	s->spool = xalloc(s->sslot * s->nslots);
	s->dpool = xalloc(s->dslot * s->nslots);
	s->tmp = xalloc((size_t)w * 4 * 4);
	for (size_t k = 0; k < s->nslots; k++) {
		uint8_t *p = s->spool + k * s->sslot;

		if (jpg) {
			memcpy(p, jpg, s->sbytes);
			memset(p + s->sbytes, 0, s->sslot - s->sbytes);
		} else {
			/* the test image's bytes: smooth, textured data */
			for (size_t o = 0; o < s->sslot; o += wh * 3)
				memcpy(p + o, img,
				       s->sslot - o < wh * 3 ? s->sslot - o
							     : wh * 3);
		}
		memset(s->dpool + k * s->dslot, 0, s->dslot);
	}
	free(img);
	free(jpg);
	fill_fmt(&s->sf, cv->src, w, h, s->sbytes, cv->sbpp2);
	fill_fmt(&s->df, cv->dst, w, h, s->dbytes, cv->dbpp2);
	if (sws_ok && cv->sws_src >= 0)
		s->sws = sws_getContext(w, h, cv->sws_src, w, h, cv->sws_dst,
					SWS_BILINEAR, NULL, NULL, NULL);
	if (cv->tj)
		s->tj = tjInitDecompress();
	return 1;
}

static void teardown(struct setting *s)
{
	free(s->spool);
	free(s->dpool);
	free(s->tmp);
	if (s->sws)
		sws_freeContext(s->sws);
	if (s->tj)
		tjDestroy(s->tj);
}

int best_ours(const struct setting *s)
{
	for (int id = C_AVX2; id >= C_SCALAR; id--)
		if (s->c[id].ok)
			return id;
	return -1;
}

/* The command line. */
struct options {
	int runs, sizes[3][2], nsizes, modes; /* modes: bit 0 cache, 1 fresh */
	const char *filter, *ours, *md_path, *tsv_path;
};

/* 0, or 2 (the usage exit status). */
static int parse_args(int argc, char **argv, struct options *o)
{
	for (int i = 1; i < argc; i++) {
		int w, h;

		if (sscanf(argv[i], "--size=%dx%d", &w, &h) == 2) {
			o->sizes[0][0] = w;
			o->sizes[0][1] = h;
			o->nsizes = 1;
		} else if (sscanf(argv[i], "--runs=%d", &o->runs) == 1) {
		} else if (!strcmp(argv[i], "--mode=cache")) {
			o->modes = 1;
		} else if (!strcmp(argv[i], "--mode=fresh")) {
			o->modes = 2;
		} else if (!strncmp(argv[i], "--filter=", 9)) {
			o->filter = argv[i] + 9;
		} else if (!strncmp(argv[i], "--markdown=", 11)) {
			o->md_path = argv[i] + 11;
		} else if (!strncmp(argv[i], "--tsv=", 6)) {
			o->tsv_path = argv[i] + 6;
		} else if (!strncmp(argv[i], "--ours=", 7)) {
			o->ours = argv[i] + 7;
		} else if (!strcmp(argv[i], "--wall")) {
			clock_id = CLOCK_MONOTONIC;
		} else {
			fprintf(stderr,
				"usage: %s [--runs=N] [--size=WxH] "
				"[--mode=cache|fresh] [--filter=S] "
				"[--markdown=FILE] [--tsv=FILE] [--ours=PATH] "
				"[--wall]\n",
				argv[0]);
			return 2;
		}
	}
	if (o->runs < 1 || o->runs > MAXRUNS) {
		fprintf(stderr, "runs 1..%d\n", MAXRUNS);
		return 2;
	}
	for (int i = 0; i < o->nsizes; i++)
		if (o->sizes[i][0] % 2 || o->sizes[i][1] % 2 ||
		    o->sizes[i][0] < 16 || o->sizes[i][1] < 16) {
			fprintf(stderr, "sizes must be even, at least 16x16\n");
			return 2;
		}
	return 0;
}

/* Every candidate of one setting: calibrated, then `runs` interleaved
 * batches each; the median and spread of each. */
static void measure(struct setting *s, int runs)
{
	for (int id = 0; id < NCAND; id++)
		calibrate(s, id);
	for (int k = 0; k < runs; k++)
		for (int id = 0; id < NCAND; id++)
			if (s->c[id].ok)
				s->c[id].r[k] = (double)s->w * s->h *
						s->c[id].iters / batch(s, id) /
						1e6;
	for (int id = 0; id < NCAND; id++) {
		struct cand *c = &s->c[id];
		double q[MAXRUNS];

		if (!c->ok)
			continue;
		memcpy(q, c->r, sizeof(q[0]) * (size_t)runs);
		qsort(q, (size_t)runs, sizeof(q[0]), cmp_double);
		c->lo = q[0];
		c->hi = q[runs - 1];
		c->med = q[runs / 2];
	}
}

/* Conversion ci in each mode and size asked for. */
static void run_conversion(const struct options *o, size_t ci)
{
	const struct conv *cv = &convs[ci];

	if (set_flips(cv->hflip, cv->vflip)) {
		fprintf(stderr, "%s: cannot set the flip controls\n", cv->name);
		return;
	}
	for (int mode = 0; mode < 2; mode++) {
		if (!(o->modes & (1 << mode)))
			continue;
		for (int si = 0; si < o->nsizes; si++) {
			struct setting *s = calloc(1, sizeof(*s));

			setup(s, cv, o->sizes[si][0], o->sizes[si][1], mode);
			measure(s, o->runs);
			report(s, (int)ci, o->runs);
			teardown(s);
			free(s);
		}
	}
}

int main(int argc, char **argv)
{
	struct options o = {
		.runs = 11,
		.sizes = { { 640, 480 }, { 1280, 720 }, { 1920, 1080 } },
		.nsizes = 3,
		.modes = 3,
		.ours = V4LC_OURS_PATH,
	};

	if (parse_args(argc, argv, &o))
		return 2;
	av_log_set_level(AV_LOG_ERROR);
	load_ours(o.ours);
	open_original();
	init_yuv_masks();
	if (o.md_path && !(md = fopen(o.md_path, "w"))) {
		perror(o.md_path);
		return 1;
	}
	if (o.tsv_path && !(tsv = fopen(o.tsv_path, "w"))) {
		perror(o.tsv_path);
		return 1;
	}
	if (md)
		write_md_header(o.runs, clock_id == CLOCK_MONOTONIC);
	if (tsv)
		fprintf(tsv,
			"conversion\tsize\tdata\tcandidate\tmedian\tmin\tmax\n");
	for (size_t ci = 0; ci < NCONV; ci++)
		if (!o.filter || strstr(convs[ci].name, o.filter))
			run_conversion(&o, ci);
	if (md)
		write_md_targets(o.filter);
	if (tsv)
		fclose(tsv);
	close_libs();
	return 0;
}
