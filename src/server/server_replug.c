/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A camera unplugged and plugged back (or reset by its driver, which
 * looks the same from here) need not end the stream of the clients that
 * asked (FS_REPLUG, with how long they let us wait). When the device goes
 * away, the clients that did not ask get FS_END (ENODEV) as before; for
 * the others the server closes the device (so that the camera gets its
 * node back) and looks for the same camera (server_ident.c; a virtual
 * camera by its name) every REPLUG_TRY_NS until the longest wait asked
 * for has passed. Meanwhile no frame comes: a client's DQBUF blocks, or
 * says EAGAIN, as with a slow camera. When the camera is back and offers
 * the shared format, the server sets the format it streamed in, the
 * frame rate and the controls the clients had set (server_ctrls.c), and
 * starts again; the first frame's sequence number is the last one sent
 * plus the frames the gap would have held (at least 2: one
 * frame is reported lost, as V4L2 reports a dropped frame). When the wait
 * ends without the camera, every client gets FS_END (ENODEV) as before.
 * Requests meanwhile: G_FMT is answered from the format streamed, other
 * forwarded ioctls and SETFMT fail with EAGAIN, STREAMON is granted (the
 * stream starts when the camera is back); a client that got FS_END gets
 * ENODEV, as from the gone device.
 */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <libv4l2.h>

#include "protocol/wire.h"
#include "server.h"

#define REPLUG_TRY_NS 100000000u /* a look at sysfs: cheap */
#define REPLUG_MAX_MS 600000u
#define DEFAULT_INTERVAL_NS 33333333u

/* The frame rate streamed last, set again after a replug. */
static struct v4l2_streamparm saved_parm;
static int have_parm;

static int waits(const struct client *c)
{
	return c->sock >= 0 && !c->dead && !c->ended && c->replug_ms;
}

int srv_replug_wanted(void)
{
	for (int i = 0; i < MAX_CLIENTS; i++)
		if (waits(&srv.clients[i]))
			return 1;
	return 0;
}

static uint32_t longest_wait_ms(void)
{
	uint32_t ms = 0;

	for (int i = 0; i < MAX_CLIENTS; i++)
		if (waits(&srv.clients[i]) && srv.clients[i].replug_ms > ms)
			ms = srv.clients[i].replug_ms;
	return ms;
}

void srv_replug_begin(void)
{
	srv.running = 0; /* the capture thread parks */
	srv.replugging = 1;
	srv.replug_deadline_ns =
		srv_now_ns() + (uint64_t)longest_wait_ms() * 1000000u;
	srv.replug_tried_ns = 0;
	srv_broadcast_end(ENODEV, 1);
	srv_log("device gone, waiting for it to come back", srv.device);
	if (write(srv.wake[1], "r", 1) < 0) {
		/* main looks on its next poll anyway */
	}
}

/* Our hold on the gone device, released so it can come back as it was. */
static void close_device(void)
{
	if (srv.dev < 0)
		return;
	srv_calls_wait(); /* no call in progress on it */
	srv_device_stop();
	v4l2_close(srv.dev);
	srv.dev = -1;
}

/* A camera that answers and still offers the format the clients chose
 * their conversions for. */
static int usable(int fd)
{
	struct v4l2_capability cap;

	if (v4l2_ioctl(fd, VIDIOC_QUERYCAP, &cap) < 0)
		return 0;
	for (uint32_t i = 0; i < SRV_MAX_FORMATS; i++) {
		struct v4l2_fmtdesc d = {
			.index = i,
			.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		};

		if (v4l2_ioctl(fd, VIDIOC_ENUM_FMT, &d) < 0)
			break;
		if (d.pixelformat == srv.share_fmt)
			return 1;
	}
	return 0;
}

/* The same camera, opened as srv.dev: 0, or -1 (not back yet). */
static int reopen(void)
{
	char node[300];
	int fd;

	if (!srv.ident.valid)
		snprintf(node, sizeof(node), "%s", srv.device);
	else if (srv_ident_find(&srv.ident, node, sizeof(node)) < 0)
		return -1;
	fd = srv_open_device(node);
	if (fd < 0)
		return -1;
	if (!usable(fd)) {
		v4l2_close(fd);
		return -1;
	}
	srv.dev = fd;
	srv_log("the camera is back as", node);
	return 0;
}

static uint64_t interval_ns(void)
{
	const struct v4l2_fract *t = &saved_parm.parm.capture.timeperframe;

	if (!have_parm || !t->numerator || !t->denominator)
		return DEFAULT_INTERVAL_NS;
	return (uint64_t)t->numerator * 1000000000u / t->denominator;
}

/*
 * Stream again as before the unplug; the sequence jumps over the gap.
 * The camera is set as it was before the first frame: the format (again
 * by srv_device_start(), which keeps it), in which the rate is chosen,
 * then the rate, then the controls the clients set (server_ctrls.c).
 */
