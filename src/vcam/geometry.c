/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The virtual camera's frame geometry (see vcam.h): bytesperline and
 * sizeimage per format (the format table's size rule; a variable-size
 * format's largest frame from its encoder), the sizes the chip formats are
 * offered in, the sizes the renderer takes, the colorspace reported (the
 * camera's rows, formats.c).
 */
#include "vcam/vcam.h"

#include <linux/videodev2.h>
#include <turbojpeg.h>

#include "vcam/chipenc.h"
#include "vcam/formats.h"
#include "vcam/priv.h"

/* The table's row of a format the camera sends, else NULL. */
static const struct v4lc_format *sent(uint32_t fourcc)
{
	return v4lc_vcam_format(fourcc) ? v4lc_format_row(fourcc) : NULL;
}

uint32_t v4lc_vcam_bytesperline(uint32_t fourcc, int w)
{
	const struct v4lc_format *f = sent(fourcc);

	return f ? (uint32_t)v4lc_format_line(f, w) : 0;
}

uint32_t v4lc_vcam_sizeimage(uint32_t fourcc, int w, int h)
{
	const struct v4lc_chipenc *e = v4lc_chipenc_find(fourcc);
	const struct v4lc_format *f = sent(fourcc);

	if (!f)
		return 0;
	/* A chip format: its encoder's largest frame (CPIA: a frame without
	 * skips, the largest the camera sends; the fixed layouts: theirs). */
	if (e)
		return (uint32_t)v4lc_chipenc_bound(e, w, h);
	/* MJPEG, JPEG: libjpeg-turbo's worst case for 4:2:2. */
	if (v4lc_format_compressed(f))
		return (uint32_t)tjBufSize(w, h, TJSAMP_422);
	return (uint32_t)v4lc_format_frame(f, w, h);
}

int v4lc_vcam_chip_sizes(uint32_t fourcc, const int (**sizes)[2])
{
	const struct vcam_format *v = v4lc_vcam_format(fourcc);

	if (!v || !v->nsizes)
		return 0;
	*sizes = v->sizes;
	return v->nsizes;
}

int v4lc_vcam_size_ok(uint32_t fourcc, int w, int h)
{
	const struct v4lc_chipenc *e = v4lc_chipenc_find(fourcc);

	if (w < 2 || h < 2 || w > 8192 || h > 8192 || (w & 1) || (h & 1))
		return 0;
	return !e || v4lc_chipenc_size_ok(e, w, h);
}

uint32_t v4lc_vcam_colorspace(uint32_t fourcc)
{
	const struct vcam_format *v = v4lc_vcam_format(fourcc);

	return v ? v->colorspace : V4L2_COLORSPACE_DEFAULT;
}
