/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Runs inside the vivid VM (tests/vm/batch-capture.sh): capture through our
 * libv4l2 on a REAL driver, with conversion, in every io mode.
 *
 *   capture_check DEVICE FOURCC...
 *
 * vivid offers every destination libv4lconvert produces natively, so the
 * library would never convert from the format under test. To make it do
 * so, the device is seen through a filter (the test build's plugin hook,
 * lv2_test_set_plugin): ENUM_FMT lists only format F, TRY_FMT/S_FMT force
 * F, as a camera that has nothing else would. Run with
 * LIBV4LCONTROL_FLAGS=1 (mirrored sensor) so that even F == destination
 * converts.
 * For each F and destination (RGB24, YUV420), 640x480:
 *  - the raw frame is captured with plain ioctls (mmap streaming, no
 *    libv4l2);
 *  - the expected frame is v4lconvert_convert of that raw frame by a
 *    converter created on the same filtered device (same flags);
 *  - frames through libv4l2 (v4l2_fd_open, S_FMT of the destination) with
 *    mmap streaming and read() must be byte-identical to it; REQBUFS
 *    (USERPTR) must be refused with EINVAL, as the original answers
 *    whenever conversion is enabled.
 * vivid's test pattern must be static (osd_text_mode=2, test_pattern=4).
 * One line per format/io/destination, then "N passed, N failed".
 *
 *   capture_check --latency DEVICE FOURCC...
 * Median wall time of DQBUF through libv4l2 (fd polled ready first, so the
 * wait for the frame is excluded) with conversion to RGB24 against
 * V4L2_DISABLE_CONVERSION, 30 frames, 640x480 and 1280x720, device
 * filtered to F as above. Informational only (no pass/fail).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <libv4l-plugin.h>
#include <libv4l2.h>
#include <libv4lconvert.h>

#include "v4l2/testhook.h"

#define W 640
#define H 480
#define NBUF 3

static int passed, failed, skipped;
static uint32_t only_fmt; /* 0: the filter declines every fd */
static int filter_priv;
static struct v4l2_format last_s_fmt; /* the driver's last S_FMT answer */

static int is_hsv(uint32_t f)
{
	return f == V4L2_PIX_FMT_HSV24 || f == V4L2_PIX_FMT_HSV32;
}

static const char *fcc(uint32_t f, char buf[5])
{
	for (int i = 0; i < 4; i++) {
		char c = (char)((f >> (8 * i)) & 0xff);
		buf[i] = (c >= 32 && c < 127) ? c : '?';
	}
	buf[4] = 0;
	return buf;
}

static uint32_t name_fourcc(const char *s)
{
	char c[4] = { ' ', ' ', ' ', ' ' };

	for (size_t i = 0; i < 4 && s[i]; i++)
		c[i] = s[i];
	return v4l2_fourcc(c[0], c[1], c[2], c[3]);
}

static int sys_ioctl(int fd, unsigned long req, void *arg)
{
	int r;

	do
		r = (int)syscall(SYS_ioctl, fd, req, arg);
	while (r < 0 && errno == EINTR);
	return r;
}

/* ---- the filter: a device that only has only_fmt ---- */

static void *flt_init(int fd)
{
	(void)fd;
	return only_fmt ? &filter_priv : NULL;
}

static void flt_close(void *priv)
{
	(void)priv;
}

static void force_fmt(struct v4l2_format *f)
{
	if (f->type != V4L2_BUF_TYPE_VIDEO_CAPTURE)
		return;
	f->fmt.pix.pixelformat = only_fmt;
	if (only_fmt == V4L2_PIX_FMT_HSV24 || only_fmt == V4L2_PIX_FMT_HSV32) {
		f->fmt.pix.priv = V4L2_PIX_FMT_PRIV_MAGIC;
		f->fmt.pix.flags |= V4L2_PIX_FMT_FLAG_SET_CSC;
		f->fmt.pix.hsv_enc = V4L2_HSV_ENC_256;
	}
}

