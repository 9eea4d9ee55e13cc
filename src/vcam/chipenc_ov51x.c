/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The OV511/OV518 encoders of the virtual camera: the test encoders of
 * src/vcam/chipenc_ov51x.h (one copy; this file only wraps them).
 */
#include "vcam/chipenc_ov51x.h"

#include <errno.h>
#include <linux/videodev2.h>

#ifndef V4L2_PIX_FMT_OV511
#define V4L2_PIX_FMT_OV511 v4l2_fourcc('O', '5', '1', '1')
#endif
#ifndef V4L2_PIX_FMT_OV518
#define V4L2_PIX_FMT_OV518 v4l2_fourcc('O', '5', '1', '8')
#endif

int v4lc_chipenc_ov51x_size_ok(uint32_t fourcc, int w, int h)
{
	/* and within the original helpers' 500000-byte output */
	if (w < 16 || h < 16 || (size_t)w * (size_t)h * 3 / 2 > 500000)
		return 0;
	if (fourcc == V4L2_PIX_FMT_OV511)
		return w % 16 == 0 && h % 16 == 0;
	if (fourcc == V4L2_PIX_FMT_OV518)
		return w % 16 == 0 && h % 8 == 0;
	return 0;
}

size_t v4lc_chipenc_ov51x_bound(uint32_t fourcc, int w, int h)
{
	size_t n = (size_t)w * (size_t)h;

	if (fourcc == V4L2_PIX_FMT_OV511)
		return n / 256 * 6 * 112 + 64; /* records of <= 112 bytes */
	if (fourcc == V4L2_PIX_FMT_OV518)
		return 2 * n + 4096; /* far above these quantisers */
	return 0;
}

long v4lc_chipenc_ov51x(uint32_t fourcc, const uint8_t *yuv, int w, int h,
			uint8_t *dst, size_t size)
{
	size_t n = 0;
	uint8_t *f;

	if (!v4lc_chipenc_ov51x_size_ok(fourcc, w, h))
		return -EINVAL;
	f = fourcc == V4L2_PIX_FMT_OV511 ? co511_image(yuv, w, h, &n)
					 : co518_image(yuv, w, h, 2, &n);
	if (!f)
		return -ENOMEM;
	if (n > size) {
		free(f);
		return -ENOSPC;
	}
	memcpy(dst, f, n);
	free(f);
	return (long)n;
}
