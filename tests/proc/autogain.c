/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Auto gain against a simulated sensor: a fake device whose frames'
 * brightness follows its EXPOSURE and GAIN controls,
 *     level = scene * (exposure + 1) * (16 + gain) / 1024, clipped to 255,
 * written by libv4lconvert through the device operations. The picture must
 * reach the target (within twice the dead zone) in a bounded number of
 * frames after each scene change and then hold still (no control written
 * for many frames: no oscillation).
 *
 * Gain-only mode: a sensor with GAIN and no EXPOSURE (or an exposure that is
 * read-only), level = scene * (16 + gain) / 64: convergence after scene
 * changes, nothing written inside the dead zone, the maximum gain on a scene
 * too dark for the target (reached monotonically, then no more writes), the
 * minimum on one too bright; a gain made inactive by a hardware auto gain is
 * never written; when the emulated control is offered.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libv4lconvert.h>

#include "../common/fakedev.h"
#include "../common/check.h"

#define W 64
#define H 48
#define TARGET_CID (V4L2_CTRL_CLASS_USER + 0x2000) /* the original's id */

static struct fakedev dev;
static int s_ctrl_calls, exp_writes, gain_writes;
/* flags the device reports for its EXPOSURE; the gain is INACTIVE while a
 * hardware AUTOGAIN control (if any) is on, as in vivid */
static uint32_t exp_flags, gain_flags;
static int gain_only; /* the sensor's brightness follows the gain alone */

static int32_t ctrl(uint32_t id)
{
	for (int i = 0; i < dev.n_ctrls; i++)
		if (dev.ctrl_ids[i] == id)
			return dev.ctrl_values[i];
	return -1;
}

static int counting_ioctl(void *priv, int fd, unsigned long req, void *arg)
{
	int ret;

	if (req == VIDIOC_S_CTRL) {
		const struct v4l2_control *c = arg;

		s_ctrl_calls++;
		exp_writes += c->id == V4L2_CID_EXPOSURE;
		gain_writes += c->id == V4L2_CID_GAIN;
	}
	ret = fakedev_ops.ioctl(priv, fd, req, arg);
	if (req == VIDIOC_QUERYCTRL && ret == 0) {
		struct v4l2_queryctrl *q = arg;

		if (q->id == V4L2_CID_EXPOSURE)
			q->flags |= exp_flags;
		if (q->id == V4L2_CID_GAIN)
			q->flags |= gain_flags;
		if (q->id == V4L2_CID_GAIN && ctrl(V4L2_CID_AUTOGAIN) > 0)
			q->flags |= V4L2_CTRL_FLAG_INACTIVE;
	}
	return ret;
}

static struct libv4l_dev_ops ops;

/* The sensor: one grey frame with a little texture. */
static int level_of(int scene)
{
	long v = gain_only ? (long)scene * (16 + ctrl(V4L2_CID_GAIN)) / 64
			   : (long)scene * (ctrl(V4L2_CID_EXPOSURE) + 1) *
				     (16 + ctrl(V4L2_CID_GAIN)) / 1024;

	return v > 255 ? 255 : (int)v;
}

static void sensor_frame(uint8_t *p, int scene)
{
	int level = level_of(scene);

	for (int i = 0; i < W * H * 3; i++) {
		int v = level + (int)(i % 7) - 3;

		p[i] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
	}
}

static int frame(struct v4lconvert_data *cv, int scene)
{
	static uint8_t src[W * H * 3], out[W * H * 3];
	struct v4l2_format f;

	memset(&f, 0, sizeof(f));
	f.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	f.fmt.pix.pixelformat = V4L2_PIX_FMT_RGB24;
	f.fmt.pix.width = W;
	f.fmt.pix.height = H;
	f.fmt.pix.bytesperline = W * 3;
	sensor_frame(src, scene);
	return v4lconvert_convert(cv, &f, &f, src, sizeof(src), out,
				  sizeof(out));
}

/*
 * Run until the sensor's level is within `tol` of target; returns the
 * frames it took (or -1 after max frames).
 */
static int converge(struct v4lconvert_data *cv, int scene, int target, int tol,
		    int max)
{
	for (int n = 0; n < max; n++) {
		if (abs(level_of(scene) - target) <= tol)
			return n;
		if (frame(cv, scene) < 0)
			return -1;
	}
	return -1;
}

