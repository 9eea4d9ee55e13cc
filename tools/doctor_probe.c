/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What libv4l makes of one device. The device is opened through libv4l2
 * with V4L2_DISABLE_CONVERSION (so a plugin, the virtual camera's among
 * them, answers as it does for applications) and never shared
 * (LIBV4L2_SHARE=0, set by main): the doctor must not become a frame
 * server's client. A libv4lconvert instance on top of it says which
 * formats are emulated, from which native format each is made, the
 * emulated controls and the quirks.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <libv4l-plugin.h>
#include <libv4l2.h>
#include <libv4lconvert.h>

#include "doctor.h"

static const char vcam_prefix[] = "libv4l-vcam";

static int dev_ioctl(void *priv, int fd, unsigned long req, void *arg)
{
	(void)priv;
	return v4l2_ioctl(fd, req, arg);
}

static const struct libv4l_dev_ops through_libv4l2 = { .ioctl = dev_ioctl };

/*
 * A string of the driver's (QUERYCAP, ENUM_FMT, QUERYCTRL) into dst: the
 * kernel fills these fixed-size fields and a full one has no NUL, so at
 * most n bytes of src are read (never "%s" on them). Control characters
 * become '?': the text form goes to a terminal, and a driver's name must
 * not move its cursor. dst has room for n bytes and the NUL.
 */
static void driver_str(char *dst, size_t dstsize, const void *src, size_t n)
{
	const unsigned char *s = src;
	size_t i;

	for (i = 0; i < n && i + 1 < dstsize && s[i]; i++)
		dst[i] = s[i] < 0x20 || s[i] == 0x7f ? '?' : (char)s[i];
	dst[i] = '\0';
}

#define DRIVER_STR(dst, field)                                                 \
	driver_str(dst, sizeof(dst), field, sizeof(field))

static void native_sizes(int fd, struct doc_fmt *f)
{
	struct v4l2_frmsizeenum e;

	for (uint32_t i = 0; f->nsizes < DOC_MAX_SIZES; i++) {
		memset(&e, 0, sizeof(e));
		e.index = i;
		e.pixel_format = f->fourcc;
		if (v4l2_ioctl(fd, VIDIOC_ENUM_FRAMESIZES, &e) < 0)
			break;
		if (e.type != V4L2_FRMSIZE_TYPE_DISCRETE) {
			f->stepwise = 1;
			f->step = e.stepwise;
			break;
		}
		f->sizes[f->nsizes++] = e.discrete;
	}
}

/* The native format libv4lconvert converts from, at the current size. */
static void emulated_source(struct v4lconvert_data *conv,
			    const struct doc_dev *d, struct doc_fmt *f)
{
	struct v4l2_format want, src;

	memset(&want, 0, sizeof(want));
	memset(&src, 0, sizeof(src));
	want.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	want.fmt.pix.pixelformat = f->fourcc;
	want.fmt.pix.width = d->width;
	want.fmt.pix.height = d->height;
	want.fmt.pix.field = V4L2_FIELD_ANY;
	if (v4lconvert_try_format(conv, &want, &src) < 0)
		return;
	f->src = src.fmt.pix.pixelformat;
	f->src_w = src.fmt.pix.width;
	f->src_h = src.fmt.pix.height;
}

/* The driver's formats, with V4L2_DISABLE_CONVERSION: as it gives them. */
static void native_formats(int fd, struct doc_dev *d)
{
	struct v4l2_fmtdesc e;

	for (uint32_t i = 0; d->nfmts < DOC_MAX_FMTS; i++) {
		struct doc_fmt *f = &d->fmts[d->nfmts];

		memset(&e, 0, sizeof(e));
		e.index = i;
		e.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		if (v4l2_ioctl(fd, VIDIOC_ENUM_FMT, &e) < 0)
			break;
		memset(f, 0, sizeof(*f));
		f->fourcc = e.pixelformat;
		f->hidden = 1; /* until libv4lconvert offers it as it is */
		DRIVER_STR(f->desc, e.description);
		native_sizes(fd, f);
		d->nfmts++;
	}
}

