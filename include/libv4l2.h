/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libv4l2: V4L2 device access that behaves like the plain system calls, but
 * emulates every capture format libv4lconvert can produce (converting on
 * DQBUF/read), emulates read() on devices that only stream, and corrects
 * upside-down cameras. Calls on file descriptors libv4l2 does not manage
 * behave exactly like the system calls they stand for.
 *
 * Source and binary compatible with the original library of the same name.
 * Calls on one fd are thread-safe once v4l2_fd_open/v4l2_open has returned
 * and until v4l2_close is called.
 */
#ifndef __LIBV4L2_H
#define __LIBV4L2_H

#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LIBV4L_PUBLIC __attribute__((visibility("default")))

/* Where log messages go; NULL: errors to stderr (LIBV4L2_LOG_FILENAME). */
LIBV4L_PUBLIC extern FILE *v4l2_log_file;

/* Open a V4L2 device; fails (and closes it) for anything else. */
LIBV4L_PUBLIC int v4l2_open(const char *file, int oflag, ...);
LIBV4L_PUBLIC int v4l2_close(int fd);
/* Adds a reference and returns the same fd (as the original). */
LIBV4L_PUBLIC int v4l2_dup(int fd);
LIBV4L_PUBLIC int v4l2_ioctl(int fd, unsigned long int request, ...);
LIBV4L_PUBLIC ssize_t v4l2_read(int fd, void *buffer, size_t n);
LIBV4L_PUBLIC ssize_t v4l2_write(int fd, const void *buffer, size_t n);
LIBV4L_PUBLIC void *v4l2_mmap(void *start, size_t length, int prot, int flags,
			      int fd, int64_t offset);
LIBV4L_PUBLIC int v4l2_munmap(void *_start, size_t length);

/*
 * Set a control from a value scaled to 0..65535 over its range. Returns 0
 * also when the control does not exist or is locked; non-zero on other
 * errors.
 */
LIBV4L_PUBLIC int v4l2_set_control(int fd, int cid, int value);
/* A control's value scaled to 0..65535; -1 when it cannot be read. */
LIBV4L_PUBLIC int v4l2_get_control(int fd, int cid);

/* v4l2_fd_open flags. */
/* Raw frames only: no conversion, but read() emulation and checks remain. */
#define V4L2_DISABLE_CONVERSION 0x01
/* Obsolete: emulated formats are always enumerated unless disabled. */
#define V4L2_ENABLE_ENUM_FMT_EMULATION 0x02

/*
 * Manage an already open fd. Returns fd, or -1 when it is not suitable
 * (the fd is then left open).
 */
LIBV4L_PUBLIC int v4l2_fd_open(int fd, int v4l2_flags);

#ifdef __cplusplus
}
#endif

#endif
