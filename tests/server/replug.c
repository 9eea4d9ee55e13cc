/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A shared camera unplugged and plugged back (src/server/server_replug.c),
 * in process on the virtual camera's unplug=N:replug=MS (src/vcam/replug.c:
 * each time the camera comes back it is unplugged again after N frames).
 *   carried: two clients of one server, one run with
 *     LIBV4L2_SHARE_REPLUG=1, one without. The one that asked streams on
 *     across the replugs: more frames than one plug-in of the camera has,
 *     every DQBUF succeeds in the format it set, sequence numbers always
 *     rising (the camera's restart from 0 hidden) and jumping over the gap,
 *     its fd never POLLERR/POLLHUP, and the controls it set before
 *     (brightness by S_CTRL, focus by S_EXT_CTRLS) have its values on the
 *     first frame after each replug (the camera comes back with its
 *     defaults, as a real one does). The other ends as without a replug:
 *     ENODEV, POLLERR|POLLHUP, no frame of a later plug-in.
 *   not back: a client that asked, on a camera that never comes back,
 *     gets ENODEV once its wait (LIBV4L2_SHARE_REPLUG_MS) is over.
 *   waiting: once a client that did not ask has its ENODEV (the server
 *     waits for the camera, back only in a minute), a non-blocking client
 *     that asked gets EAGAIN from DQBUF and its fd reports no error.
 * A hang fails by alarm.
 *   server-replug SERVER-BINARY
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <libv4l2.h>
#include <linux/videodev2.h>

#include "clientenv.h"
#include "../common/check.h"
#include "../common/hang.h"

#define NBUF 4
#define PER_PLUG 15 /* unplug=15: frames one plug-in of the camera gives */

struct cam {
	int fd;
	uint8_t *map[NBUF];
	size_t len[NBUF];
	struct v4l2_pix_format fmt;
	int frames, whole, jumps, err;
	uint32_t last_seq, max_step, backwards;
	int restored, lost_ctrls; /* after a jump: controls as set, or not */
};

#define BRIGHTNESS 201 /* vcam's default 128 */
#define FOCUS 77       /* vcam's default 512 */

/* The controls the carried client sets: one by S_CTRL, one by
 * S_EXT_CTRLS (the client sends each of its controls as S_CTRL). */
static int set_ctrls(int fd)
{
	struct v4l2_control b = { .id = V4L2_CID_BRIGHTNESS,
				  .value = BRIGHTNESS };
	struct v4l2_ext_control x = { .id = V4L2_CID_FOCUS_ABSOLUTE,
				      .value = FOCUS };
	struct v4l2_ext_controls e = { .which = V4L2_CTRL_WHICH_CUR_VAL,
				       .count = 1,
				       .controls = &x };

	if (v4l2_ioctl(fd, VIDIOC_S_CTRL, &b) < 0 ||
	    v4l2_ioctl(fd, VIDIOC_S_EXT_CTRLS, &e) < 0)
		return -1;
	return 0;
}

/* Whether the camera has the values set_ctrls() set. */
static int ctrls_kept(struct cam *c)
{
	struct v4l2_control b = { .id = V4L2_CID_BRIGHTNESS };
	struct v4l2_control f = { .id = V4L2_CID_FOCUS_ABSOLUTE };

	if (v4l2_ioctl(c->fd, VIDIOC_G_CTRL, &b) < 0 ||
	    v4l2_ioctl(c->fd, VIDIOC_G_CTRL, &f) < 0) {
		printf("G_CTRL after a replug: %s\n", strerror(errno));
		return 0;
	}
	if (b.value == BRIGHTNESS && f.value == FOCUS)
		return 1;
	printf("after a replug: brightness %d, focus %d (set %d, %d)\n",
	       b.value, f.value, BRIGHTNESS, FOCUS);
	return 0;
}

/* Open name shared, YUYV w x h, NBUF mmap buffers queued, streaming. */
static int cam_start(struct cam *c, const char *name, unsigned w, unsigned h)
{
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_requestbuffers req = {
		.count = NBUF,
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_MMAP,
	};
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;

	memset(c, 0, sizeof(*c));
	c->fd = clientenv_open_shared(name);
	if (c->fd < 0)
		return -1;
	f.fmt.pix.width = w;
	f.fmt.pix.height = h;
	f.fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
	if (v4l2_ioctl(c->fd, VIDIOC_S_FMT, &f) < 0 ||
	    v4l2_ioctl(c->fd, VIDIOC_REQBUFS, &req) < 0 || req.count != NBUF)
		return -1;
	c->fmt = f.fmt.pix;
	for (unsigned i = 0; i < NBUF; i++) {
		struct v4l2_buffer b = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
					 .memory = V4L2_MEMORY_MMAP,
					 .index = i };

		if (v4l2_ioctl(c->fd, VIDIOC_QUERYBUF, &b) < 0)
			return -1;
		c->len[i] = b.length;
		c->map[i] = v4l2_mmap(NULL, b.length, PROT_READ | PROT_WRITE,
				      MAP_SHARED, c->fd, b.m.offset);
		if (c->map[i] == MAP_FAILED ||
		    v4l2_ioctl(c->fd, VIDIOC_QBUF, &b) < 0)
			return -1;
	}
	return v4l2_ioctl(c->fd, VIDIOC_STREAMON, &type);
}

