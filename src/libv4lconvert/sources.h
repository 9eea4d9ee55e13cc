/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The source converters: one per converter name of the format table
 * (core/format.h), each in the file of its group of formats. A converter
 * turns a whole frame of its format `f` into one of the four destination
 * formats (RGB3, BGR3, YU12, YV12), same width and height, and returns 0 or
 * a negative errno (-EPIPE: a short or damaged frame, dst holds what could
 * be decoded; -EAGAIN: a corrupt frame).
 */
#ifndef V4LC_LIBV4LCONVERT_SOURCES_H
#define V4LC_LIBV4LCONVERT_SOURCES_H

#include "core/format.h"
#include "core/frame.h"

struct v4lconvert_data;

typedef int v4lc_convert_fn(struct v4lconvert_data *data,
			    const struct v4lc_format *f,
			    const struct v4lc_frame *src,
			    struct v4lc_frame *dst);

/* sources.c: the frame layer's formats, MJPEG/JPEG. */
v4lc_convert_fn v4lc_conv_frame, v4lc_conv_jpeg;
/* src_bayer.c, src_rgb.c, src_grey.c, src_hsv.c, src_yuv.c */
v4lc_convert_fn v4lc_conv_bayer, v4lc_conv_rgb, v4lc_conv_grey, v4lc_conv_hsv,
	v4lc_conv_yuv;
/* src_chipyuv.c */
v4lc_convert_fn v4lc_conv_chipyuv, v4lc_conv_cpia;
/* src_chipbayer.c */
v4lc_convert_fn v4lc_conv_s910, v4lc_conv_p207, v4lc_conv_m310, v4lc_conv_sonx,
	v4lc_conv_905c, v4lc_conv_s680, v4lc_conv_s561;
/* src_chipjpeg.c */
v4lc_convert_fn v4lc_conv_pjpg, v4lc_conv_jl2005, v4lc_conv_se401,
	v4lc_conv_jpgl;
/* src_chipov.c */
v4lc_convert_fn v4lc_conv_ov51x;

/*
 * The destination of a converter: RGB24/BGR24 rows, or the planes of
 * YU12/YV12 (u and v in YUV order whatever the fourcc).
 */
struct v4lc_dst {
	uint8_t *y;
	size_t ys;
	uint8_t *u, *v; /* NULL for RGB */
	size_t cs;
	int yuv;       /* YU12/YV12 */
	int rgb_order; /* V4LC_RGB24 / V4LC_BGR24; V4LC_RGB24 for YUV */
};

/*
 * The planes of dst (its stride 0 meaning minimal): 0, -EINVAL (another
 * format, bad geometry) or -EFAULT (dst->size too small).
 */
int v4lc_dst_init(const struct v4lc_frame *dst, struct v4lc_dst *d);

/* Convert through f's converter (the format table's converter column). */
int v4lc_convert_source(struct v4lconvert_data *data,
			const struct v4lc_format *f,
			const struct v4lc_frame *src, struct v4lc_frame *dst);

#endif
