/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The sequences of the differential libv4l2 test, as programs write them
 * (issue 27's list). Each starts on a freshly opened camera; a step
 * records what a program would look at.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include <linux/videodev2.h>

#include "seq.h"

#define W 640
#define H 480
#define NBUF 4
#define CAP V4L2_BUF_TYPE_VIDEO_CAPTURE

static void add(struct rec *r, const char *what, int ret, int err,
		const uint32_t v[4])
{
	struct step *t;

	if (r->n >= MAX_STEPS)
		return;
	t = &r->steps[r->n++];
	snprintf(t->what, sizeof(t->what), "%s", what);
	t->ret = ret < 0 ? -1 : ret;
	t->err = ret < 0 ? err : 0;
	memcpy(t->v, v, sizeof(t->v));
}

/* The call, then its errno, then the fields (read after the call). */
#define STEP(r, what, call, a, b, c, d)                                        \
	do {                                                                   \
		int ret_, err_;                                                \
		errno = 0;                                                     \
		ret_ = (int)(call);                                            \
		err_ = errno;                                                  \
		add(r, what, ret_, err_,                                       \
		    (const uint32_t[4]){ (a), (b), (c), (d) });                \
	} while (0)

static void s_fmt(const struct lib *l, int fd, struct rec *r, uint32_t fourcc)
{
	struct v4l2_format f = { .type = CAP };
	char what[40];

	f.fmt.pix.width = W;
	f.fmt.pix.height = H;
	f.fmt.pix.pixelformat = fourcc;
	snprintf(what, sizeof(what), "S_FMT %.4s", (char *)&fourcc);
	STEP(r, what, l->ioctl(fd, VIDIOC_S_FMT, &f), f.fmt.pix.pixelformat,
	     f.fmt.pix.width, f.fmt.pix.height, f.fmt.pix.sizeimage);
}

static void reqbufs(const struct lib *l, int fd, struct rec *r,
		    const char *what, uint32_t memory, uint32_t count)
{
	struct v4l2_requestbuffers q = { .count = count,
					 .type = CAP,
					 .memory = memory };

	STEP(r, what, l->ioctl(fd, VIDIOC_REQBUFS, &q), q.count, 0, 0, 0);
}

/* QUERYBUF, mmap and QBUF of buffers 0..n-1 (mmap failures: NULL). */
static void map_queue(const struct lib *l, int fd, struct rec *r, void **maps,
		      size_t *len, int n, int queue)
{
	for (int i = 0; i < n; i++) {
		struct v4l2_buffer b = { .type = CAP,
					 .memory = V4L2_MEMORY_MMAP,
					 .index = (uint32_t)i };
		char what[40];

		snprintf(what, sizeof(what), "QUERYBUF %d", i);
		STEP(r, what, l->ioctl(fd, VIDIOC_QUERYBUF, &b), b.length,
		     b.memory, b.flags & V4L2_BUF_FLAG_MAPPED, 0);
		*len = b.length;
		maps[i] = l->mmap(NULL, b.length, PROT_READ | PROT_WRITE,
				  MAP_SHARED, fd, b.m.offset);
		if (maps[i] == MAP_FAILED)
			maps[i] = NULL;
		if (queue) {
			snprintf(what, sizeof(what), "QBUF %d", i);
			STEP(r, what, l->ioctl(fd, VIDIOC_QBUF, &b), b.flags, 0,
			     0, 0);
		}
	}
}

static void unmap(const struct lib *l, void **maps, size_t len, int n)
{
	for (int i = 0; i < n; i++)
		if (maps[i])
			l->munmap(maps[i], len);
}

static void stream(const struct lib *l, int fd, struct rec *r, const char *what,
		   unsigned long request)
{
	int type = CAP;

	STEP(r, what, l->ioctl(fd, request, &type), 0, 0, 0, 0);
}

static void dqbuf(const struct lib *l, int fd, struct rec *r, const char *what,
		  uint32_t memory, struct v4l2_buffer *b)
{
	memset(b, 0, sizeof(*b));
	b->type = CAP;
	b->memory = memory;
	STEP(r, what, l->ioctl(fd, VIDIOC_DQBUF, b), b->index, b->memory,
	     b->bytesused, b->sequence);
}

/* G_FMT before any S_FMT, then what ENUM_FMT and TRY_FMT say of it. */
static void g_fmt_first(const struct lib *l, int fd, struct rec *r)
{
	struct v4l2_format f = { .type = CAP };
	struct v4l2_fmtdesc d = { .type = CAP };
	int listed = 0;

	STEP(r, "G_FMT", l->ioctl(fd, VIDIOC_G_FMT, &f), f.fmt.pix.pixelformat,
	     f.fmt.pix.width, f.fmt.pix.height, f.fmt.pix.sizeimage);
	for (d.index = 0; !l->ioctl(fd, VIDIOC_ENUM_FMT, &d); d.index++)
		listed |= d.pixelformat == f.fmt.pix.pixelformat;
	STEP(r, "ENUM_FMT lists it", 0, listed, d.index, 0, 0);
	STEP(r, "TRY_FMT of it", l->ioctl(fd, VIDIOC_TRY_FMT, &f),
	     f.fmt.pix.pixelformat, f.fmt.pix.width, f.fmt.pix.height,
	     f.fmt.pix.sizeimage);
}

/* Whether REQBUFS(MMAP) count 0 claims USERPTR in its capabilities. */
static void mmap_caps(const struct lib *l, int fd, struct rec *r,
		      const char *what)
{
	struct v4l2_requestbuffers q = { .type = CAP,
					 .memory = V4L2_MEMORY_MMAP };

	STEP(r, what, l->ioctl(fd, VIDIOC_REQBUFS, &q),
	     !!(q.capabilities & V4L2_BUF_CAP_SUPPORTS_USERPTR), 0, 0, 0);
}

/* zbarcam's order: USERPTR probed before S_FMT, requested again after. */
static void userptr_order(const struct lib *l, int fd, struct rec *r)
{
	reqbufs(l, fd, r, "REQBUFS USERPTR before S_FMT", V4L2_MEMORY_USERPTR,
		NBUF);
	reqbufs(l, fd, r, "REQBUFS USERPTR 0", V4L2_MEMORY_USERPTR, 0);
	mmap_caps(l, fd, r, "REQBUFS MMAP 0 caps before S_FMT");
	s_fmt(l, fd, r, V4L2_PIX_FMT_RGB24);
	reqbufs(l, fd, r, "REQBUFS USERPTR after S_FMT", V4L2_MEMORY_USERPTR,
		NBUF);
	reqbufs(l, fd, r, "REQBUFS MMAP", V4L2_MEMORY_MMAP, NBUF);
	reqbufs(l, fd, r, "REQBUFS MMAP 0", V4L2_MEMORY_MMAP, 0);
	mmap_caps(l, fd, r, "REQBUFS MMAP 0 caps after S_FMT");
}

/* The same with YUYV, which the upright YUYV camera gives unconverted. */
static void userptr_native(const struct lib *l, int fd, struct rec *r)
{
	reqbufs(l, fd, r, "REQBUFS USERPTR before S_FMT", V4L2_MEMORY_USERPTR,
		NBUF);
	s_fmt(l, fd, r, V4L2_PIX_FMT_YUYV);
	reqbufs(l, fd, r, "REQBUFS USERPTR after S_FMT", V4L2_MEMORY_USERPTR,
		NBUF);
	mmap_caps(l, fd, r, "REQBUFS MMAP 0 caps");
}

/* Fields a program never sets (memory, count and the like) left 0. */
static void fields_zero(const struct lib *l, int fd, struct rec *r)
{
	void *maps[NBUF] = { 0 };
	size_t len = 0;
	struct v4l2_buffer b;

	s_fmt(l, fd, r, V4L2_PIX_FMT_RGB24);
	reqbufs(l, fd, r, "REQBUFS memory 0", 0, NBUF);
	reqbufs(l, fd, r, "REQBUFS MMAP", V4L2_MEMORY_MMAP, NBUF);
	memset(&b, 0, sizeof(b));
	b.type = CAP;
	STEP(r, "QUERYBUF memory 0", l->ioctl(fd, VIDIOC_QUERYBUF, &b),
	     b.length, b.memory, 0, 0);
	map_queue(l, fd, r, maps, &len, NBUF, 1);
	stream(l, fd, r, "STREAMON", VIDIOC_STREAMON);
	dqbuf(l, fd, r, "DQBUF memory 0", 0, &b);
	{
		struct v4l2_buffer q = b;

		q.memory = 0;
		STEP(r, "QBUF memory 0", l->ioctl(fd, VIDIOC_QBUF, &q), 0, 0, 0,
		     0);
	}
	STEP(r, "QBUF as dequeued", l->ioctl(fd, VIDIOC_QBUF, &b), 0, 0, 0, 0);
	stream(l, fd, r, "STREAMOFF", VIDIOC_STREAMOFF);
	unmap(l, maps, len, NBUF);
	reqbufs(l, fd, r, "REQBUFS MMAP 0", V4L2_MEMORY_MMAP, 0);
}

static void read_after_reqbufs(const struct lib *l, int fd, struct rec *r)
{
	size_t n = (size_t)W * H * 3;
	uint8_t *buf = malloc(n);

	s_fmt(l, fd, r, V4L2_PIX_FMT_RGB24);
	reqbufs(l, fd, r, "REQBUFS MMAP", V4L2_MEMORY_MMAP, NBUF);
	STEP(r, "read after REQBUFS", l->read(fd, buf, n), 0, 0, 0, 0);
	reqbufs(l, fd, r, "REQBUFS MMAP 0", V4L2_MEMORY_MMAP, 0);
	STEP(r, "read after REQBUFS 0", l->read(fd, buf, n), 0, 0, 0, 0);
	free(buf);
}

/* The same on the driver's own format (nothing to convert). */
static void read_after_reqbufs_native(const struct lib *l, int fd,
				      struct rec *r)
{
	size_t n = (size_t)W * H * 2;
	uint8_t *buf = malloc(n);

	s_fmt(l, fd, r, V4L2_PIX_FMT_YUYV);
	reqbufs(l, fd, r, "REQBUFS MMAP", V4L2_MEMORY_MMAP, NBUF);
	STEP(r, "read after REQBUFS", l->read(fd, buf, n), 0, 0, 0, 0);
	free(buf);
}

static void streamon_twice(const struct lib *l, int fd, struct rec *r)
{
	void *maps[NBUF] = { 0 };
	size_t len = 0;
	struct v4l2_buffer b;

	s_fmt(l, fd, r, V4L2_PIX_FMT_RGB24);
	reqbufs(l, fd, r, "REQBUFS MMAP", V4L2_MEMORY_MMAP, NBUF);
	map_queue(l, fd, r, maps, &len, NBUF, 1);
	stream(l, fd, r, "STREAMON", VIDIOC_STREAMON);
	stream(l, fd, r, "STREAMON again", VIDIOC_STREAMON);
	dqbuf(l, fd, r, "DQBUF", V4L2_MEMORY_MMAP, &b);
	stream(l, fd, r, "STREAMOFF", VIDIOC_STREAMOFF);
	stream(l, fd, r, "STREAMOFF again", VIDIOC_STREAMOFF);
	unmap(l, maps, len, NBUF);
	reqbufs(l, fd, r, "REQBUFS MMAP 0", V4L2_MEMORY_MMAP, 0);
}

static void qbuf_queued(const struct lib *l, int fd, struct rec *r)
{
	void *maps[NBUF] = { 0 };
	size_t len = 0;
	struct v4l2_buffer b = { .type = CAP, .memory = V4L2_MEMORY_MMAP };

	s_fmt(l, fd, r, V4L2_PIX_FMT_RGB24);
	reqbufs(l, fd, r, "REQBUFS MMAP", V4L2_MEMORY_MMAP, NBUF);
	map_queue(l, fd, r, maps, &len, NBUF, 1);
	STEP(r, "QBUF 0 again", l->ioctl(fd, VIDIOC_QBUF, &b), 0, 0, 0, 0);
	stream(l, fd, r, "STREAMON", VIDIOC_STREAMON);
	dqbuf(l, fd, r, "DQBUF", V4L2_MEMORY_MMAP, &b);
	STEP(r, "QBUF dequeued", l->ioctl(fd, VIDIOC_QBUF, &b), 0, 0, 0, 0);
	STEP(r, "QBUF it again", l->ioctl(fd, VIDIOC_QBUF, &b), 0, 0, 0, 0);
	stream(l, fd, r, "STREAMOFF", VIDIOC_STREAMOFF);
	unmap(l, maps, len, NBUF);
	reqbufs(l, fd, r, "REQBUFS MMAP 0", V4L2_MEMORY_MMAP, 0);
}

static void s_fmt_mapped(const struct lib *l, int fd, struct rec *r)
{
	void *maps[1] = { 0 };
	size_t len = 0;

	s_fmt(l, fd, r, V4L2_PIX_FMT_RGB24);
	reqbufs(l, fd, r, "REQBUFS MMAP", V4L2_MEMORY_MMAP, NBUF);
	map_queue(l, fd, r, maps, &len, 1, 0);
	s_fmt(l, fd, r, V4L2_PIX_FMT_BGR24);
	unmap(l, maps, len, 1);
	s_fmt(l, fd, r, V4L2_PIX_FMT_BGR24);
	reqbufs(l, fd, r, "REQBUFS MMAP 0", V4L2_MEMORY_MMAP, 0);
}

static uint64_t mono_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000u + (uint64_t)t.tv_nsec / 1000u;
}

