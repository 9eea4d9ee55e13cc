/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Whole-frame conversions built from the row kernels: plane layout, strides,
 * odd sizes and the row loops live here, once, so libv4lconvert, the tools,
 * the benches and the tests all share them.
 *
 * Layouts follow V4L2 single-planar formats (the rules of the format table,
 * core/format.h). For planar 4:2:0 (YU12/YV12) the
 * chroma planes follow the luma plane, each (height + 1) / 2 rows of stride
 * (stride + 1) / 2. Semi-planar NV12/NV21: the interleaved chroma plane
 * follows luma, (height + 1) / 2 rows of `stride` bytes. Minimal strides:
 * packed 4:2:2 4 * ((width + 1) / 2), RGB24/BGR24 3 * width, planar and
 * semi-planar: width rounded up to even for NV12/NV21, width for YU12/YV12.
 */
#ifndef V4LC_CORE_FRAME_H
#define V4LC_CORE_FRAME_H

#include <stddef.h>
#include <stdint.h>

#include "core/colour.h"
#include "dispatch/dsp.h"

struct v4lc_frame {
	uint32_t fourcc; /* V4L2_PIX_FMT_* */
	int width, height;
	int stride;    /* bytes per line of the first plane; 0 = minimal */
	uint8_t *data; /* all planes, contiguous */
	size_t size;   /* bytes available at data */
};

/* Minimal stride of the first plane, or 0 for an unknown format. */
int v4lc_frame_min_stride(uint32_t fourcc, int width);

/*
 * Bytes a frame of this format occupies with the given stride (0 = minimal),
 * or 0 for an unknown format or a size that overflows.
 */
size_t v4lc_frame_bytes(uint32_t fourcc, int width, int height, int stride);

/*
 * Convert src into dst (same width and height). Sources: YUYV, YVYU, UYVY,
 * VYUY, YU12, YV12, NV12, NV21, RGB3, BGR3. Destinations: RGB3, BGR3, YU12,
 * YV12, or the source's format (a copy). Colour matrices follow
 * `colorimetry` of the YUV side (NULL = V4L2 defaults: BT.601 limited).
 * Returns 0, or -EINVAL (unsupported pair or bad geometry), -EFAULT (a
 * buffer too small for its declared geometry). Exported by libv4lconvert.so
 * to the project's other libraries (libv4lconvert.map).
 */
__attribute__((visibility("default"))) int
v4lc_frame_convert(const struct v4lc_dsp *dsp, const struct v4lc_frame *src,
		   struct v4lc_frame *dst,
		   const struct v4lc_colorimetry *colorimetry);

enum v4lc_transform {
	V4LC_XFORM_HFLIP,    /* mirror left-right */
	V4LC_XFORM_VFLIP,    /* upside down */
	V4LC_XFORM_ROT180,   /* both */
	V4LC_XFORM_ROT90CW,  /* dst is height x width */
	V4LC_XFORM_ROT90CCW, /* dst is height x width */
};

/*
 * Flip or rotate RGB3, BGR3, YU12 or YV12 from src to dst (same format;
 * for 90-degree rotations dst->width == src->height and vice versa), or
 * flip (HFLIP, VFLIP, ROT180; no 90-degree rotations) YUYV, YVYU, UYVY or
 * VYUY. src and dst must not overlap. Returns 0, -EINVAL or -EFAULT.
 */
int v4lc_frame_transform(const struct v4lc_dsp *dsp,
			 const struct v4lc_frame *src, struct v4lc_frame *dst,
			 enum v4lc_transform op);

#endif
