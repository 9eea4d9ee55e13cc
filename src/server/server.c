/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * v4l2-frameserver: shares one V4L2 capture device among the programs of
 * one user. One server per device; started on demand by libv4l2's share
 * backend (src/v4l2/share/client.c) or by systemd socket activation; exits
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
 * sent to the other clients as FS_CTRL_EVENT, coalesced per control while
 * a client's socket has no room for it (server_events.c): a reply always
 * has room.
 * One server per device: the lock file <key>.lock is taken first; the
 * socket is published (renamed into place) only once it listens, and
 * unpublished, with the lock released, before the idle exit tears down
 * (client.c retries a connection that was reset meanwhile). When the
 * device goes away (ENODEV) every client gets FS_END and its frame socket
 * closed, and the socket is unpublished at once; but the clients that
 * asked to be carried across a replug wait for the camera to come back
 * (server_replug.c), and the socket stays while they wait.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <limits.h>
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

#include "server.h"
#include "v4l2/private_api.h"

struct server srv = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.cond = PTHREAD_COND_INITIALIZER,
	.dev = -1,
};

uint64_t srv_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void srv_log(const char *what, const char *arg)
{
	if (srv.verbose)
		fprintf(stderr, "v4l2-frameserver[%d]: %.3f %s %s\n",
			(int)getpid(), srv_now_ns() / 1e9, what,
			arg ? arg : "");
}

