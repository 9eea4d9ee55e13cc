/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * v4lconvert_convert: one frame through conversion, flip and size fitting;
 * packed 4:2:2 to packed 4:2:2 through reorder and flip (priv.h).
 */
#include <errno.h>
#include <string.h>

#include "jpeg/mjpeg.h"
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
	const struct v4lc_format *f = v4lc_format_find(fourcc);

	for (int i = 0; i < 4; i++)
		off[i] = v4lc_yuv422_offsets[f->order][i];
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
			uint8_t b[4] = { s[si[0]], s[si[1]], s[si[2]],
					 s[si[3]] };

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
	struct v4lc_frame in = { sp->pixelformat,
				 (int)sp->width,
				 (int)sp->height,
				 stride_of(sp),
				 src,
				 (size_t)src_size };
	struct v4lc_frame out = {
		dp->pixelformat, (int)dp->width, (int)dp->height,
		stride_of(dp),   dest,           (size_t)dest_size
	};
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
				return v4lc_error(data, ENOMEM,
						  "out of memory");
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

/* One frame's conversion: what it does, and its frames. */
struct job {
	const struct v4lc_format *fmt; /* of the source */
	struct v4lc_frame in, out;
	int flip, crop, proc, packed;
	/* the converted frame's size: the source's, or the destination's
	 * when the JPEG decoder scales straight to it */
	int cw, ch;
	size_t need; /* bytes of out */
	/* scratch: where the converted, flipped and halved frames go */
	uint8_t *mid, *flipped, *half;
};

/* Whole frames only: a copy of the source. */
static int copy_source(struct v4lconvert_data *data, const unsigned char *src,
		       int src_size, unsigned char *dest, int dest_size)
{
	if (dest_size < src_size)
		return v4lc_error(data, EFAULT,
				  "destination buffer too small (%d < %d)",
				  dest_size, src_size);
	memcpy(dest, src, (size_t)src_size);
	return src_size;
}

/* What the frame goes through: flip, crop or border, processing. */
static void plan_ops(struct v4lconvert_data *data,
		     const struct v4l2_pix_format *sp,
		     const struct v4l2_pix_format *dp, struct job *j)
{
	int emulated = v4lconvert_supported_dst_format(dp->pixelformat);

	j->crop = dp->width != sp->width || dp->height != sp->height;
	j->packed = v4lc_is_packed422(sp->pixelformat) &&
		    v4lc_is_packed422(dp->pixelformat) && !j->crop;
	j->flip = v4lc_flips_active(data) && (emulated || j->packed);
	j->proc = v4lc_proc_possible(data) && (emulated || j->packed) &&
		  v4lc_proc_active(data);
}

/*
 * The source and destination frames of a conversion to one of the four
 * destination formats: 0, or -1 with errno and the message set.
 */
static int validate(struct v4lconvert_data *data,
		    const struct v4l2_pix_format *sp,
		    const struct v4l2_pix_format *dp, unsigned char *src,
		    int src_size, unsigned char *dest, int dest_size,
		    struct job *j)
{
	j->fmt = v4lc_format_find(sp->pixelformat);
	if (!j->fmt)
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
		return v4lc_error(data, EINVAL, "cannot make %ux%u from %ux%u",
				  dp->width, dp->height, sp->width, sp->height);

	j->out = (struct v4lc_frame){
		dp->pixelformat, (int)dp->width, (int)dp->height,
		stride_of(dp),   dest,           (size_t)dest_size
	};
	j->need = v4lc_frame_bytes(j->out.fourcc, j->out.width, j->out.height,
				   j->out.stride);
	if (!j->need || j->need > (size_t)dest_size)
		return v4lc_error(data, EFAULT,
				  "destination buffer too small (%d < %zu)",
				  dest_size, j->need);
	/*
	 * Formats the frame layer does not know get the device's
	 * bytesperline as is (0 when absurd); their source converter treats
	 * 0 or less than its row size as the minimal stride.
	 */
	j->in = (struct v4lc_frame){
		sp->pixelformat,
		(int)sp->width,
		(int)sp->height,
		v4lc_frame_min_stride(sp->pixelformat, (int)sp->width)
			? stride_of(sp)
			: (sp->bytesperline <= INT32_MAX ? (int)sp->bytesperline
							 : 0),
		src,
		(size_t)src_size
	};
	j->cw = j->in.width;
	j->ch = j->in.height;
	data->colorimetry.colorspace = sp->colorspace;
	data->colorimetry.ycbcr_enc = sp->ycbcr_enc;
	data->colorimetry.quantization = sp->quantization;
	return 0;
}

