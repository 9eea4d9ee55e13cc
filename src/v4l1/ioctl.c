/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * v4l1_ioctl: the V4L1 requests translated (the other files), VIDIOC_S_FMT
 * noted, everything else passed to libv4l2.
 */
#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "priv.h"

/* Whether req is a V4L1 request translated here. */
static int is_v4l1(unsigned int req)
{
	switch (req) {
	case VIDIOCGCAP:
	case VIDIOCGCHAN:
	case VIDIOCSCHAN:
	case VIDIOCGTUNER:
	case VIDIOCSTUNER:
	case VIDIOCGPICT:
	case VIDIOCSPICT:
	case VIDIOCCAPTURE:
	case VIDIOCGWIN:
	case VIDIOCSWIN:
	case VIDIOCGFBUF:
	case VIDIOCSFBUF:
	case VIDIOCGFREQ:
	case VIDIOCSFREQ:
	case VIDIOCGAUDIO:
	case VIDIOCSAUDIO:
	case VIDIOCSYNC:
	case VIDIOCMCAPTURE:
	case VIDIOCGMBUF:
	case VIDIOCGVBIFMT:
	case VIDIOCSVBIFMT:
		return 1;
	}
	return 0;
}

/* VIDIOC_S_FMT passes through; a capture format change is noted. */
static int s_fmt(struct lv1_dev *dev, int fd, struct v4l2_format *f)
{
	int r = v4l2_ioctl(fd, VIDIOC_S_FMT, f);

	if (r == 0 && f && f->type == V4L2_BUF_TYPE_VIDEO_CAPTURE) {
		pthread_mutex_lock(&dev->lock);
		dev->fmt_chosen = 1;
		if (lv1_palette_fourcc(dev->palette) != f->fmt.pix.pixelformat)
			dev->palette =
				lv1_fourcc_palette(f->fmt.pix.pixelformat);
		pthread_mutex_unlock(&dev->lock);
	}
	return r;
}

/* One V4L1 request (is_v4l1), arg not NULL, dev->lock held. */
static int translate(struct lv1_dev *dev, int fd, unsigned int req, void *arg)
{
	switch (req) {
	case VIDIOCGCAP:
		return lv1_gcap(dev, fd, arg);
	case VIDIOCGCHAN:
		return lv1_gchan(fd, arg);
	case VIDIOCSCHAN:
		return lv1_schan(fd, arg);
	case VIDIOCGTUNER:
		return lv1_gtuner(fd, arg);
	case VIDIOCSTUNER:
		return lv1_stuner(fd, arg);
	case VIDIOCGPICT:
		return lv1_gpict(dev, fd, arg);
	case VIDIOCSPICT:
		return lv1_spict(dev, fd, arg);
	case VIDIOCCAPTURE:
		return lv1_capture(fd, arg);
	case VIDIOCGWIN:
		return lv1_gwin(fd, arg);
	case VIDIOCSWIN:
		return lv1_swin(fd, arg);
	case VIDIOCGFBUF:
		return lv1_gfbuf(fd, arg);
	case VIDIOCSFBUF:
		return lv1_sfbuf(fd, arg);
	case VIDIOCGFREQ:
		return lv1_gfreq(fd, arg);
	case VIDIOCSFREQ:
		return lv1_sfreq(fd, arg);
	case VIDIOCGAUDIO:
		return lv1_gaudio(fd, arg);
	case VIDIOCSAUDIO:
		return lv1_saudio(fd, arg);
	case VIDIOCSYNC:
		return lv1_vsync(dev, fd, arg);
	case VIDIOCMCAPTURE:
		return lv1_mcapture(dev, fd, arg);
	case VIDIOCGMBUF:
		return lv1_gmbuf(dev, arg);
	case VIDIOCGVBIFMT:
		return lv1_gvbifmt(fd, arg);
	default:
		return lv1_svbifmt(fd, arg); /* VIDIOCSVBIFMT */
	}
}

LIBV4L_PUBLIC int v4l1_ioctl(int fd, unsigned long int request, ...)
{
	struct lv1_dev *dev;
	unsigned int req = (unsigned int)request;
	va_list ap;
	void *arg;
	int r, err;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);

	dev = lv1_dev_find(fd);
	if (dev && req == VIDIOC_S_FMT)
		return s_fmt(dev, fd, arg);
	if (!dev || !is_v4l1(req))
		return v4l2_ioctl(fd, request, arg);
	if (!arg) {
		errno = EFAULT;
		lv1_log_ioctl(fd, req, -1, EFAULT);
		return -1;
	}
	pthread_mutex_lock(&dev->lock);
	r = translate(dev, fd, req, arg) < 0 ? -1 : 0;
	err = errno;
	pthread_mutex_unlock(&dev->lock);
	lv1_log_ioctl(fd, req, r, err);
	errno = err;
	return r;
}
