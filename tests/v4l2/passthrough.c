/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libv4l2 on fds it does not manage (a pipe, a regular file) must behave
 * exactly like the plain system calls, and must refuse to manage them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/videodev2.h>

#include <libv4l2.h>

#include "../common/check.h"

int main(void)
{
	int p[2], fd, n, plain;
	char buf[16];
	struct v4l2_capability cap;
	char path[] = "/tmp/v4l2-passthrough-XXXXXX";
	void *m;

	CHECK(pipe(p) == 0);
	CHECK(v4l2_write(p[1], "hello", 5) == 5);
	CHECK(v4l2_ioctl(p[0], FIONREAD, &n) == 0 && n == 5);
	CHECK(v4l2_read(p[0], buf, sizeof(buf)) == 5 &&
	      !memcmp(buf, "hello", 5));
	/* Exactly what the plain ioctl gives (ENOTTY from Linux; qemu-user
	 * answers ioctls it does not know with ENOSYS). */
	errno = 0;
	plain = ioctl(p[0], VIDIOC_QUERYCAP, &cap) == -1 ? errno : 0;
	errno = 0;
	CHECK(plain && v4l2_ioctl(p[0], VIDIOC_QUERYCAP, &cap) == -1 &&
	      errno == plain);
	/* Not a V4L2 device: refused, left open. */
	CHECK(v4l2_fd_open(p[0], 0) == -1);
	CHECK(fcntl(p[0], F_GETFD) >= 0);
	/* dup on an unmanaged fd is a real dup. */
	fd = v4l2_dup(p[1]);
	CHECK(fd >= 0 && fd != p[1]);
	CHECK(v4l2_close(fd) == 0);
	CHECK(v4l2_close(p[1]) == 0);
	errno = 0;
	CHECK(fcntl(p[1], F_GETFD) == -1 && errno == EBADF);
	/* Writer gone: EOF. */
	CHECK(v4l2_read(p[0], buf, sizeof(buf)) == 0);
	CHECK(v4l2_close(p[0]) == 0);
	errno = 0;
	CHECK(v4l2_read(p[0], buf, 1) == -1 && errno == EBADF);
	errno = 0;
	CHECK(v4l2_close(p[0]) == -1 && errno == EBADF);

	/* A regular file: v4l2_open fails and leaks no fd; mmap is real. */
	fd = mkstemp(path);
	CHECK(fd >= 0);
	CHECK(write(fd, "0123456789", 10) == 10);
	{
		int before = dup(0), after;

		close(before);
		errno = 0;
		CHECK(v4l2_open(path, O_RDWR) == -1 && errno == plain);
		after = dup(0);
		CHECK(after == before);
		close(after);
	}
	m = v4l2_mmap(NULL, 10, PROT_READ, MAP_SHARED, fd, 0);
	CHECK(m != MAP_FAILED && !memcmp(m, "0123456789", 10));
	CHECK(v4l2_munmap(m, 10) == 0);
	errno = 0;
	CHECK(v4l2_mmap(NULL, 10, PROT_READ, MAP_SHARED, fd, 0xABCDEF00) ==
	      MAP_FAILED);
	CHECK(lseek(fd, 0, SEEK_SET) == 0);
	CHECK(v4l2_read(fd, buf, 4) == 4 && !memcmp(buf, "0123", 4));
	CHECK(v4l2_set_control(fd, V4L2_CID_BRIGHTNESS, 100) != 0 ||
	      errno == ENOTTY);
	CHECK(v4l2_get_control(fd, V4L2_CID_BRIGHTNESS) == -1);
	CHECK(v4l2_close(fd) == 0);
	unlink(path);
	printf("%s\n", failures ? "FAILED" : "ok");
	return failures != 0;
}
