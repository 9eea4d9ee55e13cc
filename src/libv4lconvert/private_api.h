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
 * v4lc_query_emulated_ctrl below. v4l2-doctor (tools/doctor*.c) asks why
 * a camera is treated as it is: v4lc_quirk_report and v4lc_simd_tier.
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

/*
 * Why the camera's quirks (the V4LC_QUIRK_* bits of quirks.h) are what they
 * are: the driver's part (input status flips, sensor rotation), the rule
 * of the quirk table that matched, and LIBV4LCONTROL_FLAGS.
 */
struct v4lc_quirk_report {
	unsigned vendor, product; /* USB id from sysfs; 0 when not USB */
	unsigned driver_flags;    /* V4L2_IN_ST_[HV]FLIP, sensor rotation */
	int matched;              /* a rule matched: */
	unsigned rule_flags;
	int rule_gamma;      /* 0: no default */
	char rule_file[256]; /* a rules file's path, or "built-in" */
	unsigned rule_line;  /* 1-based */
	char rule[256];      /* the rule's text */
	int env_override;    /* LIBV4LCONTROL_FLAGS replaced all of it */
	unsigned flags;      /* in force */
};

__attribute__((visibility("default"))) void
v4lc_quirk_report(struct v4lconvert_data *data, struct v4lc_quirk_report *r);

/* The SIMD tier the kernels run ("scalar", "sse2", "avx2", "neon"...). */
__attribute__((visibility("default"))) const char *v4lc_simd_tier(void);

/*
 * Asked through the device's own operations when its fd is no character
 * device (the frame server's client hands libv4lconvert a socket): the
 * device number (dev_t) of the camera node the device stands for, so that
 * the quirk table's USB ids match a shared camera as they match it opened
 * directly. A backend that does not know it answers an error, and the
 * camera is then matched by the machine's DMI strings alone, as before.
 */
#define V4LC_IOCTL_DEVICE_RDEV _IOR('L', 0x01, uint64_t)

#endif
