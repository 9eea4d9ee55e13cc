/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A capture program on a device shared through the frame server
 * (LIBV4L2_SHARE=1): poll() and select() on its fd must follow the frames
 * as on a V4L2 device, and the stream must end cleanly when the device
 * goes away. Two ways to reach the device:
 *   --libv4l2  v4l2_fd_open/v4l2_ioctl/v4l2_mmap (linked libv4l2);
 *   --plain    open/ioctl/mmap, as an unmodified program under
 *              LD_PRELOAD=v4l2convert.so (the shim does not wrap poll or
 *              select: they see the fd itself).
 * poll() and select() are always the plain libc calls. --userptr: USERPTR
 * buffers, which libv4l2 grants only with V4L2_DISABLE_CONVERSION (as the
 * original): the fd is opened so, and the share client fills them.
 *
 *   server-poll --libv4l2|--plain [--server BIN] [--userptr]
 *               [--unplug N | --press-disconnect N] DEVICE
 * DEVICE: /dev/videoN, or vcam:SPEC for the virtual camera (a memfd named
 * libv4l-vcam:SPEC, opened again through /proc/self/fd so that the shim
 * sees an open()). --server BIN: set up a private runtime directory and
 * the server binary (native tests); without it the environment is used.
 * --unplug N: the device disappears after about N frames (the virtual
 * camera's unplug=N); --press-disconnect N: after N frames press vivid's
 * "Disconnect" button through a second, plain fd. Either way DQBUF must
 * then fail with ENODEV, poll() report POLLERR or POLLHUP, and nothing
 * may hang (alarm).
 * Prints PASS/FAIL lines and "N passed, N failed"; exit status 1 on any
 * failure.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/select.h>
#include <time.h>
#include <unistd.h>

#include <linux/videodev2.h>
#include <libv4l2.h>

#include "../common/hang.h"

#define NBUF 4

static int use_libv4l2, lib_flags, passed, failed;

/* The open device and its buffers, as every step below uses them. */
struct stream {
	int fd;
	int userptr;
	uint32_t memory;
	struct v4l2_format f;
	void *map[NBUF];
	size_t len[NBUF];
};

static void result(int ok, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void result(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s ", ok ? "PASS" : "FAIL");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (ok)
		passed++;
	else
		failed++;
}

static int xioctl(int fd, unsigned long req, void *arg)
{
	return use_libv4l2 ? v4l2_ioctl(fd, req, arg) : ioctl(fd, req, arg);
}

static void *xmmap(size_t len, int fd, off_t off)
{
	return use_libv4l2 ? v4l2_mmap(NULL, len, PROT_READ | PROT_WRITE,
				       MAP_SHARED, fd, off)
			   : mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED,
				  fd, off);
}

static int dev_open(const char *dev, int *hold)
{
	int fd;

	*hold = -1;
	if (!strncmp(dev, "vcam:", 5)) {
		char name[200], path[64];

		snprintf(name, sizeof(name), "libv4l-vcam:%s", dev + 5);
		*hold = memfd_create(name, MFD_CLOEXEC);
		if (*hold < 0)
			return -1;
		if (use_libv4l2) {
			fd = dup(*hold);
			return v4l2_fd_open(fd, lib_flags);
		}
		snprintf(path, sizeof(path), "/proc/self/fd/%d", *hold);
		return open(path, O_RDWR);
	}
	if (use_libv4l2) {
		fd = open(dev, O_RDWR);
		return fd < 0 ? -1 : v4l2_fd_open(fd, lib_flags);
	}
	return open(dev, O_RDWR);
}

static int dev_close(int fd)
{
	return use_libv4l2 ? v4l2_close(fd) : close(fd);
}

/* poll() on fd: revents, or -1 on timeout (0 returned); *ms: time taken. */
static int poll_in(int fd, int timeout, double *ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN | POLLRDNORM };
	double t0 = hang_now_ms();
	int r = poll(&p, 1, timeout);

	if (ms)
		*ms = hang_now_ms() - t0;
	return r > 0 ? p.revents : r == 0 ? 0 : -1;
}

/* vivid's button named like v4l2-ctl spells it ("disconnect"). */
static int press(const char *dev, const char *name)
{
	struct v4l2_queryctrl q = { .id = V4L2_CTRL_FLAG_NEXT_CTRL };
	int fd = open(dev, O_RDWR), r = -1;

	if (fd < 0)
		return -1;
	while (ioctl(fd, VIDIOC_QUERYCTRL, &q) == 0) {
		char n[64];
		size_t o = 0;

		for (const char *c = (const char *)q.name;
		     *c && o + 1 < sizeof(n); c++)
			n[o++] =
				(char)((*c >= 'A' && *c <= 'Z') ? *c - 'A' + 'a'
								: *c);
		n[o] = '\0';
		if (!strcmp(n, name)) {
			struct v4l2_control c = { .id = q.id, .value = 1 };

			r = ioctl(fd, VIDIOC_S_CTRL, &c);
			break;
		}
		q.id |= V4L2_CTRL_FLAG_NEXT_CTRL;
	}
	close(fd);
	return r;
}