/* Bytes rounded up to whole cache lines: the frames in scratch start on
 * one. */
static size_t lines(size_t n)
{
	return (n + 63) & ~(size_t)63;
}

/*
 * Scratch for the frames between conversion and destination, only those
 * this frame needs: the converted frame when a flip or crop follows (unless
 * the source is read in place), the flipped one when a crop follows, the
 * halved one when the crop halves first.
 */
static int plan_scratch(struct v4lconvert_data *data, struct job *j)
{
	int in_place = j->in.fourcc == j->out.fourcc && !j->proc;
	int halve = j->crop && j->cw >= 2 * j->out.width &&
		    j->ch >= 2 * j->out.height;
	size_t one = v4lc_frame_bytes(j->out.fourcc, j->cw, j->ch, 0);
	size_t mid = (j->flip || j->crop) && !in_place ? lines(one) : 0;
	size_t flipped = j->flip && j->crop ? lines(one) : 0;
	size_t half =
		halve ? v4lc_frame_bytes(j->out.fourcc, j->cw / 2, j->ch / 2, 0)
		      : 0;
	uint8_t *p;

	j->mid = j->flipped = j->half = NULL;
	if (!(j->flip || j->crop))
		return 0;
	if (!one || (halve && !half))
		return v4lc_error(data, ENOMEM, "out of memory");
	if (!(mid + flipped + half))
		return 0;
	p = v4lc_scratch(data, mid + flipped + half);
	if (!p)
		return v4lc_error(data, ENOMEM, "out of memory");
	j->mid = mid ? p : NULL;
	j->flipped = flipped ? p + mid : NULL;
	j->half = halve ? p + mid + flipped : NULL;
	return 0;
}

/*
 * Processing on the raw samples of 8-bit Bayer, before demosaic (cheaper,
 * and white balance before interpolation): j->in becomes a processed
 * copy.
 */
static int proc_bayer(struct v4lconvert_data *data, struct job *j)
{
	struct v4lc_frame raw = j->in;
	int st = j->in.stride >= j->in.width ? j->in.stride : j->in.width;
	size_t have =
		(size_t)st * (size_t)(j->in.height - 1) + (size_t)j->in.width;
	int ret;

	if (!j->in.width || !j->in.height || have > j->in.size)
		return v4lc_error(data, EPIPE, "short frame (%zu bytes)",
				  j->in.size);
	raw.stride = j->in.width;
	raw.size = (size_t)j->in.width * (size_t)j->in.height;
	raw.data = v4lc_proc_bayer_buffer(data, raw.size);
	if (!raw.data)
		return v4lc_error(data, ENOMEM, "out of memory");
	j->in.stride = st;
	ret = v4lc_proc_frame(data, &j->in, &raw);
	if (ret < 0)
		return v4lc_error(data, -ret, "processing");
	j->in = raw;
	j->proc = 0;
	return 0;
}

/*
 * The source into *mid: the destination itself unless a flip or crop
 * follows, then scratch (or, for a source of the destination's format and
 * nothing else to do to it, the source in place).
 */
static int convert(struct v4lconvert_data *data, struct job *j,
		   struct v4lc_frame *mid)
{
	int ret;

