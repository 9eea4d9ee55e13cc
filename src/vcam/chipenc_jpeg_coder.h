/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The baseline JPEG entropy coder the JPEG-family chip encoders share
 * (chipenc_jpeg.c): a growing bit buffer with optional 0xff stuffing, the
 * standard Huffman tables (libjpeg's compressor defaults) and a
 * double-precision forward DCT.
 */
#ifndef V4LC_VCAM_CHIPENC_JPEG_CODER_H
#define V4LC_VCAM_CHIPENC_JPEG_CODER_H

#include <stddef.h>
#include <stdint.h>

/* Zigzag index -> natural index. */
extern const int v4lc_jenc_zigzag[64];

/* A bit buffer that grows; oom is set (and bits dropped) when it cannot. */
struct v4lc_jenc_bits {
	uint8_t *buf;
	size_t n, cap;
	uint32_t acc;
	int nacc;
	int stuff; /* insert 0x00 after each 0xff */
	int oom;
};

void v4lc_jenc_byte(struct v4lc_jenc_bits *b, uint8_t v);
/* The low n bits of v, most significant first. */
void v4lc_jenc_put(struct v4lc_jenc_bits *b, uint32_t v, int n);
/* Pad to a whole byte with one bits. */
void v4lc_jenc_flush(struct v4lc_jenc_bits *b);
/* JPEG magnitude category of v, and its n value bits. */
int v4lc_jenc_category(int v);
void v4lc_jenc_value(struct v4lc_jenc_bits *b, int v, int n);

/*
 * One block of quantized coefficients (natural order) with the standard
 * luma (chroma 0) or chroma tables; pred: the component's DC predictor.
 */
void v4lc_jenc_block(struct v4lc_jenc_bits *b, const int *coef, int *pred,
		     int chroma);
/* Forward DCT of an 8x8 block of samples (level shift included). */
void v4lc_jenc_fdct(const uint8_t *src, int stride, double *out);

#endif
