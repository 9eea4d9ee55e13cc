/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Control ioctls. The software-emulated controls (flips, white balance,
 * gamma, auto gain) are merged in by the control layer; until a device has
 * any, every call goes to the device unchanged.
 */
#include <stdlib.h>

#include "priv.h"

LIBV4L_PUBLIC int v4lconvert_vidioc_queryctrl(struct v4lconvert_data *data,
					      void *arg)
{
	return v4lc_dev_ioctl(data, VIDIOC_QUERYCTRL, arg);
}

LIBV4L_PUBLIC int v4lconvert_vidioc_g_ctrl(struct v4lconvert_data *data,
					   void *arg)
{
	return v4lc_dev_ioctl(data, VIDIOC_G_CTRL, arg);
}

LIBV4L_PUBLIC int v4lconvert_vidioc_s_ctrl(struct v4lconvert_data *data,
					   void *arg)
{
	return v4lc_dev_ioctl(data, VIDIOC_S_CTRL, arg);
}

LIBV4L_PUBLIC int v4lconvert_vidioc_g_ext_ctrls(struct v4lconvert_data *data,
						void *arg)
{
	return v4lc_dev_ioctl(data, VIDIOC_G_EXT_CTRLS, arg);
}

LIBV4L_PUBLIC int v4lconvert_vidioc_try_ext_ctrls(struct v4lconvert_data *data,
						  void *arg)
{
	return v4lc_dev_ioctl(data, VIDIOC_TRY_EXT_CTRLS, arg);
}

LIBV4L_PUBLIC int v4lconvert_vidioc_s_ext_ctrls(struct v4lconvert_data *data,
						void *arg)
{
	return v4lc_dev_ioctl(data, VIDIOC_S_EXT_CTRLS, arg);
}

/* LIBV4LCONTROL_FLAGS: bit 0 mirrored, bit 1 upside down (as the original). */
void v4lc_controls_init(struct v4lconvert_data *data)
{
	const char *flags = secure_getenv("LIBV4LCONTROL_FLAGS");

	if (flags) {
		unsigned long v = strtoul(flags, NULL, 0);

		data->hflip = !!(v & 1);
		data->vflip = !!(v & 2);
	}
}
