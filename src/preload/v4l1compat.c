/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * v4l1compat.so: LD_PRELOAD this into an unmodified Video4Linux 1 program
 * and every V4L2 device it opens answers the V4L1 ioctls through libv4l1
 * (which converts frames to the palette asked for through libv4l2). V4L2
 * ioctls keep working, as through v4l2convert.so.
 *
 * A file is claimed when it is a character device of the video4linux major
 * (81), however it was opened (open, openat, the _FORTIFY_SOURCE variants,
 * symlinks, /dev/char/81:N), or libv4l2's virtual camera (a memfd named
 * "libv4l-vcam:..."). libv4l1 knows devices by path only, so the claimed
 * file is reopened through /proc/self/fd by v4l1_open, read-write as buffer
 * mapping needs, and the program gets that descriptor. Files libv4l1 does
 * not take (real V4L1 drivers, anything else) and every other call go
 * straight to the next definition (libc): a program that never opens a
 * camera behaves exactly as without the shim.
 *
 * Not followed: a second descriptor made by dup2/dup3/fcntl(F_DUPFD) is a
 * plain one (dup() gives the same, counted descriptor, as the original).
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

#include "libv4l1.h"

#define EXPORT V4L_SHIM_EXPORT

int v4l_shim_lib_close(int fd)
{
	return v4l1_close(fd);
}

/*
 * After the real open: a video file is reopened by libv4l1 (read-write)
 * and the program gets that descriptor. When that fails the original
 * descriptor is returned untouched. A number still claimed was closed
 * behind the shim's back: its state goes first. (Not followed: the
 * number libv4l1's own open gets being such a number.)
 */
int v4l_shim_claim(int fd, int flags)
{
	char path[64];
	int nfd, saved = errno;

	if (!v4l_shim_in_lib && v4l_shim_refs(fd))
		v4l_shim_release_under(fd);
	if (fd < 0 || v4l_shim_in_lib || (flags & (O_PATH | O_DIRECTORY)) ||
	    !v4l_shim_is_video_file(fd))
		return fd;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	nfd = LIB(v4l1_open(path, (flags & ~(O_ACCMODE | O_CREAT | O_EXCL |
					     O_TRUNC | __O_TMPFILE)) |
					  O_RDWR));
	if (nfd < 0) {
		errno = saved;
		return fd;
	}
	REAL(close)(fd);
	v4l_shim_add_ref(nfd, 1);
	errno = saved;
	return nfd;
}

EXPORT int close(int fd)
{
	if (!v4l_shim_in_lib && v4l_shim_is_claimed(fd)) {
		/* dup() references: only the last close releases the fd. */
		v4l_shim_add_ref(fd, -1);
		return LIB(v4l1_close(fd));
	}
	/* A stale number: the program closes its file, libv4l1 the old
	 * state. */
	if (!v4l_shim_in_lib && v4l_shim_refs(fd))
		return v4l_shim_release_all(fd);
	return REAL(close)(fd);
}

/* libv4l1 keeps one state per device: dup() gives the same fd back,
 * counted, as the original does. */
EXPORT int dup(int fd)
{
	int r;

	if (v4l_shim_in_lib || !v4l_shim_is_claimed(fd))
		return REAL(dup)(fd);
	r = LIB(v4l1_dup(fd));
	if (r == fd)
		v4l_shim_add_ref(fd, 1);
	return r;
}

/* The kernel closes a claimed target of dup2/dup3: release it first. */
static void release_target(int oldfd, int newfd)
{
	if (oldfd == newfd || v4l_shim_in_lib)
		return;
	v4l_shim_release_all(newfd);
}

EXPORT int dup2(int oldfd, int newfd)
{
	release_target(oldfd, newfd);
	return REAL(dup2)(oldfd, newfd);
}

EXPORT int dup3(int oldfd, int newfd, int flags)
{
	release_target(oldfd, newfd);
	return REAL(dup3)(oldfd, newfd, flags);
}

EXPORT int ioctl(int fd, unsigned long request, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (!v4l_shim_in_lib && v4l_shim_is_claimed(fd))
		return LIB(v4l1_ioctl(fd, request, arg));
	return REAL(ioctl)(fd, request, arg);
}

EXPORT ssize_t read(int fd, void *buf, size_t n)
{
	if (!v4l_shim_in_lib && v4l_shim_is_claimed(fd))
		return LIB(v4l1_read(fd, buf, n));
	return REAL(read)(fd, buf, n);
}

/*
 * The mappings made through libv4l1 (frame areas, libv4l2's buffers, the
 * driver's): only these are unmapped through the libraries; any other
 * munmap goes straight to libc, without taking their locks.
 */
#define MAX_MAPS 256
static struct {
	uintptr_t start;
	size_t length;
} maps[MAX_MAPS];
static int nmaps, maps_overflow;
static pthread_mutex_t maps_lock = PTHREAD_MUTEX_INITIALIZER;

static void *note_map(void *p, size_t length)
{
	if (p == MAP_FAILED)
		return p;
	pthread_mutex_lock(&maps_lock);
	if (nmaps < MAX_MAPS) {
		maps[nmaps].start = (uintptr_t)p;
		maps[nmaps].length = length;
		nmaps++;
	} else {
		maps_overflow = 1; /* every munmap goes to libv4l1 */
	}
	pthread_mutex_unlock(&maps_lock);
	return p;
}

/* Whether [start, start + length) touches a noted mapping. */
static int take_map(void *start, size_t length)
{
	uintptr_t a = (uintptr_t)start;
	int found = 0;

	pthread_mutex_lock(&maps_lock);
	for (int i = 0; i < nmaps; i++) {
		uintptr_t b = maps[i].start;

		if (a < b + maps[i].length && b < a + length) {
			found = 1;
			if (a <= b && a + length >= b + maps[i].length)
				maps[i--] = maps[--nmaps]; /* all of it */
		}
	}
	found |= maps_overflow;
	pthread_mutex_unlock(&maps_lock);
	return found;
}

EXPORT void *mmap(void *start, size_t length, int prot, int flags, int fd,
		  off_t offset)
{
	if (!v4l_shim_in_lib && v4l_shim_is_claimed(fd))
		return note_map(LIB(v4l1_mmap(start, length, prot, flags, fd,
					      offset)),
				length);
	return REAL(mmap)(start, length, prot, flags, fd, offset);
}

EXPORT void *mmap64(void *start, size_t length, int prot, int flags, int fd,
		    off64_t offset)
{
	if (!v4l_shim_in_lib && v4l_shim_is_claimed(fd))
		return note_map(LIB(v4l1_mmap(start, length, prot, flags, fd,
					      offset)),
				length);
	return REAL(mmap64)(start, length, prot, flags, fd, offset);
}

EXPORT int munmap(void *start, size_t length)
{
	if (!v4l_shim_in_lib && v4l_shim_any_claimed() &&
	    take_map(start, length))
		return LIB(v4l1_munmap(start, length));
	return REAL(munmap)(start, length);
}
