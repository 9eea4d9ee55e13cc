/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Format negotiation: which formats are offered, which native format serves
 * a requested one, and the frame sizes and intervals of emulated formats.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "jpeg/mjpeg.h"
#include "priv.h"

static const uint32_t dst_formats[] = {
	V4L2_PIX_FMT_RGB24,
	V4L2_PIX_FMT_BGR24,
	V4L2_PIX_FMT_YUV420,
	V4L2_PIX_FMT_YVU420,
};
#define N_DST (int)(sizeof(dst_formats) / sizeof(dst_formats[0]))

LIBV4L_PUBLIC int v4lconvert_supported_dst_format(unsigned int pixelformat)
{
	for (int i = 0; i < N_DST; i++)
		if (dst_formats[i] == pixelformat)
			return 1;
	return 0;
}

int v4lc_flips_active(const struct v4lconvert_data *data)
{
	return data->hflip || data->vflip;
}

#define flips_active v4lc_flips_active

int v4lc_is_packed422(uint32_t fourcc)
{
	const struct v4lc_format *f = v4lc_format_find(fourcc);

	return f && f->layout == V4LC_L_PACKED422;
}

/* In dst-only mode, native packed 4:2:2 formats stay listed and served. */
static int packed_native(const struct v4lconvert_data *data, int i)
{
	return v4lc_is_packed422(data->native[i].pixelformat) &&
	       v4lc_fmtset_has(&data->convertible, i);
}

LIBV4L_PUBLIC int
v4lconvert_supported_dst_fmt_only(struct v4lconvert_data *data)
{
	/*
	 * Flips run on the destination formats and on packed 4:2:2 (served
	 * from packed 4:2:2 sources only): the other native formats hide.
	 */
	return v4lc_fmtset_meets(&data->convertible, NULL) &&
	       (flips_active(data) || v4lc_proc_possible(data));
}

void v4lc_fixup(struct v4l2_pix_format *pix)
{
	if (v4lconvert_supported_dst_format(pix->pixelformat))
		v4lc_fixup_packed(pix);
}

void v4lc_fixup_packed(struct v4l2_pix_format *pix)
{
	size_t bytes;

	pix->bytesperline = (uint32_t)v4lc_frame_min_stride(pix->pixelformat,
							    (int)pix->width);
	bytes = v4lc_frame_bytes(pix->pixelformat, (int)pix->width,
				 (int)pix->height, (int)pix->bytesperline);
	pix->sizeimage = bytes > UINT32_MAX ? 0 : (uint32_t)bytes;
}

LIBV4L_PUBLIC void v4lconvert_fixup_fmt(struct v4l2_format *fmt)
{
	if (fmt->type == V4L2_BUF_TYPE_VIDEO_CAPTURE)
		v4lc_fixup(&fmt->fmt.pix);
}

/* Emulated formats: destination formats the device lacks, when it has a
 * format we can convert from. */
static int emulated_formats(const struct v4lconvert_data *data,
			    uint32_t out[N_DST], const char *names[N_DST])
{
	int n = 0;

	if (!v4lc_fmtset_meets(&data->convertible, NULL))
		return 0;
	for (int i = 0; i < N_DST; i++) {
		if (v4lc_native_index(data, dst_formats[i]) >= 0)
			continue;
		out[n] = dst_formats[i];
		/* The kernel's own description (v4l2-compliance checks it);
		 * V4L2_FMT_FLAG_EMULATED tells that it is converted. */
		names[n++] = v4lc_format_find(dst_formats[i])->desc;
	}
	return n;
}

LIBV4L_PUBLIC int v4lconvert_enum_fmt(struct v4lconvert_data *data,
				      struct v4l2_fmtdesc *fmt)
{
	uint32_t emu[N_DST];
	const char *names[N_DST];
	uint32_t index = fmt->index, type = fmt->type;
	int n_emu;

	if (type != V4L2_BUF_TYPE_VIDEO_CAPTURE)
		return v4lc_dev_ioctl(data, VIDIOC_ENUM_FMT, fmt);

