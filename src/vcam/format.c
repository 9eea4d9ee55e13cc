/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The virtual camera's format negotiation (see vcam.h): ENUM_FMT,
 * ENUM_FRAMESIZES, ENUM_FRAMEINTERVALS, G/TRY/S_FMT, G/S_PARM.
 */
#include "vcam/vcam.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "vcam/priv.h"

/* 30 and 15 fps, for every size. */
const struct v4l2_fract v4lc_vcam_intervals[2] = { { 1, 30 }, { 1, 15 } };

static int is_capture(uint32_t type)
{
	return type == V4L2_BUF_TYPE_VIDEO_CAPTURE;
}

int v4lc_vcam_format_index(const struct vcam *c, uint32_t fourcc)
{
	for (int i = 0; i < c->nformats; i++)
		if (c->formats[i]->fourcc == fourcc)
			return i;
	return -1;
}

/*
 * The squared distance between two sizes, exactly: each difference is
 * below 2^32, so each square fits in 64 bits but their sum needs 65: it is
 * kept as (carry, low 64 bits), compared in that order.
 */
struct dist2 {
	unsigned hi;
	uint64_t lo;
};

static struct dist2 size_dist2(uint32_t w0, uint32_t h0, uint32_t w1,
			       uint32_t h1)
{
	uint64_t dw = w0 > w1 ? w0 - w1 : w1 - w0;
	uint64_t dh = h0 > h1 ? h0 - h1 : h1 - h0;
	struct dist2 d;

	d.lo = dw * dw + dh * dh;
	d.hi = d.lo < dw * dw;
	return d;
}

static int dist2_less(struct dist2 a, struct dist2 b)
{
	return a.hi != b.hi ? a.hi < b.hi : a.lo < b.lo;
}

/* Index of the offered size of format fi nearest to w x h (the first of
 * equally near ones). */
static int nearest_size(const struct vcam *c, int fi, uint32_t w, uint32_t h)
{
	struct dist2 best = { 0, 0 };
	int bi = 0;

	for (int i = 0; i < c->nsizes[fi]; i++) {
		struct dist2 d = size_dist2((uint32_t)c->sizes[fi][i][0],
					    (uint32_t)c->sizes[fi][i][1], w, h);

		if (i == 0 || dist2_less(d, best)) {
			best = d;
			bi = i;
		}
	}
	return bi;
}

void v4lc_vcam_fix_format(const struct vcam *c, struct v4l2_pix_format *pix)
{
	int bi, fi = v4lc_vcam_format_index(c, pix->pixelformat);

	if (fi < 0) {
		fi = 0;
		pix->pixelformat = c->formats[0]->fourcc;
	}
	bi = nearest_size(c, fi, pix->width, pix->height);
	pix->width = (uint32_t)c->sizes[fi][bi][0];
	pix->height = (uint32_t)c->sizes[fi][bi][1];
	pix->field = V4L2_FIELD_NONE;
	pix->bytesperline =
		v4lc_vcam_bytesperline(pix->pixelformat, (int)pix->width);
	pix->sizeimage = v4lc_vcam_sizeimage(pix->pixelformat, (int)pix->width,
					     (int)pix->height);
	pix->colorspace = v4lc_vcam_colorspace(pix->pixelformat);
	pix->priv = 0;
	pix->flags = 0;
	pix->ycbcr_enc = 0;
	pix->quantization = 0;
	pix->xfer_func = 0;
}

int v4lc_vcam_enum_fmt(struct vcam *c, unsigned long req, void *arg)
{
	struct v4l2_fmtdesc *f = arg;
	const struct v4lc_format *d;

	(void)req;
	if (!is_capture(f->type) || f->index >= (uint32_t)c->nformats)
		return v4lc_vcam_fail(EINVAL);
	/* The kernel's description and flag, from the format table. */
	d = v4lc_format_row(c->formats[f->index]->fourcc);
	f->flags = v4lc_format_compressed(d) ? V4L2_FMT_FLAG_COMPRESSED : 0;
	f->pixelformat = d->fourcc;
	f->mbus_code = 0;
	memset(f->reserved, 0, sizeof(f->reserved));
	memset(f->description, 0, sizeof(f->description));
	snprintf((char *)f->description, sizeof(f->description), "%s", d->desc);
	return 0;
}

