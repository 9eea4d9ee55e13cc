/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Raw Bayer sources, demosaiced by the bilinear rule of src/scalar/bayer.c.
 *   S????8:   one byte per pixel.
 *   S????10P: MIPI CSI-2 RAW10, 4 pixels in 5 bytes; the high 8 bits are
 *             kept. A row of width w takes (5 w + 3) / 4 bytes.
 *   S????10, S????12, S????16: little-endian 16-bit words, >> 2, >> 4, >> 8.
 * Row pipeline, no full-frame intermediate: deeper formats are reduced to 8
 * bits into a ring of four rows; RGB destinations are demosaiced straight
 * into their rows; YUV 4:2:0 destinations go two rows at a time through the
 * fused bayer.to_yuv420 kernel where the tier has one, else (and for an odd
 * last row) through two RGB24 rows and the rgb2yuv kernel (colour per the source's colorimetry:
 * by default BT.601 limited range). Tiers with planar Bayer kernels split
 * each 8-bit row once into even/odd column planes (a second ring of four
 * slots) and demosaic from the planes. Buffers come from v4lc_rows_scratch.
 */
#include <errno.h>
#include <string.h>

#include "src_rows.h"

/* Row j mirrored into 0 .. h - 1 (clamped when h == 1). */
static inline int mirror_row(int j, int h)
{
	if (j < 0)
		j = -j;
	if (j >= h)
		j = 2 * h - 2 - j;
	return j < 0 ? 0 : j;
}

/* 8-bit rows of the source: read in place, or reduced into a ring. */
struct bayer_rows {
	const struct v4lc_dsp *dsp;
	const struct v4lc_src_rows *r;
	const struct v4lc_format *f;
	uint8_t *ring; /* 4 rows of width bytes (deep formats) */
	int tag[4];    /* source row held by each ring slot, -1 = none */
	/*
	 * Planar path (tiers with bayer.planar kernels): each 8-bit row split
	 * once into even/odd column planes, kept in a ring of 4 slots.
	 */
	uint8_t *pring;
	size_t pstride, podd; /* slot size; offset of odd[-1] in a slot */
	int ptag[4];
};

static const uint8_t *bayer_row(struct bayer_rows *b, int y)
{
	const uint8_t *s = b->r->src + (size_t)y * b->r->stride;
	uint8_t *out;
	int slot = y & 3;

	if (b->f->layout == V4LC_L_BAYER8)
		return s;
	out = b->ring + (size_t)slot * (size_t)b->r->width;
	if (b->tag[slot] != y) {
		if (b->f->layout == V4LC_L_BAYER10P)
			b->dsp->bayer.unpack10p(s, out, b->r->width);
		else
			b->dsp->grey.le16(s, out, b->r->width, b->f->shift);
		b->tag[slot] = y;
	}
	return out;
}

/* Planes of row y: even at slot + 0, odd[-1] at slot + podd. */
static const uint8_t *bayer_planes(struct bayer_rows *b, int y)
{
	uint8_t *slot = b->pring + (size_t)(y & 3) * b->pstride;

	if (b->ptag[y & 3] != y) {
		b->dsp->bayer.split(bayer_row(b, y), slot, slot + b->podd + 1,
				    b->r->width);
		b->ptag[y & 3] = y;
	}
	return slot;
}

static void demosaic_row(struct bayer_rows *b, int y, int rgb_order,
			 uint8_t *dst)
{
	int h = b->r->height;
	v4lc_bayer_planar_fn *pl =
		b->pring ? b->dsp->bayer.planar[b->f->order][y & 1][rgb_order]
			 : NULL;

	if (pl) {
		const uint8_t *pa = bayer_planes(b, mirror_row(y - 1, h));
		const uint8_t *pb = bayer_planes(b, mirror_row(y + 1, h));
		const uint8_t *pc = bayer_planes(b, y);
		const uint8_t *planes[6] = {
			pa, pa + b->podd + 1, pc, pc + b->podd + 1,
			pb, pb + b->podd + 1,
		};

		pl(planes, dst, b->r->width);
		return;
	}
	const uint8_t *above = bayer_row(b, mirror_row(y - 1, h));
	const uint8_t *below = bayer_row(b, mirror_row(y + 1, h));
	const uint8_t *cur = bayer_row(b, y);

	b->dsp->bayer.demosaic[b->f->order][y & 1][rgb_order](above, cur, below,
							      dst, b->r->width);
}

