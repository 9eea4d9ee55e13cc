/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The virtual camera's plugin operations, driven directly (no libv4l2):
 * claiming by memfd name, every ioctl it serves, streaming through mmap of
 * the memfd, the frames against independent expectations, error codes.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <turbojpeg.h>
#include <unistd.h>

#include "vcam/vcam.h"
#include "../common/check.h"

static const struct libv4l_dev_ops *ops = &v4lc_vcam_ops;

struct cam {
	int fd;
	void *priv;
};

static int open_cam(struct cam *c, const char *spec)
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

static void close_cam(struct cam *c)
{
	ops->close(c->priv);
	close(c->fd);
}

/* ioctl: 0, or the errno of a failure. */
static int xio(struct cam *c, unsigned long req, void *arg)
{
	errno = 0;
	if (ops->ioctl(c->priv, c->fd, req, arg) == 0)
		return 0;
	return errno ? errno : -1;
}

static int declines(const char *name)
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

static void test_claim(void)
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
	CHECK(!declines("libv4l-vcam"));
	CHECK(!declines("libv4l-vcam:"));
	CHECK(!declines("libv4l-vcam:MJPG:1280x720"));
	CHECK(!declines("libv4l-vcam:YUYV,MJPG,RGB3:flip=hv:nopace"));
	CHECK(!declines("libv4l-vcam:BGGR"));

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

