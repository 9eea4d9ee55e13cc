/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* See fakesrv.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <libv4l2.h>

#include "server/server.h"
#include "fakesrv.h"

struct server srv = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.cond = PTHREAD_COND_INITIALIZER,
	.dev = -1,
};
int fakesrv_endless_enum;
static uint32_t enum_calls;

uint64_t srv_now_ns(void)
{
	return 0;
}

void srv_log(const char *what, const char *arg)
{
	(void)what;
	(void)arg;
}

/* No device comes back here (server_replug.c). */
int srv_open_device(const char *dev)
{
	(void)dev;
	errno = ENODEV;
	return -1;
}

int v4l2_close(int fd)
{
	(void)fd;
	return 0;
}

static void fake_pix(struct v4l2_pix_format *p)
{
	if (p->width < 16 || p->width > 640)
		p->width = 64;
	if (p->height < 16 || p->height > 480)
		p->height = 48;
	p->width &= ~1u;
	p->pixelformat = V4L2_PIX_FMT_YUYV;
	p->field = V4L2_FIELD_NONE;
	p->bytesperline = p->width * 2;
	p->sizeimage = p->bytesperline * p->height;
}

static int enum_fmt(struct v4l2_fmtdesc *d)
{
	if (fakesrv_endless_enum) {
		d->pixelformat = v4l2_fourcc('Z', 0, 0, 0) | (++enum_calls);
		return 0;
	}
	if (d->index > 1) {
		errno = EINVAL;
		return -1;
	}
	d->pixelformat = d->index ? V4L2_PIX_FMT_MJPEG : V4L2_PIX_FMT_YUYV;
	return 0;
}

int v4l2_ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	(void)fd;
	switch (req) {
	case VIDIOC_ENUM_FMT:
		return enum_fmt(arg);
	case VIDIOC_G_FMT:
	case VIDIOC_S_FMT:
	case VIDIOC_TRY_FMT:
		fake_pix(&((struct v4l2_format *)arg)->fmt.pix);
		return 0;
	case VIDIOC_REQBUFS: {
		struct v4l2_requestbuffers *r = arg;

		if (r->count > 2)
			r->count = 2;
		return 0;
	}
	case VIDIOC_QUERYBUF: {
		struct v4l2_buffer *b = arg;

		b->length = 64 * 48 * 2;
		b->m.offset = b->index * 4096 * 2;
		return 0;
	}
	case VIDIOC_QUERYCAP:
	case VIDIOC_G_PARM:
	case VIDIOC_S_PARM:
	case VIDIOC_G_INPUT:
	case VIDIOC_QBUF:
	case VIDIOC_STREAMON:
	case VIDIOC_STREAMOFF:
		return 0;
	}
	errno = EINVAL;
	return -1;
}

void *v4l2_mmap(void *start, size_t length, int prot, int flags, int fd,
		int64_t offset)
{
	(void)start;
	(void)prot;
	(void)flags;
	(void)fd;
	(void)offset;
	return mmap(NULL, length, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}

int v4l2_munmap(void *start, size_t length)
{
	return munmap(start, length);
}

void fakesrv_reset(void)
{
	static int ready; /* srv's fds are valid (-1 or open) */

	pthread_mutex_lock(&srv.lock);
	if (ready) {
		srv_device_stop();
		for (int i = 0; i < MAX_CLIENTS; i++)
			if (srv.clients[i].sock >= 0)
				srv_client_drop(&srv.clients[i]);
		for (int i = 0; i < FS_MAX_SLOTS; i++)
			srv_slot_free(&srv.slots[i]);
	}
	ready = 1;
	for (int i = 0; i < MAX_CLIENTS; i++) {
		memset(&srv.clients[i], 0, sizeof(srv.clients[i]));
		srv.clients[i].sock = -1;
		srv.clients[i].data = -1;
	}
	for (int i = 0; i < FS_MAX_SLOTS; i++) {
		memset(&srv.slots[i], 0, sizeof(srv.slots[i]));
		srv.slots[i].fd = -1;
	}
	srv.running = 0;
	srv.nbufs = 0;
	srv.gone = 0;
	srv.dev = 1000;
	srv.parked = 1; /* no capture thread */
	srv.share_fmt = V4L2_PIX_FMT_YUYV;
	pthread_mutex_unlock(&srv.lock);
}

int fakesrv_connect(void)
{
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return -1;
	pthread_mutex_lock(&srv.lock);
	memset(&srv.clients[0], 0, sizeof(srv.clients[0]));
	srv.clients[0].sock = sv[0];
	srv.clients[0].data = -1;
	pthread_mutex_unlock(&srv.lock);
	return sv[1];
}

int fakesrv_handle(void)
{
	int r;

	pthread_mutex_lock(&srv.lock);
	r = srv_handle(&srv.clients[0]);
	if (r < 0)
		srv_client_drop(&srv.clients[0]);
	pthread_mutex_unlock(&srv.lock);
	return r;
}
