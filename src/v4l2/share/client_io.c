/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The two sockets: requests and their replies on the request socket, one
 * at a time, with control events and the end of the stream in between;
 * frames on the frame socket, each naming a slot of the server's (its
 * memfd passed the first time), released once copied out.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "client.h"
#include "protocol/wire.h"

#ifndef F_SEAL_FUTURE_WRITE
#define F_SEAL_FUTURE_WRITE 0x0010 /* Linux 5.1; older headers lack it */
#endif

uint64_t share_mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/*
 * The longest libv4l2 waits for its server at one step: dflt, or less
 * when LIBV4L2_SHARE_TIMEOUT_MS asks for less (tests set it low to see a
 * server that never answers in a fraction of a second).
 */
int share_timeout_ms(int dflt)
{
	const char *v = secure_getenv("LIBV4L2_SHARE_TIMEOUT_MS");
	char *end;
	long ms;

	if (!v || !*v)
		return dflt;
	ms = strtol(v, &end, 10);
	if (*end || ms <= 0 || ms >= dflt)
		return dflt;
	return (int)ms;
}

/*
 * Whether the memfd of a slot can be mapped and read for as long as we
 * map it: at least size bytes, and sealed so that nobody can shrink it
 * (reading a page past its end is SIGBUS) nor write it (a frame read
 * while it changes). The server seals every slot (server_slots.c:
 * F_SEAL_FUTURE_WRITE, or F_SEAL_WRITE with --seal write).
 */
static int slot_fd_ok(int fd, uint64_t size)
{
	struct stat st;
	int seals = fcntl(fd, F_GET_SEALS);

	if (seals < 0 || !(seals & F_SEAL_SHRINK) ||
	    !(seals & (F_SEAL_WRITE | F_SEAL_FUTURE_WRITE)))
		return 0;
	return size > 0 && size <= SIZE_MAX && fstat(fd, &st) == 0 &&
	       st.st_size >= 0 && (uint64_t)st.st_size >= size;
}

/* A new memfd for slot f->slot: mapped in place of the old one, or 0
 * (refused, the slot then unmapped: its old frames are gone anyway). */
static int slot_map(struct share *sh, const struct fs_frame *f, int fd)
{
	void *m = MAP_FAILED;

	if (slot_fd_ok(fd, f->map_size))
		m = mmap(NULL, (size_t)f->map_size, PROT_READ, MAP_SHARED, fd,
			 0);
	close(fd);
	share_slot_unmap(sh, f->slot);
	if (m == MAP_FAILED)
		return 0;
	sh->slot[f->slot].map = m;
	sh->slot[f->slot].size = (size_t)f->map_size;
	sh->slot[f->slot].gen = f->gen;
	return 1;
}

void share_slot_unmap(struct share *sh, unsigned i)
{
	if (sh->slot[i].map)
		munmap((void *)sh->slot[i].map, sh->slot[i].size);
	sh->slot[i].map = NULL;
	sh->slot[i].gen = 0;
}

void share_release(struct share *sh, const struct fs_frame *f)
{
	struct fs_release r = {
		.h.type = FS_RELEASE,
		.slot = f->slot,
		.gen = f->gen,
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
		if (fd >= 0 && sh->leased && f->slot == sh->lease.slot) {
			/* A slot we still convert from is not the server's
			 * to reuse: this frame is refused, the mapping kept. */
			close(fd);
			share_release(sh, f);
			return;
		}
		if (fd >= 0 && !slot_map(sh, f, fd)) {
			/* A slot we cannot read safely: its frame is given
			 * back unread, never taken. */
			share_release(sh, f);
			return;
		}
		if (!sh->streaming) {
			share_release(sh, f);
			return;
		}
		if (sh->have_pending)
			share_release(sh, &sh->pending); /* newest wins */
		sh->pending = *f;
		sh->have_pending = 1;
		return;
	}
	if (fd >= 0)
		close(fd);
	if (h->type == FS_END) {
		sh->ended = 1;
		sh->end_err = h->err ? h->err : ENODEV;
		/* The program's fd reports the end (POLLHUP) from now on,
		 * not only once the server has closed its side: a program
		 * told ENODEV may poll at once. */
		shutdown(sh->fd, SHUT_RDWR);
	}
	/* FS_CTRL_EVENT: the next G_CTRL reads the new value anyway. */
}

