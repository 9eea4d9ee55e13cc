/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Nearest-neighbour resampling of raw V4L2 frames (share client). */
#ifndef V4L2_FRAMESERVER_SCALE_H
#define V4L2_FRAMESERVER_SCALE_H

#include <stddef.h>
#include <stdint.h>
#include <linux/videodev2.h>

#include "api.h"

/*
 * Copy a frame laid out as `sp` (bytes valid: src_used) into `dp`,
 * resampled by nearest neighbour when the sizes differ: destination pixel
 * (x, y) takes source pixel (x * sw / dw, y * sh / dh), by macropixel for
 * packed 4:2:2 (pairs), by whole 2x2 quads for Bayer and by chroma
 * sample for 4:2:0 planes. Formats must match. Compressed formats are only
 * copied (same size required). Returns the bytes written to dst, or -1
 * (unsupported format, size mismatch for compressed, dst too small).
 */
FS_API long fs_scale_frame(const uint8_t *src, const struct v4l2_pix_format *sp,
			   size_t src_used, uint8_t *dst,
			   const struct v4l2_pix_format *dp, size_t dst_size);

/*
 * A driver's answer made consistent: a stride that holds a row, and a
 * sizeimage that covers every plane at that stride (what fs_scale_frame
 * reads). Compressed and unknown formats are left as they are.
 */
FS_API void fs_normalise_format(struct v4l2_pix_format *p);

/* Whether fs_scale_frame can resample this format: the format table's
 * packed 4:2:2, RGB24/BGR24, 8-bit grey (GREY, Y4, Y6), 8-bit Bayer and
 * planar and semi-planar 4:2:0 layouts (src/core/format.h). */
FS_API int fs_scale_supported(uint32_t fourcc);

#endif
