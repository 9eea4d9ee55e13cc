/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A hostile driver under the frame server: the server loads the plugin of
 * hostile_plugin.c (LIBV4L2_PLUGIN_DIR), whose fault LV2_HOSTILE names
 * (padded strides with a short sizeimage, ENUM_FMT without end, a format
 * changed behind S_FMT, DQBUF of an index never queued, bytesused beyond
 * the length). For each, two clients stream at once (one scaled, one at
 * the camera's size) and must end normally: every DQBUF gives a frame
 * within its buffer or a clear errno, never a signal or a hang. Then a
 * third client must still get answers (QUERYCAP, ENUM_FMT) from the same
 * server. Each fault gets its own camera size, hence its own server.
 *
 *   server-hostile SERVER_BINARY
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/videodev2.h>

#include <libv4l2.h>

#include "../common/check.h"
#include "clientenv.h"

#define NBUF 4
#define FRAMES 12

/* Shared only: a direct open means no server, to the test a failure. */
static int open_shared(unsigned w, unsigned h)
{
	char name[64];

	snprintf(name, sizeof(name), "libv4l-vcam:YUYV:%ux%u", w, h);
	return clientenv_open_shared(name);
}

/* DQBUF until FRAMES results; returns the good frames or -1 (insane). */
static int capture(int fd, void **map, const struct v4l2_buffer *q)
{
	int good = 0;

	for (int i = 0; i < FRAMES; i++) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		struct v4l2_buffer b = {
			.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
			.memory = V4L2_MEMORY_MMAP,
		};

		if (poll(&p, 1, 3000) != 1)
			break; /* a stalled stream: allowed, not a hang */
		if (v4l2_ioctl(fd, VIDIOC_DQBUF, &b) < 0) {
			if (errno != EAGAIN && errno != EIO && errno != EINVAL)
				return -1;
			continue;
		}
		if (b.index >= NBUF || b.bytesused > q[b.index].length)
			return -1;
		if (!(b.flags & V4L2_BUF_FLAG_ERROR) && b.bytesused) {
			/* touch every byte reported */
			volatile uint8_t sum = 0;

			for (uint32_t k = 0; k < b.bytesused; k++)
				sum ^= ((uint8_t *)map[b.index])[k];
			(void)sum;
			good++;
		}
		if (v4l2_ioctl(fd, VIDIOC_QBUF, &b) < 0)
			return -1;
	}
	return good;
}

/* A streaming client (in a child): exit 0 after sane results, 3 when it
 * got good frames (the baseline wants them). */
static int stream_client(unsigned w, unsigned h, unsigned cw, unsigned ch)
{
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_requestbuffers r = {
		.count = NBUF,
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_MMAP,
	};
	struct v4l2_buffer q[NBUF];
	void *map[NBUF];
	int fd = open_shared(w, h), type = V4L2_BUF_TYPE_VIDEO_CAPTURE, good;

	if (fd < 0)
		return 10;
	f.fmt.pix.width = cw;
	f.fmt.pix.height = ch;
	f.fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
	if (v4l2_ioctl(fd, VIDIOC_S_FMT, &f) < 0 ||
	    v4l2_ioctl(fd, VIDIOC_REQBUFS, &r) < 0 || r.count > NBUF)
		return 0; /* refused clearly */
	for (unsigned i = 0; i < r.count; i++) {
		memset(&q[i], 0, sizeof(q[i]));
		q[i].index = i;
		q[i].type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		q[i].memory = V4L2_MEMORY_MMAP;
		if (v4l2_ioctl(fd, VIDIOC_QUERYBUF, &q[i]) < 0)
			return 11;
		map[i] = v4l2_mmap(NULL, q[i].length, PROT_READ, MAP_SHARED, fd,
				   q[i].m.offset);
		if (map[i] == MAP_FAILED || v4l2_ioctl(fd, VIDIOC_QBUF, &q[i]))
			return 12;
	}
	if (v4l2_ioctl(fd, VIDIOC_STREAMON, &type) < 0)
		return 0;
	good = capture(fd, map, q);
	v4l2_ioctl(fd, VIDIOC_STREAMOFF, &type);
	for (unsigned i = 0; i < r.count; i++)
		v4l2_munmap(map[i], q[i].length);
	v4l2_close(fd);
	if (good < 0)
		return 13;
	return good >= FRAMES / 2 ? 3 : 0;
}

/* The server still answers: QUERYCAP, and ENUM_FMT without a timeout. */
static int probe_client(unsigned w, unsigned h)
{
	struct v4l2_capability cap;
	struct v4l2_fmtdesc d = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	int fd = open_shared(w, h), r;

	if (fd < 0)
		return 20;
	if (v4l2_ioctl(fd, VIDIOC_QUERYCAP, &cap) < 0)
		return 21;
	r = v4l2_ioctl(fd, VIDIOC_ENUM_FMT, &d);
	if (r < 0 && errno != EINVAL)
		return 22; /* ETIMEDOUT: the server stopped answering */
	if (v4l2_ioctl(fd, VIDIOC_QUERYCAP, &cap) < 0)
		return 23;
	v4l2_close(fd);
	return 0;
}

static pid_t spawn(int probe, unsigned w, unsigned h, unsigned cw, unsigned ch)
{
	pid_t pid = fork();

	if (pid == 0) {
		alarm(60); /* a hang fails (SIGALRM) */
		_exit(probe ? probe_client(w, h) : stream_client(w, h, cw, ch));
	}
	return pid;
}

static int status_of(pid_t pid)
{
	int st = -1;

	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	if (WIFSIGNALED(st))
		return 100 + WTERMSIG(st);
	return WEXITSTATUS(st);
}

static void one_fault(const char *fault, unsigned w, unsigned h)
{
	pid_t a, b;
	int sa, sb, sp;

	setenv("LV2_HOSTILE", fault, 1);
	/* The first client starts the server; the second joins it. */
	sp = status_of(spawn(1, w, h, 0, 0));
	a = spawn(0, w, h, w / 2, h / 2);
	b = spawn(0, w, h, w, h);
	sa = status_of(a);
	sb = status_of(b);
	sp = sp ? sp : status_of(spawn(1, w, h, 0, 0));
	if (!strcmp(fault, "none"))
		CHECK(sa == 3 && sb == 3); /* the baseline streams */
	else
		CHECK((sa == 0 || sa == 3) && (sb == 0 || sb == 3));
	CHECK(sp == 0);
	printf("%-12s scaled client %d, full-size client %d, probe %d\n", fault,
	       sa, sb, sp);
}

int main(int argc, char **argv)
{
	static const char *const faults[] = {
		"none",        "pad_short", "enum_endless",
		"fmt_changed", "bad_index", "over_used",
	};
	char dir[] = "/tmp/v4l-hostile-XXXXXX";

	if (argc != 2)
		return 2;
	setvbuf(stdout, NULL, _IOLBF, 0);
	CHECK(clientenv_setup(dir, argv[1], "300") == 0);
	for (unsigned i = 0; i < sizeof(faults) / sizeof(faults[0]); i++)
		one_fault(faults[i], 64 + 16 * i, 48);
	printf("server-hostile: %d failures\n", failures);
	return failures != 0;
}