static struct v4lconvert_data *open_sensor(int with_exposure)
{
	memset(&dev, 0, sizeof(dev));
	dev.driver = "sensor";
	dev.n_formats = 1;
	dev.formats[0].fourcc = V4L2_PIX_FMT_RGB24;
	dev.formats[0].n_sizes = 1;
	dev.formats[0].sizes[0][0] = W;
	dev.formats[0].sizes[0][1] = H;
	if (with_exposure) {
		dev.n_ctrls = 2;
		dev.ctrl_ids[0] = V4L2_CID_EXPOSURE; /* ascending ids */
		dev.ctrl_ids[1] = V4L2_CID_GAIN;
		dev.ctrl_values[0] = 20;
		dev.ctrl_values[1] = 0;
	} else {
		dev.n_ctrls = 1;
		dev.ctrl_ids[0] = V4L2_CID_GAIN;
	}
	gain_only = 0;
	exp_flags = gain_flags = 0;
	ops = fakedev_ops;
	ops.ioctl = counting_ioctl;
	unsetenv("LIBV4LCONTROL_CONTROLS");
	setenv("LIBV4LCONTROL_FLAGS", "0x10",
	       1); /* the quirk: wants auto gain */
	return v4lconvert_create_with_dev_ops(-1, &dev, &ops);
}

static void check_settles(struct v4lconvert_data *cv, int scene, int target,
			  const char *what)
{
	int n = converge(cv, scene, target, 12, 40), before;

	CHECK(n >= 0,
	      "%s: not within 12 of %d after 40 frames (level %d, "
	      "exposure %d, gain %d)",
	      what, target, level_of(scene), ctrl(V4L2_CID_EXPOSURE),
	      ctrl(V4L2_CID_GAIN));
	if (n >= 0)
		printf("%s: converged in %d frames (exposure %d gain %d level %d)\n",
		       what, n, ctrl(V4L2_CID_EXPOSURE), ctrl(V4L2_CID_GAIN),
		       level_of(scene));
	/* a few frames to settle inside the dead zone, then nothing moves */
	for (int k = 0; k < 12; k++)
		frame(cv, scene);
	before = s_ctrl_calls;
	for (int k = 0; k < 60; k++)
		frame(cv, scene);
	CHECK(s_ctrl_calls == before,
	      "%s: %d control writes after settling (oscillation)", what,
	      s_ctrl_calls - before);
	CHECK(abs(level_of(scene) - target) <= 12, "%s: held at %d", what,
	      level_of(scene));
}

/* ---- gain-only mode --------------------------------------------------- */

/*
 * A sensor with the quirk asking for auto gain and these controls (ids
 * ascending): ids[k] starting at values[k]; exp_flags and gain_flags as the
 * caller left them.
 */
static struct v4lconvert_data *open_gain_sensor(int n, const uint32_t *ids,
						const int32_t *values)
{
	memset(&dev, 0, sizeof(dev));
	dev.driver = "sensor";
	dev.n_formats = 1;
	dev.formats[0].fourcc = V4L2_PIX_FMT_RGB24;
	dev.formats[0].n_sizes = 1;
	dev.formats[0].sizes[0][0] = W;
	dev.formats[0].sizes[0][1] = H;
	dev.n_ctrls = n;
	for (int k = 0; k < n; k++) {
		dev.ctrl_ids[k] = ids[k];
		dev.ctrl_values[k] = values[k];
	}
	gain_only = 1;
	ops = fakedev_ops;
	ops.ioctl = counting_ioctl;
	unsetenv("LIBV4LCONTROL_CONTROLS");
	setenv("LIBV4LCONTROL_FLAGS", "0x10", 1);
	return v4lconvert_create_with_dev_ops(-1, &dev, &ops);
}

static int has_emulated_autogain(struct v4lconvert_data *cv)
{
	struct v4l2_queryctrl q;

	memset(&q, 0, sizeof(q));
	q.id = TARGET_CID; /* the hardware never has this one */
	return v4lconvert_vidioc_queryctrl(cv, &q) == 0;
}

/*
 * Scene change on a gain-only sensor: within 12 of the target in at most
 * `max` frames, then (after 12 frames inside the dead zone) no write for 60.
 */
static void gain_settles(struct v4lconvert_data *cv, int scene, int max,
			 const char *what)
{
	int w0 = s_ctrl_calls, n = converge(cv, scene, 100, 12, max), before;

	CHECK(n >= 0,
	      "%s: not within 12 of 100 after %d frames (level %d, "
	      "gain %d)",
	      what, max, level_of(scene), ctrl(V4L2_CID_GAIN));
	if (n >= 0)
		printf("%s: converged in %d frames, %d writes (gain %d level "
		       "%d)\n",
		       what, n, s_ctrl_calls - w0, ctrl(V4L2_CID_GAIN),
		       level_of(scene));
	for (int k = 0; k < 12; k++)
		frame(cv, scene);
	before = s_ctrl_calls;
	for (int k = 0; k < 60; k++)
		frame(cv, scene);
	CHECK(s_ctrl_calls == before, "%s: %d writes after settling", what,
	      s_ctrl_calls - before);
	CHECK(abs(level_of(scene) - 100) <= 12, "%s: held at %d", what,
	      level_of(scene));
}

