/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The source format table and the geometry derived from it (format.h). */
#include "core/format.h"

#include <errno.h>
#include <limits.h>

const struct v4lc_format v4lc_formats[] = { V4LC_FORMAT_TABLE(
	V4LC_FORMAT_INIT) };

const size_t v4lc_n_formats = sizeof(v4lc_formats) / sizeof(v4lc_formats[0]);

const struct v4lc_format *v4lc_format_find(uint32_t fourcc)
{
	for (size_t i = 0; i < v4lc_n_formats; i++)
		if (v4lc_formats[i].fourcc == fourcc)
			return &v4lc_formats[i];
	return NULL;
}

size_t v4lc_format_stride(const struct v4lc_format *f, int width, long stride)
{
	size_t min = v4lc_format_min_stride(f, width);

	if (f && f->layout == V4LC_L_HM12)
		return min;
	return stride > 0 && (unsigned long)stride >= min ? (size_t)stride
							  : min;
}

int v4lc_format_geometry(const struct v4lc_format *f, int width, int height,
			 int stride, struct v4lc_planes *p)
{
	size_t min = v4lc_format_min_stride(f, width);

	if (!min || height <= 0 || stride < 0 ||
	    (stride && (size_t)stride < min))
		return -EINVAL;
	return v4lc_format_planes(f, width, height,
				  stride ? (size_t)stride : min, p);
}
