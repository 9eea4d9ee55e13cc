/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The virtual camera as libv4l2 loads it: the plugin module libv4l-vcam.so
 * in the plugin directory, exporting only the data symbol `libv4l2_plugin`
 * of <libv4l-plugin.h>. It claims only memfds named "libv4l-vcam:..."
 * (vcam.h) and declines every other device.
 */
#include "libv4l-plugin.h"
#include "vcam/priv.h"

__attribute__((visibility("default")))
const struct libv4l_dev_ops libv4l2_plugin = {
	.init = v4lc_vcam_init,
	.close = v4lc_vcam_close,
	.ioctl = v4lc_vcam_ioctl,
	.read = v4lc_vcam_read,
	.write = v4lc_vcam_write,
};
