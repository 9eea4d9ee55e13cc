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

static int fake_ioctl(void *priv, int fd, unsigned long request, void *arg)
{
	struct fakedev *d = priv;

	(void)fd;
	switch (request) {
	case VIDIOC_QUERYCAP: {
		struct v4l2_capability *cap = arg;

		memset(cap, 0, sizeof(*cap));
		snprintf((char *)cap->driver, sizeof(cap->driver), "%s",
			 d->driver ? d->driver : "fakedev");
		snprintf((char *)cap->card, sizeof(cap->card), "Fake camera");
		cap->capabilities = V4L2_CAP_VIDEO_CAPTURE |
				    V4L2_CAP_STREAMING | V4L2_CAP_DEVICE_CAPS;
		cap->device_caps = V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING;
		return 0;
	}
	case VIDIOC_ENUM_FMT: {
		struct v4l2_fmtdesc *f = arg;

		if (f->type != V4L2_BUF_TYPE_VIDEO_CAPTURE ||
		    f->index >= (uint32_t)d->n_formats)
			break;
		f->flags = 0;
		f->pixelformat = d->formats[f->index].fourcc;
		snprintf((char *)f->description, sizeof(f->description),
			 "fake %.4s", (const char *)&f->pixelformat);
		return 0;
	}
	case VIDIOC_ENUM_FRAMESIZES: {
		struct v4l2_frmsizeenum *fs = arg;
		int f = find(d, fs->pixel_format);

		if (f < 0 || fs->index >= (uint32_t)d->formats[f].n_sizes)
			break;
		fs->type = V4L2_FRMSIZE_TYPE_DISCRETE;
		fs->discrete.width = d->formats[f].sizes[fs->index][0];
		fs->discrete.height = d->formats[f].sizes[fs->index][1];
		return 0;
	}
	case VIDIOC_QUERYCTRL: {
		struct v4l2_queryctrl *q = arg;
		uint32_t id = q->id & ~V4L2_CTRL_FLAG_NEXT_CTRL;
		int next = q->id & V4L2_CTRL_FLAG_NEXT_CTRL;

		for (int i = 0; i < d->n_ctrls; i++) {
			if (next ? d->ctrl_ids[i] <= id : d->ctrl_ids[i] != id)
				continue;
			memset(q, 0, sizeof(*q));
			q->id = d->ctrl_ids[i];
			q->type = V4L2_CTRL_TYPE_INTEGER;
			snprintf((char *)q->name, sizeof(q->name), "Fake %x",
				 q->id);
			q->maximum = 255;
			q->step = 1;
			return 0;
		}
		break;
	}
	case VIDIOC_G_CTRL:
	case VIDIOC_S_CTRL: {
		struct v4l2_control *c = arg;

		for (int i = 0; i < d->n_ctrls; i++) {
			if (d->ctrl_ids[i] != c->id)
				continue;
			if (request == VIDIOC_G_CTRL) {
				c->value = d->ctrl_values[i];
				return 0;
			}
			if (c->value < 0 || c->value > 255)
				break;
			d->ctrl_values[i] = c->value;
			return 0;
		}
		break;
	}
	case VIDIOC_G_EXT_CTRLS:
	case VIDIOC_TRY_EXT_CTRLS:
	case VIDIOC_S_EXT_CTRLS: {
		struct v4l2_ext_controls *ec = arg;

		/* validate everything first, as drivers do */
		for (uint32_t k = 0; k < ec->count; k++) {
			int i;

			for (i = 0; i < d->n_ctrls; i++)
				if (d->ctrl_ids[i] == ec->controls[k].id)
					break;
			if (i == d->n_ctrls ||
			    (request != VIDIOC_G_EXT_CTRLS &&
			     (ec->controls[k].value < 0 ||
			      ec->controls[k].value > 255))) {
				ec->error_idx = k;
				errno = EINVAL;
				return -1;
			}
		}
		for (uint32_t k = 0; k < ec->count; k++)
			for (int i = 0; i < d->n_ctrls; i++)
				if (d->ctrl_ids[i] == ec->controls[k].id) {
					if (request == VIDIOC_G_EXT_CTRLS)
						ec->controls[k].value =
							d->ctrl_values[i];
					else if (request == VIDIOC_S_EXT_CTRLS)
						d->ctrl_values[i] =
							ec->controls[k].value;
				}
		return 0;
	}
	case VIDIOC_G_INPUT:
		*(int *)arg = 0;
		return 0;
	case VIDIOC_ENUMINPUT: {
		struct v4l2_input *in = arg;

		if (in->index != 0)
			break;
		snprintf((char *)in->name, sizeof(in->name), "Camera");
		in->type = V4L2_INPUT_TYPE_CAMERA;
		in->status = d->input_status;
		return 0;
	}
	case VIDIOC_ENUM_FRAMEINTERVALS: {
		struct v4l2_frmivalenum *fi = arg;

		if (find(d, fi->pixel_format) < 0 || fi->index > 1)
			break;
		fi->type = V4L2_FRMIVAL_TYPE_DISCRETE;
		fi->discrete.numerator = 1;
		fi->discrete.denominator = fi->index ? 15 : 30;
		return 0;
	}
	case VIDIOC_TRY_FMT:
	case VIDIOC_S_FMT: {
		struct v4l2_format *fmt = arg;
		int f;

		d->try_fmt_calls++;
		if (fmt->type != V4L2_BUF_TYPE_VIDEO_CAPTURE)
			break;
		f = find(d, fmt->fmt.pix.pixelformat);
		if (f < 0)
			f = 0; /* drivers substitute their first format */
		fmt->fmt.pix.pixelformat = d->formats[f].fourcc;
		nearest(d, f, &fmt->fmt.pix.width, &fmt->fmt.pix.height);
		fmt->fmt.pix.field = V4L2_FIELD_NONE;
		fmt->fmt.pix.bytesperline = 0;
		fmt->fmt.pix.sizeimage =
			fmt->fmt.pix.width * fmt->fmt.pix.height * 2;
		return 0;
	}
	}
	errno = EINVAL;
	return -1;
}

const struct libv4l_dev_ops fakedev_ops = {
	.ioctl = fake_ioctl,
};
