/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * SE401 (V4L2_PIX_FMT_SE401, "S401", the "JangGu" compressed RGB of the
 * se401 driver) decoder to RGB24.
 *
 * Format (public description: the v4l1 se401 driver's decoder comments;
 * the details below were checked black-box against the original):
 * a frame is a sequence of packets, each a 4-byte header (byte 0 bits 7-6:
 * 0x80 in the first packet, 0x40 in the last, 0 otherwise; bits 5-0 and
 * byte 1: the number of pixels it carries; bytes 2-3: the number of code
 * bits, big-endian), then the code bits MSB first, the packet padded to
 * ((bits + 47) >> 4) << 1 bytes in all. Each pixel is three values R, G,
 * B, left to right, top to bottom. A value is n one-bits and a zero, then
 * n bits in the JPEG magnitude coding (a leading 0 bit makes it negative);
 * the sample is 8 times the value plus the same colour's sample of the
 * previous pixel of the row (0 for the first pixel), modulo 256.
 */
#ifndef V4LC_JPEG_SE401_H
#define V4LC_JPEG_SE401_H

#include <stddef.h>
#include <stdint.h>

/*
 * Decode into rgb (width x height RGB24, stride 3 * width). Returns 0 or
 * a negative errno (the original's: -EIO for any malformed frame; -EINVAL
 * bad geometry). Message in err.
 */
int v4lc_se401_decode(const uint8_t *src, size_t n, uint8_t *rgb, int width,
		      int height, char *err, size_t err_len);

#endif
