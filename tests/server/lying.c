/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A lying server against libv4l2's share client (issue 28, defects 1 and
 * 2): every case runs in a child of its own, which must neither die (a
 * frame read past the end of a memfd is SIGBUS) nor hang (an alarm ends
 * it), and must get on with the next, honest frame:
 *   - a memfd shorter than the map_size announced;
 *   - an unsealed memfd, truncated once the client has it;
 *   - a memfd sealed against shrinking but writable;
 *   - slot indices out of range, with and without a memfd;
 *   - sizes that do not add up (bytesused past the memfd, a map_size of
 *     0 or of a terabyte, a frame larger than its bytes);
 *   - control events every 20 ms and never a reply: the request ends
 *     with ETIMEDOUT at its deadline (LIBV4L2_SHARE_TIMEOUT_MS), which the
 *     events do not move.
 * And the server's own slots are accepted: sealed against writing with
 * F_SEAL_WRITE (--seal write) or F_SEAL_FUTURE_WRITE (the default).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "scripted.h"
#include "../common/check.h"

#ifndef F_SEAL_FUTURE_WRITE
#define F_SEAL_FUTURE_WRITE 0x0010
#endif

#define W 64
#define H 64 /* YUYV: 8192 bytes, past a 4096-byte memfd */

static uint8_t buf[16384];

/* QBUF when no buffer is queued, then DQBUF (copying: view NULL, or in
 * the slot); DQBUF's result. */
static int take(struct share *sh, struct v4l2_buffer *b, const uint8_t **view)
{
	if (!sh->qlen)
		return scripted_dqbuf(sh, b, view);
	memset(b, 0, sizeof(*b));
	b->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	b->memory = V4L2_MEMORY_MMAP;
	return share_dqbuf(sh, b, view);
}

/* The frame just sent, in slot, is refused: given back unread, and
 * DQBUF finds no frame (the frame socket is non-blocking). Before, the
 * client read it: SIGBUS. */
static void check_refused(struct share *sh, unsigned slot, const char *what)
{
	struct v4l2_buffer b;
	const uint8_t *view = NULL;
	uint32_t gen;
	int r = take(sh, &b, &view);

	CHECK(r < 0 && errno == EAGAIN, "%s: a frame dequeued", what);
	if (view) /* taken in its slot: read it, as a program would */
		CHECK(view[sh->fmt.sizeimage - 1] != 1);
	CHECK(scripted_released(&gen) == (int)slot, "%s: not released", what);
}

/* An honest frame after the lie: dequeued whole (the client goes on). */
static void check_goes_on(struct share *sh, const struct v4l2_pix_format *p)
{
	struct v4l2_buffer b;
	uint32_t gen;

	memset(buf, 0, sizeof(buf));
	scripted_send_frame(5, 77, 9, p,
			    scripted_memfd(16384, 0x5a,
					   F_SEAL_SHRINK | F_SEAL_WRITE),
			    16384);
	CHECK(take(sh, &b, NULL) == 0 && b.sequence == 9 &&
		      !(b.flags & V4L2_BUF_FLAG_ERROR) && buf[0] == 0x5a &&
		      buf[p->sizeimage - 1] == 0x5a,
	      "the honest frame after the lie");
	while (scripted_released(&gen) >= 0 && gen != 77)
		; /* the lies released before it */
	CHECK(gen == 77, "the honest frame released");
}

static void short_memfd(struct share *sh, const struct v4l2_pix_format *p)
{
	scripted_send_frame(1, 1, 1, p,
			    scripted_memfd(4096, 1,
					   F_SEAL_SHRINK | F_SEAL_GROW |
						   F_SEAL_WRITE),
			    16384);
	check_refused(sh, 1, "a memfd shorter than announced");
}

static void truncated(struct share *sh, const struct v4l2_pix_format *p)
{
	int fd = scripted_memfd(16384, 1, 0), keep = dup(fd);

	scripted_send_frame(1, 1, 1, p, fd, 16384);
	share_drain(sh); /* the client has the memfd: now it shrinks */
	CHECK(ftruncate(keep, 0) == 0);
	close(keep);
	check_refused(sh, 1, "an unsealed memfd, truncated");
}

static void writable(struct share *sh, const struct v4l2_pix_format *p)
{
	scripted_send_frame(1, 1, 1, p,
			    scripted_memfd(16384, 1,
					   F_SEAL_SHRINK | F_SEAL_GROW),
			    16384);
	check_refused(sh, 1, "a memfd sealed against shrinking only");
}

/* The server's default slots: sealed with F_SEAL_FUTURE_WRITE. */
static void future_write(struct share *sh, const struct v4l2_pix_format *p)
{
	struct v4l2_buffer b;
	uint32_t gen;

	scripted_send_frame(2, 3, 4, p,
			    scripted_memfd(16384, 0x66,
					   F_SEAL_SHRINK | F_SEAL_GROW |
						   F_SEAL_FUTURE_WRITE),
			    16384);
	CHECK(take(sh, &b, NULL) == 0 && !(b.flags & V4L2_BUF_FLAG_ERROR) &&
		      buf[0] == 0x66,
	      "a slot sealed with F_SEAL_FUTURE_WRITE refused");
	CHECK(scripted_released(&gen) == 2 && gen == 3);
}

