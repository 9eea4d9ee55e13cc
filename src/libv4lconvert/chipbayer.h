/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Decoders of the compressed and reordered Bayer formats of webcam chips:
 * each turns one frame into 8-bit Bayer, width x height, stride width,
 * in the order of its *_ORDER below (the V4L2 8-bit Bayer fourcc).
 *
 * They never read outside src[0 .. size - 1]. Return values:
 *   0        decoded;
 *   -EPIPE   the frame is short: the bitstream ran past the end of the data
 *            (bytes past the end were read as zero, and the whole image is
 *            still written), or a fixed-size frame is smaller than needed;
 *   -EAGAIN  the frame is corrupt (the whole image may not be written).
 * `err` (may be NULL, `errlen` bytes) receives a message on failure.
 */
#ifndef V4LC_LIBV4LCONVERT_CHIPBAYER_H
#define V4LC_LIBV4LCONVERT_CHIPBAYER_H

#include <stddef.h>
#include <stdint.h>

#include <linux/videodev2.h>

typedef int v4lc_chipbayer_fn(const uint8_t *src, size_t size, uint8_t *dst,
			      int width, int height, char *err, size_t errlen);

/* SN9C10X (S910): Sonix DPCM with a fixed variable-length code. BGGR. */
#define V4LC_S910_ORDER V4L2_PIX_FMT_SBGGR8
v4lc_chipbayer_fn v4lc_decode_s910;

/* PAC207 (P207): rows with headers, Pixart DPCM code. BGGR. */
#define V4LC_P207_ORDER V4L2_PIX_FMT_SBGGR8
v4lc_chipbayer_fn v4lc_decode_p207;

/* STV0680 (S680): rows of even then odd columns. RGGB. */
#define V4LC_S680_ORDER V4L2_PIX_FMT_SRGGB8
v4lc_chipbayer_fn v4lc_decode_s680;

/* SN9C2028 (SONX): header, then per-row DPCM. BGGR. */
#define V4LC_SONX_ORDER V4L2_PIX_FMT_SBGGR8
v4lc_chipbayer_fn v4lc_decode_sonx;

/* MR97310A (M310): header, then Pixart-style DPCM. BGGR. */
#define V4LC_M310_ORDER V4L2_PIX_FMT_SBGGR8
v4lc_chipbayer_fn v4lc_decode_m310;

/* SQ905C (905C): header, then DPCM with a fixed code. RGGB. */
#define V4LC_905C_ORDER V4L2_PIX_FMT_SRGGB8
v4lc_chipbayer_fn v4lc_decode_905c;

/* SPCA561 (S561): 20-byte header, two plain rows, adaptive code. GBRG. */
#define V4LC_S561_ORDER V4L2_PIX_FMT_SGBRG8
v4lc_chipbayer_fn v4lc_decode_s561;

#endif