	*mid = j->out;
	if (j->mid) {
		*mid = (struct v4lc_frame){ j->out.fourcc, j->cw, j->ch, 0,
					    j->mid,        0 };
		mid->size = v4lc_frame_bytes(mid->fourcc, mid->width,
					     mid->height, 0);
	}
	if (j->proc && v4lc_proc_bayer8(j->in.fourcc) &&
	    (ret = proc_bayer(data, j)) < 0)
		return ret;
	if (j->in.fourcc == mid->fourcc) {
		/* Only a flip or crop, or processing: the source as it is. */
		size_t have = v4lc_frame_bytes(j->in.fourcc, j->in.width,
					       j->in.height, j->in.stride);

		if (!have || have > j->in.size)
			return v4lc_error(data, EPIPE,
					  "short frame (%zu bytes)",
					  j->in.size);
		if (!j->proc) {
			*mid = j->in;
			return 0;
		}
		ret = v4lc_proc_frame(data, &j->in, mid);
		return ret < 0 ? v4lc_error(data, -ret, "processing") : 0;
	}
	data->error[0] = '\0';
	ret = v4lc_convert_source(data, j->fmt, &j->in, mid);
	if (ret < 0) {
		if (!data->error[0])
			v4lc_error(data, -ret, "converting %.4s to %.4s",
				   (const char *)&j->in.fourcc,
				   (const char *)&j->out.fourcc);
		errno = -ret;
		return -1;
	}
	if (j->proc) {
		/* on the converted frame, in place */
		ret = v4lc_proc_frame(data, mid, mid);
		if (ret < 0)
			return v4lc_error(data, -ret, "processing");
	}
	return 0;
}

/*
 * A JPEG source whose size over 2, 4 or 8 is the destination's: the decoder
 * scales with its IDCT straight to that size (src/jpeg/mjpeg.h), so nothing
 * is decoded in full and nothing is cropped or halved after it.
 */
static void plan_jpeg_scale(struct job *j)
{
	if (!j->crop || j->fmt->layout != V4LC_L_JPEG ||
	    !v4lc_jpeg_scale_denom(j->in.width, j->in.height, j->out.width,
				   j->out.height))
		return;
	j->cw = j->out.width;
	j->ch = j->out.height;
	j->crop = 0;
}

/* *mid flipped: into the destination, or (a crop follows) scratch. */
static int flip(struct v4lconvert_data *data, const struct job *j,
		struct v4lc_frame *mid)
{
	struct v4lc_frame flipped = j->out;
	int ret;

	if (j->crop) {
		flipped = *mid;
		flipped.stride = 0;
		flipped.data = j->flipped;
	}
	ret = v4lc_frame_transform(data->dsp, mid, &flipped, flip_op(data));
	if (ret < 0)
		return v4lc_error(data, -ret, "flipping the frame");
	*mid = flipped;
	return 0;
}

/* *mid to the destination's size: halved first when it is twice as big. */
static void fit(const struct job *j, struct v4lc_frame *mid)
{
	struct v4lc_frame out = j->out;

	if (j->half) {
		struct v4lc_frame half = *mid;

		half.data = j->half;
		v4lc_halve(mid, &half);
		*mid = half;
	}
	v4lc_fit(mid, &out);
}

LIBV4L_PUBLIC int v4lconvert_convert(struct v4lconvert_data *data,
				     const struct v4l2_format *src_fmt,
				     const struct v4l2_format *dest_fmt,
				     unsigned char *src, int src_size,
				     unsigned char *dest, int dest_size)
{
	const struct v4l2_pix_format *sp = &src_fmt->fmt.pix;
	const struct v4l2_pix_format *dp = &dest_fmt->fmt.pix;
	struct v4lc_frame mid;
	struct job j;

	if (src_fmt->type != V4L2_BUF_TYPE_VIDEO_CAPTURE ||
	    dest_fmt->type != V4L2_BUF_TYPE_VIDEO_CAPTURE || src_size < 0 ||
	    dest_size < 0)
		return v4lc_error(data, EINVAL, "unsupported buffer type");
	/* shared control values may have changed (another program) */
	v4lc_controls_refresh(data);
	plan_ops(data, sp, dp, &j);
	if (j.packed &&
	    (j.flip || j.proc || sp->pixelformat != dp->pixelformat))
		return convert_packed(data, sp, dp, src, src_size, dest,
				      dest_size, j.flip, j.proc);
	/* Nothing to do but copy: the same format, or a native one. */
	if (!v4lconvert_supported_dst_format(dp->pixelformat) ||
	    (sp->pixelformat == dp->pixelformat && !j.flip && !j.crop &&
	     !j.proc))
		return copy_source(data, src, src_size, dest, dest_size);

	if (validate(data, sp, dp, src, src_size, dest, dest_size, &j))
		return -1;
	plan_jpeg_scale(&j);
	if (plan_scratch(data, &j) || convert(data, &j, &mid) ||
	    (j.flip && flip(data, &j, &mid)))
		return -1;
	if (j.crop)
		fit(&j, &mid);
	return (int)j.need;
}