/* A buffer to dequeue, of the stream's memory type. */
static struct v4l2_buffer empty_buf(const struct stream *s)
{
	struct v4l2_buffer b = {
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = s->memory,
	};

	return b;
}

/* QBUF b again; a USERPTR buffer must name its memory again each time. */
static int requeue(const struct stream *s, struct v4l2_buffer *b)
{
	if (s->userptr) {
		b->m.userptr = (unsigned long)s->map[b->index];
		b->length = (uint32_t)s->len[b->index];
	}
	return xioctl(s->fd, VIDIOC_QBUF, b);
}

struct options {
	const char *dev, *server;
	int unplug, press_after, userptr;
};

/* 0, or 2 (the usage exit status) when no device is named. */
static int parse_args(int argc, char **argv, struct options *o)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--libv4l2"))
			use_libv4l2 = 1;
		else if (!strcmp(argv[i], "--plain"))
			use_libv4l2 = 0;
		else if (!strcmp(argv[i], "--userptr"))
			o->userptr = 1;
		else if (!strcmp(argv[i], "--server") && i + 1 < argc)
			o->server = argv[++i];
		else if (!strcmp(argv[i], "--unplug") && i + 1 < argc)
			o->unplug = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--press-disconnect") && i + 1 < argc)
			o->press_after = atoi(argv[++i]);
		else
			o->dev = argv[i];
	}
	if (!o->dev) {
		fprintf(stderr, "usage: see the top of poll.c\n");
		return 2;
	}
	return 0;
}

/* Shared, the program's fd is the client's socket, not the device. */
static void check_fd_is_socket(int fd)
{
	char path[64], link[128];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, link, sizeof(link) - 1);
	link[n > 0 ? n : 0] = '\0';
	result(!strncmp(link, "socket:", 7), "the fd is the frame socket (%s)",
	       link);
}

/* Buffer i: user memory or the mapped buffer, queued. 0 or -1. */
static int setup_buffer(struct stream *s, unsigned i)
{
	struct v4l2_buffer b = empty_buf(s);

	b.index = i;
	if (s->userptr) {
		s->len[i] = s->f.fmt.pix.sizeimage;
		s->map[i] = calloc(1, s->len[i]);
		b.m.userptr = (unsigned long)s->map[i];
		b.length = (uint32_t)s->len[i];
	} else {
		if (xioctl(s->fd, VIDIOC_QUERYBUF, &b) < 0) {
			result(0, "QUERYBUF %u: %s", i, strerror(errno));
			return -1;
		}
		s->len[i] = b.length;
		s->map[i] = xmmap(b.length, s->fd, b.m.offset);
		if (s->map[i] == MAP_FAILED) {
			result(0, "mmap buffer %u: %s", i, strerror(errno));
			return -1;
		}
	}
	if (xioctl(s->fd, VIDIOC_QBUF, &b) < 0) {
		result(0, "QBUF %u: %s", i, strerror(errno));
		return -1;
	}
	return 0;
}

/* S_FMT YUYV 320x240, NBUF buffers requested and queued. 0 or -1. */
static int setup_stream(struct stream *s)
{
	struct v4l2_requestbuffers req = {
		.count = NBUF,
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = s->memory,
	};
	struct v4l2_format *f = &s->f;

	f->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	f->fmt.pix.width = 320;
	f->fmt.pix.height = 240;
	f->fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
	f->fmt.pix.field = V4L2_FIELD_NONE;
	result(xioctl(s->fd, VIDIOC_S_FMT, f) == 0 &&
		       f->fmt.pix.pixelformat == V4L2_PIX_FMT_YUYV,
	       "S_FMT YUYV %ux%u", f->fmt.pix.width, f->fmt.pix.height);
	result(xioctl(s->fd, VIDIOC_REQBUFS, &req) == 0 && req.count == NBUF,
	       "REQBUFS %u %s", req.count, s->userptr ? "USERPTR" : "MMAP");
	for (unsigned i = 0; i < NBUF; i++)
		if (setup_buffer(s, i) < 0)
			return -1;
	return 0;
}

