/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Guest side of vm-proc (batch-vivid.sh): processing and emulated controls
 * through our libv4l2 on the real vivid driver (static test pattern).
 *   proc-vivid DEVICE
 * With LIBV4LCONTROL_CONTROLS=9 (white balance, gamma emulated; vivid has
 * neither, but has its own HFLIP, VFLIP, GAIN, AUTOGAIN):
 * - QUERYCTRL and QUERY_EXT_CTRL enumerations: the same ascending list,
 *   both emulated controls once, vivid's own controls still there;
 * - RGB3 frames read through v4l2_read with gamma 2000 equal the raw frame
 *   (plain read(), no libv4l2) mapped by round(255 (v/255)^0.5), exactly;
 * - white balance: within 2 levels of grey-world gains computed here in
 *   double precision; gamma 1000 and no white balance: the raw frame.
 */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/videodev2.h>

#include <libv4l2.h>

static int failures;

#define CHECK(cond, ...)                                                    \
	do {                                                                \
		if (!(cond)) {                                              \
			failures++;                                         \
			printf("FAIL line %d: ", __LINE__);                 \
			printf(__VA_ARGS__);                                \
			printf("\n");                                       \
		} else {                                                    \
			printf("ok: ");                                     \
			printf(__VA_ARGS__);                                \
			printf("\n");                                       \
		}                                                           \
	} while (0)

#define W 640
#define H 360
#define SIZE (W * H * 3)

static int set_fmt(int fd, int (*io)(int, unsigned long, ...))
{
	struct v4l2_format f;

	memset(&f, 0, sizeof(f));
	f.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	f.fmt.pix.pixelformat = V4L2_PIX_FMT_RGB24;
	f.fmt.pix.width = W;
	f.fmt.pix.height = H;
	f.fmt.pix.field = V4L2_FIELD_NONE;
	if (io(fd, VIDIOC_S_FMT, &f))
		return -1;
	return f.fmt.pix.width == W && f.fmt.pix.height == H &&
			       f.fmt.pix.pixelformat == V4L2_PIX_FMT_RGB24 &&
			       f.fmt.pix.bytesperline == W * 3
		       ? 0
		       : -1;
}

/* The third frame of a read() stream. */
static int grab(int fd, uint8_t *buf, ssize_t (*rd)(int, void *, size_t))
{
	for (int k = 0; k < 3; k++)
		if (rd(fd, buf, SIZE) != SIZE)
			return -1;
	return 0;
}

static ssize_t plain_read(int fd, void *b, size_t n)
{
	return read(fd, b, n);
}

static int plain_ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	return ioctl(fd, req, arg);
}

static ssize_t lib_read(int fd, void *b, size_t n)
{
	return v4l2_read(fd, b, n);
}

static int set_ctrl(int fd, uint32_t id, int32_t v)
{
	struct v4l2_control c = { .id = id, .value = v };

	return v4l2_ioctl(fd, VIDIOC_S_CTRL, &c);
}

int main(int argc, char **argv)
{
	static uint8_t raw[SIZE], out[SIZE];
	const char *dev = argc > 1 ? argv[1] : "/dev/video0";
	uint32_t a[512], b[512];
	int fd, na = 0, nb = 0, asc = 1;

	fd = open(dev, O_RDWR);
	CHECK(fd >= 0 && !set_fmt(fd, plain_ioctl) && !grab(fd, raw, plain_read),
	      "raw RGB3 %dx%d frame by plain read()", W, H);
	if (fd >= 0)
		close(fd);

	setenv("LIBV4LCONTROL_CONTROLS", "9", 1);
	fd = v4l2_open(dev, O_RDWR);
	CHECK(fd >= 0 && !set_fmt(fd, v4l2_ioctl), "through our libv4l2");
	if (fd < 0)
		return 1;

	{
		struct v4l2_queryctrl q;
		struct v4l2_query_ext_ctrl e;

		memset(&q, 0, sizeof(q));
		q.id = V4L2_CTRL_FLAG_NEXT_CTRL;
		while (na < 512 && v4l2_ioctl(fd, VIDIOC_QUERYCTRL, &q) == 0) {
			a[na++] = q.id;
			q.id |= V4L2_CTRL_FLAG_NEXT_CTRL;
		}
		memset(&e, 0, sizeof(e));
		e.id = V4L2_CTRL_FLAG_NEXT_CTRL;
		while (nb < 512 && v4l2_ioctl(fd, VIDIOC_QUERY_EXT_CTRL, &e) == 0) {
			b[nb++] = e.id;
			e.id |= V4L2_CTRL_FLAG_NEXT_CTRL;
		}
	}
	for (int i = 1; i < na; i++)
		asc &= a[i] > a[i - 1];
	{
		int awb = 0, gamma = 0, hflip = 0, gain = 0;

		for (int i = 0; i < na; i++) {
			awb += a[i] == V4L2_CID_AUTO_WHITE_BALANCE;
			gamma += a[i] == V4L2_CID_GAMMA;
			hflip += a[i] == V4L2_CID_HFLIP;
			gain += a[i] == V4L2_CID_GAIN;
		}
		CHECK(asc && awb == 1 && gamma == 1 && hflip == 1 && gain == 1,
		      "QUERYCTRL: %d controls ascending, emulated white balance "
		      "and gamma once, vivid's HFLIP and GAIN kept", na);
	}
	CHECK(na == nb && !memcmp(a, b, sizeof(a[0]) * (size_t)na),
	      "QUERY_EXT_CTRL lists the same (%d, %d)", na, nb);

	{
		int bad = 0;

		CHECK(set_ctrl(fd, V4L2_CID_GAMMA, 2000) == 0, "gamma 2000");
		CHECK(!grab(fd, out, lib_read), "frames with gamma");
		for (int i = 0; i < SIZE; i++)
			bad += out[i] != (int)lround(255.0 * pow(raw[i] / 255.0, 0.5));
		CHECK(!bad, "gamma 2000 exact against the raw frame (%d bytes "
			    "differ)", bad);
	}
	{
		double m[3] = { 0, 0, 0 }, all;
		int worst = 0;

		CHECK(set_ctrl(fd, V4L2_CID_GAMMA, 1000) == 0 &&
			      set_ctrl(fd, V4L2_CID_AUTO_WHITE_BALANCE, 1) == 0,
		      "white balance on, gamma 1000");
		CHECK(!grab(fd, out, lib_read), "frames with white balance");
		for (int i = 0; i < SIZE; i++)
			m[i % 3] += raw[i];
		all = (m[0] + m[1] + m[2]) / 3;
		for (int i = 0; i < SIZE; i++) {
			double r = raw[i] * all / m[i % 3];
			int e = (int)lround(r > 255 ? 255 : r);

			worst = abs(out[i] - e) > worst ? abs(out[i] - e) : worst;
		}
		printf("raw channel means %.2f %.2f %.2f\n", m[0] / (W * H),
		       m[1] / (W * H), m[2] / (W * H));
		CHECK(worst <= 2, "white balance within %d of grey-world", worst);
	}
	CHECK(set_ctrl(fd, V4L2_CID_AUTO_WHITE_BALANCE, 0) == 0 &&
		      !grab(fd, out, lib_read) && !memcmp(out, raw, SIZE),
	      "no processing: the raw frame");
	v4l2_close(fd);
	printf("%s\n", failures ? "FAILED" : "all passed");
	return failures != 0;
}