static void test_caps(void)
{
	struct cam c;
	struct v4l2_capability cap;
	struct v4l2_fmtdesc d;
	static const uint32_t want[] = { V4L2_PIX_FMT_YUYV, V4L2_PIX_FMT_MJPEG,
					 V4L2_PIX_FMT_RGB24 };
	char buf[8];

	if (open_cam(&c, "YUYV,MJPG,RGB3:800x600")) {
		CHECK(!"open");
		return;
	}
	memset(&cap, 0xa5, sizeof(cap));
	CHECK(xio(&c, VIDIOC_QUERYCAP, &cap) == 0);
	CHECK(!strcmp((char *)cap.driver, "v4l2-vcam"));
	CHECK(!strcmp((char *)cap.card, "Virtual camera"));
	CHECK(!strcmp((char *)cap.bus_info, "platform:vcam"));
	CHECK(cap.device_caps == (V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING));
	CHECK(cap.capabilities == (V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING |
				   V4L2_CAP_DEVICE_CAPS));
	CHECK(!(cap.capabilities & V4L2_CAP_READWRITE));
	CHECK(ops->read(c.priv, c.fd, buf, sizeof(buf)) == -1 &&
	      errno == EINVAL);
	CHECK(ops->write(c.priv, c.fd, buf, sizeof(buf)) == -1 &&
	      errno == EINVAL);

	for (unsigned i = 0; i < 3; i++) {
		memset(&d, 0, sizeof(d));
		d.index = i;
		d.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		CHECK(xio(&c, VIDIOC_ENUM_FMT, &d) == 0);
		CHECK(d.pixelformat == want[i]);
		CHECK(d.description[0] != 0);
		CHECK(!!(d.flags & V4L2_FMT_FLAG_COMPRESSED) == (i == 1));
	}
	d.index = 3;
	CHECK(xio(&c, VIDIOC_ENUM_FMT, &d) == EINVAL);
	d.index = 0;
	d.type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
	CHECK(xio(&c, VIDIOC_ENUM_FMT, &d) == EINVAL);

	/* Sizes: the standard three and 800x600, by area. */
	{
		static const uint32_t sz[4][2] = {
			{ 320, 240 }, { 640, 480 }, { 800, 600 }, { 1280, 720 }
		};
		struct v4l2_frmsizeenum s;

		for (unsigned i = 0; i < 4; i++) {
			memset(&s, 0, sizeof(s));
			s.index = i;
			s.pixel_format = V4L2_PIX_FMT_MJPEG;
			CHECK(xio(&c, VIDIOC_ENUM_FRAMESIZES, &s) == 0);
			CHECK(s.type == V4L2_FRMSIZE_TYPE_DISCRETE);
			CHECK(s.discrete.width == sz[i][0] &&
			      s.discrete.height == sz[i][1]);
		}
		s.index = 4;
		CHECK(xio(&c, VIDIOC_ENUM_FRAMESIZES, &s) == EINVAL);
		s.index = 0;
		s.pixel_format = V4L2_PIX_FMT_NV12;
		CHECK(xio(&c, VIDIOC_ENUM_FRAMESIZES, &s) == EINVAL);
	}
	/* Intervals: 1/30 and 1/15 for each size. */
	{
		struct v4l2_frmivalenum e;

		memset(&e, 0, sizeof(e));
		e.pixel_format = V4L2_PIX_FMT_YUYV;
		e.width = 800;
		e.height = 600;
		CHECK(xio(&c, VIDIOC_ENUM_FRAMEINTERVALS, &e) == 0);
		CHECK(e.type == V4L2_FRMIVAL_TYPE_DISCRETE);
		CHECK(e.discrete.numerator == 1 &&
		      e.discrete.denominator == 30);
		e.index = 1;
		CHECK(xio(&c, VIDIOC_ENUM_FRAMEINTERVALS, &e) == 0);
		CHECK(e.discrete.numerator == 1 &&
		      e.discrete.denominator == 15);
		e.index = 2;
		CHECK(xio(&c, VIDIOC_ENUM_FRAMEINTERVALS, &e) == EINVAL);
		e.index = 0;
		e.width = 801;
		CHECK(xio(&c, VIDIOC_ENUM_FRAMEINTERVALS, &e) == EINVAL);
	}
	/* Frame rate. */
	{
		struct v4l2_streamparm p;

		memset(&p, 0, sizeof(p));
		p.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		CHECK(xio(&c, VIDIOC_G_PARM, &p) == 0);
		CHECK(p.parm.capture.capability & V4L2_CAP_TIMEPERFRAME);
		CHECK(p.parm.capture.timeperframe.numerator == 1 &&
		      p.parm.capture.timeperframe.denominator == 30);
		p.parm.capture.timeperframe.numerator = 1;
		p.parm.capture.timeperframe.denominator = 15;
		CHECK(xio(&c, VIDIOC_S_PARM, &p) == 0);
		CHECK(p.parm.capture.timeperframe.denominator == 15);
		memset(&p, 0, sizeof(p));
		p.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		CHECK(xio(&c, VIDIOC_G_PARM, &p) == 0);
		CHECK(p.parm.capture.timeperframe.numerator == 1 &&
		      p.parm.capture.timeperframe.denominator == 15);
		p.parm.capture.timeperframe.numerator = 1;
		p.parm.capture.timeperframe.denominator = 25;
		CHECK(xio(&c, VIDIOC_S_PARM, &p) == 0);
		CHECK(p.parm.capture.timeperframe.denominator == 30);
		p.type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
		CHECK(xio(&c, VIDIOC_G_PARM, &p) == EINVAL);
	}
	/* Inputs: one camera, no flip. */
	{
		struct v4l2_input in;
		int i = 5;

		memset(&in, 0, sizeof(in));
		CHECK(xio(&c, VIDIOC_ENUMINPUT, &in) == 0);
		CHECK(in.type == V4L2_INPUT_TYPE_CAMERA);
		CHECK(in.status == 0);
		in.index = 1;
		CHECK(xio(&c, VIDIOC_ENUMINPUT, &in) == EINVAL);
		CHECK(xio(&c, VIDIOC_G_INPUT, &i) == 0 && i == 0);
		CHECK(xio(&c, VIDIOC_S_INPUT, &i) == 0);
		i = 1;
		CHECK(xio(&c, VIDIOC_S_INPUT, &i) == EINVAL);
	}
	/* Controls. */
	{
		struct v4l2_queryctrl q;
		struct v4l2_control ctl;

		memset(&q, 0, sizeof(q));
		q.id = V4L2_CID_BRIGHTNESS;
		CHECK(xio(&c, VIDIOC_QUERYCTRL, &q) == 0);
		CHECK(q.type == V4L2_CTRL_TYPE_INTEGER && q.minimum == 0 &&
		      q.maximum == 255 && q.default_value == 128 &&
		      q.step == 1);
		memset(&q, 0, sizeof(q));
		q.id = V4L2_CTRL_FLAG_NEXT_CTRL;
		CHECK(xio(&c, VIDIOC_QUERYCTRL, &q) == 0);
		CHECK(q.id == V4L2_CID_BRIGHTNESS);
		q.id |= V4L2_CTRL_FLAG_NEXT_CTRL;
		CHECK(xio(&c, VIDIOC_QUERYCTRL, &q) == 0);
		CHECK(q.id == V4L2_CID_FOCUS_ABSOLUTE);
		CHECK(q.minimum == 0 && q.maximum == 1023);
		q.id |= V4L2_CTRL_FLAG_NEXT_CTRL;
		CHECK(xio(&c, VIDIOC_QUERYCTRL, &q) == EINVAL);
		q.id = V4L2_CID_CONTRAST;
		CHECK(xio(&c, VIDIOC_QUERYCTRL, &q) == EINVAL);

		ctl.id = V4L2_CID_BRIGHTNESS;
		CHECK(xio(&c, VIDIOC_G_CTRL, &ctl) == 0 && ctl.value == 128);
		ctl.value = 40;
		CHECK(xio(&c, VIDIOC_S_CTRL, &ctl) == 0);
		ctl.value = 0;
		CHECK(xio(&c, VIDIOC_G_CTRL, &ctl) == 0 && ctl.value == 40);
		ctl.value = 300;
		CHECK(xio(&c, VIDIOC_S_CTRL, &ctl) == 0 && ctl.value == 255);
		ctl.id = V4L2_CID_FOCUS_ABSOLUTE;
		ctl.value = 1000;
		CHECK(xio(&c, VIDIOC_S_CTRL, &ctl) == 0);
		CHECK(xio(&c, VIDIOC_G_CTRL, &ctl) == 0 && ctl.value == 1000);
		ctl.id = V4L2_CID_CONTRAST;
		CHECK(xio(&c, VIDIOC_G_CTRL, &ctl) == EINVAL);
		CHECK(xio(&c, VIDIOC_S_CTRL, &ctl) == EINVAL);
	}
	/* Extended controls. */
	{
		struct v4l2_query_ext_ctrl q;
		struct v4l2_ext_control x[2];
		struct v4l2_ext_controls e;
		struct v4l2_control ctl;

		memset(&q, 0, sizeof(q));
		q.id = V4L2_CTRL_FLAG_NEXT_CTRL;
		CHECK(xio(&c, VIDIOC_QUERY_EXT_CTRL, &q) == 0);
		CHECK(q.id == V4L2_CID_BRIGHTNESS && q.maximum == 255 &&
		      q.elems == 1 && q.elem_size == 4);
		q.id = V4L2_CID_FOCUS_ABSOLUTE;
		CHECK(xio(&c, VIDIOC_QUERY_EXT_CTRL, &q) == 0);
		CHECK(q.maximum == 1023 && q.default_value == 512);

		memset(x, 0, sizeof(x));
		memset(&e, 0, sizeof(e));
		x[0].id = V4L2_CID_BRIGHTNESS;
		x[1].id = V4L2_CID_FOCUS_ABSOLUTE;
		e.count = 2;
		e.controls = x;
		e.which = V4L2_CTRL_WHICH_DEF_VAL;
		CHECK(xio(&c, VIDIOC_G_EXT_CTRLS, &e) == 0);
		CHECK(x[0].value == 128 && x[1].value == 512);
		e.which = V4L2_CTRL_WHICH_CUR_VAL;
		x[0].value = 77;
		x[1].value = 5000;
		CHECK(xio(&c, VIDIOC_TRY_EXT_CTRLS, &e) == 0);
		CHECK(x[0].value == 77 && x[1].value == 1023);
		ctl.id = V4L2_CID_BRIGHTNESS;
		CHECK(xio(&c, VIDIOC_G_CTRL, &ctl) == 0 && ctl.value == 255);
		CHECK(xio(&c, VIDIOC_S_EXT_CTRLS, &e) == 0);
		CHECK(xio(&c, VIDIOC_G_CTRL, &ctl) == 0 && ctl.value == 77);
		x[0].value = x[1].value = 0;
		CHECK(xio(&c, VIDIOC_G_EXT_CTRLS, &e) == 0);
		CHECK(x[0].value == 77 && x[1].value == 1023);
		/* An unknown id: EINVAL at its index, nothing changed. */
		x[0].value = 10;
		x[1].id = V4L2_CID_CONTRAST;
		CHECK(xio(&c, VIDIOC_S_EXT_CTRLS, &e) == EINVAL);
		CHECK(e.error_idx == 1);
		CHECK(xio(&c, VIDIOC_G_CTRL, &ctl) == 0 && ctl.value == 77);
		/* Class mismatch: focus is a camera-class control. */
		x[1].id = V4L2_CID_FOCUS_ABSOLUTE;
		e.which = V4L2_CTRL_CLASS_USER;
		CHECK(xio(&c, VIDIOC_G_EXT_CTRLS, &e) == EINVAL);
		e.which = V4L2_CTRL_WHICH_DEF_VAL;
		CHECK(xio(&c, VIDIOC_S_EXT_CTRLS, &e) == EINVAL);
	}
	CHECK(xio(&c, VIDIOC_G_STD, &(v4l2_std_id){ 0 }) == ENOTTY);
	CHECK(xio(&c, VIDIOC_G_STD, NULL) == ENOTTY);
	CHECK(xio(&c, VIDIOC_QUERYCAP, NULL) == EFAULT);
	CHECK(xio(&c, VIDIOC_S_FMT, NULL) == EFAULT);
	CHECK(xio(&c, VIDIOC_DQBUF, NULL) == EFAULT);
	close_cam(&c);
}