int v4lc_vcam_enum_framesizes(struct vcam *c, unsigned long req, void *arg)
{
	struct v4l2_frmsizeenum *s = arg;
	int fi = v4lc_vcam_format_index(c, s->pixel_format);

	(void)req;
	if (fi < 0 || s->index >= (uint32_t)c->nsizes[fi])
		return v4lc_vcam_fail(EINVAL);
	s->type = V4L2_FRMSIZE_TYPE_DISCRETE;
	s->discrete.width = (uint32_t)c->sizes[fi][s->index][0];
	s->discrete.height = (uint32_t)c->sizes[fi][s->index][1];
	memset(s->reserved, 0, sizeof(s->reserved));
	return 0;
}

int v4lc_vcam_enum_frameintervals(struct vcam *c, unsigned long req, void *arg)
{
	struct v4l2_frmivalenum *e = arg;
	int ok = 0, fi = v4lc_vcam_format_index(c, e->pixel_format);

	(void)req;
	for (int i = 0; fi >= 0 && i < c->nsizes[fi]; i++)
		if ((uint32_t)c->sizes[fi][i][0] == e->width &&
		    (uint32_t)c->sizes[fi][i][1] == e->height)
			ok = 1;
	if (!ok || e->index >= sizeof(v4lc_vcam_intervals) /
				       sizeof(v4lc_vcam_intervals[0]))
		return v4lc_vcam_fail(EINVAL);
	e->type = V4L2_FRMIVAL_TYPE_DISCRETE;
	e->discrete = v4lc_vcam_intervals[e->index];
	memset(e->reserved, 0, sizeof(e->reserved));
	return 0;
}

int v4lc_vcam_g_fmt(struct vcam *c, unsigned long req, void *arg)
{
	struct v4l2_format *f = arg;

	(void)req;
	if (!is_capture(f->type))
		return v4lc_vcam_fail(EINVAL);
	memset(&f->fmt, 0, sizeof(f->fmt));
	f->fmt.pix = c->fmt;
	return 0;
}

int v4lc_vcam_try_s_fmt(struct vcam *c, unsigned long req, void *arg)
{
	struct v4l2_format *f = arg;
	struct v4l2_pix_format pix;

	if (!is_capture(f->type))
		return v4lc_vcam_fail(EINVAL);
	pix = f->fmt.pix;
	v4lc_vcam_fix_format(c, &pix);
	if (req == VIDIOC_S_FMT) {
		if (c->nbufs &&
		    (pix.pixelformat != c->fmt.pixelformat ||
		     pix.width != c->fmt.width || pix.height != c->fmt.height))
			return v4lc_vcam_fail(EBUSY);
		c->fmt = pix;
	}
	memset(&f->fmt, 0, sizeof(f->fmt));
	f->fmt.pix = pix;
	return 0;
}

int v4lc_vcam_g_s_parm(struct vcam *c, unsigned long req, void *arg)
{
	struct v4l2_streamparm *p = arg;
	struct v4l2_captureparm *cp = &p->parm.capture;

	if (!is_capture(p->type))
		return v4lc_vcam_fail(EINVAL);
	if (req == VIDIOC_S_PARM) {
		const struct v4l2_fract *t = &cp->timeperframe;

		/* Nearest offered rate; 0/0 means the default. */
		if (!t->numerator || !t->denominator)
			c->interval = v4lc_vcam_intervals[0];
		else if ((double)t->denominator / t->numerator > 22.5)
			c->interval = v4lc_vcam_intervals[0];
		else
			c->interval = v4lc_vcam_intervals[1];
	}
	memset(&p->parm, 0, sizeof(p->parm));
	cp->capability = V4L2_CAP_TIMEPERFRAME;
	cp->timeperframe = c->interval;
	cp->readbuffers = 0;
	return 0;
}
