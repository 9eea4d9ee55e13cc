/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * v4l2_ioctl: the format, buffer and control ioctls of single-planar video
 * capture are intercepted; everything else goes to the driver (or plugin).
 */
#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "priv.h"

/* For structures starting with the buffer type (v4l2_format, streamparm). */
static int is_capture(const void *arg)
{
	return *(const uint32_t *)arg == V4L2_BUF_TYPE_VIDEO_CAPTURE;
}

static int buf_capture(const struct v4l2_buffer *b)
{
	return b->type == V4L2_BUF_TYPE_VIDEO_CAPTURE;
}

/* Destination takes the colorimetry of what the driver really gives. */
static void inherit(struct v4l2_format *dst, const struct v4l2_format *src)
{
	dst->fmt.pix.field = src->fmt.pix.field;
	dst->fmt.pix.colorspace = src->fmt.pix.colorspace;
	dst->fmt.pix.ycbcr_enc = src->fmt.pix.ycbcr_enc;
	dst->fmt.pix.quantization = src->fmt.pix.quantization;
	dst->fmt.pix.xfer_func = src->fmt.pix.xfer_func;
}

/*
 * A converted format keeps the colorspace and transfer function the
 * application asked for, as v4lconvert_try_format answers (GStreamer
 * refuses a device whose answer differs from what it asked).
 */
static void keep_asked(struct v4l2_format *dst, const struct v4l2_format *asked)
{
	if (asked->fmt.pix.colorspace != V4L2_COLORSPACE_DEFAULT)
		dst->fmt.pix.colorspace = asked->fmt.pix.colorspace;
	if (asked->fmt.pix.xfer_func != V4L2_XFER_FUNC_DEFAULT)
		dst->fmt.pix.xfer_func = asked->fmt.pix.xfer_func;
}

/* S_FMT: set the source that gives fmt, remember both; fmt is updated. */
int lv2_fmt_apply(struct lv2_dev *dev, struct v4l2_format *fmt)
{
	struct v4l2_format want = *fmt, src, tried;

	if (v4lconvert_try_format(dev->conv, &want, &src) < 0)
		return -1;
	tried = src;
	if (lv2_dev_ioctl(dev, VIDIOC_S_FMT, &src) < 0)
		return -1;
	if (src.fmt.pix.pixelformat != tried.fmt.pix.pixelformat ||
	    src.fmt.pix.width != tried.fmt.pix.width ||
	    src.fmt.pix.height != tried.fmt.pix.height) {
		/* The driver did not do what it promised: no conversion. */
		lv2_log_err(dev, "driver changed the promised format, "
				 "conversion disabled for it");
		want = src;
	} else {
		inherit(&want, &src);
		if (want.fmt.pix.pixelformat != src.fmt.pix.pixelformat)
			keep_asked(&want, fmt);
		if (want.fmt.pix.pixelformat != src.fmt.pix.pixelformat ||
		    want.fmt.pix.width != src.fmt.pix.width ||
		    want.fmt.pix.height != src.fmt.pix.height)
			v4lconvert_fixup_fmt(&want);
	}
	dev->src = src;
	dev->dst = want;
	*fmt = want;
	return 0;
}

static int do_s_fmt(struct lv2_dev *dev, struct v4l2_format *fmt)
{
	/*
	 * The program's converted buffers, even unused, keep the format, as
	 * a driver's buffers do (EBUSY from uvcvideo and vb2): freeing them
	 * here would fail its later QUERYBUF and QBUF instead.
	 */
	if ((lv2_bufs_busy(dev) && dev->mode != BUFS_READ) ||
	    (dev->mode == BUFS_CONVERT && dev->nbufs)) {
		errno = EBUSY;
		return -1;
	}
	lv2_read_stop(dev);
	if (dev->mode == BUFS_CONVERT) {
		lv2_bufs_release(dev);
		lv2_bufs_free_fake(dev);
	}
	if (!dev->conv) {
		if (lv2_dev_ioctl(dev, VIDIOC_S_FMT, fmt) < 0)
			return -1;
		dev->src = dev->dst = *fmt;
		return 0;
	}
	return lv2_fmt_apply(dev, fmt);
}

/* After S_STD/S_INPUT/S_DV_TIMINGS the driver may have a new format. */
static void reread_fmt(struct lv2_dev *dev)
{
	struct v4l2_format now = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };

	if (lv2_dev_ioctl(dev, VIDIOC_G_FMT, &now) < 0)
		return;
	if (now.fmt.pix.pixelformat == dev->src.fmt.pix.pixelformat &&
	    now.fmt.pix.width == dev->src.fmt.pix.width &&
	    now.fmt.pix.height == dev->src.fmt.pix.height) {
		dev->src = now;
		inherit(&dev->dst, &now);
		return;
	}
	if (dev->conv && !lv2_bufs_busy(dev) && dev->mode == BUFS_NONE) {
		struct v4l2_format want = now;

		want.fmt.pix.pixelformat = dev->dst.fmt.pix.pixelformat;
		if (lv2_fmt_apply(dev, &want) == 0)
			return;
	}
	dev->src = dev->dst = now;
}

