/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The virtual camera as an installable plugin module: what a third-party
 * plugin in libv4l2's plugin directory looks like (the data symbol
 * `libv4l2_plugin`). Forwarders, because a data symbol cannot be
 * initialised from another object's.
 */
#include "libv4l-plugin.h"
#include "vcam/vcam.h"

static void *fwd_init(int fd)
{
	return v4lc_vcam_ops.init(fd);
}

static void fwd_close(void *priv)
{
	v4lc_vcam_ops.close(priv);
}

static int fwd_ioctl(void *priv, int fd, unsigned long request, void *arg)
{
	return v4lc_vcam_ops.ioctl(priv, fd, request, arg);
}

static ssize_t fwd_read(void *priv, int fd, void *buf, size_t n)
{
	return v4lc_vcam_ops.read(priv, fd, buf, n);
}

__attribute__((visibility("default")))
const struct libv4l_dev_ops libv4l2_plugin = {
	.init = fwd_init,
	.close = fwd_close,
	.ioctl = fwd_ioctl,
	.read = fwd_read,
};

/* For the test only: the camera's renderer, to compute expected frames. */
__attribute__((visibility("default")))
int libv4l_test_render(uint32_t fourcc, int w, int h, uint32_t seq,
		       uint8_t *dst, size_t size)
{
	return v4lc_vcam_render(fourcc, w, h, seq, dst, size);
}
