/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Control events (FS_CTRL_EVENT): a control one client set, announced to
 * the others. A client's request socket is non-blocking, and a client
 * that reads nothing while another sets a control hundreds of times a
 * second (autofocus, auto gain) would see its socket filled with events,
 * and then its next reply lost or itself dropped. So the events a client
 * has not taken yet wait here, one per control (its last value), and go
 * out only while its socket is writable (poll's POLLOUT: a quarter of its
 * send buffer at most is queued), which leaves the rest to replies.
 */
#include <poll.h>
#include <string.h>
#include <sys/socket.h>

#include "server.h"

/* Room for the controls a client was not told about yet; beyond that
 * the oldest change is forgotten (the client's next G_CTRL reads the
 * value anyway: events only say that something changed). */
static void queue_event(struct client *c, uint32_t id, int32_t value)
{
	unsigned i;

	for (i = 0; i < c->nevents; i++)
		if (c->events[i].id == id)
			break;
	if (i == c->nevents) {
		if (c->nevents == SRV_MAX_EVENTS) {
			memmove(&c->events[0], &c->events[1],
				sizeof(c->events[0]) * (SRV_MAX_EVENTS - 1));
			i = SRV_MAX_EVENTS - 1;
		} else {
			c->nevents++;
		}
	}
	c->events[i].id = id;
	c->events[i].value = value;
}

void srv_events_flush(struct client *c)
{
	while (c->nevents) {
		struct pollfd p = { .fd = c->sock, .events = POLLOUT };
		struct fs_ctrl_event ev = {
			.h.type = FS_CTRL_EVENT,
			.id = c->events[0].id,
			.value = c->events[0].value,
		};

		if (poll(&p, 1, 0) != 1 || !(p.revents & POLLOUT) ||
		    fs_send(c->sock, &ev, sizeof(ev), -1, MSG_DONTWAIT) < 0)
			return; /* the main loop polls for POLLOUT */
		c->nevents--;
		memmove(&c->events[0], &c->events[1],
			sizeof(c->events[0]) * c->nevents);
	}
}

void srv_events_announce(const struct client *from, uint32_t id, int32_t value)
{
	for (int i = 0; i < MAX_CLIENTS; i++) {
		struct client *c = &srv.clients[i];

		if (c->sock < 0 || c == from || c->dead)
			continue;
		queue_event(c, id, value);
		srv_events_flush(c);
	}
}