static int flt_ioctl(void *priv, int fd, unsigned long req, void *arg)
{
	(void)priv;
	if (req == VIDIOC_ENUM_FMT) {
		struct v4l2_fmtdesc *d = arg, e;

		if (d->type != V4L2_BUF_TYPE_VIDEO_CAPTURE)
			return sys_ioctl(fd, req, arg);
		if (d->index != 0) {
			errno = EINVAL;
			return -1;
		}
		for (uint32_t i = 0;; i++) {
			memset(&e, 0, sizeof(e));
			e.type = d->type;
			e.index = i;
			if (sys_ioctl(fd, VIDIOC_ENUM_FMT, &e) < 0)
				return -1;
			if (e.pixelformat == only_fmt) {
				e.index = 0;
				*d = e;
				return 0;
			}
		}
	}
	if (req == VIDIOC_TRY_FMT || req == VIDIOC_S_FMT)
		force_fmt(arg);
	if (req == VIDIOC_S_FMT) {
		int r = sys_ioctl(fd, req, arg);

		if (r == 0)
			last_s_fmt = *(struct v4l2_format *)arg;
		return r;
	}
	if (req == VIDIOC_ENUM_FRAMESIZES &&
	    ((struct v4l2_frmsizeenum *)arg)->pixel_format != only_fmt) {
		errno = EINVAL;
		return -1;
	}
	if (req == VIDIOC_ENUM_FRAMEINTERVALS &&
	    ((struct v4l2_frmivalenum *)arg)->pixel_format != only_fmt) {
		errno = EINVAL;
		return -1;
	}
	return sys_ioctl(fd, req, arg);
}

static ssize_t flt_read(void *priv, int fd, void *buf, size_t n)
{
	(void)priv;
	return syscall(SYS_read, fd, buf, n);
}

static ssize_t flt_write(void *priv, int fd, const void *buf, size_t n)
{
	(void)priv;
	return syscall(SYS_write, fd, buf, n);
}

static const struct libv4l_dev_ops filter_ops = {
	.init = flt_init,
	.close = flt_close,
	.ioctl = flt_ioctl,
	.read = flt_read,
	.write = flt_write,
};

/* ---- helpers ---- */

static struct v4l2_format pixfmt(uint32_t fourcc, uint32_t w, uint32_t h)
{
	struct v4l2_format f;

	memset(&f, 0, sizeof(f));
	f.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	f.fmt.pix.pixelformat = fourcc;
	f.fmt.pix.width = w;
	f.fmt.pix.height = h;
	f.fmt.pix.field = V4L2_FIELD_NONE;
	f.fmt.pix.priv = V4L2_PIX_FMT_PRIV_MAGIC; /* flags, hsv_enc valid */
	if (fourcc == V4L2_PIX_FMT_HSV24 || fourcc == V4L2_PIX_FMT_HSV32) {
		f.fmt.pix.flags = V4L2_PIX_FMT_FLAG_SET_CSC;
		f.fmt.pix.hsv_enc = V4L2_HSV_ENC_256;
	}
	return f;
}

typedef int (*ioctl_fn)(int fd, unsigned long req, void *arg);

static int lib_ioctl(int fd, unsigned long req, void *arg)
{
	return v4l2_ioctl(fd, req, arg);
}

static void set_30fps(ioctl_fn io, int fd)
{
	struct v4l2_streamparm p;

	memset(&p, 0, sizeof(p));
	p.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	p.parm.capture.timeperframe.numerator = 1;
	p.parm.capture.timeperframe.denominator = 30;
	io(fd, VIDIOC_S_PARM, &p);
}

/*
 * Stream `frames` frames with MMAP or USERPTR buffers through `io`, keep the
 * last one in out (up to `size` bytes). Returns its bytesused, or -1 (with
 * *why set); -2 when REQBUFS refuses the memory type.
 */
