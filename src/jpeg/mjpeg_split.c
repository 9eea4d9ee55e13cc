/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The MJPEG->YUV420 split of one frame across two threads (see
 * mjpeg_split.h): a persistent worker per decoder, created on the first
 * large frame, joined by v4lc_jpeg_split_free(); per frame a mutex and two
 * condition variables, no allocation.
 *
 * Where to split: the worker's top part costs its rows' entropy decode and
 * transform; the calling thread pays the entropy decode of those rows as
 * well, plus everything below. With e the cost of entropy-decoding a row
 * relative to decoding it fully, both finish together when the worker takes
 * 1 / (2 - e) of the rows. e depends on the frames (quality, noise), so it
 * is learnt from the CPU time both threads spent on the previous frames.
 *
 * When it pays: only when the worker really runs beside the calling thread.
 * On a machine whose other CPU is busy (and the scheduler's per-session
 * fairness gives this process one CPU's worth), the two halves run one
 * after the other and the split only adds the repeated entropy decoding.
 * So the wall-clock time of split frames is compared with the CPU time one
 * thread would need (estimated from the worker's time per row); while that
 * average is not clearly below 1, frames go back to one thread for a while,
 * then the split is tried again. LIBV4LCONVERT_THREADS: 1 no worker, 2 or
 * more split every large frame (tests, benchmarks).
 *
 * Skipping rows: libjpeg-turbo's jpeg_skip_scanlines() refuses raw output
 * (the YUV path's), so the rows are skipped the way it does itself for whole
 * iMCU rows: the entropy decoder's decode_mcu with no coefficient buffer
 * (libjpeg-turbo >= 1.5 discards the coefficients then), iMCU row counters
 * advanced. This needs the entropy decoder's interface from jpegint.h
 * (installed by libjpeg62-turbo-dev), and only for single-scan sequential
 * Huffman frames, where the coefficient controller is the one-pass one and
 * needs no state but those counters.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* secure_getenv, sched_getaffinity, pthread_setname_np */
#endif
#include "jpeg/mjpeg_split.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jpegint.h>

/*
 * Frames below this many pixels are decoded on one thread. Measured
 * (2-vCPU x86-64 VM, both threads SCHED_FIFO to stand for an idle machine,
 * 4:2:2 q85 YUV420, medians of 201): 160x120 0.56x, 320x240 1.09-1.13x,
 * 424x240 0.88-0.94x, 480x360 1.31x, 640x480 1.18-1.28x: the break-even is
 * near 320x240 (frames of ~0.17 ms); 640x480 leaves a margin.
 */
#ifndef V4LC_SPLIT_MIN_PIXELS
#define V4LC_SPLIT_MIN_PIXELS (640 * 480)
#endif

/* The pay-off test (r1024 below): starting value, the level above which
 * the split is suspended, and for how many frames. */
#define V4LC_SPLIT_R_START 768
#define V4LC_SPLIT_R_MAX 952 /* 0.93 */
#define V4LC_SPLIT_BACKOFF 64

struct v4lc_jpeg_split {
	pthread_mutex_t mu;
	pthread_cond_t job_cv, done_cv;
	pthread_t thread;
	pid_t pid;   /* the process that created the worker */
	int off;     /* no worker: one CPU, LIBV4LCONVERT_THREADS=1, ... */
	int forced;  /* LIBV4LCONVERT_THREADS=2 or more: split whether it
			 * pays or not (tests, benchmarks) */
	int started; /* the thread runs */
	int pending; /* a job was handed over and is not finished */
	int quit;
	/* the job */
	const uint8_t *src;
	size_t src_size;
	int dht, kind, w, h, rows;
	uint8_t *dst;
	/* its result */
	int result;
	int64_t cpu_ns;
	char err[JMSG_LENGTH_MAX + 64];
	/* balancing: entropy cost of a row relative to a full row, in 1/1024,
	 * for YUV and for RGB output */
	int e1024[2], rows_total, lines;
	/*
	 * Does it pay? The wall-clock time of split frames relative to the
	 * CPU time the frame would take on one thread, in 1/1024, averaged;
	 * while it is not clearly below 1 (the other CPU is busy with other
	 * work: the split then only adds the repeated entropy decoding), the
	 * next `backoff` frames are decoded on one thread, then it is tried
	 * again.
	 */
	int r1024, backoff;
	unsigned long frames;     /* jobs handed over */
	struct v4lc_jpeg_dec dec; /* the worker's own decompressor */
};

int64_t v4lc_jpeg_thread_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		return 0;
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t v4lc_jpeg_wall_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts))
		return 0;
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void v4lc_jpeg_skip_imcu_rows(j_decompress_ptr d, int n)
{
	int mcu_rows =
		d->comps_in_scan == 1 ? d->cur_comp_info[0]->v_samp_factor : 1;

	for (int i = 0; i < n; i++) {
		for (int y = 0; y < mcu_rows; y++)
			for (JDIMENSION x = 0; x < d->MCUs_per_row; x++)
				(*d->entropy->decode_mcu)(d, NULL);
		d->input_iMCU_row++;
		d->output_iMCU_row++;
	}
	d->output_scanline += (JDIMENSION)(n * d->max_v_samp_factor * DCTSIZE);
}

static void *worker_main(void *arg)
{
	struct v4lc_jpeg_split *s = arg;

	pthread_mutex_lock(&s->mu);
	for (;;) {
		int64_t t0;
		int r;

		while (!s->pending && !s->quit)
			pthread_cond_wait(&s->job_cv, &s->mu);
		if (s->quit)
			break;
		pthread_mutex_unlock(&s->mu);
		t0 = v4lc_jpeg_thread_ns();
		if (s->kind == V4LC_JPEG_RGB || s->kind == V4LC_JPEG_BGR)
			r = v4lc_jpeg_rgb(&s->dec, s->src, s->src_size, s->dht,
					  s->kind, s->dst, s->w, s->h, NULL,
					  s->rows, s->err, sizeof(s->err));
		else
			r = v4lc_jpeg_yuv(&s->dec, s->src, s->src_size, s->dht,
					  s->kind == V4LC_JPEG_YVU, s->dst,
					  s->w, s->h, NULL, s->rows, s->err,
					  sizeof(s->err));
		if (r == 1) { /* cannot be: the same header parsed before */
			snprintf(s->err, sizeof(s->err),
				 "JPEG worker could not decode the frame");
			r = -EAGAIN;
		}
		t0 = v4lc_jpeg_thread_ns() - t0;
		pthread_mutex_lock(&s->mu);
		s->result = r;
		s->cpu_ns = t0;
		s->pending = 0;
		pthread_cond_signal(&s->done_cv);
	}
	pthread_mutex_unlock(&s->mu);
	return NULL;
}

/*
 * May this process run two threads at once? 0: no; 1: yes; 2: yes, and
 * LIBV4LCONVERT_THREADS asks for the split on every large frame.
 * LIBV4LCONVERT_THREADS=1 keeps the decoder on the calling thread.
 */
static int threads_allowed(void)
{
	const char *env = secure_getenv("LIBV4LCONVERT_THREADS");
	int n = env && *env ? atoi(env) : 0;
	cpu_set_t set;

	if (n == 1)
		return 0;
	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set) || CPU_COUNT(&set) < 2)
		return 0;
	return n >= 2 ? 2 : 1;
}

