/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* v4lconvert_convert: one frame through conversion, flip and size fitting. */
#include <errno.h>
#include <string.h>

#include "priv.h"

static int stride_of(const struct v4l2_pix_format *pix)
{
	int min = v4lc_frame_min_stride(pix->pixelformat, (int)pix->width);

	return (int)pix->bytesperline >= min ? (int)pix->bytesperline : min;
}

static enum v4lc_transform flip_op(const struct v4lconvert_data *data)
{
	if (data->hflip && data->vflip)
		return V4LC_XFORM_ROT180;
	return data->hflip ? V4LC_XFORM_HFLIP : V4LC_XFORM_VFLIP;
}

LIBV4L_PUBLIC int v4lconvert_convert(struct v4lconvert_data *data,
				     const struct v4l2_format *src_fmt,
				     const struct v4l2_format *dest_fmt,
				     unsigned char *src, int src_size,
				     unsigned char *dest, int dest_size)
{
	const struct v4l2_pix_format *sp = &src_fmt->fmt.pix;
	const struct v4l2_pix_format *dp = &dest_fmt->fmt.pix;
	const struct v4lc_source *source;
	struct v4lc_frame in, out, mid;
	size_t need, one = 0;
	int ret, flip, do_crop;

	if (src_fmt->type != V4L2_BUF_TYPE_VIDEO_CAPTURE ||
	    dest_fmt->type != V4L2_BUF_TYPE_VIDEO_CAPTURE || src_size < 0 ||
	    dest_size < 0)
		return v4lc_error(data, EINVAL, "unsupported buffer type");

	flip = (data->hflip || data->vflip) &&
	       v4lconvert_supported_dst_format(dp->pixelformat);
	do_crop = dp->width != sp->width || dp->height != sp->height;

	/* Nothing to do but copy: the same format, or a native one. */
	if (!v4lconvert_supported_dst_format(dp->pixelformat) ||
	    (sp->pixelformat == dp->pixelformat && !flip && !do_crop)) {
		if (dest_size < src_size)
			return v4lc_error(data, EFAULT,
					  "destination buffer too small "
					  "(%d < %d)", dest_size, src_size);
		memcpy(dest, src, (size_t)src_size);
		return src_size;
	}

	source = v4lc_source_find(sp->pixelformat);
	if (!source)
		return v4lc_error(data, EINVAL, "unknown source format %.4s",
				  (const char *)&sp->pixelformat);
	/* Up to 16 pixels of black border, or any crop (see fit.c). */
	if (dp->width > sp->width + 16 || dp->height > sp->height + 16 ||
	    !dp->width || !dp->height)
		return v4lc_error(data, EINVAL,
				  "cannot make %ux%u from %ux%u", dp->width,
				  dp->height, sp->width, sp->height);

	out.fourcc = dp->pixelformat;
	out.width = (int)dp->width;
	out.height = (int)dp->height;
	out.stride = stride_of(dp);
	out.data = dest;
	out.size = (size_t)dest_size;
	need = v4lc_frame_bytes(out.fourcc, out.width, out.height, out.stride);
	if (!need || need > (size_t)dest_size)
		return v4lc_error(data, EFAULT,
				  "destination buffer too small (%d < %zu)",
				  dest_size, need);

	in.fourcc = sp->pixelformat;
	in.width = (int)sp->width;
	in.height = (int)sp->height;
	/*
	 * Formats the frame layer does not know get the device's bytesperline
	 * as is (0 when absurd); their source converter treats 0 or less than
	 * its row size as the minimal stride.
	 */
	in.stride = v4lc_frame_min_stride(in.fourcc, in.width)
			    ? stride_of(sp)
			    : (sp->bytesperline <= INT32_MAX ? (int)sp->bytesperline
							     : 0);
	in.data = src;
	in.size = (size_t)src_size;
	data->colorimetry.colorspace = sp->colorspace;
	data->colorimetry.ycbcr_enc = sp->ycbcr_enc;
	data->colorimetry.quantization = sp->quantization;

	/*
	 * Convert into dest directly unless a flip or crop follows; then the
	 * scratch holds the converted frame (and the flipped one after it).
	 */
	mid = out;
	if (flip || do_crop) {
		uint8_t *scratch;

		one = v4lc_frame_bytes(out.fourcc, in.width, in.height, 0);
		/* converted frame, flipped frame, halved frame */
		scratch = v4lc_scratch(data, 2 * one + one / 4 + 64);

		if (!one || !scratch)
			return v4lc_error(data, ENOMEM, "out of memory");
		mid.width = in.width;
		mid.height = in.height;
		mid.stride = 0;
		mid.size = one;
		mid.data = scratch;
	}
	if (in.fourcc == mid.fourcc) {
		/* Only a flip or crop: read the source in place. */
		size_t have = v4lc_frame_bytes(in.fourcc, in.width, in.height,
					       in.stride);

		if (!have || have > in.size)
			return v4lc_error(data, EPIPE, "short frame (%d bytes)",
					  src_size);
		mid = in;
	} else {
		data->error[0] = '\0';
		ret = source->convert(data, &in, &mid);
		if (ret < 0) {
			if (!data->error[0])
				v4lc_error(data, -ret, "converting %.4s to %.4s",
					   (const char *)&in.fourcc,
					   (const char *)&out.fourcc);
			errno = -ret;
			return -1;
		}
	}

	if (flip) {
		struct v4lc_frame flipped = out;

		if (do_crop) {
			flipped = mid;
			flipped.stride = 0;
			flipped.data = data->scratch + one;
		}
		ret = v4lc_frame_transform(data->dsp, &mid, &flipped,
					   flip_op(data));
		if (ret < 0)
			return v4lc_error(data, -ret, "flipping the frame");
		mid = flipped;
	}
	if (do_crop) {
		if (mid.width >= 2 * out.width && mid.height >= 2 * out.height) {
			struct v4lc_frame half = mid;

			half.data = data->scratch + 2 * one;
			v4lc_halve(&mid, &half);
			mid = half;
		}
		v4lc_fit(&mid, &out);
	}
	return (int)need;
}