	n_emu = emulated_formats(data, emu, names);
	if (v4lconvert_supported_dst_fmt_only(data)) {
		/*
		 * Only formats a flip can be applied to: native destination
		 * formats, then native packed 4:2:2 ones (device order).
		 */
		int list[V4LC_MAX_NATIVE_FORMATS];
		int n = 0;

		for (int i = 0; i < N_DST; i++) {
			int k = v4lc_native_index(data, dst_formats[i]);

			if (k >= 0)
				list[n++] = k;
		}
		for (int i = 0; i < data->n_native; i++)
			if (packed_native(data, i))
				list[n++] = i;
		if (index < (uint32_t)n) {
			/* Delivered flipped or processed, never as the driver
			 * gives them: GStreamer keys DMABUF export off this. */
			*fmt = data->native[list[index]];
			fmt->index = index;
			fmt->flags |= V4L2_FMT_FLAG_EMULATED;
			return 0;
		}
		index -= n;
	} else if (index < (uint32_t)data->n_native) {
		*fmt = data->native[index];
		return 0;
	} else {
		index -= data->n_native;
	}
	if (index >= (uint32_t)n_emu) {
		errno = EINVAL;
		return -1;
	}
	memset(fmt->reserved, 0, sizeof(fmt->reserved));
	fmt->type = type;
	fmt->flags = V4L2_FMT_FLAG_EMULATED;
	fmt->pixelformat = emu[index];
	fmt->mbus_code = 0;
	snprintf((char *)fmt->description, sizeof(fmt->description), "%s",
		 names[index]);
	return 0;
}

static int is_rgb(uint32_t fourcc)
{
	const struct v4lc_format *f = v4lc_format_find(fourcc);

	return f && f->layout == V4LC_L_RGB24;
}

/*
 * Cost of serving `dst` from native format `src`, as used by try_format.
 * Raw formats that would exceed the bus bandwidth at the current frame rate
 * are penalised; compressed ones are not (the camera compresses to fit).
 */
static int rank(const struct v4lconvert_data *data,
		const struct v4lc_format *src, uint32_t dst, uint32_t width,
		uint32_t height)
{
	int r = is_rgb(dst) ? src->rank_rgb : src->rank_yuv;
	int compressed = src->layout == V4LC_L_JPEG;
	uint64_t frame =
		v4lc_frame_bytes(src->fourcc, (int)width, (int)height, 0);

	if (!frame)
		frame = (uint64_t)width * height *
			2; /* formats of other groups */
	if (src->fourcc == dst)
		r--;
	if (data->bandwidth && !compressed &&
	    frame * (uint64_t)data->fps > data->bandwidth)
		r += 10;
	return r;
}

/*
 * The size a native format gives for a request. UVC cameras do USB I/O on
 * TRY_FMT, so they are answered from the cached discrete sizes instead: the
 * largest size that fits in the request, else the smallest.
 */
static int native_size(struct v4lconvert_data *data, int fmt_index,
		       struct v4l2_format *fmt)
{
	struct v4l2_pix_format *pix = &fmt->fmt.pix;

	if (!strcmp(data->driver, "uvcvideo") && data->n_sizes) {
		const struct v4lc_framesize *best = NULL, *smallest = NULL;

		for (int i = 0; i < data->n_sizes; i++) {
			const struct v4lc_framesize *s = &data->sizes[i];

			if (!v4lc_fmtset_has(&s->formats, fmt_index))
				continue;
			if (!smallest || (uint64_t)s->width * s->height <
						 (uint64_t)smallest->width *
							 smallest->height)
				smallest = s;
			if (s->width <= pix->width &&
			    s->height <= pix->height &&
			    (!best ||
			     (uint64_t)s->width * s->height >
				     (uint64_t)best->width * best->height))
				best = s;
		}
		if (!best)
			best = smallest;
		if (best) {
			pix->width = best->width;
			pix->height = best->height;
			pix->bytesperline = 0;
			pix->sizeimage = 0;
			return 0;
		}
	}
	return v4lc_dev_ioctl(data, VIDIOC_TRY_FMT, fmt);
}

