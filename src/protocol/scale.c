/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <string.h>

#include "core/format.h"
#include "scale.h"

enum kind { K_NONE, K_PACKED422, K_BYTES, K_BAYER, K_PLANAR420, K_NV };

/* The resampler's kind of a format, from its layout in the format table
 * (header-only: the protocol links nothing); bpp: bytes a pixel. */
static enum kind kind_of(uint32_t fourcc, unsigned *bpp)
{
	const struct v4lc_format *f = v4lc_format_row(fourcc);

	*bpp = 1;
	switch (f ? f->layout : V4LC_L_NONE) {
	case V4LC_L_PACKED422:
		return K_PACKED422;
	case V4LC_L_RGB24:
		*bpp = 3;
		return K_BYTES;
	case V4LC_L_GREY8:
		return K_BYTES;
	case V4LC_L_BAYER8:
		return K_BAYER;
	case V4LC_L_PLANAR420:
		return K_PLANAR420;
	case V4LC_L_SEMI420:
		return K_NV;
	default:
		return K_NONE;
	}
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

/* No real device comes near: keeps every extent product in 64 bits. */
#define MAX_DIM 65536u

/*
 * The bytes a frame of kind k at w x h with stride bpl spans, as the
 * resampler reads or writes it (chroma planes included), or 0 when the
 * stride cannot hold a row or the size is absurd. In 64 bits: stride and
 * height come from the driver.
 */
static uint64_t extent(enum kind k, unsigned bpp, uint64_t bpl, unsigned w,
		       unsigned h)
{
	uint64_t row = (uint64_t)w * (k == K_PACKED422 ? 2 : bpp);

	if (!w || !h || w > MAX_DIM || h > MAX_DIM || bpl < row)
		return 0;
	switch (k) {
	case K_PLANAR420:
		return bpl * h + 2 * (bpl / 2) * (h / 2);
	case K_NV:
		return bpl * h + bpl * (h / 2);
	default:
		return bpl * h;
	}
}

void fs_normalise_format(struct v4l2_pix_format *p)
{
	unsigned bpp;
	enum kind k = kind_of(p->pixelformat, &bpp);
	uint64_t row = (uint64_t)p->width * (k == K_PACKED422 ? 2 : bpp), x;

	if (k == K_NONE || !p->width || !p->height || p->width > MAX_DIM ||
	    p->height > MAX_DIM)
		return;
	if (p->bytesperline < row)
		p->bytesperline = (uint32_t)row;
	x = extent(k, bpp, p->bytesperline, p->width, p->height);
	if (p->sizeimage < x)
		p->sizeimage = x > UINT32_MAX ? UINT32_MAX : (uint32_t)x;
}

long fs_scale_frame(const uint8_t *src, const struct v4l2_pix_format *sp,
		    size_t src_used, uint8_t *dst,
		    const struct v4l2_pix_format *dp, size_t dst_size)
{
	unsigned bpp, sw = sp->width, sh = sp->height, dw = dp->width,
		      dh = dp->height;
	size_t sb = sp->bytesperline, db = dp->bytesperline;
	uint64_t sx, dx, n;
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
	/* Every byte read must be there and every byte written fit. */
	sx = extent(k, bpp, sb, sw, sh);
	dx = extent(k, bpp, db, dw, dh);
	if (!sx || !dx || sx > src_used || dx > dst_size ||
	    dp->sizeimage > dst_size)
		return -1;
	if (sw == dw && sh == dh && sb == db) {
		n = dp->sizeimage > dx ? dp->sizeimage : dx;
		if (n > src_used)
			n = src_used;
		memcpy(dst, src, (size_t)n);
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
