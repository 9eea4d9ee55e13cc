/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libv4l2's share backend: a capture device opened through libv4l2 (or
 * v4l2convert.so) is served by v4l2-frameserver instead of being opened
 * directly, with LIBV4L2_SHARE=1 (starting the server when none runs) or,
 * by default, when a server for the device is already running (see
 * share_mode). This file is a device in the plugin ABI
 * (<libv4l-plugin.h>), built into libv4l2 and tried before every other
 * plugin (src/v4l2/plugin.c): libv4l2 and libv4lconvert above it see a
 * normal V4L2 device offering the device's native formats, and do the
 * format conversion, fake mmap buffers and read() emulation in this
 * process as for a real device.
 *
 * init(fd): the fd must be a V4L2 character device (or a virtual camera
 * memfd "libv4l-vcam:..."). We connect to the server of that device
 * ($XDG_RUNTIME_DIR/libv4l/<key>.sock; started when absent, see
 * server_connect) and hand it one end of a socket pair, the frame socket;
 * the other end replaces the application's fd (dup3), so the device itself
 * is only kept open by the server and poll()/select() on the application's
 * fd follow the frames: POLLIN|POLLRDNORM when a frame is there to
 * dequeue, never POLLOUT, POLLERR|POLLHUP once the device is gone or the
 * server died. (Unlike a V4L2 device, a shared fd that is not streaming
 * reports nothing rather than POLLERR; frames sent while the application
 * has no buffer queued make it readable too, and DQBUF then says EAGAIN.)
 * The buffers live in a memfd of ours: libv4l2's v4l2_mmap maps them
 * through lv2_share_mmap. USERPTR buffers are filled by DQBUF; DMABUF is
 * refused (EINVAL).
 *
 * Frames: the server sends each frame as a sealed read-only memfd slot on
 * the frame socket; DQBUF takes the newest frame received (older ones are
 * released unread, the server drops frames while we are behind), copies
 * it into the first queued buffer, resampled by nearest neighbour when the
 * server streams a larger size than ours (src/server/scale.c), and
 * releases the slot. Requests, replies, control events and the end of
 * the stream (FS_END: ENODEV) travel on the request socket.
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
#include <sys/file.h>
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
#include "v4l2/backend.h"

#ifndef LV2_FRAMESERVER_PATH
#define LV2_FRAMESERVER_PATH "/usr/bin/v4l2-frameserver"
#endif

#define MAX_BUFS 32

extern char **environ;

struct share {
	int fd;			/* the application's fd: the frame socket now */
	int sock;		/* requests and replies */
	int mfd;		/* memfd holding this client's buffers */
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
	uint32_t memory;	/* V4L2_MEMORY_MMAP or _USERPTR (REQBUFS) */
	/* server slots */
	struct { const uint8_t *map; size_t size; uint32_t gen; } slot[FS_MAX_SLOTS];
	struct fs_frame pending;
	int have_pending;
	int ended, end_err;
	char dev[300];		/* the device reference the server serves */
};

/*
 * LIBV4L2_SHARE: "1": share, starting the device's server when none runs;
 * "0": never share. Unset (the default) or anything else: join a server
 * that already listens for the device (started by a program run with
 * LIBV4L2_SHARE=1, or by the systemd socket unit the user enabled), never
 * start one: a program then opens the device directly unless sharing is
 * already in use for it (README, "Frame server", says why).
 */
