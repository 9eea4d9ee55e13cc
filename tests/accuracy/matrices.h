/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The colour matrices the accuracy tests check, written from the standards
 * (Kr, Kb and range), independently of src/core/colour.c, with the V4L2
 * colorimetry that must select each one (including V4L2's defaults).
 */
#ifndef V4LC_TESTS_ACCURACY_MATRICES_H
#define V4LC_TESTS_ACCURACY_MATRICES_H

#include <linux/videodev2.h>

#include "core/colour.h"

struct matrix {
	const char *name;
	double kr, kb;
	int full;
	struct v4lc_colorimetry cm;
};

static const struct matrix matrices[] = {
	{ "BT.601 limited",
	  0.299,
	  0.114,
	  0,
	  { V4L2_COLORSPACE_SMPTE170M, V4L2_YCBCR_ENC_601,
	    V4L2_QUANTIZATION_LIM_RANGE } },
	{ "BT.601 full",
	  0.299,
	  0.114,
	  1,
	  { V4L2_COLORSPACE_SMPTE170M, V4L2_YCBCR_ENC_601,
	    V4L2_QUANTIZATION_FULL_RANGE } },
	{ "BT.709 limited",
	  0.2126,
	  0.0722,
	  0,
	  { V4L2_COLORSPACE_REC709, V4L2_YCBCR_ENC_709,
	    V4L2_QUANTIZATION_LIM_RANGE } },
	{ "BT.709 full",
	  0.2126,
	  0.0722,
	  1,
	  { V4L2_COLORSPACE_REC709, V4L2_YCBCR_ENC_709,
	    V4L2_QUANTIZATION_FULL_RANGE } },
	{ "BT.2020 limited",
	  0.2627,
	  0.0593,
	  0,
	  { V4L2_COLORSPACE_BT2020, V4L2_YCBCR_ENC_BT2020,
	    V4L2_QUANTIZATION_LIM_RANGE } },
	{ "BT.2020 full",
	  0.2627,
	  0.0593,
	  1,
	  { V4L2_COLORSPACE_BT2020, V4L2_YCBCR_ENC_BT2020,
	    V4L2_QUANTIZATION_FULL_RANGE } },
	/* V4L2 defaults: sRGB and 170M -> 601 limited, JPEG -> 601 full,
	 * 709 -> 709 limited, BT.2020 -> 2020 limited. */
	{ "sRGB default", 0.299, 0.114, 0, { V4L2_COLORSPACE_SRGB, 0, 0 } },
	{ "170M default",
	  0.299,
	  0.114,
	  0,
	  { V4L2_COLORSPACE_SMPTE170M, 0, 0 } },
	{ "JPEG default", 0.299, 0.114, 1, { V4L2_COLORSPACE_JPEG, 0, 0 } },
	{ "709 default", 0.2126, 0.0722, 0, { V4L2_COLORSPACE_REC709, 0, 0 } },
	{ "2020 default", 0.2627, 0.0593, 0, { V4L2_COLORSPACE_BT2020, 0, 0 } },
};
#define NMATRICES (sizeof(matrices) / sizeof(matrices[0]))

static double clampd(double x)
{
	return x < 0.0 ? 0.0 : x > 255.0 ? 255.0 : x;
}

#endif