/* A picture, not a constant fill: 8 changes among samples 97 bytes apart. */
static int whole_picture(const struct stream *s, const struct v4l2_buffer *b)
{
	const uint8_t *p = s->map[b->index];
	int distinct = 0;

	for (size_t i = 1; i < b->bytesused && distinct < 8; i += 97)
		distinct += p[i] != p[i - 1];
	return b->bytesused == s->f.fmt.pix.sizeimage && distinct >= 8;
}

/* Streaming: POLLIN before each DQBUF, and a short poll after one. */
static void test_poll_frames(const struct stream *s)
{
	int nframes = 0, good = 0, quiet = 0, r;
	double ms;

	for (int k = 0; k < 12; k++) {
		struct v4l2_buffer b = empty_buf(s);

		r = poll_in(s->fd, 5000, &ms);
		if (r <= 0 || !(r & POLLIN) || !(r & POLLRDNORM) ||
		    (r & (POLLOUT | POLLERR | POLLHUP))) {
			result(0, "frame %d: poll revents 0x%x after %.0f ms",
			       k, r, ms);
			break;
		}
		if (xioctl(s->fd, VIDIOC_DQBUF, &b) < 0) {
			result(0, "frame %d: DQBUF after POLLIN: %s", k,
			       strerror(errno));
			break;
		}
		nframes++;
		good += whole_picture(s, &b);
		/* Right after a DQBUF the next frame is still to come (30 fps:
		 * ~33 ms away): a short poll times out. Counted, not required
		 * of every frame (a late reader may find the next one). */
		r = poll_in(s->fd, 5, &ms);
		if (r == 0 && ms >= 4)
			quiet++;
		if (r < 0 || (r & (POLLERR | POLLHUP)))
			result(0, "frame %d: short poll revents 0x%x", k, r);
		if (requeue(s, &b) < 0) {
			result(0, "QBUF again: %s", strerror(errno));
			break;
		}
	}
	result(nframes == 12,
	       "poll POLLIN|POLLRDNORM (no POLLOUT/POLLERR) "
	       "before each of %d DQBUFs",
	       nframes);
	result(good == nframes, "%d of %d frames whole pictures (%s)", good,
	       nframes, s->userptr ? "copied into the user pointers" : "mmap");
	result(quiet >= 6,
	       "poll with a 5 ms timeout right after a DQBUF "
	       "timed out (returned 0) %d of %d times",
	       quiet, nframes);
}

/* select(): readable when a frame is there, never writable. */
static void test_select(const struct stream *s)
{
	int fd = s->fd, r;
	fd_set rd, wr, ex;
	struct timeval tv = { 5, 0 };
	struct v4l2_buffer b = empty_buf(s);

	FD_ZERO(&rd);
	FD_ZERO(&wr);
	FD_ZERO(&ex);
	FD_SET(fd, &rd);
	FD_SET(fd, &wr);
	FD_SET(fd, &ex);
	r = select(fd + 1, &rd, &wr, &ex, &tv);
	result(r == 1 && FD_ISSET(fd, &rd) && !FD_ISSET(fd, &wr),
	       "select: readable, not writable (%d)", r);
	r = xioctl(fd, VIDIOC_DQBUF, &b);
	result(r == 0, "DQBUF after select");
	if (r == 0)
		requeue(s, &b);
	FD_ZERO(&rd);
	FD_SET(fd, &rd);
	tv.tv_sec = 0;
	tv.tv_usec = 5000;
	r = select(fd + 1, &rd, NULL, NULL, &tv);
	printf("select 5 ms right after a DQBUF: %d\n", r);
}

/* O_NONBLOCK: EAGAIN until poll says a frame is there. */
static void test_nonblock(const struct stream *s)
{
	int fl = fcntl(s->fd, F_GETFL), eagain = 0, ok = 0, r;

	fcntl(s->fd, F_SETFL, fl | O_NONBLOCK);
	for (int k = 0; k < 5; k++) {
		struct v4l2_buffer b = empty_buf(s);

		if (xioctl(s->fd, VIDIOC_DQBUF, &b) < 0) {
			if (errno != EAGAIN)
				break;
			eagain++;
			r = poll_in(s->fd, 5000, NULL);
			if (r <= 0 || !(r & POLLIN) ||
			    xioctl(s->fd, VIDIOC_DQBUF, &b) < 0)
				break;
		}
		ok++;
		requeue(s, &b);
	}
	result(ok == 5,
	       "O_NONBLOCK: 5 frames, %d EAGAIN answered by "
	       "poll then DQBUF",
	       eagain);
	fcntl(s->fd, F_SETFL, fl);
}

