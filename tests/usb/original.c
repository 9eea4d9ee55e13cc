/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* usbcheck --original (original.h). */
#include "original.h"

#include <linux/videodev2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/origlib.h"
#include "libv4lconvert.h"

/* The chips' YUV 4:2:0 layouts. */
static int yuv_layout(uint32_t f)
{
	static const char *const names[] = { "S501", "S505", "S508", "CITV",
					     "KONI", "S920", "CPIA" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (f == v4l2_fourcc(names[i][0], names[i][1], names[i][2],
				     names[i][3]))
			return 1;
	return 0;
}

struct usbcheck_original {
	struct origlib lib;
	int w, h;
	struct v4lconvert_data *theirs, *ours;
	struct v4l2_format src, dst;
	uint8_t *scratch;
};

struct usbcheck_original *usbcheck_original_open(uint32_t fourcc, int w, int h,
						 uint32_t bpl,
						 uint32_t sizeimage)
{
	struct usbcheck_original *u = calloc(1, sizeof(*u));
	size_t rgb = (size_t)w * (size_t)h * 3;

	if (!u)
		return NULL;
	u->w = w;
	u->h = h;
	u->theirs = origlib_open_plain(&u->lib, ORIGLIB_LINKED_WITH_OURS);
	u->ours = v4lconvert_create(-1);
	u->scratch = malloc(rgb);
	if (!u->theirs || !u->ours || !u->scratch) {
		usbcheck_original_close(u);
		return NULL;
	}
	u->src.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	u->src.fmt.pix.width = (uint32_t)w;
	u->src.fmt.pix.height = (uint32_t)h;
	u->src.fmt.pix.pixelformat = fourcc;
	u->src.fmt.pix.field = V4L2_FIELD_NONE;
	u->src.fmt.pix.bytesperline = bpl;
	u->src.fmt.pix.sizeimage = sizeimage;
	u->dst = u->src;
	if (yuv_layout(fourcc)) {
		u->dst.fmt.pix.pixelformat = V4L2_PIX_FMT_YUV420;
		u->dst.fmt.pix.bytesperline = (uint32_t)w;
		u->dst.fmt.pix.sizeimage = (uint32_t)(rgb / 2);
	} else {
		u->dst.fmt.pix.pixelformat = V4L2_PIX_FMT_RGB24;
		u->dst.fmt.pix.bytesperline = (uint32_t)w * 3;
		u->dst.fmt.pix.sizeimage = (uint32_t)rgb;
	}
	return u;
}

uint32_t usbcheck_original_dst(const struct usbcheck_original *u)
{
	return u->dst.fmt.pix.pixelformat;
}

/* RGB24 rows and columns [2, size - 2) the same. */
static int interior_same(const uint8_t *a, const uint8_t *b, int w, int h)
{
	for (int y = 2; y < h - 2; y++)
		if (memcmp(a + ((size_t)y * w + 2) * 3,
			   b + ((size_t)y * w + 2) * 3, (size_t)(w - 4) * 3))
			return 0;
	return 1;
}

int usbcheck_original_convert(struct usbcheck_original *u, const uint8_t *raw,
			      size_t n, uint8_t *ours, int *same, double *mad)
{
	size_t rgb = u->dst.fmt.pix.sizeimage; /* RGB24 or YU12 */
	uint8_t *copy = malloc(n ? n : 1);
	uint64_t sum = 0;
	int r;

	*same = 0;
	*mad = -1;
	if (!copy)
		return -1;
	/* the converters take a writable source */
	memcpy(copy, raw, n);
	r = v4lconvert_convert(u->ours, &u->src, &u->dst, copy, (int)n, ours,
			       (int)rgb);
	if (r != (int)rgb) {
		free(copy);
		return -1;
	}
	memcpy(copy, raw, n);
	r = u->lib.convert(u->theirs, &u->src, &u->dst, copy, (int)n,
			   u->scratch, (int)rgb);
	free(copy);
	if (r != (int)rgb)
		return 0;
	for (size_t i = 0; i < rgb; i++)
		sum += (uint64_t)abs((int)ours[i] - (int)u->scratch[i]);
	*mad = (double)sum / (double)rgb;
	*same = u->dst.fmt.pix.pixelformat == V4L2_PIX_FMT_RGB24
			? interior_same(ours, u->scratch, u->w, u->h)
			: !memcmp(ours, u->scratch, rgb);
	return 0;
}

void usbcheck_original_close(struct usbcheck_original *u)
{
	if (!u)
		return;
	if (u->ours)
		v4lconvert_destroy(u->ours);
	if (u->theirs)
		u->lib.destroy(u->theirs);
	if (u->lib.handle)
		origlib_close(&u->lib);
	free(u->scratch);
	free(u);
}
