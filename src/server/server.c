/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * v4l2-frameserver: shares one V4L2 capture device among the programs of
 * one user. One server per device; started on demand by libv4l2's share
 * backend (src/server/client.c) or by systemd socket activation; exits
 * after its last client has been gone for the idle time.
 *
 *   v4l2-frameserver --device DEV [--idle-ms N] [--seal future|write]
 *   DEV: /dev/videoN (any path to a V4L2 character device) or a virtual
 *   camera name "libv4l-vcam:SPEC" (src/vcam).
 *
 * The server alone opens the device (through libv4l2 with conversion
 * disabled, so the virtual camera and the plugins work). It offers clients
 * ONE native format for its whole life (the first of YUYV, UYVY, YVYU,
 * VYUY, NV12, YU12, RGB3, BGR3, GREY, MJPG the device lists, else its
 * first; LIBV4L2_FRAMESERVER_FORMAT=FOURCC overrides), so every client's
 * libv4lconvert picks the same source format and no client can lock the
 * others out with another one. It streams at the largest size any
 * streaming client asked for; clients scale and convert in their own
 * process. Frames are copied into
 * memfd "slots" sealed against writing by anyone but the server:
 *   future: F_SEAL_FUTURE_WRITE|SHRINK|GROW|SEAL after the server mapped it
 *           read-write once; slots are reused when every client released
 *           them (one copy per frame, the default);
 *   write:  a new memfd per frame, unmapped by the server and sealed with
 *           F_SEAL_WRITE (for kernels without F_SEAL_FUTURE_WRITE).
 * A client never gets more than FS_MAX_INFLIGHT unreleased frames; further
 * frames are dropped for it (sendmsg is never blocking). Connections are
 * accepted only from the same uid (SO_PEERCRED).
 * Controls: forwarded to the device, last writer wins, every change is
 * sent to the other clients as FS_CTRL_EVENT.
 * One server per device: the lock file <key>.lock is taken first; the
 * socket is published (renamed into place) only once it listens, and
 * unpublished, with the lock released, before the idle exit tears down
 * (client.c retries a connection that was reset meanwhile). When the
 * device goes away (ENODEV) every client gets FS_END and its frame socket
 * closed, and the socket is unpublished at once.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <libv4l2.h>

#include "proto.h"

#define MAX_CLIENTS 15		/* 15 * FS_MAX_INFLIGHT + 1 < FS_MAX_SLOTS */
#define DEV_BUFFERS 4

struct slot {
	int fd;
	uint8_t *map;		/* server's read-write mapping (future mode) */
	size_t size;
	uint32_t gen;
	int refs;
};

struct client {
	int sock;		/* -1: free */
	int data;		/* the client's frame socket (FS_HELLO), or -1 */
	int streaming;
	int dead;
	struct v4l2_pix_format want;
	int want_set;
	uint32_t known_gen[FS_MAX_SLOTS];	/* 0: slot fd not sent yet */
	uint8_t held[FS_MAX_SLOTS];
	int inflight;
	uint64_t sent, dropped;
};

static struct {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int dev;		/* libv4l2 fd */
	int gone;		/* ENODEV */
	int running;		/* device streaming */
	int stop_req, parked, quit;
	struct v4l2_pix_format cur;
	void *bufmap[DEV_BUFFERS];
	size_t buflen[DEV_BUFFERS];
	unsigned nbufs;
	struct slot slots[FS_MAX_SLOTS];
	unsigned nslots;
	uint32_t next_gen;
	struct client clients[MAX_CLIENTS];
	int seal_write;		/* "write" mode */
	uint32_t share_fmt;	/* the one native format offered to clients */
	int wake[2];		/* capture thread -> main: a client died */
	uint64_t frames, copy_ns;
} S = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.cond = PTHREAD_COND_INITIALIZER,
	.dev = -1,
};

static int verbose;
static int activated;	/* the listening socket is systemd's (fd 3) */

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void logmsg(const char *fmt, const char *arg)
{
	if (verbose)
		fprintf(stderr, "v4l2-frameserver[%d]: %.3f %s %s\n",
			(int)getpid(), now_ns() / 1e9, fmt, arg ? arg : "");
}

static int compressed(uint32_t fourcc)
{
	return fourcc == V4L2_PIX_FMT_MJPEG || fourcc == V4L2_PIX_FMT_JPEG;
}