/* The device goes away: ENODEV for DQBUF, POLLERR/POLLHUP. */
static void test_unplug(const struct stream *s, const char *dev,
			int press_after)
{
	int err = 0, got = 0, r;
	unsigned revents = 0;
	struct v4l2_buffer b;
	double ms;

	if (press_after)
		result(press(dev, "disconnect") == 0,
		       "pressed vivid's Disconnect");
	alarm(30);
	for (int k = 0; k < 400; k++) {
		b = empty_buf(s);
		r = poll_in(s->fd, 5000, NULL);
		if (r & (POLLERR | POLLHUP))
			revents = (unsigned)r;
		if (xioctl(s->fd, VIDIOC_DQBUF, &b) < 0) {
			err = errno;
			break;
		}
		got++;
		requeue(s, &b);
	}
	result(err == ENODEV,
	       "unplug: DQBUF fails with ENODEV after %d "
	       "more frames (%s)",
	       got, strerror(err));
	r = poll_in(s->fd, 2000, &ms);
	if (r > 0)
		revents |= (unsigned)r;
	result((revents & (POLLERR | POLLHUP)) != 0,
	       "unplug: poll reports 0x%x (POLLERR 0x8, POLLHUP 0x10) "
	       "after %.0f ms",
	       revents, ms);
	b = empty_buf(s);
	errno = 0;
	r = xioctl(s->fd, VIDIOC_DQBUF, &b);
	result(r < 0 && errno == ENODEV, "unplug: DQBUF again: ENODEV (%s)",
	       strerror(errno));
}

static void release_buffers(const struct stream *s)
{
	for (unsigned i = 0; i < NBUF; i++) {
		if (s->userptr)
			free(s->map[i]);
		else if (use_libv4l2)
			v4l2_munmap(s->map[i], s->len[i]);
		else
			munmap(s->map[i], s->len[i]);
	}
}

/* The runtime directory and server binary of a private server. 0 or 2. */
static int server_env(const char *server, char *tmpdir)
{
	if (!mkdtemp(tmpdir))
		return 2;
	setenv("XDG_RUNTIME_DIR", tmpdir, 1);
	setenv("LIBV4L2_FRAMESERVER", server, 1);
	setenv("LIBV4L2_FRAMESERVER_IDLE_MS", "300", 1);
	return 0;
}

static void server_cleanup(const char *tmpdir)
{
	char cmd[128];

	usleep(600 * 1000); /* the server's idle exit */
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	if (system(cmd) != 0)
		printf("could not remove %s\n", tmpdir);
}

int main(int argc, char **argv)
{
	struct options o = { 0 };
	struct stream s = { .memory = V4L2_MEMORY_MMAP };
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE, hold, r;
	char tmpdir[] = "/tmp/fspollXXXXXX";
	double ms;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (parse_args(argc, argv, &o))
		return 2;
	if (o.server && server_env(o.server, tmpdir))
		return 2;
	setenv("LIBV4L2_SHARE", "1", 1);
	signal(SIGALRM, hang_on_alarm);
	alarm(60);

	if (o.userptr)
		lib_flags = V4L2_DISABLE_CONVERSION;
	s.fd = dev_open(o.dev, &hold);
	result(s.fd >= 0, "open %s (%s)", o.dev,
	       use_libv4l2 ? "libv4l2" : "plain calls");
	if (s.fd < 0)
		return 1;
	check_fd_is_socket(s.fd);
	s.userptr = o.userptr;
	if (s.userptr)
		s.memory = V4L2_MEMORY_USERPTR;
	if (setup_stream(&s) < 0)
		return 1;
	/* Not streaming: a V4L2 device answers POLLERR at once; the shared
	 * fd has nothing to read (no frame can come): only reported. */
	r = poll_in(s.fd, 50, &ms);
	printf("before STREAMON: poll revents 0x%x after %.0f ms\n", r, ms);
	result(!(r > 0 && (r & POLLIN)), "before STREAMON: no POLLIN");

	result(xioctl(s.fd, VIDIOC_STREAMON, &type) == 0, "STREAMON");
	test_poll_frames(&s);
	test_select(&s);
	test_nonblock(&s);
	if (o.unplug || o.press_after) {
		test_unplug(&s, o.dev, o.press_after);
		xioctl(s.fd, VIDIOC_STREAMOFF, &type);
	} else {
		result(xioctl(s.fd, VIDIOC_STREAMOFF, &type) == 0, "STREAMOFF");
	}
	release_buffers(&s);
	result(dev_close(s.fd) == 0, "close");
	if (hold >= 0)
		close(hold);
	alarm(0);
	if (o.server)
		server_cleanup(tmpdir);
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
