/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The autofocus loop end to end: libv4l2 (test variant) on the virtual
 * camera's simulated lens, in several formats (packed and planar luma read
 * directly, MJPEG converted by libv4l2). The camera is wrapped to count
 * focus writes and to read the lens's true in-focus position. Per run:
 * lock within 2 % of the range within a bounded number of frames, no write
 * over 300 frames once locked, a new lock after the scene moves, and a
 * clean stop when the camera disappears (DQBUF fails with ENODEV).
 * Again with frames that come late, as from a camera on a loaded host
 * (frames queued in the driver, the bus, a frame server): each frame shows
 * the lens as it was LATENCY frames before, and says so by its timestamp.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/videodev2.h>

#include <libv4l2.h>

#include "focus/loop.h"
#include "v4l2/testhook.h"
#include "vcam/lens.h"
#include "vcam/vcam.h"
#include "../common/check.h"

#define TOLERANCE (1023 / 50)
/* Frames to the first lock, at most (a coarse and a fine scan); late
 * frames add their lateness to each of the scans' ~30 moves. */
#define LOCK_BOUND 250
#define lock_bound() (LOCK_BOUND + 30 * cam.latency)

#define MAX_LATENCY 16

static struct {
	void *priv;
	int fd;
	unsigned long writes;
	int gone; /* DQBUF fails with ENODEV */
	/* frames late: a focus write reaches the lens `latency` frames
	 * after it is made, and each frame carries the time of the frame
	 * `latency` before it */
	int latency;
	unsigned long dq;              /* frames dequeued */
	struct timeval t[MAX_LATENCY]; /* their times, the last ones */
	int pending[MAX_LATENCY];      /* focus writes on their way */
	unsigned long pending_at[MAX_LATENCY];
	int npending;
} cam;

static void *wrap_init(int fd)
{
	cam.priv = v4lc_vcam_ops.init(fd);
	cam.fd = fd;
	return cam.priv;
}

/* A late camera's DQBUF: the writes due reach the lens first; the frame
 * gets the time of the one `latency` frames before it. */
static int late_dqbuf(void *priv, int fd, struct v4l2_buffer *b)
{
	int r, k = 0;

	for (int i = 0; i < cam.npending; i++) {
		if (cam.dq >= cam.pending_at[i] + (unsigned long)cam.latency) {
			struct v4l2_control c = { V4L2_CID_FOCUS_ABSOLUTE,
						  cam.pending[i] };

			v4lc_vcam_ops.ioctl(priv, fd, VIDIOC_S_CTRL, &c);
		} else {
			cam.pending[k] = cam.pending[i];
			cam.pending_at[k++] = cam.pending_at[i];
		}
	}
	cam.npending = k;
	r = v4lc_vcam_ops.ioctl(priv, fd, VIDIOC_DQBUF, b);
	if (r < 0)
		return r;
	cam.t[cam.dq % MAX_LATENCY] = b->timestamp;
	if (cam.dq >= (unsigned long)cam.latency)
		b->timestamp = cam.t[(cam.dq - cam.latency) % MAX_LATENCY];
	else
		b->timestamp = (struct timeval){ 0, 0 };
	cam.dq++;
	return r;
}

static int wrap_ioctl(void *priv, int fd, unsigned long req, void *arg)
{
	struct v4l2_control *c = arg;

	if (req == VIDIOC_S_CTRL && c->id == V4L2_CID_FOCUS_ABSOLUTE) {
		cam.writes++;
		if (cam.latency && cam.npending < MAX_LATENCY) {
			cam.pending[cam.npending] = c->value;
			cam.pending_at[cam.npending++] = cam.dq;
			return 0;
		}
	}
	if (req == VIDIOC_DQBUF && cam.gone) {
		errno = ENODEV;
		return -1;
	}
	if (req == VIDIOC_DQBUF && cam.latency)
		return late_dqbuf(priv, fd, arg);
	return v4lc_vcam_ops.ioctl(priv, fd, req, arg);
}

static int cam_ctrl(uint32_t id, int set, int value)
{
	struct v4l2_control c = { id, value };

	if (v4lc_vcam_ops.ioctl(cam.priv, cam.fd,
				set ? VIDIOC_S_CTRL : VIDIOC_G_CTRL, &c) < 0)
		return -1;
	return c.value;
}

/* The script of one run, driven from the loop's per-frame callback. */
struct script {
	int phase;            /* 0 first lock, 1 static, 2 moved, 3 gone */
	int scans;            /* af->scans when the scene moved */
	unsigned long t;      /* frame the phase began */
	unsigned long writes; /* cam.writes when the phase began */
	int infocus2;
	long lock_frames[2];
	int off[2]; /* |lens - in-focus| at each lock */
	unsigned long static_writes;
};