/* ---- slots -------------------------------------------------------------- */

static void slot_free(struct slot *s)
{
	if (s->map)
		munmap(s->map, s->size);
	if (s->fd >= 0)
		close(s->fd);
	s->map = NULL;
	s->fd = -1;
	s->size = 0;
}

/* A fresh sealed-later memfd of size bytes, mapped read-write in s->map. */
static int slot_create(struct slot *s, size_t size)
{
	int fd = memfd_create("libv4l-frame", MFD_CLOEXEC | MFD_ALLOW_SEALING);

	if (fd < 0)
		return -1;
	if (ftruncate(fd, (off_t)size) < 0)
		goto fail;
	s->map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (s->map == MAP_FAILED) {
		s->map = NULL;
		goto fail;
	}
	s->fd = fd;
	s->size = size;
	s->gen = ++S.next_gen;
	if (!S.next_gen)
		s->gen = ++S.next_gen;
	if (!S.seal_write &&
	    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW |
		  F_SEAL_FUTURE_WRITE | F_SEAL_SEAL) < 0) {
		slot_free(s);
		return -1;
	}
	return 0;
fail:
	close(fd);
	return -1;
}

/* write mode: the frame is in s->map; drop the mapping and seal. */
static int slot_seal_write(struct slot *s)
{
	munmap(s->map, s->size);
	s->map = NULL;
	return fcntl(s->fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW |
		     F_SEAL_WRITE | F_SEAL_SEAL);
}

/* A slot with no client holding it and room for size bytes, or NULL. */
static struct slot *slot_get(size_t size)
{
	struct slot *s = NULL;

	for (unsigned i = 0; i < S.nslots; i++)
		if (!S.slots[i].refs) {
			s = &S.slots[i];
			break;
		}
	if (!s) {
		if (S.nslots == FS_MAX_SLOTS)
			return NULL;
		s = &S.slots[S.nslots++];
		s->fd = -1;
	}
	if (S.seal_write || s->fd < 0 || s->size < size) {
		slot_free(s);
		if (slot_create(s, size) < 0)
			return NULL;
	}
	return s;
}

/* ---- clients ------------------------------------------------------------ */

static void client_release(struct client *c, uint32_t slot)
{
	if (slot >= FS_MAX_SLOTS || !c->held[slot])
		return;
	c->held[slot]--;
	c->inflight--;
	S.slots[slot].refs--;
}

static void client_drop(struct client *c)
{
	for (unsigned i = 0; i < FS_MAX_SLOTS; i++)
		while (c->held[i])
			client_release(c, i);
	close(c->sock);
	if (c->data >= 0)
		close(c->data);
	memset(c, 0, sizeof(*c));
	c->sock = -1;
	c->data = -1;
}

static int streaming_clients(void)
{
	int n = 0;

	for (int i = 0; i < MAX_CLIENTS; i++)
		n += S.clients[i].sock >= 0 && S.clients[i].streaming;
	return n;
}

static int nclients(void)
{
	int n = 0;

	for (int i = 0; i < MAX_CLIENTS; i++)
		n += S.clients[i].sock >= 0;
	return n;
}

/* ---- device ------------------------------------------------------------- */

/* Park the capture thread (it is not inside DQBUF afterwards). */
static void capture_park(void)
{
	S.stop_req = 1;
	pthread_cond_broadcast(&S.cond);
	while (!S.parked)
		pthread_cond_wait(&S.cond, &S.lock);
}

static void capture_unpark(void)
{
	S.stop_req = 0;
	pthread_cond_broadcast(&S.cond);
}

static void device_stop(void)
{
	struct v4l2_requestbuffers req = {
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = V4L2_MEMORY_MMAP,
	};
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;

	if (!S.running && !S.nbufs)
		return;
	capture_park();
	if (S.running)
		v4l2_ioctl(S.dev, VIDIOC_STREAMOFF, &type);
	for (unsigned i = 0; i < S.nbufs; i++)
		v4l2_munmap(S.bufmap[i], S.buflen[i]);
	S.nbufs = 0;
	v4l2_ioctl(S.dev, VIDIOC_REQBUFS, &req);
	S.running = 0;
	logmsg("stream stopped", NULL);
}

