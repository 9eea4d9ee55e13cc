/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * JPEG-Lite (JPGL, nw80x) encoder: for the tests of tests/chip/jpeg
 * (jpgl.c) and, through chipenc.h, the virtual camera. Written from the
 * format's description, independently of the decoder (src/jpeg/jpgl.c): a
 * frame is one bit stream of 16-bit little-endian words filled from bit 15
 * down; per block row of 4 lines, per 16x4 macroblock: 4 luma blocks, Cb,
 * Cr (4x4 each), each a header (2-bit quantiser, mode bit, 5-bit DC delta
 * or 8-bit DC), (run, amplitude) codes and an end-of-block code.
 */
#ifndef V4LC_VCAM_CHIPENC_JPGL_H
#define V4LC_VCAM_CHIPENC_JPGL_H

#include <stddef.h>
#include <stdint.h>

/* ---- bit writer (also used by the tests to craft streams) ---- */
struct v4lc_jpgl_bw {
	uint8_t *buf;
	size_t cap, len; /* bytes: whole words written */
	uint32_t acc;    /* pending bits, right-aligned */
	int nacc;        /* their count (< 16) */
	int oom;
	uint64_t bits; /* bits written in all */
};

void v4lc_jpgl_bw_init(struct v4lc_jpgl_bw *bw);
/* Append the low n bits of v (n <= 24), first bit = bit n - 1. */
void v4lc_jpgl_put(struct v4lc_jpgl_bw *bw, uint32_t v, int n);
/*
 * Block header: quantiser q (0..3); differential when delta_mode (dc is
 * then the delta, -16..15), else the direct DC (-128..127).
 */
void v4lc_jpgl_put_header(struct v4lc_jpgl_bw *bw, int q, int delta_mode,
			  int dc);
/*
 * One (run, amplitude) pair: the table code when there is one and esc is
 * 0, else escape A (esc 1, or 0 with run <= 7, |amp| <= 31) or escape B
 * (esc 2, or 0 otherwise; run <= 15, |amp| <= 15). Returns -1 when the
 * pair cannot be coded as asked (nothing written).
 */
int v4lc_jpgl_put_ac(struct v4lc_jpgl_bw *bw, int run, int amp, int esc);
void v4lc_jpgl_put_eob(struct v4lc_jpgl_bw *bw);
/*
 * Pad to a whole word with zero bits, then `extra` zero bytes; returns the
 * buffer (the caller frees it) and its length, NULL when out of memory.
 */
uint8_t *v4lc_jpgl_bw_finish(struct v4lc_jpgl_bw *bw, size_t extra,
			     size_t *len);

/* ---- picture encoder ---- */
struct v4lc_jpgl_enc {
	int q;         /* quantiser for every block, or -1: per block, the
			   finest whose amplitudes fit escape B */
	int direct_dc; /* 1: direct DC headers only; 0: differential when
			   the delta fits */
	uint32_t seed; /* nonzero: code some pairs as escapes although a
			   table code exists (a pseudo-random choice) */
};

/*
 * Encode an RGB24 picture (stride 3 * w), w % 4 == 0 (macroblocks that
 * pass the right edge repeat the last column), h % 4 == 0 (h / 4 block
 * rows). Returns the frame (malloc'd) and its length in *len, NULL for a
 * bad size or no memory. o NULL: q -1, differential DC, no forced escapes.
 */
uint8_t *v4lc_jpgl_encode(const uint8_t *rgb, int w, int h,
			  const struct v4lc_jpgl_enc *o, size_t *len);

#endif
