/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A camera whose control and format calls are slow (the virtual camera's
 * slow=MS, as a UVC camera under load answers S_CTRL in seconds) under
 * three clients of one server:
 *   A  sends a burst of S_CTRLs at once (the protocol by hand), so that
 *      the server always has one of A's slow calls to make;
 *   S  streams through libv4l2;
 *   R  makes quick requests (the protocol by hand, so that each reaches
 *      the server): G_FMT, STREAMON, STREAMOFF, QUERYCTRL.
 * Nothing is timed against the clock: what A's replies count is how
 * many slow calls went by.
 *   - Frames keep coming while A's calls run: S gets more than two
 *     frames per slow call (the camera gives one every 33 ms, a call
 *     takes SLOW_MS), where a server that holds its lock through a
 *     device call lets at most one through per call.
 *   - R's requests that need no device call overtake A's pending calls:
 *     twelve of them go by while at most three of A's calls end (a
 *     server that serves one request at a time makes R wait for one or
 *     two of A's calls each); R's QUERYCTRL, a device call, waits for at
 *     most the call under way (and one more for slack).
 *   - Every reply comes, with the answers a quick camera gives.
 *
 *   server-slow SERVER_BINARY
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/videodev2.h>

#include <libv4l2.h>

#include "../common/check.h"
#include "clientenv.h"
#include "rawclient.h"
#include "protocol/proto.h"
#include "protocol/wire.h"

#define SLOW_MS 500
#define NAME "libv4l-vcam:YUYV:160x120:slow=500"
#define BURST1 8      /* A's calls while S's frames are counted */
#define BURST2 16     /* A's calls while R's requests are made */
#define ROUNDS 4      /* of R's G_FMT, STREAMON, STREAMOFF */
#define WAIT_MS 60000 /* a hung server, not a rate */

/* A frame the streaming client has, taken and queued again: 1, or 0. */
static int take_frame(int fd)
{
	struct v4l2_buffer b = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
				 .memory = V4L2_MEMORY_MMAP };

	if (v4l2_ioctl(fd, VIDIOC_DQBUF, &b) < 0)
		return 0;
	return v4l2_ioctl(fd, VIDIOC_QBUF, &b) == 0;
}

/* A forwarded ioctl sent; its reply not waited for. */
static void raw_ioctl(int s, unsigned long req, const void *arg)
{
	struct fs_ioctl m;

	memset(&m, 0, sizeof(m));
	m.h.type = FS_IOCTL;
	m.req = fs_wire_code(req);
	m.size = (uint32_t)fs_wire_size(m.req);
	CHECK(fs_wire_pack(m.req, arg, m.arg) == 0);
	CHECK(fs_send(s, &m, sizeof(m), -1, 0) == 0, "sending a request");
}

/* The next message on s but control events, within WAIT_MS when wait,
 * into buf: its size, or -1. */
static ssize_t raw_reply(int s, void *buf, size_t size, int wait)
{
	struct pollfd p = { .fd = s, .events = POLLIN };
	union {
		struct fs_hdr h;
		uint8_t any[4096];
	} m;

	for (;;) {
		ssize_t n;
		int fd;

		if (poll(&p, 1, wait ? WAIT_MS : 0) != 1)
			return -1;
		n = fs_recv(s, &m, sizeof(m), &fd, 0);
		if (fd >= 0)
			close(fd);
		if (n < (ssize_t)sizeof(m.h))
			return -1;
		if (m.h.type == FS_CTRL_EVENT)
			continue;
		if ((size_t)n > size)
			return -1;
		memcpy(buf, &m, (size_t)n);
		return n;
	}
}

/* A's replies that have come, each a successful S_CTRL. */
static int a_replies(int a)
{
	struct fs_ioctl m;
	int n = 0;

	while (raw_reply(a, &m, sizeof(m), 0) == (ssize_t)sizeof(m)) {
		CHECK(m.h.type == FS_IOCTL && m.h.ret == 0,
		      "A's S_CTRL: type %u ret %d err %d", m.h.type, m.h.ret,
		      m.h.err);
		n++;
	}
	return n;
}

/* A's burst of n S_CTRLs of the brightness, from value base on. */
static void a_burst(int a, int n, int base)
{
	for (int i = 0; i < n; i++) {
		struct v4l2_control c = { .id = V4L2_CID_BRIGHTNESS,
					  .value = base + i };

		raw_ioctl(a, VIDIOC_S_CTRL, &c);
	}
}

/* The frames S got between A's first and last reply of a burst. */
static int frames_during_burst(int a, int s)
{
	int got = 0, frames = 0;

	a_burst(a, BURST1, 10);
	while (got < BURST1) {
		struct pollfd p[2] = { { .fd = a, .events = POLLIN },
				       { .fd = s, .events = POLLIN } };

		if (poll(p, 2, WAIT_MS) <= 0) {
			CHECK(0, "A's replies stopped at %d", got);
			break;
		}
		if (p[0].revents)
			got += a_replies(a);
		if ((p[1].revents & POLLIN) && take_frame(s))
			frames += got >= 1 && got < BURST1;
	}
	return frames;
}

