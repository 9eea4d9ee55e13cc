/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the Bayer chip encoders (chipenc_bayer.c, chipenc_s561.c) share: an
 * MSB-first bit writer that counts past its buffer (the caller compares the
 * count with the capacity), and the copy of the decoded image.
 */
#ifndef V4LC_VCAM_CHIPENC_BITS_H
#define V4LC_VCAM_CHIPENC_BITS_H

#include <stddef.h>
#include <stdint.h>

/* Bits into out[0 .. cap - 1]; pos counts every byte, written or not. */
struct v4lc_bitw {
	uint8_t *out;
	size_t cap, pos;
	uint32_t acc;
	int n;
};

/* The low len bits of v, most significant first. */
void v4lc_bitw_put(struct v4lc_bitw *w, uint32_t v, int len);
/* Pad to a whole byte with zero bits; returns the byte count. */
size_t v4lc_bitw_flush(struct v4lc_bitw *w);

/* Copy the w x h image a decoder gives (rec) to recon, when not NULL. */
void v4lc_chipenc_keep(uint8_t *recon, const uint8_t *rec, int w, int h);

#endif
