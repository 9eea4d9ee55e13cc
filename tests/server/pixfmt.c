/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The tests' capture formats (pixfmt.h). */
#include "pixfmt.h"

#include <string.h>

#include <libv4lconvert.h>

void test_pix_fmt(struct v4l2_format *f, uint32_t fourcc, int w, int h)
{
	memset(f, 0, sizeof(*f));
	f->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	f->fmt.pix.width = (uint32_t)w;
	f->fmt.pix.height = (uint32_t)h;
	f->fmt.pix.pixelformat = fourcc;
	f->fmt.pix.field = V4L2_FIELD_NONE;
	v4lconvert_fixup_fmt(f);
}