static uint64_t size_distance(const struct v4l2_pix_format *a, uint32_t w,
			      uint32_t h)
{
	int64_t dw = (int64_t)a->width - w, dh = (int64_t)a->height - h;

	return (uint64_t)(dw * dw + dh * dh);
}

/*
 * A JPEG format whose size 2, 4 or 8 times the request (the smallest) the
 * device gives exactly: the decoder scales to the request with its IDCT
 * (src/jpeg/mjpeg.h), cheaper than any native frame it would otherwise be
 * cropped from. *out: that native format.
 */
static int jpeg_scaled_size(struct v4lconvert_data *data, int fmt_index,
			    const struct v4l2_format *base,
			    struct v4l2_format *out)
{
	const struct v4lc_format *f =
		v4lc_format_find(data->native[fmt_index].pixelformat);
	uint32_t rw = base->fmt.pix.width, rh = base->fmt.pix.height;

	if (!f || f->layout != V4LC_L_JPEG || !rw || !rh || rw > 8192 ||
	    rh > 8192)
		return 0;
	for (uint32_t n = 2; n <= 8; n *= 2) {
		*out = *base;
		out->fmt.pix.width = rw * n;
		out->fmt.pix.height = rh * n;
		if (!native_size(data, fmt_index, out) &&
		    v4lc_jpeg_scale_denom((int)out->fmt.pix.width,
					  (int)out->fmt.pix.height, (int)rw,
					  (int)rh) == (int)n)
			return 1;
	}
	return 0;
}

/*
 * Sizes the device cannot give exactly, offered anyway ("fake" resolutions,
 * as the original does): a sensor that adds up to 7 columns and a row of
 * border pixels is cropped; for the classic sizes 320x240, 160x120, 352x288
 * and 176x144 a size about 13 % wider and 24 % taller (vv6410 sensors) is
 * reached by a black border of at most 16 pixels, a crop to at most 125 %,
 * or a 2x reduction of a 200-250 % source. See fit.c for the pixels.
 */
static int fake_size(struct v4lconvert_data *data, int fmt_index,
		     const struct v4l2_format *base, struct v4l2_format *out)
{
	static const uint32_t classic[][2] = {
		{ 320, 240 },
		{ 160, 120 },
		{ 352, 288 },
		{ 176, 144 },
	};
	uint32_t rw = base->fmt.pix.width, rh = base->fmt.pix.height, w, h;

	if (jpeg_scaled_size(data, fmt_index, base, out))
		return 1;
	*out = *base;
	out->fmt.pix.width = rw + 7;
	out->fmt.pix.height = rh + 1;
	if (!native_size(data, fmt_index, out) && out->fmt.pix.width >= rw &&
	    out->fmt.pix.width <= rw + 7 && out->fmt.pix.height >= rh &&
	    out->fmt.pix.height <= rh + 1)
		return 1;

	for (size_t i = 0; i < sizeof(classic) / sizeof(classic[0]); i++) {
		if (rw != classic[i][0] || rh != classic[i][1])
			continue;
		*out = *base;
		out->fmt.pix.width = rw * 113 / 100;
		out->fmt.pix.height = rh * 124 / 100;
		if (native_size(data, fmt_index, out))
			return 0;
		w = out->fmt.pix.width;
		h = out->fmt.pix.height;
		if (w <= rw && h <= rh && rw - w <= 16 && rh - h <= 16)
			return 1; /* black border */
		if (w >= rw && h >= rh && 4 * w <= 5 * rw && 4 * h <= 5 * rh)
			return 1; /* crop */
		if (w >= 2 * rw && h >= 2 * rh && 2 * w <= 5 * rw &&
		    2 * h <= 5 * rh)
			return 1; /* halve, then crop */
	}
	return 0;
}

