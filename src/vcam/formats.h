/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The formats the virtual camera sends (formats.c): one row each, with
 * what only the camera knows of it — its encoder (the RGB24 picture in the
 * format, encode.c), the colorspace it reports, and for a chip format the
 * frame sizes of the cameras that send it. Everything else about a format
 * (its description, compressed or not, bytesperline and sizeimage, its
 * layout and component order) is its row of the format table,
 * src/core/format.h. Sending another format is one row here, plus its
 * encoder when none of encode.c's serves it.
 */
#ifndef V4LC_VCAM_FORMATS_H
#define V4LC_VCAM_FORMATS_H

#include <stddef.h>
#include <stdint.h>

#include "core/format.h"

/*
 * An encoder: the w x h RGB24 picture (w, h even and taken by the format)
 * in format f into dst (size bytes, at least the sizeimage of a fixed-size
 * format); seq the frame's sequence number, quality the JPEG formats'.
 * Returns the bytes used or -errno.
 */
typedef int vcam_encode_fn(const struct v4lc_format *f, const uint8_t *rgb,
			   int w, int h, uint32_t seq, int quality,
			   uint8_t *dst, size_t size);

vcam_encode_fn v4lc_vcam_put_rgb24;  /* a copy */
vcam_encode_fn v4lc_vcam_put_frame;  /* the frame layer's conversion */
vcam_encode_fn v4lc_vcam_put_nv;     /* planar 4:2:0, chroma interleaved */
vcam_encode_fn v4lc_vcam_put_packed; /* packed 4:2:2 in f's order */
vcam_encode_fn v4lc_vcam_put_grey;   /* full-range BT.601 luma */
vcam_encode_fn v4lc_vcam_put_bayer;  /* RGB sampled in f's CFA order */
vcam_encode_fn v4lc_vcam_put_jpeg;   /* libjpeg-turbo 4:2:2, no DHT */
vcam_encode_fn v4lc_vcam_put_chip;   /* the chip's encoder (chipenc.h) */

/* A format the camera can offer. */
struct vcam_format {
	uint32_t fourcc;
	vcam_encode_fn *encode;
	uint32_t colorspace; /* as the format's drivers report it */
	/* A chip format: the frame sizes offered (the modes of the cameras
	 * that send it); 0 for the others (standard sizes, any size). */
	int nsizes;
	int sizes[6][2];
};

/* The row of fourcc, or NULL when the camera does not send it. */
const struct vcam_format *v4lc_vcam_format(uint32_t fourcc);

#endif