/* What libv4l2 offers applications: native formats as they are, and
 * emulated ones (converted, or a native one processed). */
static void offered_formats(struct v4lconvert_data *conv, struct doc_dev *d)
{
	struct v4l2_fmtdesc e;

	for (uint32_t i = 0; d->nemu < DOC_MAX_FMTS; i++) {
		struct doc_fmt *f = &d->emu[d->nemu];

		memset(&e, 0, sizeof(e));
		e.index = i;
		e.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		if (v4lconvert_enum_fmt(conv, &e) < 0)
			break;
		if (!(e.flags & V4L2_FMT_FLAG_EMULATED)) {
			for (int k = 0; k < d->nfmts; k++)
				if (d->fmts[k].fourcc == e.pixelformat)
					d->fmts[k].hidden = 0;
			continue;
		}
		memset(f, 0, sizeof(*f));
		f->fourcc = e.pixelformat;
		f->emulated = 1;
		DRIVER_STR(f->desc, e.description);
		emulated_source(conv, d, f);
		d->nemu++;
	}
}

static void controls(struct v4lconvert_data *conv, struct doc_dev *d)
{
	struct v4l2_queryctrl q = { .id = V4L2_CTRL_FLAG_NEXT_CTRL };

	while (d->nctrls < DOC_MAX_CTRLS &&
	       !v4lc_query_emulated_ctrl(conv, &q)) {
		struct doc_ctrl *c = &d->ctrls[d->nctrls++];

		c->id = q.id;
		DRIVER_STR(c->name, q.name);
		c->min = q.minimum;
		c->max = q.maximum;
		c->def = q.default_value;
		q.id |= V4L2_CTRL_FLAG_NEXT_CTRL;
	}
}

static int open_raw(const char *name)
{
	if (!strncmp(name, vcam_prefix, sizeof(vcam_prefix) - 1))
		return memfd_create(name, MFD_CLOEXEC);
	return open(name, O_RDWR | O_NONBLOCK | O_CLOEXEC);
}

static void fail(struct doc_dev *d, const char *what)
{
	snprintf(d->error, sizeof(d->error), "%s: %s", what, strerror(errno));
}

void doc_probe(const char *name, struct doc_dev *d)
{
	struct v4lconvert_data *conv;
	struct v4l2_capability cap;
	struct v4l2_format fmt;
	uint32_t caps;
	int fd = open_raw(name);

	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", name);
	if (fd < 0) {
		fail(d, "open");
		return;
	}
	if (v4l2_fd_open(fd, V4L2_DISABLE_CONVERSION) != fd) {
		fail(d, "libv4l2");
		close(fd);
		return;
	}
	memset(&cap, 0, sizeof(cap));
	if (v4l2_ioctl(fd, VIDIOC_QUERYCAP, &cap) < 0) {
		fail(d, "VIDIOC_QUERYCAP");
		v4l2_close(fd);
		return;
	}
	DRIVER_STR(d->driver, cap.driver);
	DRIVER_STR(d->card, cap.card);
	DRIVER_STR(d->bus, cap.bus_info);
	caps = (cap.capabilities & V4L2_CAP_DEVICE_CAPS) ? cap.device_caps
							 : cap.capabilities;
	d->capture = !!(caps & V4L2_CAP_VIDEO_CAPTURE);
	d->ok = 1;
	if (!d->capture) {
		v4l2_close(fd);
		return;
	}
	memset(&fmt, 0, sizeof(fmt));
	fmt.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	if (!v4l2_ioctl(fd, VIDIOC_G_FMT, &fmt)) {
		d->width = fmt.fmt.pix.width;
		d->height = fmt.fmt.pix.height;
	}
	conv = v4lconvert_create_with_dev_ops(fd, NULL, &through_libv4l2);
	if (!conv) {
		fail(d, "libv4lconvert");
		d->ok = 0;
		v4l2_close(fd);
		return;
	}
	native_formats(fd, d);
	offered_formats(conv, d);
	controls(conv, d);
	v4lc_quirk_report(conv, &d->quirks);
	v4lconvert_destroy(conv);
	v4l2_close(fd);
}
