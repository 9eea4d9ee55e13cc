/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "fakedev.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/videodev2.h>

static int find(const struct fakedev *d, uint32_t fourcc)
{
	for (int i = 0; i < d->n_formats; i++)
		if (d->formats[i].fourcc == fourcc)
			return i;
	return -1;
}

/* Nearest discrete size of a format (squared distance), as drivers do. */
static void nearest(const struct fakedev *d, int f, uint32_t *w, uint32_t *h)
{
	uint64_t best = UINT64_MAX;
	uint32_t bw = *w, bh = *h;

	for (int i = 0; i < d->formats[f].n_sizes; i++) {
		int64_t dw = (int64_t)d->formats[f].sizes[i][0] - *w;
		int64_t dh = (int64_t)d->formats[f].sizes[i][1] - *h;
		uint64_t dist = (uint64_t)(dw * dw + dh * dh);

		if (dist < best) {
			best = dist;
			bw = d->formats[f].sizes[i][0];
			bh = d->formats[f].sizes[i][1];
		}
	}
	*w = bw;
	*h = bh;
}

/*
 * One handler per topic: 0, or -1 for a request the device refuses (the
 * caller sets EINVAL, the one error this device gives).
 */
static int fake_querycap(struct fakedev *d, unsigned long req, void *arg)
{
	struct v4l2_capability *cap = arg;

	(void)req;
	memset(cap, 0, sizeof(*cap));
	snprintf((char *)cap->driver, sizeof(cap->driver), "%s",
		 d->driver ? d->driver : "fakedev");
	snprintf((char *)cap->card, sizeof(cap->card), "Fake camera");
	cap->capabilities = V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING |
			    V4L2_CAP_DEVICE_CAPS;
	cap->device_caps = V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING;
	return 0;
}

static int fake_enum_fmt(struct fakedev *d, unsigned long req, void *arg)
{
	struct v4l2_fmtdesc *f = arg;

	(void)req;
	if (f->type != V4L2_BUF_TYPE_VIDEO_CAPTURE ||
	    f->index >= (uint32_t)d->n_formats)
		return -1;
	f->flags = 0;
	f->pixelformat = d->formats[f->index].fourcc;
	snprintf((char *)f->description, sizeof(f->description), "fake %.4s",
		 (const char *)&f->pixelformat);
	return 0;
}

static int fake_enum_sizes(struct fakedev *d, unsigned long req, void *arg)
{
	struct v4l2_frmsizeenum *fs = arg;
	int f = find(d, fs->pixel_format);

	(void)req;
	if (f < 0 || fs->index >= (uint32_t)d->formats[f].n_sizes)
		return -1;
	fs->type = V4L2_FRMSIZE_TYPE_DISCRETE;
	fs->discrete.width = d->formats[f].sizes[fs->index][0];
	fs->discrete.height = d->formats[f].sizes[fs->index][1];
	return 0;
}

/* 1/30 and 1/15 for every size of an offered format. */
static int fake_enum_intervals(struct fakedev *d, unsigned long req, void *arg)
{
	struct v4l2_frmivalenum *fi = arg;

	(void)req;
	if (find(d, fi->pixel_format) < 0 || fi->index > 1)
		return -1;
	fi->type = V4L2_FRMIVAL_TYPE_DISCRETE;
	fi->discrete.numerator = 1;
	fi->discrete.denominator = fi->index ? 15 : 30;
	return 0;
}

static int fake_queryctrl(struct fakedev *d, unsigned long req, void *arg)
{
	struct v4l2_queryctrl *q = arg;
	uint32_t id = q->id & ~V4L2_CTRL_FLAG_NEXT_CTRL;
	int next = q->id & V4L2_CTRL_FLAG_NEXT_CTRL;

	(void)req;
	for (int i = 0; i < d->n_ctrls; i++) {
		if (next ? d->ctrl_ids[i] <= id : d->ctrl_ids[i] != id)
			continue;
		memset(q, 0, sizeof(*q));
		q->id = d->ctrl_ids[i];
		q->type = V4L2_CTRL_TYPE_INTEGER;
		snprintf((char *)q->name, sizeof(q->name), "Fake %x", q->id);
		q->maximum = 255;
		q->step = 1;
		return 0;
	}
	return -1;
}

/* G_CTRL and S_CTRL (0..255). */
static int fake_ctrl(struct fakedev *d, unsigned long req, void *arg)
{
	struct v4l2_control *c = arg;

	for (int i = 0; i < d->n_ctrls; i++) {
		if (d->ctrl_ids[i] != c->id)
			continue;
		if (req == VIDIOC_G_CTRL) {
			c->value = d->ctrl_values[i];
			return 0;
		}
		if (c->value < 0 || c->value > 255)
			return -1;
		d->ctrl_values[i] = c->value;
		return 0;
	}
	return -1;
}

