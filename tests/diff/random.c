/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Random call sequences for the differential libv4l2 test, in the style
 * of the ioctl fuzz target (tests/fuzz/ioctl.c): S_FMT of a converted
 * format first, then format, buffer, stream and read() calls in a random
 * order from a fixed seed. MMAP buffers only (both libraries refuse
 * USERPTR and DMABUF while converting), and only converted formats: the
 * difference already explained of a flipped YUYV camera kept in YUYV
 * would hide every later call's answer.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <linux/videodev2.h>

#include "seq.h"

#define NBUF 4
#define CAP V4L2_BUF_TYPE_VIDEO_CAPTURE
#define FRAME_MAX (640 * 480 * 3)

struct state {
	const struct lib *l;
	int fd;
	struct rec *r;
	unsigned rng;
	void *maps[NBUF];
	size_t lens[NBUF];
	uint8_t *buf;
};

static unsigned next(struct state *s)
{
	s->rng = s->rng * 1103515245u + 12345u;
	return s->rng >> 16;
}

static void add(struct state *s, const char *what, int ret, int err, uint32_t a,
		uint32_t b, uint32_t c, uint32_t d)
{
	struct step *t;

	if (s->r->n >= MAX_STEPS)
		return;
	t = &s->r->steps[s->r->n++];
	snprintf(t->what, sizeof(t->what), "%d: %s", s->r->n, what);
	t->ret = ret < 0 ? -1 : ret;
	t->err = ret < 0 ? err : 0;
	t->v[0] = a;
	t->v[1] = b;
	t->v[2] = c;
	t->v[3] = d;
}

static void op_s_fmt(struct state *s)
{
	static const uint32_t fourccs[] = { V4L2_PIX_FMT_RGB24,
					    V4L2_PIX_FMT_BGR24,
					    V4L2_PIX_FMT_YUV420 };
	struct v4l2_format f = { .type = CAP };
	int r, e;

	f.fmt.pix.pixelformat = fourccs[next(s) % 3];
	f.fmt.pix.width = next(s) & 1 ? 640 : 320;
	f.fmt.pix.height = f.fmt.pix.width * 3 / 4;
	errno = 0;
	r = s->l->ioctl(s->fd, VIDIOC_S_FMT, &f);
	e = errno;
	add(s, "S_FMT", r, e, f.fmt.pix.pixelformat, f.fmt.pix.width,
	    f.fmt.pix.height, f.fmt.pix.sizeimage);
}

static void op_reqbufs(struct state *s)
{
	struct v4l2_requestbuffers q = { .count = next(s) % 6,
					 .type = CAP,
					 .memory = V4L2_MEMORY_MMAP };
	int r, e;

	errno = 0;
	r = s->l->ioctl(s->fd, VIDIOC_REQBUFS, &q);
	e = errno;
	add(s, "REQBUFS", r, e, q.count, 0, 0, 0);
}

static void op_querybuf_map(struct state *s)
{
	unsigned i = next(s) % NBUF;
	struct v4l2_buffer b = { .type = CAP,
				 .memory = V4L2_MEMORY_MMAP,
				 .index = i };
	int r, e;

	errno = 0;
	r = s->l->ioctl(s->fd, VIDIOC_QUERYBUF, &b);
	e = errno;
	add(s, "QUERYBUF", r, e, b.length, b.flags & V4L2_BUF_FLAG_MAPPED, 0,
	    0);
	if (r == 0 && !s->maps[i] && b.length && b.length <= (64u << 20)) {
		void *p = s->l->mmap(NULL, b.length, PROT_READ | PROT_WRITE,
				     MAP_SHARED, s->fd, b.m.offset);

		add(s, "mmap", p == MAP_FAILED ? -1 : 0, errno, 0, 0, 0, 0);
		if (p != MAP_FAILED) {
			s->maps[i] = p;
			s->lens[i] = b.length;
		}
	}
}

static void op_qbuf(struct state *s)
{
	struct v4l2_buffer b = { .type = CAP,
				 .memory = V4L2_MEMORY_MMAP,
				 .index = next(s) % NBUF };
	int r, e;

	errno = 0;
	r = s->l->ioctl(s->fd, VIDIOC_QBUF, &b);
	e = errno;
	add(s, "QBUF", r, e, b.index, 0, 0, 0);
}

static void op_dqbuf(struct state *s)
{
	struct v4l2_buffer b = { .type = CAP, .memory = V4L2_MEMORY_MMAP };
	int r, e;

	errno = 0;
	r = s->l->ioctl(s->fd, VIDIOC_DQBUF, &b);
	e = errno;
	add(s, "DQBUF", r, e, b.index, b.bytesused, 0, 0);
}

static void op_stream(struct state *s, unsigned long request)
{
	int type = CAP, r, e;

	errno = 0;
	r = s->l->ioctl(s->fd, request, &type);
	e = errno;
	add(s, request == VIDIOC_STREAMON ? "STREAMON" : "STREAMOFF", r, e, 0,
	    0, 0, 0);
}

static void op_misc(struct state *s, unsigned what)
{
	struct v4l2_format f = { .type = CAP };
	int r, e;

	errno = 0;
	if (what == 0) {
		r = s->l->ioctl(s->fd, VIDIOC_G_FMT, &f);
		e = errno;
		add(s, "G_FMT", r, e, f.fmt.pix.pixelformat, f.fmt.pix.width,
		    f.fmt.pix.height, f.fmt.pix.sizeimage);
	} else if (what == 1) {
		r = (int)s->l->read(s->fd, s->buf, FRAME_MAX);
		e = errno;
		add(s, "read", r, e, 0, 0, 0, 0);
	} else {
		for (int i = 0; i < NBUF; i++)
			if (s->maps[i])
				s->l->munmap(s->maps[i], s->lens[i]);
		memset(s->maps, 0, sizeof(s->maps));
		add(s, "munmap all", 0, 0, 0, 0, 0, 0);
	}
}

void random_seq(const struct lib *l, int fd, struct rec *r, unsigned seed)
{
	struct state s = { .l = l, .fd = fd, .r = r, .rng = seed };

	s.buf = malloc(FRAME_MAX);
	op_s_fmt(&s);
	while (r->n < MAX_STEPS - 2) {
		switch (next(&s) % 10) {
		case 0:
			op_s_fmt(&s);
			break;
		case 1:
			op_reqbufs(&s);
			break;
		case 2:
			op_querybuf_map(&s);
			break;
		case 3:
		case 4:
			op_qbuf(&s);
			break;
		case 5:
			op_dqbuf(&s);
			break;
		case 6:
			op_stream(&s, VIDIOC_STREAMON);
			break;
		case 7:
			op_stream(&s, VIDIOC_STREAMOFF);
			break;
		default:
			op_misc(&s, next(&s) % 3);
		}
	}
	op_misc(&s, 2);
	free(s.buf);
}
