/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Control ioctls with the software-emulated ("fake") controls merged in:
 * automatic white balance, horizontal and vertical flip, gamma, automatic
 * gain and its target, as the original offers them. A fake control exists
 * when the camera needs software help (a quirk, or only device-specific
 * formats) and the hardware lacks that control; LIBV4LCONTROL_CONTROLS (a
 * bit mask in the order of `fakes` below) overrides the set.
 *
 * On a camera flagged as mirrored or upside down, the flip controls are
 * relative to the corrected picture: 0 shows it the right way up.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "priv.h"
#include "private_api.h"
#include "quirks.h"

/* The original's private id for the auto-gain target (no standard CID). */
#define V4LC_CID_AUTOGAIN_TARGET (V4L2_CTRL_CLASS_USER + 0x2000)

static const struct fake {
	uint32_t id;
	const char *name;
	uint32_t type;
	int32_t min, max, step, def;
	uint32_t flags;
} fakes[V4LC_FAKE_CONTROLS] = {
	{ V4L2_CID_AUTO_WHITE_BALANCE, "White Balance, Automatic",
	  V4L2_CTRL_TYPE_BOOLEAN, 0, 1, 1, 0, 0 },
	{ V4L2_CID_HFLIP, "Horizontal Flip", V4L2_CTRL_TYPE_BOOLEAN, 0, 1, 1, 0,
	  0 },
	{ V4L2_CID_VFLIP, "Vertical Flip", V4L2_CTRL_TYPE_BOOLEAN, 0, 1, 1, 0,
	  0 },
	{ V4L2_CID_GAMMA, "Gamma", V4L2_CTRL_TYPE_INTEGER, 500, 3000, 1, 1000,
	  V4L2_CTRL_FLAG_SLIDER },
	{ V4L2_CID_AUTOGAIN, "Gain, Automatic", V4L2_CTRL_TYPE_BOOLEAN, 0, 1, 1,
	  1, 0 },
	{ V4LC_CID_AUTOGAIN_TARGET, "Auto Gain Target", V4L2_CTRL_TYPE_INTEGER,
	  0, 255, 1, 100, V4L2_CTRL_FLAG_SLIDER },
};

static int fake_index(const struct v4lconvert_data *data, uint32_t id)
{
	for (int i = 0; i < V4LC_FAKE_CONTROLS; i++)
		if (fakes[i].id == id && (data->fake_enabled & (1u << i)))
			return i;
	return -1;
}

static int32_t fake_default(const struct v4lconvert_data *data, int i)
{
	if (fakes[i].id == V4L2_CID_GAMMA && data->default_gamma)
		return data->default_gamma;
	if (fakes[i].id == V4L2_CID_AUTO_WHITE_BALANCE)
		return !!(data->quirks & V4LC_QUIRK_WB);
	return fakes[i].def;
}

void v4lc_fake_range(const struct v4lconvert_data *data, int i, int32_t *min,
		     int32_t *max, int32_t *def)
{
	*min = fakes[i].min;
	*max = fakes[i].max;
	*def = fake_default(data, i);
}

/*
 * A new snapshot of the shared values, in one read, validated: another
 * process (of the same user) may have written anything there; out of range
 * means the default. Every reader until the next snapshot uses it.
 */
static void snapshot(struct v4lconvert_data *data)
{
	int32_t v[V4LC_FAKE_CONTROLS];

	if (!data->shared)
		return;
	v4lc_ctrlstore_load(data, v, V4LC_FAKE_CONTROLS);
	for (int i = 0; i < V4LC_FAKE_CONTROLS; i++)
		data->fake_value[i] = v[i] < fakes[i].min || v[i] > fakes[i].max
					      ? fake_default(data, i)
					      : v[i];
}

int32_t v4lc_fake_get(const struct v4lconvert_data *data, int i)
{
	return data->fake_value[i];
}