/* The index of control id, or d->n_ctrls if there is none. */
static int ctrl_index(const struct fakedev *d, uint32_t id)
{
	int i;

	for (i = 0; i < d->n_ctrls; i++)
		if (d->ctrl_ids[i] == id)
			break;
	return i;
}

/* G/TRY/S_EXT_CTRLS: every control validated first, as drivers do. */
static int fake_ext_ctrls(struct fakedev *d, unsigned long req, void *arg)
{
	struct v4l2_ext_controls *ec = arg;

	for (uint32_t k = 0; k < ec->count; k++) {
		int32_t v = ec->controls[k].value;

		if (ctrl_index(d, ec->controls[k].id) == d->n_ctrls ||
		    (req != VIDIOC_G_EXT_CTRLS && (v < 0 || v > 255))) {
			ec->error_idx = k;
			return -1;
		}
	}
	for (uint32_t k = 0; k < ec->count; k++)
		for (int i = 0; i < d->n_ctrls; i++)
			if (d->ctrl_ids[i] == ec->controls[k].id) {
				if (req == VIDIOC_G_EXT_CTRLS)
					ec->controls[k].value =
						d->ctrl_values[i];
				else if (req == VIDIOC_S_EXT_CTRLS)
					d->ctrl_values[i] =
						ec->controls[k].value;
			}
	return 0;
}

/* One camera input, with the status the test scripted. */
static int fake_input(struct fakedev *d, unsigned long req, void *arg)
{
	struct v4l2_input *in = arg;

	if (req == VIDIOC_G_INPUT) {
		*(int *)arg = 0;
		return 0;
	}
	if (in->index != 0)
		return -1;
	snprintf((char *)in->name, sizeof(in->name), "Camera");
	in->type = V4L2_INPUT_TYPE_CAMERA;
	in->status = d->input_status;
	return 0;
}

/* TRY_FMT and S_FMT (counted): an offered format (else the first) at
 * its nearest size, 2 bytes a pixel. */
static int fake_try_fmt(struct fakedev *d, unsigned long req, void *arg)
{
	struct v4l2_format *fmt = arg;
	int f;

	(void)req;
	d->try_fmt_calls++;
	if (fmt->type != V4L2_BUF_TYPE_VIDEO_CAPTURE)
		return -1;
	f = find(d, fmt->fmt.pix.pixelformat);
	if (f < 0)
		f = 0; /* drivers substitute their first format */
	fmt->fmt.pix.pixelformat = d->formats[f].fourcc;
	nearest(d, f, &fmt->fmt.pix.width, &fmt->fmt.pix.height);
	fmt->fmt.pix.field = V4L2_FIELD_NONE;
	fmt->fmt.pix.bytesperline = 0;
	fmt->fmt.pix.sizeimage = fmt->fmt.pix.width * fmt->fmt.pix.height * 2;
	return 0;
}

static const struct {
	unsigned long req;
	int (*handle)(struct fakedev *d, unsigned long req, void *arg);
} fake_requests[] = {
	{ VIDIOC_QUERYCAP, fake_querycap },
	{ VIDIOC_ENUM_FMT, fake_enum_fmt },
	{ VIDIOC_ENUM_FRAMESIZES, fake_enum_sizes },
	{ VIDIOC_ENUM_FRAMEINTERVALS, fake_enum_intervals },
	{ VIDIOC_QUERYCTRL, fake_queryctrl },
	{ VIDIOC_G_CTRL, fake_ctrl },
	{ VIDIOC_S_CTRL, fake_ctrl },
	{ VIDIOC_G_EXT_CTRLS, fake_ext_ctrls },
	{ VIDIOC_TRY_EXT_CTRLS, fake_ext_ctrls },
	{ VIDIOC_S_EXT_CTRLS, fake_ext_ctrls },
	{ VIDIOC_G_INPUT, fake_input },
	{ VIDIOC_ENUMINPUT, fake_input },
	{ VIDIOC_TRY_FMT, fake_try_fmt },
	{ VIDIOC_S_FMT, fake_try_fmt },
};

static int fake_ioctl(void *priv, int fd, unsigned long request, void *arg)
{
	struct fakedev *d = priv;

	(void)fd;
	if (d->rdev_req && request == d->rdev_req) {
		*(uint64_t *)arg = d->rdev;
		return 0;
	}
	for (size_t i = 0; i < sizeof(fake_requests) / sizeof(fake_requests[0]);
	     i++)
		if (fake_requests[i].req == request &&
		    fake_requests[i].handle(priv, request, arg) == 0)
			return 0;
	errno = EINVAL;
	return -1;
}

const struct libv4l_dev_ops fakedev_ops = {
	.ioctl = fake_ioctl,
};