static int share_mode(void)
{
	const char *v = secure_getenv("LIBV4L2_SHARE");

	if (v && !strcmp(v, "1"))
		return 1;
	if (v && !strcmp(v, "0"))
		return 0;
	return -1;
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

/*
 * Start a detached server (double fork, new session). Its stdin, stdout
 * and stderr are /dev/null (stderr stays ours when verbose): it outlives
 * this program, and must not hold open the pipe of `prog 2>&1 | cat`.
 */
static void spawn_server(const char *device)
{
	const char *bin = secure_getenv("LIBV4L2_FRAMESERVER");
	int verbose = secure_getenv("LIBV4L2_FRAMESERVER_VERBOSE") != NULL;
	char *argv[] = { NULL, "--device", (char *)device, NULL };
	pid_t pid;

	size_t n = 0, k = 0;
	char **env;

	if (!bin || !*bin)
		bin = LV2_FRAMESERVER_PATH;
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
			if (!verbose)
				dup2(null, 2);
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
		if (!sh->ended || !sh->end_err) {
			sh->ended = 1;
			sh->end_err = EIO;
		}
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

/* The request socket is still connected (the server may have ended the
 * stream, ENODEV, and still answer requests). */
static int live(struct share *sh)
{
	struct pollfd p = { .fd = sh->sock, .events = POLLIN };

	return !(poll(&p, 1, 0) == 1 && (p.revents & (POLLHUP | POLLERR)));
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

	if (sh->ended && !live(sh)) {
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

static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* HELLO on a fresh connection: 0, or -1 when the server did not answer
 * (it was exiting: the connection was reset, or it is stuck). */
static int hello_exchange(int s, struct fs_hello *hello, int data)
{
	struct pollfd p = { .fd = s, .events = POLLIN };
	struct fs_hello r;
	ssize_t n;
	int fd;

	if (fs_send(s, hello, sizeof(*hello), data, 0) < 0)
		return -1;
	if (poll(&p, 1, 5000) <= 0)
		return -1;
	n = fs_recv(s, &r, sizeof(r), &fd, MSG_DONTWAIT);
	if (fd >= 0)
		close(fd);
	if (n != (ssize_t)sizeof(r) || r.h.type != FS_HELLO || r.h.ret)
		return -1;
	if (r.version != FS_PROTO_VERSION)
		return -2;	/* another version's server: not retried */
	*hello = r;
	return 0;
}

/*
 * Whether a server holds the device's lock file (it is starting, serving
 * or exiting): then starting another one is useless. The lock file is
 * "<key>.lock" beside "<key>.sock" (server.c).
 */
static int lock_held(const char *path)
{
	char lock[220];
	int fd, held;
	size_t n = strlen(path);

	if (n < 5 || n - 5 + sizeof(".lock") > sizeof(lock))
		return 0;
	memcpy(lock, path, n - 5);
	strcpy(lock + n - 5, ".lock");
	fd = open(lock, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return 0;
	held = flock(fd, LOCK_EX | LOCK_NB) < 0 && errno == EWOULDBLOCK;
	close(fd);	/* releases it if we got it */
	return held;
}

/*
 * Connect to the device's server, starting one when there is none.
 * The path names either nothing or a listening socket (the server binds
 * under a temporary name and renames it into place, under its lock
 * file), so ENOENT means "no server" and ECONNREFUSED a dead one's
 * socket. While the socket is missing a server is started again, a
 * second after the last one, when no server holds the lock: one that was
 * just exiting for idleness still held it, so the first one started may
 * have given up (a server that is still starting holds it: none is
 * started beside it). A connection the server never answers (it closed
 * its socket to exit) is retried the same way. With start 0, only an
 * existing server is joined. 0 or -1 (after 10 s).
 */
static int server_connect(const char *dev, const char *path,
			  struct fs_hello *hello, int data, int start)
{
	uint64_t t0 = mono_ms(), spawned = 0;
	int verbose = secure_getenv("LIBV4L2_FRAMESERVER_VERBOSE") != NULL;

	for (;;) {
		int s = connect_to(path), e = errno;
		struct timespec ts = { 0, 5 * 1000 * 1000 };
		uint64_t now;

		if (s >= 0) {
			int r = hello_exchange(s, hello, data);

			if (r == 0)
				return s;
			close(s);
			if (r == -2) {
				errno = EPROTO;
				return -1;
			}
			e = ECONNRESET;
		} else if (e != ENOENT && e != ECONNREFUSED && e != EAGAIN) {
			return -1;
		}
		if (!start) {
			/* Joining only: no server, no sharing. */
			errno = e;
			return -1;
		}
		now = mono_ms();
		if (now - t0 >= 10000) {
			errno = ETIMEDOUT;
			return -1;
		}
		if (!spawned || (now - spawned >= 1000 && !lock_held(path))) {
			if (verbose)
				fprintf(stderr, "libv4l2 share[%d]: %.3f connect "
					"%s: %s: starting a server\n",
					(int)getpid(), now / 1e3, path,
					strerror(e));
			spawn_server(dev);
			spawned = mono_ms();
			continue;
		}
		nanosleep(&ts, NULL);
	}
}

/*
 * The frame socket: a SEQPACKET pair, one end for the application's fd,
 * the other (peer) for the server, which sends FS_FRAME on it. Our end is
 * made unwritable (a tiny send buffer filled with bytes the server never
 * reads), so poll() reports POLLIN only, as a capture device does; and as
 * those bytes stay unread in the server's end, its closing (device gone,
 * server dead) sets ECONNRESET on ours: POLLERR | POLLHUP.
 */
static int frame_socket(int *peer)
{
	int sv[2], one = 1;
	char junk = 0;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return -1;
	setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &one, sizeof(one));
	for (int i = 0; i < 64; i++)
		if (send(sv[0], &junk, 1, MSG_DONTWAIT | MSG_NOSIGNAL) < 0)
			break;
	*peer = sv[1];
	return sv[0];
}

static void *share_init(int fd)
{
	char dev[300], key[80], path[200];
	struct fs_hello hello = { .h.type = FS_HELLO,
				  .version = FS_PROTO_VERSION };
	struct v4l2_capability cap;
	struct share *sh;
	int s = -1, fl, fdfl, mfd = -1, fsock, peer, mode = share_mode();
	uint32_t caps;

	if (!mode || device_of(fd, dev, sizeof(dev)) < 0)
		return NULL;
	if (fs_device_key(dev, key, sizeof(key)) < 0)
		return NULL;
	if (mode < 0) {
		/* Joining only: nothing is created; no directory, no
		 * server socket, no sharing. */
		char dir[200];
		struct stat st;
		int n;

		if (fs_socket_dir(dir, sizeof(dir), 0) < 0)
			return NULL;
		n = snprintf(path, sizeof(path), "%s/%s.sock", dir, key);
		if (n < 0 || (size_t)n >= sizeof(path) ||
		    lstat(path, &st) < 0 || !S_ISSOCK(st.st_mode))
			return NULL;
	} else if (fs_socket_path(key, path, sizeof(path)) < 0) {
		return NULL;
	}
	fsock = frame_socket(&peer);
	if (fsock < 0)
		return NULL;
	s = server_connect(dev, path, &hello, peer, mode > 0);
	close(peer);		/* the server has its own copy now */
	if (s < 0) {
		close(fsock);
		return NULL;
	}
	sh = calloc(1, sizeof(*sh));
	if (!sh) {
		close(s);
		close(fsock);
		return NULL;
	}
	sh->sock = s;
	sh->mfd = -1;
	snprintf(sh->dev, sizeof(sh->dev), "%s", dev);
	pthread_mutex_init(&sh->lock, NULL);
	memset(&cap, 0, sizeof(cap));
	if (fwd_ioctl(sh, VIDIOC_QUERYCAP, &cap) < 0)
		goto fail;
	caps = (cap.capabilities & V4L2_CAP_DEVICE_CAPS) ? cap.device_caps :
	       cap.capabilities;
	if (!(caps & V4L2_CAP_VIDEO_CAPTURE) || !(caps & V4L2_CAP_STREAMING))
		goto fail;

	/* Our buffers: a memfd, mapped through v4l2_mmap (lv2_share_mmap). */
	snprintf(path, sizeof(path), "libv4l-share:%s", key);
	mfd = memfd_create(path, MFD_CLOEXEC);
	if (mfd < 0)
		goto fail;
	/* The frame socket replaces the device on the application's fd
	 * number: poll() and select() on it see the frames arrive. */
	fl = fcntl(fd, F_GETFL);
	fdfl = fcntl(fd, F_GETFD);
	if (dup3(fsock, fd, (fdfl >= 0 && (fdfl & FD_CLOEXEC)) ?
		 O_CLOEXEC : 0) < 0)
		goto fail;
	close(fsock);
	fsock = -1;
	if (fl >= 0 && (fl & O_NONBLOCK))
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	sh->fd = fd;
	sh->mfd = mfd;
	return sh;
fail:
	if (mfd >= 0)
		close(mfd);
	if (fsock >= 0)
		close(fsock);
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
	if (sh->mfd >= 0)
		close(sh->mfd);
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

	/*
	 * MMAP: buffers in our memfd. USERPTR: the application's memory,
	 * DQBUF copies the frame there. DMABUF: EINVAL (a frame that went
	 * through the server is no device buffer to export or import).
	 */
	if (r->type != V4L2_BUF_TYPE_VIDEO_CAPTURE ||
	    (r->memory != V4L2_MEMORY_MMAP &&
	     r->memory != V4L2_MEMORY_USERPTR)) {
		errno = EINVAL;
		return -1;
	}
	if (sh->streaming) {
		errno = EBUSY;
		return -1;
	}
	memset(r->reserved, 0, sizeof(r->reserved));
	r->capabilities = V4L2_BUF_CAP_SUPPORTS_MMAP |
			  V4L2_BUF_CAP_SUPPORTS_USERPTR;
	sh->memory = r->memory;
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
	if (r->memory == V4L2_MEMORY_MMAP && need > sh->map_size) {
		void *m;

		if (ftruncate(sh->mfd, (off_t)need) < 0)
			return -1;
		m = mmap(NULL, need, PROT_READ | PROT_WRITE, MAP_SHARED,
			 sh->mfd, 0);
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
		b->memory = r->memory;
		if (r->memory == V4L2_MEMORY_MMAP)
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
	    b->memory != sh->memory || b->index >= sh->nbufs) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

/*
 * Take what has arrived: frames from the frame socket (into sh->pending,
 * the newest wins), then events and the end of the stream from the
 * request socket (no request is in flight here). The server closing the
 * frame socket ends the stream: it sent FS_END (with ENODEV) first when
 * the device went away; otherwise it died (EIO). Lock held.
 */
static void drain(struct share *sh)
{
	union { struct fs_hdr h; struct fs_frame f; } m;
	int data_end = 0, fd;
	ssize_t n;

	for (;;) {
		n = fs_recv(sh->fd, &m, sizeof(m), &fd, MSG_DONTWAIT);
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			break;
		if (n < (ssize_t)sizeof(m.h)) {
			if (fd >= 0)
				close(fd);
			data_end = n <= 0;
			break;
		}
		on_async(sh, &m, n, fd);
	}
	while ((n = recv_one(sh, &m, sizeof(m), 0)) > 0)
		on_async(sh, &m, n, (int)m.h.pad);
	if (data_end && !sh->ended) {
		sh->ended = 1;
		sh->end_err = EIO;
	}
}

static void stream_stop(struct share *sh)
{
	sh->streaming = 0;
	drain(sh);		/* frames still on their way: released */
	if (sh->have_pending)
		release(sh, &sh->pending);
	sh->have_pending = 0;
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
	for (;;) {
		struct pollfd p[2] = {
			{ .fd = sh->fd, .events = POLLIN },
			{ .fd = sh->sock, .events = POLLIN },
		};
		int r;

		drain(sh);
		if (sh->ended) {
			errno = sh->end_err ? sh->end_err : EIO;
			return -1;
		}
		if (sh->have_pending)
			return 0;
		if (nonblocking(sh)) {
			errno = EAGAIN;
			return -1;
		}
		pthread_mutex_unlock(&sh->lock);
		r = poll(p, 2, 1000);
		pthread_mutex_lock(&sh->lock);
		if (r < 0 && errno == EINTR) {
			/* As a driver's blocking DQBUF: a signal
			 * interrupts the wait. */
			return -1;
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
	    b->memory != sh->memory || !sh->streaming) {
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
		n = sh->memory == V4L2_MEMORY_USERPTR ?
		    fs_scale_frame(src, &sh->pending.pix,
				   sh->pending.bytesused,
				   (uint8_t *)info->m.userptr, &sh->fmt,
				   info->length) :
		    fs_scale_frame(src, &sh->pending.pix,
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
		if (sh->memory == V4L2_MEMORY_USERPTR) {
			/* As vb2: the memory must hold a whole frame. */
			if (!b->m.userptr || b->length < sh->fmt.sizeimage) {
				errno = EINVAL;
				return -1;
			}
			sh->info[b->index].m.userptr = b->m.userptr;
			sh->info[b->index].length = b->length;
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
int lv2_share_device(void *priv, char *buf, size_t size)
{
	const struct share *sh = priv;

	if (!sh || strlen(sh->dev) >= size)
		return -1;
	strcpy(buf, sh->dev);
	return 0;
}

/*
 * mmap of this client's buffers (m.offset from QUERYBUF): the application's
 * fd is the frame socket, which cannot be mapped, so libv4l2's v4l2_mmap
 * (and its own mapping of the "driver" buffers) comes here for a shared
 * device.
 */
void *lv2_share_mmap(void *priv, void *start, size_t length, int prot,
		      int flags, int64_t offset)
{
	struct share *sh = priv;
	void *p = MAP_FAILED;

	if (!sh) {
		errno = ENODEV;
		return MAP_FAILED;
	}
	pthread_mutex_lock(&sh->lock);
	if (offset < 0 || length == 0 || (uint64_t)offset > sh->map_size ||
	    length > sh->map_size - (uint64_t)offset)
		errno = EINVAL;
	else
		p = mmap(start, length, prot, flags, sh->mfd, (off_t)offset);
	pthread_mutex_unlock(&sh->lock);
	return p;
}

const struct libv4l_dev_ops lv2_share_ops = {
	.init = share_init,
	.close = share_close,
	.ioctl = share_ioctl,
	.read = share_read,
	.write = share_write,
};