/* (Re)start streaming in pix (format and size); capture thread parked. */
static int device_start(const struct v4l2_pix_format *pix)
{
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_requestbuffers req = {
		.count = DEV_BUFFERS, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_MMAP,
	};
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE, saved;

	device_stop();
	capture_park();
	f.fmt.pix = *pix;
	f.fmt.pix.field = V4L2_FIELD_ANY;
	f.fmt.pix.bytesperline = 0;
	f.fmt.pix.sizeimage = 0;
	if (v4l2_ioctl(S.dev, VIDIOC_S_FMT, &f) < 0)
		return -1;
	S.cur = f.fmt.pix;
	if (v4l2_ioctl(S.dev, VIDIOC_REQBUFS, &req) < 0)
		return -1;
	if (req.count < 1 || req.count > DEV_BUFFERS) {
		errno = ENOMEM;
		goto fail;
	}
	for (unsigned i = 0; i < req.count; i++) {
		struct v4l2_buffer b = {
			.index = i, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
			.memory = V4L2_MEMORY_MMAP,
		};

		if (v4l2_ioctl(S.dev, VIDIOC_QUERYBUF, &b) < 0)
			goto fail;
		S.bufmap[i] = v4l2_mmap(NULL, b.length, PROT_READ | PROT_WRITE,
					MAP_SHARED, S.dev, b.m.offset);
		if (S.bufmap[i] == MAP_FAILED)
			goto fail;
		S.buflen[i] = b.length;
		S.nbufs = i + 1;
		if (v4l2_ioctl(S.dev, VIDIOC_QBUF, &b) < 0)
			goto fail;
	}
	if (v4l2_ioctl(S.dev, VIDIOC_STREAMON, &type) < 0)
		goto fail;
	S.running = 1;
	capture_unpark();
	if (verbose)
		fprintf(stderr, "v4l2-frameserver: streaming %.4s %ux%u\n",
			(char *)&S.cur.pixelformat, S.cur.width, S.cur.height);
	return 0;
fail:
	saved = errno;
	device_stop();
	errno = saved;
	return -1;
}

/* Send frame (slot s) to every streaming client with room; lock held. */
static void distribute(struct slot *s, unsigned idx,
		       const struct v4l2_buffer *b)
{
	struct fs_frame m;

	memset(&m, 0, sizeof(m));
	m.h.type = FS_FRAME;
	m.slot = idx;
	m.gen = s->gen;
	m.sequence = b->sequence;
	m.bytesused = b->bytesused;
	m.flags = b->flags;
	m.map_size = s->size;
	m.ts_sec = b->timestamp.tv_sec;
	m.ts_usec = b->timestamp.tv_usec;
	m.pix = S.cur;
	for (int i = 0; i < MAX_CLIENTS; i++) {
		struct client *c = &S.clients[i];
		int send_fd;

		if (c->sock < 0 || c->data < 0 || !c->streaming || c->dead)
			continue;
		if (c->inflight >= FS_MAX_INFLIGHT) {
			c->dropped++;
			continue;
		}
		send_fd = c->known_gen[idx] != s->gen;
		m.has_fd = (uint32_t)send_fd;
		m.server_ns = now_ns();
		if (fs_send(c->data, &m, sizeof(m), send_fd ? s->fd : -1,
			    MSG_DONTWAIT) < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK) {
				c->dropped++;
			} else {
				c->dead = 1;
				if (write(S.wake[1], "x", 1) < 0) {
					/* main notices on its next poll */
				}
			}
			continue;
		}
		c->known_gen[idx] = s->gen;
		c->held[idx]++;
		c->inflight++;
		s->refs++;
		c->sent++;
	}
}

/*
 * The stream ended for good (the device is gone): FS_END on every
 * client's request socket, then its frame socket is closed, which its
 * poll() sees as POLLERR | POLLHUP (client.c).
 */
static void broadcast_end(int err)
{
	struct fs_hdr h = { .type = FS_END, .ret = -1, .err = err };

	for (int i = 0; i < MAX_CLIENTS; i++) {
		struct client *c = &S.clients[i];

		if (c->sock < 0)
			continue;
		fs_send(c->sock, &h, sizeof(h), -1, MSG_DONTWAIT);
		if (c->data >= 0)
			close(c->data);
		c->data = -1;
	}
}

