/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Cost of the software autofocus (src/focus):
 *  1. the focus-measure kernel, MPix/s per SIMD tier on a W x H luma plane
 *     (median of many runs);
 *  2. the capture loop at 30 fps measuring one frame in 5 (--every), on the
 *     virtual camera in "still" mode (each buffer rendered once, so the
 *     camera costs next to nothing and the process's CPU time is the
 *     autofocus's and libv4l2's): CPU % of one core while scanning and
 *     once locked, over --seconds.
 *   bench/focus [--size WxH] [--seconds S] [--every N]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>

#include <libv4l2.h>

#include "dispatch/cpu.h"
#include "dispatch/dsp.h"
#include "focus/loop.h"

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

static double cpu_s(void)
{
	struct rusage r;

	getrusage(RUSAGE_SELF, &r);
	return (double)r.ru_utime.tv_sec + r.ru_utime.tv_usec / 1e6 +
	       (double)r.ru_stime.tv_sec + r.ru_stime.tv_usec / 1e6;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void bench_kernel(const char *name, unsigned flags, const uint8_t *y,
			 int w, int h)
{
	struct v4lc_dsp dsp;
	double t[31];

	v4lc_dsp_init(&dsp, flags);
	for (int r = 0; r < 31; r++) {
		int64_t s = 0;
		uint64_t q = 0;
		double t0 = now_s();

		for (int row = 1; row < h - 1; row++)
			dsp.focus.laplacian(y + (size_t)(row - 1) * (size_t)w,
					    y + (size_t)row * (size_t)w,
					    y + (size_t)(row + 1) * (size_t)w,
					    w, &s, &q);
		t[r] = now_s() - t0;
		if (q == 1)
			printf(" "); /* keep the result alive */
	}
	qsort(t, 31, sizeof(t[0]), cmp_d);
	printf("| focus_laplacian | %dx%d | %s | %.0f | %.0f..%.0f |\n", w, h,
	       name, (double)w * h / t[15] / 1e6, (double)w * h / t[30] / 1e6,
	       (double)w * h / t[0] / 1e6);
}

struct run {
	double t_lock, cpu_lock;
	long lock_frame;
};

static int on_frame(void *ctx, unsigned long frame, const struct v4lc_af *af)
{
	struct run *r = ctx;

	if (r->lock_frame < 0 && af->state == V4LC_AF_LOCKED && af->wait == 0 &&
	    af->locked_m >= 0) {
		r->lock_frame = (long)frame;
		r->t_lock = now_s();
		r->cpu_lock = cpu_s();
	}
	return 0;
}

int main(int argc, char **argv)
{
	int w = 1280, h = 720, seconds = 12, every = 5;
	unsigned cpu = v4lc_cpu_flags();
	uint8_t *y;
	char name[96];
	int fd;
	struct v4lc_af_loop opt = { 0 };
	struct v4lc_af_stats st;
	struct run r = { .lock_frame = -1 };
	double t0, c0, t1, c1;

	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--size"))
			sscanf(argv[i + 1], "%dx%d", &w, &h);
		else if (!strcmp(argv[i], "--seconds"))
			seconds = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--every"))
			every = atoi(argv[i + 1]);
	}
	y = malloc((size_t)w * h);
	srand(1);
	for (size_t i = 0; i < (size_t)w * h; i++)
		y[i] = (uint8_t)rand();
	printf("| kernel | size | tier | MPix/s (median) | range |\n"
	       "|---|---|---|---|---|\n");
	bench_kernel("scalar", 0, y, w, h);
	if (cpu & V4LC_CPU_SSE2)
		bench_kernel("sse2", V4LC_CPU_SSE2, y, w, h);
	if (cpu & V4LC_CPU_NEON)
		bench_kernel("neon", V4LC_CPU_NEON, y, w, h);
	free(y);

	snprintf(name, sizeof(name), "libv4l-vcam:YUYV:%dx%d:still:lens=300", w,
		 h);
	fd = memfd_create(name, MFD_CLOEXEC);
	if (fd < 0 || v4l2_fd_open(fd, 0) < 0) {
		perror("virtual camera");
		return 1;
	}
	opt.every = every;
	opt.max_frames = (unsigned long)seconds * 30;
	opt.on_frame = on_frame;
	opt.ctx = &r;
	t0 = now_s();
	c0 = cpu_s();
	if (v4lc_af_run(fd, &opt, &st) < 0) {
		perror("autofocus loop");
		return 1;
	}
	t1 = now_s();
	c1 = cpu_s();
	v4l2_close(fd);
	printf("\nautofocus loop, YUYV %dx%d at 30 fps, one frame in %d measured "
	       "when locked:\n",
	       w, h, every);
	printf("  %lu frames in %.1f s, %lu measured (%.0f us each)\n",
	       st.frames, t1 - t0, st.samples,
	       st.samples ? st.measure_ns / 1e3 / (double)st.samples : 0.0);
	if (r.lock_frame >= 0) {
		printf("  scanning (frames 0..%ld): %.2f %% of one core "
		       "(includes the camera's first renders)\n",
		       r.lock_frame, 100 * (r.cpu_lock - c0) / (r.t_lock - t0));
		printf("  locked (%ld frames): %.2f %% of one core\n",
		       (long)st.frames - r.lock_frame,
		       100 * (c1 - r.cpu_lock) / (t1 - r.t_lock));
	} else {
		printf("  never locked: %.2f %% of one core overall\n",
		       100 * (c1 - c0) / (t1 - t0));
	}
	return 0;
}
