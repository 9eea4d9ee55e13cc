/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The converter column of the format table, and the converters of the
 * formats the frame layer and the JPEG decoder handle directly.
 */
#include <errno.h>

#include "jpeg/mjpeg.h"
#include "priv.h"

int v4lc_conv_frame(struct v4lconvert_data *data, const struct v4lc_format *f,
		    const struct v4lc_frame *src, struct v4lc_frame *dst)
{
	size_t need = v4lc_frame_bytes(f->fourcc, src->width, src->height,
				       src->stride);

	if (!need)
		return -EINVAL;
	if (need > src->size) {
		v4lc_error(data, EPIPE, "short frame: %zu of %zu bytes",
			   src->size, need);
		return -EPIPE;
	}
	return v4lc_frame_convert(data->dsp, src, dst, &data->colorimetry);
}

int v4lc_conv_jpeg(struct v4lconvert_data *data, const struct v4lc_format *f,
		   const struct v4lc_frame *src, struct v4lc_frame *dst)
{
	char err[160];
	int ret, denom = 1;

	(void)f;
	if (!data->jpeg && !(data->jpeg = v4lc_jpeg_new()))
		return -ENOMEM;
	/* A smaller destination: the IDCT scales (see plan_jpeg_scale). */
	if (src->width != dst->width || src->height != dst->height)
		denom = v4lc_jpeg_scale_denom(src->width, src->height,
					      dst->width, dst->height);
	if (!denom)
		return -EINVAL;
	ret = v4lc_jpeg_decode_scaled(data->jpeg, src->data, src->size,
				      dst->fourcc, dst->data, dst->size,
				      dst->width, dst->height, denom, err,
				      sizeof(err));
	if (ret < 0)
		v4lc_error(data, -ret, "decompressing JPEG: %s", err);
	return ret;
}

#define V4LC_CONVERTER(fcc, layout, order, swap, shift, rgb, yuv, needs, conv, \
		       size, desc)                                             \
	v4lc_conv_##conv,
static v4lc_convert_fn *const converters[] = { V4LC_FORMAT_TABLE(
	V4LC_CONVERTER) };
#undef V4LC_CONVERTER

int v4lc_convert_source(struct v4lconvert_data *data,
			const struct v4lc_format *f,
			const struct v4lc_frame *src, struct v4lc_frame *dst)
{
	size_t i = (size_t)(f - v4lc_formats);

	if (i >= sizeof(converters) / sizeof(converters[0]))
		return -EINVAL;
	return converters[i](data, f, src, dst);
}

int v4lc_dst_init(const struct v4lc_frame *dst, struct v4lc_dst *d)
{
	const struct v4lc_format *f = v4lc_format_find(dst->fourcc);
	struct v4lc_planes p;

	if (!f ||
	    (f->layout != V4LC_L_RGB24 && f->layout != V4LC_L_PLANAR420) ||
	    !dst->data ||
	    v4lc_format_geometry(f, dst->width, dst->height, dst->stride, &p))
		return -EINVAL;
	if (p.total > dst->size)
		return -EFAULT;
	d->y = dst->data;
	d->ys = p.stride;
	d->cs = p.cstride;
	d->yuv = f->layout == V4LC_L_PLANAR420;
	d->rgb_order = d->yuv ? V4LC_RGB24 : f->order;
	d->u = d->v = NULL;
	if (d->yuv) {
		uint8_t *p1 = dst->data + p.luma, *p2 = p1 + p.chroma;

		d->u = f->swap_uv ? p2 : p1;
		d->v = f->swap_uv ? p1 : p2;
	}
	return 0;
}