/*
 * DQBUF and QBUF again, recording what a program deriving its clock from
 * the buffers relies on: the sequence, the timestamp's flags, and whether
 * the stamp is set (1), later than the previous one (2) and taken during
 * this DQBUF (4: the camera's capture time, which the "nopace" virtual
 * camera takes as DQBUF asks; not the end of the conversion).
 */
static void dqbuf_clock(const struct lib *l, int fd, struct rec *r,
			const char *what, uint64_t *prev)
{
	struct v4l2_buffer b = { .type = CAP, .memory = V4L2_MEMORY_MMAP };
	uint64_t before = mono_us(), ts, after;
	uint32_t bits;
	int ret, err;

	errno = 0;
	ret = l->ioctl(fd, VIDIOC_DQBUF, &b);
	err = errno;
	after = mono_us();
	ts = (uint64_t)b.timestamp.tv_sec * 1000000u +
	     (uint64_t)b.timestamp.tv_usec;
	bits = (ts != 0) | (ts > *prev) << 1 |
	       (ts >= before && ts <= after) << 2;
	add(r, what, ret, err,
	    (const uint32_t[4]){ b.index, b.sequence,
				 b.flags & (V4L2_BUF_FLAG_TIMESTAMP_MASK |
					    V4L2_BUF_FLAG_TSTAMP_SRC_MASK),
				 bits });
	*prev = ts;
	if (ret == 0)
		STEP(r, "QBUF", l->ioctl(fd, VIDIOC_QBUF, &b), 0, 0, 0, 0);
}

