/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A frame server client that speaks the protocol by hand (rawclient.h). */
#include "rawclient.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../common/check.h"
#include "protocol/proto.h"

int rawclient_open(const char *name, int *frames)
{
	char key[80], path[200];
	struct fs_hello h = { .h.type = FS_HELLO, .version = FS_PROTO_VERSION };
	struct pollfd p;
	int sv[2], s, fd = -1;

	if (fs_device_key(name, key, sizeof(key)) < 0 ||
	    fs_socket_path(key, path, sizeof(path)) < 0 ||
	    socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return -1;
	s = fs_connect(path, 10000);
	CHECK(s >= 0, "connecting to %s: %s", path, strerror(errno));
	if (s < 0 || fs_send(s, &h, sizeof(h), sv[1], 0) < 0)
		return -1;
	close(sv[1]);
	*frames = sv[0];
	p = (struct pollfd){ .fd = s, .events = POLLIN };
	CHECK(poll(&p, 1, 60000) == 1 &&
		      fs_recv(s, &h, sizeof(h), &fd, 0) == (ssize_t)sizeof(h) &&
		      h.h.type == FS_HELLO && h.h.ret == 0,
	      "the raw client's HELLO");
	if (fd >= 0)
		close(fd);
	return s;
}