/* YU12/YV12: two rows at a time, through the fused kernel or RGB24 rows. */
static void bayer_to_yuv(struct v4lconvert_data *data, struct bayer_rows *b,
			 uint8_t *rgb0)
{
	const struct v4lc_src_rows *r = b->r;
	v4lc_rgb2yuv_fn *k = data->dsp->rgb2yuv.to_yuv420[V4LC_RGB24];
	v4lc_bayer_yuv_fn *fused = data->dsp->bayer.to_yuv420[b->f->order];
	uint8_t *rgb1 = rgb0 + 3 * (size_t)r->width;
	struct v4lc_rgb2yuv m;

	v4lc_rgb2yuv_init(&m, &data->colorimetry);
	for (int y = 0; y < r->height; y += 2) {
		int pair = y + 1 < r->height;
		uint8_t *y0 = r->dst + (size_t)y * r->dstride;
		uint8_t *u = r->u + (size_t)(y / 2) * r->cstride;
		uint8_t *v = r->v + (size_t)(y / 2) * r->cstride;

		if (pair && fused) {
			/* Slots y & 3 of four consecutive rows differ. */
			const uint8_t *rows[4] = {
				bayer_row(b, mirror_row(y - 1, r->height)),
				bayer_row(b, y),
				bayer_row(b, y + 1),
				bayer_row(b, mirror_row(y + 2, r->height)),
			};

			fused(rows, y0, y0 + r->dstride, u, v, r->width, &m);
			continue;
		}
		demosaic_row(b, y, V4LC_RGB24, rgb0);
		if (pair)
			demosaic_row(b, y + 1, V4LC_RGB24, rgb1);
		k(rgb0, pair ? rgb1 : rgb0, y0, pair ? y0 + r->dstride : y0, u,
		  v, r->width, &m);
	}
}

int v4lc_conv_bayer(struct v4lconvert_data *data, const struct v4lc_format *f,
		    const struct v4lc_frame *src, struct v4lc_frame *dst)
{
	struct v4lc_src_rows r;
	struct bayer_rows b;
	size_t w, ring, need;
	uint8_t *buf = NULL;
	int ret;

	ret = v4lc_src_rows_init(data, f, src, dst, &r);
	if (ret < 0)
		return ret;

	w = (size_t)r.width;
	ring = f->layout == V4LC_L_BAYER8 ? 0 : 4 * w;
	/* planar ring: even plane (w + 1) / 2 + 1, odd plane w / 2 + 2 */
	b.pstride = 0;
	b.podd = (w + 1) / 2 + 1;
	for (int o = 0; o < V4LC_RGB_ORDERS; o++)
		if (data->dsp->bayer.planar[f->order][0][o] ||
		    data->dsp->bayer.planar[f->order][1][o])
			b.pstride = (b.podd + w / 2 + 2 + 63) & ~(size_t)63;
	need = ring + 4 * b.pstride + (r.yuv ? 6 * w : 0);
	if (need && !(buf = v4lc_rows_scratch(data, need)))
		return -ENOMEM;
	b.dsp = data->dsp;
	b.r = &r;
	b.f = f;
	b.ring = buf;
	b.pring = b.pstride ? buf + ring : NULL;
	for (int i = 0; i < 4; i++)
		b.tag[i] = b.ptag[i] = -1;

	if (r.yuv) {
		bayer_to_yuv(data, &b, buf + ring + 4 * b.pstride);
		return 0;
	}
	for (int y = 0; y < r.height; y++)
		demosaic_row(&b, y, r.rgb_order, r.dst + (size_t)y * r.dstride);
	return 0;
}
