/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Compressed and reordered Bayer formats of webcam chips: each frame is
 * decoded into 8-bit Bayer (chipbayer_*.c), which then goes through the raw
 * Bayer source of its order (src_bayer.c) to any destination.
 *
 * The Bayer image is decoded into v4lc_decoded_scratch: the raw Bayer
 * source takes the row buffers (v4lc_rows_scratch), as much as it needs.
 */
#include <errno.h>
#include <string.h>

#include "chipbayer.h"
#include "priv.h"

static int convert_chip(struct v4lconvert_data *data,
			const struct v4lc_frame *src, struct v4lc_frame *dst,
			v4lc_chipbayer_fn *decode, uint32_t order,
			const char *name)
{
	struct v4lc_frame bf;
	size_t px;
	uint8_t *buf;
	char err[128];
	int ret, ret2;

	if (src->width <= 0 || src->height <= 0 || dst->width != src->width ||
	    dst->height != src->height)
		return -EINVAL;
	if (__builtin_mul_overflow((size_t)src->width, (size_t)src->height,
				   &px))
		return -ENOMEM;
	buf = v4lc_decoded_scratch(data, px);
	if (!buf)
		return -ENOMEM;

	err[0] = '\0';
	ret = decode(src->data, src->size, buf, src->width, src->height, err,
		     sizeof(err));
	if (ret < 0 && ret != -EPIPE) {
		v4lc_error(data, -ret, "%s", err[0] ? err : name);
		return ret;
	}
	/* A short frame is still converted: the caller may show it. */
	bf.fourcc = order;
	bf.width = src->width;
	bf.height = src->height;
	bf.stride = src->width;
	bf.data = buf;
	bf.size = px;
	ret2 = v4lc_conv_bayer(data, v4lc_format_find(order), &bf, dst);
	if (ret2 < 0)
		return ret2;
	if (ret < 0)
		v4lc_error(data, -ret, "%s", err[0] ? err : name);
	return ret;
}

/* The converter of one chip: its decoder, Bayer order and name. */
#define CHIP(id, ORDER, name)                                                  \
	int v4lc_conv_##id(struct v4lconvert_data *data,                       \
			   const struct v4lc_format *f,                        \
			   const struct v4lc_frame *src,                       \
			   struct v4lc_frame *dst)                             \
	{                                                                      \
		(void)f;                                                       \
		return convert_chip(data, src, dst, v4lc_decode_##id,          \
				    V4LC_##ORDER##_ORDER, name);               \
	}

CHIP(s910, S910, "SN9C10X")
CHIP(p207, P207, "PAC207")
CHIP(m310, M310, "MR97310A")
CHIP(sonx, SONX, "SN9C2028")
CHIP(905c, 905C, "SQ905C")
CHIP(s680, S680, "STV0680")
CHIP(s561, S561, "SPCA561")