static void fill_queryctrl(const struct v4lconvert_data *data, int i,
			   struct v4l2_queryctrl *q)
{
	memset(q, 0, sizeof(*q));
	q->id = fakes[i].id;
	q->type = fakes[i].type;
	strncpy((char *)q->name, fakes[i].name, sizeof(q->name) - 1);
	q->minimum = fakes[i].min;
	q->maximum = fakes[i].max;
	q->step = fakes[i].step;
	q->default_value = fake_default(data, i);
	q->flags = fakes[i].flags;
}

/* Flips actually applied: the quirk's correction, toggled by the controls. */
static void update_flips(struct v4lconvert_data *data)
{
	int h = fake_index(data, V4L2_CID_HFLIP),
	    v = fake_index(data, V4L2_CID_VFLIP);

	data->hflip = !!(data->quirks & V4LC_QUIRK_HFLIP) ^
		      (h >= 0 && v4lc_fake_get(data, h));
	data->vflip = !!(data->quirks & V4LC_QUIRK_VFLIP) ^
		      (v >= 0 && v4lc_fake_get(data, v));
}

void v4lc_controls_refresh(struct v4lconvert_data *data)
{
	if (data->shared) {
		snapshot(data);
		update_flips(data);
	}
}

int v4lc_query_emulated_ctrl(struct v4lconvert_data *data,
			     struct v4l2_queryctrl *q)
{
	uint32_t id = q->id & ~V4L2_CTRL_FLAG_NEXT_CTRL;
	int i = -1;

	if (!(q->id & V4L2_CTRL_FLAG_NEXT_CTRL)) {
		i = fake_index(data, id);
	} else {
		for (int k = 0; k < V4LC_FAKE_CONTROLS; k++)
			if ((data->fake_enabled & (1u << k)) &&
			    fakes[k].id > id &&
			    (i < 0 || fakes[k].id < fakes[i].id))
				i = k;
	}
	if (i < 0) {
		errno = EINVAL;
		return -1;
	}
	fill_queryctrl(data, i, q);
	return 0;
}

LIBV4L_PUBLIC int v4lconvert_vidioc_queryctrl(struct v4lconvert_data *data,
					      void *arg)
{
	struct v4l2_queryctrl *q = arg, hw;
	uint32_t id = q->id;
	int i = fake_index(data, id), next = -1, ret;

	if (i >= 0) {
		fill_queryctrl(data, i, q);
		return 0;
	}
	if (!(id & V4L2_CTRL_FLAG_NEXT_CTRL) || !data->fake_enabled)
		return v4lc_dev_ioctl(data, VIDIOC_QUERYCTRL, arg);

	/* Enumeration: the lower of the driver's next id and ours. */
	for (int k = 0; k < V4LC_FAKE_CONTROLS; k++) {
		uint32_t fid = fakes[k].id;

		if ((data->fake_enabled & (1u << k)) &&
		    fid > (id & ~V4L2_CTRL_FLAG_NEXT_CTRL) &&
		    (next < 0 || fid < fakes[next].id))
			next = k;
	}
	hw = *q;
	ret = v4lc_dev_ioctl(data, VIDIOC_QUERYCTRL, &hw);
	/* a driver control shadowed by a fake one is skipped past */
	while (ret == 0 && fake_index(data, hw.id) >= 0) {
		uint32_t skip = hw.id;

		memset(&hw, 0, sizeof(hw));
		hw.id = skip | V4L2_CTRL_FLAG_NEXT_CTRL;
		ret = v4lc_dev_ioctl(data, VIDIOC_QUERYCTRL, &hw);
	}
	if (next >= 0 && (ret != 0 || fakes[next].id < hw.id)) {
		fill_queryctrl(data, next, q);
		return 0;
	}
	if (ret == 0)
		*q = hw;
	return ret;
}

