/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Luma-only rows: the specification. */
#include "scalar/grey.h"

void v4lc_grey_to_rgb24_c(const uint8_t *src, uint8_t *dst, int width)
{
	for (int x = 0; x < width; x++, dst += 3)
		dst[0] = dst[1] = dst[2] = src[x];
}

void v4lc_grey_le16_c(const uint8_t *src, uint8_t *dst, int width, int shift)
{
	for (int x = 0; x < width; x++, src += 2)
		dst[x] = (uint8_t)((src[0] | (unsigned)src[1] << 8) >> shift);
}

void v4lc_grey_be16_c(const uint8_t *src, uint8_t *dst, int width, int shift)
{
	for (int x = 0; x < width; x++, src += 2)
		dst[x] = (uint8_t)(((unsigned)src[0] << 8 | src[1]) >> shift);
}

/*
 * Y10BPACK: 40 bits hold pixels 0..3, most significant bit first, so the
 * top 8 bits of pixel k are bits 39 - 10k .. 32 - 10k of the big-endian
 * group. A partial last group holds 1..3 pixels in 2..4 bytes.
 */
void v4lc_grey_y10bpack_c(const uint8_t *src, uint8_t *dst, int width)
{
	int x = 0;

	for (; x + 4 <= width; x += 4, src += 5) {
		dst[x] = src[0];
		dst[x + 1] = (uint8_t)(src[1] << 2 | src[2] >> 6);
		dst[x + 2] = (uint8_t)(src[2] << 4 | src[3] >> 4);
		dst[x + 3] = (uint8_t)(src[3] << 6 | src[4] >> 2);
	}
	if (x < width)
		dst[x] = src[0];
	if (x + 1 < width)
		dst[x + 1] = (uint8_t)(src[1] << 2 | src[2] >> 6);
	if (x + 2 < width)
		dst[x + 2] = (uint8_t)(src[2] << 4 | src[3] >> 4);
}

void v4lc_grey_init_c(struct v4lc_grey_dsp *dsp)
{
	dsp->to_rgb24 = v4lc_grey_to_rgb24_c;
	dsp->le16 = v4lc_grey_le16_c;
	dsp->be16 = v4lc_grey_be16_c;
	dsp->y10bpack = v4lc_grey_y10bpack_c;
}
