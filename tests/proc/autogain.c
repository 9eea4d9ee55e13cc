/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Auto gain against a simulated sensor: a fake device whose frames'
 * brightness follows its EXPOSURE and GAIN controls,
 *     level = scene * (exposure + 1) * (16 + gain) / 1024, clipped to 255,
 * written by libv4lconvert through the device operations. The picture must
 * reach the target (within twice the dead zone) in a bounded number of
 * frames after each scene change and then hold still (no control written
 * for many frames: no oscillation).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libv4lconvert.h>

#include "../common/fakedev.h"

static int failures;

#define CHECK(cond, ...)                                                    \
	do {                                                                \
		if (!(cond)) {                                              \
			failures++;                                         \
			printf("FAIL line %d: ", __LINE__);                 \
			printf(__VA_ARGS__);                                \
			printf("\n");                                       \
		}                                                           \
	} while (0)

#define W 64
#define H 48
#define TARGET_CID (V4L2_CTRL_CLASS_USER + 0x2000) /* the original's id */

static struct fakedev dev;
static int s_ctrl_calls;

static int counting_ioctl(void *priv, int fd, unsigned long req, void *arg)
{
	if (req == VIDIOC_S_CTRL)
		s_ctrl_calls++;
	return fakedev_ops.ioctl(priv, fd, req, arg);
}

static struct libv4l_dev_ops ops;

static int32_t ctrl(uint32_t id)
{
	for (int i = 0; i < dev.n_ctrls; i++)
		if (dev.ctrl_ids[i] == id)
			return dev.ctrl_values[i];
	return -1;
}

/* The sensor: one grey frame with a little texture. */
static int level_of(int scene)
{
	long v = (long)scene * (ctrl(V4L2_CID_EXPOSURE) + 1) *
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
static int converge(struct v4lconvert_data *cv, int scene, int target,
		    int tol, int max)
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
	ops = fakedev_ops;
	ops.ioctl = counting_ioctl;
	unsetenv("LIBV4LCONTROL_CONTROLS");
	setenv("LIBV4LCONTROL_FLAGS", "0x10", 1); /* the quirk: wants auto gain */
	return v4lconvert_create_with_dev_ops(-1, &dev, &ops);
}

static void check_settles(struct v4lconvert_data *cv, int scene, int target,
			  const char *what)
{
	int n = converge(cv, scene, target, 12, 40), before;

	CHECK(n >= 0, "%s: not within 12 of %d after 40 frames (level %d, "
		      "exposure %d, gain %d)", what, target, level_of(scene),
	      ctrl(V4L2_CID_EXPOSURE), ctrl(V4L2_CID_GAIN));
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

	/* without an exposure control there is no emulated auto gain */
	cv = open_sensor(0);
	memset(&q, 0, sizeof(q));
	q.id = V4L2_CID_AUTOGAIN;
	errno = 0;
	CHECK(v4lconvert_vidioc_queryctrl(cv, &q) == -1,
	      "no auto gain without exposure");
	v4lconvert_destroy(cv);

	printf("proc-autogain: %d failures\n", failures);
	return failures != 0;
}
