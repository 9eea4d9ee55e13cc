/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * usbcheck --original: the raw frames a real driver delivers converted by
 * our libv4lconvert and by the distribution's (tests/common/origlib.c),
 * both without emulated controls or quirks. The chips' YUV layouts are
 * compared as YU12 (the layout alone, no colour arithmetic): byte for
 * byte. The Bayer and JPEG-family chips as RGB24, byte for byte inside a
 * 2-pixel border: the chip decoders are the original's, but at the frame's
 * edges our demosaic mirrors the picture where the original's does not.
 */
#ifndef USBCHECK_ORIGINAL_H
#define USBCHECK_ORIGINAL_H

#include <stddef.h>
#include <stdint.h>

struct usbcheck_original;

/* Both converters for raw frames of `fourcc` at w x h with the driver's
 * bytesperline and sizeimage; NULL when the original is not installed
 * (said on stderr). */
struct usbcheck_original *usbcheck_original_open(uint32_t fourcc, int w, int h,
						 uint32_t bpl,
						 uint32_t sizeimage);

/* The format both convert to (V4L2_PIX_FMT_YUV420 or _RGB24). */
uint32_t usbcheck_original_dst(const struct usbcheck_original *u);

/*
 * Convert a raw frame with both (into `ours`, w * h * 3 bytes): 0 when
 * ours converted it, -1 when not (a frame to retry, as libv4l2 does);
 * *same is 1 when the original's output is ours byte for byte (inside the
 * border for RGB24), *mad the mean absolute difference over the whole
 * frame (-1 when the original refused the frame).
 */
int usbcheck_original_convert(struct usbcheck_original *u, const uint8_t *raw,
			      size_t n, uint8_t *ours, int *same, double *mad);

void usbcheck_original_close(struct usbcheck_original *u);

#endif