/* R's request of the wire form, answered: its reply in m. */
static int r_ioctl(int r, unsigned long req, void *arg)
{
	struct fs_ioctl m;

	raw_ioctl(r, req, arg);
	if (raw_reply(r, &m, sizeof(m), 1) != (ssize_t)sizeof(m) ||
	    m.h.type != FS_IOCTL)
		return -1;
	fs_wire_unpack(m.req, m.arg, arg);
	return m.h.ret;
}

static int r_simple(int r, uint32_t type)
{
	struct fs_hdr h = { .type = type };

	if (fs_send(r, &h, sizeof(h), -1, 0) < 0 ||
	    raw_reply(r, &h, sizeof(h), 1) != (ssize_t)sizeof(h) ||
	    h.type != type)
		return -1;
	return h.ret;
}

/* ROUNDS of R's G_FMT, STREAMON, STREAMOFF: A's calls ended meanwhile. */
static int quick_requests(int a, int r)
{
	int ended = -a_replies(a);

	for (int i = 0; i < ROUNDS; i++) {
		struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };

		CHECK(r_ioctl(r, VIDIOC_G_FMT, &f) == 0 &&
			      f.fmt.pix.width == 160 &&
			      f.fmt.pix.pixelformat == V4L2_PIX_FMT_YUYV,
		      "R's G_FMT while streaming");
		CHECK(r_simple(r, FS_STREAMON) == 0, "R's STREAMON");
		CHECK(r_simple(r, FS_STREAMOFF) == 0, "R's STREAMOFF");
	}
	return ended + a_replies(a);
}

/* R's QUERYCTRL (a device call): A's calls ended while it waited. */
static int queryctrl(int a, int r)
{
	struct v4l2_queryctrl q = { .id = V4L2_CID_BRIGHTNESS };
	int ended = -a_replies(a);

	CHECK(r_ioctl(r, VIDIOC_QUERYCTRL, &q) == 0 && q.maximum == 255,
	      "R's QUERYCTRL");
	return ended + a_replies(a);
}

static void requests_during_burst(int a, int r)
{
	int got, ended;

	a_burst(a, BURST2, 100);
	got = raw_reply(a, &(struct fs_ioctl){ 0 }, sizeof(struct fs_ioctl),
			1) > 0;
	ended = quick_requests(a, r);
	got += ended;
	CHECK(ended <= 3,
	      "R's %d quick requests waited for %d of A's slow calls",
	      3 * ROUNDS, ended);
	for (int i = 0; i < 3; i++) {
		ended = queryctrl(a, r);
		got += ended;
		CHECK(ended <= 2, "R's QUERYCTRL waited for %d of A's calls",
		      ended);
	}
	CHECK(got < BURST2,
	      "A's burst (%d calls) was over before R's "
	      "requests (%d ended)",
	      BURST2, got);
	while (got < BURST2 && raw_reply(a, &(struct fs_ioctl){ 0 },
					 sizeof(struct fs_ioctl), 1) > 0)
		got++;
	CHECK(got == BURST2, "A got %d of %d replies", got, BURST2);
}

int main(int argc, char **argv)
{
	char dir[] = "/tmp/server-slow-XXXXXX";
	int s, a, r, a_frames = -1, r_frames = -1, frames;
	struct v4l2_control c = { .id = V4L2_CID_BRIGHTNESS };

	if (argc != 2)
		return 2;
	setvbuf(stdout, NULL, _IOLBF, 0);
	CHECK(clientenv_setup(dir, argv[1], "300") == 0);
	s = clientenv_open_streaming(NAME);
	a = rawclient_open(NAME, &a_frames);
	r = rawclient_open(NAME, &r_frames);
	if (s < 0 || a < 0 || r < 0 || failures)
		return 1;

	frames = frames_during_burst(a, s);
	printf("S got %d frames during %d of A's %d ms calls\n", frames,
	       BURST1 - 1, SLOW_MS);
	CHECK(frames > 2 * (BURST1 - 1) + FS_MAX_INFLIGHT + 1,
	      "S got %d frames while %d slow calls were made", frames,
	      BURST1 - 1);
	requests_during_burst(a, r);
	CHECK(v4l2_ioctl(s, VIDIOC_G_CTRL, &c) == 0 &&
		      c.value == 100 + BURST2 - 1,
	      "the brightness A set last: %d", c.value);

	close(a);
	close(a_frames);
	close(r);
	close(r_frames);
	v4l2_close(s);
	printf("server-slow: %d checks, %d failures\n", (int)check_count,
	       failures);
	return failures != 0;
}
