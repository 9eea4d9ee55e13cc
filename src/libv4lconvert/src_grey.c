/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Luma-only sources. Every format is first reduced to 8 bits per pixel:
 *   GREY, Y4, Y6: one byte per pixel, used as is. V4L2 does not document
 *     where Y4/Y6 keep their 4/6 bits; like the original library we take
 *     the byte as an MSB-aligned 8-bit sample (low bits padding).
 *   Y10, Y12, Y16: little-endian 16-bit, >> 2, >> 4, >> 8.
 *   Y16_BE: big-endian 16-bit, the high byte.
 *   Y10BPACK: 4 pixels in 5 bytes MSB first, the top 8 of 10 bits; a row
 *     of width w takes (10 w + 7) / 8 bytes (rows start on a byte).
 * RGB output is R = G = B = grey. YUV output copies grey into Y (no range
 * mapping, as the original does) and fills both chroma planes with 128.
 */
#include <string.h>

#include "src_rows.h"

enum grey_kind { G8, LE16, BE16, Y10B };

struct grey_fmt {
	enum grey_kind kind;
	int shift;
};

static int grey_fmt(uint32_t fourcc, struct grey_fmt *f)
{
	f->shift = 0;
	switch (fourcc) {
	case V4L2_PIX_FMT_GREY:
	case V4L2_PIX_FMT_Y4:
	case V4L2_PIX_FMT_Y6:
		f->kind = G8;
		return 0;
	case V4L2_PIX_FMT_Y10:
		f->kind = LE16;
		f->shift = 2;
		return 0;
	case V4L2_PIX_FMT_Y12:
		f->kind = LE16;
		f->shift = 4;
		return 0;
	case V4L2_PIX_FMT_Y16:
		f->kind = LE16;
		f->shift = 8;
		return 0;
	case V4L2_PIX_FMT_Y16_BE:
		f->kind = BE16;
		f->shift = 8;
		return 0;
	case V4L2_PIX_FMT_Y10BPACK:
		f->kind = Y10B;
		return 0;
	default:
		return -1;
	}
}

static size_t grey_row_bytes(enum grey_kind kind, int width)
{
	switch (kind) {
	case G8:
		return (size_t)width;
	case Y10B:
		return ((size_t)width * 10 + 7) / 8;
	default:
		return (size_t)width * 2;
	}
}

/* Pixels x0 .. x0 + n - 1 of a row to 8 bits (x0 a multiple of 4). */
static void grey_reduce(const struct v4lc_grey_dsp *k, const struct grey_fmt *f,
			const uint8_t *row, int x0, int n, uint8_t *out)
{
	switch (f->kind) {
	case G8:
		memcpy(out, row + x0, (size_t)n);
		break;
	case LE16:
		k->le16(row + 2 * (size_t)x0, out, n, f->shift);
		break;
	case BE16:
		k->be16(row + 2 * (size_t)x0, out, n, f->shift);
		break;
	case Y10B:
		k->y10bpack(row + (size_t)x0 / 4 * 5, out, n);
		break;
	}
}

static int convert_grey(struct v4lconvert_data *data,
			const struct v4lc_frame *src, struct v4lc_frame *dst)
{
	const struct v4lc_grey_dsp *k = &data->dsp->grey;
	struct v4lc_src_rows r;
	struct grey_fmt f;
	int ret;

	if (grey_fmt(src->fourcc, &f) || src->width <= 0)
		return -EINVAL;
	ret = v4lc_src_rows_init(data, src, dst,
				 grey_row_bytes(f.kind, src->width), &r);
	if (ret < 0)
		return ret;

	if (r.yuv) {
		size_t cw = (size_t)(r.width / 2 + (r.width & 1));
		int crows = r.height / 2 + (r.height & 1);

		for (int y = 0; y < r.height; y++) {
			const uint8_t *s = r.src + (size_t)y * r.stride;
			uint8_t *d = r.dst + (size_t)y * r.dstride;

			if (f.kind == G8)
				memcpy(d, s, (size_t)r.width);
			else
				grey_reduce(k, &f, s, 0, r.width, d);
		}
		for (int y = 0; y < crows; y++) {
			memset(r.u + (size_t)y * r.cstride, 128, cw);
			memset(r.v + (size_t)y * r.cstride, 128, cw);
		}
		return 0;
	}

	for (int y = 0; y < r.height; y++) {
		const uint8_t *s = r.src + (size_t)y * r.stride;
		uint8_t *d = r.dst + (size_t)y * r.dstride;
		uint8_t buf[V4LC_SRC_CHUNK];

		if (f.kind == G8) {
			k->to_rgb24(s, d, r.width);
			continue;
		}
		for (int x = 0; x < r.width; x += V4LC_SRC_CHUNK) {
			int n = r.width - x < V4LC_SRC_CHUNK ? r.width - x
							     : V4LC_SRC_CHUNK;

			grey_reduce(k, &f, s, x, n, buf);
			k->to_rgb24(buf, d + 3 * (size_t)x, n);
		}
	}
	return 0;
}

/* Rank 20 for both: grey is never chosen over a colour format. */
const struct v4lc_source v4lc_sources_grey[] = {
	{ V4L2_PIX_FMT_GREY, 20, 20, 0, convert_grey },
	{ V4L2_PIX_FMT_Y4, 20, 20, 0, convert_grey },
	{ V4L2_PIX_FMT_Y6, 20, 20, 0, convert_grey },
	{ V4L2_PIX_FMT_Y10, 20, 20, 0, convert_grey },
	{ V4L2_PIX_FMT_Y10BPACK, 20, 20, 0, convert_grey },
	{ V4L2_PIX_FMT_Y12, 20, 20, 0, convert_grey },
	{ V4L2_PIX_FMT_Y16, 20, 20, 0, convert_grey },
	{ V4L2_PIX_FMT_Y16_BE, 20, 20, 0, convert_grey },
	{ 0, 0, 0, 0, NULL },
};
