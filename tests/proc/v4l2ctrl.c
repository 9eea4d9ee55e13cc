/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The emulated controls through libv4l2 on the virtual camera (which has
 * BRIGHTNESS and FOCUS_ABSOLUTE of its own), all six enabled by
 * LIBV4LCONTROL_CONTROLS: QUERYCTRL and QUERY_EXT_CTRL enumeration with
 * V4L2_CTRL_FLAG_NEXT_CTRL (merged, ascending, each once, the same list),
 * exact queries, QUERYMENU, G/S_CTRL, G/TRY/S_EXT_CTRLS with error_idx,
 * the libv4l2 scaled helpers, and the dst-only format list.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/videodev2.h>

#include <libv4l2.h>

#include "../common/check.h"

#define TARGET_CID (V4L2_CTRL_CLASS_USER + 0x2000)

static const uint32_t fakes[6] = {
	V4L2_CID_AUTO_WHITE_BALANCE,
	V4L2_CID_HFLIP,
	V4L2_CID_VFLIP,
	V4L2_CID_GAMMA,
	V4L2_CID_AUTOGAIN,
	TARGET_CID,
};

static int list_queryctrl(int fd, uint32_t *ids, int max)
{
	struct v4l2_queryctrl q;
	int n = 0;

	memset(&q, 0, sizeof(q));
	q.id = V4L2_CTRL_FLAG_NEXT_CTRL;
	while (n < max && v4l2_ioctl(fd, VIDIOC_QUERYCTRL, &q) == 0) {
		ids[n++] = q.id;
		q.id |= V4L2_CTRL_FLAG_NEXT_CTRL;
	}
	return n;
}

static int list_ext(int fd, uint32_t *ids, int max, uint32_t flags)
{
	struct v4l2_query_ext_ctrl q;
	int n = 0;

	memset(&q, 0, sizeof(q));
	q.id = flags;
	while (n < max && v4l2_ioctl(fd, VIDIOC_QUERY_EXT_CTRL, &q) == 0) {
		ids[n++] = q.id;
		q.id |= flags;
	}
	return n;
}

static int count_of(const uint32_t *ids, int n, uint32_t id)
{
	int c = 0;

	for (int i = 0; i < n; i++)
		c += ids[i] == id;
	return c;
}

