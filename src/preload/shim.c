/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The part of the preload shims that does not depend on which library
 * serves the device: see shim.h.
 */
#include "shim.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define V4L_MAJOR 81
#define VCAM_LINK "/memfd:libv4l-vcam"

struct v4l_shim_libc v4l_shim_libc;
__thread int v4l_shim_in_lib;
pthread_once_t v4l_shim_libc_once = PTHREAD_ONCE_INIT;

void v4l_shim_resolve(void)
{
#define NEXT(field, name)                                                      \
	*(void **)&v4l_shim_libc.field = dlsym(RTLD_NEXT, name)
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

/*
 * Between the library's close and the dup3 the number is free: a thread
 * opening a file right then could get it and lose it to the dup3. The
 * program closed a descriptor in use behind our back; this is the best
 * that can be done without the library forgetting a state unclosed.
 */
void v4l_shim_release_under(int fd)
{
	int fdflags = REAL(fcntl)(fd, F_GETFD, 0);
	int keep = REAL(fcntl)(fd, F_DUPFD_CLOEXEC, 0);

	v4l_shim_release_all(fd);
	if (keep < 0)
		return;
	REAL(dup3)
	(keep, fd, fdflags > 0 && (fdflags & FD_CLOEXEC) ? O_CLOEXEC : 0);
	REAL(close)(keep);
}

int v4l_shim_is_video_file(int fd)
{
	struct stat st;
	char path[64], link[sizeof(VCAM_LINK)];
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
	       !memcmp(link, VCAM_LINK, sizeof(link) - 1) &&
	       (link[sizeof(link) - 1] == ':' || link[sizeof(link) - 1] == ' ');
}

/* open() reads a mode argument only for these flags (as glibc does). */
static int needs_mode(int flags)
{
	return (flags & O_CREAT) || (flags & __O_TMPFILE) == __O_TMPFILE;
}

#define MODE_ARG(flags, ap) (needs_mode(flags) ? (mode_t)va_arg(ap, int) : 0)

V4L_SHIM_EXPORT int open(const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode;

	va_start(ap, flags);
	mode = MODE_ARG(flags, ap);
	va_end(ap);
	return v4l_shim_claim(REAL(open)(path, flags, mode), flags);
}

V4L_SHIM_EXPORT int open64(const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode;

	va_start(ap, flags);
	mode = MODE_ARG(flags, ap);
	va_end(ap);
	return v4l_shim_claim(REAL(open64)(path, flags, mode), flags);
}

V4L_SHIM_EXPORT int openat(int dirfd, const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode;

	va_start(ap, flags);
	mode = MODE_ARG(flags, ap);
	va_end(ap);
	return v4l_shim_claim(REAL(openat)(dirfd, path, flags, mode), flags);
}

V4L_SHIM_EXPORT int openat64(int dirfd, const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode;

	va_start(ap, flags);
	mode = MODE_ARG(flags, ap);
	va_end(ap);
	return v4l_shim_claim(REAL(openat64)(dirfd, path, flags, mode), flags);
}

/* The _FORTIFY_SOURCE variants (no mode argument). */
V4L_SHIM_EXPORT int __open_2(const char *path, int flags)
{
	return v4l_shim_claim(REAL(open_2)(path, flags), flags);
}

V4L_SHIM_EXPORT int __open64_2(const char *path, int flags)
{
	return v4l_shim_claim(REAL(open64_2)(path, flags), flags);
}

V4L_SHIM_EXPORT int __openat_2(int dirfd, const char *path, int flags)
{
	return v4l_shim_claim(REAL(openat_2)(dirfd, path, flags), flags);
}

V4L_SHIM_EXPORT int __openat64_2(int dirfd, const char *path, int flags)
{
	return v4l_shim_claim(REAL(openat64_2)(dirfd, path, flags), flags);
}
