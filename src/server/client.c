/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libv4l2's share backend: with LIBV4L2_SHARE=1 a capture device opened
 * through libv4l2 (or v4l2convert.so) is served by v4l2-frameserver
 * instead of being opened directly. This file is a device in the plugin
 * ABI (<libv4l-plugin.h>), built into libv4l2 and tried before every other
 * plugin (src/v4l2/plugin.c): libv4l2 and libv4lconvert above it see a
 * normal V4L2 device offering the device's native formats, and do the
 * format conversion, fake mmap buffers and read() emulation in this
 * process as for a real device.
 *
 * init(fd): the fd must be a V4L2 character device (or a virtual camera
 * memfd "libv4l-vcam:..."). We connect to the server of that device
 * ($XDG_RUNTIME_DIR/libv4l/<key>.sock; started when absent), then replace
 * the application's fd, with dup3, by a memfd of our own that holds this
 * client's buffers: the device itself is only kept open by the server, and
 * mmap(fd, QUERYBUF's m.offset) maps our buffers. (poll() on that fd is
 * always ready; DQBUF blocks or gives EAGAIN as the fd's O_NONBLOCK says.)
 *
 * Frames: the server sends each frame as a sealed read-only memfd slot;
 * DQBUF takes the newest frame received (older ones are released unread,
 * the server drops frames while we are behind), copies it into the first
 * queued buffer, resampled by nearest neighbour when the server streams a
 * larger size than ours (src/server/scale.c), and releases the slot.
 * Controls go to the server (last writer wins, visible to all).
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
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "libv4l-plugin.h"
#include "proto.h"
#include "scale.h"

#ifndef V4L2_FRAMESERVER_PATH
#define V4L2_FRAMESERVER_PATH "/usr/bin/v4l2-frameserver"
#endif

#define MAX_BUFS 32

extern char **environ;

struct share {
	int fd;			/* the application's fd (our memfd now) */
	int sock;
	pthread_mutex_t lock;
	struct v4l2_pix_format fmt;
	int fmt_valid;
	/* buffers */
	unsigned nbufs;
	size_t stride;
	uint8_t *map;		/* our mapping of the whole memfd */
	size_t map_size;
	int queued[MAX_BUFS];
	unsigned q[MAX_BUFS], qhead, qlen;
	struct v4l2_buffer info[MAX_BUFS];
	int streaming;
	/* server slots */
	struct { const uint8_t *map; size_t size; uint32_t gen; } slot[FS_MAX_SLOTS];
	struct fs_frame pending;
	int have_pending;
	int ended, end_err;
	char dev[300];		/* the device reference the server serves */
};

static int share_enabled(void)
{
	const char *v = secure_getenv("LIBV4L2_SHARE");

	return v && !strcmp(v, "1");
}

/* The device reference of fd for the server, or -1. */
static int device_of(int fd, char *dev, size_t size)
{
	static const char vcam[] = "/memfd:libv4l-vcam";
	char path[64], link[512];
	struct stat st;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return -1;
	link[n] = '\0';
	if (!strncmp(link, vcam, sizeof(vcam) - 1)) {
		char *del = strstr(link, " (deleted)");

		if (del)
			*del = '\0';
		if (strlen(link + 7) >= size)
			return -1;
		strcpy(dev, link + 7);
		return 0;
	}
	if (link[0] != '/' || fstat(fd, &st) < 0 || !S_ISCHR(st.st_mode) ||
	    major(st.st_rdev) != 81 || (size_t)n >= size)
		return -1;
	strcpy(dev, link);
	return 0;
}

static int connect_to(const char *path)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int s;

	if (strlen(path) >= sizeof(a.sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(a.sun_path, path);
	s = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (s < 0)
		return -1;
	if (connect(s, (struct sockaddr *)&a, sizeof(a)) < 0) {
		int e = errno;

		close(s);
		errno = e;
		return -1;
	}
	return s;
}

/* Start a detached server (double fork, new session). */
static void spawn_server(const char *device)
{
	const char *bin = secure_getenv("LIBV4L2_FRAMESERVER");
	char *argv[] = { NULL, "--device", (char *)device, NULL };
	pid_t pid;

	size_t n = 0, k = 0;
	char **env;

	if (!bin || !*bin)
		bin = V4L2_FRAMESERVER_PATH;
	argv[0] = (char *)bin;
	/* The server gets our environment minus preloaded shims. */
	while (environ && environ[n])
		n++;
	env = calloc(n + 1, sizeof(*env));
	if (!env)
		return;
	for (size_t i = 0; i < n; i++)
		if (strncmp(environ[i], "LD_PRELOAD=", 11))
			env[k++] = environ[i];
	pid = fork();
	if (pid < 0) {
		free(env);
		return;
	}
	if (pid == 0) {
		/* Only async-signal-safe calls from here on. */
		int null;

		if (fork() != 0)
			_exit(0);
		setsid();
		null = open("/dev/null", O_RDWR);
		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 1);
		}
		for (int i = 3; i < 1024; i++)
			close(i);
		execve(bin, argv, env);
		_exit(127);
	}
	free(env);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

/* Send a request and wait for its reply (lock held). */
static int request(struct share *sh, void *msg, size_t len, size_t rlen);

static void slot_unmap(struct share *sh, unsigned i)
{
	if (sh->slot[i].map)
		munmap((void *)sh->slot[i].map, sh->slot[i].size);
	sh->slot[i].map = NULL;
	sh->slot[i].gen = 0;
}

static void release(struct share *sh, const struct fs_frame *f)
{
	struct fs_release r = {
		.h.type = FS_RELEASE, .slot = f->slot, .gen = f->gen,
	};

	fs_send(sh->sock, &r, sizeof(r), -1, 0);
}

/* One asynchronous message (frame, event, end) received. */
static void on_async(struct share *sh, const void *buf, ssize_t n, int fd)
{
	const struct fs_hdr *h = buf;

	if (h->type == FS_FRAME && n == sizeof(struct fs_frame)) {
		const struct fs_frame *f = buf;

		if (f->slot >= FS_MAX_SLOTS) {
			if (fd >= 0)
				close(fd);
			return;
		}
		if (fd >= 0) {
			void *m = mmap(NULL, f->map_size, PROT_READ, MAP_SHARED,
				       fd, 0);

			close(fd);
			slot_unmap(sh, f->slot);
			if (m != MAP_FAILED) {
				sh->slot[f->slot].map = m;
				sh->slot[f->slot].size = f->map_size;
				sh->slot[f->slot].gen = f->gen;
			}
		}
		if (!sh->streaming) {
			release(sh, f);
			return;
		}
		if (sh->have_pending)
			release(sh, &sh->pending);	/* newest wins */
		sh->pending = *f;
		sh->have_pending = 1;
		return;
	}
	if (fd >= 0)
		close(fd);
	if (h->type == FS_END) {
		sh->ended = 1;
		sh->end_err = h->err ? h->err : ENODEV;
	}
	/* FS_CTRL_EVENT: the next G_CTRL reads the new value anyway. */
}

/* Receive one message (blocking or not); 1 if async handled, 0 no data. */
static ssize_t recv_one(struct share *sh, void *buf, size_t size, int block)
{
	int fd;
	ssize_t n = fs_recv(sh->sock, buf, size, &fd,
			    block ? 0 : MSG_DONTWAIT);

	if (n < 0 && !block && (errno == EAGAIN || errno == EWOULDBLOCK))
		return 0;
	if (n <= 0) {
		if (fd >= 0)
			close(fd);
		/* The server is gone: an error, never a hang. */
		sh->ended = 1;
		sh->end_err = EIO;
		errno = EIO;
		return -1;
	}
	if (n < (ssize_t)sizeof(struct fs_hdr)) {
		if (fd >= 0)
			close(fd);
		errno = EPROTO;
		return -1;
	}
	((struct fs_hdr *)buf)->pad = (uint32_t)fd;	/* for the caller */
	return n;
}

static int request(struct share *sh, void *msg, size_t len, size_t rlen)
{
	uint32_t type = ((struct fs_hdr *)msg)->type;
	union {
		struct fs_hdr h;
		struct fs_frame f;
		struct fs_ioctl io;
		struct fs_setfmt s;
	} r;

	if (sh->ended && sh->end_err == EIO) {
		errno = EIO;
		return -1;
	}
	if (fs_send(sh->sock, msg, len, -1, 0) < 0)
		return -1;
	for (;;) {
		struct pollfd p = { .fd = sh->sock, .events = POLLIN };
		ssize_t n;
		int fd;

		/* A server that stops answering is an error, not a hang. */
		if (poll(&p, 1, 15000) == 0) {
			errno = ETIMEDOUT;
			return -1;
		}
		n = recv_one(sh, &r, sizeof(r), 1);

		if (n < 0)
			return -1;
		fd = (int)r.h.pad;
		if (r.h.type == type) {
			if (fd >= 0)
				close(fd);
			if ((size_t)n != rlen) {
				errno = EPROTO;
				return -1;
			}
			memcpy(msg, &r, rlen);
			if (r.h.ret < 0) {
				errno = r.h.err;
				return -1;
			}
			return 0;
		}
		on_async(sh, &r, n, fd);
	}
}

static int fwd_ioctl(struct share *sh, unsigned long req, void *arg)
{
	struct fs_ioctl m;
	size_t size = _IOC_SIZE(req);

	if (size > FS_IOCTL_MAX) {
		errno = ENOTTY;
		return -1;
	}
	memset(&m, 0, sizeof(m));
	m.h.type = FS_IOCTL;
	m.req = (uint32_t)req;
	m.size = (uint32_t)size;
	memcpy(m.arg, arg, size);
	if (request(sh, &m, sizeof(m), sizeof(m)) < 0) {
		if (errno != EIO && errno != EPROTO)
			memcpy(arg, m.arg, size);
		return -1;
	}
	memcpy(arg, m.arg, size);
	return 0;
}

static int simple(struct share *sh, uint32_t type)
{
	struct fs_hdr h = { .type = type };

	return request(sh, &h, sizeof(h), sizeof(h));
}

static void *share_init(int fd)
{
	char dev[300], key[80], path[200];
	struct fs_hello hello = { .h.type = FS_HELLO,
				  .version = FS_PROTO_VERSION };
	struct v4l2_capability cap;
	struct share *sh;
	int s = -1, fl, fdfl, mfd;
	uint32_t caps;

	if (!share_enabled() || device_of(fd, dev, sizeof(dev)) < 0)
		return NULL;
	if (fs_device_key(dev, key, sizeof(key)) < 0 ||
	    fs_socket_path(key, path, sizeof(path)) < 0)
		return NULL;
	s = connect_to(path);
	if (s < 0) {
		if (secure_getenv("LIBV4L2_FRAMESERVER_VERBOSE"))
			fprintf(stderr, "libv4l2 share[%d]: connect %s: %s: "
				"starting a server\n", (int)getpid(), path,
				strerror(errno));
		spawn_server(dev);
		for (int i = 0; i < 300 && s < 0; i++) {
			struct timespec ts = { 0, 10 * 1000 * 1000 };

			nanosleep(&ts, NULL);
			s = connect_to(path);
		}
		if (s < 0)
			return NULL;
	}
	sh = calloc(1, sizeof(*sh));
	if (!sh) {
		close(s);
		return NULL;
	}
	sh->sock = s;
	snprintf(sh->dev, sizeof(sh->dev), "%s", dev);
	pthread_mutex_init(&sh->lock, NULL);
	if (request(sh, &hello, sizeof(hello), sizeof(hello)) < 0)
		goto fail;
	memset(&cap, 0, sizeof(cap));
	if (fwd_ioctl(sh, VIDIOC_QUERYCAP, &cap) < 0)
		goto fail;
	caps = (cap.capabilities & V4L2_CAP_DEVICE_CAPS) ? cap.device_caps :
	       cap.capabilities;
	if (!(caps & V4L2_CAP_VIDEO_CAPTURE) || !(caps & V4L2_CAP_STREAMING))
		goto fail;

	/* Our buffers replace the device on the application's fd number. */
	snprintf(path, sizeof(path), "libv4l-share:%s", key);
	mfd = memfd_create(path, MFD_CLOEXEC);
	if (mfd < 0)
		goto fail;
	fl = fcntl(fd, F_GETFL);
	fdfl = fcntl(fd, F_GETFD);
	if (dup3(mfd, fd, (fdfl >= 0 && (fdfl & FD_CLOEXEC)) ?
		 O_CLOEXEC : 0) < 0) {
		close(mfd);
		goto fail;
	}
	close(mfd);
	if (fl >= 0 && (fl & O_NONBLOCK))
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	sh->fd = fd;
	return sh;
fail:
	close(s);
	pthread_mutex_destroy(&sh->lock);
	free(sh);
	return NULL;
}

static void share_close(void *priv)
{
	struct share *sh = priv;

	if (!sh)
		return;
	for (unsigned i = 0; i < FS_MAX_SLOTS; i++)
		slot_unmap(sh, i);
	if (sh->map)
		munmap(sh->map, sh->map_size);
	close(sh->sock);
	pthread_mutex_destroy(&sh->lock);
	free(sh);
}

static int nonblocking(struct share *sh)
{
	int fl = fcntl(sh->fd, F_GETFL);

	return fl >= 0 && (fl & O_NONBLOCK);
}

static int get_fmt(struct share *sh)
{
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };

	if (sh->fmt_valid)
		return 0;
	if (fwd_ioctl(sh, VIDIOC_G_FMT, &f) < 0)
		return -1;
	sh->fmt = f.fmt.pix;
	sh->fmt_valid = 1;
	return 0;
}

