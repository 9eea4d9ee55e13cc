/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A client's requests: forwarded ioctls (the wire table of wire.c,
 * answered for the one shared format), its format, stream on and off,
 * frame releases. Forwarded ioctls and formats are answered by the call
 * thread (server_calls.c), which drops the lock during the device's calls
 * (srv_dev_ioctl): what they find in srv is read with the lock held.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <libv4l2.h>

#include "core/format.h"
#include "protocol/wire.h"
#include "server.h"

/* MJPEG, JPEG (the format table's JPEG layout): frames of varying size. */
static int compressed(uint32_t fourcc)
{
	const struct v4lc_format *f = v4lc_format_row(fourcc);

	return f && f->layout == V4LC_L_JPEG;
}

/*
 * ENUM_FMT: the shared format alone, as index 0. Searched among the first
 * SRV_MAX_FORMATS (as choose_share_fmt does): a driver whose list never
 * ends must not hold the server (and its call thread) forever.
 */
static int enum_shared_fmt(struct v4l2_fmtdesc *d)
{
	struct v4l2_fmtdesc want;

	if (d->index == 1 && srv.dec_fmt) {
		/* The decoded format (server_decode.c) comes second, with
		 * the kernel's description (the format table's). */
		memset(d->description, 0, sizeof(d->description));
		snprintf((char *)d->description, sizeof(d->description), "%s",
			 v4lc_format_row(srv.dec_fmt)->desc);
		d->pixelformat = srv.dec_fmt;
		d->flags = 0;
		return 0;
	}
	for (uint32_t i = 0; d->index == 0 && i < SRV_MAX_FORMATS; i++) {
		memset(&want, 0, sizeof(want));
		want.index = i;
		want.type = d->type;
		if (srv_dev_ioctl(VIDIOC_ENUM_FMT, &want) < 0)
			break;
		if (want.pixelformat == srv.share_fmt) {
			*d = want;
			d->index = 0;
			return 0;
		}
	}
	errno = EINVAL;
	return -1;
}

/* ENUM_FRAMESIZES while a compressed format streams: the streamed size. */
static int enum_streamed_size(struct v4l2_frmsizeenum *e)
{
	if (e->index != 0 || e->pixel_format != srv.cur.pixelformat) {
		errno = EINVAL;
		return -1;
	}
	e->type = V4L2_FRMSIZE_TYPE_DISCRETE;
	e->discrete.width = srv.cur.width;
	e->discrete.height = srv.cur.height;
	return 0;
}

/* An enumeration for the decoded format: the device's for share_fmt. */
static int as_share_fmt(unsigned long req, void *arg, uint32_t *fourcc)
{
	int r;

	*fourcc = srv.share_fmt;
	r = srv_dev_ioctl(req, arg);
	*fourcc = srv.dec_fmt;
	if (r == 0 && req == VIDIOC_ENUM_FRAMESIZES && srv.running &&
	    compressed(srv.cur.pixelformat))
		return enum_streamed_size(arg);
	return r;
}

/* The device's answer to a forwarded ioctl, for the one shared format. */
static int answer(unsigned long req, void *arg)
{
	switch (req) {
	case VIDIOC_ENUM_FMT:
		return enum_shared_fmt(arg);
	case VIDIOC_ENUM_FRAMESIZES: {
		struct v4l2_frmsizeenum *e = arg;

		if (srv.dec_fmt && e->pixel_format == srv.dec_fmt)
			return as_share_fmt(req, arg, &e->pixel_format);
		if (e->pixel_format != srv.share_fmt) {
			errno = EINVAL;
			return -1;
		}
		if (srv.running && compressed(srv.cur.pixelformat))
			return enum_streamed_size(e);
		break;
	}
	case VIDIOC_ENUM_FRAMEINTERVALS: {
		struct v4l2_frmivalenum *e = arg;

		if (srv.dec_fmt && e->pixel_format == srv.dec_fmt)
			return as_share_fmt(req, arg, &e->pixel_format);
		break;
	}
	case VIDIOC_TRY_FMT: {
		struct v4l2_format *f = arg;
		int dec = srv.dec_fmt && f->fmt.pix.pixelformat == srv.dec_fmt;

		/* As a driver would: the one format it has. */
		f->fmt.pix.pixelformat = srv.share_fmt;
		if (!dec)
			break;
		if (srv_dev_ioctl(req, arg) < 0)
			return -1;
		srv_decoded_pix(&f->fmt.pix, &f->fmt.pix);
		return 0;
	}
	case VIDIOC_G_FMT: {
		struct v4l2_format *f = arg;

		if (!srv.running)
			break;
		if (f->type != V4L2_BUF_TYPE_VIDEO_CAPTURE) {
			errno = EINVAL;
			return -1;
		}
		f->fmt.pix = srv.cur;
		return 0;
	}
	case VIDIOC_S_PARM:
		/* Streaming for others: the rate stays; report it. */
		if (srv.running)
			return srv_dev_ioctl(VIDIOC_G_PARM, arg);
		break;
	}
	return srv_dev_ioctl(req, arg);
}