/* One frame: checked, counted, queued again. 0, or -1 (c->err). */
static int cam_next(struct cam *c)
{
	struct v4l2_buffer b = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
				 .memory = V4L2_MEMORY_MMAP };
	int distinct = 0;

	if (v4l2_ioctl(c->fd, VIDIOC_DQBUF, &b) < 0) {
		c->err = errno;
		return -1;
	}
	for (size_t i = 97; i < b.bytesused && distinct < 8; i += 97)
		distinct += c->map[b.index][i] != c->map[b.index][i - 97];
	c->whole += b.bytesused == c->fmt.sizeimage && distinct >= 8;
	if (c->frames && b.sequence <= c->last_seq)
		c->backwards++;
	if (c->frames && b.sequence > c->last_seq + 1) {
		c->jumps++;
		if (b.sequence - c->last_seq > c->max_step)
			c->max_step = b.sequence - c->last_seq;
	}
	c->last_seq = b.sequence;
	c->frames++;
	if (v4l2_ioctl(c->fd, VIDIOC_QBUF, &b) < 0) {
		c->err = errno;
		return -1;
	}
	return 0;
}

static void cam_close(struct cam *c)
{
	for (unsigned i = 0; i < NBUF; i++)
		if (c->map[i] && c->map[i] != MAP_FAILED)
			v4l2_munmap(c->map[i], c->len[i]);
	if (c->fd >= 0)
		v4l2_close(c->fd);
}

/* poll()'s revents on fd now (0: nothing). */
static int revents(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) == 1 ? p.revents : 0;
}

static void test_carried(void)
{
	static const char name[] =
		"libv4l-vcam:YUYV:320x240:unplug=15:replug=300";
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct cam x, y;
	int x_err_events = 0, y_alive = 1, y_events = 0, jumps = 0;

	setenv("LIBV4L2_SHARE_REPLUG", "1", 1);
	setenv("LIBV4L2_SHARE_REPLUG_MS", "30000", 1);
	CHECK(cam_start(&x, name, 320, 240) == 0, "asking client streams");
	unsetenv("LIBV4L2_SHARE_REPLUG");
	unsetenv("LIBV4L2_SHARE_REPLUG_MS");
	CHECK(cam_start(&y, name, 320, 240) == 0, "other client streams");
	CHECK(set_ctrls(x.fd) == 0, "S_CTRL, S_EXT_CTRLS: %s", strerror(errno));
	if (failures)
		return;
	alarm(120);
	/* More than two plug-ins give: the stream went on across two. */
	while (x.frames < 2 * PER_PLUG + 10) {
		if (cam_next(&x) < 0)
			break;
		if (x.jumps > jumps) {
			/* the first frame of a plug-in: the camera is there */
			jumps = x.jumps;
			if (ctrls_kept(&x))
				x.restored++;
			else
				x.lost_ctrls++;
		}
		x_err_events += (revents(x.fd) & (POLLERR | POLLHUP)) != 0;
		if (y_alive && cam_next(&y) < 0) {
			y_alive = 0;
			y_events = revents(y.fd);
		}
	}
	alarm(0);
	printf("carried: %d frames, %d jumps (largest %u), the other client "
	       "%d frames then %s\n",
	       x.frames, x.jumps, x.max_step, y.frames, strerror(y.err));
	CHECK(x.frames == 2 * PER_PLUG + 10, "DQBUF failed after %d frames: %s",
	      x.frames, strerror(x.err));
	CHECK(x.whole == x.frames, "%d of %d frames whole pictures", x.whole,
	      x.frames);
	CHECK(!x.backwards, "sequence went back %u times", x.backwards);
	CHECK(x.jumps >= 1 && x.max_step >= 2, "the gap is no sequence jump");
	CHECK(!x_err_events, "the asking client's fd said POLLERR/POLLHUP");
	CHECK(x.restored >= 1 && !x.lost_ctrls,
	      "controls kept across %d replugs, lost across %d", x.restored,
	      x.lost_ctrls);
	CHECK(v4l2_ioctl(x.fd, VIDIOC_G_FMT, &f) == 0 &&
		      f.fmt.pix.width == 320 && f.fmt.pix.height == 240 &&
		      f.fmt.pix.pixelformat == V4L2_PIX_FMT_YUYV,
	      "format after the replugs");
	CHECK(!y_alive && y.err == ENODEV, "the other client: %s",
	      strerror(y.err));
	CHECK(y.frames <= PER_PLUG, "the other client got %d frames", y.frames);
	CHECK(y_events & (POLLERR | POLLHUP), "the other client's poll: 0x%x",
	      y_events);
	cam_close(&x);
	cam_close(&y);
}

