/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Encoders of the chip Bayer formats, one per format (chipenc_bayer.c,
 * chipenc_s561.c): each compresses an 8-bit Bayer image (w x h, stride w,
 * in the order its decoder gives: chipenc.h) into a valid frame of its
 * format, lossy where the format is (the closest code at every step), and
 * returns the frame's size. Only the first `cap` bytes are written; a size
 * above cap means the frame did not fit. 0: out of memory. `seed` varies
 * the choices between codes of equal merit (and the rarely used codes) so
 * that every code shows up. recon, when not NULL, receives the image
 * (w * h bytes) a correct decoder gives for the frame. The tests of
 * tests/chip/bayer drive them directly; the virtual camera through
 * chipenc.h.
 */
#ifndef V4LC_VCAM_CHIPENC_BAYER_H
#define V4LC_VCAM_CHIPENC_BAYER_H

#include <stddef.h>
#include <stdint.h>

typedef size_t v4lc_chipenc_bayer_fn(const uint8_t *img, int w, int h,
				     uint8_t *out, size_t cap, uint32_t seed,
				     uint8_t *recon);

v4lc_chipenc_bayer_fn v4lc_chipenc_s910; /* SN9C10X */
v4lc_chipenc_bayer_fn v4lc_chipenc_p207; /* PAC207: random row kinds */
v4lc_chipenc_bayer_fn v4lc_chipenc_s680; /* STV0680: lossless reorder */
v4lc_chipenc_bayer_fn v4lc_chipenc_sonx; /* SN9C2028 */
v4lc_chipenc_bayer_fn v4lc_chipenc_m310; /* MR97310A */
v4lc_chipenc_bayer_fn v4lc_chipenc_905c; /* SQ905C */
v4lc_chipenc_bayer_fn v4lc_chipenc_s561; /* SPCA561 (best fit) */

/*
 * SPCA561 with the test's choices (chipenc_s561.c): random_symbols 1
 * sends random code words of the decoder's table instead of the best fit;
 * allow_clamp 1 allows symbols whose result leaves -256 .. 511 (*clamped,
 * when not NULL, says whether one was sent).
 */
size_t v4lc_chipenc_s561_ex(const uint8_t *img, int w, int h, uint8_t *out,
			    size_t cap, uint32_t seed, int random_symbols,
			    int allow_clamp, int *clamped, uint8_t *recon);

/* The encoders' pseudo-random sequence (xorshift32; *s must not be 0). */
static inline uint32_t v4lc_chipenc_rng(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static inline int v4lc_chipenc_clamp(int v)
{
	return v < 0 ? 0 : v > 255 ? 255 : v;
}

#endif
