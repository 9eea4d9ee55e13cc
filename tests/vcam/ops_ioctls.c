/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * vcam-ops: the plugin's claim on memfds by name, and the ioctls that
 * describe the camera (capabilities, formats, sizes, intervals, inputs,
 * controls) with their error codes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/videodev2.h>

#include "ops.h"
#include "../common/check.h"

void test_claim(void)
{
	struct cam c;
	char name[300];
	char path[] = "/tmp/vcam-test-XXXXXX";
	int fd;

	CHECK(declines("something-else"));
	CHECK(declines("libv4l-vcamera"));
	CHECK(declines("libv4l-vcam:XXXX"));
	CHECK(declines("libv4l-vcam:YUYV:640"));
	CHECK(declines("libv4l-vcam:YUYV:641x480"));
	CHECK(declines("libv4l-vcam:YUYV:640x480:flip=x"));
	CHECK(declines("libv4l-vcam:YUYV,YUYV"));
	CHECK(declines("libv4l-vcam:YUYV:bogus"));
	CHECK(declines("libv4l-vcam:YUYV:slow=x"));
	CHECK(declines("libv4l-vcam:YUYV:slow=60001"));
	CHECK(!declines("libv4l-vcam"));
	CHECK(!declines("libv4l-vcam:"));
	CHECK(!declines("libv4l-vcam:MJPG:1280x720"));
	CHECK(!declines("libv4l-vcam:YUYV,MJPG,RGB3:flip=hv:nopace"));
	CHECK(!declines("libv4l-vcam:BGGR"));
	CHECK(!declines("libv4l-vcam:YUYV:slow=20"));

	/* A regular file and a pipe are not cameras. */
	fd = mkstemp(path);
	CHECK(fd >= 0);
	if (fd >= 0) {
		CHECK(ops->init(fd) == NULL);
		close(fd);
		unlink(path);
	}
	{
		int p[2];

		CHECK(pipe(p) == 0);
		CHECK(ops->init(p[0]) == NULL);
		close(p[0]);
		close(p[1]);
	}

	CHECK(v4lc_vcam_name(name, sizeof(name), "MJPG:1280x720") == 0);
	CHECK(!strcmp(name, "libv4l-vcam:MJPG:1280x720"));
	CHECK(v4lc_vcam_name(name, 10, "MJPG") == -ENAMETOOLONG);

	/* Default camera: YUYV 640x480. */
	if (open_cam(&c, NULL) == 0) {
		struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };

		CHECK(xio(&c, VIDIOC_G_FMT, &f) == 0);
		CHECK(f.fmt.pix.pixelformat == V4L2_PIX_FMT_YUYV);
		CHECK(f.fmt.pix.width == 640 && f.fmt.pix.height == 480);
		close_cam(&c);
	} else {
		CHECK(!"default camera");
	}
}

/* QUERYCAP: a streaming capture device, without read() or write(). */
static void caps_query(struct cam *c)
{
	struct v4l2_capability cap;
	char buf[8];

	memset(&cap, 0xa5, sizeof(cap));
	CHECK(xio(c, VIDIOC_QUERYCAP, &cap) == 0);
	CHECK(!strcmp((char *)cap.driver, "v4l2-vcam"));
	CHECK(!strcmp((char *)cap.card, "Virtual camera"));
	CHECK(!strcmp((char *)cap.bus_info, "platform:vcam"));
	CHECK(cap.device_caps == (V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING));
	CHECK(cap.capabilities == (V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING |
				   V4L2_CAP_DEVICE_CAPS));
	CHECK(!(cap.capabilities & V4L2_CAP_READWRITE));
	CHECK(ops->read(c->priv, c->fd, buf, sizeof(buf)) == -1 &&
	      errno == EINVAL);
	CHECK(ops->write(c->priv, c->fd, buf, sizeof(buf)) == -1 &&
	      errno == EINVAL);
}

