/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Encoders of the chip formats (the compressed or rearranged frames of
 * old webcams' bridge chips, which libv4lconvert decodes): one entry per
 * format, for whatever must produce valid frames of them (the virtual
 * camera, an emulated USB camera, the sample generator, the tests).
 * Written independently of the decoders, from the formats' descriptions.
 *
 *     const struct v4lc_chipenc *e = v4lc_chipenc_find(fourcc);
 *     if (e && v4lc_chipenc_size_ok(e, w, h))
 *             n = v4lc_chipenc_encode(e, picture, w, h, seq, dst, size);
 *
 * The picture is in the entry's input form, with minimal strides. The
 * family headers give the encoders with every choice the tests make:
 * chipenc_bayer.h, chipenc_jpeg.h, chipenc_jpgl.h, chipenc_ov51x.h.
 */
#ifndef V4LC_VCAM_CHIPENC_H
#define V4LC_VCAM_CHIPENC_H

#include <stddef.h>
#include <stdint.h>

enum v4lc_chipenc_input {
	V4LC_CHIPENC_YU12,   /* planar YUV 4:2:0: w * h luma bytes, then
				(w/2) * (h/2) U, then as many V */
	V4LC_CHIPENC_RGB24,  /* R, G, B bytes, 3 * w a row */
	V4LC_CHIPENC_BAYER8, /* 8-bit Bayer, w a row, in the order `bayer` */
};

struct v4lc_chipenc_family;

struct v4lc_chipenc {
	uint32_t fourcc;
	enum v4lc_chipenc_input input;
	/* BAYER8 input: the order as an 8-bit Bayer fourcc (the order the
	 * format's decoder gives), else 0 */
	uint32_t bayer;
	const struct v4lc_chipenc_family *family;
};

/* The entry of a chip format; NULL when fourcc is none. */
const struct v4lc_chipenc *v4lc_chipenc_find(uint32_t fourcc);
/* The i-th entry (every chip format once); NULL past the last. */
const struct v4lc_chipenc *v4lc_chipenc_at(size_t i);

/* Whether the encoder (and the format's decoder) take w x h. */
int v4lc_chipenc_size_ok(const struct v4lc_chipenc *e, int w, int h);

/*
 * The largest frame at w x h, the sizeimage a camera reports (for the
 * fixed layouts, exactly the frame's size).
 */
size_t v4lc_chipenc_bound(const struct v4lc_chipenc *e, int w, int h);

/*
 * Encode one frame into dst. seq varies the encoder's free choices as a
 * camera's frame sequence would: the Bayer encoders' seed; CPIA frames
 * are compressed on odd seq (without skipped pixels, so each decodes on
 * its own), uncompressed on even. The JPEG-family encoders use fixed
 * settings: PJPG MCU marker 0x44 and chunk code 1, JL20 quality 80, S401
 * one packet a row. Returns the frame's size, -EINVAL (size not taken),
 * -ENOSPC (the frame exceeds size), -ENOMEM.
 */
long v4lc_chipenc_encode(const struct v4lc_chipenc *e, const uint8_t *in, int w,
			 int h, uint32_t seq, uint8_t *dst, size_t size);

/* ---- the YUV 4:2:0 families, with their own options ---- */

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

/* Whether the layout encoder (and decoder) accept w x h for fourcc (one
 * of the six layouts: the format table's CHIPYUV rows). */
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
/* Whether the CPIA encoder (and decoder) take w x h (see above). */
int v4lc_chipenc_cpia_size_ok(int w, int h);

#endif