/*
 * A packed 4:2:2 request while flipping: 1 when the device has that format
 * (native_packed); else *packed says whether another packed order of the
 * device serves it (reordered and flipped).
 */
static int packed_request(struct v4lconvert_data *data,
			  const struct v4l2_format *dest_fmt, int *packed)
{
	uint32_t dst = dest_fmt->fmt.pix.pixelformat;
	int i;

	*packed = 0;
	if (dest_fmt->type != V4L2_BUF_TYPE_VIDEO_CAPTURE ||
	    !v4lc_is_packed422(dst) || !v4lconvert_supported_dst_fmt_only(data))
		return 0;
	i = v4lc_native_index(data, dst);
	if (i >= 0 && packed_native(data, i))
		return 1;
	for (i = 0; i < data->n_native; i++)
		*packed |= packed_native(data, i);
	return 0;
}

/*
 * A native packed 4:2:2 format while flipping: the device answers, the
 * format is kept (convert flips it into our own buffers, so tightly packed
 * whatever bytesperline the application left in the struct: mplayer reuses
 * one for several formats and ignores the answer); the driver picks its
 * own stride for the source.
 */
static int native_packed(struct v4lconvert_data *data,
			 struct v4l2_format *dest_fmt,
			 struct v4l2_format *src_fmt)
{
	struct v4l2_format dev_fmt = *dest_fmt;
	uint32_t dst = dest_fmt->fmt.pix.pixelformat;
	int ret;

	dev_fmt.fmt.pix.bytesperline = 0;
	dev_fmt.fmt.pix.sizeimage = 0;
	ret = v4lc_dev_ioctl(data, VIDIOC_TRY_FMT, &dev_fmt);
	if (ret)
		return ret;
	if (src_fmt)
		*src_fmt = dev_fmt;
	*dest_fmt = dev_fmt;
	if (dev_fmt.fmt.pix.pixelformat == dst)
		v4lc_fixup_packed(&dest_fmt->fmt.pix);
	return 0;
}

/* The best native format for a request. */
struct choice {
	struct v4l2_format fmt;
	uint64_t dist; /* from the requested size */
	int rank, index;
};

/*
 * The native format (of the packed ones only, if `packed`) whose size is
 * closest to the request, the cheaper one between equals: 0, or -1 when
 * none serves.
 */
static int best_native(struct v4lconvert_data *data,
		       const struct v4l2_pix_format *want, uint32_t dst,
		       int packed, struct choice *best)
{
	int found = 0;

	for (int i = 0; i < data->n_native; i++) {
		const struct v4lc_format *src;
		struct v4l2_format f;
		uint64_t dist;
		int r;

		if (!v4lc_fmtset_has(&data->convertible, i) ||
		    (packed && !packed_native(data, i)))
			continue;
		src = v4lc_format_find(data->native[i].pixelformat);
		memset(&f, 0, sizeof(f));
		f.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		f.fmt.pix = *want;
		f.fmt.pix.pixelformat = src->fourcc;
		f.fmt.pix.bytesperline = 0;
		f.fmt.pix.sizeimage = 0;
		/* The colorimetry asked for the destination is not the
		 * source's: uvcvideo answers with the quantization it was
		 * given, and a full-range RGB request then made its YUYV
		 * convert as full range. */
		f.fmt.pix.colorspace = V4L2_COLORSPACE_DEFAULT;
		f.fmt.pix.ycbcr_enc = V4L2_YCBCR_ENC_DEFAULT;
		f.fmt.pix.quantization = V4L2_QUANTIZATION_DEFAULT;
		f.fmt.pix.xfer_func = V4L2_XFER_FUNC_DEFAULT;
		if (native_size(data, i, &f) ||
		    f.fmt.pix.pixelformat != src->fourcc)
			continue;
		dist = size_distance(&f.fmt.pix, want->width, want->height);
		r = rank(data, src, dst, f.fmt.pix.width, f.fmt.pix.height);
		if (!found || dist < best->dist ||
		    (dist == best->dist && r < best->rank)) {
			best->fmt = f;
			best->dist = dist;
			best->rank = r;
			best->index = i;
			found = 1;
		}
	}
	return found ? 0 : -1;
}