/* ENUM_FMT: the spec's three formats in its order, MJPG compressed. */
static void caps_enum_formats(struct cam *c)
{
	static const uint32_t want[] = { V4L2_PIX_FMT_YUYV, V4L2_PIX_FMT_MJPEG,
					 V4L2_PIX_FMT_RGB24 };
	struct v4l2_fmtdesc d;

	for (unsigned i = 0; i < 3; i++) {
		memset(&d, 0, sizeof(d));
		d.index = i;
		d.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		CHECK(xio(c, VIDIOC_ENUM_FMT, &d) == 0);
		CHECK(d.pixelformat == want[i]);
		CHECK(d.description[0] != 0);
		CHECK(!!(d.flags & V4L2_FMT_FLAG_COMPRESSED) == (i == 1));
	}
	d.index = 3;
	CHECK(xio(c, VIDIOC_ENUM_FMT, &d) == EINVAL);
	d.index = 0;
	d.type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
	CHECK(xio(c, VIDIOC_ENUM_FMT, &d) == EINVAL);
}

/* Sizes: the standard three and 800x600, by area. */
static void caps_sizes(struct cam *c)
{
	static const uint32_t sz[4][2] = {
		{ 320, 240 }, { 640, 480 }, { 800, 600 }, { 1280, 720 }
	};
	struct v4l2_frmsizeenum s;

	for (unsigned i = 0; i < 4; i++) {
		memset(&s, 0, sizeof(s));
		s.index = i;
		s.pixel_format = V4L2_PIX_FMT_MJPEG;
		CHECK(xio(c, VIDIOC_ENUM_FRAMESIZES, &s) == 0);
		CHECK(s.type == V4L2_FRMSIZE_TYPE_DISCRETE);
		CHECK(s.discrete.width == sz[i][0] &&
		      s.discrete.height == sz[i][1]);
	}
	s.index = 4;
	CHECK(xio(c, VIDIOC_ENUM_FRAMESIZES, &s) == EINVAL);
	s.index = 0;
	s.pixel_format = V4L2_PIX_FMT_NV12;
	CHECK(xio(c, VIDIOC_ENUM_FRAMESIZES, &s) == EINVAL);
}

/* Intervals: 1/30 and 1/15 for each size. */
static void caps_intervals(struct cam *c)
{
	struct v4l2_frmivalenum e;

	memset(&e, 0, sizeof(e));
	e.pixel_format = V4L2_PIX_FMT_YUYV;
	e.width = 800;
	e.height = 600;
	CHECK(xio(c, VIDIOC_ENUM_FRAMEINTERVALS, &e) == 0);
	CHECK(e.type == V4L2_FRMIVAL_TYPE_DISCRETE);
	CHECK(e.discrete.numerator == 1 && e.discrete.denominator == 30);
	e.index = 1;
	CHECK(xio(c, VIDIOC_ENUM_FRAMEINTERVALS, &e) == 0);
	CHECK(e.discrete.numerator == 1 && e.discrete.denominator == 15);
	e.index = 2;
	CHECK(xio(c, VIDIOC_ENUM_FRAMEINTERVALS, &e) == EINVAL);
	e.index = 0;
	e.width = 801;
	CHECK(xio(c, VIDIOC_ENUM_FRAMEINTERVALS, &e) == EINVAL);
}

/* Frame rate: 30 or 15 per second, others rounded to 30. */
static void caps_frame_rate(struct cam *c)
{
	struct v4l2_streamparm p;

	memset(&p, 0, sizeof(p));
	p.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	CHECK(xio(c, VIDIOC_G_PARM, &p) == 0);
	CHECK(p.parm.capture.capability & V4L2_CAP_TIMEPERFRAME);
	CHECK(p.parm.capture.timeperframe.numerator == 1 &&
	      p.parm.capture.timeperframe.denominator == 30);
	p.parm.capture.timeperframe.numerator = 1;
	p.parm.capture.timeperframe.denominator = 15;
	CHECK(xio(c, VIDIOC_S_PARM, &p) == 0);
	CHECK(p.parm.capture.timeperframe.denominator == 15);
	memset(&p, 0, sizeof(p));
	p.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	CHECK(xio(c, VIDIOC_G_PARM, &p) == 0);
	CHECK(p.parm.capture.timeperframe.numerator == 1 &&
	      p.parm.capture.timeperframe.denominator == 15);
	p.parm.capture.timeperframe.numerator = 1;
	p.parm.capture.timeperframe.denominator = 25;
	CHECK(xio(c, VIDIOC_S_PARM, &p) == 0);
	CHECK(p.parm.capture.timeperframe.denominator == 30);
	p.type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
	CHECK(xio(c, VIDIOC_G_PARM, &p) == EINVAL);
}

