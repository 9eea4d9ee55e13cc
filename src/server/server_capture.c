/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The device's stream: started at the largest size a streaming client
 * asked for, stopped when none streams; the capture thread dequeues each
 * frame, copies it into a slot and sends it to every streaming client
 * with room (never blocking on one).
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <libv4l2.h>

#include "protocol/scale.h"
#include "server.h"

/* Park the capture thread (it is not inside DQBUF afterwards). */
static void capture_park(void)
{
	srv.stop_req = 1;
	pthread_cond_broadcast(&srv.cond);
	while (!srv.parked)
		pthread_cond_wait(&srv.cond, &srv.lock);
}

static void capture_unpark(void)
{
	srv.stop_req = 0;
	pthread_cond_broadcast(&srv.cond);
}

void srv_device_stop(void)
{
	struct v4l2_requestbuffers req = {
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_MMAP,
	};
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;

	if (!srv.running && !srv.nbufs)
		return;
	capture_park();
	if (srv.running)
		v4l2_ioctl(srv.dev, VIDIOC_STREAMOFF, &type);
	for (unsigned i = 0; i < srv.nbufs; i++)
		v4l2_munmap(srv.bufmap[i], srv.buflen[i]);
	srv.nbufs = 0;
	v4l2_ioctl(srv.dev, VIDIOC_REQBUFS, &req);
	srv.running = 0;
	if (srv.verbose)
		fprintf(stderr,
			"v4l2-frameserver: stream stopped: %llu frames "
			"dequeued, %llu decoded, %llu undecodable\n",
			(unsigned long long)srv.dequeued,
			(unsigned long long)srv.decodes,
			(unsigned long long)srv.decode_errors);
}

/* (Re)start streaming in pix (format and size); capture thread parked. */
int srv_device_start(const struct v4l2_pix_format *pix)
{
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_requestbuffers req = {
		.count = DEV_BUFFERS,
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_MMAP,
	};
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE, saved;

	srv_device_stop();
	capture_park();
	f.fmt.pix = *pix;
	f.fmt.pix.field = V4L2_FIELD_ANY;
	f.fmt.pix.bytesperline = 0;
	f.fmt.pix.sizeimage = 0;
	if (v4l2_ioctl(srv.dev, VIDIOC_S_FMT, &f) < 0)
		return -1;
	/* What the clients are told a frame holds: consistent, whatever the
	 * driver said (deliver() copies no more than the buffer has). */
	fs_normalise_format(&f.fmt.pix);
	srv.cur = f.fmt.pix;
	if (v4l2_ioctl(srv.dev, VIDIOC_REQBUFS, &req) < 0)
		return -1;
	if (req.count < 1 || req.count > DEV_BUFFERS) {
		errno = ENOMEM;
		goto fail;
	}
	for (unsigned i = 0; i < req.count; i++) {
		struct v4l2_buffer b = {
			.index = i,
			.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
			.memory = V4L2_MEMORY_MMAP,
		};

		if (v4l2_ioctl(srv.dev, VIDIOC_QUERYBUF, &b) < 0)
			goto fail;
		srv.bufmap[i] =
			v4l2_mmap(NULL, b.length, PROT_READ | PROT_WRITE,
				  MAP_SHARED, srv.dev, b.m.offset);
		if (srv.bufmap[i] == MAP_FAILED)
			goto fail;
		srv.buflen[i] = b.length;
		srv.nbufs = i + 1;
		if (v4l2_ioctl(srv.dev, VIDIOC_QBUF, &b) < 0)
			goto fail;
	}
	if (v4l2_ioctl(srv.dev, VIDIOC_STREAMON, &type) < 0)
		goto fail;
	srv.running = 1;
	srv_replug_started();
	capture_unpark();
	if (srv.verbose)
		fprintf(stderr, "v4l2-frameserver: streaming %.4s %ux%u\n",
			(char *)&srv.cur.pixelformat, srv.cur.width,
			srv.cur.height);
	return 0;
fail:
	saved = errno;
	srv_device_stop();
	errno = saved;
	return -1;
}

/*
 * Send frame (slot s, bytes long) to every streaming client with room
 * that wants it decoded (decoded) or as the device gave it; lock held.
 */
