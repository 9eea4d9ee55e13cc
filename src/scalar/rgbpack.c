/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Packed 16/32-bit RGB rows to 24-bit RGB/BGR: the specification. */
#include "scalar/rgbpack.h"

static inline void rgb565(const uint8_t *src, uint8_t *dst, int width, int swap)
{
	for (int x = 0; x < width; x++, src += 2, dst += 3) {
		unsigned p = src[0] | (unsigned)src[1] << 8;
		unsigned r = p >> 11, g = (p >> 5) & 63, b = p & 31;

		r = r << 3 | r >> 2;
		g = g << 2 | g >> 4;
		b = b << 3 | b >> 2;
		dst[swap ? 2 : 0] = (uint8_t)r;
		dst[1] = (uint8_t)g;
		dst[swap ? 0 : 2] = (uint8_t)b;
	}
}

void v4lc_rgbpack_rgb565_rgb_c(const uint8_t *src, uint8_t *dst, int width)
{
	rgb565(src, dst, width, 0);
}

void v4lc_rgbpack_rgb565_bgr_c(const uint8_t *src, uint8_t *dst, int width)
{
	rgb565(src, dst, width, 1);
}

/* Output bytes 0, 1, 2 are input bytes a, b, c of each 4-byte pixel. */
static inline void pick3(const uint8_t *src, uint8_t *dst, int width, int a,
			 int b, int c)
{
	for (int x = 0; x < width; x++, src += 4, dst += 3) {
		dst[0] = src[a];
		dst[1] = src[b];
		dst[2] = src[c];
	}
}

/* The four distinct byte selections; each serves two (layout, order) pairs. */
void v4lc_rgbpack_pick012_c(const uint8_t *src, uint8_t *dst, int width)
{
	pick3(src, dst, width, 0, 1, 2);
}

void v4lc_rgbpack_pick210_c(const uint8_t *src, uint8_t *dst, int width)
{
	pick3(src, dst, width, 2, 1, 0);
}

void v4lc_rgbpack_pick123_c(const uint8_t *src, uint8_t *dst, int width)
{
	pick3(src, dst, width, 1, 2, 3);
}

void v4lc_rgbpack_pick321_c(const uint8_t *src, uint8_t *dst, int width)
{
	pick3(src, dst, width, 3, 2, 1);
}

void v4lc_rgbpack_init_c(struct v4lc_rgbpack_dsp *dsp)
{
	dsp->rgb565[V4LC_RGB24] = v4lc_rgbpack_rgb565_rgb_c;
	dsp->rgb565[V4LC_BGR24] = v4lc_rgbpack_rgb565_bgr_c;
	dsp->rgb32[V4LC_BGRX32][V4LC_RGB24] = v4lc_rgbpack_pick210_c;
	dsp->rgb32[V4LC_BGRX32][V4LC_BGR24] = v4lc_rgbpack_pick012_c;
	dsp->rgb32[V4LC_XRGB32][V4LC_RGB24] = v4lc_rgbpack_pick123_c;
	dsp->rgb32[V4LC_XRGB32][V4LC_BGR24] = v4lc_rgbpack_pick321_c;
	dsp->rgb32[V4LC_XBGR32][V4LC_RGB24] = v4lc_rgbpack_pick321_c;
	dsp->rgb32[V4LC_XBGR32][V4LC_BGR24] = v4lc_rgbpack_pick123_c;
	dsp->rgb32[V4LC_RGBX32][V4LC_RGB24] = v4lc_rgbpack_pick012_c;
	dsp->rgb32[V4LC_RGBX32][V4LC_BGR24] = v4lc_rgbpack_pick210_c;
}