/* Inputs: one camera, no flip. */
static void caps_inputs(struct cam *c)
{
	struct v4l2_input in;
	int i = 5;

	memset(&in, 0, sizeof(in));
	CHECK(xio(c, VIDIOC_ENUMINPUT, &in) == 0);
	CHECK(in.type == V4L2_INPUT_TYPE_CAMERA);
	CHECK(in.status == 0);
	in.index = 1;
	CHECK(xio(c, VIDIOC_ENUMINPUT, &in) == EINVAL);
	CHECK(xio(c, VIDIOC_G_INPUT, &i) == 0 && i == 0);
	CHECK(xio(c, VIDIOC_S_INPUT, &i) == 0);
	i = 1;
	CHECK(xio(c, VIDIOC_S_INPUT, &i) == EINVAL);
}

/* Controls: brightness and focus, clamped; no others. */
static void caps_controls(struct cam *c)
{
	struct v4l2_queryctrl q;
	struct v4l2_control ctl;

	memset(&q, 0, sizeof(q));
	q.id = V4L2_CID_BRIGHTNESS;
	CHECK(xio(c, VIDIOC_QUERYCTRL, &q) == 0);
	CHECK(q.type == V4L2_CTRL_TYPE_INTEGER && q.minimum == 0 &&
	      q.maximum == 255 && q.default_value == 128 && q.step == 1);
	memset(&q, 0, sizeof(q));
	q.id = V4L2_CTRL_FLAG_NEXT_CTRL;
	CHECK(xio(c, VIDIOC_QUERYCTRL, &q) == 0);
	CHECK(q.id == V4L2_CID_BRIGHTNESS);
	q.id |= V4L2_CTRL_FLAG_NEXT_CTRL;
	CHECK(xio(c, VIDIOC_QUERYCTRL, &q) == 0);
	CHECK(q.id == V4L2_CID_FOCUS_ABSOLUTE);
	CHECK(q.minimum == 0 && q.maximum == 1023);
	q.id |= V4L2_CTRL_FLAG_NEXT_CTRL;
	CHECK(xio(c, VIDIOC_QUERYCTRL, &q) == EINVAL);
	q.id = V4L2_CID_CONTRAST;
	CHECK(xio(c, VIDIOC_QUERYCTRL, &q) == EINVAL);

	ctl.id = V4L2_CID_BRIGHTNESS;
	CHECK(xio(c, VIDIOC_G_CTRL, &ctl) == 0 && ctl.value == 128);
	ctl.value = 40;
	CHECK(xio(c, VIDIOC_S_CTRL, &ctl) == 0);
	ctl.value = 0;
	CHECK(xio(c, VIDIOC_G_CTRL, &ctl) == 0 && ctl.value == 40);
	ctl.value = 300;
	CHECK(xio(c, VIDIOC_S_CTRL, &ctl) == 0 && ctl.value == 255);
	ctl.id = V4L2_CID_FOCUS_ABSOLUTE;
	ctl.value = 1000;
	CHECK(xio(c, VIDIOC_S_CTRL, &ctl) == 0);
	CHECK(xio(c, VIDIOC_G_CTRL, &ctl) == 0 && ctl.value == 1000);
	ctl.id = V4L2_CID_CONTRAST;
	CHECK(xio(c, VIDIOC_G_CTRL, &ctl) == EINVAL);
	CHECK(xio(c, VIDIOC_S_CTRL, &ctl) == EINVAL);
}