/*
 * A scene the gain cannot bring to the target: the gain moves monotonically
 * (up when `up`) to `end` within 40 frames, then nothing is written for 60.
 */
static void gain_saturates(struct v4lconvert_data *cv, int scene, int up,
			   int32_t end, const char *what)
{
	int w0 = s_ctrl_calls, mono = 1, n = -1, before;
	int32_t prev = ctrl(V4L2_CID_GAIN);

	for (int k = 0; k < 40 && n < 0; k++) {
		int32_t g;

		frame(cv, scene);
		g = ctrl(V4L2_CID_GAIN);
		mono &= up ? g >= prev : g <= prev;
		prev = g;
		if (g == end)
			n = k + 1;
	}
	CHECK(n > 0 && mono,
	      "%s: gain %s monotonically to %d (%d after %d "
	      "frames, %d writes)",
	      what, up ? "up" : "down", end, ctrl(V4L2_CID_GAIN), n,
	      s_ctrl_calls - w0);
	if (n > 0)
		printf("%s: gain %d after %d frames, %d writes, level %d\n",
		       what, end, n, s_ctrl_calls - w0, level_of(scene));
	before = s_ctrl_calls;
	for (int k = 0; k < 60; k++)
		frame(cv, scene);
	CHECK(s_ctrl_calls == before && ctrl(V4L2_CID_GAIN) == end,
	      "%s: %d writes once at the end of the range (gain %d)", what,
	      s_ctrl_calls - before, ctrl(V4L2_CID_GAIN));
}

static void gain_only_tests(void)
{
	static const uint32_t gain_id[] = { V4L2_CID_GAIN };
	static const uint32_t exp_gain[] = { V4L2_CID_EXPOSURE, V4L2_CID_GAIN };
	static const uint32_t auto_gain[] = { V4L2_CID_AUTOGAIN,
					      V4L2_CID_GAIN };
	static const uint32_t exp_id[] = { V4L2_CID_EXPOSURE };
	const int32_t zero[2] = { 0, 0 }, at_target[1] = { 144 };
	const int32_t exp_fixed[2] = { 3, 0 }, hw_on[2] = { 1, 50 };
	struct v4lconvert_data *cv;
	int before;

	/* gain only: the emulated control is offered (the quirk asks) */
	cv = open_gain_sensor(1, gain_id, zero);
	exp_writes = 0;
	CHECK(has_emulated_autogain(cv),
	      "gain only: emulated auto gain offered");
	gain_settles(cv, 40, 30, "gain only, dark scene"); /* gain ~144 */
	gain_settles(cv, 120, 30, "gain only, brighter");  /* gain ~37 */
	gain_settles(cv, 25, 30, "gain only, darker");     /* gain ~240 */
	CHECK(exp_writes == 0, "no exposure written (%d)", exp_writes);
	/* too bright even at the minimum gain (level 255 clipped, 250 at 0) */
	gain_saturates(cv, 1000, 0, 0, "gain only, too bright");
	/* too dark for the target even at the maximum gain (42 at most) */
	gain_saturates(cv, 10, 1, 255, "gain only, too dark");
	gain_settles(cv, 40, 30, "gain only, back to dark");
	v4lconvert_destroy(cv);

	/* inside the dead zone from the first frame: never a write */
	cv = open_gain_sensor(1, gain_id, at_target);
	before = s_ctrl_calls;
	for (int scene = 38; scene <= 42; scene++) { /* levels 95..105 */
		for (int k = 0; k < 60; k++)
			frame(cv, scene);
	}
	CHECK(s_ctrl_calls == before && ctrl(V4L2_CID_GAIN) == 144,
	      "dead zone (levels 95..105): %d writes in 300 frames",
	      s_ctrl_calls - before);
	/* hysteresis: once inside, the zone is 12 wide; beyond, it moves */
	for (int k = 0; k < 60; k++)
		frame(cv, 44); /* level 110 */
	CHECK(s_ctrl_calls == before,
	      "level 110 after the dead zone: %d writes",
	      s_ctrl_calls - before);
	for (int k = 0; k < 3; k++)
		frame(cv, 46); /* level 115 */
	CHECK(s_ctrl_calls > before && ctrl(V4L2_CID_GAIN) < 144,
	      "level 115: gain lowered (%d)", ctrl(V4L2_CID_GAIN));
	v4lconvert_destroy(cv);

	/* an exposure that is read-only: the gain alone, the exposure untouched */
	exp_flags = V4L2_CTRL_FLAG_READ_ONLY;
	cv = open_gain_sensor(2, exp_gain, exp_fixed);
	exp_writes = 0;
	CHECK(has_emulated_autogain(cv), "read-only exposure: offered");
	gain_settles(cv, 40, 30, "read-only exposure, dark scene");
	CHECK(exp_writes == 0 && ctrl(V4L2_CID_EXPOSURE) == 3,
	      "read-only exposure not written (%d writes)", exp_writes);
	/* the same exposure inactive */
	exp_flags = V4L2_CTRL_FLAG_INACTIVE;
	gain_settles(cv, 120, 30, "inactive exposure, brighter");
	CHECK(exp_writes == 0 && ctrl(V4L2_CID_EXPOSURE) == 3,
	      "inactive exposure not written (%d writes)", exp_writes);
	v4lconvert_destroy(cv);
	exp_flags = 0;

	/* a hardware auto gain: no emulated one (the original's rule) ... */
	cv = open_gain_sensor(2, auto_gain, hw_on);
	CHECK(!has_emulated_autogain(cv), "hardware auto gain: none emulated");
	v4lconvert_destroy(cv);
	/* ... unless forced; then a gain made inactive by the hardware auto
	 * gain is left alone, and driven once that is off */
	setenv("LIBV4LCONTROL_CONTROLS", "0x30", 1);
	cv = v4lconvert_create_with_dev_ops(-1, &dev, &ops);
	CHECK(has_emulated_autogain(cv), "forced by LIBV4LCONTROL_CONTROLS");
	before = s_ctrl_calls;
	for (int k = 0; k < 60; k++)
		frame(cv, 40);
	CHECK(s_ctrl_calls == before && ctrl(V4L2_CID_GAIN) == 50,
	      "inactive gain (hardware auto gain on): %d writes",
	      s_ctrl_calls - before);
	dev.ctrl_values[0] = 0; /* the hardware auto gain off */
	gain_settles(cv, 40, 30, "hardware auto gain off, forced emulated");
	v4lconvert_destroy(cv);
	unsetenv("LIBV4LCONTROL_CONTROLS");

	/* no usable gain: an exposure alone, or a read-only gain */
	cv = open_gain_sensor(1, exp_id, zero);
	CHECK(!has_emulated_autogain(cv), "exposure only: none emulated");
	v4lconvert_destroy(cv);
	gain_flags = V4L2_CTRL_FLAG_READ_ONLY;
	cv = open_gain_sensor(1, gain_id, zero);
	CHECK(!has_emulated_autogain(cv),
	      "read-only gain alone: none emulated");
	v4lconvert_destroy(cv);
	gain_flags = 0;
}

