/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A shared stream whose every buffer is checked (seqstream.h). */
#include "seqstream.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include <libv4l2.h>
#include <libv4lconvert.h>

#include "vcam/vcam.h"
#include "../common/check.h"
#include "clientenv.h"
#include "pixfmt.h"

/* Per dequeue: only a stream that stopped delivering takes this long. */
#define DEQUEUE_DEADLINE_MS 20000

uint64_t seq_ts_us(const struct v4l2_buffer *b)
{
	return (uint64_t)b->timestamp.tv_sec * 1000000u +
	       (uint64_t)b->timestamp.tv_usec;
}

void seq_open(struct seqstream *s)
{
	struct v4l2_requestbuffers req = {
		.count = SEQ_NBUFS,
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_MMAP,
	};
	struct v4l2_format f;
	char name[64];

	s->base = failures;
	snprintf(name, sizeof(name), "libv4l-vcam:%.4s:%dx%d",
		 (const char *)&s->camera, SEQ_W, SEQ_H);
	s->fd = clientenv_open_shared(name);
	CHECK(s->fd >= 0, "%s: not shared", s->what);
	if (s->fd < 0)
		exit(1);
	if (s->nonblock)
		CHECK(fcntl(s->fd, F_SETFL, O_NONBLOCK) == 0);
	test_pix_fmt(&f, s->fourcc, SEQ_W, SEQ_H);
	CHECK(v4l2_ioctl(s->fd, VIDIOC_S_FMT, &f) == 0);
	CHECK(f.fmt.pix.pixelformat == s->fourcc && f.fmt.pix.width == SEQ_W &&
		      f.fmt.pix.height == SEQ_H,
	      "%s: S_FMT gave %.4s %ux%u", s->what,
	      (const char *)&f.fmt.pix.pixelformat, f.fmt.pix.width,
	      f.fmt.pix.height);
	s->pix = f.fmt.pix;
	CHECK(v4l2_ioctl(s->fd, VIDIOC_REQBUFS, &req) == 0 &&
	      req.count == SEQ_NBUFS);
	for (unsigned i = 0; i < SEQ_NBUFS; i++) {
		struct v4l2_buffer b = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
					 .memory = V4L2_MEMORY_MMAP,
					 .index = i };

		CHECK(v4l2_ioctl(s->fd, VIDIOC_QUERYBUF, &b) == 0);
		s->maps[i] = v4l2_mmap(NULL, b.length, PROT_READ | PROT_WRITE,
				       MAP_SHARED, s->fd, b.m.offset);
		CHECK(s->maps[i] != MAP_FAILED);
		s->lens[i] = b.length;
		s->held[i] = 1;
		seq_requeue(s, &b);
	}
}

void seq_streamon(struct seqstream *s)
{
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;

	/* After a STREAMOFF every buffer is the program's to queue again. */
	for (unsigned i = 0; i < SEQ_NBUFS; i++) {
		struct v4l2_buffer b = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
					 .memory = V4L2_MEMORY_MMAP,
					 .index = i };

		if (s->held[i])
			seq_requeue(s, &b);
	}
	CHECK(v4l2_ioctl(s->fd, VIDIOC_STREAMON, &type) == 0, "%s", s->what);
	s->since_on = 0;
}

static uint64_t now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000u + (uint64_t)t.tv_nsec / 1000u;
}

int seq_ok(const struct seqstream *s)
{
	return failures == s->base;
}

void seq_streamoff(struct seqstream *s)
{
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;

	s->off_us = now_us();
	CHECK(v4l2_ioctl(s->fd, VIDIOC_STREAMOFF, &type) == 0, "%s", s->what);
	for (unsigned i = 0; i < SEQ_NBUFS; i++)
		s->held[i] = 1;
}

void seq_close(struct seqstream *s)
{
	for (unsigned i = 0; i < SEQ_NBUFS; i++)
		v4l2_munmap(s->maps[i], s->lens[i]);
	v4l2_close(s->fd);
}

void seq_requeue(struct seqstream *s, struct v4l2_buffer *b)
{
	CHECK(b->index < SEQ_NBUFS && s->held[b->index]);
	CHECK(v4l2_ioctl(s->fd, VIDIOC_QBUF, b) == 0, "%s: QBUF %u", s->what,
	      b->index);
	s->held[b->index % SEQ_NBUFS] = 0;
}

