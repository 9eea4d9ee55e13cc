/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The autofocus capture loop: streams from a device through libv4l2,
 * measures the sampled frames and drives V4L2_CID_FOCUS_ABSOLUTE with the
 * decisions of af.h. Used by the v4l2-autofocus daemon and by tests.
 */
#ifndef V4LC_FOCUS_LOOP_H
#define V4LC_FOCUS_LOOP_H

#include <signal.h>
#include <stdint.h>

#include "focus/af.h"

struct v4lc_af_stats {
	unsigned long frames;  /* frames dequeued */
	unsigned long stale;   /* of them taken before the last move */
	unsigned long samples; /* frames measured */
	unsigned long writes;  /* focus control writes */
	long first_lock;       /* frame of the first lock, -1: none */
	long last_write;       /* frame of the last write, -1: none */
	uint64_t measure_ns;   /* time spent measuring */
	int position;          /* last position written */
};

struct v4lc_af_loop {
	int every;                /* measure one frame in `every` when locked */
	unsigned long max_frames; /* stop after so many (0: never) */
	unsigned int width, height;  /* capture size asked (0: the device's) */
	int verbose;                 /* decisions to stderr */
	volatile sig_atomic_t *stop; /* set by a signal handler, may be NULL */
	/* Called after each frame; a non-zero return stops the loop. */
	int (*on_frame)(void *ctx, unsigned long frame,
			const struct v4lc_af *af);
	void *ctx;
};

/*
 * Run on `fd`, a device opened through libv4l2 (v4l2_open/v4l2_fd_open).
 * Returns 0 when stopped (max_frames, stop, on_frame, or the stream ended
 * with ENODEV), or -1 with errno on failure: ENOTTY when the device has no
 * FOCUS_ABSOLUTE control, else the failing ioctl's error. The stream is
 * stopped and the buffers freed either way.
 */
int v4lc_af_run(int fd, const struct v4lc_af_loop *opt,
		struct v4lc_af_stats *st);

#endif
