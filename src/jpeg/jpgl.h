/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * JPEG-Lite (V4L2_PIX_FMT_JPGL, "JPGL", Divio nw80x cameras) decoder; the
 * format is described in doc/formats/jpgl.md. The frame is one bit stream
 * (16-bit little-endian words, each read from bit 15 down) of 16x4
 * macroblocks, each four 4x4 luma blocks and a 4x4 Cb and Cr block (4:1:1
 * chroma, full vertical resolution), block rows of 4 lines, three DC
 * predictors reset at each block row, a fixed prefix code for (run,
 * amplitude) pairs, per-block quantiser, 4x4 integer inverse transform;
 * BT.601 video-range YCbCr.
 *
 * Output is byte-identical with the original's RGB24/BGR24 output for
 * every width that is a multiple of 4 (widths not a multiple of 16 follow
 * the original's scratch-buffer spill model exactly) and any height (only
 * 4 * (height / 4) lines are written; the others are left untouched, like
 * the original). Bits beyond the end of the input read as zero.
 */
#ifndef V4LC_JPEG_JPGL_H
#define V4LC_JPEG_JPGL_H

#include <stddef.h>
#include <stdint.h>

/* The largest width and height the decoder takes. */
#define V4LC_JPGL_MAX_DIM 16384

/*
 * Bytes of the work buffer a frame of this width needs (one block row of
 * samples), or 0 for a width the decoder refuses.
 */
size_t v4lc_jpgl_work_size(int width);

/*
 * Decode a width x height frame into dst, minimal layout: RGB24 / BGR24
 * (stride 3 * width), YUV420 / YVU420 (planar: width x height luma, then
 * two (width / 2) x ((height + 1) / 2) chroma planes), with work
 * (v4lc_jpgl_work_size(width) bytes; the caller keeps it across frames).
 * YUV output is made straight from the decoded samples: the luma plane
 * holds the stream's luma, chroma is the 2x2 box average of the
 * horizontally interpolated 4:1:1 chroma (the chroma the RGB output uses),
 * rounded.
 *
 * Returns 0; -EPIPE when the frame is short (its decoding needs bits past
 * the end of src: those read as zero, the whole picture is written; an odd
 * last byte counts as missing, as it is the second half of its word);
 * -EINVAL bad geometry (width not a multiple of 4, height below 4, either
 * above V4LC_JPGL_MAX_DIM) or destination format; -EFAULT dst_size too
 * small. A message is stored in err on failure.
 */
int v4lc_jpgl_decode(const uint8_t *src, size_t n, uint32_t dst_fourcc,
		     uint8_t *dst, size_t dst_size, int width, int height,
		     uint8_t *work, char *err, size_t err_len);

#endif
