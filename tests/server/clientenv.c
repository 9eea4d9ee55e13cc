/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The frame server's client tests' setup (clientenv.h). */
#include "clientenv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <libv4l2.h>
#include <linux/videodev2.h>

#include "../common/check.h"

int clientenv_setup(char *dir, const char *server, const char *idle_ms)
{
	if (!mkdtemp(dir))
		return -1;
	setenv("XDG_RUNTIME_DIR", dir, 1);
	setenv("LIBV4L2_FRAMESERVER", server, 1);
	setenv("LIBV4L2_SHARE", "1", 1);
	if (idle_ms)
		setenv("LIBV4L2_FRAMESERVER_IDLE_MS", idle_ms, 1);
	unsetenv("LIBV4L2_FRAMESERVER_VERBOSE");
	return 0;
}

int clientenv_is_socket(int fd)
{
	char path[64], link[128];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, link, sizeof(link) - 1);
	link[n > 0 ? n : 0] = '\0';
	return !strncmp(link, "socket:", 7);
}

int clientenv_open(const char *name, int *fdp)
{
	int fd = memfd_create(name, MFD_CLOEXEC);

	*fdp = -1;
	if (fd < 0)
		return -1;
	if (v4l2_fd_open(fd, 0) != fd) {
		close(fd);
		return -1;
	}
	*fdp = fd;
	return clientenv_is_socket(fd);
}

int clientenv_open_shared(const char *name)
{
	int fd, r = clientenv_open(name, &fd);

	if (r == 0)
		v4l2_close(fd);
	return r == 1 ? fd : -1;
}

int clientenv_open_streaming(const char *name)
{
	struct v4l2_requestbuffers req = {
		.count = 4,
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_MMAP,
	};
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	int fd = clientenv_open_shared(name);

	CHECK(fd >= 0, "the streaming client is shared");
	if (fd < 0)
		return -1;
	CHECK(v4l2_ioctl(fd, VIDIOC_REQBUFS, &req) == 0 && req.count == 4);
	for (unsigned i = 0; i < req.count; i++) {
		struct v4l2_buffer b = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
					 .memory = V4L2_MEMORY_MMAP,
					 .index = i };

		CHECK(v4l2_ioctl(fd, VIDIOC_QUERYBUF, &b) == 0);
		CHECK(v4l2_mmap(NULL, b.length, PROT_READ, MAP_SHARED, fd,
				b.m.offset) != MAP_FAILED);
		CHECK(v4l2_ioctl(fd, VIDIOC_QBUF, &b) == 0);
	}
	CHECK(v4l2_ioctl(fd, VIDIOC_STREAMON, &type) == 0);
	return fd;
}
