/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Control ioctls. The software-emulated controls (flips, white balance,
 * gamma, auto gain) are merged in by the control layer; until a device has
 * any, every call goes to the device unchanged.
 */
#include <stdlib.h>
#include <string.h>

#include "priv.h"
#include "quirks.h"

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

/* Sensor orientation the driver reports: input status, then rotation. */
static unsigned driver_flips(struct v4lconvert_data *data)
{
	struct v4l2_input input;
	struct v4l2_control rot = { .id = V4L2_CID_CAMERA_SENSOR_ROTATION };
	unsigned flags = 0;
	int index = 0;

	memset(&input, 0, sizeof(input));
	if (!v4lc_dev_ioctl(data, VIDIOC_G_INPUT, &index)) {
		input.index = (uint32_t)index;
		if (!v4lc_dev_ioctl(data, VIDIOC_ENUMINPUT, &input)) {
			if (input.status & V4L2_IN_ST_HFLIP)
				flags |= V4LC_QUIRK_HFLIP;
			if (input.status & V4L2_IN_ST_VFLIP)
				flags |= V4LC_QUIRK_VFLIP;
		}
	}
	if (!v4lc_dev_ioctl(data, VIDIOC_G_CTRL, &rot) && rot.value == 180)
		flags ^= V4LC_QUIRK_HFLIP | V4LC_QUIRK_VFLIP;
	return flags;
}

/*
 * The camera's quirks: what the driver says about the sensor, then the
 * first matching rule of the quirk table; LIBV4LCONTROL_FLAGS (the
 * original's bit values) replaces all of it.
 */
void v4lc_controls_init(struct v4lconvert_data *data)
{
	const char *env = secure_getenv("LIBV4LCONTROL_FLAGS");
	struct v4lc_hwinfo hw;
	struct v4lc_quirk q;
	unsigned flags = driver_flips(data);

	v4lc_hwinfo_read(data->fd, &hw);
	if (v4lc_quirk_lookup(&hw, &q)) {
		flags |= q.flags;
		data->default_gamma = q.gamma;
	}
	if (env && *env)
		flags = (unsigned)strtoul(env, NULL, 0);
	data->quirks = flags;
	data->hflip = !!(flags & V4LC_QUIRK_HFLIP);
	data->vflip = !!(flags & V4LC_QUIRK_VFLIP);
}
