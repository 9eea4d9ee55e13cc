/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * v4lconvert_convert: one frame through conversion, flip and size fitting;
 * packed 4:2:2 to packed 4:2:2 through reorder and flip (priv.h).
 */
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

/* Byte offsets of Y0, U, Y1, V in a pair of a packed 4:2:2 format. */
static void packed_offsets(uint32_t fourcc, int off[4])
{
	int k = fourcc == V4L2_PIX_FMT_YUYV   ? V4LC_YUYV
		: fourcc == V4L2_PIX_FMT_YVYU ? V4LC_YVYU
		: fourcc == V4L2_PIX_FMT_UYVY ? V4LC_UYVY
					      : V4LC_VYUY;

	for (int i = 0; i < 4; i++)
		off[i] = v4lc_yuv422_offsets[k][i];
}

/* Packed 4:2:2 to another order, same geometry: whole pairs, bytes moved. */
static void reorder_packed(const struct v4lc_frame *in, struct v4lc_frame *out)
{
	int si[4], di[4], pairs = (in->width + 1) / 2;
	int ss = in->stride ? in->stride
			    : v4lc_frame_min_stride(in->fourcc, in->width);
	int ds = out->stride ? out->stride
			     : v4lc_frame_min_stride(out->fourcc, out->width);

	packed_offsets(in->fourcc, si);
	packed_offsets(out->fourcc, di);
	for (int y = 0; y < in->height; y++) {
		const uint8_t *s = in->data + (size_t)y * ss;
		uint8_t *d = out->data + (size_t)y * ds;

		for (int j = 0; j < pairs; j++, s += 4, d += 4) {
			uint8_t b[4] = { s[si[0]], s[si[1]], s[si[2]], s[si[3]] };

			d[di[0]] = b[0];
			d[di[1]] = b[1];
			d[di[2]] = b[2];
			d[di[3]] = b[3];
		}
	}
}

/*
 * A packed 4:2:2 destination from a packed 4:2:2 source of the same size
 * (priv.h): the byte order changed if it differs, then the flip.
 */
