/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * v4l2convert.so: LD_PRELOAD this into an unmodified program and every V4L2
 * capture device it opens goes through libv4l2 (format emulation, read()
 * emulation, upside-down correction).
 *
 * A file descriptor is claimed when it refers to a character device of the
 * video4linux major (81), however it was opened (open, openat, the
 * _FORTIFY_SOURCE variants, symlinks, /dev/char/81:N), or is libv4l2's
 * virtual camera (see shim.h). Every other call goes straight to the next
 * definition (libc), so a program that never opens a camera behaves exactly
 * as without the shim, and so do the calls libv4l2 and its plugins make
 * themselves (v4l_shim_in_lib, shim.h). The open() family lives in shim.c.
 */
#include "shim.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "libv4l2.h"

#define EXPORT V4L_SHIM_EXPORT

/* A call of the program's on a claimed fd (not libv4l2's own: shim.h). */
static int in_shim(int fd)
{
	return !v4l_shim_in_lib && v4l_shim_is_claimed(fd);
}

int v4l_shim_lib_close(int fd)
{
	return v4l2_close(fd);
}

/*
 * After the real open: hand V4L2 devices to libv4l2. Buffers are mapped
 * read-write, so a read-only open is upgraded through /proc/self/fd when
 * possible. A device libv4l2 declines is returned untouched. A number
 * still claimed was closed behind the shim's back: its state goes first.
 */
int v4l_shim_claim(int fd, int flags)
{
	if (v4l_shim_in_lib)
		return fd;
	if (v4l_shim_refs(fd))
		v4l_shim_release_under(fd);
	if (fd < 0 || (flags & (O_PATH | O_DIRECTORY)) ||
	    !v4l_shim_is_video_file(fd))
		return fd;
	if ((flags & O_ACCMODE) != O_RDWR) {
		char path[64];
		int rw;

		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		rw = REAL(open)(path, (flags & ~O_ACCMODE) | O_RDWR);
		if (rw >= 0) {
			REAL(dup3)(rw, fd, flags & O_CLOEXEC);
			REAL(close)(rw);
		}
	}
	if (LIB(v4l2_fd_open(fd, 0)) == fd)
		v4l_shim_add_ref(fd, 1);
	return fd;
}

/* A stale number: the program closes its file, libv4l2 the old state. */
EXPORT int close(int fd)
{
	if (v4l_shim_in_lib)
		return REAL(close)(fd);
	if (v4l_shim_is_claimed(fd)) {
		v4l_shim_add_ref(fd, -1);
		return LIB(v4l2_close(fd));
	}
	if (v4l_shim_refs(fd))
		return v4l_shim_release_all(fd);
	return REAL(close)(fd);
}

/* libv4l2 keeps one state per device: dup() gives the same fd back,
 * counted, as the original does. */
EXPORT int dup(int fd)
{
	int r;

	if (!in_shim(fd))
		return REAL(dup)(fd);
	r = LIB(v4l2_dup(fd));
	if (r == fd)
		v4l_shim_add_ref(fd, 1);
	return r;
}

/*
 * dup2/dup3/F_DUPFD make a real second descriptor: it becomes a device of
 * its own for libv4l2 (as a second open would). A claimed target is
 * released first, since the kernel closes it.
 */
static int after_dup(int oldfd, int newfd)
{
	if (newfd >= 0 && in_shim(oldfd)) {
		if (v4l_shim_refs(newfd)) /* stale: F_DUPFD found it free */
			v4l_shim_release_under(newfd);
		if (LIB(v4l2_fd_open(newfd, 0)) == newfd)
			v4l_shim_add_ref(newfd, 1);
	}
	return newfd;
}

static void release_target(int oldfd, int newfd)
{
	if (oldfd != newfd && !v4l_shim_in_lib)
		v4l_shim_release_all(newfd);
}

EXPORT int dup2(int oldfd, int newfd)
{
	release_target(oldfd, newfd);
	return after_dup(oldfd, REAL(dup2)(oldfd, newfd));
}

EXPORT int dup3(int oldfd, int newfd, int flags)
{
	release_target(oldfd, newfd);
	return after_dup(oldfd, REAL(dup3)(oldfd, newfd, flags));
}

EXPORT int fcntl(int fd, int cmd, ...)
{
	va_list ap;
	void *arg;

	/* Every fcntl argument is an int, a long or a pointer. */
	va_start(ap, cmd);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC)
		return after_dup(fd, REAL(fcntl)(fd, cmd, (long)(intptr_t)arg));
	return REAL(fcntl)(fd, cmd, arg);
}

EXPORT int ioctl(int fd, unsigned long request, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (in_shim(fd))
		return LIB(v4l2_ioctl(fd, request, arg));
	return REAL(ioctl)(fd, request, arg);
}

EXPORT ssize_t read(int fd, void *buf, size_t n)
{
	return in_shim(fd) ? LIB(v4l2_read(fd, buf, n))
			   : REAL(read)(fd, buf, n);
}

EXPORT void *mmap(void *start, size_t length, int prot, int flags, int fd,
		  off_t offset)
{
	if (in_shim(fd))
		return LIB(v4l2_mmap(start, length, prot, flags, fd, offset));
	return REAL(mmap)(start, length, prot, flags, fd, offset);
}

EXPORT void *mmap64(void *start, size_t length, int prot, int flags, int fd,
		    off64_t offset)
{
	if (in_shim(fd))
		return LIB(v4l2_mmap(start, length, prot, flags, fd, offset));
	return REAL(mmap64)(start, length, prot, flags, fd, offset);
}

/* libv4l2 recognises its own buffers and unmaps anything else for real. */
EXPORT int munmap(void *start, size_t length)
{
	if (!v4l_shim_in_lib && v4l_shim_any_claimed())
		return LIB(v4l2_munmap(start, length));
	return REAL(munmap)(start, length);
}
