/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Encoders of the OV511 ('O511') and OV518 ('O518') frames (chipenc_ov511.c,
 * chipenc_ov518.c), written from the clean-room specification's frame
 * description; the tests of tests/chip/ov51x drive them directly, the
 * virtual camera through chipenc.h.
 *
 * The frame encoders take a callback that supplies each block in the
 * decoder's order:
 *  - OV518: 8x4 blocks, per 8-row stripe the upper-half Y blocks, then
 *    U, V, Y, Y per 16 columns of the lower half; the callback fills 32
 *    coefficients in scan order, c[0] the DC DIFFERENCE (to the previous
 *    block of that component). Entropy-coded with the JPEG example tables.
 *  - OV511: 8x8 blocks, steps of U, V, Y, Y, Y, Y (U/V and Y in raster
 *    order of their planes when w and h are multiples of 16); the
 *    callback writes the block's byte record (v4lc_chipenc_ov511_record
 *    builds one).
 * The image encoders use a float forward transform matched to the
 * decoders' integer inverse ones. Every encoder returns the frame
 * (malloc'd; the caller frees it) with its size in *len, or NULL.
 */
#ifndef V4LC_VCAM_CHIPENC_OV51X_H
#define V4LC_VCAM_CHIPENC_OV51X_H

#include <stddef.h>
#include <stdint.h>

/* ---- OV518 ---- */

typedef void v4lc_chipenc_ov518_block_fn(void *ctx, int comp, int x, int y,
					 int32_t c[32]);

/*
 * A whole frame: header, coded blocks, padding, quantisation bytes (qy,
 * qc: 32 each, non-zero so that no unit is all zero). *zero_unit is set
 * when some 8-byte unit came out all zero (the decoder would drop it:
 * re-encode differently).
 */
uint8_t *v4lc_chipenc_ov518_frame(int w, int h, const uint8_t qy[32],
				  const uint8_t qc[32],
				  v4lc_chipenc_ov518_block_fn *cb, void *ctx,
				  size_t *len, int *zero_unit);

/*
 * A frame from planar YUV420 (stride w, chroma w/2; w % 16, h % 8);
 * quality 0 (coarse) .. 3 (fine) picks the quantiser; re-encoded with the
 * next coarser one when a unit came out all zero.
 */
uint8_t *v4lc_chipenc_ov518_image(const uint8_t *yuv, int w, int h, int quality,
				  size_t *len);

/* ---- OV511 ---- */

/* Writes one block record at out (<= 112 bytes), returns its length. */
typedef int v4lc_chipenc_ov511_block_fn(void *ctx, int comp, int x, int y,
					uint8_t *out);

/*
 * A record from values z[0..n-1] (scan order; z[0] the DC, -2048..2047):
 * eight: 8-bit AC values (else 12-bit), table: a zero table listing the
 * non-zero AC values only (else all n - 1 are written). Returns its length.
 */
int v4lc_chipenc_ov511_record(const int32_t *z, int n, int eight, int table,
			      uint8_t *out);

/* A whole compressed frame (flag 0x48): 8 zero bytes, the flag, the
 * records, zero padding to 32 bytes, the 11-byte footer. */
uint8_t *v4lc_chipenc_ov511_frame(int w, int h, v4lc_chipenc_ov511_block_fn *cb,
				  void *ctx, size_t *len);

/* A compressed frame from planar YUV420 (w % 16, h % 16). */
uint8_t *v4lc_chipenc_ov511_image(const uint8_t *yuv, int w, int h,
				  size_t *len);

#endif