static void *capture_thread(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&S.lock);
	for (;;) {
		struct v4l2_buffer b = {
			.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
			.memory = V4L2_MEMORY_MMAP,
		};
		struct pollfd p = { .fd = S.dev, .events = POLLIN };
		int r, err;

		while (!S.quit && (!S.running || S.stop_req)) {
			S.parked = 1;
			pthread_cond_broadcast(&S.cond);
			pthread_cond_wait(&S.cond, &S.lock);
		}
		if (S.quit)
			break;
		S.parked = 0;
		pthread_mutex_unlock(&S.lock);
		r = poll(&p, 1, 100);
		if (r > 0)
			r = v4l2_ioctl(S.dev, VIDIOC_DQBUF, &b);
		else
			r = 1;
		err = errno;
		pthread_mutex_lock(&S.lock);
		if (r == 1)
			continue;
		if (r < 0) {
			if (err == ENODEV) {
				S.gone = 1;
				S.running = 0;
				broadcast_end(ENODEV);
				logmsg("device gone", NULL);
			} else if (err != EAGAIN && err != EINTR) {
				usleep(1000);
			}
			continue;
		}
		if (b.index < S.nbufs && !(b.flags & V4L2_BUF_FLAG_ERROR)) {
			size_t need = S.cur.sizeimage > b.bytesused ?
				      S.cur.sizeimage : b.bytesused;
			struct slot *s;

			if (need > S.buflen[b.index])
				need = S.buflen[b.index];
			if (b.bytesused > need)
				b.bytesused = (uint32_t)need;
			s = streaming_clients() ? slot_get(need) : NULL;
			if (s) {
				uint64_t t0 = now_ns();

				memcpy(s->map, S.bufmap[b.index], b.bytesused);
				if (S.seal_write && slot_seal_write(s) < 0) {
					slot_free(s);
				} else {
					S.copy_ns += now_ns() - t0;
					S.frames++;
					distribute(s, (unsigned)(s - S.slots),
						   &b);
				}
			}
		}
		if (S.running)
			v4l2_ioctl(S.dev, VIDIOC_QBUF, &b);
	}
	S.parked = 1;
	pthread_cond_broadcast(&S.cond);
	pthread_mutex_unlock(&S.lock);
	return NULL;
}

/* ---- requests ----------------------------------------------------------- */

static int forward_allowed(uint32_t req)
{
	switch (req) {
	case VIDIOC_QUERYCAP: case VIDIOC_ENUM_FMT:
	case VIDIOC_ENUM_FRAMESIZES: case VIDIOC_ENUM_FRAMEINTERVALS:
	case VIDIOC_ENUMINPUT: case VIDIOC_G_INPUT:
	case VIDIOC_QUERYCTRL: case VIDIOC_QUERY_EXT_CTRL:
	case VIDIOC_QUERYMENU: case VIDIOC_G_CTRL: case VIDIOC_S_CTRL:
	case VIDIOC_TRY_FMT: case VIDIOC_G_FMT:
	case VIDIOC_G_PARM: case VIDIOC_S_PARM:
		return 1;
	}
	return 0;
}

