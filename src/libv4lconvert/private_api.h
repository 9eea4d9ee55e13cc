/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What libv4lconvert.so exports beyond the public API, for the project's
 * other libraries only: the version node LIBV4LCONVERT_PRIVATE of
 * libv4lconvert.map, checked by tests/abi/check-symbols.sh. Applications
 * never see these names in a header, and the public symbols stay
 * unversioned, as in the original.
 *
 * libv4l2 and its plugins reach every kernel through this library, so a
 * process holds one copy of them and one dispatch state:
 *   v4lc_dsp_get        (dispatch/dsp.h)  the kernel tables;
 *   v4lc_frame_convert  (core/frame.h)    whole-frame conversion;
 *   v4lc_rgb2yuv_init   (core/colour.h)   RGB -> YUV coefficients;
 * and libv4l2 asks about the emulated controls alone with
 * v4lc_query_emulated_ctrl below.
 */
#ifndef V4LC_LIBV4LCONVERT_PRIVATE_API_H
#define V4LC_LIBV4LCONVERT_PRIVATE_API_H

#include <linux/videodev2.h>

#include "libv4lconvert.h"

/*
 * VIDIOC_QUERYCTRL about the emulated controls only: an exact id answers
 * only when that control is emulated (EINVAL otherwise);
 * V4L2_CTRL_FLAG_NEXT_CTRL gives the next emulated control after the id
 * (EINVAL after the last). libv4l2 builds VIDIOC_QUERY_EXT_CTRL and
 * VIDIOC_QUERYMENU on it. Returns 0 or -1 with errno.
 */
__attribute__((visibility("default"))) int
v4lc_query_emulated_ctrl(struct v4lconvert_data *data,
			 struct v4l2_queryctrl *q);

#endif