static struct v4lc_jpeg_split *split_new(void)
{
	struct v4lc_jpeg_split *s = calloc(1, sizeof(*s));
	sigset_t all, old;
	pthread_attr_t attr;
	int ok, allowed;

	if (!s)
		return NULL;
	s->pid = getpid();
	/* typical of webcam frames; learnt from then on */
	s->e1024[0] = 450;
	s->e1024[1] = 330;
	s->r1024 = V4LC_SPLIT_R_START;
	allowed = threads_allowed();
	if (!allowed) {
		s->off = 1;
		return s;
	}
	s->forced = allowed == 2;
	if (pthread_mutex_init(&s->mu, NULL)) {
		s->off = 1;
		return s;
	}
	if (pthread_cond_init(&s->job_cv, NULL)) {
		pthread_mutex_destroy(&s->mu);
		s->off = 1;
		return s;
	}
	if (pthread_cond_init(&s->done_cv, NULL)) {
		pthread_cond_destroy(&s->job_cv);
		pthread_mutex_destroy(&s->mu);
		s->off = 1;
		return s;
	}
	/* The worker takes no asynchronous signals: the application's
	 * handlers run on its own threads, as they did before the library had
	 * a thread. Faults stay deliverable (blocked, they would kill the
	 * process; qemu-user also hung with them blocked). */
	sigfillset(&all);
	sigdelset(&all, SIGSEGV);
	sigdelset(&all, SIGBUS);
	sigdelset(&all, SIGFPE);
	sigdelset(&all, SIGILL);
	sigdelset(&all, SIGTRAP);
	sigdelset(&all, SIGSYS);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ok = !pthread_attr_init(&attr);
	if (ok) {
		pthread_attr_setstacksize(&attr, 256 * 1024);
		ok = !pthread_create(&s->thread, &attr, worker_main, s);
		pthread_attr_destroy(&attr);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!ok) {
		pthread_cond_destroy(&s->done_cv);
		pthread_cond_destroy(&s->job_cv);
		pthread_mutex_destroy(&s->mu);
		s->off = 1;
		return s;
	}
	pthread_setname_np(s->thread, "v4lc-mjpeg");
	s->started = 1;
	return s;
}

