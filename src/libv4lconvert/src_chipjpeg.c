/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * JPEG-family chip formats: Pixart PJPG (pac7302/pac7311), JL2005B/C/D
 * (decoded to RGGB Bayer, then demosaiced like SRGGB8), SE401 (decoded to
 * RGB24, then converted like RGB24), JPEG-Lite (nw80x).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "jpeg/jl2005.h"
#include "jpeg/jpgl.h"
#include "jpeg/pixart.h"
#include "jpeg/se401.h"
#include "priv.h"
#include "quirks.h"

/*
 * PJPG. Decoded straight into dst when its layout is minimal; otherwise
 * (padded rows, or a pac7302 whose JPEG is rotated: ROT90_JPEG, the header
 * then gives height x width) into row scratch first.
 */
int v4lc_conv_pjpg(struct v4lconvert_data *data, const struct v4lc_format *f,
		   const struct v4lc_frame *src, struct v4lc_frame *dst)
{
	int rot = !!(data->quirks & V4LC_QUIRK_ROT90_JPEG);
	int w = rot ? dst->height : dst->width;
	int h = rot ? dst->width : dst->height;
	size_t need = v4lc_frame_bytes(dst->fourcc, w, h, 0);
	int direct =
		!rot && (!dst->stride ||
			 dst->stride == v4lc_frame_min_stride(dst->fourcc, w));
	struct v4lc_frame tmp = { dst->fourcc, w, h, 0, NULL, need };
	char err[160];
	int ret, r2;

	(void)f;
	if (!need) {
		v4lc_error(data, EINVAL, "bad PJPG geometry");
		return -EINVAL;
	}
	tmp.data = direct ? dst->data : v4lc_rows_scratch(data, need);
	if (!data->pjpg)
		data->pjpg = v4lc_pjpg_new();
	if (!tmp.data || !data->pjpg) {
		v4lc_error(data, ENOMEM, "out of memory");
		return -ENOMEM;
	}
	ret = v4lc_pjpg_decode(data->pjpg, src->data, src->size, dst->fourcc,
			       tmp.data, direct ? dst->size : need, w, h, err,
			       sizeof(err));
	if (ret < 0 && ret != -EPIPE) {
		v4lc_error(data, -ret, "decompressing Pixart JPEG: %s", err);
		return ret;
	}
	if (!direct) {
		r2 = rot ? v4lc_frame_transform(data->dsp, &tmp, dst,
						V4LC_XFORM_ROT90CW)
			 : v4lc_frame_convert(data->dsp, &tmp, dst,
					      &data->colorimetry);
		if (r2 < 0) {
			v4lc_error(data, -r2, "placing the PJPG frame");
			return r2;
		}
	}
	if (ret < 0)
		v4lc_error(data, -ret, "decompressing Pixart JPEG: %s", err);
	return ret;
}

/*
 * JL2005B/C/D: the strips are decoded into an RGGB mosaic (in
 * v4lc_decoded_scratch: the Bayer converter uses the row scratch), which
 * then goes through the SRGGB8 source converter.
 */
int v4lc_conv_jl2005(struct v4lconvert_data *data, const struct v4lc_format *f,
		     const struct v4lc_frame *src, struct v4lc_frame *dst)
{
	struct v4lc_frame mosaic = {
		V4L2_PIX_FMT_SRGGB8, src->width, src->height,
		src->width,          NULL,       0
	};
	char err[160];
	int ret;

	(void)f;
	if (src->width <= 0 || src->height <= 0) {
		v4lc_error(data, EINVAL, "bad JL2005 geometry");
		return -EINVAL;
	}
	mosaic.size = (size_t)src->width * src->height;
	mosaic.data = v4lc_decoded_scratch(data, mosaic.size);
	if (!mosaic.data) {
		v4lc_error(data, ENOMEM, "out of memory");
		return -ENOMEM;
	}
	ret = v4lc_jl2005_decode(src->data, src->size, mosaic.data, src->width,
				 src->height, err, sizeof(err));
	if (ret < 0)
		v4lc_error(data, -ret, "decompressing JL2005 frame: %s", err);
	else
		ret = v4lc_conv_bayer(data, v4lc_format_find(mosaic.fourcc),
				      &mosaic, dst);
	return ret;
}

