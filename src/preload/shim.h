/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Plumbing shared by the LD_PRELOAD shims (v4l2convert.so, v4l1compat.so):
 * the next definitions of the wrapped libc functions, the test for a video
 * file, the open() family, and the table of claimed descriptors. Each shim
 * compiles shim.c and claims.c in and defines v4l_shim_claim(), which the
 * open wrappers call on every descriptor the real open returned, and
 * v4l_shim_lib_close().
 */
#ifndef V4L_PRELOAD_SHIM_H
#define V4L_PRELOAD_SHIM_H

/* Both the 32- and the 64-bit offset variants are defined by the shims. */
#undef _FILE_OFFSET_BITS
#ifndef _LARGEFILE64_SOURCE
#define _LARGEFILE64_SOURCE 1
#endif

#include <pthread.h>
#include <sys/types.h>

#define V4L_SHIM_EXPORT __attribute__((visibility("default")))
#define V4L_SHIM_HIDDEN __attribute__((visibility("hidden")))

/* The next definitions in the lookup order (normally libc's). */
struct v4l_shim_libc {
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
};

V4L_SHIM_HIDDEN extern struct v4l_shim_libc v4l_shim_libc;
V4L_SHIM_HIDDEN extern pthread_once_t v4l_shim_libc_once;
V4L_SHIM_HIDDEN void v4l_shim_resolve(void);

#define REAL(name)                                                             \
	(pthread_once(&v4l_shim_libc_once, v4l_shim_resolve),                  \
	 v4l_shim_libc.name)

/*
 * A character device of the video4linux major, however it was opened, or
 * libv4l2's virtual camera (a memfd named "libv4l-vcam:...", reached again
 * through /proc/self/fd: how tests run unmodified programs on it).
 */
V4L_SHIM_HIDDEN int v4l_shim_is_video_file(int fd);

/*
 * What each shim claimed, by descriptor number (claims.c): a program can
 * close a descriptor by a path no shim sees (fclose of an fdopen'ed stream,
 * close_range, the raw syscall), and the next file given that number must
 * not be taken for the camera. The identity (st_dev, st_ino, st_rdev) is
 * remembered at the claim and compared with fstat where a claimed number
 * is used.
 */
#define V4L_SHIM_MAX_FD 65536

/* The library's references to fd (open + dup()s), whether or not the file
 * under the number is still the one claimed. */
V4L_SHIM_HIDDEN unsigned int v4l_shim_refs(int fd);

/* fd has references and is still the file claimed. */
V4L_SHIM_HIDDEN int v4l_shim_is_claimed(int fd);

/* Some descriptor has been claimed since the shim was loaded. */
V4L_SHIM_HIDDEN int v4l_shim_any_claimed(void);

/* +1 for open/dup, -1 for close. */
V4L_SHIM_HIDDEN void v4l_shim_add_ref(int fd, int delta);

/* Drop every reference, the last closing the number through the library
 * (v4l_shim_lib_close); the result of the last close. */
V4L_SHIM_HIDDEN int v4l_shim_release_all(int fd);

/*
 * fd is a file of the program's, but the library still holds a device
 * state under that number (claimed before, closed behind the shim's back).
 * Drop that state and close the number, as the library's close does
 * (v4l_shim_release_all): the file is kept in a copy meanwhile and put
 * back.
 */
V4L_SHIM_HIDDEN void v4l_shim_release_under(int fd);

/*
 * Set while this thread runs inside the library a shim hands calls to
 * (libv4l1, libv4l2): calls it or one of libv4l2's plugins (the virtual
 * camera, the frame server's client) makes to the wrapped functions, often
 * while holding a device's lock, go straight to libc. Routed back into the
 * library they would take the other devices' locks: two threads, each
 * inside its own device, would wait for each other forever.
 */
V4L_SHIM_HIDDEN extern __thread int v4l_shim_in_lib;
#define LIB(expr)                                                              \
	({                                                                     \
		v4l_shim_in_lib++;                                             \
		__typeof__(expr) r_ = (expr);                                  \
		v4l_shim_in_lib--;                                             \
		r_;                                                            \
	})

/* Defined by each shim: take over a descriptor the real open() returned
 * (or return it untouched); returns the descriptor the program gets. */
V4L_SHIM_HIDDEN int v4l_shim_claim(int fd, int flags);

/* Defined by each shim: its library's close (v4l1_close, v4l2_close). */
V4L_SHIM_HIDDEN int v4l_shim_lib_close(int fd);

#endif