static int set_fake(struct v4lconvert_data *data, int i, int32_t value,
		    int apply)
{
	if (value < fakes[i].min || value > fakes[i].max) {
		errno = ERANGE;
		return -1;
	}
	if (apply) {
		/* into the snapshot too (the flips, readers until the next) */
		data->fake_value[i] = value;
		if (data->shared)
			v4lc_ctrlstore_store(data, i, value);
		update_flips(data);
	}
	return 0;
}

LIBV4L_PUBLIC int v4lconvert_vidioc_g_ctrl(struct v4lconvert_data *data,
					   void *arg)
{
	struct v4l2_control *c = arg;
	int i = fake_index(data, c->id);

	if (i < 0)
		return v4lc_dev_ioctl(data, VIDIOC_G_CTRL, arg);
	snapshot(data);
	c->value = v4lc_fake_get(data, i);
	return 0;
}

LIBV4L_PUBLIC int v4lconvert_vidioc_s_ctrl(struct v4lconvert_data *data,
					   void *arg)
{
	struct v4l2_control *c = arg;
	int i = fake_index(data, c->id);

	if (i < 0)
		return v4lc_dev_ioctl(data, VIDIOC_S_CTRL, arg);
	/* the other values fresh: the flips are recomputed from them */
	snapshot(data);
	if (set_fake(data, i, c->value, 1)) {
		errno = EINVAL; /* S_CTRL reports out-of-range values so */
		return -1;
	}
	return 0;
}

/*
 * Extended controls: the fake ones are served here, the rest go to the
 * device in one call (so its validation stays atomic), and error_idx is
 * mapped back to the caller's array.
 */
static int ext_ctrls(struct v4lconvert_data *data, unsigned long request,
		     struct v4l2_ext_controls *ec)
{
	struct v4l2_ext_controls sub = *ec;
	struct v4l2_ext_control *hw;
	uint32_t *map, n = 0;
	int ret = 0, has_fake = 0;

	for (uint32_t k = 0; k < ec->count; k++)
		has_fake |= fake_index(data, ec->controls[k].id) >= 0;
	if (!has_fake)
		return v4lc_dev_ioctl(data, request, ec);
	if (request != VIDIOC_G_EXT_CTRLS &&
	    ec->which == V4L2_CTRL_WHICH_DEF_VAL) {
		/* defaults can be read, not set (as the kernel answers) */
		ec->error_idx = ec->count;
		errno = EINVAL;
		return -1;
	}

	hw = calloc(ec->count, sizeof(*hw));
	map = calloc(ec->count, sizeof(*map));
	if (!hw || !map) {
		free(hw);
		free(map);
		errno = ENOMEM;
		return -1;
	}
	for (uint32_t k = 0; k < ec->count; k++) {
		int i = fake_index(data, ec->controls[k].id);

		if (i < 0) {
			map[n] = k;
			hw[n++] = ec->controls[k];
		} else if (request != VIDIOC_G_EXT_CTRLS &&
			   set_fake(data, i, ec->controls[k].value, 0)) {
			ec->error_idx = k;
			ret = -1;
			break;
		}
	}
	if (!ret && n) {
		sub.count = n;
		sub.controls = hw;
		ret = v4lc_dev_ioctl(data, request, &sub);
		for (uint32_t k = 0; k < n; k++)
			ec->controls[map[k]] = hw[k];
		if (ret)
			ec->error_idx = sub.error_idx < n ? map[sub.error_idx]
							  : ec->count;
	}
	/* one read for all of them (set: the others' values, for the flips) */
	if (!ret && request != VIDIOC_TRY_EXT_CTRLS)
		snapshot(data);
	if (!ret) {
		for (uint32_t k = 0; k < ec->count; k++) {
			int i = fake_index(data, ec->controls[k].id);

			if (i < 0)
				continue;
			if (request == VIDIOC_G_EXT_CTRLS)
				ec->controls[k].value =
					ec->which == V4L2_CTRL_WHICH_DEF_VAL
						? fake_default(data, i)
						: v4lc_fake_get(data, i);
			else if (request == VIDIOC_S_EXT_CTRLS)
				set_fake(data, i, ec->controls[k].value, 1);
		}
	}
	free(hw);
	free(map);
	return ret;
}

