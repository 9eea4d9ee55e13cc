/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Client connections, and the frame slots each one holds. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "server.h"

/* Clients whose process is gone but whose hangup was not served yet. */
static void drop_hung_up(void)
{
	for (int i = 0; i < MAX_CLIENTS; i++) {
		struct pollfd p = { .fd = srv.clients[i].sock };

		if (p.fd >= 0 && poll(&p, 1, 0) == 1 &&
		    (p.revents & (POLLHUP | POLLERR)))
			srv.clients[i].dead = 1;
		if (p.fd >= 0 && srv.clients[i].dead)
			srv_client_drop(&srv.clients[i]);
	}
}

/*
 * Every client slot taken: the newcomer is told so (a HELLO reply with
 * EUSERS, which its libv4l2 reports) rather than seeing its connection
 * reset, which it would take for a server exiting and retry for seconds.
 */
static void refuse_full(int s)
{
	struct fs_hello r = {
		.h = { .type = FS_HELLO, .ret = -1, .err = EUSERS },
		.version = FS_PROTO_VERSION,
		.pid = (uint32_t)getpid(),
	};

	srv_log("refused a connection: every client slot is taken", NULL);
	fs_send(s, &r, sizeof(r), -1, MSG_DONTWAIT);
	close(s);
}

void srv_accept_client(int ls)
{
	int s = accept4(ls, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
	int sz = 1 << 16;
	struct ucred cred = { .pid = 0 };
	socklen_t len = sizeof(cred);

	if (s < 0)
		return;
	if (fs_check_peer(s) < 0) {
		srv_log("refused a connection from another user", NULL);
		close(s);
		return;
	}
	setsockopt(s, SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
	getsockopt(s, SOL_SOCKET, SO_PEERCRED, &cred, &len);
	if (srv_nclients() == MAX_CLIENTS)
		drop_hung_up();
	for (int i = 0; i < MAX_CLIENTS; i++) {
		if (srv.clients[i].sock < 0) {
			if (srv.verbose)
				fprintf(stderr,
					"v4l2-frameserver[%d]: client "
					"%d connected\n",
					(int)getpid(), i);
			memset(&srv.clients[i], 0, sizeof(srv.clients[i]));
			srv.clients[i].sock = s;
			srv.clients[i].data = -1;
			srv.clients[i].pid = cred.pid;
			return;
		}
	}
	refuse_full(s);
}

void srv_client_release(struct client *c, uint32_t slot)
{
	if (slot >= FS_MAX_SLOTS || !c->held[slot])
		return;
	c->held[slot]--;
	c->inflight--;
	srv.slots[slot].refs--;
}

void srv_client_drop(struct client *c)
{
	if (c->busy) {
		/* The call thread answers it first, then wakes main. */
		c->dead = 1;
		return;
	}
	for (unsigned i = 0; i < FS_MAX_SLOTS; i++)
		while (c->held[i])
			srv_client_release(c, i);
	close(c->sock);
	if (c->data >= 0)
		close(c->data);
	memset(c, 0, sizeof(*c));
	c->sock = -1;
	c->data = -1;
}

int srv_streaming_clients(void)
{
	int n = 0;

	for (int i = 0; i < MAX_CLIENTS; i++)
		n += srv.clients[i].sock >= 0 && srv.clients[i].streaming;
	return n;
}

int srv_nclients(void)
{
	int n = 0;

	for (int i = 0; i < MAX_CLIENTS; i++)
		n += srv.clients[i].sock >= 0;
	return n;
}

void srv_list_clients(const struct client *asker, struct fs_clients *m)
{
	memset(m, 0, sizeof(*m));
	m->h.type = FS_CLIENTS;
	for (int i = 0; i < MAX_CLIENTS; i++) {
		const struct client *c = &srv.clients[i];

		if (c->sock < 0 || c->dead || c == asker)
			continue;
		if (m->count < FS_CLIENTS_MAX) {
			m->pid[m->count] = (uint32_t)c->pid;
			m->streaming[m->count] = !!c->streaming;
		}
		m->count++;
	}
	m->running = !!srv.running;
	m->cur = srv.cur;
}