static void slot_out_of_range(struct share *sh, const struct v4l2_pix_format *p)
{
	struct v4l2_buffer b;

	scripted_send_frame(FS_MAX_SLOTS, 1, 1, p,
			    scripted_memfd(16384, 1,
					   F_SEAL_SHRINK | F_SEAL_WRITE),
			    16384);
	scripted_send_frame(0xffffffffu, 1, 1, p, -1, 16384);
	CHECK(take(sh, &b, NULL) < 0 && errno == EAGAIN,
	      "a frame in no slot dequeued");
}

/* A frame whose sizes do not add up: anything but a crash, and at most
 * what the memfd holds copied. */
static void lie_sizes(struct share *sh, const struct v4l2_pix_format *p,
		      uint32_t bytesused, uint64_t map_size, int fd,
		      const char *what)
{
	struct fs_frame f = { .h.type = FS_FRAME };
	struct v4l2_buffer b;
	uint32_t gen;

	f.slot = 1;
	f.gen = 1;
	f.bytesused = bytesused;
	f.has_fd = fd >= 0;
	f.map_size = map_size;
	f.pix = *p;
	CHECK(fs_send(scripted_frames, &f, sizeof(f), fd, 0) == 0);
	if (fd >= 0)
		close(fd);
	if (take(sh, &b, NULL) == 0)
		CHECK((b.flags & V4L2_BUF_FLAG_ERROR) || b.bytesused <= 4096,
		      "%s: %u bytes from nowhere", what, b.bytesused);
	while (scripted_released(&gen) >= 0)
		;
}

static void sizes(struct share *sh, const struct v4l2_pix_format *p)
{
	struct v4l2_pix_format big =
		scripted_layout(V4L2_PIX_FMT_YUYV, 640, 480);
	int seals = F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE;

	lie_sizes(sh, p, 100000, 4096, scripted_memfd(4096, 1, seals),
		  "bytesused past the memfd");
	lie_sizes(sh, p, p->sizeimage, 0, scripted_memfd(4096, 1, seals),
		  "a map_size of 0");
	lie_sizes(sh, p, p->sizeimage, 1ull << 40,
		  scripted_memfd(4096, 1, seals), "a terabyte's map_size");
	lie_sizes(sh, &big, 4096, 4096, scripted_memfd(4096, 1, seals),
		  "a 640x480 frame in 4096 bytes");
	lie_sizes(sh, p, p->sizeimage, 16384, -1, "a slot never sent");
}

static void *events_forever(void *arg)
{
	struct fs_ctrl_event ev = { .h.type = FS_CTRL_EVENT, .id = 1 };
	struct timespec nap = { 0, 20 * 1000 * 1000 };

	(void)arg;
	for (;;) {
		if (fs_send(scripted_requests, &ev, sizeof(ev), -1, 0) < 0)
			return NULL;
		ev.value++;
		nanosleep(&nap, NULL);
	}
}

/* Events, and never a reply: STREAMON ends with ETIMEDOUT. */
static void no_reply(struct share *sh, const struct v4l2_pix_format *p)
{
	pthread_t t;
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE, r;

	(void)p;
	setenv("LIBV4L2_SHARE_TIMEOUT_MS", "300", 1);
	sh->streaming = 0;
	CHECK(pthread_create(&t, NULL, events_forever, NULL) == 0);
	r = share_streamon(sh, &type);
	CHECK(r < 0 && errno == ETIMEDOUT, "STREAMON: %d", r);
	shutdown(scripted_requests, SHUT_RDWR); /* ends the thread */
	pthread_join(t, NULL);
	_exit(failures != 0);
}

struct lie {
	const char *what;
	void (*run)(struct share *sh, const struct v4l2_pix_format *p);
};

/* One lie in a child: 0 when it neither died nor hung, nor failed. */
static int run_lie(const struct lie *l)
{
	struct v4l2_pix_format p = scripted_layout(V4L2_PIX_FMT_YUYV, W, H);
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		struct share sh;

		failures = 0; /* the child's own, not the cases' before */
		alarm(10);    /* a hang fails here, not at meson's timeout */
		scripted_setup(&sh, &p, buf);
		fcntl(sh.fd, F_SETFL, O_NONBLOCK);
		l->run(&sh, &p);
		check_goes_on(&sh, &p);
		scripted_teardown(&sh);
		_exit(failures != 0);
	}
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
	if (WIFSIGNALED(status))
		printf("%s: killed by %s\n", l->what,
		       strsignal(WTERMSIG(status)));
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s", l->what);
	return 0;
}

int main(void)
{
	static const struct lie lies[] = {
		{ "a short memfd", short_memfd },
		{ "an unsealed memfd, truncated", truncated },
		{ "a writable memfd", writable },
		{ "a FUTURE_WRITE-sealed memfd", future_write },
		{ "slots out of range", slot_out_of_range },
		{ "sizes that do not add up", sizes },
		{ "events without replies", no_reply },
	};

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (size_t i = 0; i < sizeof(lies) / sizeof(lies[0]); i++)
		run_lie(&lies[i]);
	printf("server-lying: %d failures\n", (int)failures);
	return failures != 0;
}
