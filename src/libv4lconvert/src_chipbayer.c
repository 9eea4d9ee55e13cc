/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Compressed and reordered Bayer formats of webcam chips: each frame is
 * decoded into 8-bit Bayer (chipbayer_*.c), which then goes through the raw
 * Bayer source of its order (src_bayer.c) to any destination.
 *
 * The decoders are compiled into this file (the build picks up
 * src_<group>.c only); the tests compile them on their own.
 *
 * The Bayer image is decoded into v4lc_decoded_scratch: the raw Bayer
 * source takes the row buffers (v4lc_rows_scratch), as much as it needs.
 */
#include <errno.h>
#include <string.h>

#include "chipbayer.h"
#include "priv.h"

#include "chipbayer_905c.c"
#include "chipbayer_m310.c"
#include "chipbayer_p207.c"
#include "chipbayer_s561.c"
#include "chipbayer_s680.c"
#include "chipbayer_s910.c"
#include "chipbayer_sonx.c"

struct chip {
	uint32_t fourcc, order;
	v4lc_chipbayer_fn *decode;
	const char *name;
};

static const struct chip chips[] = {
	{ V4L2_PIX_FMT_SN9C10X, V4LC_S910_ORDER, v4lc_decode_s910, "SN9C10X" },
	{ V4L2_PIX_FMT_PAC207, V4LC_P207_ORDER, v4lc_decode_p207, "PAC207" },
	{ V4L2_PIX_FMT_MR97310A, V4LC_M310_ORDER, v4lc_decode_m310, "MR97310A" },
	{ V4L2_PIX_FMT_SN9C2028, V4LC_SONX_ORDER, v4lc_decode_sonx, "SN9C2028" },
	{ V4L2_PIX_FMT_SQ905C, V4LC_905C_ORDER, v4lc_decode_905c, "SQ905C" },
	{ V4L2_PIX_FMT_STV0680, V4LC_S680_ORDER, v4lc_decode_s680, "STV0680" },
	{ V4L2_PIX_FMT_SPCA561, V4LC_S561_ORDER, v4lc_decode_s561, "SPCA561" },
};

static int convert_chip(struct v4lconvert_data *data,
			const struct v4lc_frame *src, struct v4lc_frame *dst)
{
	const struct chip *c = NULL;
	const struct v4lc_source *bayer;
	struct v4lc_frame bf;
	size_t px;
	uint8_t *buf;
	char err[128];
	int ret, ret2;

	for (size_t i = 0; i < sizeof(chips) / sizeof(chips[0]); i++)
		if (chips[i].fourcc == src->fourcc)
			c = &chips[i];
	if (!c || src->width <= 0 || src->height <= 0 ||
	    dst->width != src->width || dst->height != src->height)
		return -EINVAL;
	bayer = v4lc_source_find(c->order);
	if (!bayer)
		return -EINVAL;
	if (__builtin_mul_overflow((size_t)src->width, (size_t)src->height,
				   &px))
		return -ENOMEM;
	buf = v4lc_decoded_scratch(data, px);
	if (!buf)
		return -ENOMEM;

	err[0] = '\0';
	ret = c->decode(src->data, src->size, buf,
			src->width, src->height, err, sizeof(err));
	if (ret < 0 && ret != -EPIPE) {
		v4lc_error(data, -ret, "%s", err[0] ? err : c->name);
		return ret;
	}
	/* A short frame is still converted: the caller may show it. */
	bf.fourcc = c->order;
	bf.width = src->width;
	bf.height = src->height;
	bf.stride = src->width;
	bf.data = buf;
	bf.size = px;
	ret2 = bayer->convert(data, &bf, dst);
	if (ret2 < 0)
		return ret2;
	if (ret < 0)
		v4lc_error(data, -ret, "%s", err[0] ? err : c->name);
	return ret;
}

/* Compressed Bayer ranks 9 like the original; all need conversion. */
const struct v4lc_source v4lc_sources_chipbayer[] = {
	{ V4L2_PIX_FMT_SN9C10X, 9, 9, 1, convert_chip },
	{ V4L2_PIX_FMT_PAC207, 9, 9, 1, convert_chip },
	{ V4L2_PIX_FMT_MR97310A, 9, 9, 1, convert_chip },
	{ V4L2_PIX_FMT_SN9C2028, 9, 9, 1, convert_chip },
	{ V4L2_PIX_FMT_SQ905C, 9, 9, 1, convert_chip },
	{ V4L2_PIX_FMT_STV0680, 9, 9, 1, convert_chip },
	{ V4L2_PIX_FMT_SPCA561, 9, 9, 1, convert_chip },
	{ 0, 0, 0, 0, NULL },
};