static long stream(ioctl_fn io, int fd, int lib, enum v4l2_memory mem,
		   int frames, uint8_t *out, size_t size, const char **why)
{
	struct v4l2_requestbuffers rb;
	struct v4l2_buffer b;
	void *maps[NBUF] = { 0 };
	size_t lens[NBUF] = { 0 };
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	long used = -1;
	unsigned int n;

	memset(&rb, 0, sizeof(rb));
	rb.count = NBUF;
	rb.type = type;
	rb.memory = mem;
	if (io(fd, VIDIOC_REQBUFS, &rb) < 0 || rb.count == 0) {
		*why = "REQBUFS";
		return -2;
	}
	n = rb.count < NBUF ? rb.count : NBUF;
	for (unsigned int i = 0; i < n; i++) {
		memset(&b, 0, sizeof(b));
		b.type = type;
		b.memory = mem;
		b.index = i;
		if (io(fd, VIDIOC_QUERYBUF, &b) < 0) {
			*why = "QUERYBUF";
			goto out;
		}
		lens[i] = b.length;
		if (mem == V4L2_MEMORY_MMAP) {
			maps[i] = lib ? v4l2_mmap(NULL, b.length,
						  PROT_READ | PROT_WRITE,
						  MAP_SHARED, fd, b.m.offset)
				      : mmap(NULL, b.length,
					     PROT_READ | PROT_WRITE, MAP_SHARED,
					     fd, b.m.offset);
			if (maps[i] == MAP_FAILED) {
				maps[i] = NULL;
				*why = "mmap";
				goto out;
			}
		} else {
			maps[i] =
				aligned_alloc(4096, (b.length + 4095) & ~4095u);
			b.m.userptr = (unsigned long)maps[i];
		}
		if (io(fd, VIDIOC_QBUF, &b) < 0) {
			*why = "QBUF";
			goto out;
		}
	}
	if (io(fd, VIDIOC_STREAMON, &type) < 0) {
		*why = "STREAMON";
		goto out;
	}
	for (int k = 0; k < frames; k++) {
		memset(&b, 0, sizeof(b));
		b.type = type;
		b.memory = mem;
		if (io(fd, VIDIOC_DQBUF, &b) < 0) {
			*why = "DQBUF";
			goto off;
		}
		if (k == frames - 1) {
			used = b.bytesused < size ? b.bytesused : (long)size;
			memcpy(out, maps[b.index], (size_t)used);
		}
		if (io(fd, VIDIOC_QBUF, &b) < 0) {
			*why = "QBUF again";
			used = -1;
			goto off;
		}
	}
off:
	io(fd, VIDIOC_STREAMOFF, &type);
out:
	for (unsigned int i = 0; i < n; i++) {
		if (!maps[i])
			continue;
		if (mem == V4L2_MEMORY_MMAP) {
			if (lib)
				v4l2_munmap(maps[i], lens[i]);
			else
				munmap(maps[i], lens[i]);
		}
	}
	rb.count = 0;
	io(fd, VIDIOC_REQBUFS, &rb);
	if (mem == V4L2_MEMORY_USERPTR)
		for (unsigned int i = 0; i < n; i++)
			free(maps[i]);
	return used;
}

static void report(int ok, const char *what, const char *detail)
{
	printf("%s %s%s%s\n", ok ? "PASS" : "FAIL", what, detail ? ": " : "",
	       detail ? detail : "");
	if (ok)
		passed++;
	else
		failed++;
}

static void compare(const char *what, const uint8_t *got, long got_n,
		    const uint8_t *want, size_t want_n)
{
	char msg[160];
	size_t diff = 0, first = 0;

	if (got_n != (long)want_n) {
		snprintf(msg, sizeof(msg), "%ld bytes, want %zu", got_n,
			 want_n);
		report(0, what, msg);
		return;
	}
	for (size_t i = 0; i < want_n; i++)
		if (got[i] != want[i] && !diff++)
			first = i;
	if (diff) {
		snprintf(msg, sizeof(msg),
			 "%zu bytes differ, first at %zu (%u, want %u)", diff,
			 first, got[first], want[first]);
		report(0, what, msg);
	} else {
		report(1, what, NULL);
	}
}

/* ---- the check of one native format ---- */

/* One native format's check: its raw frame and the buffers it uses. */
struct fmt_check {
	const char *dev, *name;
	uint32_t f;
	struct v4l2_format raw_fmt;
	struct v4l2_capability cap;
	size_t big;
	uint8_t *raw, *want, *got;
	long raw_n;
	const char *why; /* the last capture's failure */
};

