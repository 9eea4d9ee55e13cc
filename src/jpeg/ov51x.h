/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * OV511 ('O511') and OV518 ('O518') frame decoders to planar 4:2:0, in
 * process (the original runs them in separate helper programs, fed
 * through a pipe); the formats are described in doc/formats/ov511.md and
 * doc/formats/ov518.md. The output is the helper's reply: w*h*3/2 bytes,
 * the Y plane (stride w), then two chroma planes (stride w/2).
 *
 * Differences from the helper programs, all outside well-formed frames:
 *  - the helpers keep their input/output buffers for their whole life,
 *    so bytes a frame does not write (sizes that are not multiples of 16)
 *    and bytes read past the end of a frame come from earlier frames;
 *    here they are those of a freshly started helper: zero (output) and
 *    the frame's own uncompacted tail, then zero (input);
 *  - reads before or beyond the helper's buffers (undefined there) read
 *    zero here and set V4LC_OV51X_UNDEFINED in *notes;
 *  - a frame above the helper's input buffer (OV511 500000 bytes, OV518
 *    200000) kills the helper (every later frame then fails); here that
 *    frame alone fails with -EAGAIN;
 *  - on failure the output may be partly written (the helper sends none).
 */
#ifndef V4LC_JPEG_OV51X_H
#define V4LC_JPEG_OV51X_H

#include <stddef.h>
#include <stdint.h>

/* The helpers' buffer sizes (their limits). */
#define V4LC_OV51X_MAX_OUT 500000
#define V4LC_OV511_MAX_IN 500000
#define V4LC_OV518_MAX_IN 200000

/* *notes: the original's output would depend on memory outside its buffers. */
#define V4LC_OV51X_UNDEFINED 1u

/*
 * The output size for w x h (w*h*3/2), or 0 when the helper refuses the
 * geometry (w or h outside 1..32767, or more than 500000 bytes).
 */
size_t v4lc_ov51x_out_size(int w, int h);

/*
 * Bytes of the work buffer the decoders need for a frame of n bytes (the
 * frame's compacted copy), at least what either decoder needs.
 */
size_t v4lc_ov51x_work_size(size_t n);

/*
 * Decode one frame into out (v4lc_ov51x_out_size(w, h) bytes), with work
 * (v4lc_ov51x_work_size(n) bytes; the caller keeps it across frames).
 * OV511: U plane first always; OV518: U first, or V first when yvu is 1
 * (that helper honours the flag; the OV511 one does not). notes may be
 * NULL. Returns 0, -EAGAIN (the helper would reply -1: corrupt frame) or
 * -EINVAL (geometry refused).
 */
int v4lc_ov511_decode(const uint8_t *src, size_t n, uint8_t *out, int w, int h,
		      uint8_t *work, unsigned *notes);
int v4lc_ov518_decode(const uint8_t *src, size_t n, uint8_t *out, int w, int h,
		      int yvu, uint8_t *work, unsigned *notes);

#endif