int srv_open_device(const char *dev)
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
	if (v4l2_fd_open(fd, V4L2_DISABLE_CONVERSION | LV2_OPEN_DIRECT) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Which camera this is, to know it again after a replug (server_ident.c);
 * a virtual camera is known by its name. */
static void remember_camera(const char *dev)
{
	char path[PATH_MAX];
	const char *name;

	srv.device = dev;
	if (!strncmp(dev, "libv4l-vcam", 11) || !realpath(dev, path))
		return;
	name = strrchr(path, '/');
	if (name && srv_ident_of(name + 1, &srv.ident) == 0)
		srv_log("camera known by its sysfs node", name + 1);
}

static uint32_t choose_share_fmt(void)
{
	static const uint32_t pref[] = {
		V4L2_PIX_FMT_YUYV,  V4L2_PIX_FMT_UYVY,  V4L2_PIX_FMT_YVYU,
		V4L2_PIX_FMT_VYUY,  V4L2_PIX_FMT_NV12,  V4L2_PIX_FMT_YUV420,
		V4L2_PIX_FMT_RGB24, V4L2_PIX_FMT_BGR24, V4L2_PIX_FMT_GREY,
		V4L2_PIX_FMT_MJPEG,
	};
	const char *env = getenv("LIBV4L2_FRAMESERVER_FORMAT");
	uint32_t have[SRV_MAX_FORMATS], want = 0;
	unsigned n = 0;

	if (env && strlen(env) == 4)
		want = v4l2_fourcc(env[0], env[1], env[2], env[3]);
	for (; n < SRV_MAX_FORMATS; n++) {
		struct v4l2_fmtdesc d = {
			.index = n,
			.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		};

		if (v4l2_ioctl(srv.dev, VIDIOC_ENUM_FMT, &d) < 0)
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
		srv.activated = 1;
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
	unlink(tmp); /* left by a crashed server of our pid */
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

static void usage(void)
{
	fprintf(stderr, "usage: v4l2-frameserver --device DEV [--idle-ms N] "
			"[--seal future|write] [--verbose]\n");
	exit(2);
}

struct options {
	const char *device;
	int idle_ms; /* < 0: never exit for idleness */
};

static void parse_options(int argc, char **argv, struct options *o)
{
	const char *env = getenv("LIBV4L2_FRAMESERVER_IDLE_MS");

	o->device = NULL;
	o->idle_ms = env ? atoi(env) : 3000;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--device") && i + 1 < argc)
			o->device = argv[++i];
		else if (!strcmp(argv[i], "--idle-ms") && i + 1 < argc)
			o->idle_ms = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--seal") && i + 1 < argc)
			srv.seal_write = !strcmp(argv[++i], "write");
		else if (!strcmp(argv[i], "--verbose"))
			srv.verbose = 1;
		else
			usage();
	}
	if (getenv("LIBV4L2_FRAMESERVER_VERBOSE"))
		srv.verbose = 1;
	if (!o->device)
		usage();
}

/* Where clients find this server, and the lock that makes it the one. */
struct listener {
	int sock; /* -1 once unpublished */
	int lockfd;
	char path[200], lockpath[220];
};

/* Stop being found: the next client starts (or finds) another server. */
static void unpublish(struct listener *l)
{
	/* systemd's socket stays: it starts us again. */
	if (l->sock < 0 || srv.activated)
		return;
	unlink(l->path);
	close(l->sock);
	l->sock = -1;
	close(l->lockfd);
}

/*
 * The lock file, the device and the listening socket. Returns -1 when the
 * server is ready to serve, else the exit status (0: another server owns
 * the device).
 */
static int start(const struct options *o, struct listener *l)
{
	char key[80];

	if (fs_device_key(o->device, key, sizeof(key)) < 0 ||
	    fs_socket_path(key, l->path, sizeof(l->path)) < 0) {
		fprintf(stderr,
			"v4l2-frameserver: no usable socket directory "
			"($XDG_RUNTIME_DIR/libv4l) or device %s\n",
			o->device);
		return 1;
	}
	snprintf(l->lockpath, sizeof(l->lockpath), "%.*s.lock",
		 (int)(strlen(l->path) - 5), l->path);
	l->lockfd = open(l->lockpath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW,
			 0600);
	if (l->lockfd < 0 || flock(l->lockfd, LOCK_EX | LOCK_NB) < 0) {
		srv_log("another server owns", l->lockpath);
		return 0;
	}
	for (int i = 0; i < MAX_CLIENTS; i++) {
		srv.clients[i].sock = -1;
		srv.clients[i].data = -1;
	}
	for (int i = 0; i < FS_MAX_SLOTS; i++)
		srv.slots[i].fd = -1;
	srv.dev = srv_open_device(o->device);
	if (srv.dev < 0) {
		fprintf(stderr, "v4l2-frameserver: %s: %s\n", o->device,
			strerror(errno));
		return 1;
	}
	remember_camera(o->device);
	srv.share_fmt = choose_share_fmt();
	srv.dec_fmt = srv_decoded_fmt_for(srv.share_fmt);
	l->sock = listen_socket(l->path);
	if (l->sock == -2) {
		srv_log("a live server already listens on", l->path);
		return 0;
	}
	if (l->sock < 0 || pipe2(srv.wake, O_CLOEXEC | O_NONBLOCK) < 0) {
		fprintf(stderr, "v4l2-frameserver: %s: %s\n", l->path,
			strerror(errno));
		return 1;
	}
	srv_log("listening on", l->path);
	return -1;
}

/*
 * The requests of the clients poll() found readable, then the clients
 * that left or died (also marked by the capture thread) are dropped
 * (lock held).
 */
static void serve_clients(const struct pollfd *p, const int *map, int n)
{
	for (int k = 0; k < n; k++) {
		struct client *c = &srv.clients[map[k]];

		if (!p[k].revents)
			continue;
		if (p[k].revents & POLLOUT)
			srv_events_flush(c);
		if (!(p[k].revents & ~POLLOUT))
			continue;
		if (srv_handle(c) < 0) {
			if (srv.verbose && !c->dead)
				fprintf(stderr,
					"v4l2-frameserver[%d]: client "
					"%d left (%llu frames sent, %llu "
					"dropped)\n",
					(int)getpid(), map[k],
					(unsigned long long)c->sent,
					(unsigned long long)c->dropped);
			c->dead = 1;
		}
	}
	for (int i = 0; i < MAX_CLIENTS; i++) {
		if (srv.clients[i].sock >= 0 && srv.clients[i].dead) {
			srv_client_drop(&srv.clients[i]);
			if (!srv_streaming_clients())
				srv_device_stop();
		}
	}
}

/*
 * Wait for a connection, a request or a dead client (the capture thread
 * writes to srv.wake), and serve them. Returns with srv.lock held, or
 * -1 (lock not held) when poll() fails.
 */
static int poll_once(struct listener *l)
{
	struct pollfd p[MAX_CLIENTS + 2] = {
		{ .fd = l->sock, .events = POLLIN },
		{ .fd = srv.wake[0], .events = POLLIN },
	};
	int map[MAX_CLIENTS + 2], n = 2, r;
	char buf[64];

	pthread_mutex_lock(&srv.lock);
	for (int i = 0; i < MAX_CLIENTS; i++) {
		if (srv.clients[i].sock < 0)
			continue;
		/* A busy client's next request waits for its last one's
		 * answer (server_calls.c), which wakes us. */
		p[n].fd = srv.clients[i].busy ? -1 : srv.clients[i].sock;
		/* Events waiting for room: told when there is. */
		p[n].events = POLLIN | (srv.clients[i].nevents ? POLLOUT : 0);
		map[n++] = i;
	}
	pthread_mutex_unlock(&srv.lock);
	r = poll(p, (nfds_t)n, 200);
	if (r < 0 && errno != EINTR)
		return -1;
	if (r <= 0) /* nothing readable: only the checks below */
		n = 2;
	pthread_mutex_lock(&srv.lock);
	if (r > 0 && (p[1].revents & POLLIN))
		while (read(srv.wake[0], buf, sizeof(buf)) > 0)
			;
	serve_clients(p + 2, map + 2, n - 2);
	srv_replug_tick();
	if (srv.gone) {
		/*
		 * The device is gone: unpublish (the next open starts a
		 * new server, which finds out for itself) and exit once
		 * the last client has left.
		 */
		if (l->sock >= 0 && !srv.activated)
			srv_log("device gone, unpublishing", l->path);
		unpublish(l);
	}
	if (r > 0 && l->sock >= 0 && (p[0].revents & POLLIN))
		srv_accept_client(l->sock);
	return 0;
}

/* Serve until the last client has been gone for idle_ms. */
static void serve(struct listener *l, int idle_ms)
{
	uint64_t idle_since = srv_now_ns();

	while (poll_once(l) == 0) {
		if (srv_nclients()) {
			idle_since = srv_now_ns();
		} else if (idle_ms >= 0 &&
			   srv_now_ns() - idle_since >=
				   (uint64_t)idle_ms * 1000000u) {
			/*
			 * Unpublish, stop listening and release the lock
			 * before the (slower) teardown: a client that
			 * connected after the last poll sees its connection
			 * reset and retries, and the server it starts can
			 * take the lock at once.
			 */
			unpublish(l);
			pthread_mutex_unlock(&srv.lock);
			return;
		}
		pthread_mutex_unlock(&srv.lock);
	}
}

int main(int argc, char **argv)
{
	struct listener l = { .sock = -1, .lockfd = -1 };
	struct options o;
	pthread_t th;
	int status;

	signal(SIGPIPE, SIG_IGN);
	parse_options(argc, argv, &o);
	status = start(&o, &l);
	if (status >= 0)
		return status;
	pthread_create(&th, NULL, srv_capture_thread, NULL);
	if (srv_calls_start() < 0)
		srv_log("no call thread: device calls made in turn", NULL);
	serve(&l, o.idle_ms);
	srv_calls_stop();

	pthread_mutex_lock(&srv.lock);
	srv_device_stop();
	srv.quit = 1;
	pthread_cond_broadcast(&srv.cond);
	pthread_mutex_unlock(&srv.lock);
	pthread_join(th, NULL);
	if (l.sock >= 0)
		close(l.sock);
	if (srv.verbose)
		fprintf(stderr,
			"v4l2-frameserver: idle, exiting (%llu frames, "
			"%.1f us copy+seal per frame)\n",
			(unsigned long long)srv.frames,
			srv.frames ? srv.copy_ns / 1e3 / (double)srv.frames
				   : 0.0);
	srv_decode_done();
	if (srv.dev >= 0)
		v4l2_close(srv.dev);
	return 0;
}
