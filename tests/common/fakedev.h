/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A scripted V4L2 capture device behind libv4l_dev_ops, for unit tests of
 * the format negotiation: a list of formats, each with discrete sizes.
 * Works with our headers and with the distribution's (same ABI).
 */
#ifndef V4LC_TEST_FAKEDEV_H
#define V4LC_TEST_FAKEDEV_H

#include <stdint.h>

#include <libv4l-plugin.h>

#define FAKEDEV_MAX_FORMATS 16
#define FAKEDEV_MAX_SIZES 8

struct fakedev {
	const char *driver;
	int n_formats;
	struct {
		uint32_t fourcc;
		int n_sizes;
		uint32_t sizes[FAKEDEV_MAX_SIZES][2];
	} formats[FAKEDEV_MAX_FORMATS];
	/* Integer controls 0..255 (ids ascending), with their values. */
	int n_ctrls;
	uint32_t ctrl_ids[8];
	int32_t ctrl_values[8];
	/* VIDIOC_ENUMINPUT status of the one input (V4L2_IN_ST_*) */
	uint32_t input_status;
	/* A request (non-zero) answered with the uint64_t `rdev`: the
	 * camera node a backend whose fd is no device names. */
	unsigned long rdev_req;
	uint64_t rdev;
	/* counters the tests inspect */
	int try_fmt_calls;
};

extern const struct libv4l_dev_ops fakedev_ops;

#endif
