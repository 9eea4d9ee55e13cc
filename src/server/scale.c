/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <string.h>

#include "scale.h"

enum kind { K_NONE, K_PACKED422, K_BYTES, K_BAYER, K_PLANAR420, K_NV };

static enum kind kind_of(uint32_t f, unsigned *bpp)
{
	*bpp = 1;
	switch (f) {
	case V4L2_PIX_FMT_YUYV:
	case V4L2_PIX_FMT_YVYU:
	case V4L2_PIX_FMT_UYVY:
	case V4L2_PIX_FMT_VYUY:
		return K_PACKED422;
	case V4L2_PIX_FMT_RGB24:
	case V4L2_PIX_FMT_BGR24:
		*bpp = 3;
		return K_BYTES;
	case V4L2_PIX_FMT_GREY:
		return K_BYTES;
	case V4L2_PIX_FMT_SBGGR8:
	case V4L2_PIX_FMT_SGBRG8:
	case V4L2_PIX_FMT_SGRBG8:
	case V4L2_PIX_FMT_SRGGB8:
		return K_BAYER;
	case V4L2_PIX_FMT_YUV420:
	case V4L2_PIX_FMT_YVU420:
		return K_PLANAR420;
	case V4L2_PIX_FMT_NV12:
	case V4L2_PIX_FMT_NV21:
		return K_NV;
	}
	return K_NONE;
}

int fs_scale_supported(uint32_t fourcc)
{
	unsigned bpp;

	return kind_of(fourcc, &bpp) != K_NONE;
}

/* One plane of unit-byte elements, nearest neighbour. */
static void plane(const uint8_t *s, size_t sbpl, unsigned sw, unsigned sh,
		  uint8_t *d, size_t dbpl, unsigned dw, unsigned dh,
		  unsigned unit, int bayer)
{
	for (unsigned y = 0; y < dh; y++) {
		unsigned sy = (unsigned)((uint64_t)y * sh / dh);
		const uint8_t *sr;
		uint8_t *dr = d + (size_t)y * dbpl;

		if (bayer) /* whole 2x2 quads */
			sy = (unsigned)((uint64_t)(y / 2) * (sh / 2) /
					(dh / 2 ? dh / 2 : 1)) *
				     2 +
			     (y & 1u);
		if (sy >= sh)
			sy = sh - 1;
		sr = s + (size_t)sy * sbpl;
		if (sw == dw) {
			memcpy(dr, sr, (size_t)dw * unit);
			continue;
		}
		for (unsigned x = 0; x < dw; x++) {
			unsigned sx = (unsigned)((uint64_t)x * sw / dw);

			if (bayer) {
				sx = (unsigned)((uint64_t)(x / 2) * (sw / 2) /
						(dw / 2 ? dw / 2 : 1)) *
					     2 +
				     (x & 1u);
				if (sx >= sw)
					sx = sw - 1;
			}
			memcpy(dr + (size_t)x * unit, sr + (size_t)sx * unit,
			       unit);
		}
	}
}

long fs_scale_frame(const uint8_t *src, const struct v4l2_pix_format *sp,
		    size_t src_used, uint8_t *dst,
		    const struct v4l2_pix_format *dp, size_t dst_size)
{
	unsigned bpp, sw = sp->width, sh = sp->height, dw = dp->width,
		      dh = dp->height;
	size_t sb = sp->bytesperline, db = dp->bytesperline;
	enum kind k;

	if (sp->pixelformat != dp->pixelformat)
		return -1;
	k = kind_of(sp->pixelformat, &bpp);
	if (k == K_NONE) {
		if (sw != dw || sh != dh || src_used > dst_size)
			return -1;
		memcpy(dst, src, src_used);
		return (long)src_used;
	}
	if (!sw || !sh || !dw || !dh || dp->sizeimage > dst_size ||
	    sp->sizeimage > src_used)
		return -1;
	if (sw == dw && sh == dh && sb == db) {
		memcpy(dst, src, dp->sizeimage);
		return (long)dp->sizeimage;
	}
	switch (k) {
	case K_PACKED422:
		plane(src, sb, sw / 2, sh, dst, db, dw / 2, dh, 4, 0);
		break;
	case K_BYTES:
		plane(src, sb, sw, sh, dst, db, dw, dh, bpp, 0);
		break;
	case K_BAYER:
		plane(src, sb, sw, sh, dst, db, dw, dh, 1, 1);
		break;
	case K_PLANAR420:
		plane(src, sb, sw, sh, dst, db, dw, dh, 1, 0);
		for (int p = 0; p < 2; p++)
			plane(src + sb * sh + (size_t)p * (sb / 2) * (sh / 2),
			      sb / 2, sw / 2, sh / 2,
			      dst + db * dh + (size_t)p * (db / 2) * (dh / 2),
			      db / 2, dw / 2, dh / 2, 1, 0);
		break;
	case K_NV:
		plane(src, sb, sw, sh, dst, db, dw, dh, 1, 0);
		plane(src + sb * sh, sb, sw / 2, sh / 2, dst + db * dh, db,
		      dw / 2, dh / 2, 2, 0);
		break;
	default:
		return -1;
	}
	return (long)dp->sizeimage;
}
