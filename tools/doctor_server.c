/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Is a frame server (v4l2-frameserver) serving the device, and who is
 * connected? Its socket is where libv4l2's share backend looks
 * ($XDG_RUNTIME_DIR/libv4l/<key>.sock, src/protocol/proto.h); the doctor
 * asks it FS_CLIENTS without saying FS_HELLO, so it is not counted.
 * A server that accepts nothing (stopped, wedged: its backlog full) is
 * reported as such after 2 s, never waited for.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "doctor.h"

void doc_server_ask(const char *name, struct doc_server *srv)
{
	char key[80], dir[160], path[256];
	struct fs_hdr req = { .type = FS_CLIENTS };
	ssize_t n;
	int s, fd = -1;

	memset(srv, 0, sizeof(*srv));
	/* Looking only: the socket directory is not created. */
	if (fs_device_key(name, key, sizeof(key)) < 0 ||
	    fs_socket_dir(dir, sizeof(dir), 0) < 0)
		return;
	snprintf(path, sizeof(path), "%s/%s.sock", dir, key);
	snprintf(srv->socket, sizeof(srv->socket), "%s", path);
	s = fs_connect(path, 2000);
	if (s < 0) {
		if (errno == ETIMEDOUT)
			srv->state = -2;
		return;
	}
	srv->state = -1;
	/* A server too old for FS_CLIENTS hangs up: "runs, no list". */
	if (fs_send(s, &req, sizeof(req), -1, 0) == 0) {
		struct timeval tv = { .tv_sec = 2 };

		setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		n = fs_recv(s, &srv->who, sizeof(srv->who), &fd, 0);
		if (fd >= 0)
			close(fd);
		if (n == (ssize_t)sizeof(srv->who) &&
		    srv->who.h.type == FS_CLIENTS)
			srv->state = 1;
	}
	close(s);
}
