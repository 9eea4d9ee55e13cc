/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A flood of control changes between the clients of one server (issue
 * 28, defect 3): one client sets a control as fast as it can (as the
 * autofocus daemon and auto gain do), two stay idle, one streams. The
 * server announces every change to the others (FS_CTRL_EVENT) on their
 * non-blocking request sockets; an idle client reads none of them. No
 * reply may be lost for that and no client dropped: the idle clients'
 * next G_CTRL reads the last value set, and the streaming client keeps
 * getting frames.
 *
 * One idle client speaks the protocol by hand so that the server answers
 * its request before it reads anything (a libv4l2 client reads the
 * events while it waits, which may make room for the reply in time):
 * the reply must be there, behind the events, whatever their number.
 *
 *   server-flood SERVER_BINARY
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

#define NAME "libv4l-vcam:YUYV:160x120"
#define SETS 2000 /* 1,000 filled the idle client's socket before */

/* One frame from the streaming client within 10 s (a deadline for a
 * loaded machine, not a rate), its buffer queued again: 0 or -1. */
static int take_frame(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	struct v4l2_buffer b = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
				 .memory = V4L2_MEMORY_MMAP };

	if (poll(&p, 1, 10000) != 1 || !(p.revents & POLLIN) ||
	    v4l2_ioctl(fd, VIDIOC_DQBUF, &b) < 0)
		return -1;
	return v4l2_ioctl(fd, VIDIOC_QBUF, &b);
}

/* The idle client reads the value last set: its reply arrived. */
static void check_idle(int idle, int want, const char *when)
{
	struct v4l2_control c = { .id = V4L2_CID_BRIGHTNESS };
	int r = v4l2_ioctl(idle, VIDIOC_G_CTRL, &c);

	CHECK(r == 0, "%s: the idle client's G_CTRL: %s", when,
	      strerror(errno));
	CHECK(r < 0 || c.value == want, "%s: the idle client reads %d, not %d",
	      when, c.value, want);
}

/* The raw client's G_CTRL of the brightness, sent; not waited for. */
static void raw_g_ctrl(int s)
{
	struct v4l2_control c = { .id = V4L2_CID_BRIGHTNESS };
	struct fs_ioctl m;

	memset(&m, 0, sizeof(m));
	m.h.type = FS_IOCTL;
	m.req = fs_wire_code(VIDIOC_G_CTRL);
	m.size = (uint32_t)fs_wire_size(m.req);
	CHECK(fs_wire_pack(m.req, &c, m.arg) == 0);
	CHECK(fs_send(s, &m, sizeof(m), -1, 0) == 0, "the raw G_CTRL");
}

/*
 * What the raw client has received, read without waiting: the value its
 * G_CTRL reply carries, or -1 when no reply is there (lost), -2 when the
 * server hung up (dropped). *events counts the events before it.
 */
static int raw_reply(int s, int *events)
{
	union {
		struct fs_hdr h;
		struct fs_ioctl io;
	} m;
	struct v4l2_control c;
	ssize_t n;
	int fd;

	*events = 0;
	while ((n = fs_recv(s, &m, sizeof(m), &fd, MSG_DONTWAIT)) > 0) {
		if (fd >= 0)
			close(fd);
		if (m.h.type == FS_CTRL_EVENT) {
			(*events)++;
			continue;
		}
		if (m.h.type != FS_IOCTL || n != (ssize_t)sizeof(m.io) ||
		    m.h.ret || fs_wire_unpack(m.io.req, m.io.arg, &c) < 0)
			return -3;
		return c.value;
	}
	return n == 0 ? -2 : -1;
}

/* SETS changes from setter, a frame taken every 100: the last value. */
static int flood(int setter, int streaming, int *frames)
{
	struct v4l2_control c = { .id = V4L2_CID_BRIGHTNESS };
	int bad = 0;

	for (int i = 0; i < SETS; i++) {
		c.value = i % 256;
		bad += v4l2_ioctl(setter, VIDIOC_S_CTRL, &c) < 0;
		if (i % 100 == 99)
			*frames += take_frame(streaming) == 0;
	}
	CHECK(bad == 0, "%d of %d S_CTRL failed", bad, SETS);
	return c.value;
}

/*
 * The raw client's G_CTRL while the events fill its socket, answered
 * before it reads: the server handled it once the setter has had two
 * replies after it (the second request reaches the server's next poll).
 */
static void check_raw(int raw, int setter, int want)
{
	struct v4l2_control c = { .id = V4L2_CID_BRIGHTNESS };
	int got, events;

	raw_g_ctrl(raw);
	for (int i = 0; i < 2; i++)
		CHECK(v4l2_ioctl(setter, VIDIOC_G_CTRL, &c) == 0 &&
		      c.value == want);
	got = raw_reply(raw, &events);
	CHECK(got == want,
	      "the raw idle client's reply, behind %d events: %d (-1 lost, "
	      "-2 dropped), not %d",
	      events, got, want);
}

int main(int argc, char **argv)
{
	char dir[] = "/tmp/server-flood-XXXXXX";
	int setter, idle, streaming, raw, raw_frames = -1, last, frames = 0;

	if (argc != 2)
		return 2;
	setvbuf(stdout, NULL, _IOLBF, 0);
	CHECK(clientenv_setup(dir, argv[1], "300") == 0);
	/* A lost reply is seen in 3 s rather than the default 15. */
	setenv("LIBV4L2_SHARE_TIMEOUT_MS", "3000", 1);
	setter = clientenv_open_shared(NAME);
	idle = clientenv_open_shared(NAME);
	streaming = clientenv_open_streaming(NAME);
	raw = rawclient_open(NAME, &raw_frames);
	if (setter < 0 || idle < 0 || streaming < 0 || raw < 0 || failures)
		return 1;

	last = flood(setter, streaming, &frames);
	check_raw(raw, setter, last);
	check_idle(idle, last, "after the first flood");
	last = flood(setter, streaming, &frames);
	check_raw(raw, setter, last);
	check_idle(idle, last, "after the second flood");
	CHECK(frames == 2 * SETS / 100,
	      "the streaming client got %d of %d frames", frames,
	      2 * SETS / 100);
	for (int i = 0; i < 5; i++)
		CHECK(take_frame(streaming) == 0, "frame %d after the floods",
		      i);

	close(raw);
	close(raw_frames);
	v4l2_close(streaming);
	v4l2_close(idle);
	v4l2_close(setter);
	printf("server-flood: %d checks, %d failures\n", (int)check_count,
	       failures);
	return failures != 0;
}