static void do_ioctl(struct client *c, struct fs_ioctl *m)
{
	int r = 0;

	errno = 0;
	if (!forward_allowed(m->req) || m->size != _IOC_SIZE(m->req) ||
	    m->size > FS_IOCTL_MAX) {
		r = -1;
		errno = ENOTTY;
	} else if (m->req == VIDIOC_ENUM_FMT) {
		/* Only the shared format is offered. */
		struct v4l2_fmtdesc *d = (void *)m->arg;
		struct v4l2_fmtdesc want;

		r = -1;
		errno = EINVAL;
		for (uint32_t i = 0; d->index == 0; i++) {
			memset(&want, 0, sizeof(want));
			want.index = i;
			want.type = d->type;
			if (v4l2_ioctl(S.dev, VIDIOC_ENUM_FMT, &want) < 0)
				break;
			if (want.pixelformat == S.share_fmt) {
				*d = want;
				d->index = 0;
				r = 0;
				break;
			}
		}
	} else if (m->req == VIDIOC_ENUM_FRAMESIZES &&
		   ((struct v4l2_frmsizeenum *)m->arg)->pixel_format !=
		   S.share_fmt) {
		r = -1;
		errno = EINVAL;
	} else if (m->req == VIDIOC_TRY_FMT) {
		struct v4l2_format *f = (void *)m->arg;

		/* As a driver would: the one format it has. */
		f->fmt.pix.pixelformat = S.share_fmt;
		r = v4l2_ioctl(S.dev, VIDIOC_TRY_FMT, f);
	} else if (S.running && m->req == VIDIOC_ENUM_FRAMESIZES &&
		   compressed(S.cur.pixelformat)) {
		struct v4l2_frmsizeenum *e = (void *)m->arg;

		r = -1;
		errno = EINVAL;
		if (e->index == 0 && e->pixel_format == S.cur.pixelformat) {
			e->type = V4L2_FRMSIZE_TYPE_DISCRETE;
			e->discrete.width = S.cur.width;
			e->discrete.height = S.cur.height;
			r = 0;
		}
	} else if (m->req == VIDIOC_G_FMT && S.running) {
		struct v4l2_format *f = (void *)m->arg;

		if (f->type != V4L2_BUF_TYPE_VIDEO_CAPTURE) {
			r = -1;
			errno = EINVAL;
		} else {
			f->fmt.pix = S.cur;
		}
	} else if (m->req == VIDIOC_S_PARM && S.running) {
		/* Streaming for others: the rate stays; report it. */
		r = v4l2_ioctl(S.dev, VIDIOC_G_PARM, m->arg);
	} else {
		r = v4l2_ioctl(S.dev, m->req, m->arg);
	}
	m->h.ret = r < 0 ? -1 : 0;
	m->h.err = r < 0 ? errno : 0;
	fs_send(c->sock, m, sizeof(*m), -1, 0);

	if (r == 0 && m->req == VIDIOC_S_CTRL) {
		struct v4l2_control *ctl = (void *)m->arg;
		struct fs_ctrl_event ev = {
			.h.type = FS_CTRL_EVENT, .id = ctl->id,
			.value = ctl->value,
		};

		for (int i = 0; i < MAX_CLIENTS; i++)
			if (S.clients[i].sock >= 0 && &S.clients[i] != c)
				fs_send(S.clients[i].sock, &ev, sizeof(ev), -1,
					MSG_DONTWAIT);
	}
}

/* The format a client may use (device's answer to TRY_FMT), or errno. */
static int do_setfmt(struct client *c, struct fs_setfmt *m)
{
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };

	f.fmt.pix = m->pix;
	f.fmt.pix.pixelformat = S.share_fmt;
	if (S.gone) {
		errno = ENODEV;
		return -1;
	}
	if (v4l2_ioctl(S.dev, VIDIOC_TRY_FMT, &f) < 0)
		return -1;
	if (S.running && f.fmt.pix.pixelformat != S.cur.pixelformat) {
		errno = EBUSY;
		return -1;
	}
	if (S.running && compressed(S.cur.pixelformat) &&
	    (f.fmt.pix.width != S.cur.width ||
	     f.fmt.pix.height != S.cur.height)) {
		errno = EBUSY;
		return -1;
	}
	m->pix = f.fmt.pix;
	c->want = f.fmt.pix;
	c->want_set = 1;
	return 0;
}

static int do_streamon(struct client *c)
{
	struct v4l2_pix_format target;

	if (S.gone) {
		errno = ENODEV;
		return -1;
	}
	if (!c->want_set) {
		struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };

		if (v4l2_ioctl(S.dev, VIDIOC_G_FMT, &f) < 0)
			return -1;
		c->want = f.fmt.pix;
		c->want_set = 1;
	}
	if (S.running) {
		if (c->want.pixelformat != S.cur.pixelformat) {
			errno = EBUSY;
			return -1;
		}
		if (c->want.width <= S.cur.width &&
		    c->want.height <= S.cur.height) {
			c->streaming = 1;
			return 0;
		}
		if (compressed(S.cur.pixelformat)) {
			errno = EBUSY;
			return -1;
		}
	}
	/* Start, or restart larger: the largest size any client asked. */
	target = c->want;
	for (int i = 0; i < MAX_CLIENTS; i++) {
		struct client *o = &S.clients[i];

		if (o->sock < 0 || !o->streaming ||
		    o->want.pixelformat != target.pixelformat)
			continue;
		if (o->want.width > target.width)
			target.width = o->want.width;
		if (o->want.height > target.height)
			target.height = o->want.height;
	}
	if (device_start(&target) < 0) {
		if (verbose)
			fprintf(stderr, "v4l2-frameserver[%d]: cannot stream "
				"%ux%u: %s\n", (int)getpid(), target.width,
				target.height, strerror(errno));
		return -1;
	}
	c->streaming = 1;
	return 0;
}