/*
 * A forwarded ioctl, in its wire form (wire.h) both ways: only the
 * requests of the wire table, each argument in our ABI's layout while
 * the device sees it. A control one client set is announced to the
 * others, and remembered for a replug (server_ctrls.c).
 */
static void do_ioctl(struct client *c, struct fs_ioctl *m)
{
	union {
		struct v4l2_format fmt;
		struct v4l2_control ctl;
		uint8_t any[FS_IOCTL_MAX];
	} arg;
	unsigned long req = fs_wire_native(m->req);
	int r = -1, e = ENOTTY;

	memset(&arg, 0, sizeof(arg));
	if (req && m->size == fs_wire_size(m->req) &&
	    _IOC_SIZE(req) <= sizeof(arg)) {
		e = EINVAL; /* a format holding pointers */
		if (fs_wire_unpack(m->req, m->arg, &arg) == 0) {
			errno = 0;
			r = answer(req, &arg);
			e = errno;
			fs_wire_pack(m->req, &arg, m->arg);
		}
	}
	m->h.ret = r < 0 ? -1 : 0;
	m->h.err = r < 0 ? e : 0;
	fs_send(c->sock, m, sizeof(*m), -1, 0);

	if (r == 0 && req == VIDIOC_S_CTRL) {
		srv_events_announce(c, arg.ctl.id, arg.ctl.value);
		srv_ctrls_remember(arg.ctl.id, arg.ctl.value);
	}
}

/* The format a client may use (device's answer to TRY_FMT), or errno. */
static int do_setfmt(struct client *c, struct fs_setfmt *m)
{
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };

	int dec = srv.dec_fmt && m->pix.pixelformat == srv.dec_fmt;

	f.fmt.pix = m->pix;
	f.fmt.pix.pixelformat = srv.share_fmt;
	if (srv.gone) {
		errno = ENODEV;
		return -1;
	}
	if (srv_dev_ioctl(VIDIOC_TRY_FMT, &f) < 0)
		return -1;
	if (srv.running && f.fmt.pix.pixelformat != srv.cur.pixelformat) {
		errno = EBUSY;
		return -1;
	}
	if (srv.running && compressed(srv.cur.pixelformat) &&
	    (f.fmt.pix.width != srv.cur.width ||
	     f.fmt.pix.height != srv.cur.height)) {
		errno = EBUSY;
		return -1;
	}
	m->pix = f.fmt.pix;
	c->want = f.fmt.pix;
	c->want_set = 1;
	c->decoded = dec;
	return 0;
}

static int do_streamon(struct client *c)
{
	struct v4l2_pix_format target;

	if (srv.gone) {
		errno = ENODEV;
		return -1;
	}
	if (!c->want_set) {
		struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };

		if (v4l2_ioctl(srv.dev, VIDIOC_G_FMT, &f) < 0)
			return -1;
		c->want = f.fmt.pix;
		c->want_set = 1;
	}
	if (srv.running) {
		if (c->want.pixelformat != srv.cur.pixelformat) {
			errno = EBUSY;
			return -1;
		}
		if (c->want.width <= srv.cur.width &&
		    c->want.height <= srv.cur.height) {
			c->streaming = 1;
			return 0;
		}
		if (compressed(srv.cur.pixelformat)) {
			errno = EBUSY;
			return -1;
		}
	}
	/* Start, or restart larger: the largest size any client asked. */
	target = c->want;
	for (int i = 0; i < MAX_CLIENTS; i++) {
		struct client *o = &srv.clients[i];

		if (o->sock < 0 || !o->streaming ||
		    o->want.pixelformat != target.pixelformat)
			continue;
		if (o->want.width > target.width)
			target.width = o->want.width;
		if (o->want.height > target.height)
			target.height = o->want.height;
	}
	if (srv_device_start(&target) < 0) {
		if (srv.verbose)
			fprintf(stderr,
				"v4l2-frameserver[%d]: cannot stream "
				"%ux%u: %s\n",
				(int)getpid(), target.width, target.height,
				strerror(errno));
		return -1;
	}
	c->streaming = 1;
	return 0;
}

static void do_streamoff(struct client *c)
{
	c->streaming = 0;
	if (!srv_streaming_clients())
		srv_device_stop();
}

