/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * v4l2-autofocus: software autofocus for cameras with a focus motor and no
 * autofocus of their own (see loop.h and af.h).
 *   v4l2-autofocus [--device PATH | --vcam SPEC] [--every N] [--frames N]
 *                  [--size WxH] [--once] [--status-fd N] [--verbose]
 * --once ends the run at the first lock (a single focusing run);
 * --status-fd N reports the state on fd N, one byte per change: B (busy
 * scanning), R (focus reached), F (failed); the daemon then also ends when
 * that fd's reader or its parent goes away (libv4l2 started it:
 * src/v4l2/autofocus.h).
 * Opens the camera through libv4l2 with LIBV4L2_SHARE=1 (unless set), so
 * that with the frame server it runs beside the user's program. Stops on
 * SIGINT/SIGTERM, after --frames frames, or when the camera goes away.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <libv4l2.h>

#include "focus/loop.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

struct report {
	int fd, once;
	char last;
};

static void report(struct report *r, char state)
{
	if (r->fd < 0 || r->last == state)
		return;
	r->last = state;
	/* EPIPE: whoever started us is gone. */
	if (write(r->fd, &state, 1) < 0)
		stop = 1;
}

static int on_frame(void *ctx, unsigned long frame, const struct v4lc_af *af)
{
	struct report *r = ctx;
	int locked = af->state == V4LC_AF_LOCKED && af->wait == 0 &&
		     af->locked_m >= 0;

	(void)frame;
	report(r, locked ? 'R' : 'B');
	return locked && r->once;
}

static int usage(const char *me)
{
	fprintf(stderr,
		"usage: %s [--device PATH | --vcam SPEC] [--every N] "
		"[--frames N] [--size WxH] [--once] [--status-fd N] "
		"[--verbose]\n",
		me);
	return 2;
}

int main(int argc, char **argv)
{
	const char *dev = "/dev/video0", *vcam = NULL;
	struct v4lc_af_loop opt = { .every = 5, .stop = &stop };
	struct v4lc_af_stats st;
	struct sigaction sa;
	struct report rep = { -1, 0, 0 };
	int fd;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--verbose")) {
			opt.verbose = 1;
			continue;
		}
		if (!strcmp(a, "--once")) {
			rep.once = 1;
			continue;
		}
		if (!v)
			return usage(argv[0]);
		i++;
		if (!strcmp(a, "--device"))
			dev = v;
		else if (!strcmp(a, "--vcam"))
			vcam = v;
		else if (!strcmp(a, "--status-fd"))
			rep.fd = atoi(v);
		else if (!strcmp(a, "--every"))
			opt.every = atoi(v);
		else if (!strcmp(a, "--frames"))
			opt.max_frames = strtoul(v, NULL, 10);
		else if (!strcmp(a, "--size") &&
			 sscanf(v, "%ux%u", &opt.width, &opt.height) == 2)
			;
		else
			return usage(argv[0]);
	}
	if (opt.every < 1)
		return usage(argv[0]);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (rep.fd >= 0) {
		signal(SIGPIPE, SIG_IGN);
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() == 1)
			return 0; /* the parent is already gone */
	}
	opt.on_frame = on_frame;
	opt.ctx = &rep;
	setenv("LIBV4L2_SHARE", "1", 0);

	if (vcam) {
		char name[256];

		snprintf(name, sizeof(name), "libv4l-vcam:%s", vcam);
		fd = memfd_create(name, MFD_CLOEXEC);
		if (fd >= 0 && v4l2_fd_open(fd, 0) < 0) {
			close(fd);
			fd = -1;
		}
	} else {
		fd = v4l2_open(dev, O_RDWR);
	}
	if (fd < 0) {
		report(&rep, 'F');
		fprintf(stderr, "v4l2-autofocus: cannot open %s: %s\n",
			vcam ? "the virtual camera" : dev, strerror(errno));
		return 1;
	}
	report(&rep, 'B');
	if (v4lc_af_run(fd, &opt, &st) < 0) {
		report(&rep, 'F');
		fprintf(stderr, "v4l2-autofocus: %s: %s\n",
			vcam ? "virtual camera" : dev,
			errno == ENOTTY ? "no focus control" : strerror(errno));
		v4l2_close(fd);
		return 1;
	}
	v4l2_close(fd);
	if (opt.verbose)
		fprintf(stderr,
			"v4l2-autofocus: %lu frames, %lu measured, %lu moves, "
			"focus %d, first lock at frame %ld\n",
			st.frames, st.samples, st.writes, st.position,
			st.first_lock);
	return 0;
}