int main(void)
{
	struct v4lconvert_data *cv = open_sensor(1);
	struct v4l2_queryctrl q;
	struct v4l2_control c;

	memset(&q, 0, sizeof(q));
	q.id = V4L2_CID_AUTOGAIN;
	CHECK(v4lconvert_vidioc_queryctrl(cv, &q) == 0 && q.default_value == 1,
	      "emulated auto gain, on by default");
	q.id = TARGET_CID;
	CHECK(v4lconvert_vidioc_queryctrl(cv, &q) == 0 && q.minimum == 0 &&
		      q.maximum == 255 && q.default_value == 100,
	      "auto gain target 0..255, default 100");

	/* dark scene: exposure goes up */
	check_settles(cv, 60, 100, "dark scene");
	/* four times brighter (clipped at first): down again */
	check_settles(cv, 240, 100, "bright scene");
	/* very dark: exposure at its maximum, then gain */
	check_settles(cv, 8, 100, "very dark scene");
	CHECK(ctrl(V4L2_CID_EXPOSURE) == 255 && ctrl(V4L2_CID_GAIN) > 0,
	      "gain used once exposure is at its maximum (%d, %d)",
	      ctrl(V4L2_CID_EXPOSURE), ctrl(V4L2_CID_GAIN));
	/* bright again: gain comes down before exposure */
	check_settles(cv, 200, 100, "bright again");
	CHECK(ctrl(V4L2_CID_GAIN) == 0, "gain back to its minimum (%d)",
	      ctrl(V4L2_CID_GAIN));

	/* a new target */
	c.id = TARGET_CID;
	c.value = 180;
	CHECK(v4lconvert_vidioc_s_ctrl(cv, &c) == 0, "set target");
	check_settles(cv, 200, 180, "target 180");

	/* off: the controls are left alone */
	c.id = V4L2_CID_AUTOGAIN;
	c.value = 0;
	CHECK(v4lconvert_vidioc_s_ctrl(cv, &c) == 0, "auto gain off");
	{
		int before = s_ctrl_calls;

		for (int k = 0; k < 30; k++)
			frame(cv, 20);
		CHECK(s_ctrl_calls == before, "no writes with auto gain off");
	}
	v4lconvert_destroy(cv);

	gain_only_tests();

	printf("proc-autogain: %d failures\n", failures);
	return failures != 0;
}