/* S_PARM: a new frame rate may favour another source format. */
static void reconsider_fps(struct lv2_dev *dev,
			   const struct v4l2_streamparm *parm)
{
	const struct v4l2_fract *t = &parm->parm.capture.timeperframe;
	struct v4l2_format want = dev->dst, src;

	if (!dev->conv || !t->numerator)
		return;
	v4lconvert_set_fps(dev->conv, (int)(t->denominator / t->numerator));
	if (lv2_bufs_busy(dev) || dev->mode != BUFS_NONE)
		return;
	if (v4lconvert_try_format(dev->conv, &want, &src) < 0)
		return;
	if (want.fmt.pix.pixelformat != dev->dst.fmt.pix.pixelformat ||
	    want.fmt.pix.width != dev->dst.fmt.pix.width ||
	    want.fmt.pix.height != dev->dst.fmt.pix.height ||
	    (src.fmt.pix.pixelformat == dev->src.fmt.pix.pixelformat &&
	     src.fmt.pix.width == dev->src.fmt.pix.width &&
	     src.fmt.pix.height == dev->src.fmt.pix.height))
		return;
	want = dev->dst;
	if (lv2_fmt_apply(dev, &want) == 0) {
		struct v4l2_streamparm again = *parm;

		lv2_dev_ioctl(dev, VIDIOC_S_PARM, &again);
	}
}

/* G/S_PARM: read() is emulated (QUERYCAP says READWRITE) with this many
 * buffers, which a driver without read() of its own reports as 0. */
static void read_buffers(const struct lv2_dev *dev,
			 struct v4l2_streamparm *parm)
{
	if ((dev->caps & V4L2_CAP_STREAMING) &&
	    !(dev->caps & V4L2_CAP_READWRITE) &&
	    !parm->parm.capture.readbuffers)
		parm->parm.capture.readbuffers = LV2_READ_BUFFERS;
}

/* Formats and sizes: the converter's, once it exists. 1 if served. */
static int format_ioctl(struct lv2_dev *dev, unsigned long request, void *arg,
			int *r)
{
	switch (request) {
	case VIDIOC_ENUM_FMT:
		if (!dev->conv || ((struct v4l2_fmtdesc *)arg)->type !=
					  V4L2_BUF_TYPE_VIDEO_CAPTURE)
			return 0;
		*r = v4lconvert_enum_fmt(dev->conv, arg);
		return 1;
	case VIDIOC_ENUM_FRAMESIZES:
		if (!dev->conv)
			return 0;
		*r = v4lconvert_enum_framesizes(dev->conv, arg);
		return 1;
	case VIDIOC_ENUM_FRAMEINTERVALS:
		*r = lv2_enum_frameintervals(dev, arg);
		return 1;
	case VIDIOC_TRY_FMT:
		if (!dev->conv || !is_capture(arg))
			return 0;
		*r = v4lconvert_try_format(dev->conv, arg, NULL);
		return 1;
	case VIDIOC_S_FMT:
		if (!is_capture(arg))
			return 0;
		*r = do_s_fmt(dev, arg);
		return 1;
	case VIDIOC_G_FMT:
		if (!is_capture(arg) || !dev->conv)
			return 0;
		*(struct v4l2_format *)arg = dev->dst;
		*r = 0;
		return 1;
	case VIDIOC_S_STD:
	case VIDIOC_S_INPUT:
	case VIDIOC_S_DV_TIMINGS:
		*r = lv2_dev_ioctl(dev, request, arg);
		if (*r == 0)
			reread_fmt(dev);
		return 1;
	case VIDIOC_G_PARM:
		*r = lv2_dev_ioctl(dev, request, arg);
		if (*r == 0 && is_capture(arg))
			read_buffers(dev, arg);
		return 1;
	case VIDIOC_S_PARM:
		*r = lv2_dev_ioctl(dev, request, arg);
		if (*r == 0 && is_capture(arg)) {
			reconsider_fps(dev, arg);
			read_buffers(dev, arg);
		}
		return 1;
	}
	return 0;
}