/* The request answered from the chosen native format (faked sizes: see
 * fake_size). */
/*
 * The native format chosen as it is: sizes from ENUM_FRAMESIZES carry no
 * layout, and the driver's buffers reach the application unconverted, so
 * the driver's answer is the layout (never less than the format needs).
 */
static void native_layout(struct v4lconvert_data *data,
			  struct v4l2_pix_format *want, struct choice *best)
{
	struct v4l2_format f = best->fmt;
	struct v4l2_pix_format min = *want;

	if (want->bytesperline && want->sizeimage)
		return;
	if (v4lc_dev_ioctl(data, VIDIOC_TRY_FMT, &f) == 0 &&
	    f.fmt.pix.pixelformat == want->pixelformat &&
	    f.fmt.pix.width == want->width &&
	    f.fmt.pix.height == want->height) {
		best->fmt = f;
		*want = f.fmt.pix;
	}
	v4lc_fixup(&min);
	if (want->bytesperline < min.bytesperline)
		want->bytesperline = min.bytesperline;
	if (want->sizeimage < min.sizeimage)
		want->sizeimage = min.sizeimage;
}

static void answer(struct v4lconvert_data *data, struct v4l2_pix_format *want,
		   uint32_t dst, struct choice *best)
{
	struct v4l2_format fake;
	int faked = 0;

	if (best->dist) {
		struct v4l2_format req = best->fmt;

		req.fmt.pix.width = want->width;
		req.fmt.pix.height = want->height;
		faked = fake_size(data, best->index, &req, &fake);
	}
	if (faked) {
		uint32_t w = want->width, h = want->height;

		*want = fake.fmt.pix;
		want->width = w;
		want->height = h;
		want->pixelformat = dst;
		v4lc_fixup(want);
		best->fmt = fake;
		return;
	}
	*want = best->fmt.fmt.pix;
	want->pixelformat = dst;
	if (dst != best->fmt.fmt.pix.pixelformat) {
		/* Emulated sizes are rounded as the original does: applications
		 * (GStreamer among them) rely on width % 8 == 0. */
		if (want->width >= 8)
			want->width &= ~7u;
		if (want->height >= 2)
			want->height &= ~1u;
		v4lc_fixup(want);
	} else if (v4lconvert_supported_dst_fmt_only(data)) {
		/* the native format flipped or processed into our buffers */
		v4lc_fixup(want);
	} else {
		native_layout(data, want, best);
	}
}

/*
 * The colorimetry of a converted format is the device's (the conversion
 * keeps its primaries and transfer function), but an application that
 * asks for a colorspace and transfer function of its own keeps them, as
 * with the original: GStreamer asks for sRGB with RGB formats and refuses
 * a camera that answers otherwise (UVC cameras describe their transfer as
 * BT.709, which for webcam pictures is the same curve in practice).
 */
static void keep_asked_colorimetry(struct v4l2_pix_format *f, uint32_t cs,
				   uint32_t xfer)
{
	if (cs != V4L2_COLORSPACE_DEFAULT)
		f->colorspace = cs;
	if (xfer != V4L2_XFER_FUNC_DEFAULT)
		f->xfer_func = xfer;
}

LIBV4L_PUBLIC int v4lconvert_try_format(struct v4lconvert_data *data,
					struct v4l2_format *dest_fmt,
					struct v4l2_format *src_fmt)
{
	struct v4l2_pix_format *want = &dest_fmt->fmt.pix;
	uint32_t dst = want->pixelformat;
	struct choice best = { .dist = UINT64_MAX };
	uint32_t asked_cs = want->colorspace, asked_xfer = want->xfer_func;
	int packed;