/* Receive one message (blocking or not); 1 if async handled, 0 no data. */
static ssize_t recv_one(struct share *sh, void *buf, size_t size, int block)
{
	int fd;
	ssize_t n = fs_recv(sh->sock, buf, size, &fd, block ? 0 : MSG_DONTWAIT);

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
	((struct fs_hdr *)buf)->pad = (uint32_t)fd; /* for the caller */
	return n;
}

/* The request socket is still connected (the server may have ended the
 * stream, ENODEV, and still answer requests). */
static int live(struct share *sh)
{
	struct pollfd p = { .fd = sh->sock, .events = POLLIN };

	return !(poll(&p, 1, 0) == 1 && (p.revents & (POLLHUP | POLLERR)));
}

int share_request(struct share *sh, void *msg, size_t len, size_t rlen)
{
	uint32_t type = ((struct fs_hdr *)msg)->type;
	union {
		struct fs_hdr h;
		struct fs_frame f;
		struct fs_ioctl io;
		struct fs_setfmt s;
	} r;
	uint64_t deadline;

	if (sh->ended && !live(sh)) {
		errno = EIO;
		return -1;
	}
	if (fs_send(sh->sock, msg, len, -1, 0) < 0)
		return -1;
	/* A server that stops answering is an error, not a hang: one
	 * deadline for the reply, which the events and frames arriving
	 * meanwhile do not move. */
	deadline = share_mono_ms() + (uint64_t)share_timeout_ms(15000);
	for (;;) {
		struct pollfd p = { .fd = sh->sock, .events = POLLIN };
		uint64_t now = share_mono_ms();
		ssize_t n;
		int fd, ready = 0;

		if (now < deadline)
			ready = poll(&p, 1, (int)(deadline - now));
		if (ready < 0 && errno == EINTR)
			continue;
		if (ready == 0) {
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

int share_fwd_ioctl(struct share *sh, unsigned long req, void *arg)
{
	struct fs_ioctl m;
	uint32_t code = fs_wire_code(req);
	int r, e;

	if (!code) {
		errno = ENOTTY;
		return -1;
	}
	memset(&m, 0, sizeof(m));
	m.h.type = FS_IOCTL;
	m.req = code;
	m.size = (uint32_t)fs_wire_size(code);
	if (fs_wire_pack(code, arg, m.arg) < 0)
		return -1;
	r = share_request(sh, &m, sizeof(m), sizeof(m));
	e = errno;
	/* A failed request's argument comes back too (error_idx...), unless
	 * no reply came. */
	if (r < 0 && (e == EIO || e == EPROTO || e == ETIMEDOUT))
		return -1;
	if (fs_wire_unpack(code, m.arg, arg) < 0) {
		errno = EPROTO;
		return -1;
	}
	errno = e;
	return r;
}

int share_simple(struct share *sh, uint32_t type)
{
	struct fs_hdr h = { .type = type };

	return share_request(sh, &h, sizeof(h), sizeof(h));
}

/*
 * Take what has arrived: frames from the frame socket (into sh->pending,
 * the newest wins), then events and the end of the stream from the
 * request socket (no request is in flight here). The server closing the
 * frame socket ends the stream: it sent FS_END (with ENODEV) first when
 * the device went away; otherwise it died (EIO). Lock held.
 */
void share_drain(struct share *sh)
{
	union {
		struct fs_hdr h;
		struct fs_frame f;
	} m;
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