/* Capture buffers (buffers.c). 1 if served. */
static int buffer_ioctl(struct lv2_dev *dev, unsigned long request, void *arg,
			int *r)
{
	switch (request) {
	case VIDIOC_REQBUFS:
		if (((struct v4l2_requestbuffers *)arg)->type !=
		    V4L2_BUF_TYPE_VIDEO_CAPTURE)
			return 0;
		*r = lv2_bufs_reqbufs(dev, arg);
		return 1;
	case VIDIOC_QUERYBUF:
		if (!buf_capture(arg))
			return 0;
		*r = lv2_bufs_querybuf(dev, arg);
		return 1;
	case VIDIOC_QBUF:
		if (!buf_capture(arg))
			return 0;
		*r = lv2_bufs_qbuf(dev, arg);
		return 1;
	case VIDIOC_DQBUF:
		if (!buf_capture(arg))
			return 0;
		*r = lv2_bufs_dqbuf(dev, arg);
		return 1;
	case VIDIOC_STREAMON:
	case VIDIOC_STREAMOFF:
		if (!is_capture(arg))
			return 0;
		*r = lv2_bufs_stream(dev, request, arg);
		return 1;
	case VIDIOC_EXPBUF:
		if (dev->mode != BUFS_CONVERT && dev->mode != BUFS_READ)
			return 0;
		if (dev->mode == BUFS_CONVERT &&
		    ((struct v4l2_exportbuffer *)arg)->type ==
			    V4L2_BUF_TYPE_VIDEO_CAPTURE) {
			*r = lv2_export_buf(dev, arg);
			return 1;
		}
		/* read()'s own buffers are hidden; no other queue is ours */
		errno = EINVAL;
		*r = -1;
		return 1;
	case VIDIOC_CREATE_BUFS:
		if (((struct v4l2_create_buffers *)arg)->format.type !=
		    V4L2_BUF_TYPE_VIDEO_CAPTURE)
			return 0;
		*r = lv2_bufs_create(dev, arg);
		return 1;
	}
	return 0;
}

/* Controls with the emulated ones merged in (needs the converter). */
static int control_ioctl(struct lv2_dev *dev, unsigned long request, void *arg,
			 int *r)
{
	if (!dev->conv)
		return 0;
	switch (request) {
	case VIDIOC_QUERYCTRL:
		*r = v4lconvert_vidioc_queryctrl(dev->conv, arg);
		return 1;
	case VIDIOC_G_CTRL:
		*r = v4lconvert_vidioc_g_ctrl(dev->conv, arg);
		return 1;
	case VIDIOC_S_CTRL:
		*r = v4lconvert_vidioc_s_ctrl(dev->conv, arg);
		return 1;
	case VIDIOC_G_EXT_CTRLS:
		*r = v4lconvert_vidioc_g_ext_ctrls(dev->conv, arg);
		return 1;
	case VIDIOC_TRY_EXT_CTRLS:
		*r = v4lconvert_vidioc_try_ext_ctrls(dev->conv, arg);
		return 1;
	case VIDIOC_S_EXT_CTRLS:
		*r = v4lconvert_vidioc_s_ext_ctrls(dev->conv, arg);
		return 1;
	case VIDIOC_QUERY_EXT_CTRL:
		*r = lv2_query_ext_ctrl(dev, arg);
		return 1;
	case VIDIOC_QUERYMENU:
		*r = lv2_querymenu(dev, arg);
		return 1;
	}
	return 0;
}

int lv2_dispatch_lower(struct lv2_dev *dev, unsigned long request, void *arg)
{
	int r;

	if (request == VIDIOC_QUERYCAP) {
		struct v4l2_capability *cap = arg;

		r = lv2_dev_ioctl(dev, request, arg);
		if (r == 0 && dev->caps & V4L2_CAP_STREAMING) {
			cap->capabilities |= V4L2_CAP_READWRITE;
			cap->device_caps |= V4L2_CAP_READWRITE;
		}
		return r;
	}
	if (format_ioctl(dev, request, arg, &r) ||
	    buffer_ioctl(dev, request, arg, &r) ||
	    control_ioctl(dev, request, arg, &r))
		return r;
	return lv2_dev_ioctl(dev, request, arg);
}

/* The ioctls before which the original settles the default format. */
static int touches_stream(unsigned long request, const void *arg)
{
	switch (request) {
	case VIDIOC_S_FMT:
	case VIDIOC_G_FMT:
	case VIDIOC_STREAMON:
	case VIDIOC_STREAMOFF:
	case VIDIOC_S_PARM:
		return is_capture(arg);
	case VIDIOC_REQBUFS:
		return ((const struct v4l2_requestbuffers *)arg)->type ==
		       V4L2_BUF_TYPE_VIDEO_CAPTURE;
	case VIDIOC_QUERYBUF:
	case VIDIOC_QBUF:
	case VIDIOC_DQBUF:
		return buf_capture(arg);
	case VIDIOC_S_STD:
	case VIDIOC_S_INPUT:
	case VIDIOC_S_DV_TIMINGS:
		return 1;
	}
	return 0;
}

