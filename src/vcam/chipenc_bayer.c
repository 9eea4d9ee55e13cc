/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The chip Bayer formats' encoders for the virtual camera (chipenc.h).
 * The encoders themselves are those the tests of tests/chip/bayer use,
 * in src/vcam/chipenc_bayer.h (one copy; this file only wraps them).
 */
#include "vcam/chipenc.h"

#include <errno.h>
#include <linux/videodev2.h>

#include "vcam/chipenc_bayer.h"
#include "vcam/chipenc_s561.h"

typedef size_t bayer_enc_fn(const uint8_t *img, int w, int h, uint8_t *out,
			    size_t cap, uint32_t seed);

static const struct {
	uint32_t fourcc, order;
	bayer_enc_fn *enc;
} bayer_chips[] = {
	{ V4L2_PIX_FMT_SN9C10X, V4L2_PIX_FMT_SBGGR8, encode_s910 },
	{ V4L2_PIX_FMT_PAC207, V4L2_PIX_FMT_SBGGR8, encode_p207 },
	{ V4L2_PIX_FMT_STV0680, V4L2_PIX_FMT_SRGGB8, encode_s680 },
	{ V4L2_PIX_FMT_SN9C2028, V4L2_PIX_FMT_SBGGR8, encode_sonx },
	{ V4L2_PIX_FMT_MR97310A, V4L2_PIX_FMT_SBGGR8, encode_m310 },
	{ V4L2_PIX_FMT_SQ905C, V4L2_PIX_FMT_SRGGB8, encode_905c },
	{ V4L2_PIX_FMT_SPCA561, V4L2_PIX_FMT_SGBRG8, encode_s561 },
};
#define NBAYER (sizeof(bayer_chips) / sizeof(bayer_chips[0]))

uint32_t v4lc_chipenc_bayer_order(uint32_t fourcc)
{
	for (size_t i = 0; i < NBAYER; i++)
		if (bayer_chips[i].fourcc == fourcc)
			return bayer_chips[i].order;
	return 0;
}

size_t v4lc_chipenc_bayer_bound(uint32_t fourcc, int w, int h)
{
	size_t W = (size_t)w, H = (size_t)h;

	if (!v4lc_chipenc_bayer_order(fourcc))
		return 0;
	if (fourcc == V4L2_PIX_FMT_STV0680)
		return W * H; /* a reordering: exactly the image */
	/* at most 16 bits a pixel, a 2-byte row header, an 80-byte header */
	return 80 + H * (2 * W + 2);
}

long v4lc_chipenc_bayer(uint32_t fourcc, const uint8_t *bayer, int w, int h,
			uint32_t seed, uint8_t *dst, size_t size)
{
	size_t n;

	if (w < 8 || h < 2 || (w & 1) || (h & 1))
		return -EINVAL;
	for (size_t i = 0; i < NBAYER; i++) {
		if (bayer_chips[i].fourcc != fourcc)
			continue;
		n = bayer_chips[i].enc(bayer, w, h, dst, size, seed);
		return n > size ? -ENOSPC : (long)n;
	}
	return -EINVAL;
}