uint8_t *seq_expected(const struct seqstream *s, uint32_t seq, size_t *len)
{
	size_t size = (size_t)SEQ_W * SEQ_H * 3;
	uint8_t *raw = malloc(size), *out;
	struct v4l2_format sf, df;
	struct v4lconvert_data *cv;
	int n;

	n = v4lc_vcam_render(s->camera, SEQ_W, SEQ_H, seq, raw, size);
	CHECK(n > 0);
	*len = n > 0 ? (size_t)n : 0;
	if (s->fourcc == s->camera)
		return raw;
	if (s->camera != V4L2_PIX_FMT_YUYV || n <= 0) {
		free(raw);
		return NULL;
	}
	test_pix_fmt(&sf, s->camera, SEQ_W, SEQ_H);
	test_pix_fmt(&df, s->fourcc, SEQ_W, SEQ_H);
	out = malloc(df.fmt.pix.sizeimage);
	cv = v4lconvert_create(-1);
	n = v4lconvert_convert(cv, &sf, &df, raw, n, out,
			       (int)df.fmt.pix.sizeimage);
	CHECK(n == (int)df.fmt.pix.sizeimage, "%s",
	      v4lconvert_get_error_message(cv));
	v4lconvert_destroy(cv);
	free(raw);
	*len = n > 0 ? (size_t)n : 0;
	return out;
}

/* The buffer's bytes and size are those of the frame its sequence names. */
static void check_content(struct seqstream *s, const struct v4l2_buffer *b)
{
	int compressed = s->fourcc == V4L2_PIX_FMT_MJPEG;
	size_t len;
	uint8_t *want = seq_expected(s, b->sequence, &len);

	if (!compressed)
		CHECK(b->bytesused == s->pix.sizeimage,
		      "%s: frame %u has %u bytes, not %u", s->what, b->sequence,
		      b->bytesused, s->pix.sizeimage);
	if (want) {
		CHECK(b->bytesused == len &&
			      !memcmp(s->maps[b->index], want, len),
		      "%s: buffer %u (sequence %u, %u bytes) is not the "
		      "camera's frame %u",
		      s->what, b->index, b->sequence, b->bytesused,
		      b->sequence);
	}
	free(want);
}

/* What DQBUF gave, against what came before on this fd. */
static void check_buffer(struct seqstream *s, const struct v4l2_buffer *b)
{
	uint64_t ts = seq_ts_us(b);

	CHECK(b->index < SEQ_NBUFS, "%s: index %u", s->what, b->index);
	if (b->index >= SEQ_NBUFS)
		return;
	CHECK(!s->held[b->index],
	      "%s: buffer %u dequeued twice without a QBUF between", s->what,
	      b->index);
	CHECK(!(b->flags & (V4L2_BUF_FLAG_QUEUED | V4L2_BUF_FLAG_ERROR)),
	      "%s: flags %#x", s->what, b->flags);
	CHECK((b->flags & V4L2_BUF_FLAG_TIMESTAMP_MASK) ==
		      V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC,
	      "%s: flags %#x", s->what, b->flags);
	CHECK(ts != 0, "%s: frame %u has no timestamp", s->what, b->sequence);
	CHECK(ts > s->last_us,
	      "%s: timestamp %llu us after %llu us (sequence %u after %u)",
	      s->what, (unsigned long long)ts, (unsigned long long)s->last_us,
	      b->sequence, s->last_seq);
	if (s->since_on)
		CHECK(b->sequence > s->last_seq, "%s: sequence %u after %u",
		      s->what, b->sequence, s->last_seq);
	else
		CHECK(ts > s->off_us,
		      "%s: after STREAMON, frame %u of %llu us, from before "
		      "the STREAMOFF at %llu us",
		      s->what, b->sequence, (unsigned long long)ts,
		      (unsigned long long)s->off_us);
	check_content(s, b);
	s->held[b->index] = 1;
	s->since_on = 1;
	s->last_seq = b->sequence;
	s->last_us = ts;
	s->frames++;
}

int seq_dequeue(struct seqstream *s, struct v4l2_buffer *b)
{
	uint64_t deadline = now_us() + DEQUEUE_DEADLINE_MS * 1000u;
	int e;

	for (;;) {
		struct pollfd p = { .fd = s->fd, .events = POLLIN };

		memset(b, 0, sizeof(*b));
		b->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		b->memory = V4L2_MEMORY_MMAP;
		if (v4l2_ioctl(s->fd, VIDIOC_DQBUF, b) == 0) {
			check_buffer(s, b);
			return 1;
		}
		if (!s->nonblock || errno != EAGAIN || now_us() > deadline)
			break;
		/* Nothing new yet: the next DQBUF must wait for a frame
		 * the previous ones were not. */
		if (poll(&p, 1, 100) < 0 && errno != EINTR)
			break;
	}
	e = errno;
	CHECK(0, "%s: DQBUF after %d frames: %s", s->what, s->frames,
	      strerror(e));
	return 0;
}
