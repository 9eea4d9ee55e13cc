/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Encoders of the chip formats, used by the virtual camera to offer them
 * and by the tests of tests/chip/{yuv,bayer,jpeg} to make valid frames;
 * one copy of each, here in src/vcam: the YUV 4:2:0 ones (the layouts
 * decoded by src/libv4lconvert/src_chipyuv.c, written independently of
 * the decoder) in chipenc.c, the Bayer ones in chipenc_bayer.h and the
 * JPEG-family ones in chipenc_jpeg.h (the tests include those headers;
 * chipenc_bayer.c and chipenc_jpeg.c wrap them for the camera below).
 *
 * Input pictures are YU12 with minimal strides: w * h luma bytes, then
 * (w/2) * (h/2) U, then as many V.
 */
#ifndef V4LC_VCAM_CHIPENC_H
#define V4LC_VCAM_CHIPENC_H

#include <stddef.h>
#include <stdint.h>

/*
 * Lay the YU12 picture out as one of the six fixed layouts: S501, S505,
 * S508 (signed samples in groups of two rows), CITV (Y row, then V Y U Y),
 * KONI (384-byte blocks of 256 Y, 64 U, 64 V; a short last block) and
 * S920 (16x8 blocks). w and h even; S920 also w % 16 == 0 and h % 8 == 0.
 * Returns the frame size (w * h * 3 / 2), -EINVAL for an unknown format
 * or size, -ENOSPC when size is too small.
 */
int v4lc_chipenc_yuv(uint32_t fourcc, const uint8_t *yu12, int w, int h,
		     uint8_t *dst, size_t size);

/* Whether the layout encoder (and decoder) accept w x h for fourcc. */
int v4lc_chipenc_yuv_size_ok(uint32_t fourcc, int w, int h);

/*
 * CPIA (CPiA1). Options of one frame:
 *   compressed  0: every pixel sent (header byte 28 = 0); 1: compressed
 *               (byte 28 = 1): the Y0 of each sent group or pair has bit 0
 *               cleared (an odd byte would read as a skip), and `skip`,
 *               when not NULL, is asked at each group start of row y,
 *               column x (with `left` pixels left in the row) whether to
 *               skip: it returns -1 to send the group, or a pixel count
 *               k >= 0 (made even and at most min(left, 126)) to emit a
 *               skip of k pixels (k = 0 is a legal skip of nothing; the
 *               callback must not return 0 forever).
 *   header      64 bytes the header starts from (NULL: zeros); the encoder
 *               sets bytes 0, 1 (0x19 0x68), 17 and 18 (0), 24..27 (the
 *               window), 28 (compression), 29 (0).
 *   col0, row0  the window's first column (units of 8 pixels) and row
 *               (units of 4 rows); the end ones follow from w and h.
 * w % 8 == 0, h % 4 == 0, w <= 352, h <= 288.
 */
struct v4lc_chipenc_cpia {
	int compressed;
	int (*skip)(void *opaque, int x, int y, int left);
	void *opaque;
	const uint8_t *header;
	int col0, row0;
};

/*
 * Encode a frame into dst. Returns the frame's size, which may exceed
 * `size`: only the first `size` bytes are then written (the caller checks);
 * -EINVAL for a bad size. A frame with no skips takes exactly
 * v4lc_chipenc_cpia_bound(w, h) bytes, and a skip never takes more bytes
 * than the group it replaces unless it skips nothing.
 */
long v4lc_chipenc_cpia_encode(const uint8_t *yu12, int w, int h,
			      const struct v4lc_chipenc_cpia *o, uint8_t *dst,
			      size_t size);
size_t v4lc_chipenc_cpia_bound(int w, int h);

/*
 * The chip Bayer formats (S910 P207 S680 SONX M310 905C S561): encoders of an
 * 8-bit Bayer image (stride w) in the order v4lc_chipenc_bayer_order
 * gives (the 8-bit Bayer fourcc, 0 if fourcc is not one of them); seed
 * varies the encoder's free choices. w >= 8 and h >= 2, even. Returns the
 * frame's size, -EINVAL or -ENOSPC (size below the frame). bound: the
 * largest frame at w x h. (chipenc_bayer.c: the encoders are those of
 * src/vcam/chipenc_bayer.h, which the tests of tests/chip/bayer use.)
 */
uint32_t v4lc_chipenc_bayer_order(uint32_t fourcc);
size_t v4lc_chipenc_bayer_bound(uint32_t fourcc, int w, int h);
long v4lc_chipenc_bayer(uint32_t fourcc, const uint8_t *bayer, int w, int h,
			uint32_t seed, uint8_t *dst, size_t size);

/*
 * The JPEG-family chip formats: PJPG (Pixart, from RGB24; w % 16, h % 8),
 * JL20 (JL2005B/C/D, from an RGGB mosaic; w and h % 16) and S401 (SE401,
 * from RGB24, one packet a row; even sizes). Returns the frame's size,
 * -EINVAL (format or size), -ENOSPC or -ENOMEM. bound: the sizeimage the
 * camera reports (a frame above it is refused with -ENOSPC).
 * (chipenc_jpeg.c: the PJPG/JL20 encoders and the SE401 packet writer are
 * those of src/vcam/chipenc_jpeg.h, which the tests of tests/chip/jpeg
 * use.)
 */
int v4lc_chipenc_jpeg_size_ok(uint32_t fourcc, int w, int h);
size_t v4lc_chipenc_jpeg_bound(uint32_t fourcc, int w, int h);
long v4lc_chipenc_jpeg(uint32_t fourcc, const uint8_t *img, int w, int h,
		       uint8_t *dst, size_t size);

#endif