struct fmt_expect {
	const char *name;
	uint32_t fourcc;
	uint32_t bpl_per_px;         /* bytes per line = bpl_per_px * w */
	uint32_t size_num, size_den; /* sizeimage = w * h * num / den */
	uint32_t colorspace;
};

static const struct fmt_expect fmts[] = {
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
#define NFMTS (sizeof(fmts) / sizeof(fmts[0]))

static int is_jpeg(uint32_t fourcc)
{
	return fourcc == V4L2_PIX_FMT_MJPEG || fourcc == V4L2_PIX_FMT_JPEG;
}

static void test_formats(void)
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
static void test_absurd_sizes(void)
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

/* ---- Frames against independent expectations. ---- */

/* The 75% bars at the centre of bar b (top area), by definition. */
static const uint8_t bar_rgb[8][3] = {
	{ 191, 191, 191 }, { 191, 191, 0 }, { 0, 191, 191 }, { 0, 191, 0 },
	{ 191, 0, 191 },   { 191, 0, 0 },   { 0, 0, 191 },   { 0, 0, 0 },
};

static int near(int a, int b, int tol)
{
	return a - b <= tol && b - a <= tol;
}

/* BT.601 limited range in double precision. */
static void ref_yuv(const uint8_t *rgb, double *y, double *u, double *v)
{
	double r = rgb[0], g = rgb[1], b = rgb[2];
	double yy = 0.299 * r + 0.587 * g + 0.114 * b;

	*y = 16 + yy * 219 / 255;
	*u = 128 + (b - yy) / 1.772 * 224 / 255;
	*v = 128 + (r - yy) / 1.402 * 224 / 255;
}

static void test_pattern(void)
{
	const int w = 640, h = 480;
	size_t rgb_size = (size_t)w * h * 3;
	uint8_t *rgb = malloc(rgb_size), *buf = malloc(rgb_size * 2);
	uint8_t *rgb2 = malloc(rgb_size);
	int row = h / 2 + 7; /* in the bars, below any square position? */

	if (!rgb || !buf || !rgb2) {
		CHECK(!"malloc");
		goto out;
	}
	CHECK(v4lc_vcam_render(V4L2_PIX_FMT_RGB24, w, h, 0, rgb, rgb_size) ==
	      (int)rgb_size);
	/* Bars at the centre of each bar, on rows of the bar area that the
	 * square (top-left at seq 0, h/8 high) does not cover. */
	for (int b = 0; b < 8; b++) {
		int x = b * w / 8 + w / 16;
		const uint8_t *p = rgb + ((size_t)row * w + x) * 3;

		CHECK(!memcmp(p, bar_rgb[b], 3));
	}
	/* The square at frame 0 is at the top-left: top-left quadrant dark,
	 * bottom-right quadrant bright. */
	CHECK(rgb[(5 * w + 5) * 3] < 32);
	CHECK(rgb[((h / 8 - 3) * w + h / 8 - 3) * 3] > 200);
	/* It moves: frame 10 differs from frame 0, frame 0 is repeatable. */
	CHECK(v4lc_vcam_render(V4L2_PIX_FMT_RGB24, w, h, 10, rgb2, rgb_size) ==
	      (int)rgb_size);
	CHECK(memcmp(rgb, rgb2, rgb_size) != 0);
	CHECK(v4lc_vcam_render(V4L2_PIX_FMT_RGB24, w, h, 0, rgb2, rgb_size) ==
	      (int)rgb_size);
	CHECK(!memcmp(rgb, rgb2, rgb_size));

	/* Flips are exact mirrors of the upright frame. */
	for (unsigned fl = 1; fl <= 3; fl++) {
		int bad = 0;

		CHECK(v4lc_vcam_render_flip(V4L2_PIX_FMT_RGB24, w, h, 3, fl,
					    rgb2, rgb_size) == (int)rgb_size);
		CHECK(v4lc_vcam_render(V4L2_PIX_FMT_RGB24, w, h, 3, rgb,
				       rgb_size) == (int)rgb_size);
		for (int y = 0; y < h && !bad; y++)
			for (int x = 0; x < w; x++) {
				int sx = fl & 1 ? w - 1 - x : x;
				int sy = fl & 2 ? h - 1 - y : y;

				if (memcmp(rgb2 + ((size_t)y * w + x) * 3,
					   rgb + ((size_t)sy * w + sx) * 3,
					   3)) {
					bad = 1;
					break;
				}
			}
		CHECK(!bad);
	}

	/* Every other format against the RGB frame. */
	CHECK(v4lc_vcam_render(V4L2_PIX_FMT_RGB24, w, h, 5, rgb, rgb_size) ==
	      (int)rgb_size);
	for (size_t i = 0; i < NFMTS; i++) {
		uint32_t fc = fmts[i].fourcc;
		int n = v4lc_vcam_render(fc, w, h, 5, buf, rgb_size * 2);
		int bad = 0;

		CHECK(n > 0);
		if (n <= 0)
			continue;
		if (!is_jpeg(fc))
			CHECK((size_t)n == (size_t)w * h * fmts[i].size_num /
						   fmts[i].size_den);
		/* Too small a buffer is refused. */
		if (!is_jpeg(fc))
			CHECK(v4lc_vcam_render(fc, w, h, 5, buf,
					       (size_t)n - 1) == -ENOSPC);
		for (int y = 0; y < h && !bad; y += 2) {
			for (int x = 0; x < w; x += 2) {
				const uint8_t *p =
					rgb + ((size_t)y * w + x) * 3;
				const uint8_t *q = p + 3;
				double ry, ru, rv, ry1, ru1, rv1;
				int yv = -1, uv = -1, vv = -1, y1v = -1;
				size_t cy = (size_t)(y / 2) * (w / 2) + x / 2;
				size_t nn = (size_t)w * h;

				ref_yuv(p, &ry, &ru, &rv);
				ref_yuv(q, &ry1, &ru1, &rv1);
				switch (fc) {
				case V4L2_PIX_FMT_YUYV:
				case V4L2_PIX_FMT_YVYU:
				case V4L2_PIX_FMT_UYVY:
				case V4L2_PIX_FMT_VYUY: {
					const uint8_t *d = buf +
							   (size_t)y * w * 2 +
							   (size_t)x * 2;
					static const char *ord[] = {
						"YUYV", "YVYU", "UYVY", "VYUY"
					};
					const char *o =
						ord[fc == V4L2_PIX_FMT_YUYV ? 0
						    : fc == V4L2_PIX_FMT_YVYU
							    ? 1
						    : fc == V4L2_PIX_FMT_UYVY
							    ? 2
							    : 3];
					int yi = 0;

					for (int k = 0; k < 4; k++) {
						if (o[k] == 'Y')
							*(yi++ ? &y1v : &yv) =
								d[k];
						else if (o[k] == 'U')
							uv = d[k];
						else
							vv = d[k];
					}
					/* 4:2:2 chroma: the pair's mean. */
					if (!near(yv, (int)(ry + 0.5), 1) ||
					    !near(y1v, (int)(ry1 + 0.5), 1) ||
					    !near(uv,
						  (int)((ru + ru1) / 2 + 0.5),
						  1) ||
					    !near(vv,
						  (int)((rv + rv1) / 2 + 0.5),
						  1))
						bad = 1;
					break;
				}
				case V4L2_PIX_FMT_YUV420:
				case V4L2_PIX_FMT_YVU420:
				case V4L2_PIX_FMT_NV12:
				case V4L2_PIX_FMT_NV21: {
					int swap = fc == V4L2_PIX_FMT_YVU420 ||
						   fc == V4L2_PIX_FMT_NV21;
					int a, b;

					if (fc == V4L2_PIX_FMT_NV12 ||
					    fc == V4L2_PIX_FMT_NV21) {
						a = buf[nn + 2 * cy];
						b = buf[nn + 2 * cy + 1];
					} else {
						a = buf[nn + cy];
						b = buf[nn + nn / 4 + cy];
					}
					uv = swap ? b : a;
					vv = swap ? a : b;
					yv = buf[(size_t)y * w + x];
					/* Chroma tolerance: the block may
					 * straddle a bar edge vertically
					 * never (bars are columns), but the
					 * square edge: compare in flat areas. */
					{
						const uint8_t *p2 =
							p + (size_t)w * 3;
						double ty, tu, tv, qy, qu, qv,
							sy2, su2, sv2;

						ref_yuv(p2, &ty, &tu, &tv);
						ref_yuv(p2 + 3, &qy, &qu, &qv);
						(void)ty;
						(void)qy;
						su2 = (ru + ru1 + tu + qu) / 4;
						sv2 = (rv + rv1 + tv + qv) / 4;
						sy2 = ry;
						if (!near(yv, (int)(sy2 + 0.5),
							  1) ||
						    !near(uv, (int)(su2 + 0.5),
							  2) ||
						    !near(vv, (int)(sv2 + 0.5),
							  2))
							bad = 1;
					}
					break;
				}
				case V4L2_PIX_FMT_RGB24:
					bad |= memcmp(buf + ((size_t)y * w +
							     x) * 3,
						      p, 6) != 0;
					break;
				case V4L2_PIX_FMT_BGR24: {
					const uint8_t *d =
						buf + ((size_t)y * w + x) * 3;

					bad |= d[0] != p[2] || d[1] != p[1] ||
					       d[2] != p[0];
					break;
				}
				case V4L2_PIX_FMT_GREY: {
					double l = 0.299 * p[0] + 0.587 * p[1] +
						   0.114 * p[2];

					bad |= !near(buf[(size_t)y * w + x],
						     (int)(l + 0.5), 1);
					break;
				}
				case V4L2_PIX_FMT_SBGGR8:
				case V4L2_PIX_FMT_SGBRG8:
				case V4L2_PIX_FMT_SGRBG8:
				case V4L2_PIX_FMT_SRGGB8: {
					/* 2x2 cell at (x, y): positions
					 * 0 1 / 2 3 hold the named colours. */
					const char *o =
						fc == V4L2_PIX_FMT_SBGGR8
							? "BGGR"
						: fc == V4L2_PIX_FMT_SGBRG8
							? "GBRG"
						: fc == V4L2_PIX_FMT_SGRBG8
							? "GRBG"
							: "RGGB";

					for (int k = 0; k < 4; k++) {
						size_t px =
							(size_t)(y + k / 2) *
								w +
							(size_t)(x + k % 2);
						int ch = o[k] == 'R'   ? 0
							 : o[k] == 'G' ? 1
								       : 2;

						bad |= buf[px] !=
						       rgb[px * 3 + ch];
					}
					break;
				}
				}
				if (bad) {
					fprintf(stderr,
						"%s: mismatch at %d,%d\n",
						fmts[i].name, x, y);
					break;
				}
			}
		}
		CHECK(!bad);
	}
out:
	free(rgb);
	free(rgb2);
	free(buf);
}

/* JPEG checks: no DHT before SOS, decodes, looks like the RGB frame. */
static void check_jpeg(const uint8_t *j, size_t n, int w, int h, uint32_t seq)
{
	size_t i = 2;
	int has_dht = 0, has_sos = 0;
	tjhandle tj;
	int jw = 0, jh = 0, sub = -1, cs = -1;
	uint8_t *out, *ref;
	double err = 0;

	CHECK(n > 4 && j[0] == 0xff && j[1] == 0xd8);
	CHECK(j[n - 2] == 0xff && j[n - 1] == 0xd9);
	while (i + 4 <= n && j[i] == 0xff) {
		if (j[i + 1] == 0xc4)
			has_dht = 1;
		if (j[i + 1] == 0xda) {
			has_sos = 1;
			break;
		}
		i += 2 + ((size_t)j[i + 2] << 8 | j[i + 3]);
	}
	CHECK(has_sos);
	CHECK(!has_dht);

	tj = tjInitDecompress();
	out = malloc((size_t)w * h * 3);
	ref = malloc((size_t)w * h * 3);
	if (!tj || !out || !ref) {
		CHECK(!"tj/malloc");
		goto out;
	}
	CHECK(tjDecompressHeader3(tj, j, (unsigned long)n, &jw, &jh, &sub,
				  &cs) == 0);
	CHECK(jw == w && jh == h && sub == TJSAMP_422);
	CHECK(tjDecompress2(tj, j, (unsigned long)n, out, w, 0, h, TJPF_RGB,
			    0) == 0);
	CHECK(v4lc_vcam_render(V4L2_PIX_FMT_RGB24, w, h, seq, ref,
			       (size_t)w * h * 3) == w * h * 3);
	for (size_t k = 0; k < (size_t)w * h * 3; k++)
		err += abs((int)out[k] - (int)ref[k]);
	err /= (double)w * h * 3;
	CHECK(err < 4.0);
out:
	if (tj)
		tjDestroy(tj);
	free(out);
	free(ref);
}

static void test_streaming(const struct fmt_expect *fe, int w, int h)
{
	char spec[64];
	struct cam c;
	struct v4l2_requestbuffers rb;
	struct v4l2_buffer b;
	struct v4l2_format f;
	uint8_t *maps[4] = { 0 }, *ref = NULL;
	size_t stride = 0, refsize;
	uint32_t type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	struct timeval last = { 0, 0 };
	struct stat st;
	long page = sysconf(_SC_PAGESIZE);

	snprintf(spec, sizeof(spec), "%s:%dx%d:nopace", fe->name, w, h);
	if (open_cam(&c, spec)) {
		CHECK(!"open");
		return;
	}
	memset(&f, 0, sizeof(f));
	f.type = type;
	CHECK(xio(&c, VIDIOC_G_FMT, &f) == 0);
	CHECK(f.fmt.pix.width == (uint32_t)w &&
	      f.fmt.pix.height == (uint32_t)h);

	/* Errors before buffers exist. */
	memset(&b, 0, sizeof(b));
	b.type = type;
	b.memory = V4L2_MEMORY_MMAP;
	CHECK(xio(&c, VIDIOC_QUERYBUF, &b) == EINVAL);
	CHECK(xio(&c, VIDIOC_QBUF, &b) == EINVAL);
	CHECK(xio(&c, VIDIOC_STREAMON, &type) == EINVAL);

	memset(&rb, 0, sizeof(rb));
	rb.type = type;
	rb.memory = V4L2_MEMORY_DMABUF;
	rb.count = 4;
	CHECK(xio(&c, VIDIOC_REQBUFS, &rb) == EINVAL);
	rb.memory = V4L2_MEMORY_MMAP;
	CHECK(xio(&c, VIDIOC_REQBUFS, &rb) == 0);
	CHECK(rb.count == 4);
	CHECK(rb.capabilities & V4L2_BUF_CAP_SUPPORTS_MMAP);

	for (unsigned i = 0; i < 4; i++) {
		memset(&b, 0, sizeof(b));
		b.type = type;
		b.memory = V4L2_MEMORY_MMAP;
		b.index = i;
		CHECK(xio(&c, VIDIOC_QUERYBUF, &b) == 0);
		CHECK(b.length == f.fmt.pix.sizeimage);
		CHECK(!(b.flags & (V4L2_BUF_FLAG_QUEUED | V4L2_BUF_FLAG_DONE)));
		if (i == 1)
			stride = b.m.offset;
		CHECK(b.m.offset % (uint32_t)page == 0);
		CHECK(b.m.offset == i * stride || i == 0);
		maps[i] = mmap(NULL, b.length, PROT_READ | PROT_WRITE,
			       MAP_SHARED, c.fd, b.m.offset);
		CHECK(maps[i] != MAP_FAILED);
		if (maps[i] == MAP_FAILED)
			maps[i] = NULL;
	}
	CHECK(stride >= f.fmt.pix.sizeimage &&
	      stride - f.fmt.pix.sizeimage < (size_t)page);
	CHECK(fstat(c.fd, &st) == 0 && (size_t)st.st_size == 4 * stride);
	b.index = 4;
	CHECK(xio(&c, VIDIOC_QUERYBUF, &b) == EINVAL);

	/* Changing the format with buffers allocated: EBUSY. */
	{
		struct v4l2_format g = f;

		g.fmt.pix.width = w == 320 ? 640 : 320;
		g.fmt.pix.height = w == 320 ? 480 : 240;
		CHECK(xio(&c, VIDIOC_S_FMT, &g) == EBUSY);
		g = f;
		CHECK(xio(&c, VIDIOC_S_FMT, &g) == 0);
	}

	for (unsigned i = 0; i < 4; i++) {
		memset(&b, 0, sizeof(b));
		b.type = type;
		b.memory = V4L2_MEMORY_MMAP;
		b.index = i;
		CHECK(xio(&c, VIDIOC_QBUF, &b) == 0);
		CHECK(b.flags & V4L2_BUF_FLAG_QUEUED);
	}
	b.index = 2;
	CHECK(xio(&c, VIDIOC_QBUF, &b) == EINVAL); /* already queued */
	b.index = 9;
	CHECK(xio(&c, VIDIOC_QBUF, &b) == EINVAL);
	b.index = 0;
	CHECK(xio(&c, VIDIOC_QUERYBUF, &b) == 0 &&
	      (b.flags & V4L2_BUF_FLAG_QUEUED));
	CHECK(xio(&c, VIDIOC_DQBUF, &b) == EINVAL); /* not streaming */
	CHECK(xio(&c, VIDIOC_STREAMON, &type) == 0);
	rb.count = 2;
	CHECK(xio(&c, VIDIOC_REQBUFS, &rb) == EBUSY);

	refsize = f.fmt.pix.sizeimage;
	ref = malloc(refsize);
	for (uint32_t seq = 0; seq < 10 && ref; seq++) {
		memset(&b, 0, sizeof(b));
		b.type = type;
		b.memory = V4L2_MEMORY_MMAP;
		CHECK(xio(&c, VIDIOC_DQBUF, &b) == 0);
		CHECK(b.index == seq % 4);
		CHECK(b.sequence == seq);
		CHECK(b.field == V4L2_FIELD_NONE);
		CHECK((b.flags & V4L2_BUF_FLAG_DONE) &&
		      !(b.flags &
			(V4L2_BUF_FLAG_QUEUED | V4L2_BUF_FLAG_ERROR)));
		CHECK((b.flags & V4L2_BUF_FLAG_TIMESTAMP_MASK) ==
		      V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC);
		CHECK(b.timestamp.tv_sec > last.tv_sec ||
		      (b.timestamp.tv_sec == last.tv_sec &&
		       b.timestamp.tv_usec >= last.tv_usec));
		last = b.timestamp;
		CHECK(b.bytesused > 0 && b.bytesused <= f.fmt.pix.sizeimage);
		if (!is_jpeg(fe->fourcc))
			CHECK(b.bytesused == f.fmt.pix.sizeimage);
		if (b.index < 4 && maps[b.index]) {
			int n = v4lc_vcam_render(fe->fourcc, w, h, seq, ref,
						 refsize);

			CHECK(n == (int)b.bytesused);
			CHECK(n > 0 && !memcmp(maps[b.index], ref, (size_t)n));
			if (is_jpeg(fe->fourcc) && seq == 3)
				check_jpeg(maps[b.index], b.bytesused, w, h,
					   seq);
		}
		CHECK(xio(&c, VIDIOC_QBUF, &b) == 0);
	}
	free(ref);

	/* Nothing queued: EAGAIN non-blocking, EINVAL blocking. */
	for (int i = 0; i < 4; i++) {
		memset(&b, 0, sizeof(b));
		b.type = type;
		b.memory = V4L2_MEMORY_MMAP;
		CHECK(xio(&c, VIDIOC_DQBUF, &b) == 0);
	}
	CHECK(xio(&c, VIDIOC_DQBUF, &b) == EINVAL);
	fcntl(c.fd, F_SETFL, fcntl(c.fd, F_GETFL) | O_NONBLOCK);
	CHECK(xio(&c, VIDIOC_DQBUF, &b) == EAGAIN);
	fcntl(c.fd, F_SETFL, fcntl(c.fd, F_GETFL) & ~O_NONBLOCK);

	/* STREAMOFF, requeue, STREAMON: the sequence restarts at 0. */
	CHECK(xio(&c, VIDIOC_STREAMOFF, &type) == 0);
	b.index = 1;
	CHECK(xio(&c, VIDIOC_QBUF, &b) == 0);
	CHECK(xio(&c, VIDIOC_STREAMOFF, &type) == 0);
	b.index = 1;
	CHECK(xio(&c, VIDIOC_QUERYBUF, &b) == 0 &&
	      !(b.flags & V4L2_BUF_FLAG_QUEUED));
	CHECK(xio(&c, VIDIOC_QBUF, &b) == 0);
	CHECK(xio(&c, VIDIOC_STREAMON, &type) == 0);
	CHECK(xio(&c, VIDIOC_DQBUF, &b) == 0 && b.sequence == 0 &&
	      b.index == 1);
	CHECK(xio(&c, VIDIOC_STREAMOFF, &type) == 0);

	for (int i = 0; i < 4; i++)
		if (maps[i])
			munmap(maps[i], f.fmt.pix.sizeimage);
	rb.count = 0;
	CHECK(xio(&c, VIDIOC_REQBUFS, &rb) == 0);
	CHECK(fstat(c.fd, &st) == 0 && st.st_size == 0);
	close_cam(&c);
}

static void test_userptr(void)
{
	struct cam c;
	struct v4l2_requestbuffers rb;
	struct v4l2_buffer b;
	uint32_t type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	size_t size = 320 * 240 * 2;
	uint8_t *mem[2], *ref = malloc(size);

	mem[0] = malloc(size);
	mem[1] = malloc(size);
	if (!ref || !mem[0] || !mem[1] || open_cam(&c, "UYVY:320x240:nopace")) {
		CHECK(!"setup");
		goto out;
	}
	memset(&rb, 0, sizeof(rb));
	rb.type = type;
	rb.memory = V4L2_MEMORY_USERPTR;
	rb.count = 2;
	CHECK(xio(&c, VIDIOC_REQBUFS, &rb) == 0 && rb.count == 2);
	for (unsigned i = 0; i < 2; i++) {
		memset(&b, 0, sizeof(b));
		b.type = type;
		b.memory = V4L2_MEMORY_USERPTR;
		b.index = i;
		b.m.userptr = (unsigned long)mem[i];
		b.length = (uint32_t)size - 1;
		CHECK(xio(&c, VIDIOC_QBUF, &b) == EINVAL); /* too short */
		b.length = (uint32_t)size;
		/* as vb2: QBUF checks memory, QUERYBUF and DQBUF do not */
		b.memory = V4L2_MEMORY_MMAP;
		CHECK(xio(&c, VIDIOC_QBUF, &b) == EINVAL);
		b.memory = 0;
		CHECK(xio(&c, VIDIOC_QUERYBUF, &b) == 0);
		CHECK(b.memory == V4L2_MEMORY_USERPTR);
		b.m.userptr = (unsigned long)mem[i];
		b.length = (uint32_t)size;
		CHECK(xio(&c, VIDIOC_QBUF, &b) == 0);
	}
	CHECK(xio(&c, VIDIOC_STREAMON, &type) == 0);
	for (uint32_t seq = 0; seq < 4; seq++) {
		memset(&b, 0, sizeof(b));
		b.type = type;
		/* qvidcap dequeues with memory 0 */
		b.memory = seq == 1 ? 0 : V4L2_MEMORY_USERPTR;
		CHECK(xio(&c, VIDIOC_DQBUF, &b) == 0);
		CHECK(b.memory == V4L2_MEMORY_USERPTR);
		CHECK(b.sequence == seq && b.index == seq % 2);
		CHECK(b.m.userptr == (unsigned long)mem[seq % 2]);
		CHECK(v4lc_vcam_render(V4L2_PIX_FMT_UYVY, 320, 240, seq, ref,
				       size) == (int)size);
		CHECK(!memcmp(mem[seq % 2], ref, size));
		CHECK(xio(&c, VIDIOC_QBUF, &b) == 0);
	}
	CHECK(xio(&c, VIDIOC_STREAMOFF, &type) == 0);
	close_cam(&c);
out:
	free(ref);
	free(mem[0]);
	free(mem[1]);
}

/* flip=hv: input status flags and upside-down frames. */
static void test_flip(void)
{
	struct cam c;
	struct v4l2_input in;
	struct v4l2_requestbuffers rb;
	struct v4l2_buffer b;
	uint32_t type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	size_t size = 320 * 240 * 3;
	uint8_t *ref = malloc(size), *map;

	if (!ref || open_cam(&c, "RGB3:320x240:flip=hv:nopace")) {
		CHECK(!"setup");
		free(ref);
		return;
	}
	memset(&in, 0, sizeof(in));
	CHECK(xio(&c, VIDIOC_ENUMINPUT, &in) == 0);
	CHECK(in.status == (V4L2_IN_ST_HFLIP | V4L2_IN_ST_VFLIP));
	memset(&rb, 0, sizeof(rb));
	rb.type = type;
	rb.memory = V4L2_MEMORY_MMAP;
	rb.count = 1;
	CHECK(xio(&c, VIDIOC_REQBUFS, &rb) == 0);
	memset(&b, 0, sizeof(b));
	b.type = type;
	b.memory = V4L2_MEMORY_MMAP;
	CHECK(xio(&c, VIDIOC_QUERYBUF, &b) == 0);
	map = mmap(NULL, b.length, PROT_READ, MAP_SHARED, c.fd, b.m.offset);
	CHECK(map != MAP_FAILED);
	CHECK(xio(&c, VIDIOC_QBUF, &b) == 0);
	CHECK(xio(&c, VIDIOC_STREAMON, &type) == 0);
	CHECK(xio(&c, VIDIOC_DQBUF, &b) == 0);
	CHECK(v4lc_vcam_render(V4L2_PIX_FMT_RGB24, 320, 240, 0, ref, size) ==
	      (int)size);
	if (map != MAP_FAILED) {
		/* Upright black bar (last) is now at the left, bottom-up:
		 * the first pixel equals the upright last pixel. */
		int bad = 0;

		for (size_t p = 0; p < 320 * 240; p++)
			bad |= memcmp(map + 3 * p,
				      ref + 3 * (320 * 240 - 1 - p), 3) != 0;
		CHECK(!bad);
		munmap(map, b.length);
	}
	close_cam(&c);

	if (open_cam(&c, "GREY:flip=v") == 0) {
		memset(&in, 0, sizeof(in));
		CHECK(xio(&c, VIDIOC_ENUMINPUT, &in) == 0);
		CHECK(in.status == V4L2_IN_ST_VFLIP);
		close_cam(&c);
	}
	free(ref);
}

/* REQBUFS while the application still maps buffers: no shrinking under it. */
static void test_orphan(void)
{
	struct cam c;
	struct v4l2_requestbuffers rb;
	struct v4l2_buffer b;
	struct stat st;
	volatile uint8_t *map;
	size_t size;

	if (open_cam(&c, "YUYV:640x480:nopace")) {
		CHECK(!"open");
		return;
	}
	memset(&rb, 0, sizeof(rb));
	rb.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	rb.memory = V4L2_MEMORY_MMAP;
	rb.count = 3;
	CHECK(xio(&c, VIDIOC_REQBUFS, &rb) == 0);
	memset(&b, 0, sizeof(b));
	b.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	b.memory = V4L2_MEMORY_MMAP;
	b.index = 2;
	CHECK(xio(&c, VIDIOC_QUERYBUF, &b) == 0);
	map = mmap(NULL, b.length, PROT_READ | PROT_WRITE, MAP_SHARED, c.fd,
		   b.m.offset);
	CHECK(map != MAP_FAILED);
	if (map == MAP_FAILED) {
		close_cam(&c);
		return;
	}
	CHECK(fstat(c.fd, &st) == 0);
	size = (size_t)st.st_size;
	rb.count = 0;
	CHECK(xio(&c, VIDIOC_REQBUFS, &rb) == 0);
	CHECK(fstat(c.fd, &st) == 0 && (size_t)st.st_size == size);
	map[b.length - 1] = 1; /* would fault if the file had shrunk */
	rb.count = 1;
	CHECK(xio(&c, VIDIOC_REQBUFS, &rb) == 0 && rb.count == 1);
	CHECK(fstat(c.fd, &st) == 0 && (size_t)st.st_size == size);
	map[b.length - 1] = 2;
	munmap((void *)map, b.length);
	rb.count = 0;
	CHECK(xio(&c, VIDIOC_REQBUFS, &rb) == 0);
	CHECK(fstat(c.fd, &st) == 0 && st.st_size == 0);
	close_cam(&c);
}

/* Default pacing: frames one interval apart on a blocking fd. */
static void test_pacing(void)
{
	struct cam c;
	struct v4l2_requestbuffers rb;
	struct v4l2_buffer b;
	uint32_t type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	struct timeval t0 = { 0, 0 };

	if (open_cam(&c, "GREY:320x240")) {
		CHECK(!"open");
		return;
	}
	memset(&rb, 0, sizeof(rb));
	rb.type = type;
	rb.memory = V4L2_MEMORY_MMAP;
	rb.count = 2;
	CHECK(xio(&c, VIDIOC_REQBUFS, &rb) == 0);
	for (unsigned i = 0; i < 2; i++) {
		memset(&b, 0, sizeof(b));
		b.type = type;
		b.memory = V4L2_MEMORY_MMAP;
		b.index = i;
		CHECK(xio(&c, VIDIOC_QBUF, &b) == 0);
	}
	CHECK(xio(&c, VIDIOC_STREAMON, &type) == 0);
	for (int i = 0; i < 4; i++) {
		CHECK(xio(&c, VIDIOC_DQBUF, &b) == 0);
		if (i == 0)
			t0 = b.timestamp;
		CHECK(xio(&c, VIDIOC_QBUF, &b) == 0);
	}
	{
		long long us = (b.timestamp.tv_sec - t0.tv_sec) * 1000000LL +
			       (b.timestamp.tv_usec - t0.tv_usec);

		/* Three intervals of 33.3 ms, with scheduler slack. */
		CHECK(us >= 95000);
	}
	close_cam(&c);
}

/* Frame number `frames` (1: the first) of spec, copied out; *len its
 * bytes. NULL on failure. */
static uint8_t *grab(const char *spec, int frames, size_t *len)
{
	struct cam c;
	struct v4l2_requestbuffers rb = { .count = 1 };
	struct v4l2_buffer b;
	uint32_t type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	uint8_t *map, *out = NULL;
	int ok;

	if (open_cam(&c, spec)) {
		CHECK(!"open", "%s", spec);
		return NULL;
	}
	rb.type = type;
	rb.memory = V4L2_MEMORY_MMAP;
	CHECK(xio(&c, VIDIOC_REQBUFS, &rb) == 0);
	memset(&b, 0, sizeof(b));
	b.type = type;
	b.memory = V4L2_MEMORY_MMAP;
	ok = xio(&c, VIDIOC_QUERYBUF, &b) == 0;
	map = mmap(NULL, b.length, PROT_READ, MAP_SHARED, c.fd, b.m.offset);
	ok = ok && map != MAP_FAILED && xio(&c, VIDIOC_QBUF, &b) == 0 &&
	     xio(&c, VIDIOC_STREAMON, &type) == 0;
	for (int i = 0; ok && i < frames; i++)
		ok = xio(&c, VIDIOC_DQBUF, &b) == 0 &&
		     (i + 1 == frames || xio(&c, VIDIOC_QBUF, &b) == 0);
	CHECK(ok, "%s: no frame %d", spec, frames);
	if (ok) {
		out = malloc(b.bytesused);
		memcpy(out, map, b.bytesused);
		*len = b.bytesused;
	}
	if (map != MAP_FAILED)
		munmap(map, b.length);
	close_cam(&c);
	return out;
}

/* "scene": a picture with a natural scene's detail, not the bars; it
 * moves, flips, and costs a JPEG coder what a natural scene does. */
static void test_scene(void)
{
	const int w = 320, h = 240;
	size_t n, m, k, big_scene = 0, big_bars = 0;
	uint8_t *a = grab("RGB3:320x240:scene:nopace", 1, &n);
	uint8_t *fl = grab("RGB3:320x240:scene:flip=h:nopace", 1, &m);
	uint8_t *a2 = grab("RGB3:320x240:scene:nopace", 2, &k);
	uint8_t *bars = malloc(3 * (size_t)w * h), *j;
	long steps = 0;
	int bad = 0;

	CHECK(declines("libv4l-vcam:RGB3:scenery"));
	if (!a || !fl || !a2 || !bars) {
		CHECK(!"setup");
		goto out;
	}
	CHECK(n == 3 * (size_t)w * h && m == n && k == n);
	CHECK(v4lc_vcam_render(V4L2_PIX_FMT_RGB24, w, h, 0, bars, n) == (int)n);
	CHECK(memcmp(a, bars, n) != 0, "scene shows the bars");
	CHECK(memcmp(a, a2, n) != 0, "the scene does not move");
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			const uint8_t *p = a + 3 * ((size_t)y * w + x);

			bad |= memcmp(fl + 3 * ((size_t)y * w + (w - 1 - x)), p,
				      3) != 0;
			if (x + 1 < w)
				for (int ch = 0; ch < 3; ch++)
					steps += abs(p[3 + ch] - p[ch]);
		}
	CHECK(!bad, "flip=h is not the mirror image");
	/* Grain everywhere, but no bars' jumps: mean step 1..16. */
	steps /= 3L * (w - 1) * h;
	CHECK(steps >= 1 && steps <= 16, "mean step %ld", steps);
	j = grab("MJPG:1920x1080:scene:nopace", 1, &big_scene);
	free(j);
	j = grab("MJPG:1920x1080:nopace", 1, &big_bars);
	free(j);
	CHECK(big_scene > 3 * big_bars, "scene %zu bytes, bars %zu", big_scene,
	      big_bars);
out:
	free(a);
	free(fl);
	free(a2);
	free(bars);
}

int main(void)
{
	test_claim();
	test_caps();
	test_formats();
	test_absurd_sizes();
	test_pattern();
	for (size_t i = 0; i < NFMTS; i++) {
		test_streaming(&fmts[i], 320, 240);
		if (i == 0 || is_jpeg(fmts[i].fourcc) || i == 6)
			test_streaming(&fmts[i], 1280, 720);
	}
	test_streaming(&fmts[0], 176, 144);
	test_userptr();
	test_flip();
	test_orphan();
	test_pacing();
	test_scene();
	if (failures) {
		fprintf(stderr, "%d failure(s)\n", failures);
		return 1;
	}
	printf("vcam ops: all passed\n");
	return 0;
}
