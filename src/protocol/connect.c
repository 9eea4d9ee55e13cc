/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Connecting to a server's socket without waiting for ever. A server that
 * is stopped (SIGSTOP) or wedged accepts nothing; once its listen backlog
 * is full, a blocking connect() on a Unix socket sleeps until it accepts,
 * which it never does: every program opening the camera would hang. A
 * non-blocking connect() fails with EAGAIN instead, retried here until a
 * deadline.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "proto.h"

static long long mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* connect() on non-blocking s until it is done, refused, or the deadline
 * (monotonic ms) passes: 0 or -1 with errno (ETIMEDOUT). */
static int connect_until(int s, const struct sockaddr_un *a, long long end)
{
	for (;;) {
		struct timespec nap = { 0, 5 * 1000 * 1000 };
		struct pollfd p = { .fd = s, .events = POLLOUT };
		long long now;

		if (connect(s, (const struct sockaddr *)a, sizeof(*a)) == 0)
			return 0;
		if (errno == EISCONN)
			return 0;
		if (errno != EAGAIN && errno != EINPROGRESS &&
		    errno != EALREADY && errno != EINTR)
			return -1;
		now = mono_ms();
		if (now >= end) {
			errno = ETIMEDOUT;
			return -1;
		}
		/* Unix sockets say EAGAIN (backlog full) and nothing to poll
		 * for: try again shortly. */
		if (errno == EAGAIN)
			nanosleep(&nap, NULL);
		else
			poll(&p, 1, (int)(end - now));
	}
}

int fs_connect(const char *path, int timeout_ms)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int s, e;

	if (strlen(path) >= sizeof(a.sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(a.sun_path, path);
	s = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (s < 0)
		return -1;
	if (connect_until(s, &a, mono_ms() + timeout_ms) < 0 ||
	    fcntl(s, F_SETFL, fcntl(s, F_GETFL) & ~O_NONBLOCK) < 0) {
		e = errno;
		close(s);
		errno = e;
		return -1;
	}
	return s;
}