int v4lc_jpeg_split_may(const struct v4lc_jpeg_split *s, int w, int h)
{
	if ((uint64_t)w * (uint64_t)h < V4LC_SPLIT_MIN_PIXELS)
		return 0;
	/* no worker yet (first large frame) or a fork()ed copy: plan decides */
	if (!s || s->pid != getpid())
		return 1;
	return !s->off && s->backoff == 0;
}

int v4lc_jpeg_split_plan(struct v4lc_jpeg_split **split, j_decompress_ptr d,
			 int rgb)
{
	struct v4lc_jpeg_split *s = *split;
	int lines, n, k, e;

	if ((uint64_t)d->image_width * d->image_height < V4LC_SPLIT_MIN_PIXELS)
		return 0;
	/* Single-scan sequential Huffman frames only (webcam MJPEG). */
	if (d->progressive_mode || d->arith_code || d->buffered_image ||
	    d->comps_in_scan != d->num_components)
		return 0;
	if (s && s->pid != getpid()) {
		/*
		 * A child after fork(): the worker stayed in the parent.
		 * Forget the copy of its state (its pthread objects belong to
		 * the parent's thread; release only plain memory, and only
		 * when the worker was idle) and start a worker of our own.
		 */
		if (!s->pending) {
			v4lc_jpeg_dec_release(&s->dec);
			free(s);
		}
		*split = s = NULL;
	}
	if (!s && !(*split = s = split_new()))
		return 0;
	if (s->off)
		return 0;
	if (s->backoff > 0) {
		s->backoff--;
		return 0;
	}
	lines = d->max_v_samp_factor * DCTSIZE;
	n = (int)((d->image_height + (unsigned)lines - 1) / (unsigned)lines);
	if (n < 2)
		return 0;
	/* The worker's share 1 / (2 - e) of the iMCU rows, rounded. */
	e = s->e1024[rgb ? 1 : 0];
	k = (int)(((int64_t)n * 1024 * 2 + (2048 - e)) / (2 * (2048 - e)));
	if (k < 1)
		k = 1;
	if (k > n - 1)
		k = n - 1;
	s->rows_total = n;
	s->lines = lines;
	return k * lines;
}

