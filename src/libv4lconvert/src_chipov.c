/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * OmniVision OV511 ('O511') and OV518 ('O518') compressed frames, decoded
 * in process (src/jpeg/ov51x.h) to planar YUV 4:2:0, then converted like a
 * YUV420 source. The original decodes them in helper programs through a
 * pipe; its results are kept:
 *  - a frame the helper rejects (OV518: too short, or a stream length
 *    outside its window; the size limits of the helpers) fails with
 *    EAGAIN, like every helper failure in the original; a short frame is
 *    not special (no EPIPE: the original has no minimum size for these
 *    formats, and short OV511 frames decode, the missing bytes as zero);
 *  - except (a deliberate difference) an OV511 frame too short to hold
 *    its flag byte and footer (under 20 bytes, e.g. empty): the original
 *    then decodes what its helper's buffer still holds (the previous
 *    frame again, or zeros in a fresh helper) and succeeds; here it fails
 *    with EAGAIN, so that the frame is dropped instead;
 *  - geometries the helpers refuse (more than 500000 output bytes) fail
 *    with EAGAIN as well;
 *  - unlike the original, a YVU420 destination gets V before U for OV511
 *    too (the OV511 helper ignores the request and sends U first).
 * Odd widths or heights are refused (EINVAL): the helpers' layout (chroma
 * stride w/2) is not a YUV420 frame then.
 */
#include <errno.h>
#include <string.h>

#include "jpeg/ov51x.h"
#include "priv.h"

static void swap_planes(uint8_t *a, uint8_t *b, size_t n)
{
	uint8_t t[4096];

	while (n) {
		size_t k = n < sizeof(t) ? n : sizeof(t);

		memcpy(t, a, k);
		memcpy(a, b, k);
		memcpy(b, t, k);
		a += k;
		b += k;
		n -= k;
	}
}

int v4lc_conv_ov51x(struct v4lconvert_data *data, const struct v4lc_format *f,
		    const struct v4lc_frame *src, struct v4lc_frame *dst)
{
	int is518 = f->fourcc == V4L2_PIX_FMT_OV518;
	int w = src->width, h = src->height;
	size_t size = v4lc_ov51x_out_size(w, h);
	int planar = dst->fourcc == V4L2_PIX_FMT_YUV420 ||
		     dst->fourcc == V4L2_PIX_FMT_YVU420;
	int yvu = dst->fourcc == V4L2_PIX_FMT_YVU420;
	int direct = planar && (!dst->stride || dst->stride == w) &&
		     dst->size >= size;
	struct v4lc_frame yuv = { V4L2_PIX_FMT_YUV420, w, h, 0, NULL, size };
	uint8_t *out, *work;
	int ret;

	if (w <= 0 || h <= 0 || (w | h) & 1) {
		v4lc_error(data, EINVAL, "%.4s: unsupported size %dx%d",
			   (const char *)&src->fourcc, w, h);
		return -EINVAL;
	}
	if (!size) {
		v4lc_error(data, EAGAIN, "%.4s: frame size %dx%d too large",
			   (const char *)&src->fourcc, w, h);
		return -EAGAIN;
	}
	if (!is518 && src->size < 20) {
		v4lc_error(data, EAGAIN, "OV511 frame of %zu bytes", src->size);
		return -EAGAIN;
	}
	/* The decoded frame in the decoded scratch, the decoder's copy of
	 * the frame in the row buffers (nothing else uses them here). */
	out = direct ? dst->data : v4lc_decoded_scratch(data, size);
	work = v4lc_rows_scratch(data, v4lc_ov51x_work_size(src->size));
	if (!out || !work) {
		v4lc_error(data, ENOMEM, "out of memory");
		return -ENOMEM;
	}
	if (is518)
		ret = v4lc_ov518_decode(src->data, src->size, out, w, h,
					direct && yvu, work, NULL);
	else
		ret = v4lc_ov511_decode(src->data, src->size, out, w, h, work,
					NULL);
	if (ret < 0) {
		if (ret == -EAGAIN)
			v4lc_error(data, EAGAIN, "decompressing %s frame",
				   is518 ? "OV518" : "OV511");
		else
			v4lc_error(data, -ret, "%s decoder",
				   is518 ? "OV518" : "OV511");
		return ret;
	}
	if (direct) {
		if (yvu && !is518)
			swap_planes(out + (size_t)w * h,
				    out + (size_t)w * h + (size_t)w * h / 4,
				    (size_t)w * h / 4);
		return 0;
	}
	yuv.data = out;
	ret = v4lc_frame_convert(data->dsp, &yuv, dst, &data->colorimetry);
	if (ret < 0)
		v4lc_error(data, -ret, "converting the %s frame",
			   is518 ? "OV518" : "OV511");
	return ret;
}