/*
 * SE401: decoded to RGB24, straight into dst when that is a minimal RGB24
 * frame, else into row scratch and then converted like an RGB24 source.
 */
int v4lc_conv_se401(struct v4lconvert_data *data, const struct v4lc_format *f,
		    const struct v4lc_frame *src, struct v4lc_frame *dst)
{
	int direct = dst->fourcc == V4L2_PIX_FMT_RGB24 &&
		     (!dst->stride || dst->stride == 3 * dst->width);
	struct v4lc_frame rgb = {
		V4L2_PIX_FMT_RGB24, src->width, src->height, 0, NULL, 0
	};
	char err[160];
	int ret;

	(void)f;
	rgb.size = v4lc_frame_bytes(V4L2_PIX_FMT_RGB24, src->width, src->height,
				    0);
	if (!rgb.size) {
		v4lc_error(data, EINVAL, "bad SE401 geometry");
		return -EINVAL;
	}
	if (direct && dst->size < rgb.size) {
		v4lc_error(data, EFAULT, "destination too small");
		return -EFAULT;
	}
	rgb.data = direct ? dst->data : v4lc_rows_scratch(data, rgb.size);
	if (!rgb.data) {
		v4lc_error(data, ENOMEM, "out of memory");
		return -ENOMEM;
	}
	ret = v4lc_se401_decode(src->data, src->size, rgb.data, src->width,
				src->height, err, sizeof(err));
	if (ret < 0) {
		v4lc_error(data, -ret, "decompressing SE401 frame: %s", err);
		return ret;
	}
	if (direct)
		return 0;
	ret = v4lc_frame_convert(data->dsp, &rgb, dst, &data->colorimetry);
	if (ret < 0)
		v4lc_error(data, -ret, "converting the SE401 frame");
	return ret;
}

/*
 * JPEG-Lite: decoded straight into dst (any of the four destinations)
 * when its layout is minimal, else into row scratch and then placed. A
 * short frame is decoded whole (missing bits read as zero) and reported
 * as -EPIPE.
 */
int v4lc_conv_jpgl(struct v4lconvert_data *data, const struct v4lc_format *f,
		   const struct v4lc_frame *src, struct v4lc_frame *dst)
{
	size_t need = v4lc_frame_bytes(dst->fourcc, dst->width, dst->height, 0);
	int direct =
		!dst->stride ||
		dst->stride == v4lc_frame_min_stride(dst->fourcc, dst->width);
	struct v4lc_frame tmp = { dst->fourcc, dst->width, dst->height,
				  0,           NULL,       need };
	uint8_t *work;
	size_t wsize;
	char err[160];
	int ret, r2;

	(void)f;
	if (!need) {
		v4lc_error(data, EINVAL, "bad JPGL geometry");
		return -EINVAL;
	}
	tmp.data = direct ? dst->data : v4lc_rows_scratch(data, need);
	if (!tmp.data) {
		v4lc_error(data, ENOMEM, "out of memory");
		return -ENOMEM;
	}
	/* lines past 4 * (height / 4) are not decoded: zero, not stale */
	if (!direct && dst->height % 4)
		memset(tmp.data, 0, need);
	/* the decoder's block row in the decoded-frame scratch (free here);
	 * a width it refuses needs none */
	wsize = v4lc_jpgl_work_size(dst->width);
	work = wsize ? v4lc_decoded_scratch(data, wsize) : NULL;
	if (wsize && !work) {
		v4lc_error(data, ENOMEM, "out of memory");
		return -ENOMEM;
	}
	ret = v4lc_jpgl_decode(src->data, src->size, dst->fourcc, tmp.data,
			       direct ? dst->size : need, dst->width,
			       dst->height, work, err, sizeof(err));
	if (ret < 0 && ret != -EPIPE) {
		v4lc_error(data, -ret, "decompressing JPEG-Lite: %s", err);
		return ret;
	}
	if (!direct) {
		r2 = v4lc_frame_convert(data->dsp, &tmp, dst,
					&data->colorimetry);
		if (r2 < 0) {
			v4lc_error(data, -r2, "placing the JPGL frame");
			return r2;
		}
	}
	if (ret < 0)
		v4lc_error(data, -ret, "decompressing JPEG-Lite: %s", err);
	return ret;
}
