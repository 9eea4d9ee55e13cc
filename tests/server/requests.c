/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The frame server's request handling in process, on a fake device
 * (fakesrv.h): a client's ENUM_FMT when the device's format list never
 * ends is answered (EINVAL: the shared format is not among the first
 * ones), not searched for forever with the server's lock held (an alarm
 * fails the test then); the server answers the next request. Then a
 * client's whole session (HELLO, format, stream on and off) as the real
 * server sees it. Forwarded ioctls in their wire form only (wire.h): a
 * format read at the wire's offsets, a raw ioctl number refused, a format
 * holding pointers refused.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "protocol/proto.h"
#include "protocol/wire.h"
#include "fakesrv.h"
#include "../common/check.h"

/* One request; the reply of its type (events skipped) into r. */
static int ask(int s, const void *m, size_t len, void *r, size_t rlen)
{
	const struct fs_hdr *h = m;
	struct fs_hdr *rh = r;
	int fd;

	if (fs_send(s, m, len, -1, 0) < 0 || fakesrv_handle() < 0)
		return -1;
	for (;;) {
		ssize_t n = fs_recv(s, r, rlen, &fd, MSG_DONTWAIT);

		if (fd >= 0)
			close(fd);
		if (n < 0)
			return -1;
		if (rh->type == h->type)
			return (size_t)n == rlen ? 0 : -1;
	}
}

static void test_endless_enum(void)
{
	struct fs_ioctl m = { .h.type = FS_IOCTL,
			      .req = FS_REQ_ENUM_FMT,
			      .size = sizeof(struct v4l2_fmtdesc) };
	struct v4l2_fmtdesc *d = (void *)m.arg;
	int s;

	fakesrv_reset();
	fakesrv_endless_enum = 1;
	s = fakesrv_connect();
	d->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	alarm(20); /* the unbounded search never returned */
	CHECK(ask(s, &m, sizeof(m), &m, sizeof(m)) == 0);
	alarm(0);
	CHECK(m.h.ret == -1 && m.h.err == EINVAL, "ret %d err %d", m.h.ret,
	      m.h.err);
	m.req = FS_REQ_QUERYCAP;
	m.size = sizeof(struct v4l2_capability);
	CHECK(ask(s, &m, sizeof(m), &m, sizeof(m)) == 0 && m.h.ret == 0);
	fakesrv_endless_enum = 0;
	close(s);
}

static void test_session(void)
{
	struct fs_hello hello = { .h.type = FS_HELLO,
				  .version = FS_PROTO_VERSION };
	struct fs_setfmt f = { .h.type = FS_SETFMT };
	struct fs_hdr h = { .type = FS_STREAMON };
	struct fs_ioctl m = { .h.type = FS_IOCTL,
			      .req = FS_REQ_ENUM_FMT,
			      .size = sizeof(struct v4l2_fmtdesc) };
	int s;

	fakesrv_reset();
	s = fakesrv_connect();
	CHECK(ask(s, &hello, sizeof(hello), &hello, sizeof(hello)) == 0 &&
	      hello.h.ret == 0 && hello.version == FS_PROTO_VERSION);
	CHECK(ask(s, &m, sizeof(m), &m, sizeof(m)) == 0 && m.h.ret == 0 &&
	      ((struct v4l2_fmtdesc *)m.arg)->pixelformat == V4L2_PIX_FMT_YUYV);
	f.pix.width = 32;
	f.pix.height = 24;
	f.pix.pixelformat = V4L2_PIX_FMT_RGB24;
	CHECK(ask(s, &f, sizeof(f), &f, sizeof(f)) == 0 && f.h.ret == 0 &&
	      f.pix.pixelformat == V4L2_PIX_FMT_YUYV && f.pix.width == 32);
	CHECK(ask(s, &h, sizeof(h), &h, sizeof(h)) == 0 && h.ret == 0);
	h.type = FS_STREAMOFF;
	CHECK(ask(s, &h, sizeof(h), &h, sizeof(h)) == 0 && h.ret == 0);
	/* An unknown request type: the client is dropped. */
	h.type = 0x7777;
	CHECK(fs_send(s, &h, sizeof(h), -1, 0) == 0 && fakesrv_handle() < 0);
	close(s);
}

static void test_wire(void)
{
	struct fs_ioctl m = { .h.type = FS_IOCTL,
			      .req = FS_REQ_G_FMT,
			      .size = 208 };
	uint32_t v[3];
	int s;

	fakesrv_reset();
	s = fakesrv_connect();
	m.arg[0] = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	CHECK(ask(s, &m, sizeof(m), &m, sizeof(m)) == 0 && m.h.ret == 0);
	memcpy(v, m.arg + 8, sizeof(v)); /* width, height, pixelformat */
	CHECK(v[0] == 64 && v[1] == 48 && v[2] == V4L2_PIX_FMT_YUYV,
	      "%ux%u %#x", v[0], v[1], v[2]);
	/* The ioctl number itself, as protocol version 2 sent it. */
	m.req = (uint32_t)VIDIOC_G_FMT;
	m.size = sizeof(struct v4l2_format);
	CHECK(ask(s, &m, sizeof(m), &m, sizeof(m)) == 0 && m.h.ret == -1 &&
	      m.h.err == ENOTTY);
	/* A known code with another size. */
	m.req = FS_REQ_G_FMT;
	m.size = 204;
	CHECK(ask(s, &m, sizeof(m), &m, sizeof(m)) == 0 && m.h.ret == -1 &&
	      m.h.err == ENOTTY);
	m.size = 208;
	memset(m.arg, 0, sizeof(m.arg));
	m.arg[0] = V4L2_BUF_TYPE_VIDEO_OVERLAY;
	m.req = FS_REQ_TRY_FMT;
	CHECK(ask(s, &m, sizeof(m), &m, sizeof(m)) == 0 && m.h.ret == -1 &&
	      m.h.err == EINVAL);
	close(s);
}

int main(void)
{
	test_wire();
	test_endless_enum();
	test_session();
	printf("server-requests: %d failures\n", failures);
	return failures != 0;
}
