/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The requests that wait for the device (forwarded ioctls, a client's
 * format), served by a thread of their own, one at a time in the order
 * they came, with the lock dropped during the device's call. A USB camera
 * may take seconds over a control or a format; meanwhile the capture
 * thread hands out frames and the main loop answers what needs no device
 * call (stream on and off, frame releases, the shared format). A client
 * whose request is here is busy: its next one is read once this one is
 * answered, so that no client has more than one call waiting and every
 * other client's call waits for at most one of its own.
 */
#include <errno.h>
#include <unistd.h>

#include <libv4l2.h>

#include "server.h"

/* The busy clients, oldest first (srv.lock). */
static int queue[MAX_CLIENTS];
static unsigned head, len;
static pthread_t thread;
static int started, stopping;

int srv_dev_ioctl(unsigned long req, void *arg)
{
	int dev = srv.dev, r, e;

	if (dev < 0) {
		errno = ENODEV;
		return -1;
	}
	/* srv_calls_wait() keeps dev open until the request is answered. */
	pthread_mutex_unlock(&srv.lock);
	r = v4l2_ioctl(dev, req, arg);
	e = errno;
	pthread_mutex_lock(&srv.lock);
	errno = e;
	return r;
}

/* c's request answered: the main loop reads its next one (or drops it). */
static void call_done(struct client *c, int r)
{
	if (r < 0)
		c->dead = 1;
	c->busy = 0;
	srv.calls--;
	pthread_cond_broadcast(&srv.cond);
	if (srv.wake[1] >= 0 && write(srv.wake[1], "c", 1) < 0) {
		/* main looks on its next poll anyway */
	}
}

static void *call_thread(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&srv.lock);
	while (!stopping) {
		struct client *c;

		if (!len) {
			pthread_cond_wait(&srv.cond, &srv.lock);
			continue;
		}
		c = &srv.clients[queue[head]];
		head = (head + 1) % MAX_CLIENTS;
		len--;
		call_done(c, srv_serve_call(c));
	}
	pthread_mutex_unlock(&srv.lock);
	return NULL;
}

int srv_calls_start(void)
{
	if (pthread_create(&thread, NULL, call_thread, NULL) != 0)
		return -1;
	started = 1;
	return 0;
}

void srv_calls_stop(void)
{
	if (!started)
		return;
	pthread_mutex_lock(&srv.lock);
	srv_calls_wait();
	stopping = 1;
	pthread_cond_broadcast(&srv.cond);
	pthread_mutex_unlock(&srv.lock);
	pthread_join(thread, NULL);
	started = 0;
}

int srv_call_queue(struct client *c)
{
	if (!started) /* in-process tests: answered at once */
		return srv_serve_call(c);
	c->busy = 1;
	srv.calls++;
	queue[(head + len) % MAX_CLIENTS] = (int)(c - srv.clients);
	len++;
	pthread_cond_broadcast(&srv.cond);
	return 0;
}

void srv_calls_wait(void)
{
	while (srv.calls)
		pthread_cond_wait(&srv.cond, &srv.lock);
}