/* What the request being handled is, for the slow ones' log. */
static uint32_t cur_type, cur_req;

/* FS_SETFMT: the format c may use, or why not. */
static int reply_setfmt(struct client *c, struct fs_setfmt *m)
{
	m->h.ret = do_setfmt(c, m);
	m->h.err = m->h.ret ? errno : 0;
	if (!m->h.ret)
		m->pix = c->want;
	if (!m->h.ret && c->decoded)
		srv_decoded_pix(&c->want, &m->pix);
	return fs_send(c->sock, m, sizeof(*m), -1, 0);
}

/* One request from client c; returns -1 when the client is gone. */
static int handle(struct client *c)
{
	union {
		struct fs_hdr h;
		struct fs_hello hello;
		struct fs_ioctl io;
		struct fs_setfmt fmt;
		struct fs_release rel;
		struct fs_clients who;
	} m;
	int fd, r;
	ssize_t n = fs_recv(c->sock, &m, sizeof(m), &fd, MSG_DONTWAIT);

	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		return 0;
	if (fd >= 0 && n >= (ssize_t)sizeof(m.h) && m.h.type == FS_HELLO &&
	    c->data < 0 && !srv.gone) {
		/* The client's frame socket: frames go there. */
		c->data = fd;
		fd = -1;
	}
	if (fd >= 0)
		close(fd); /* no other fds are expected */
	if (n < (ssize_t)sizeof(m.h))
		return -1;
	cur_type = m.h.type;
	cur_req = m.h.type == FS_IOCTL && n == sizeof(m.io) ? m.io.req : 0;
	r = srv_replug_handle(c, &m, n); /* server_replug.c */
	if (r <= 0)
		return r;
	switch (m.h.type) {
	case FS_HELLO:
		m.hello.version = FS_PROTO_VERSION;
		m.hello.pid = (uint32_t)getpid();
		m.h.ret = 0;
		return fs_send(c->sock, &m.hello, sizeof(m.hello), -1, 0);
	case FS_IOCTL:
		if (n != sizeof(m.io))
			return -1;
		/* The streamed format: known here, no device call. */
		if (srv.running && fs_wire_native(m.io.req) == VIDIOC_G_FMT) {
			do_ioctl(c, &m.io);
			return 0;
		}
		c->call.io = m.io;
		return srv_call_queue(c);
	case FS_SETFMT:
		if (n != sizeof(m.fmt))
			return -1;
		c->call.fmt = m.fmt;
		return srv_call_queue(c);
	case FS_STREAMON:
		m.h.ret = do_streamon(c);
		m.h.err = m.h.ret ? errno : 0;
		return fs_send(c->sock, &m.h, sizeof(m.h), -1, 0);
	case FS_STREAMOFF:
		do_streamoff(c);
		m.h.ret = 0;
		m.h.err = 0;
		return fs_send(c->sock, &m.h, sizeof(m.h), -1, 0);
	case FS_RELEASE:
		if (n != sizeof(m.rel))
			return -1;
		srv_client_release(c, m.rel.slot);
		return 0;
	case FS_CLIENTS:
		srv_list_clients(c, &m.who);
		return fs_send(c->sock, &m.who, sizeof(m.who), -1, 0);
	}
	return -1;
}

/*
 * The main loop serves one request at a time, and those that wait for
 * the device are served one at a time by the call thread
 * (server_calls.c): one that holds the others up for long is told with
 * --verbose (a client gives up on a reply after 15 s:
 * src/v4l2/share/client_io.c).
 */
#define SLOW_NS 300000000u

static void log_slow(const struct client *c, uint64_t t0, uint32_t type,
		     uint32_t req)
{
	uint64_t t = srv_now_ns() - t0;

	if (srv.verbose && t > SLOW_NS)
		fprintf(stderr,
			"v4l2-frameserver[%d]: client %d's request %u "
			"(wire ioctl %u) took %llu ms\n",
			(int)getpid(), (int)(c - srv.clients), type, req,
			(unsigned long long)(t / 1000000u));
}

int srv_handle(struct client *c)
{
	uint64_t t0 = srv_now_ns();
	int r;

	cur_type = 0;
	r = handle(c);
	if (!c->busy)
		log_slow(c, t0, cur_type, cur_req);
	return r;
}

int srv_serve_call(struct client *c)
{
	uint64_t t0 = srv_now_ns();
	uint32_t type = c->call.h.type;
	uint32_t req = type == FS_IOCTL ? c->call.io.req : 0;
	int r = 0;

	if (type == FS_IOCTL)
		do_ioctl(c, &c->call.io);
	else
		r = reply_setfmt(c, &c->call.fmt);
	log_slow(c, t0, type, req);
	return r;
}