static int resume(void)
{
	uint64_t gap = srv_now_ns() - srv.last_frame_ns;
	uint64_t step = gap / interval_ns();
	struct v4l2_streamparm parm = saved_parm;
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };

	f.fmt.pix = srv.cur;
	f.fmt.pix.field = V4L2_FIELD_ANY;
	f.fmt.pix.bytesperline = 0;
	f.fmt.pix.sizeimage = 0;
	v4l2_ioctl(srv.dev, VIDIOC_S_FMT, &f);
	if (have_parm)
		v4l2_ioctl(srv.dev, VIDIOC_S_PARM, &parm);
	srv_ctrls_restore();
	if (srv_streaming_clients() && srv_device_start(&srv.cur) < 0)
		return -1;
	if (step < 2 || !srv.last_frame_ns)
		step = 2;
	if (step > UINT32_MAX / 2)
		step = UINT32_MAX / 2;
	srv.seq_resume = srv.last_seq + (uint32_t)step;
	srv.reseq = 1;
	srv.replugging = 0;
	srv_log("streaming again after the replug", NULL);
	return 0;
}

/* The wait is over without the camera: as if nobody had asked. */
static void give_up(const char *why)
{
	srv.replugging = 0;
	srv.gone = 1;
	srv_broadcast_end(ENODEV, 0);
	srv_log(why, srv.device);
}

void srv_replug_tick(void)
{
	uint64_t now = srv_now_ns();

	if (!srv.replugging)
		return;
	close_device();
	if (!srv_replug_wanted()) {
		give_up("no client waits for the camera any more");
		return;
	}
	if (now - srv.replug_tried_ns >= REPLUG_TRY_NS) {
		srv.replug_tried_ns = now;
		if (reopen() == 0) {
			if (resume() == 0)
				return;
			close_device();
		}
	}
	if (now >= srv.replug_deadline_ns)
		give_up("the camera did not come back in time");
}

uint32_t srv_replug_sequence(uint32_t dev_seq)
{
	if (srv.reseq) {
		srv.seq_offset = srv.seq_resume - dev_seq;
		srv.reseq = 0;
	}
	srv.last_seq = dev_seq + srv.seq_offset;
	srv.last_frame_ns = srv_now_ns();
	return srv.last_seq;
}

void srv_replug_started(void)
{
	struct v4l2_streamparm p = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };

	if (v4l2_ioctl(srv.dev, VIDIOC_G_PARM, &p) == 0) {
		saved_parm = p;
		have_parm = 1;
	}
}

/* A forwarded ioctl while the device is not there for c. */
static int absent_ioctl(struct client *c, struct fs_ioctl *m)
{
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };

	m->h.ret = -1;
	m->h.err = c->ended || srv.gone ? ENODEV : EAGAIN;
	if (m->h.err == EAGAIN && m->req == FS_REQ_G_FMT &&
	    m->size == fs_wire_size(m->req) &&
	    fs_wire_unpack(m->req, m->arg, &f) == 0 &&
	    f.type == V4L2_BUF_TYPE_VIDEO_CAPTURE) {
		f.fmt.pix = srv.cur;
		fs_wire_pack(m->req, &f, m->arg);
		m->h.ret = 0;
		m->h.err = 0;
	}
	return fs_send(c->sock, m, sizeof(*m), -1, 0) < 0 ? -1 : 0;
}

/* STREAMON while waiting: granted, the stream starts with the camera. */
static int absent_streamon(struct client *c, struct fs_hdr *h)
{
	h->ret = -1;
	h->err = ENODEV;
	if (!c->ended && !srv.gone) {
		if (!c->want_set)
			c->want = srv.cur;
		c->want_set = 1;
		c->streaming = 1;
		h->ret = 0;
		h->err = 0;
	}
	return fs_send(c->sock, h, sizeof(*h), -1, 0) < 0 ? -1 : 0;
}

int srv_replug_handle(struct client *c, void *msg, ssize_t n)
{
	struct fs_hdr *h = msg;

	if (h->type == FS_REPLUG) {
		struct fs_replug *m = msg;

		if (n != (ssize_t)sizeof(*m))
			return -1;
		c->replug_ms =
			m->wait_ms > REPLUG_MAX_MS ? REPLUG_MAX_MS : m->wait_ms;
		m->h.ret = 0;
		m->h.err = 0;
		return fs_send(c->sock, m, sizeof(*m), -1, 0) < 0 ? -1 : 0;
	}
	if (!c->ended && srv.dev >= 0)
		return 1;
	switch (h->type) {
	case FS_IOCTL:
		if (n != (ssize_t)sizeof(struct fs_ioctl))
			return -1;
		return absent_ioctl(c, msg);
	case FS_SETFMT:
		if (n != (ssize_t)sizeof(struct fs_setfmt))
			return -1;
		h->ret = -1;
		h->err = c->ended || srv.gone ? ENODEV : EAGAIN;
		return fs_send(c->sock, msg, (size_t)n, -1, 0) < 0 ? -1 : 0;
	case FS_STREAMON:
		return absent_streamon(c, h);
	}
	return 1;
}