static void test_not_back(void)
{
	static const char name[] = "libv4l-vcam:YUYV:352x288:unplug=10";
	struct cam c;
	double t_last = 0;

	setenv("LIBV4L2_SHARE_REPLUG", "1", 1);
	setenv("LIBV4L2_SHARE_REPLUG_MS", "500", 1);
	CHECK(cam_start(&c, name, 352, 288) == 0, "asking client streams");
	unsetenv("LIBV4L2_SHARE_REPLUG");
	unsetenv("LIBV4L2_SHARE_REPLUG_MS");
	if (failures)
		return;
	alarm(60);
	while (cam_next(&c) == 0)
		t_last = hang_now_ms();
	alarm(0);
	printf("not back: %d frames, ENODEV %.0f ms after the last one\n",
	       c.frames, hang_now_ms() - t_last);
	CHECK(c.err == ENODEV, "the stream ended with %s", strerror(c.err));
	CHECK(c.frames <= 10, "%d frames from a camera giving 10", c.frames);
	CHECK(revents(c.fd) & (POLLERR | POLLHUP), "poll after the end");
	cam_close(&c);
}

static void test_waiting(void)
{
	static const char name[] =
		"libv4l-vcam:YUYV:320x240:unplug=5:replug=60000";
	struct cam x, w;
	int r = 0, stale = 0, fl;

	setenv("LIBV4L2_SHARE_REPLUG", "1", 1);
	CHECK(cam_start(&x, name, 320, 240) == 0, "asking client streams");
	unsetenv("LIBV4L2_SHARE_REPLUG");
	CHECK(cam_start(&w, name, 320, 240) == 0, "other client streams");
	if (failures)
		return;
	alarm(60);
	while (cam_next(&w) == 0)
		;
	CHECK(w.err == ENODEV, "the other client: %s", strerror(w.err));
	fl = fcntl(x.fd, F_GETFL);
	fcntl(x.fd, F_SETFL, fl | O_NONBLOCK);
	/* the frames sent before the unplug first (the newest is kept) */
	while ((r = cam_next(&x)) == 0 && stale < 2 * NBUF)
		stale++;
	alarm(0);
	printf("waiting: %d frames from before the unplug, then %s\n", stale,
	       r ? strerror(x.err) : "frames");
	CHECK(r < 0 && x.err == EAGAIN, "non-blocking DQBUF while waiting: %s",
	      r ? strerror(x.err) : "frames");
	CHECK(!(revents(x.fd) & (POLLERR | POLLHUP)), "poll while waiting");
	cam_close(&x);
	cam_close(&w);
}

int main(int argc, char **argv)
{
	char dir[] = "/tmp/v4l-replug-XXXXXX", cmd[64];

	if (argc != 2)
		return 2;
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGALRM, hang_on_alarm);
	CHECK(clientenv_setup(dir, argv[1], "200") == 0, "runtime dir");
	test_carried();
	test_not_back();
	test_waiting();
	usleep(500 * 1000); /* the servers' idle exit (200 ms) */
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		printf("could not remove %s\n", dir);
	printf("server-replug: %d checks, %d failures\n", check_count,
	       failures);
	return failures != 0;
}