void v4lc_jpeg_split_begin(struct v4lc_jpeg_split *s, const uint8_t *src,
			   size_t src_size, int dht, int kind, uint8_t *dst,
			   int w, int h, int rows)
{
	pthread_mutex_lock(&s->mu);
	s->src = src;
	s->src_size = src_size;
	s->dht = dht;
	s->kind = kind;
	s->dst = dst;
	s->w = w;
	s->h = h;
	s->rows = rows;
	s->result = 0;
	s->err[0] = 0;
	s->pending = 1;
	s->frames++;
	pthread_cond_signal(&s->job_cv);
	pthread_mutex_unlock(&s->mu);
}

int v4lc_jpeg_split_end(struct v4lc_jpeg_split *s, int64_t cpu_ns,
			int64_t wall_start, char *err, size_t err_len)
{
	int64_t wall_ns;

	int r, k, n;
	int64_t a;

	pthread_mutex_lock(&s->mu);
	while (s->pending)
		pthread_cond_wait(&s->done_cv, &s->mu);
	r = s->result;
	a = s->cpu_ns;
	pthread_mutex_unlock(&s->mu);
	wall_ns = wall_start > 0 ? v4lc_jpeg_wall_ns() - wall_start : 0;
	if (r && err && err_len)
		snprintf(err, err_len, "%s", s->err);

	/*
	 * Learn e: the worker spent a = k * f (f: a full row), this thread
	 * b = k * e * f + (n - k) * f, so e = b / a - (n - k) / k.
	 */
	n = s->rows_total;
	k = s->lines ? s->rows / s->lines : 0;
	if (!r && cpu_ns > 0 && a > 0 && k > 0 && n > k) {
		int64_t e = cpu_ns * 1024 / a - (int64_t)(n - k) * 1024 / k;
		/* one thread would spend a / k per row on all n rows */
		int64_t single = a * n / k;

		if (wall_ns > 0 && single > 0) {
			int64_t q = wall_ns * 1024 / single;

			if (q > 4096)
				q = 4096;
			s->r1024 = (int)((3 * (int64_t)s->r1024 + q) / 4);
			if (s->r1024 > V4LC_SPLIT_R_MAX && !s->forced) {
				s->backoff = V4LC_SPLIT_BACKOFF;
				s->r1024 = V4LC_SPLIT_R_START;
			}
		}

		if (e < 64)
			e = 64;
		if (e > 960)
			e = 960;
		int *ek = &s->e1024[s->kind == V4LC_JPEG_RGB ||
				    s->kind == V4LC_JPEG_BGR];

		/* a slow average: one preempted frame must not swing it */
		*ek = (int)((3 * (int64_t)*ek + e) / 4);
	}
#ifdef V4LC_SPLIT_DEBUG
	fprintf(stderr,
		"split: rows %d/%d e %d r %d worker %.3f main %.3f wall %.3f ms\n",
		s->rows, s->h, s->e1024[s->kind >= V4LC_JPEG_RGB], s->r1024,
		a / 1e6, cpu_ns / 1e6, wall_ns / 1e6);
#endif
	return r;
}

unsigned long v4lc_jpeg_split_count(const struct v4lc_jpeg_split *s)
{
	return s ? s->frames : 0;
}

void v4lc_jpeg_split_free(struct v4lc_jpeg_split *s)
{
	if (!s)
		return;
	if (s->pid != getpid()) {
		/* fork()ed copy: the thread and its objects are the parent's */
		if (!s->pending) {
			v4lc_jpeg_dec_release(&s->dec);
			free(s);
		}
		return;
	}
	if (s->started) {
		pthread_mutex_lock(&s->mu);
		s->quit = 1;
		pthread_cond_signal(&s->job_cv);
		pthread_mutex_unlock(&s->mu);
		pthread_join(s->thread, NULL);
		pthread_cond_destroy(&s->done_cv);
		pthread_cond_destroy(&s->job_cv);
		pthread_mutex_destroy(&s->mu);
	}
	v4lc_jpeg_dec_release(&s->dec);
	free(s);
}
