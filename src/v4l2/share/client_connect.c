/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Finding the device's server: its socket ($XDG_RUNTIME_DIR/libv4l, see
 * proto.h), started on demand as a detached process, and the HELLO that
 * hands it our frame socket.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "client.h"

#ifndef LV2_FRAMESERVER_PATH
#define LV2_FRAMESERVER_PATH "/usr/bin/v4l2-frameserver"
#endif

extern char **environ;

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

/* HELLO on a fresh connection: 0, or -1 when the server did not answer
 * (it was exiting: the connection was reset, or it is stuck), -2 for
 * another protocol version, -3 when it refused us: every client slot is
 * taken (its refusal may come before our HELLO could be sent). The
 * answer is waited for timeout_ms at most. */
static int hello_exchange(int s, struct fs_hello *hello, int data,
			  int timeout_ms)
{
	struct pollfd p = { .fd = s, .events = POLLIN };
	struct fs_hello r;
	ssize_t n;
	int fd;

	if (fs_send(s, hello, sizeof(*hello), data, 0) < 0 && errno != EPIPE &&
	    errno != ECONNRESET)
		return -1;
	if (poll(&p, 1, timeout_ms) <= 0)
		return -1;
	n = fs_recv(s, &r, sizeof(r), &fd, MSG_DONTWAIT);
	if (fd >= 0)
		close(fd);
	if (n == (ssize_t)sizeof(r) && r.h.type == FS_HELLO && r.h.ret &&
	    r.h.err == EUSERS)
		return -3; /* every client slot taken: not retried */
	if (n != (ssize_t)sizeof(r) || r.h.type != FS_HELLO || r.h.ret)
		return -1;
	if (r.version != FS_PROTO_VERSION)
		return -2; /* another version's server: not retried */
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
	close(fd); /* releases it if we got it */
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
 * existing server is joined. A server that accepts nothing (stopped,
 * its backlog full) is waited for until the same deadline: 10 s when
 * starting one, 5 s when joining (LIBV4L2_SHARE_TIMEOUT_MS may say
 * less). The socket, or -1 with errno.
 */
static int server_connect(const char *dev, const char *path,
			  struct fs_hello *hello, int data, int start)
{
	uint64_t t0 = share_mono_ms(), spawned = 0;
	uint64_t limit = (uint64_t)share_timeout_ms(start ? 10000 : 5000);
	int verbose = secure_getenv("LIBV4L2_FRAMESERVER_VERBOSE") != NULL;

	for (;;) {
		uint64_t now = share_mono_ms();
		int left = now - t0 < limit ? (int)(limit - (now - t0)) : 0;
		int s = fs_connect(path, left), e = errno;
		struct timespec ts = { 0, 5 * 1000 * 1000 };

		if (s >= 0) {
			/* Its answer: 5 s at most, within the deadline. */
			int wait =
				share_timeout_ms(left < 5000 ? left + 1 : 5000);
			int r = hello_exchange(s, hello, data, wait);

			if (r == 0)
				return s;
			close(s);
			if (r == -2) {
				errno = EPROTO;
				return -1;
			}
			if (r == -3) {
				fprintf(stderr,
					"libv4l2: the frame server of %s "
					"serves its maximum of clients; this "
					"program uses the device directly\n",
					dev);
				errno = EUSERS;
				return -1;
			}
			e = ECONNRESET;
		} else if (e == ETIMEDOUT) {
			fprintf(stderr,
				"libv4l2: the frame server of %s accepts no "
				"connection (stopped?); this program uses the "
				"device directly\n",
				dev);
			errno = ETIMEDOUT;
			return -1;
		} else if (e != ENOENT && e != ECONNREFUSED && e != EAGAIN) {
			return -1;
		}
		if (!start) {
			/* Joining only: no server, no sharing. */
			errno = e;
			return -1;
		}
		now = share_mono_ms();
		if (now - t0 >= limit) {
			errno = ETIMEDOUT;
			return -1;
		}
		if (!spawned || (now - spawned >= 1000 && !lock_held(path))) {
			if (verbose)
				fprintf(stderr,
					"libv4l2 share[%d]: %.3f connect "
					"%s: %s: starting a server\n",
					(int)getpid(), now / 1e3, path,
					strerror(e));
			spawn_server(dev);
			spawned = share_mono_ms();
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

/*
 * The server of the device on fd, when it is to be shared: joined, or
 * started first with LIBV4L2_SHARE=1 (share_mode) unless its start timed
 * out lately (client_backoff.c). Returns the request
 * socket and our end of the frame socket in *fsock, or -1.
 */
int share_connect(int fd, char *dev, size_t dev_size, char *key,
		  size_t key_size, int *fsock)
{
	struct fs_hello hello = { .h.type = FS_HELLO,
				  .version = FS_PROTO_VERSION };
	char path[200];
	int s, peer, mode = share_mode();

	if (!mode || device_of(fd, dev, dev_size) < 0)
		return -1;
	if (fs_device_key(dev, key, key_size) < 0)
		return -1;
	if (mode > 0 && share_start_failed_lately(key))
		mode = -1;
	if (mode < 0) {
		/* Joining only: nothing is created; no directory, no
		 * server socket, no sharing. */
		char dir[200];
		struct stat st;
		int n;

		if (fs_socket_dir(dir, sizeof(dir), 0) < 0)
			return -1;
		n = snprintf(path, sizeof(path), "%s/%s.sock", dir, key);
		if (n < 0 || (size_t)n >= sizeof(path) ||
		    lstat(path, &st) < 0 || !S_ISSOCK(st.st_mode))
			return -1;
	} else if (fs_socket_path(key, path, sizeof(path)) < 0) {
		return -1;
	}
	*fsock = frame_socket(&peer);
	if (*fsock < 0)
		return -1;
	s = server_connect(dev, path, &hello, peer, mode > 0);
	close(peer); /* the server has its own copy now */
	if (s < 0 && mode > 0 && errno == ETIMEDOUT)
		share_note_failed_start(key);
	if (s < 0) {
		close(*fsock);
		return -1;
	}
	return s;
}
