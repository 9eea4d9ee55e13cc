/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Guest side of vm-faults (tests/robust/batch-faults.sh): faults a real
 * driver injects (vivid's error injection buttons, pressed on a second,
 * plain fd) while our libv4l2 streams from /dev/video0:
 *   QBUF error, a buffer flagged as bad, STREAMON and REQBUFS errors, a
 *   fatal streaming error (every call fails until the stream restarts),
 *   and last the disconnect. Each fault must reach the application as an
 *   error (or a frame flagged as bad) and the stream must go on after it;
 *   the disconnect gives ENODEV, no hang (alarm), and a clean close.
 * Usage: vivid-faults FOURCC [nodisconnect]   (e.g. RGB3 through a
 * conversion, YUYV direct). Prints "PASS ..."/"FAIL ..." lines and
 * "faults: N injected, N survived".
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/videodev2.h>

#include <libv4l2.h>

#define DEV "/dev/video0"
#define NBUF 4

static int fails, injected, survived;
static int ctl_fd = -1;

static void result(int ok, const char *what)
{
	printf("%s %s\n", ok ? "PASS" : "FAIL", what);
	fails += !ok;
}

static void on_alarm(int sig)
{
	(void)sig;
	static const char msg[] = "FAIL hang: alarm\n";

	if (write(1, msg, sizeof(msg) - 1) < 0)
		_exit(3);
	_exit(2);
}

/* A control name as v4l2-ctl spells it: lower case, '_' between words. */
static void ctl_name(const char *in, char *out, size_t size)
{
	size_t o = 0;

	for (; *in && o + 1 < size; in++) {
		if ((*in >= 'a' && *in <= 'z') || (*in >= '0' && *in <= '9'))
			out[o++] = *in;
		else if (*in >= 'A' && *in <= 'Z')
			out[o++] = (char)(*in - 'A' + 'a');
		else if (o && out[o - 1] != '_')
			out[o++] = '_';
	}
	while (o && out[o - 1] == '_')
		o--;
	out[o] = '\0';
}

/* vivid's button of that (v4l2-ctl) name, pressed through the plain fd. */
static int press(const char *name)
{
	struct v4l2_queryctrl q = { .id = V4L2_CTRL_FLAG_NEXT_CTRL };
	char n[64];

	while (ioctl(ctl_fd, VIDIOC_QUERYCTRL, &q) == 0) {
		ctl_name((const char *)q.name, n, sizeof(n));
		if (!strcmp(n, name)) {
			struct v4l2_control c = { .id = q.id, .value = 1 };

			injected++;
			return ioctl(ctl_fd, VIDIOC_S_CTRL, &c);
		}
		q.id |= V4L2_CTRL_FLAG_NEXT_CTRL;
	}
	printf("no control \"%s\"\n", name);
	return -1;
}

struct cam {
	int fd;
	void *map[NBUF];
	size_t len[NBUF];
	uint32_t sizeimage;
};

static int cam_open(struct cam *c, uint32_t fourcc)
{
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_streamparm p = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };

	memset(c, 0, sizeof(*c));
	c->fd = v4l2_open(DEV, O_RDWR);
	if (c->fd < 0)
		return -1;
	f.fmt.pix.width = 320;
	f.fmt.pix.height = 180;
	f.fmt.pix.pixelformat = fourcc;
	if (v4l2_ioctl(c->fd, VIDIOC_S_FMT, &f) != 0 ||
	    f.fmt.pix.pixelformat != fourcc)
		return -1;
	c->sizeimage = f.fmt.pix.sizeimage;
	p.parm.capture.timeperframe.numerator = 1;
	p.parm.capture.timeperframe.denominator = 60;
	v4l2_ioctl(c->fd, VIDIOC_S_PARM, &p);
	return 0;
}