static void do_streamoff(struct client *c)
{
	c->streaming = 0;
	if (!streaming_clients())
		device_stop();
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
	} m;
	int fd;
	ssize_t n = fs_recv(c->sock, &m, sizeof(m), &fd, MSG_DONTWAIT);

	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		return 0;
	if (fd >= 0 && n >= (ssize_t)sizeof(m.h) && m.h.type == FS_HELLO &&
	    c->data < 0 && !S.gone) {
		/* The client's frame socket: frames go there. */
		c->data = fd;
		fd = -1;
	}
	if (fd >= 0)
		close(fd);	/* no other fds are expected */
	if (n < (ssize_t)sizeof(m.h))
		return -1;
	switch (m.h.type) {
	case FS_HELLO:
		m.hello.version = FS_PROTO_VERSION;
		m.hello.pid = (uint32_t)getpid();
		m.h.ret = 0;
		return fs_send(c->sock, &m.hello, sizeof(m.hello), -1, 0);
	case FS_IOCTL:
		if (n != sizeof(m.io))
			return -1;
		do_ioctl(c, &m.io);
		return 0;
	case FS_SETFMT:
		if (n != sizeof(m.fmt))
			return -1;
		m.h.ret = do_setfmt(c, &m.fmt);
		m.h.err = m.h.ret ? errno : 0;
		if (!m.h.ret)
			m.fmt.pix = c->want;
		return fs_send(c->sock, &m.fmt, sizeof(m.fmt), -1, 0);
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
		client_release(c, m.rel.slot);
		return 0;
	}
	return -1;
}

/* ---- main --------------------------------------------------------------- */

static int open_device(const char *dev)
{
	int fd;

	if (!strncmp(dev, "libv4l-vcam", 11)) {
		fd = memfd_create(dev, MFD_CLOEXEC);
	} else {
		struct stat st;

		/* Non-blocking: the capture thread waits in poll() and
		 * can always be parked, even if the device stalls. */
		fd = open(dev, O_RDWR | O_CLOEXEC | O_NONBLOCK);
		if (fd >= 0 && (fstat(fd, &st) < 0 || !S_ISCHR(st.st_mode))) {
			close(fd);
			errno = ENODEV;
			return -1;
		}
	}
	if (fd < 0)
		return -1;
	if (v4l2_fd_open(fd, V4L2_DISABLE_CONVERSION) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static uint32_t choose_share_fmt(void)
{
	static const uint32_t pref[] = {
		V4L2_PIX_FMT_YUYV, V4L2_PIX_FMT_UYVY, V4L2_PIX_FMT_YVYU,
		V4L2_PIX_FMT_VYUY, V4L2_PIX_FMT_NV12, V4L2_PIX_FMT_YUV420,
		V4L2_PIX_FMT_RGB24, V4L2_PIX_FMT_BGR24, V4L2_PIX_FMT_GREY,
		V4L2_PIX_FMT_MJPEG,
	};
	const char *env = getenv("LIBV4L2_FRAMESERVER_FORMAT");
	uint32_t have[64], want = 0;
	unsigned n = 0;

	if (env && strlen(env) == 4)
		want = v4l2_fourcc(env[0], env[1], env[2], env[3]);
	for (; n < 64; n++) {
		struct v4l2_fmtdesc d = {
			.index = n, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		};

		if (v4l2_ioctl(S.dev, VIDIOC_ENUM_FMT, &d) < 0)
			break;
		have[n] = d.pixelformat;
		if (want && d.pixelformat == want)
			return want;
	}
	for (unsigned p = 0; p < sizeof(pref) / sizeof(pref[0]); p++)
		for (unsigned i = 0; i < n; i++)
			if (have[i] == pref[p])
				return pref[p];
	return n ? have[0] : V4L2_PIX_FMT_YUYV;
}

/* A server listens on path (a connect succeeds). */
static int live_socket(const char *path)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int probe = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0), live;

	if (probe < 0)
		return 0;
	strcpy(a.sun_path, path);
	live = connect(probe, (struct sockaddr *)&a, sizeof(a)) == 0;
	close(probe);
	return live;
}