	if (packed_request(data, dest_fmt, &packed))
		return native_packed(data, dest_fmt, src_fmt);
	if (dest_fmt->type != V4L2_BUF_TYPE_VIDEO_CAPTURE ||
	    (!v4lconvert_supported_dst_format(dst) &&
	     !v4lconvert_supported_dst_fmt_only(data)) ||
	    !v4lc_fmtset_meets(&data->convertible, NULL)) {
		/* Native format: the device answers. */
		int ret = v4lc_dev_ioctl(data, VIDIOC_TRY_FMT, dest_fmt);

		if (src_fmt)
			*src_fmt = *dest_fmt;
		return ret;
	}
	if (!v4lconvert_supported_dst_format(dst) && !packed)
		dst = V4L2_PIX_FMT_RGB24;
	if (best_native(data, want, dst, packed, &best)) {
		errno = EINVAL;
		return -1;
	}
	if (packed) {
		/* Same size and layout as the packed source, another order;
		 * the device's padding is not kept. */
		*want = best.fmt.fmt.pix;
		want->pixelformat = dst;
		v4lc_fixup_packed(want);
	} else {
		answer(data, want, dst, &best);
	}
	if (dst != best.fmt.fmt.pix.pixelformat)
		keep_asked_colorimetry(want, asked_cs, asked_xfer);
	if (src_fmt)
		*src_fmt = best.fmt;
	return 0;
}

LIBV4L_PUBLIC int
v4lconvert_needs_conversion(struct v4lconvert_data *data,
			    const struct v4l2_format *src_fmt,
			    const struct v4l2_format *dest_fmt)
{
	const struct v4l2_pix_format *s = &src_fmt->fmt.pix,
				     *d = &dest_fmt->fmt.pix;

	if (src_fmt->type != V4L2_BUF_TYPE_VIDEO_CAPTURE)
		return 0;
	return s->pixelformat != d->pixelformat || s->width != d->width ||
	       s->height != d->height ||
	       ((flips_active(data) || v4lc_proc_possible(data)) &&
		(v4lconvert_supported_dst_format(d->pixelformat) ||
		 (v4lc_is_packed422(s->pixelformat) &&
		  v4lc_is_packed422(d->pixelformat))));
}

/*
 * The k-th size an emulated format may list: the native sizes rounded as
 * try_format rounds them (0 .. n_sizes - 1), then 1/2, 1/4 and 1/8 of each
 * native size a JPEG format gives (see jpeg_scaled_size), when that
 * fraction needs no rounding. 0 when the k-th is none.
 */
static int size_candidate(struct v4lconvert_data *data, int k, uint32_t *pw,
			  uint32_t *ph)
{
	const struct v4lc_framesize *s;
	uint32_t w, h, n;
	int jpeg = 0;

	if (k < data->n_sizes) {
		s = &data->sizes[k];
		if (!v4lc_fmtset_meets(&s->formats, &data->convertible))
			return 0;
		w = s->width;
		h = s->height;
		*pw = w >= 8 ? w & ~7u : w;
		*ph = h >= 2 ? h & ~1u : h;
		return 1;
	}
	k -= data->n_sizes;
	s = &data->sizes[k / 3];
	n = 2u << (k % 3);
	for (int i = 0; i < data->n_native && !jpeg; i++) {
		const struct v4lc_format *f =
			v4lc_format_find(data->native[i].pixelformat);

		jpeg = f && f->layout == V4LC_L_JPEG &&
		       v4lc_fmtset_has(&s->formats, i) &&
		       v4lc_fmtset_has(&data->convertible, i);
	}
	w = (s->width + n - 1) / n;
	h = (s->height + n - 1) / n;
	if (!jpeg || w < 8 || w % 8 || h % 2)
		return 0;
	*pw = w;
	*ph = h;
	return 1;
}

/* try_format gives a scaled candidate as it is (another format may be
 * chosen for it). */