static int convert_packed(struct v4lconvert_data *data,
			  const struct v4l2_pix_format *sp,
			  const struct v4l2_pix_format *dp, unsigned char *src,
			  int src_size, unsigned char *dest, int dest_size,
			  int flip, int proc)
{
	struct v4lc_frame in = { sp->pixelformat, (int)sp->width,
				 (int)sp->height, stride_of(sp), src,
				 (size_t)src_size };
	struct v4lc_frame out = { dp->pixelformat, (int)dp->width,
				  (int)dp->height, stride_of(dp), dest,
				  (size_t)dest_size };
	size_t need, have;
	int ret;

	if (!sp->width || !sp->height || sp->width > INT32_MAX / 4 ||
	    sp->height > INT32_MAX)
		return v4lc_error(data, EINVAL, "cannot make %ux%u", dp->width,
				  dp->height);
	need = v4lc_frame_bytes(out.fourcc, out.width, out.height, out.stride);
	if (!need || need > (size_t)dest_size)
		return v4lc_error(data, EFAULT,
				  "destination buffer too small (%d < %zu)",
				  dest_size, need);
	have = v4lc_frame_bytes(in.fourcc, in.width, in.height, in.stride);
	if (!have || have > in.size)
		return v4lc_error(data, EPIPE, "short frame (%d bytes)",
				  src_size);
	if (in.fourcc != out.fourcc || proc) {
		struct v4lc_frame mid = out;

		if (flip) {
			mid.stride = 0;
			mid.size = v4lc_frame_bytes(mid.fourcc, mid.width,
						    mid.height, 0);
			mid.data = v4lc_scratch(data, mid.size);
			if (!mid.data)
				return v4lc_error(data, ENOMEM, "out of memory");
		}
		if (in.fourcc != out.fourcc) {
			reorder_packed(&in, &mid);
			in = mid;
		}
		if (proc) {
			/* white balance and gamma on the packed pixels */
			ret = v4lc_proc_frame(data, &in, &mid);
			if (ret < 0)
				return v4lc_error(data, -ret, "processing");
			in = mid;
		}
	}
	if (flip) {
		ret = v4lc_frame_transform(data->dsp, &in, &out, flip_op(data));
		if (ret < 0)
			return v4lc_error(data, -ret, "flipping the frame");
	}
	return (int)need;
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
	int ret, flip, do_crop, packed, proc;

	if (src_fmt->type != V4L2_BUF_TYPE_VIDEO_CAPTURE ||
	    dest_fmt->type != V4L2_BUF_TYPE_VIDEO_CAPTURE || src_size < 0 ||
	    dest_size < 0)
		return v4lc_error(data, EINVAL, "unsupported buffer type");

	do_crop = dp->width != sp->width || dp->height != sp->height;
	packed = v4lc_is_packed422(sp->pixelformat) &&
		 v4lc_is_packed422(dp->pixelformat) && !do_crop;
	/* shared control values may have changed (another program) */
	v4lc_controls_refresh(data);
	flip = v4lc_flips_active(data) &&
	       (v4lconvert_supported_dst_format(dp->pixelformat) || packed);
	proc = v4lc_proc_possible(data) &&
	       (v4lconvert_supported_dst_format(dp->pixelformat) || packed) &&
	       v4lc_proc_active(data);
	if (packed && (flip || proc || sp->pixelformat != dp->pixelformat))
		return convert_packed(data, sp, dp, src, src_size, dest,
				      dest_size, flip, proc);

	/* Nothing to do but copy: the same format, or a native one. */
	if (!v4lconvert_supported_dst_format(dp->pixelformat) ||
	    (sp->pixelformat == dp->pixelformat && !flip && !do_crop &&
	     !proc)) {
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
	/*
	 * Larger than any camera (64 Mpixel, 16384 a side): refused before
	 * anything is allocated, whatever a decoder would make of the data.
	 */
	if (sp->width > 16384 || sp->height > 16384 ||
	    (uint64_t)sp->width * sp->height > (1u << 26))
		return v4lc_error(data, EINVAL, "frame size %ux%u too large",
				  sp->width, sp->height);
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
	if (proc && v4lc_proc_bayer8(in.fourcc)) {
		/*
		 * Processing on the raw samples, before demosaic (cheaper, and
		 * white balance before interpolation): a processed copy.
		 */
		struct v4lc_frame raw = in;
		int st = in.stride >= in.width ? in.stride : in.width;
		size_t have = (size_t)st * (size_t)(in.height - 1) +
			      (size_t)in.width;

		if (!in.width || !in.height || have > in.size)
			return v4lc_error(data, EPIPE, "short frame (%d bytes)",
					  src_size);
		raw.stride = in.width;
		raw.size = (size_t)in.width * (size_t)in.height;
		raw.data = v4lc_proc_bayer_buffer(data, raw.size);
		if (!raw.data)
			return v4lc_error(data, ENOMEM, "out of memory");
		in.stride = st;
		ret = v4lc_proc_frame(data, &in, &raw);
		if (ret < 0)
			return v4lc_error(data, -ret, "processing");
		in = raw;
		proc = 0;
	}
	if (in.fourcc == mid.fourcc) {
		/* Only a flip or crop: read the source in place. */
		size_t have = v4lc_frame_bytes(in.fourcc, in.width, in.height,
					       in.stride);

		if (!have || have > in.size)
			return v4lc_error(data, EPIPE, "short frame (%d bytes)",
					  src_size);
		if (proc) {
			/* processing is the conversion: source to mid */
			ret = v4lc_proc_frame(data, &in, &mid);
			if (ret < 0)
				return v4lc_error(data, -ret, "processing");
			proc = 0;
		} else {
			mid = in;
		}
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
		if (proc) {
			/* on the converted frame, in place */
			ret = v4lc_proc_frame(data, &mid, &mid);
			if (ret < 0)
				return v4lc_error(data, -ret, "processing");
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