static int do_s_fmt(struct share *sh, struct v4l2_format *f)
{
	struct fs_setfmt m = { .h.type = FS_SETFMT };

	if (f->type != V4L2_BUF_TYPE_VIDEO_CAPTURE) {
		errno = EINVAL;
		return -1;
	}
	if (get_fmt(sh) < 0)
		return -1;
	if (sh->nbufs && (f->fmt.pix.pixelformat != sh->fmt.pixelformat ||
			  f->fmt.pix.width != sh->fmt.width ||
			  f->fmt.pix.height != sh->fmt.height)) {
		errno = EBUSY;
		return -1;
	}
	m.pix = f->fmt.pix;
	if (request(sh, &m, sizeof(m), sizeof(m)) < 0)
		return -1;
	if (!fs_scale_supported(m.pix.pixelformat) &&
	    m.pix.pixelformat != V4L2_PIX_FMT_MJPEG &&
	    m.pix.pixelformat != V4L2_PIX_FMT_JPEG) {
		/* Other formats are shared only at the streamed size. */
	}
	f->fmt.pix = m.pix;
	sh->fmt = m.pix;
	sh->fmt_valid = 1;
	return 0;
}

static int do_reqbufs(struct share *sh, struct v4l2_requestbuffers *r)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), need;

	if (r->type != V4L2_BUF_TYPE_VIDEO_CAPTURE ||
	    r->memory != V4L2_MEMORY_MMAP) {
		errno = EINVAL;
		return -1;
	}
	if (sh->streaming) {
		errno = EBUSY;
		return -1;
	}
	memset(r->reserved, 0, sizeof(r->reserved));
	r->capabilities = V4L2_BUF_CAP_SUPPORTS_MMAP;
	sh->qlen = sh->qhead = 0;
	memset(sh->queued, 0, sizeof(sh->queued));
	if (r->count == 0) {
		/* The memfd keeps its size: the application may still map it. */
		sh->nbufs = 0;
		return 0;
	}
	if (get_fmt(sh) < 0)
		return -1;
	if (r->count > MAX_BUFS)
		r->count = MAX_BUFS;
	sh->stride = (sh->fmt.sizeimage + page - 1) / page * page;
	need = sh->stride * r->count;
	if (need > sh->map_size) {
		void *m;

		if (ftruncate(sh->fd, (off_t)need) < 0)
			return -1;
		m = mmap(NULL, need, PROT_READ | PROT_WRITE, MAP_SHARED,
			 sh->fd, 0);
		if (m == MAP_FAILED)
			return -1;
		if (sh->map)
			munmap(sh->map, sh->map_size);
		sh->map = m;
		sh->map_size = need;
	}
	sh->nbufs = r->count;
	for (unsigned i = 0; i < sh->nbufs; i++) {
		struct v4l2_buffer *b = &sh->info[i];

		memset(b, 0, sizeof(*b));
		b->index = i;
		b->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		b->memory = V4L2_MEMORY_MMAP;
		b->m.offset = (uint32_t)(i * sh->stride);
		b->length = sh->fmt.sizeimage;
		b->field = V4L2_FIELD_NONE;
		b->flags = V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC;
	}
	return 0;
}