static int size_served(struct v4lconvert_data *data, uint32_t fourcc,
		       uint32_t w, uint32_t h)
{
	struct v4l2_format dst, src;

	memset(&dst, 0, sizeof(dst));
	dst.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	dst.fmt.pix.pixelformat = fourcc;
	dst.fmt.pix.width = w;
	dst.fmt.pix.height = h;
	return !v4lconvert_try_format(data, &dst, &src) &&
	       dst.fmt.pix.width == w && dst.fmt.pix.height == h;
}

/*
 * Sizes of an emulated format: the rounded union of the native ones, then
 * the fractions a JPEG source decodes to directly.
 */
LIBV4L_PUBLIC int v4lconvert_enum_framesizes(struct v4lconvert_data *data,
					     struct v4l2_frmsizeenum *frmsize)
{
	uint32_t fourcc = frmsize->pixel_format;
	uint32_t seen = 0;

	if (!v4lconvert_supported_dst_format(fourcc) ||
	    v4lc_native_index(data, fourcc) >= 0 ||
	    !v4lc_fmtset_meets(&data->convertible, NULL))
		return v4lc_dev_ioctl(data, VIDIOC_ENUM_FRAMESIZES, frmsize);

	if (!data->n_sizes) {
		/* Continuous/stepwise devices: the first convertible format's. */
		for (int i = 0; i < data->n_native; i++) {
			if (v4lc_fmtset_has(&data->convertible, i)) {
				int ret;

				frmsize->pixel_format =
					data->native[i].pixelformat;
				ret = v4lc_dev_ioctl(data,
						     VIDIOC_ENUM_FRAMESIZES,
						     frmsize);
				frmsize->pixel_format = fourcc;
				return ret;
			}
		}
	}
	for (int i = 0; i < 4 * data->n_sizes; i++) {
		uint32_t w, h, pw, ph;
		int dup = 0;

		if (!size_candidate(data, i, &w, &h))
			continue;
		for (int j = 0; j < i && !dup; j++)
			dup = size_candidate(data, j, &pw, &ph) && pw == w &&
			      ph == h;
		if (dup ||
		    (i >= data->n_sizes && !size_served(data, fourcc, w, h)))
			continue;
		if (seen++ == frmsize->index) {
			frmsize->type = V4L2_FRMSIZE_TYPE_DISCRETE;
			frmsize->discrete.width = w;
			frmsize->discrete.height = h;
			memset(frmsize->reserved, 0, sizeof(frmsize->reserved));
			return 0;
		}
	}
	errno = EINVAL;
	return -1;
}

LIBV4L_PUBLIC int
v4lconvert_enum_frameintervals(struct v4lconvert_data *data,
			       struct v4l2_frmivalenum *frmival)
{
	uint32_t fourcc = frmival->pixel_format;
	struct v4l2_format dst, src;
	int ret;

	if (!v4lconvert_supported_dst_format(fourcc) ||
	    v4lc_native_index(data, fourcc) >= 0 ||
	    !v4lc_fmtset_meets(&data->convertible, NULL))
		return v4lc_dev_ioctl(data, VIDIOC_ENUM_FRAMEINTERVALS,
				      frmival);

	memset(&dst, 0, sizeof(dst));
	dst.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	dst.fmt.pix.pixelformat = fourcc;
	dst.fmt.pix.width = frmival->width;
	dst.fmt.pix.height = frmival->height;
	if (v4lconvert_try_format(data, &dst, &src))
		return -1;
	if (dst.fmt.pix.width != frmival->width ||
	    dst.fmt.pix.height != frmival->height) {
		errno = EINVAL;
		return -1;
	}
	frmival->pixel_format = src.fmt.pix.pixelformat;
	frmival->width = src.fmt.pix.width;
	frmival->height = src.fmt.pix.height;
	ret = v4lc_dev_ioctl(data, VIDIOC_ENUM_FRAMEINTERVALS, frmival);
	frmival->pixel_format = fourcc;
	frmival->width = dst.fmt.pix.width;
	frmival->height = dst.fmt.pix.height;
	return ret;
}
