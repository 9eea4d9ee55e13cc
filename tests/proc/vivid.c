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
 * Auto gain on vivid's GAIN (vivid has no EXPOSURE: gain-only mode). vivid
 * has its own AUTOGAIN, so with the quirk flag alone no emulated one is
 * offered (the original's rule); LIBV4LCONTROL_CONTROLS=0x30 forces it (it
 * then shadows vivid's, which is switched off by a plain ioctl first, as
 * vivid's gain is inactive while it is on). vivid's gain does not change
 * its picture, but its BRIGHTNESS does: a dark picture drives the gain up,
 * monotonically, to its maximum, then no more changes; a bright one down to
 * its minimum; a picture whose centre luma is 4 above the target (inside the
 * dead zone) leaves it alone, and so does a dark one with auto gain off.
 * The gain is read after every frame through v4l2_ioctl and by a plain
 * ioctl on the same fd (they must agree), and its changes are counted as
 * V4L2_EVENT_CTRL events on a second, plain, file descriptor.
 */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/videodev2.h>

#include <libv4l2.h>

/* the VM log lists every check, passed or failed */
#define CHECK_PRINT_PASSES
#include "../common/check.h"

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

/* ---- auto gain on vivid's gain --------------------------------------- */

#define TARGET_CID (V4L2_CTRL_CLASS_USER + 0x2000) /* the original's id */

static int plain_get(int fd, uint32_t id, int32_t *v)
{
	struct v4l2_control c = { .id = id };

	if (ioctl(fd, VIDIOC_G_CTRL, &c))
		return -1;
	*v = c.value;
	return 0;
}

static int plain_set(int fd, uint32_t id, int32_t v)
{
	struct v4l2_control c = { .id = id, .value = v };

	return ioctl(fd, VIDIOC_S_CTRL, &c);
}

/* vivid's gain through libv4l2 and by a plain ioctl; -1 when they differ */
static int32_t gain_both(int fd)
{
	struct v4l2_control c = { .id = V4L2_CID_GAIN };
	int32_t plain;

	if (v4l2_ioctl(fd, VIDIOC_G_CTRL, &c) ||
	    plain_get(fd, V4L2_CID_GAIN, &plain) || plain != c.value)
		return -1;
	return c.value;
}

/* Control-change events of the gain waiting on the watcher fd. */
static int gain_events(int efd)
{
	struct v4l2_event ev;
	struct pollfd pfd = { .fd = efd, .events = POLLPRI };
	int n = 0;

	while (poll(&pfd, 1, 0) == 1 && (pfd.revents & POLLPRI)) {
		memset(&ev, 0, sizeof(ev));
		if (ioctl(efd, VIDIOC_DQEVENT, &ev))
			break;
		n += ev.type == V4L2_EVENT_CTRL && ev.id == V4L2_CID_GAIN &&
		     (ev.u.ctrl.changes & V4L2_EVENT_CTRL_CH_VALUE);
	}
	return n;
}

/* Centre luma as the library measures it: (R + 2G + B) / 4 over the middle
 * half of the rows and columns, rows y % 4 < 2. */
static double centre_luma(const uint8_t *f)
{
	double sum = 0;
	long n = 0;

	for (int y = H / 4; y < H - H / 4; y++) {
		if ((y & 3) >= 2)
			continue;
		for (int x = W / 4; x < W - W / 4; x++) {
			const uint8_t *p = f + ((size_t)y * W + x) * 3;

			sum += (p[0] + 2 * p[1] + p[2]) / 4.0;
			n++;
		}
	}
	return sum / n;
}

/*
 * vivid's brightness `bright` with the emulated auto gain off (nothing is
 * written), read until two frames in a row have the same centre luma
 * (vivid's picture follows a few frames late); returns that luma.
 */
static double settle_picture(int fd, int bright, uint8_t *f)
{
	double luma = -1, prev = -2;

	set_ctrl(fd, V4L2_CID_AUTOGAIN, 0);
	plain_set(fd, V4L2_CID_BRIGHTNESS, bright);
	for (int k = 0; k < 20 && luma != prev; k++) {
		prev = luma;
		if (v4l2_read(fd, f, SIZE) != SIZE)
			return -1;
		luma = centre_luma(f);
	}
	return luma;
}

/*
 * Frames through v4l2_read at vivid's brightness `bright`: the gain must go
 * monotonically (up when `up`) to `end` within `max` frames, one change per
 * event, then stay there, with no event, for 40 frames.
 */
static void gain_run(int fd, int efd, int bright, int up, int32_t end, int max,
		     const char *what)
{
	static uint8_t f[SIZE];
	double luma = settle_picture(fd, bright, f);
	int32_t prev = gain_both(fd), g = prev;
	int mono = 1, agree = prev >= 0, reached = -1, changes = 0, events;

	gain_events(efd);
	set_ctrl(fd, V4L2_CID_AUTOGAIN, 1);
	events = 0;
	for (int k = 0; k < max && reached < 0; k++) {
		if (v4l2_read(fd, f, SIZE) != SIZE)
			break;
		luma = centre_luma(f);
		g = gain_both(fd);
		agree &= g >= 0;
		mono &= up ? g >= prev : g <= prev;
		changes += g != prev;
		prev = g;
		events += gain_events(efd);
		if (g == end)
			reached = k + 1;
	}
	CHECK(agree, "%s: v4l2_ioctl and plain ioctl read the same gain", what);
	CHECK(reached > 0 && mono && events == changes,
	      "%s (brightness %d, centre luma %.1f): gain %s monotonically to "
	      "%d in %d frames, %d changes, %d events",
	      what, bright, luma, up ? "up" : "down", end, reached, changes,
	      events);
	events = 0;
	for (int k = 0; k < 40; k++) {
		if (v4l2_read(fd, f, SIZE) != SIZE)
			break;
		g = gain_both(fd);
		events += gain_events(efd);
		agree &= g == end;
	}
	CHECK(agree && events == 0,
	      "%s: then 40 frames at %d, %d events (gain %d)", what, end,
	      events, g);
}

static void autogain_on_vivid(const char *dev)
{
	static uint8_t f[SIZE];
	struct v4l2_queryctrl q;
	struct v4l2_event_subscription sub;
	int fd, efd, events = 0, same = 1;
	int32_t v = -1;
	double luma;

	/* vivid's own auto gain off; a known gain; a watcher for changes */
	efd = open(dev, O_RDWR | O_NONBLOCK);
	memset(&q, 0, sizeof(q));
	q.id = V4L2_CID_GAIN;
	CHECK(efd >= 0 && !plain_set(efd, V4L2_CID_AUTOGAIN, 0) &&
		      !plain_get(efd, V4L2_CID_AUTOGAIN, &v) && v == 0 &&
		      !ioctl(efd, VIDIOC_QUERYCTRL, &q) &&
		      !(q.flags & V4L2_CTRL_FLAG_INACTIVE) &&
		      !plain_set(efd, V4L2_CID_GAIN, 20),
	      "vivid's AUTOGAIN off (plain ioctl), GAIN %d..%d active, set to 20",
	      q.minimum, q.maximum);
	memset(&sub, 0, sizeof(sub));
	sub.type = V4L2_EVENT_CTRL;
	sub.id = V4L2_CID_GAIN;
	CHECK(efd >= 0 && !ioctl(efd, VIDIOC_SUBSCRIBE_EVENT, &sub),
	      "gain change events subscribed");
	if (efd < 0)
		return;

	/* the quirk alone: vivid has a hardware AUTOGAIN, so none emulated */
	unsetenv("LIBV4LCONTROL_CONTROLS");
	setenv("LIBV4LCONTROL_FLAGS", "0x10", 1);
	fd = v4l2_open(dev, O_RDWR);
	memset(&q, 0, sizeof(q));
	q.id = TARGET_CID;
	CHECK(fd >= 0 && v4l2_ioctl(fd, VIDIOC_QUERYCTRL, &q) == -1,
	      "autogain quirk, hardware AUTOGAIN: no emulated auto gain");
	if (fd >= 0)
		v4l2_close(fd);
	unsetenv("LIBV4LCONTROL_FLAGS");

	/* forced: the emulated AUTOGAIN shadows vivid's */
	setenv("LIBV4LCONTROL_CONTROLS", "0x30", 1);
	fd = v4l2_open(dev, O_RDWR);
	CHECK(fd >= 0 && !set_fmt(fd, v4l2_ioctl),
	      "LIBV4LCONTROL_CONTROLS=0x30");
	if (fd < 0) {
		close(efd);
		return;
	}
	memset(&q, 0, sizeof(q));
	q.id = TARGET_CID;
	CHECK(v4l2_ioctl(fd, VIDIOC_QUERYCTRL, &q) == 0 &&
		      set_ctrl(fd, TARGET_CID, 100) == 0 &&
		      set_ctrl(fd, V4L2_CID_AUTOGAIN, 1) == 0 &&
		      !plain_get(fd, V4L2_CID_AUTOGAIN, &v) && v == 0,
	      "emulated auto gain on, target 100; vivid's still off (%d)", v);

	gain_run(fd, efd, 0, 1, 255, 60, "dark picture");
	gain_run(fd, efd, 255, 0, 0, 90, "bright picture");

	/* a picture inside the dead zone (6) of the target: left alone */
	luma = settle_picture(fd, 128, f);
	plain_set(fd, V4L2_CID_GAIN, 60);
	CHECK(set_ctrl(fd, TARGET_CID, (int)lround(luma) - 4) == 0 &&
		      set_ctrl(fd, V4L2_CID_AUTOGAIN, 1) == 0,
	      "target %ld, 4 below the centre luma of the picture (%.1f)",
	      lround(luma) - 4, luma);
	gain_events(efd);
	for (int k = 0; k < 60; k++) {
		if (v4l2_read(fd, f, SIZE) != SIZE)
			break;
		same &= gain_both(fd) == 60;
		events += gain_events(efd);
	}
	CHECK(same && events == 0,
	      "dead zone: gain 60 untouched for 60 frames (%d events, luma %.1f)",
	      events, centre_luma(f));
	/* auto gain off: nothing written whatever the picture */
	same = 1;
	events = 0;
	set_ctrl(fd, V4L2_CID_AUTOGAIN, 0);
	plain_set(fd, V4L2_CID_BRIGHTNESS, 0);
	for (int k = 0; k < 30; k++) {
		if (v4l2_read(fd, f, SIZE) != SIZE)
			break;
		same &= gain_both(fd) == 60;
		events += gain_events(efd);
	}
	CHECK(same && events == 0,
	      "emulated auto gain off: gain 60 untouched "
	      "on a dark picture (%d events)",
	      events);
	plain_set(fd, V4L2_CID_BRIGHTNESS, 128);
	v4l2_close(fd);
	close(efd);
	unsetenv("LIBV4LCONTROL_CONTROLS");
}

int main(int argc, char **argv)
{
	static uint8_t raw[SIZE], out[SIZE];
	const char *dev = argc > 1 ? argv[1] : "/dev/video0";
	uint32_t a[512], b[512];
	int fd, na = 0, nb = 0, asc = 1;

	fd = open(dev, O_RDWR);
	CHECK(fd >= 0 && !set_fmt(fd, plain_ioctl) &&
		      !grab(fd, raw, plain_read),
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
		while (nb < 512 &&
		       v4l2_ioctl(fd, VIDIOC_QUERY_EXT_CTRL, &e) == 0) {
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
		      "and gamma once, vivid's HFLIP and GAIN kept",
		      na);
	}
	CHECK(na == nb && !memcmp(a, b, sizeof(a[0]) * (size_t)na),
	      "QUERY_EXT_CTRL lists the same (%d, %d)", na, nb);

	{
		int bad = 0;

		CHECK(set_ctrl(fd, V4L2_CID_GAMMA, 2000) == 0, "gamma 2000");
		CHECK(!grab(fd, out, lib_read), "frames with gamma");
		for (int i = 0; i < SIZE; i++)
			bad += out[i] !=
			       (int)lround(255.0 * pow(raw[i] / 255.0, 0.5));
		CHECK(!bad,
		      "gamma 2000 exact against the raw frame (%d bytes "
		      "differ)",
		      bad);
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

			worst = abs(out[i] - e) > worst ? abs(out[i] - e)
							: worst;
		}
		printf("raw channel means %.2f %.2f %.2f\n", m[0] / (W * H),
		       m[1] / (W * H), m[2] / (W * H));
		CHECK(worst <= 2, "white balance within %d of grey-world",
		      worst);
	}
	CHECK(set_ctrl(fd, V4L2_CID_AUTO_WHITE_BALANCE, 0) == 0 &&
		      !grab(fd, out, lib_read) && !memcmp(out, raw, SIZE),
	      "no processing: the raw frame");
	v4l2_close(fd);
	autogain_on_vivid(dev);
	printf("%s\n", failures ? "FAILED" : "all passed");
	return failures != 0;
}
