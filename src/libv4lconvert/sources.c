/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The source formats and what each costs. The formats of the frame layer
 * and JPEG are listed here; each further group of formats lives in its own
 * src_<group>.c, exporting a table v4lc_sources_<group>[] ended by a zero
 * fourcc (src/libv4lconvert/meson.build builds the files that exist).
 */
#include <errno.h>

#include "jpeg/mjpeg.h"
#include "priv.h"

/* Raw formats the frame layer converts directly. */
static int convert_raw(struct v4lconvert_data *data, const struct v4lc_frame *src,
		       struct v4lc_frame *dst)
{
	size_t need = v4lc_frame_bytes(src->fourcc, src->width, src->height,
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

static int convert_jpeg(struct v4lconvert_data *data,
			const struct v4lc_frame *src, struct v4lc_frame *dst)
{
	char err[160];
	int ret;

	if (!data->jpeg && !(data->jpeg = v4lc_jpeg_new()))
		return -ENOMEM;
	ret = v4lc_jpeg_decode(data->jpeg, src->data, src->size, dst->fourcc,
			       dst->data, dst->size, dst->width, dst->height,
			       err, sizeof(err));
	if (ret < 0)
		v4lc_error(data, -ret, "decompressing JPEG: %s", err);
	return ret;
}

/*
 * rank_rgb / rank_yuv: relative cost of reaching an RGB or a YUV 4:2:0
 * destination. Cheap repacks first, then colour conversions, then decoders;
 * grey last so that it is never chosen over a colour format.
 */
static const struct v4lc_source sources[] = {
	{ V4L2_PIX_FMT_RGB24, 1, 3, 0, convert_raw },
	{ V4L2_PIX_FMT_BGR24, 1, 3, 0, convert_raw },
	{ V4L2_PIX_FMT_YUV420, 3, 1, 0, convert_raw },
	{ V4L2_PIX_FMT_YVU420, 3, 1, 0, convert_raw },
	{ V4L2_PIX_FMT_NV12, 3, 2, 0, convert_raw },
	{ V4L2_PIX_FMT_NV21, 3, 2, 0, convert_raw },
	{ V4L2_PIX_FMT_YUYV, 3, 2, 0, convert_raw },
	{ V4L2_PIX_FMT_YVYU, 3, 2, 0, convert_raw },
	{ V4L2_PIX_FMT_UYVY, 3, 2, 0, convert_raw },
	{ V4L2_PIX_FMT_VYUY, 3, 2, 0, convert_raw },
	{ V4L2_PIX_FMT_MJPEG, 7, 7, 0, convert_jpeg },
	{ V4L2_PIX_FMT_JPEG, 7, 7, 0, convert_jpeg },
};

/* Weak: a group whose file is not built is simply absent. */
#define V4LC_SOURCE_GROUPS(X) X(bayer) X(rgb) X(grey) X(yuv) X(hsv) X(chipyuv) \
	X(chipbayer) X(chipjpeg) X(chipov)
#define DECLARE_GROUP(g)                                                     \
	extern const struct v4lc_source v4lc_sources_##g[] __attribute__((weak));
V4LC_SOURCE_GROUPS(DECLARE_GROUP)
#undef DECLARE_GROUP

const struct v4lc_source *v4lc_source_find(uint32_t fourcc)
{
#define GROUP(g) v4lc_sources_##g,
	static const struct v4lc_source *const groups[] = {
		V4LC_SOURCE_GROUPS(GROUP)
	};
#undef GROUP

	for (size_t i = 0; i < sizeof(sources) / sizeof(sources[0]); i++)
		if (sources[i].fourcc == fourcc)
			return &sources[i];
	for (size_t g = 0; g < sizeof(groups) / sizeof(groups[0]); g++)
		for (const struct v4lc_source *s = groups[g]; s && s->fourcc; s++)
			if (s->fourcc == fourcc)
				return s;
	return NULL;
}