static int locked_and_settled(const struct v4lc_af *af)
{
	return af->state == V4LC_AF_LOCKED && af->wait == 0 &&
	       af->locked_m >= 0;
}

static int on_frame(void *ctx, unsigned long frame, const struct v4lc_af *af)
{
	struct script *s = ctx;

	switch (s->phase) {
	case 0:
	case 2:
		if (locked_and_settled(af) &&
		    (s->phase == 0 || af->scans > s->scans)) {
			int k = s->phase / 2;

			s->lock_frames[k] = (long)(frame - s->t);
			s->off[k] =
				abs(cam_ctrl(V4L2_CID_FOCUS_ABSOLUTE, 0, 0) -
				    cam_ctrl(V4LC_VCAM_CID_INFOCUS, 0, 0));
			s->phase++;
			s->t = frame;
			s->writes = cam.writes;
		} else if (frame - s->t > 2 * (unsigned long)lock_bound()) {
			return 1; /* never locked: the checks report it */
		}
		break;
	case 1:
		if (frame - s->t == 300) {
			s->static_writes = cam.writes - s->writes;
			cam_ctrl(V4LC_VCAM_CID_INFOCUS, 1, s->infocus2);
			s->scans = af->scans;
			s->phase = 2;
			s->t = frame;
		}
		break;
	case 3:
		/* The camera goes away: the loop must end by itself. */
		cam.gone = 1;
		if (frame - s->t > 20)
			return 1;
		break;
	}
	return 0;
}

static void run(const char *spec, int start, int infocus2, int latency)
{
	char name[128];
	int fd;
	struct v4l2_control c = { V4L2_CID_FOCUS_ABSOLUTE, start };
	struct v4lc_af_loop opt = { .every = 5, .max_frames = 3000 };
	struct v4lc_af_stats st;
	struct script s = { .infocus2 = infocus2,
			    .lock_frames = { -1, -1 },
			    .off = { 9999, 9999 } };

	snprintf(name, sizeof(name), "libv4l-vcam:%s", spec);
	fd = memfd_create(name, 0);
	memset(&cam, 0, sizeof(cam));
	CHECK(v4l2_fd_open(fd, 0) == fd);
	cam.latency = latency;
	CHECK(v4l2_ioctl(fd, VIDIOC_S_CTRL, &c) == 0);
	cam.writes = 0;
	opt.on_frame = on_frame;
	opt.ctx = &s;
	CHECK(v4lc_af_run(fd, &opt, &st) == 0);
	printf("%-28s start %4d, %d late: lock after %ld frames (off %d), static "
	       "writes %lu, relock after %ld frames (off %d); %lu frames, "
	       "%lu measured, %.1f us/measure\n",
	       spec, start, latency, s.lock_frames[0], s.off[0],
	       s.static_writes, s.lock_frames[1], s.off[1], st.frames,
	       st.samples,
	       st.samples ? st.measure_ns / 1e3 / (double)st.samples : 0.0);
	CHECK(s.lock_frames[0] >= 0 && s.lock_frames[0] <= lock_bound());
	CHECK(s.off[0] <= TOLERANCE);
	CHECK(s.static_writes == 0);
	CHECK(s.lock_frames[1] >= 0 && s.lock_frames[1] <= lock_bound());
	CHECK(s.off[1] <= TOLERANCE);
	/* It ended because the camera went away, not by a frame limit. */
	CHECK(s.phase == 3 && st.frames < 3000);
	CHECK(v4l2_close(fd) == 0);
}

int main(void)
{
	static struct libv4l_dev_ops wrapped;

	wrapped = v4lc_vcam_ops;
	wrapped.init = wrap_init;
	wrapped.ioctl = wrap_ioctl;
	lv2_test_set_plugin(&wrapped);

	/* Small frames: the camera renders (and blurs) every one of them. */
	run("YUYV:160x120:nopace:lens=300", 0, 800, 0);
	run("YU12:160x120:nopace:lens=650", 1023, 200, 0);
	run("UYVY:160x120:nopace:lens=980", 100, 40, 0);
	run("MJPG:160x120:nopace:lens=500", 700, 120, 0);
	/* frames 8 and 12 late (more than the frames the loop lets a move
	 * settle, 3 + 1 per 32 units of travel) */
	run("YUYV:160x120:nopace:lens=300", 0, 800, 8);
	run("YU12:160x120:nopace:lens=650", 1023, 200, 12);
	printf("%s\n", failures ? "FAILED" : "ok");
	return failures != 0;
}
