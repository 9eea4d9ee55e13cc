/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A virtual camera opened through libv4l2, as the v4l2 suite's tests use
 * it: the camera plugin claims memfds named by its spec
 * ("libv4l-vcam:FORMATS:WxH:OPTIONS", src/vcam/vcam.h). Include after
 * check.h.
 */
#ifndef TESTS_COMMON_VCAM_OPEN_H
#define TESTS_COMMON_VCAM_OPEN_H

#include <sys/mman.h>

#include <libv4l2.h>

static inline int vcam_open(const char *spec, int v4l2_flags)
{
	int fd = memfd_create(spec, 0);

	CHECK(fd >= 0 && v4l2_fd_open(fd, v4l2_flags) == fd);
	return fd;
}

#endif
