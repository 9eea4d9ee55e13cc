/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target: the frame server's request parser (srv_handle, in
 * process on the fake device of tests/server/fakesrv.h) fed random
 * messages on a client's request socket, as a client of the same user
 * (the only peer the server accepts) could send them: any type, length
 * and content, in any order (HELLO, forwarded ioctls, formats, stream on
 * and off, releases of slots it never held).
 *
 * Input: messages, each a 2-byte little-endian length (at most 1024)
 * and that many bytes. A dropped client (srv_handle -1) is connected
 * again for the rest. Checks: no sanitizer report; every reply is one of
 * the server's message types; the server's state stays consistent (no
 * client holds more frames than it may; no slot more references than
 * clients); no fd is left open after the run.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "server/server.h"
#include "../server/fakesrv.h"

static void drain(int s)
{
	uint8_t buf[2048];
	int fd;

	for (;;) {
		ssize_t n = fs_recv(s, buf, sizeof(buf), &fd, MSG_DONTWAIT);
		const struct fs_hdr *h = (const void *)buf;

		if (fd >= 0)
			close(fd);
		if (n < 0)
			return;
		if (n < (ssize_t)sizeof(*h) || h->type < FS_HELLO ||
		    h->type >= FS_TYPE_LIMIT)
			abort(); /* not a server message */
	}
}

static void check_state(void)
{
	for (int i = 0; i < MAX_CLIENTS; i++)
		if (srv.clients[i].inflight < 0 ||
		    srv.clients[i].inflight > FS_MAX_INFLIGHT)
			abort();
	for (int i = 0; i < FS_MAX_SLOTS; i++)
		if (srv.slots[i].refs < 0 || srv.slots[i].refs > MAX_CLIENTS)
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int s, nfd = fcntl(0, F_DUPFD, 0);

	close(nfd); /* the lowest free number: none may be left above */
	fakesrv_reset();
	s = fakesrv_connect();
	if (s < 0)
		return 0;
	while (size >= 2) {
		size_t len = (size_t)(data[0] | data[1] << 8) % 1025;

		data += 2;
		size -= 2;
		if (len > size)
			len = size;
		send(s, data, len, MSG_DONTWAIT | MSG_NOSIGNAL);
		data += len;
		size -= len;
		if (fakesrv_handle() < 0) {
			close(s);
			s = fakesrv_connect();
			if (s < 0)
				break;
		}
		drain(s);
		check_state();
	}
	if (s >= 0)
		close(s);
	fakesrv_reset();
	if (fcntl(0, F_DUPFD, 0) != nfd)
		abort(); /* an fd left open */
	close(nfd);
	return 0;
}