/*
 * The listening socket, published at path only once it listens: bound
 * under a temporary name, made 0600, listening, then renamed over path.
 * So a client finds either no socket (ENOENT: it starts a server, which
 * waits on the lock or exits) or one that accepts; never a bound socket
 * that refuses, and never a window where a stale socket was unlinked but
 * the new one is not there yet. Called with the lock file held, so no
 * other server publishes meanwhile; a live socket at path that is not
 * ours (a systemd socket unit's) is left alone (-2).
 */
static int listen_socket(const char *path)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	char tmp[sizeof(a.sun_path)];
	int s, n;
	const char *pid = getenv("LISTEN_PID"), *fds = getenv("LISTEN_FDS");

	/* systemd socket activation: the socket is fd 3. */
	if (pid && fds && atoi(pid) == (int)getpid() && atoi(fds) >= 1) {
		fcntl(3, F_SETFD, FD_CLOEXEC);
		activated = 1;
		return 3;
	}
	n = snprintf(tmp, sizeof(tmp), "%s.%d.tmp", path, (int)getpid());
	if (n < 0 || (size_t)n >= sizeof(tmp)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (live_socket(path)) {
		errno = EADDRINUSE;
		return -2;
	}
	strcpy(a.sun_path, tmp);
	s = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (s < 0)
		return -1;
	unlink(tmp);	/* left by a crashed server of our pid */
	if (bind(s, (struct sockaddr *)&a, sizeof(a)) < 0)
		goto fail;
	if (chmod(tmp, 0600) < 0 || listen(s, 64) < 0 ||
	    rename(tmp, path) < 0) {
		unlink(tmp);
		goto fail;
	}
	return s;
fail:
	close(s);
	return -1;
}