static int cam_bufs(struct cam *c)
{
	struct v4l2_requestbuffers req = { .count = NBUF,
					   .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
					   .memory = V4L2_MEMORY_MMAP };

	if (v4l2_ioctl(c->fd, VIDIOC_REQBUFS, &req) != 0 || req.count < 2)
		return -1;
	for (unsigned int i = 0; i < NBUF && i < req.count; i++) {
		struct v4l2_buffer b = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
					 .memory = V4L2_MEMORY_MMAP,
					 .index = i };

		if (v4l2_ioctl(c->fd, VIDIOC_QUERYBUF, &b) != 0)
			return -1;
		c->len[i] = b.length;
		c->map[i] = v4l2_mmap(NULL, b.length, PROT_READ | PROT_WRITE,
				      MAP_SHARED, c->fd, b.m.offset);
		if (c->map[i] == MAP_FAILED)
			return -1;
		if (v4l2_ioctl(c->fd, VIDIOC_QBUF, &b) != 0)
			return -1;
	}
	return 0;
}

static void cam_close(struct cam *c)
{
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;

	v4l2_ioctl(c->fd, VIDIOC_STREAMOFF, &type);
	for (int i = 0; i < NBUF; i++)
		if (c->map[i] && c->map[i] != MAP_FAILED)
			v4l2_munmap(c->map[i], c->len[i]);
	result(v4l2_close(c->fd) == 0, "close");
}

/*
 * Dequeue and requeue n frames; returns how many were good, errors in
 * *errs (their errno in *last_err).
 */
static int frames(struct cam *c, int n, int *errs, int *last_err)
{
	int good = 0;

	*errs = 0;
	for (int k = 0; k < n; k++) {
		struct v4l2_buffer b = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
					 .memory = V4L2_MEMORY_MMAP };

		alarm(10);
		if (v4l2_ioctl(c->fd, VIDIOC_DQBUF, &b) != 0) {
			(*errs)++;
			*last_err = errno;
			if (errno == ENODEV)
				break;
			continue;
		}
		alarm(0);
		if (b.flags & V4L2_BUF_FLAG_ERROR)
			(*errs)++;
		else if (b.bytesused == c->sizeimage && b.index < NBUF)
			good++;
		if (v4l2_ioctl(c->fd, VIDIOC_QBUF, &b) != 0) {
			(*errs)++;
			*last_err = errno;
			/* an injected QBUF error: the buffer is ours again */
			if (errno != ENODEV)
				v4l2_ioctl(c->fd, VIDIOC_QBUF, &b);
		}
	}
	alarm(0);
	return good;
}

static void streaming_fault(uint32_t fourcc, const char *button,
			    const char *what)
{
	struct cam c;
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE, errs, e = 0, good;
	char msg[160];

	if (cam_open(&c, fourcc) || cam_bufs(&c) ||
	    v4l2_ioctl(c.fd, VIDIOC_STREAMON, &type) != 0) {
		result(0, what);
		return;
	}
	good = frames(&c, 3, &errs, &e);
	result(good == 3 && !errs, "frames before the fault");
	press(button);
	good = frames(&c, 4, &errs, &e);
	snprintf(msg, sizeof(msg), "%s: %d error(s) (errno %s), %d frames",
		 what, errs, errs ? strerror(e) : "-", good);
	result(errs >= 1 || good >= 1, msg);
	if (!good) {
		/* a fatal error: the application restarts the stream */
		v4l2_ioctl(c.fd, VIDIOC_STREAMOFF, &type);
		for (unsigned int i = 0; i < NBUF; i++) {
			struct v4l2_buffer b = {
				.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
				.memory = V4L2_MEMORY_MMAP,
				.index = i
			};

			v4l2_ioctl(c.fd, VIDIOC_QBUF, &b);
		}
		result(v4l2_ioctl(c.fd, VIDIOC_STREAMON, &type) == 0,
		       "STREAMON after the fatal error");
	}
	good = frames(&c, 6, &errs, &e);
	snprintf(msg, sizeof(msg), "%s: the stream goes on (%d frames)", what,
		 good);
	result(good >= 4, msg);
	if (good >= 4)
		survived++;
	cam_close(&c);
}

