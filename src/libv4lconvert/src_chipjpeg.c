/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * JPEG-family chip formats: Pixart PJPG (pac7302/pac7311).
 * (JL2005B/C/D, SE401 and JPEG-Lite are not decoded yet.)
 */
#include <errno.h>

#include "jpeg/pixart.h"
#include "priv.h"
#include "quirks.h"

#ifndef V4L2_PIX_FMT_PJPG
#define V4L2_PIX_FMT_PJPG v4l2_fourcc('P', 'J', 'P', 'G')
#endif

/*
 * PJPG. Decoded straight into dst when its layout is minimal; otherwise
 * (padded rows, or a pac7302 whose JPEG is rotated: ROT90_JPEG, the header
 * then gives height x width) into row scratch first.
 */
static int convert_pjpg(struct v4lconvert_data *data,
			const struct v4lc_frame *src, struct v4lc_frame *dst)
{
	int rot = !!(data->quirks & V4LC_QUIRK_ROT90_JPEG);
	int w = rot ? dst->height : dst->width;
	int h = rot ? dst->width : dst->height;
	size_t need = v4lc_frame_bytes(dst->fourcc, w, h, 0);
	int direct = !rot && (!dst->stride ||
			      dst->stride == v4lc_frame_min_stride(dst->fourcc,
								   w));
	struct v4lc_frame tmp = { dst->fourcc, w, h, 0, NULL, need };
	struct v4lc_pjpg *p;
	char err[160];
	int ret, r2;

	if (!need) {
		v4lc_error(data, EINVAL, "bad PJPG geometry");
		return -EINVAL;
	}
	tmp.data = direct ? dst->data : v4lc_rows_scratch(data, need);
	if (!tmp.data || !(p = v4lc_pjpg_new())) {
		v4lc_error(data, ENOMEM, "out of memory");
		return -ENOMEM;
	}
	ret = v4lc_pjpg_decode(p, src->data, src->size, dst->fourcc, tmp.data,
			       direct ? dst->size : need, w, h, err,
			       sizeof(err));
	v4lc_pjpg_free(p);
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

/* Ranks: decoders, like JPEG (7). */
const struct v4lc_source v4lc_sources_chipjpeg[] = {
	{ V4L2_PIX_FMT_PJPG, 7, 7, 1, convert_pjpg },
	{ 0, 0, 0, 0, NULL },
};