static void accept_client(int ls)
{
	int s = accept4(ls, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
	int sz = 1 << 16;

	if (s < 0)
		return;
	if (fs_check_peer(s) < 0) {
		logmsg("refused a connection from another user", NULL);
		close(s);
		return;
	}
	setsockopt(s, SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
	for (int i = 0; i < MAX_CLIENTS; i++) {
		if (S.clients[i].sock < 0) {
			if (verbose)
				fprintf(stderr, "v4l2-frameserver[%d]: client "
					"%d connected\n", (int)getpid(), i);
			memset(&S.clients[i], 0, sizeof(S.clients[i]));
			S.clients[i].sock = s;
			S.clients[i].data = -1;
			return;
		}
	}
	close(s);	/* full */
}

static void usage(void)
{
	fprintf(stderr, "usage: v4l2-frameserver --device DEV [--idle-ms N] "
		"[--seal future|write] [--verbose]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *device = NULL, *env;
	char key[80], path[200], lockpath[220];
	int idle_ms = 3000, ls, lockfd;
	uint64_t idle_since;
	pthread_t th;

	/* The server must never route its own device through a server. */
	setenv("LIBV4L2_SHARE", "0", 1);
	signal(SIGPIPE, SIG_IGN);
	env = getenv("LIBV4L2_FRAMESERVER_IDLE_MS");
	if (env)
		idle_ms = atoi(env);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--device") && i + 1 < argc)
			device = argv[++i];
		else if (!strcmp(argv[i], "--idle-ms") && i + 1 < argc)
			idle_ms = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--seal") && i + 1 < argc)
			S.seal_write = !strcmp(argv[++i], "write");
		else if (!strcmp(argv[i], "--verbose"))
			verbose = 1;
		else
			usage();
	}
	if (getenv("LIBV4L2_FRAMESERVER_VERBOSE"))
		verbose = 1;
	if (!device)
		usage();
	if (fs_device_key(device, key, sizeof(key)) < 0 ||
	    fs_socket_path(key, path, sizeof(path)) < 0) {
		fprintf(stderr, "v4l2-frameserver: no usable socket directory "
			"($XDG_RUNTIME_DIR/libv4l) or device %s\n", device);
		return 1;
	}
	snprintf(lockpath, sizeof(lockpath), "%.*s.lock",
		 (int)(strlen(path) - 5), path);
	lockfd = open(lockpath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW,
		      0600);
	if (lockfd < 0 || flock(lockfd, LOCK_EX | LOCK_NB) < 0) {
		logmsg("another server owns", lockpath);
		return 0;	/* another server owns this device */
	}
	for (int i = 0; i < MAX_CLIENTS; i++) {
		S.clients[i].sock = -1;
		S.clients[i].data = -1;
	}
	for (int i = 0; i < FS_MAX_SLOTS; i++)
		S.slots[i].fd = -1;
	S.dev = open_device(device);
	if (S.dev < 0) {
		fprintf(stderr, "v4l2-frameserver: %s: %s\n", device,
			strerror(errno));
		return 1;
	}
	S.share_fmt = choose_share_fmt();
	ls = listen_socket(path);
	if (ls == -2) {
		logmsg("a live server already listens on", path);
		return 0;
	}
	if (ls < 0 || pipe2(S.wake, O_CLOEXEC | O_NONBLOCK) < 0) {
		fprintf(stderr, "v4l2-frameserver: %s: %s\n", path,
			strerror(errno));
		return 1;
	}
	logmsg("listening on", path);
	pthread_create(&th, NULL, capture_thread, NULL);

	idle_since = now_ns();
	for (;;) {
		struct pollfd p[MAX_CLIENTS + 2];
		int map[MAX_CLIENTS + 2], n = 0, r;

		p[n].fd = ls;
		p[n].events = POLLIN;
		map[n++] = -1;
		p[n].fd = S.wake[0];
		p[n].events = POLLIN;
		map[n++] = -1;
		pthread_mutex_lock(&S.lock);
		for (int i = 0; i < MAX_CLIENTS; i++) {
			if (S.clients[i].sock < 0)
				continue;
			p[n].fd = S.clients[i].sock;
			p[n].events = POLLIN;
			map[n++] = i;
		}
		pthread_mutex_unlock(&S.lock);
		r = poll(p, (nfds_t)n, 200);
		if (r < 0 && errno != EINTR)
			break;
		pthread_mutex_lock(&S.lock);
		if (r > 0 && (p[1].revents & POLLIN)) {
			char buf[64];

			while (read(S.wake[0], buf, sizeof(buf)) > 0)
				;
		}
		for (int k = 2; r > 0 && k < n; k++) {
			struct client *c = &S.clients[map[k]];

			if (!p[k].revents)
				continue;
			if (handle(c) < 0) {
				if (verbose && !c->dead)
					fprintf(stderr, "v4l2-frameserver[%d]: "
						"client %d left (%llu frames sent, "
						"%llu dropped)\n", (int)getpid(),
						map[k], (unsigned long long)c->sent,
						(unsigned long long)c->dropped);
				c->dead = 1;
			}
		}
		for (int i = 0; i < MAX_CLIENTS; i++) {
			if (S.clients[i].sock >= 0 && S.clients[i].dead) {
				client_drop(&S.clients[i]);
				if (!streaming_clients())
					device_stop();
			}
		}
		if (S.gone && ls >= 0 && !activated) {
			/*
			 * The device is gone: unpublish (the next open
			 * starts a new server, which finds out for itself)
			 * and exit once the last client has left.
			 */
			logmsg("device gone, unpublishing", path);
			unlink(path);
			close(ls);
			ls = -1;
			close(lockfd);
		}
		if (r > 0 && ls >= 0 && (p[0].revents & POLLIN))
			accept_client(ls);
		if (nclients()) {
			idle_since = now_ns();
		} else if (idle_ms >= 0 &&
			   now_ns() - idle_since >= (uint64_t)idle_ms * 1000000u) {
			/*
			 * Unpublish, stop listening and release the lock
			 * before the (slower) teardown: a client that
			 * connected after the last poll sees its connection
			 * reset and retries, and the server it starts can
			 * take the lock at once.
			 */
			/* systemd's socket stays: it starts us again. */
			if (ls >= 0 && !activated) {
				unlink(path);
				close(ls);
				ls = -1;
				close(lockfd);
			}
			pthread_mutex_unlock(&S.lock);
			break;
		}
		pthread_mutex_unlock(&S.lock);
	}
	pthread_mutex_lock(&S.lock);
	device_stop();
	S.quit = 1;
	pthread_cond_broadcast(&S.cond);
	pthread_mutex_unlock(&S.lock);
	pthread_join(th, NULL);
	if (ls >= 0)
		close(ls);
	if (verbose)
		fprintf(stderr, "v4l2-frameserver: idle, exiting (%llu frames, "
			"%.1f us copy+seal per frame)\n",
			(unsigned long long)S.frames,
			S.frames ? S.copy_ns / 1e3 / (double)S.frames : 0.0);
	v4l2_close(S.dev);
	return 0;
}