static void distribute(struct slot *s, const struct v4l2_buffer *b,
		       uint32_t bytes, int decoded)
{
	unsigned idx = (unsigned)(s - srv.slots);
	struct fs_frame m;

	memset(&m, 0, sizeof(m));
	m.h.type = FS_FRAME;
	m.slot = idx;
	m.gen = s->gen;
	m.sequence = srv_replug_sequence(b->sequence);
	m.bytesused = bytes;
	m.flags = b->flags;
	m.map_size = s->size;
	m.ts_sec = b->timestamp.tv_sec;
	m.ts_usec = b->timestamp.tv_usec;
	m.pix = srv.cur;
	if (decoded)
		srv_decoded_pix(&srv.cur, &m.pix);
	for (int i = 0; i < MAX_CLIENTS; i++) {
		struct client *c = &srv.clients[i];
		int send_fd;

		if (c->sock < 0 || c->data < 0 || !c->streaming || c->dead ||
		    !c->decoded != !decoded)
			continue;
		if (c->inflight >= FS_MAX_INFLIGHT) {
			c->dropped++;
			continue;
		}
		send_fd = c->known_gen[idx] != s->gen;
		m.has_fd = (uint32_t)send_fd;
		m.server_ns = srv_now_ns();
		if (fs_send(c->data, &m, sizeof(m), send_fd ? s->fd : -1,
			    MSG_DONTWAIT) < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK) {
				c->dropped++;
			} else {
				c->dead = 1;
				if (write(srv.wake[1], "x", 1) < 0) {
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
 * poll() sees as POLLERR | POLLHUP (client.c). The clients that wait for
 * the camera to come back are spared while they wait (server_replug.c).
 */
void srv_broadcast_end(int err, int spare_replug)
{
	struct fs_hdr h = { .type = FS_END, .ret = -1, .err = err };

	for (int i = 0; i < MAX_CLIENTS; i++) {
		struct client *c = &srv.clients[i];

		if (c->sock < 0 || c->ended || (spare_replug && c->replug_ms))
			continue;
		c->ended = 1;
		c->streaming = 0;
		fs_send(c->sock, &h, sizeof(h), -1, MSG_DONTWAIT);
		if (c->data >= 0)
			close(c->data);
		c->data = -1;
	}
}

/* The frame decoded once for the clients that want it decoded. */
static void deliver_decoded(const struct v4l2_buffer *b)
{
	uint32_t bytes;
	struct slot *s = srv_decode(srv.bufmap[b->index], b->bytesused, &bytes);

	if (!s) {
		srv_log("a frame could not be decoded: skipped", NULL);
		return;
	}
	/* The lock was dropped: the stream may have stopped meanwhile. */
	if (srv.running && !srv.stop_req)
		distribute(s, b, bytes, 1);
}

/* A dequeued frame into a slot, sent to the streaming clients (lock held). */
static void deliver(struct v4l2_buffer *b)
{
	size_t need = srv.cur.sizeimage > b->bytesused ? srv.cur.sizeimage
						       : b->bytesused;
	struct slot *s;
	uint64_t t0;

	if (need > srv.buflen[b->index])
		need = srv.buflen[b->index];
	if (b->bytesused > need)
		b->bytesused = (uint32_t)need;
	if (srv_decoding_clients())
		deliver_decoded(b);
	if (srv_streaming_clients() <= srv_decoding_clients())
		return;
	s = srv_slot_get(need);
	if (!s)
		return;
	t0 = srv_now_ns();
	memcpy(s->map, srv.bufmap[b->index], b->bytesused);
	if (srv.seal_write && srv_slot_seal_write(s) < 0) {
		srv_slot_free(s);
		return;
	}
	srv.copy_ns += srv_now_ns() - t0;
	srv.frames++;
	distribute(s, b, b->bytesused, 0);
}

/* A DQBUF that failed with err (lock held). */
static void dqbuf_failed(int err)
{
	if (err == ENODEV && srv_replug_wanted()) {
		srv_replug_begin();
	} else if (err == ENODEV) {
		srv.gone = 1;
		srv.running = 0;
		srv_broadcast_end(ENODEV, 0);
		srv_log("device gone", NULL);
	} else if (err != EAGAIN && err != EINTR) {
		usleep(1000);
	}
}

void *srv_capture_thread(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&srv.lock);
	for (;;) {
		struct v4l2_buffer b = {
			.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
			.memory = V4L2_MEMORY_MMAP,
		};
		struct pollfd p = { .fd = srv.dev, .events = POLLIN };
		int r, err;

		while (!srv.quit && (!srv.running || srv.stop_req)) {
			srv.parked = 1;
			pthread_cond_broadcast(&srv.cond);
			pthread_cond_wait(&srv.cond, &srv.lock);
		}
		if (srv.quit)
			break;
		srv.parked = 0;
		pthread_mutex_unlock(&srv.lock);
		r = poll(&p, 1, 100);
		if (r > 0)
			r = v4l2_ioctl(srv.dev, VIDIOC_DQBUF, &b);
		else
			r = 1;
		err = errno;
		pthread_mutex_lock(&srv.lock);
		if (r == 1)
			continue;
		if (r < 0) {
			dqbuf_failed(err);
			continue;
		}
		srv.dequeued++;
		if (b.index < srv.nbufs && !(b.flags & V4L2_BUF_FLAG_ERROR))
			deliver(&b);
		if (srv.running)
			v4l2_ioctl(srv.dev, VIDIOC_QBUF, &b);
	}
	srv.parked = 1;
	pthread_cond_broadcast(&srv.cond);
	pthread_mutex_unlock(&srv.lock);
	return NULL;
}