int main(void)
{
	char shm[128];
	uint32_t a[64], b[64];
	int fd, na, nb, asc = 1;

	snprintf(shm, sizeof(shm), "/libv4lc-%u:platform:vcam:Virtual camera",
		 (unsigned)geteuid());
	shm_unlink(shm); /* earlier runs' settings */
	setenv("LIBV4LCONTROL_CONTROLS", "0x3f", 1);
	unsetenv("LIBV4LCONTROL_FLAGS");
	fd = memfd_create("libv4l-vcam:YUYV:64x48", 0);
	CHECK(fd >= 0 && v4l2_fd_open(fd, 0) == fd, "open the virtual camera");

	na = list_queryctrl(fd, a, 64);
	for (int i = 1; i < na; i++)
		asc &= a[i] > a[i - 1];
	CHECK(asc, "QUERYCTRL enumeration ascending");
	for (int k = 0; k < 6; k++)
		CHECK(count_of(a, na, fakes[k]) == 1,
		      "emulated %#x listed once", fakes[k]);
	CHECK(count_of(a, na, V4L2_CID_BRIGHTNESS) == 1 &&
		      count_of(a, na, V4L2_CID_FOCUS_ABSOLUTE) == 1,
	      "the camera's own controls listed");

	nb = list_ext(fd, b, 64, V4L2_CTRL_FLAG_NEXT_CTRL);
	CHECK(na == nb && !memcmp(a, b, sizeof(a[0]) * (size_t)na),
	      "QUERY_EXT_CTRL lists the same %d controls (got %d)", na, nb);
	nb = list_ext(fd, b, 64, V4L2_CTRL_FLAG_NEXT_COMPOUND);
	for (int k = 0; k < 6; k++)
		CHECK(!count_of(b, nb, fakes[k]), "not compound: %#x",
		      fakes[k]);

	{
		struct v4l2_query_ext_ctrl e;

		memset(&e, 0, sizeof(e));
		e.id = TARGET_CID;
		CHECK(v4l2_ioctl(fd, VIDIOC_QUERY_EXT_CTRL, &e) == 0 &&
			      e.type == V4L2_CTRL_TYPE_INTEGER &&
			      e.minimum == 0 && e.maximum == 255 &&
			      e.step == 1 && e.default_value == 100 &&
			      e.elems == 1 && e.elem_size == 4 &&
			      !strcmp(e.name, "Auto Gain Target"),
		      "QUERY_EXT_CTRL exact: auto gain target");
		memset(&e, 0, sizeof(e));
		e.id = V4L2_CID_GAMMA;
		CHECK(v4l2_ioctl(fd, VIDIOC_QUERY_EXT_CTRL, &e) == 0 &&
			      e.minimum == 500 && e.maximum == 3000 &&
			      e.default_value == 1000 &&
			      (e.flags & V4L2_CTRL_FLAG_SLIDER),
		      "QUERY_EXT_CTRL exact: gamma");
		memset(&e, 0, sizeof(e));
		e.id = V4L2_CID_BRIGHTNESS;
		CHECK(v4l2_ioctl(fd, VIDIOC_QUERY_EXT_CTRL, &e) == 0 &&
			      e.maximum == 255,
		      "QUERY_EXT_CTRL exact: the camera's brightness");
	}
	{
		struct v4l2_querymenu m;

		memset(&m, 0, sizeof(m));
		m.id = V4L2_CID_HFLIP;
		errno = 0;
		CHECK(v4l2_ioctl(fd, VIDIOC_QUERYMENU, &m) == -1 &&
			      errno == EINVAL,
		      "QUERYMENU on an emulated control: EINVAL");
	}
	{
		struct v4l2_control c = { .id = V4L2_CID_GAMMA, .value = 1500 };

		CHECK(v4l2_ioctl(fd, VIDIOC_S_CTRL, &c) == 0, "S_CTRL gamma");
		c.value = 0;
		CHECK(v4l2_ioctl(fd, VIDIOC_G_CTRL, &c) == 0 && c.value == 1500,
		      "G_CTRL gamma");
		c.value = 3001;
		errno = 0;
		CHECK(v4l2_ioctl(fd, VIDIOC_S_CTRL, &c) == -1 &&
			      errno == EINVAL,
		      "S_CTRL out of range");
		/* scaled helpers: 0..65535 over 500..3000 */
		CHECK(v4l2_set_control(fd, V4L2_CID_GAMMA, 65535) == 0 &&
			      v4l2_get_control(fd, V4L2_CID_GAMMA) == 65535,
		      "v4l2_set/get_control on gamma");
		c.value = 0;
		v4l2_ioctl(fd, VIDIOC_G_CTRL, &c);
		CHECK(c.value == 3000, "65535 is 3000 (%d)", c.value);
	}
	{
		struct v4l2_ext_control c[3] = {
			{ .id = V4L2_CID_BRIGHTNESS, .value = 50 },
			{ .id = V4L2_CID_GAMMA, .value = 9999 },
			{ .id = V4L2_CID_HFLIP, .value = 1 },
		};
		struct v4l2_ext_controls ec;

		memset(&ec, 0, sizeof(ec));
		ec.which = V4L2_CTRL_WHICH_CUR_VAL;
		ec.count = 3;
		ec.controls = c;
		CHECK(v4l2_ioctl(fd, VIDIOC_TRY_EXT_CTRLS, &ec) == -1 &&
			      ec.error_idx == 1,
		      "TRY_EXT_CTRLS: bad gamma at index 1 (%u)", ec.error_idx);
		CHECK(v4l2_ioctl(fd, VIDIOC_S_EXT_CTRLS, &ec) == -1 &&
			      ec.error_idx == 1,
		      "S_EXT_CTRLS: bad gamma at index 1 (%u)", ec.error_idx);
		c[1].value = 1200;
		CHECK(v4l2_ioctl(fd, VIDIOC_S_EXT_CTRLS, &ec) == 0,
		      "S_EXT_CTRLS fake and real");
		memset(c, 0, sizeof(c));
		c[0].id = V4L2_CID_HFLIP;
		c[1].id = V4L2_CID_BRIGHTNESS;
		c[2].id = V4L2_CID_GAMMA;
		CHECK(v4l2_ioctl(fd, VIDIOC_G_EXT_CTRLS, &ec) == 0 &&
			      c[0].value == 1 && c[1].value == 50 &&
			      c[2].value == 1200,
		      "G_EXT_CTRLS: %d %d %d", c[0].value, c[1].value,
		      c[2].value);
		ec.which = V4L2_CTRL_WHICH_DEF_VAL;
		CHECK(v4l2_ioctl(fd, VIDIOC_G_EXT_CTRLS, &ec) == 0 &&
			      c[0].value == 0 && c[1].value == 128 &&
			      c[2].value == 1000,
		      "G_EXT_CTRLS defaults: %d %d %d", c[0].value, c[1].value,
		      c[2].value);
		errno = 0;
		CHECK(v4l2_ioctl(fd, VIDIOC_S_EXT_CTRLS, &ec) == -1 &&
			      errno == EINVAL,
		      "S_EXT_CTRLS of the defaults: EINVAL");
	}
	{
		/* dst-only: the four destinations and the native YUYV */
		struct v4l2_fmtdesc d;
		int rgb = 0, yuyv = 0, n = 0;

		for (uint32_t i = 0; i < 16; i++) {
			memset(&d, 0, sizeof(d));
			d.index = i;
			d.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
			if (v4l2_ioctl(fd, VIDIOC_ENUM_FMT, &d))
				break;
			rgb |= d.pixelformat == V4L2_PIX_FMT_RGB24;
			yuyv |= d.pixelformat == V4L2_PIX_FMT_YUYV;
			n++;
		}
		CHECK(rgb && yuyv && n == 5, "formats: %d", n);
	}
	v4l2_close(fd);
	shm_unlink(shm);
	printf("proc-v4l2ctrl: %d failures\n", failures);
	return failures != 0;
}
