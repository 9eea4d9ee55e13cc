/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libv4l1: run Video4Linux 1 programs on V4L2 devices. A V4L2 device opened
 * with v4l1_open answers the V4L1 ioctls of <libv4l1-videodev.h> (emulated
 * on V4L2 through libv4l2, which converts frames to the palette asked for),
 * and V4L2 ioctls as libv4l2 does. Anything else (real V4L1 drivers, other
 * files, unknown fds) behaves exactly like the plain system calls.
 *
 * Source and binary compatible with the original library of the same name.
 * Calls on one fd are thread-safe once v4l1_open has returned and until
 * v4l1_close is called.
 */
#ifndef __LIBV4L1_H
#define __LIBV4L1_H

#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include <libv4l1-videodev.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef LIBV4L_PUBLIC
#define LIBV4L_PUBLIC __attribute__((visibility("default")))
#endif

/* Where log messages go (LIBV4L1_LOG_FILENAME); NULL: nothing logged. */
LIBV4L_PUBLIC extern FILE *v4l1_log_file;

LIBV4L_PUBLIC int v4l1_open(const char *file, int oflag, ...);
LIBV4L_PUBLIC int v4l1_close(int fd);
/* Adds a reference and returns the same fd (as the original). */
LIBV4L_PUBLIC int v4l1_dup(int fd);
LIBV4L_PUBLIC int v4l1_ioctl(int fd, unsigned long int request, ...);
LIBV4L_PUBLIC ssize_t v4l1_read(int fd, void *buffer, size_t n);
LIBV4L_PUBLIC void *v4l1_mmap(void *start, size_t length, int prot, int flags,
			      int fd, int64_t offset);
LIBV4L_PUBLIC int v4l1_munmap(void *_start, size_t length);

#ifdef __cplusplus
}
#endif

#endif
