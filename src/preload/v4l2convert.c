/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * v4l2convert.so: LD_PRELOAD this into an unmodified program and every V4L2
 * capture device it opens goes through libv4l2 (format emulation, read()
 * emulation, upside-down correction).
 *
 * A file descriptor is claimed when it refers to a character device of the
 * video4linux major (81), however it was opened (open, openat, the
 * _FORTIFY_SOURCE variants, symlinks, /dev/char/81:N). Every other call goes
 * straight to the next definition (libc), so a program that never opens a
 * camera behaves exactly as without the shim.
 */
/* Both the 32- and the 64-bit offset variants must be defined here. */
#undef _FILE_OFFSET_BITS
#define _LARGEFILE64_SOURCE 1

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "libv4l2.h"

#define EXPORT __attribute__((visibility("default")))
#define V4L_MAJOR 81
#define MAX_CLAIMED_FD 65536

/* Which fds libv4l2 manages on our behalf. */
static atomic_uchar claimed[MAX_CLAIMED_FD];
static atomic_int any_claimed;

static int is_claimed(int fd)
{
	return fd >= 0 && fd < MAX_CLAIMED_FD &&
	       atomic_load_explicit(&claimed[fd], memory_order_acquire);
}

static void set_claimed(int fd, int on)
{
	if (fd < 0 || fd >= MAX_CLAIMED_FD)
		return;
	atomic_store_explicit(&claimed[fd], (unsigned char)on,
			      memory_order_release);
	if (on)
		atomic_store(&any_claimed, 1);
}

/* The next definitions in the lookup order (normally libc's). */
static struct {
	int (*open)(const char *, int, ...);
	int (*open64)(const char *, int, ...);
	int (*openat)(int, const char *, int, ...);
	int (*openat64)(int, const char *, int, ...);
	int (*open_2)(const char *, int);
	int (*open64_2)(const char *, int);
	int (*openat_2)(int, const char *, int);
	int (*openat64_2)(int, const char *, int);
	int (*close)(int);
	int (*dup)(int);
	int (*dup2)(int, int);
	int (*dup3)(int, int, int);
	int (*fcntl)(int, int, ...);
	int (*ioctl)(int, unsigned long, ...);
	ssize_t (*read)(int, void *, size_t);
	void *(*mmap)(void *, size_t, int, int, int, off_t);
	void *(*mmap64)(void *, size_t, int, int, int, off64_t);
	int (*munmap)(void *, size_t);
} real;
static pthread_once_t real_once = PTHREAD_ONCE_INIT;

static void resolve(void)
{
#define NEXT(field, name) *(void **)&real.field = dlsym(RTLD_NEXT, name)
	NEXT(open, "open");
	NEXT(open64, "open64");
	NEXT(openat, "openat");
	NEXT(openat64, "openat64");
	NEXT(open_2, "__open_2");
	NEXT(open64_2, "__open64_2");
	NEXT(openat_2, "__openat_2");
	NEXT(openat64_2, "__openat64_2");
	NEXT(close, "close");
	NEXT(dup, "dup");
	NEXT(dup2, "dup2");
	NEXT(dup3, "dup3");
	NEXT(fcntl, "fcntl");
	NEXT(ioctl, "ioctl");
	NEXT(read, "read");
	NEXT(mmap, "mmap");
	NEXT(mmap64, "mmap64");
	NEXT(munmap, "munmap");
#undef NEXT
}

#define REAL(name) (pthread_once(&real_once, resolve), real.name)

/*
 * A V4L2 device node, or libv4l2's virtual camera: a memfd named
 * "libv4l-vcam:..." opened again through /proc/self/fd (how tests run an
 * unmodified program on it, e.g. the frame server's poll test).
 */
static int is_video_device(int fd)
{
	static const char vcam[] = "/memfd:libv4l-vcam";
	char path[64], link[sizeof(vcam)];
	struct stat st;
	ssize_t n;

	if (fstat(fd, &st) != 0)
		return 0;
	if (S_ISCHR(st.st_mode))
		return major(st.st_rdev) == V4L_MAJOR;
	/* memfds have no links: only then is the name worth reading. */
	if (!S_ISREG(st.st_mode) || st.st_nlink != 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, link, sizeof(link));
	return n == (ssize_t)sizeof(link) &&
	       !memcmp(link, vcam, sizeof(vcam) - 1) &&
	       (link[sizeof(vcam) - 1] == ':' || link[sizeof(vcam) - 1] == ' ');
}

/*
 * After the real open: hand V4L2 devices to libv4l2. Buffers are mapped
 * read-write, so a read-only open is upgraded through /proc/self/fd when
 * possible. A device libv4l2 declines is returned untouched.
 */
