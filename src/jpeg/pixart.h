/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Pixart "JPEG" (V4L2_PIX_FMT_PJPG, pac7302/pac7311) decoder.
 *
 * The frame is a baseline JPEG header (SOF0 4:2:2: Y 2x1, Cb and Cr 1x1;
 * no DQT, no DHT: the standard Huffman tables apply) followed by:
 *   - one byte giving the size class (0x60: 160x120, whose data is not
 *     chunked; otherwise the data is cut into chunks),
 *   - entropy-coded data cut into chunks: a first chunk of 1018 bytes, then
 *     repeatedly a 4-byte header ff ff ff n (n <= 6) and a chunk of
 *     2048 >> n bytes (the last chunk may be shorter),
 *   - in the entropy-coded data, an 8-bit marker before every MCU: bits 2-6
 *     select the quantization scale of that MCU, bit 7 the chrominance
 *     table (it must not change within a frame).
 * The quantization tables are not in the frame; ours, and the arithmetic,
 * follow the original's behaviour measured black-box (see pixart.c): RGB24
 * output is byte-identical with the original's but for rare float
 * rounding at a boundary.
 */
#ifndef V4LC_JPEG_PIXART_H
#define V4LC_JPEG_PIXART_H

#include <stddef.h>
#include <stdint.h>

struct v4lc_pjpg;

struct v4lc_pjpg *v4lc_pjpg_new(void);
void v4lc_pjpg_free(struct v4lc_pjpg *p);

/*
 * Decode a width x height PJPG frame into dst (RGB24, BGR24: stride
 * 3 * width; YUV420, YVU420: planar, chroma (width/2) x (height/2)).
 * width must be a multiple of 16 and height of 8.
 * Returns 0 or a negative errno, as the original: -EPIPE a short, badly
 * chunked or damaged frame (dst holds what was decoded, the rest is left
 * untouched), -EAGAIN no usable header, -EIO the header's size is not
 * width x height, -EINVAL bad geometry or destination format, -EFAULT dst
 * too small, -ENOMEM.
 * A message is stored in err on failure.
 */
int v4lc_pjpg_decode(struct v4lc_pjpg *p, const uint8_t *src, size_t n,
		     uint32_t dst_fourcc, uint8_t *dst, size_t dst_size,
		     int width, int height, char *err, size_t err_len);

/* Quantization table (natural order) the decoder uses for an MCU marker:
 * chroma 0 for luma, 1 for chroma. For tests. */
void v4lc_pjpg_qtable(int marker, int chroma, uint16_t q[64]);

#endif