/* A raw frame of the format, by plain ioctls; its bytes, or -1 (reported). */
static long capture_raw(struct fmt_check *c)
{
	char msg[128];
	int fd;

	only_fmt = 0;
	c->raw_fmt = pixfmt(c->f, W, H);
	fd = open(c->dev, O_RDWR);
	if (fd < 0 || sys_ioctl(fd, VIDIOC_S_FMT, &c->raw_fmt) < 0 ||
	    c->raw_fmt.fmt.pix.pixelformat != c->f ||
	    c->raw_fmt.fmt.pix.width != W || c->raw_fmt.fmt.pix.height != H) {
		snprintf(msg, sizeof(msg), "cannot set %s %dx%d natively (%s)",
			 c->name, W, H, strerror(errno));
		report(0, c->name, msg);
		return -1;
	}
	/* vivid's S_FMT answer may carry a stale hsv_enc: ask again. */
	sys_ioctl(fd, VIDIOC_G_FMT, &c->raw_fmt);
	memset(&c->cap, 0, sizeof(c->cap));
	sys_ioctl(fd, VIDIOC_QUERYCAP, &c->cap);
	set_30fps(sys_ioctl, fd);
	c->raw_n = stream(sys_ioctl, fd, 0, V4L2_MEMORY_MMAP, 2, c->raw, c->big,
			  &c->why);
	close(fd);
	if (c->raw_n != (long)c->raw_fmt.fmt.pix.sizeimage) {
		snprintf(msg, sizeof(msg), "raw capture: %ld bytes (%s)",
			 c->raw_n, c->why);
		report(0, c->name, msg);
		return -1;
	}
	return c->raw_n;
}

/* The expected frame in dst_cc: our converter on the filtered device.
 * Its bytes, or -1 (reported). */