static int claim(int fd, int flags)
{
	if (fd < 0 || (flags & (O_PATH | O_DIRECTORY)) || !is_video_device(fd))
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
	if (v4l2_fd_open(fd, 0) == fd)
		set_claimed(fd, 1);
	return fd;
}

/* open() reads a mode argument only for these flags (as glibc does). */
static int needs_mode(int flags)
{
	return (flags & O_CREAT) || (flags & __O_TMPFILE) == __O_TMPFILE;
}

#define MODE_ARG(flags, ap) (needs_mode(flags) ? (mode_t)va_arg(ap, int) : 0)

EXPORT int open(const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode;

	va_start(ap, flags);
	mode = MODE_ARG(flags, ap);
	va_end(ap);
	return claim(REAL(open)(path, flags, mode), flags);
}

EXPORT int open64(const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode;

	va_start(ap, flags);
	mode = MODE_ARG(flags, ap);
	va_end(ap);
	return claim(REAL(open64)(path, flags, mode), flags);
}

EXPORT int openat(int dirfd, const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode;

	va_start(ap, flags);
	mode = MODE_ARG(flags, ap);
	va_end(ap);
	return claim(REAL(openat)(dirfd, path, flags, mode), flags);
}

EXPORT int openat64(int dirfd, const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode;

	va_start(ap, flags);
	mode = MODE_ARG(flags, ap);
	va_end(ap);
	return claim(REAL(openat64)(dirfd, path, flags, mode), flags);
}

EXPORT int __open_2(const char *path, int flags)
{
	return claim(REAL(open_2)(path, flags), flags);
}

EXPORT int __open64_2(const char *path, int flags)
{
	return claim(REAL(open64_2)(path, flags), flags);
}

EXPORT int __openat_2(int dirfd, const char *path, int flags)
{
	return claim(REAL(openat_2)(dirfd, path, flags), flags);
}

EXPORT int __openat64_2(int dirfd, const char *path, int flags)
{
	return claim(REAL(openat64_2)(dirfd, path, flags), flags);
}

EXPORT int close(int fd)
{
	if (is_claimed(fd)) {
		set_claimed(fd, 0);
		return v4l2_close(fd);
	}
	return REAL(close)(fd);
}

/* libv4l2 keeps one state per device: dup() gives the same fd back,
 * counted, as the original does. */
EXPORT int dup(int fd)
{
	return is_claimed(fd) ? v4l2_dup(fd) : REAL(dup)(fd);
}

/*
 * dup2/dup3/F_DUPFD make a real second descriptor: it becomes a device of
 * its own for libv4l2 (as a second open would). A claimed target is
 * released first, since the kernel closes it.
 */
static int after_dup(int oldfd, int newfd)
{
	if (newfd >= 0 && is_claimed(oldfd) && v4l2_fd_open(newfd, 0) == newfd)
		set_claimed(newfd, 1);
	return newfd;
}

EXPORT int dup2(int oldfd, int newfd)
{
	if (oldfd != newfd && is_claimed(newfd)) {
		set_claimed(newfd, 0);
		v4l2_close(newfd);
	}
	return after_dup(oldfd, REAL(dup2)(oldfd, newfd));
}

EXPORT int dup3(int oldfd, int newfd, int flags)
{
	if (oldfd != newfd && is_claimed(newfd)) {
		set_claimed(newfd, 0);
		v4l2_close(newfd);
	}
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
	if (is_claimed(fd))
		return v4l2_ioctl(fd, request, arg);
	return REAL(ioctl)(fd, request, arg);
}

EXPORT ssize_t read(int fd, void *buf, size_t n)
{
	return is_claimed(fd) ? v4l2_read(fd, buf, n) : REAL(read)(fd, buf, n);
}

EXPORT void *mmap(void *start, size_t length, int prot, int flags, int fd,
		  off_t offset)
{
	if (is_claimed(fd))
		return v4l2_mmap(start, length, prot, flags, fd, offset);
	return REAL(mmap)(start, length, prot, flags, fd, offset);
}

EXPORT void *mmap64(void *start, size_t length, int prot, int flags, int fd,
		    off64_t offset)
{
	if (is_claimed(fd))
		return v4l2_mmap(start, length, prot, flags, fd, offset);
	return REAL(mmap64)(start, length, prot, flags, fd, offset);
}

/* libv4l2 recognises its own buffers and unmaps anything else for real. */
EXPORT int munmap(void *start, size_t length)
{
	if (atomic_load(&any_claimed))
		return v4l2_munmap(start, length);
	return REAL(munmap)(start, length);
}
