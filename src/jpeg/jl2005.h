/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * JL2005B/C/D (V4L2_PIX_FMT_JL2005BCD, "JL20") decoder to 8-bit RGGB Bayer.
 *
 * Frame (as the kernel's gspca jl2005bcd driver delivers it): a 16-byte
 * header (byte 4 height / 8, byte 5 width / 8, byte 13 bits 0-6 the
 * quality; found black-box against the original: in the cameras' stored
 * still images the quality is byte 3, here it is byte 13, and nothing
 * else in the header matters), then JPEG-like entropy data
 * (public description: libgphoto2 camlibs/jl2005c/README.jl2005bcd-
 * compression): vertical strips 16 pixels wide, each a column of 16x16
 * MCUs of four 8x8 blocks (greens of the top half, greens of the bottom
 * half, reds, blues), standard luminance Huffman tables for every block,
 * one quantization table (the JPEG Annex K luminance table scaled by the
 * quality like libjpeg's jpeg_set_quality), the greens sharing one DC
 * predictor, predictors reset at each strip; a strip ends with ff d9 and
 * zero padding to a multiple of 16 bytes (counted from the start of the
 * entropy data).
 *
 * The strips are decoded through libjpeg (accurate integer IDCT, raw
 * component output) as one image 8 samples wide with a restart marker
 * between strips.
 */
#ifndef V4LC_JPEG_JL2005_H
#define V4LC_JPEG_JL2005_H

#include <stddef.h>
#include <stdint.h>

/*
 * Decode into bayer (width x height RGGB, stride width). width must be a
 * multiple of 16 and height of 16. Returns 0 or a negative errno:
 * -EAGAIN corrupt or incomplete frame, -EIO header size differs from
 * width x height, -EINVAL bad geometry, -ENOMEM. Message in err.
 */
int v4lc_jl2005_decode(const uint8_t *src, size_t n, uint8_t *bayer, int width,
		       int height, char *err, size_t err_len);

#endif
