/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Run with the shim preloaded (and once without, for comparison): every
 * wrapped call on files that are not V4L2 devices must behave exactly like
 * the plain call. Exercises all the open variants (including the
 * _FORTIFY_SOURCE entry points), read, ioctl, the dup family, fcntl, mmap
 * and munmap on regular files, pipes, /dev/null and anonymous memory.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../common/check.h"

int __open_2(const char *, int);
int __openat_2(int, const char *, int);

int main(void)
{
	char path[] = "/tmp/v4l-preload-XXXXXX", buf[16];
	int fd = mkstemp(path), fd2, pipefd[2], n;
	void *p;

	/* Is the shim really loaded? (meson passes it in LD_PRELOAD) */
	printf("shim %s\n",
	       dlsym(RTLD_DEFAULT, "__openat64_2") ? "present" : "?");
	CHECK(fd >= 0 && write(fd, "hello world", 11) == 11, "mkstemp");
	close(fd);

	fd = open(path, O_RDONLY);
	CHECK(fd >= 0 && read(fd, buf, 5) == 5 && !memcmp(buf, "hello", 5),
	      "open/read");
	CHECK(ioctl(fd, FIONREAD, &n) == 0 && n == 6, "ioctl FIONREAD %d", n);
	p = mmap(NULL, 11, PROT_READ, MAP_PRIVATE, fd, 0);
	CHECK(p != MAP_FAILED && !memcmp(p, "hello world", 11), "file mmap");
	CHECK(munmap(p, 11) == 0, "munmap");
	fd2 = dup(fd);
	CHECK(fd2 >= 0 && fd2 != fd, "dup gives a new fd for files");
	CHECK(dup2(fd, fd2) == fd2, "dup2");
	CHECK(dup3(fd, fd2, O_CLOEXEC) == fd2 &&
		      (fcntl(fd2, F_GETFD) & FD_CLOEXEC),
	      "dup3 + F_GETFD");
	n = fcntl(fd, F_DUPFD_CLOEXEC, 100);
	CHECK(n >= 100, "F_DUPFD_CLOEXEC %d", n);
	CHECK(close(n) == 0 && close(fd2) == 0 && close(fd) == 0, "close");
	CHECK(close(fd) == -1 && errno == EBADF, "double close gives EBADF");

	fd = openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
	CHECK(fd >= 0 && close(fd) == 0, "openat");
	fd = __open_2(path, O_RDONLY);
	CHECK(fd >= 0 && close(fd) == 0, "__open_2");
	fd = __openat_2(AT_FDCWD, path, O_RDONLY);
	CHECK(fd >= 0 && close(fd) == 0, "__openat_2");
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0600);
	CHECK(fd >= 0 && write(fd, "!", 1) == 1 && close(fd) == 0,
	      "open O_CREAT");
	fd = open("/dev/null", O_RDONLY);
	CHECK(fd >= 0 && read(fd, buf, 4) == 0 && close(fd) == 0, "/dev/null");
	errno = 0;
	CHECK(open("/nonexistent/x", O_RDONLY) == -1 && errno == ENOENT,
	      "ENOENT");

	CHECK(pipe(pipefd) == 0 && write(pipefd[1], "xy", 2) == 2 &&
		      read(pipefd[0], buf, 2) == 2,
	      "pipe");
	close(pipefd[0]);
	close(pipefd[1]);
	p = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(p != MAP_FAILED, "anonymous mmap");
	memset(p, 1, 1 << 20);
	CHECK(munmap(p, 1 << 20) == 0, "anonymous munmap");
	unlink(path);
	printf("passthrough: %d failures\n", failures);
	return failures != 0;
}