static void streamon_fault(uint32_t fourcc, const char *button,
			   const char *what)
{
	struct cam c;
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE, r, e, errs, good;
	char msg[160];

	if (cam_open(&c, fourcc) || cam_bufs(&c)) {
		result(0, what);
		return;
	}
	press(button);
	errno = 0;
	r = v4l2_ioctl(c.fd, VIDIOC_STREAMON, &type);
	e = errno;
	snprintf(msg, sizeof(msg), "%s: STREAMON %d (errno %s)", what, r,
		 strerror(e));
	result(r == -1 && e != 0, msg);
	/* the buffers went back to the application: queue them again */
	for (unsigned int i = 0; i < NBUF; i++) {
		struct v4l2_buffer b = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
					 .memory = V4L2_MEMORY_MMAP,
					 .index = i };

		v4l2_ioctl(c.fd, VIDIOC_QBUF, &b);
	}
	r = v4l2_ioctl(c.fd, VIDIOC_STREAMON, &type);
	good = r == 0 ? frames(&c, 4, &errs, &e) : 0;
	snprintf(msg, sizeof(msg), "%s: STREAMON again, %d frames", what, good);
	result(good >= 3, msg);
	if (good >= 3)
		survived++;
	cam_close(&c);
}

/* REQBUFS fails once: a clear errno, and the next REQBUFS works. */
static void reqbufs_fault(uint32_t fourcc)
{
	struct cam c;
	struct v4l2_requestbuffers req = { .count = NBUF,
					   .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
					   .memory = V4L2_MEMORY_MMAP };
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE, r, e = 0, errs, good = 0;
	char msg[160];

	if (cam_open(&c, fourcc)) {
		result(0, "REQBUFS error: open");
		return;
	}
	press("inject_vidioc_reqbufs_error");
	errno = 0;
	r = v4l2_ioctl(c.fd, VIDIOC_REQBUFS, &req);
	e = errno;
	snprintf(msg, sizeof(msg), "REQBUFS error: %d (errno %s)", r,
		 strerror(e));
	result(r == -1 && e != 0, msg);
	if (cam_bufs(&c) == 0 && v4l2_ioctl(c.fd, VIDIOC_STREAMON, &type) == 0)
		good = frames(&c, 4, &errs, &e);
	snprintf(msg, sizeof(msg), "REQBUFS error: REQBUFS again, %d frames",
		 good);
	result(good >= 3, msg);
	if (good >= 3)
		survived++;
	cam_close(&c);
}

static void disconnect(uint32_t fourcc)
{
	struct cam c;
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE, errs, e = 0;
	char msg[160];
	uint8_t buf[64];

	if (cam_open(&c, fourcc) || cam_bufs(&c) ||
	    v4l2_ioctl(c.fd, VIDIOC_STREAMON, &type) != 0) {
		result(0, "disconnect: start");
		return;
	}
	frames(&c, 2, &errs, &e);
	press("disconnect");
	frames(&c, 8, &errs, &e);
	snprintf(msg, sizeof(msg), "disconnect: DQBUF gives ENODEV (%s)",
		 errs ? strerror(e) : "no error");
	result(errs && e == ENODEV, msg);
	errno = 0;
	alarm(10);
	result(v4l2_read(c.fd, buf, sizeof(buf)) == -1,
	       "disconnect: read() fails");
	alarm(0);
	if (errs && e == ENODEV)
		survived++;
	cam_close(&c);
	/* nothing of the device left open but the control fd */
}

int main(int argc, char **argv)
{
	uint32_t fourcc;
	const char *f = argc > 1 ? argv[1] : "RGB3";

	signal(SIGALRM, on_alarm);
	setvbuf(stdout, NULL, _IOLBF, 0);
	fourcc = v4l2_fourcc(f[0], f[1], f[2], f[3]);
	ctl_fd = open(DEV, O_RDWR);
	if (ctl_fd < 0) {
		printf("no %s: skipped\n", DEV);
		return 77;
	}
	streaming_fault(fourcc, "inject_vidioc_qbuf_error", "QBUF error");
	streaming_fault(fourcc, "inject_v4l2_buf_flag_error",
			"buffer flagged as bad");
	streaming_fault(fourcc, "inject_fatal_streaming_error",
			"fatal streaming error");
	streamon_fault(fourcc, "inject_vidioc_streamon_error",
		       "STREAMON error");
	reqbufs_fault(fourcc);
	if (!(argc > 2 && !strcmp(argv[2], "nodisconnect")))
		disconnect(fourcc);
	close(ctl_fd);
	printf("faults: %d injected, %d survived (%s)\n", injected, survived,
	       f);
	return fails != 0;
}
