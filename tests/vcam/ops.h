/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The virtual camera's plugin operations test (tests/vcam/ops*.c), what its
 * files share: a camera opened through the plugin's own operations, its
 * ioctls, and the formats every test walks.
 */
#ifndef V4LC_TEST_VCAM_OPS_H
#define V4LC_TEST_VCAM_OPS_H

#include <stddef.h>
#include <stdint.h>

#include "vcam/vcam.h"

/* The plugin's operations, called directly (no libv4l2). */
extern const struct libv4l_dev_ops *const ops;

struct cam {
	int fd;
	void *priv;
};

/* A camera on a new memfd named after spec (NULL: the default). 0 or -1. */
int open_cam(struct cam *c, const char *spec);
void close_cam(struct cam *c);
/* ioctl: 0, or the errno of a failure. */
int xio(struct cam *c, unsigned long req, void *arg);
/* Whether the plugin refuses a memfd of that name. */
int declines(const char *name);

/* What the camera must answer for each format. */
struct fmt_expect {
	const char *name;
	uint32_t fourcc;
	uint32_t bpl_per_px;         /* bytes per line = bpl_per_px * w */
	uint32_t size_num, size_den; /* sizeimage = w * h * num / den */
	uint32_t colorspace;
};

#define NFMTS 17
extern const struct fmt_expect fmts[NFMTS];

int is_jpeg(uint32_t fourcc);

/* ops_ioctls.c: claiming, capabilities, controls, formats. */
void test_claim(void);
void test_caps(void);
void test_formats(void);
void test_absurd_sizes(void);
/* ops_pattern.c: rendered frames against independent expectations. */
void test_pattern(void);
void check_jpeg(const uint8_t *j, size_t n, int w, int h, uint32_t seq);
/* ops_stream.c: buffers and streaming. */
void test_streaming(const struct fmt_expect *fe, int w, int h);
void test_userptr(void);
void test_flip(void);
void test_orphan(void);
void test_pacing(void);
void test_scene(void);

#endif