static int check_buf(struct share *sh, const struct v4l2_buffer *b)
{
	if (b->type != V4L2_BUF_TYPE_VIDEO_CAPTURE ||
	    b->memory != V4L2_MEMORY_MMAP || b->index >= sh->nbufs) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

static void stream_stop(struct share *sh)
{
	if (sh->have_pending)
		release(sh, &sh->pending);
	sh->have_pending = 0;
	sh->streaming = 0;
	sh->qlen = sh->qhead = 0;
	for (unsigned i = 0; i < MAX_BUFS; i++) {
		sh->queued[i] = 0;
		sh->info[i].flags &= ~(V4L2_BUF_FLAG_QUEUED |
				       V4L2_BUF_FLAG_DONE);
	}
}

/* The newest frame from the server into sh->pending (lock held). */
static int wait_frame(struct share *sh)
{
	union { struct fs_hdr h; struct fs_frame f; } m;

	for (;;) {
		ssize_t n;

		while ((n = recv_one(sh, &m, sizeof(m), 0)) > 0)
			on_async(sh, &m, n, (int)m.h.pad);
		if (sh->have_pending)
			return 0;
		if (n < 0 || sh->ended) {
			errno = sh->end_err ? sh->end_err : EIO;
			return -1;
		}
		if (nonblocking(sh)) {
			errno = EAGAIN;
			return -1;
		}
		{
			struct pollfd p = { .fd = sh->sock, .events = POLLIN };

			int r;

			pthread_mutex_unlock(&sh->lock);
			r = poll(&p, 1, 1000);
			pthread_mutex_lock(&sh->lock);
			if (r < 0 && errno == EINTR) {
				/* As a driver's blocking DQBUF: a signal
				 * interrupts the wait. */
				return -1;
			}
		}
		if (!sh->streaming) {
			errno = EINVAL;
			return -1;
		}
	}
}

static int do_dqbuf(struct share *sh, struct v4l2_buffer *b)
{
	struct v4l2_buffer *info;
	const uint8_t *src;
	unsigned idx;
	long n;

	if (b->type != V4L2_BUF_TYPE_VIDEO_CAPTURE ||
	    b->memory != V4L2_MEMORY_MMAP || !sh->streaming) {
		errno = EINVAL;
		return -1;
	}
	if (!sh->qlen) {
		errno = nonblocking(sh) ? EAGAIN : EINVAL;
		return -1;
	}
	if (wait_frame(sh) < 0)
		return -1;
	idx = sh->q[sh->qhead];
	info = &sh->info[idx];
	src = sh->slot[sh->pending.slot].map;
	n = -1;
	if (src && sh->slot[sh->pending.slot].gen == sh->pending.gen &&
	    sh->pending.bytesused <= sh->slot[sh->pending.slot].size)
		n = fs_scale_frame(src, &sh->pending.pix,
				   sh->pending.bytesused,
				   sh->map + idx * sh->stride, &sh->fmt,
				   sh->stride);
	release(sh, &sh->pending);
	sh->have_pending = 0;
	sh->qhead = (sh->qhead + 1) % MAX_BUFS;
	sh->qlen--;
	sh->queued[idx] = 0;
	info->flags &= ~V4L2_BUF_FLAG_QUEUED;
	info->flags |= V4L2_BUF_FLAG_DONE | V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC |
		       V4L2_BUF_FLAG_TSTAMP_SRC_EOF;
	if (n < 0) {
		info->flags |= V4L2_BUF_FLAG_ERROR;
		info->bytesused = 0;
	} else {
		info->flags &= ~V4L2_BUF_FLAG_ERROR;
		info->bytesused = (uint32_t)n;
	}
	info->sequence = sh->pending.sequence;
	info->timestamp.tv_sec = sh->pending.ts_sec;
	info->timestamp.tv_usec = sh->pending.ts_usec;
	info->field = V4L2_FIELD_NONE;
	*b = *info;
	return 0;
}

static int ext_ctrls(struct share *sh, unsigned long req,
		     struct v4l2_ext_controls *e)
{
	for (uint32_t i = 0; i < e->count; i++) {
		struct v4l2_ext_control *x = &e->controls[i];
		struct v4l2_control c = { .id = x->id, .value = x->value };
		struct v4l2_queryctrl q = { .id = x->id };
		int r;

		if (req == VIDIOC_G_EXT_CTRLS)
			r = fwd_ioctl(sh, VIDIOC_G_CTRL, &c);
		else if (req == VIDIOC_S_EXT_CTRLS)
			r = fwd_ioctl(sh, VIDIOC_S_CTRL, &c);
		else
			r = fwd_ioctl(sh, VIDIOC_QUERYCTRL, &q);
		if (r < 0) {
			e->error_idx = req == VIDIOC_S_EXT_CTRLS && i == 0 ?
				       e->count : i;
			return -1;
		}
		if (req != VIDIOC_TRY_EXT_CTRLS)
			x->value = c.value;
	}
	return 0;
}

static int share_ioctl_locked(struct share *sh, unsigned long req,
			      void *arg)
{
	if (!arg) {
		errno = EFAULT;
		return -1;
	}
	switch (req) {
	case VIDIOC_QUERYCAP: {
		struct v4l2_capability *c = arg;
		uint32_t caps = V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING |
				V4L2_CAP_EXT_PIX_FORMAT;

		if (fwd_ioctl(sh, req, arg) < 0)
			return -1;
		c->device_caps = caps;
		c->capabilities = caps | V4L2_CAP_DEVICE_CAPS;
		return 0;
	}
	case VIDIOC_ENUM_FMT: case VIDIOC_ENUM_FRAMESIZES:
	case VIDIOC_ENUM_FRAMEINTERVALS: case VIDIOC_ENUMINPUT:
	case VIDIOC_G_INPUT: case VIDIOC_QUERYCTRL:
	case VIDIOC_QUERY_EXT_CTRL: case VIDIOC_QUERYMENU:
	case VIDIOC_G_CTRL: case VIDIOC_S_CTRL: case VIDIOC_TRY_FMT:
	case VIDIOC_G_PARM: case VIDIOC_S_PARM:
		return fwd_ioctl(sh, req, arg);
	case VIDIOC_S_INPUT: {
		int cur;

		if (fwd_ioctl(sh, VIDIOC_G_INPUT, &cur) < 0)
			return -1;
		if (*(int *)arg != cur) {
			errno = EBUSY;
			return -1;
		}
		return 0;
	}
	case VIDIOC_G_EXT_CTRLS: case VIDIOC_S_EXT_CTRLS:
	case VIDIOC_TRY_EXT_CTRLS:
		return ext_ctrls(sh, req, arg);
	case VIDIOC_G_FMT: {
		struct v4l2_format *f = arg;

		if (f->type != V4L2_BUF_TYPE_VIDEO_CAPTURE) {
			errno = EINVAL;
			return -1;
		}
		if (get_fmt(sh) < 0)
			return -1;
		f->fmt.pix = sh->fmt;
		return 0;
	}
	case VIDIOC_S_FMT:
		return do_s_fmt(sh, arg);
	case VIDIOC_REQBUFS:
		return do_reqbufs(sh, arg);
	case VIDIOC_QUERYBUF: {
		struct v4l2_buffer *b = arg;

		if (check_buf(sh, b) < 0)
			return -1;
		*b = sh->info[b->index];
		return 0;
	}
	case VIDIOC_QBUF: {
		struct v4l2_buffer *b = arg;

		if (check_buf(sh, b) < 0)
			return -1;
		if (sh->queued[b->index]) {
			errno = EINVAL;
			return -1;
		}
		sh->queued[b->index] = 1;
		sh->q[(sh->qhead + sh->qlen) % MAX_BUFS] = b->index;
		sh->qlen++;
		sh->info[b->index].flags |= V4L2_BUF_FLAG_QUEUED;
		sh->info[b->index].flags &= ~V4L2_BUF_FLAG_DONE;
		*b = sh->info[b->index];
		return 0;
	}
	case VIDIOC_DQBUF:
		return do_dqbuf(sh, arg);
	case VIDIOC_STREAMON:
		if (*(int *)arg != V4L2_BUF_TYPE_VIDEO_CAPTURE || !sh->nbufs) {
			errno = EINVAL;
			return -1;
		}
		if (sh->streaming)
			return 0;
		if (simple(sh, FS_STREAMON) < 0)
			return -1;
		sh->streaming = 1;
		return 0;
	case VIDIOC_STREAMOFF:
		if (*(int *)arg != V4L2_BUF_TYPE_VIDEO_CAPTURE) {
			errno = EINVAL;
			return -1;
		}
		if (sh->streaming)
			simple(sh, FS_STREAMOFF);
		stream_stop(sh);
		return 0;
	}
	errno = ENOTTY;
	return -1;
}

static int share_ioctl(void *priv, int fd, unsigned long req, void *arg)
{
	struct share *sh = priv;
	int r;

	(void)fd;
	pthread_mutex_lock(&sh->lock);
	r = share_ioctl_locked(sh, (unsigned int)req, arg);
	pthread_mutex_unlock(&sh->lock);
	return r;
}

static ssize_t share_read(void *priv, int fd, void *buf, size_t n)
{
	(void)priv; (void)fd; (void)buf; (void)n;
	errno = EINVAL;		/* no READWRITE: libv4l2 emulates read() */
	return -1;
}

static ssize_t share_write(void *priv, int fd, const void *buf, size_t n)
{
	(void)priv; (void)fd; (void)buf; (void)n;
	errno = EINVAL;
	return -1;
}

/*
 * The device a share serves ("/dev/videoN" or "libv4l-vcam:SPEC"): what
 * another client (libv4l2's autofocus daemon, src/v4l2/autofocus.c) opens
 * to join the same server. Returns 0, or -1 when it does not fit.
 */
int v4lc_share_device(void *priv, char *buf, size_t size);
int v4lc_share_device(void *priv, char *buf, size_t size)
{
	const struct share *sh = priv;

	if (!sh || strlen(sh->dev) >= size)
		return -1;
	strcpy(buf, sh->dev);
	return 0;
}

const struct libv4l_dev_ops v4lc_share_ops = {
	.init = share_init,
	.close = share_close,
	.ioctl = share_ioctl,
	.read = share_read,
	.write = share_write,
};
