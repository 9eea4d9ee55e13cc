/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The camera handle and format table the vcam-ops files share (ops.h). */
#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/videodev2.h>

#include "ops.h"

const struct libv4l_dev_ops *const ops = &v4lc_vcam_ops;

int open_cam(struct cam *c, const char *spec)
{
	c->fd = v4lc_vcam_create(spec);
	if (c->fd < 0)
		return -1;
	c->priv = ops->init(c->fd);
	if (!c->priv) {
		close(c->fd);
		return -1;
	}
	return 0;
}

void close_cam(struct cam *c)
{
	ops->close(c->priv);
	close(c->fd);
}

/* ioctl: 0, or the errno of a failure. */
int xio(struct cam *c, unsigned long req, void *arg)
{
	errno = 0;
	if (ops->ioctl(c->priv, c->fd, req, arg) == 0)
		return 0;
	return errno ? errno : -1;
}

int declines(const char *name)
{
	int fd = memfd_create(name, MFD_CLOEXEC);
	void *p;

	if (fd < 0)
		return 0;
	p = ops->init(fd);
	if (p)
		ops->close(p);
	close(fd);
	return p == NULL;
}

const struct fmt_expect fmts[NFMTS] = {
	{ "YUYV", V4L2_PIX_FMT_YUYV, 2, 2, 1, 0 },
	{ "YVYU", V4L2_PIX_FMT_YVYU, 2, 2, 1, 0 },
	{ "UYVY", V4L2_PIX_FMT_UYVY, 2, 2, 1, 0 },
	{ "VYUY", V4L2_PIX_FMT_VYUY, 2, 2, 1, 0 },
	{ "YU12", V4L2_PIX_FMT_YUV420, 1, 3, 2, 0 },
	{ "YV12", V4L2_PIX_FMT_YVU420, 1, 3, 2, 0 },
	{ "NV12", V4L2_PIX_FMT_NV12, 1, 3, 2, 0 },
	{ "NV21", V4L2_PIX_FMT_NV21, 1, 3, 2, 0 },
	{ "RGB3", V4L2_PIX_FMT_RGB24, 3, 3, 1, V4L2_COLORSPACE_SRGB },
	{ "BGR3", V4L2_PIX_FMT_BGR24, 3, 3, 1, V4L2_COLORSPACE_SRGB },
	{ "GREY", V4L2_PIX_FMT_GREY, 1, 1, 1, 0 },
	{ "BA81", V4L2_PIX_FMT_SBGGR8, 1, 1, 1, V4L2_COLORSPACE_SRGB },
	{ "GBRG", V4L2_PIX_FMT_SGBRG8, 1, 1, 1, V4L2_COLORSPACE_SRGB },
	{ "GRBG", V4L2_PIX_FMT_SGRBG8, 1, 1, 1, V4L2_COLORSPACE_SRGB },
	{ "RGGB", V4L2_PIX_FMT_SRGGB8, 1, 1, 1, V4L2_COLORSPACE_SRGB },
	{ "MJPG", V4L2_PIX_FMT_MJPEG, 0, 0, 1, V4L2_COLORSPACE_JPEG },
	{ "JPEG", V4L2_PIX_FMT_JPEG, 0, 0, 1, V4L2_COLORSPACE_JPEG },
};

int is_jpeg(uint32_t fourcc)
{
	return fourcc == V4L2_PIX_FMT_MJPEG || fourcc == V4L2_PIX_FMT_JPEG;
}