/* Extended controls: defaults, try, set, and the refusals. */
static void caps_ext_controls(struct cam *c)
{
	struct v4l2_query_ext_ctrl q;
	struct v4l2_ext_control x[2];
	struct v4l2_ext_controls e;
	struct v4l2_control ctl;

	memset(&q, 0, sizeof(q));
	q.id = V4L2_CTRL_FLAG_NEXT_CTRL;
	CHECK(xio(c, VIDIOC_QUERY_EXT_CTRL, &q) == 0);
	CHECK(q.id == V4L2_CID_BRIGHTNESS && q.maximum == 255 && q.elems == 1 &&
	      q.elem_size == 4);
	q.id = V4L2_CID_FOCUS_ABSOLUTE;
	CHECK(xio(c, VIDIOC_QUERY_EXT_CTRL, &q) == 0);
	CHECK(q.maximum == 1023 && q.default_value == 512);

	memset(x, 0, sizeof(x));
	memset(&e, 0, sizeof(e));
	x[0].id = V4L2_CID_BRIGHTNESS;
	x[1].id = V4L2_CID_FOCUS_ABSOLUTE;
	e.count = 2;
	e.controls = x;
	e.which = V4L2_CTRL_WHICH_DEF_VAL;
	CHECK(xio(c, VIDIOC_G_EXT_CTRLS, &e) == 0);
	CHECK(x[0].value == 128 && x[1].value == 512);
	e.which = V4L2_CTRL_WHICH_CUR_VAL;
	x[0].value = 77;
	x[1].value = 5000;
	CHECK(xio(c, VIDIOC_TRY_EXT_CTRLS, &e) == 0);
	CHECK(x[0].value == 77 && x[1].value == 1023);
	ctl.id = V4L2_CID_BRIGHTNESS;
	CHECK(xio(c, VIDIOC_G_CTRL, &ctl) == 0 && ctl.value == 255);
	CHECK(xio(c, VIDIOC_S_EXT_CTRLS, &e) == 0);
	CHECK(xio(c, VIDIOC_G_CTRL, &ctl) == 0 && ctl.value == 77);
	x[0].value = x[1].value = 0;
	CHECK(xio(c, VIDIOC_G_EXT_CTRLS, &e) == 0);
	CHECK(x[0].value == 77 && x[1].value == 1023);
	/* An unknown id: EINVAL at its index, nothing changed. */
	x[0].value = 10;
	x[1].id = V4L2_CID_CONTRAST;
	CHECK(xio(c, VIDIOC_S_EXT_CTRLS, &e) == EINVAL);
	CHECK(e.error_idx == 1);
	CHECK(xio(c, VIDIOC_G_CTRL, &ctl) == 0 && ctl.value == 77);
	/* Class mismatch: focus is a camera-class control. */
	x[1].id = V4L2_CID_FOCUS_ABSOLUTE;
	e.which = V4L2_CTRL_CLASS_USER;
	CHECK(xio(c, VIDIOC_G_EXT_CTRLS, &e) == EINVAL);
	e.which = V4L2_CTRL_WHICH_DEF_VAL;
	CHECK(xio(c, VIDIOC_S_EXT_CTRLS, &e) == EINVAL);
}

/* No TV standard; a NULL argument is EFAULT, not a crash. */
static void caps_bad_args(struct cam *c)
{
	CHECK(xio(c, VIDIOC_G_STD, &(v4l2_std_id){ 0 }) == ENOTTY);
	CHECK(xio(c, VIDIOC_G_STD, NULL) == ENOTTY);
	CHECK(xio(c, VIDIOC_QUERYCAP, NULL) == EFAULT);
	CHECK(xio(c, VIDIOC_S_FMT, NULL) == EFAULT);
	CHECK(xio(c, VIDIOC_DQBUF, NULL) == EFAULT);
}

void test_caps(void)
{
	struct cam c;

	if (open_cam(&c, "YUYV,MJPG,RGB3:800x600")) {
		CHECK(!"open");
		return;
	}
	caps_query(&c);
	caps_enum_formats(&c);
	caps_sizes(&c);
	caps_intervals(&c);
	caps_frame_rate(&c);
	caps_inputs(&c);
	caps_controls(&c);
	caps_ext_controls(&c);
	caps_bad_args(&c);
	close_cam(&c);
}