/* Converted frames' sequence and timestamps, across a STREAMOFF/ON. */
static void clock_converted(const struct lib *l, int fd, struct rec *r)
{
	void *maps[NBUF] = { 0 };
	size_t len = 0;
	uint64_t prev = 0;

	s_fmt(l, fd, r, V4L2_PIX_FMT_RGB24);
	reqbufs(l, fd, r, "REQBUFS MMAP", V4L2_MEMORY_MMAP, NBUF);
	map_queue(l, fd, r, maps, &len, NBUF, 1);
	stream(l, fd, r, "STREAMON", VIDIOC_STREAMON);
	for (int i = 0; i < 3; i++)
		dqbuf_clock(l, fd, r, "DQBUF", &prev);
	stream(l, fd, r, "STREAMOFF", VIDIOC_STREAMOFF);
	for (uint32_t i = 0; i < NBUF; i++) {
		struct v4l2_buffer b = { .type = CAP,
					 .memory = V4L2_MEMORY_MMAP,
					 .index = i };

		STEP(r, "QBUF after STREAMOFF", l->ioctl(fd, VIDIOC_QBUF, &b),
		     0, 0, 0, 0);
	}
	stream(l, fd, r, "STREAMON again", VIDIOC_STREAMON);
	for (int i = 0; i < 2; i++)
		dqbuf_clock(l, fd, r, "DQBUF after STREAMON", &prev);
	stream(l, fd, r, "STREAMOFF", VIDIOC_STREAMOFF);
	unmap(l, maps, len, NBUF);
	reqbufs(l, fd, r, "REQBUFS MMAP 0", V4L2_MEMORY_MMAP, 0);
}

static void count_zero(const struct lib *l, int fd, struct rec *r)
{
	reqbufs(l, fd, r, "REQBUFS MMAP 0 first", V4L2_MEMORY_MMAP, 0);
	stream(l, fd, r, "STREAMON without buffers", VIDIOC_STREAMON);
	s_fmt(l, fd, r, V4L2_PIX_FMT_RGB24);
	reqbufs(l, fd, r, "REQBUFS MMAP 0", V4L2_MEMORY_MMAP, 0);
	stream(l, fd, r, "STREAMOFF without buffers", VIDIOC_STREAMOFF);
}

const struct seq seqs[] = {
	{ "G_FMT first", g_fmt_first },
	{ "USERPTR before/after S_FMT", userptr_order },
	{ "USERPTR, native", userptr_native },
	{ "fields left 0", fields_zero },
	{ "read after REQBUFS", read_after_reqbufs },
	{ "read after REQBUFS, native", read_after_reqbufs_native },
	{ "STREAMON twice", streamon_twice },
	{ "QBUF of a queued buffer", qbuf_queued },
	{ "S_FMT while mapped", s_fmt_mapped },
	{ "count 0", count_zero },
	{ "clock of converted frames", clock_converted },
	{ NULL, NULL },
};
