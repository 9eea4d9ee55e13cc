/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The capture formats the MJPEG-sharing tests (mjpeg.c, lease.c) ask. */
#ifndef V4L_TEST_PIXFMT_H
#define V4L_TEST_PIXFMT_H

#include <stdint.h>

#include <linux/videodev2.h>

/*
 * f: a single-planar capture format of fourcc at w x h, its bytesperline and
 * sizeimage as libv4lconvert lays the frame out (v4lconvert_fixup_fmt).
 */
void test_pix_fmt(struct v4l2_format *f, uint32_t fourcc, int w, int h);

#endif