LIBV4L_PUBLIC int v4lconvert_vidioc_g_ext_ctrls(struct v4lconvert_data *data,
						void *arg)
{
	return ext_ctrls(data, VIDIOC_G_EXT_CTRLS, arg);
}

LIBV4L_PUBLIC int v4lconvert_vidioc_try_ext_ctrls(struct v4lconvert_data *data,
						  void *arg)
{
	return ext_ctrls(data, VIDIOC_TRY_EXT_CTRLS, arg);
}

LIBV4L_PUBLIC int v4lconvert_vidioc_s_ext_ctrls(struct v4lconvert_data *data,
						void *arg)
{
	return ext_ctrls(data, VIDIOC_S_EXT_CTRLS, arg);
}

/* Sensor orientation the driver reports: input status, then rotation. */
unsigned v4lc_driver_flips(struct v4lconvert_data *data)
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

/* Hardware control that exists and is not disabled (with `more` flags
 * also absent)? */
static int hw_flags_clear(struct v4lconvert_data *data, uint32_t id,
			  uint32_t more)
{
	struct v4l2_queryctrl q = { .id = id };

	return !v4lc_dev_ioctl(data, VIDIOC_QUERYCTRL, &q) &&
	       !(q.flags & (V4L2_CTRL_FLAG_DISABLED | more));
}

static int hw_has(struct v4lconvert_data *data, uint32_t id)
{
	return hw_flags_clear(data, id, 0);
}

/*
 * Which fake controls exist (the original's rules): white balance, flips and
 * gamma when the camera has a quirk or offers only formats applications
 * cannot decode, for each one the hardware lacks; auto gain and its target
 * when the quirk asks for it and the hardware has exposure and gain but no
 * usable auto gain of its own. Beyond the original, under the same quirk
 * and without a hardware auto gain, a camera with a gain but no exposure
 * gets them too (gain-only auto gain) when that gain is writable.
 */
static void enable_fakes(struct v4lconvert_data *data)
{
	const char *env = secure_getenv("LIBV4LCONTROL_CONTROLS");
	unsigned on = 0;

	if (data->quirks || data->all_need_conversion)
		for (int i = 0; i < 4; i++)
			if (!hw_has(data, fakes[i].id))
				on |= 1u << i;
	if ((data->quirks & V4LC_QUIRK_AUTOGAIN) &&
	    hw_has(data, V4L2_CID_GAIN) &&
	    (hw_has(data, V4L2_CID_EXPOSURE) ||
	     hw_has(data, V4L2_CID_EXPOSURE_ABSOLUTE) ||
	     hw_flags_clear(data, V4L2_CID_GAIN, V4L2_CTRL_FLAG_READ_ONLY)) &&
	    !hw_has(data, V4L2_CID_AUTOGAIN))
		on |= 3u << 4;
	if (env && *env)
		on = (unsigned)strtoul(env, NULL, 0);
	data->fake_enabled = on & ((1u << V4LC_FAKE_CONTROLS) - 1);
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
	unsigned flags = v4lc_driver_flips(data);

	v4lc_hwinfo_read(data, &hw);
	if (v4lc_quirk_lookup(&hw, &q, NULL)) {
		flags |= q.flags;
		data->default_gamma = q.gamma;
	}
	if (env && *env)
		flags = (unsigned)strtoul(env, NULL, 0);
	data->quirks = flags;
	enable_fakes(data);
	for (int i = 0; i < V4LC_FAKE_CONTROLS; i++)
		data->fake_value[i] = fake_default(data, i);
	/* shared with this user's other programs (initialised when new) */
	if (data->fake_enabled)
		v4lc_ctrlstore_open(data);
	snapshot(data);
	update_flips(data);
}