void test_formats(void)
{
	char spec[200] = "";
	struct cam c;

	/* Every format on one camera. */
	for (size_t i = 0; i < NFMTS; i++) {
		strcat(spec, fmts[i].name);
		strcat(spec, i + 1 < NFMTS ? "," : ":320x240");
	}
	if (open_cam(&c, spec)) {
		CHECK(!"open all formats");
		return;
	}
	for (size_t i = 0; i < NFMTS; i++) {
		static const uint32_t req[3][4] = {
			/* asked w, h -> got w, h */
			{ 1000, 700, 1280, 720 },
			{ 300, 200, 320, 240 },
			{ 640, 480, 640, 480 },
		};
		for (int r = 0; r < 3; r++) {
			struct v4l2_format f;
			uint32_t w = req[r][2], h = req[r][3];

			memset(&f, 0, sizeof(f));
			f.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
			f.fmt.pix.pixelformat = fmts[i].fourcc;
			f.fmt.pix.width = req[r][0];
			f.fmt.pix.height = req[r][1];
			f.fmt.pix.field = V4L2_FIELD_INTERLACED;
			CHECK(xio(&c, r == 1 ? VIDIOC_TRY_FMT : VIDIOC_S_FMT,
				  &f) == 0);
			CHECK(f.fmt.pix.pixelformat == fmts[i].fourcc);
			CHECK(f.fmt.pix.width == w && f.fmt.pix.height == h);
			CHECK(f.fmt.pix.field == V4L2_FIELD_NONE);
			CHECK(f.fmt.pix.bytesperline == fmts[i].bpl_per_px * w);
			if (is_jpeg(fmts[i].fourcc))
				CHECK(f.fmt.pix.sizeimage >= w * h);
			else
				CHECK(f.fmt.pix.sizeimage ==
				      w * h * fmts[i].size_num /
					      fmts[i].size_den);
			CHECK(f.fmt.pix.colorspace == fmts[i].colorspace);
			if (r != 1) {
				struct v4l2_format g;

				memset(&g, 0, sizeof(g));
				g.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
				CHECK(xio(&c, VIDIOC_G_FMT, &g) == 0);
				CHECK(!memcmp(&g.fmt.pix, &f.fmt.pix,
					      sizeof(g.fmt.pix)));
			}
		}
	}
	close_cam(&c);

	/* A format the camera does not offer becomes the first one. */
	if (open_cam(&c, "NV12,GREY") == 0) {
		struct v4l2_format f;

		memset(&f, 0, sizeof(f));
		f.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		f.fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
		f.fmt.pix.width = 640;
		f.fmt.pix.height = 480;
		CHECK(xio(&c, VIDIOC_TRY_FMT, &f) == 0);
		CHECK(f.fmt.pix.pixelformat == V4L2_PIX_FMT_NV12);
		f.type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
		CHECK(xio(&c, VIDIOC_S_FMT, &f) == EINVAL);
		close_cam(&c);
	}
}

/*
 * TRY_FMT with absurd sizes: the nearest offered size (320x240, 640x480,
 * 1280x720 here) by the exact squared distance, which for 32-bit sizes
 * does not fit in a long. 3037001000 wide is the case where a wrapped
 * 64-bit square would make 320x240 look nearest; 100000 overflows a
 * 32-bit long.
 */
void test_absurd_sizes(void)
{
	static const uint32_t req[][4] = {
		/* asked w, h -> got w, h */
		{ 0xffffffffu, 0xffffffffu, 1280, 720 },
		{ 0xffffffffu, 0, 1280, 720 },
		{ 0, 0xffffffffu, 1280, 720 },
		{ 3037001000u, 0, 1280, 720 },
		{ 3037001000u, 3037001000u, 1280, 720 },
		{ 0x80000000u, 0x80000000u, 1280, 720 },
		{ 100000, 100000, 1280, 720 },
		{ 0, 0, 320, 240 },
		{ 1, 0xffffffffu, 1280, 720 },
	};
	struct cam c;

	if (open_cam(&c, "YUYV")) {
		CHECK(!"open YUYV");
		return;
	}
	for (size_t i = 0; i < sizeof(req) / sizeof(req[0]); i++) {
		struct v4l2_format f;

		memset(&f, 0, sizeof(f));
		f.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		f.fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
		f.fmt.pix.width = req[i][0];
		f.fmt.pix.height = req[i][1];
		CHECK(xio(&c, VIDIOC_TRY_FMT, &f) == 0);
		if (f.fmt.pix.width != req[i][2] ||
		    f.fmt.pix.height != req[i][3]) {
			fprintf(stderr, "TRY_FMT %ux%u gave %ux%u\n", req[i][0],
				req[i][1], f.fmt.pix.width, f.fmt.pix.height);
			CHECK(!"nearest size");
		}
	}
	close_cam(&c);
}