static int reference(struct fmt_check *c, uint32_t dst_cc)
{
	struct v4l2_format dst = pixfmt(dst_cc, W, H), src;
	struct v4lconvert_data *conv;
	char what[96], msg[128], b4[5];
	int want_n = -1, fd = open(c->dev, O_RDWR);

	conv = fd >= 0 ? v4lconvert_create_with_dev_ops(fd, &filter_priv,
							&filter_ops)
		       : NULL;
	if (conv && v4lconvert_try_format(conv, &dst, &src) == 0 &&
	    src.fmt.pix.pixelformat == c->f)
		want_n =
			v4lconvert_convert(conv, &c->raw_fmt, &dst, c->raw,
					   (int)c->raw_n, c->want, (int)c->big);
	snprintf(what, sizeof(what), "%s -> %s", c->name, fcc(dst_cc, b4));
	if (want_n <= 0) {
		snprintf(msg, sizeof(msg), "reference conversion: %s",
			 conv ? v4lconvert_get_error_message(conv)
			      : "no converter");
		report(0, what, msg);
		if (conv)
			v4lconvert_destroy(conv);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	v4lconvert_destroy(conv);
	close(fd);
	return want_n;
}

/*
 * vivid draws the same hues whatever it reports, but reports hsv_enc
 * differently to the two opens: the reference again, converting the raw
 * frame as libv4l2's source was described. Its bytes.
 */
static int hsv_reference(struct fmt_check *c, uint32_t dst_cc)
{
	struct v4l2_format as_lib = c->raw_fmt;
	struct v4l2_format dd = pixfmt(dst_cc, W, H);
	struct v4lconvert_data *c2 = v4lconvert_create(-1);
	int want_n;

	as_lib.fmt.pix.hsv_enc = last_s_fmt.fmt.pix.hsv_enc;
	v4lconvert_fixup_fmt(&dd);
	want_n = c2 ? v4lconvert_convert(c2, &as_lib, &dd, c->raw,
					 (int)c->raw_n, c->want, (int)c->big)
		    : -1;
	if (c2)
		v4lconvert_destroy(c2);
	printf("    note: raw hsv_enc %u, libv4l2's source %u: reference "
	       "uses %u\n",
	       c->raw_fmt.fmt.pix.hsv_enc, last_s_fmt.fmt.pix.hsv_enc,
	       last_s_fmt.fmt.pix.hsv_enc);
	return want_n;
}

/* A frame through libv4l2 by one I/O method (0 mmap, 1 read, 2 user
 * pointers) into c->got: its bytes, -2 when REQBUFS refused USERPTR
 * (errno set), or -1 after reporting why. */
static long capture_converted(struct fmt_check *c, uint32_t dst_cc, int io,
			      int want_n, const char *what)
{
	struct v4l2_format s = pixfmt(dst_cc, W, H);
	char msg[128], b4[5];
	int fd = open(c->dev, O_RDWR);
	int lfd = fd >= 0 ? v4l2_fd_open(fd, 0) : -1;
	long n;

	if (lfd < 0) {
		report(0, what, "v4l2_fd_open failed");
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (v4l2_ioctl(lfd, VIDIOC_S_FMT, &s) < 0 ||
	    s.fmt.pix.pixelformat != dst_cc || s.fmt.pix.width != W ||
	    s.fmt.pix.height != H || s.fmt.pix.sizeimage != (uint32_t)want_n) {
		snprintf(msg, sizeof(msg), "S_FMT gave %s %ux%u size %u (%s)",
			 fcc(s.fmt.pix.pixelformat, b4), s.fmt.pix.width,
			 s.fmt.pix.height, s.fmt.pix.sizeimage,
			 strerror(errno));
		report(0, what, msg);
		v4l2_close(lfd);
		return -1;
	}
	set_30fps(lib_ioctl, lfd);
	memset(c->got, 0x5a, c->big);
	if (io == 1) {
		n = -1;
		for (int k = 0; k < 2; k++)
			n = v4l2_read(lfd, c->got, s.fmt.pix.sizeimage);
		c->why = "read";
	} else {
		n = stream(lib_ioctl, lfd, 1,
			   io == 0 ? V4L2_MEMORY_MMAP : V4L2_MEMORY_USERPTR, 2,
			   c->got, c->big, &c->why);
	}
	if (n == -2 && io == 2) {
		int e = errno;

		v4l2_close(lfd);
		errno = e;
		return -2;
	}
	v4l2_close(lfd);
	if (n < 0) {
		snprintf(msg, sizeof(msg), "%s failed (%s)", c->why,
			 strerror(errno));
		report(0, what, msg);
		return -1;
	}
	return n;
}

/* dst_cc through libv4l2 by each I/O method, against the reference;
 * *want_n: the reference's bytes (the HSV case may redo it). */
static void check_dst_io(struct fmt_check *c, uint32_t dst_cc, int io,
			 int *want_n)
{
	static const char *const io_names[] = { "mmap", "read", "userptr" };
	char what[96], b4[5];
	long n;

	snprintf(what, sizeof(what), "%s -> %s %s", c->name, fcc(dst_cc, b4),
		 io_names[io]);
	if (io == 1 && !(c->cap.device_caps & V4L2_CAP_READWRITE) &&
	    !(c->cap.capabilities & V4L2_CAP_READWRITE)) {
		printf("SKIP %s: no read()\n", what);
		skipped++;
		return;
	}
	n = capture_converted(c, dst_cc, io, *want_n, what);
	if (io == 2) {
		/* zbarcam falls back to MMAP only on this refusal */
		int refused = n == -2 && errno == EINVAL;

		report(refused, what,
		       refused ? "REQBUFS(USERPTR) refused (EINVAL), as the "
				 "original"
			       : "USERPTR granted while converting");
		return;
	}
	if (n < 0)
		return;
	if (is_hsv(c->f) &&
	    last_s_fmt.fmt.pix.hsv_enc != c->raw_fmt.fmt.pix.hsv_enc)
		*want_n = hsv_reference(c, dst_cc);
	compare(what, c->got, n, c->want, (size_t)*want_n);
	if (!is_hsv(c->f) &&
	    last_s_fmt.fmt.pix.ycbcr_enc != c->raw_fmt.fmt.pix.ycbcr_enc)
		printf("    note: the raw frame had ycbcr_enc %u, libv4l2's "
		       "source %u\n",
		       c->raw_fmt.fmt.pix.ycbcr_enc,
		       last_s_fmt.fmt.pix.ycbcr_enc);
}

static void check_format(const char *dev, const char *name)
{
	static const uint32_t dsts[] = { V4L2_PIX_FMT_RGB24,
					 V4L2_PIX_FMT_YUV420 };
	struct fmt_check c = { .dev = dev, .name = name, .why = "" };

	c.f = name_fourcc(name);
	c.big = (size_t)W * H * 8;
	c.raw = malloc(c.big);
	c.want = malloc(c.big);
	c.got = malloc(c.big);
	if (capture_raw(&c) >= 0) {
		only_fmt = c.f;
		for (size_t d = 0; d < sizeof(dsts) / sizeof(dsts[0]); d++) {
			int want_n = reference(&c, dsts[d]);

			if (want_n < 0)
				continue; /* reported */
			for (int io = 0; io < 3; io++)
				check_dst_io(&c, dsts[d], io, &want_n);
		}
	}
	only_fmt = 0;
	free(c.raw);
	free(c.want);
	free(c.got);
}

/* ---- latency ---- */

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median ms of DQBUF (after poll) over `frames` frames; <0 on error. */
static double dqbuf_ms(const char *dev, uint32_t native, int w, int h,
		       int convert, int frames)
{
	struct v4l2_format f = pixfmt(native, (uint32_t)w, (uint32_t)h);
	struct v4l2_requestbuffers rb = { .count = NBUF,
					  .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
					  .memory = V4L2_MEMORY_MMAP };
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE, fd, ok = 0;
	double t[64], med = -1;

	fd = open(dev, O_RDWR);
	if (fd < 0 || sys_ioctl(fd, VIDIOC_S_FMT, &f) < 0 ||
	    f.fmt.pix.pixelformat != native || (int)f.fmt.pix.width != w) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (v4l2_fd_open(fd, convert ? 0 : V4L2_DISABLE_CONVERSION) != fd) {
		close(fd);
		return -1;
	}
	if (convert) {
		f = pixfmt(V4L2_PIX_FMT_RGB24, (uint32_t)w, (uint32_t)h);
		if (v4l2_ioctl(fd, VIDIOC_S_FMT, &f) < 0)
			goto out;
	}
	set_30fps(lib_ioctl, fd);
	if (v4l2_ioctl(fd, VIDIOC_REQBUFS, &rb) < 0)
		goto out;
	for (unsigned int i = 0; i < rb.count; i++) {
		struct v4l2_buffer b = { .type = type,
					 .memory = V4L2_MEMORY_MMAP,
					 .index = i };

		if (v4l2_ioctl(fd, VIDIOC_QBUF, &b) < 0)
			goto out;
	}
	if (v4l2_ioctl(fd, VIDIOC_STREAMON, &type) < 0)
		goto out;
	if (frames > 64)
		frames = 64;
	for (int k = 0; k < frames; k++) {
		struct v4l2_buffer b = { .type = type,
					 .memory = V4L2_MEMORY_MMAP };
		struct pollfd p = { .fd = fd, .events = POLLIN };
		double t0;

		if (poll(&p, 1, 5000) != 1)
			break;
		t0 = now_ms();
		if (v4l2_ioctl(fd, VIDIOC_DQBUF, &b) < 0)
			break;
		t[ok++] = now_ms() - t0;
		v4l2_ioctl(fd, VIDIOC_QBUF, &b);
	}
	v4l2_ioctl(fd, VIDIOC_STREAMOFF, &type);
	if (ok == frames) {
		qsort(t, (size_t)ok, sizeof(t[0]), cmp_d);
		med = t[ok / 2];
	}
out:
	rb.count = 0;
	v4l2_ioctl(fd, VIDIOC_REQBUFS, &rb);
	v4l2_close(fd);
	return med;
}

static int latency(const char *dev, int n, char **names)
{
	static const int sizes[][2] = { { 640, 480 }, { 1280, 720 } };

	lv2_test_set_plugin(&filter_ops);
	printf("DQBUF median ms per frame (30 frames; TCG: indicative only)\n");
	for (int i = 0; i < n; i++) {
		for (int s = 0; s < 2; s++) {
			uint32_t f = name_fourcc(names[i]);
			int w = sizes[s][0], h = sizes[s][1];
			double raw;

			only_fmt = f; /* else vivid's own RGB3 would be used */
			raw = dqbuf_ms(dev, f, w, h, 0, 30);
			double conv = dqbuf_ms(dev, f, w, h, 1, 30);

			printf("latency %-4s %4dx%-4d raw %8.3f  ->RGB24 %8.3f  "
			       "added %8.3f ms\n",
			       names[i], w, h, raw, conv, conv - raw);
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "--latency")) {
		if (argc < 4) {
			fprintf(stderr,
				"usage: %s --latency DEVICE FOURCC...\n",
				argv[0]);
			return 2;
		}
		return latency(argv[2], argc - 3, argv + 3);
	}
	if (argc < 3) {
		fprintf(stderr, "usage: %s DEVICE FOURCC...\n", argv[0]);
		return 2;
	}
	if (access(argv[1], R_OK | W_OK) != 0) {
		printf("no %s: skipped\n", argv[1]);
		return 77;
	}
	lv2_test_set_plugin(&filter_ops);
	for (int i = 2; i < argc; i++)
		check_format(argv[1], argv[i]);
	printf("%d passed, %d failed (%d skipped)\n", passed, failed, skipped);
	return failed ? 1 : 0;
}