/* Whether ENUM_FMT lists fourcc. */
static int listed(struct lv2_dev *dev, uint32_t fourcc)
{
	struct v4l2_fmtdesc d = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };

	for (d.index = 0; v4lconvert_enum_fmt(dev->conv, &d) == 0; d.index++)
		if (d.pixelformat == fourcc)
			return 1;
	return 0;
}

/*
 * A device whose every format is delivered by conversion (a flip or the
 * processing applies: Bayer, chip formats, upside-down sensors) starts
 * in the driver's format, which ENUM_FMT does not list and which nothing
 * converts. As the original does, the first format or buffer ioctl first
 * sets RGB24 at the driver's size, so that G_FMT right after open answers
 * something the program can use (zbarcam, qvidcap) and REQBUFS gets the
 * same answer before and after the program's S_FMT. Opening a device and
 * listing its formats still changes nothing on the driver.
 */
static void default_format(struct lv2_dev *dev)
{
	struct v4l2_format want;
	int e = errno;

	dev->touched = 1;
	if (!dev->conv || dev->mode != BUFS_NONE || lv2_bufs_busy(dev) ||
	    !v4lconvert_supported_dst_fmt_only(dev->conv) ||
	    listed(dev, dev->dst.fmt.pix.pixelformat))
		return;
	want = dev->dst;
	want.fmt.pix.pixelformat = V4L2_PIX_FMT_RGB24;
	/* refused: the driver's format stays, as with the original */
	lv2_fmt_apply(dev, &want);
	errno = e;
}

/*
 * Without conversion, the calls that go to the driver as they are and
 * change nothing kept here: controls, and TRY_FMT. A USB camera may take
 * seconds to answer them; made outside the lock (as DQBUF waits), they
 * stall no other thread's calls on the fd (the frame server's capture
 * thread), as the kernel lets calls of several threads proceed.
 */
static int driver_only(const struct lv2_dev *dev, unsigned long request)
{
	if (dev->conv)
		return 0;
	switch (request) {
	case VIDIOC_QUERYCTRL:
	case VIDIOC_QUERY_EXT_CTRL:
	case VIDIOC_QUERYMENU:
	case VIDIOC_G_CTRL:
	case VIDIOC_S_CTRL:
	case VIDIOC_G_EXT_CTRLS:
	case VIDIOC_S_EXT_CTRLS:
	case VIDIOC_TRY_EXT_CTRLS:
	case VIDIOC_TRY_FMT:
		return 1;
	}
	return 0;
}

/* The driver's call with dev unlocked; v4l2_close waits for it (busy). */
static int unlocked_ioctl(struct lv2_dev *dev, unsigned long request, void *arg)
{
	int r, e;

	lv2_dev_unlock_busy(dev);
	r = dev->ops->ioctl(dev->priv, dev->fd, request, arg);
	e = errno;
	lv2_dev_relock_busy(dev);
	if (r < 0 && e == ENODEV)
		dev->gone = 1;
	errno = e;
	return r;
}

static int dispatch(struct lv2_dev *dev, unsigned long request, void *arg)
{
	if (!dev->touched && touches_stream(request, arg))
		default_format(dev);
	if (lv2_af_claims(dev, request, arg))
		return lv2_af_ioctl(dev, request, arg);
	if (driver_only(dev, request))
		return unlocked_ioctl(dev, request, arg);
	return lv2_dispatch_lower(dev, request, arg);
}

/*
 * A device that is not a capture device: nothing is intercepted, and the
 * call is made outside the lock, so a blocking one stalls nobody. A
 * plugin's state must outlive it: v4l2_close waits (busy). Releases dev.
 */
static int passthrough_ioctl(struct lv2_dev *dev, int fd, unsigned long request,
			     void *arg)
{
	int r, e;

	if (dev->ops == &lv2_sys_ops) {
		lv2_dev_put(dev);
		return (int)lv2_sys_ioctl(fd, request, arg);
	}
	r = unlocked_ioctl(dev, request, arg);
	e = errno;
	lv2_dev_put(dev);
	errno = e;
	return r;
}

LIBV4L_PUBLIC int v4l2_ioctl(int fd, unsigned long int request, ...)
{
	struct lv2_dev *dev;
	va_list ap;
	void *arg;
	int r, e;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);
	/* Sign-extended numbers from callers passing an int still match. */
	request = (unsigned int)request;
	dev = lv2_dev_get(fd);
	if (!dev)
		return (int)lv2_sys_ioctl(fd, request, arg);
	if (dev->passthrough) {
		r = passthrough_ioctl(dev, fd, request, arg);
	} else {
		r = arg ? dispatch(dev, request, arg)
			: lv2_dev_ioctl(dev, request, arg);
		e = errno;
		lv2_dev_put(dev);
		errno = e;
	}
	lv2_log_ioctl(fd, request, r, errno);
	return r;
}
