/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The autofocus capture loop (loop.h). */
#include "focus/loop.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include <linux/videodev2.h>

#include <libv4l2.h>

#include "core/format.h"
#include "focus/measure.h"

/* Few buffers: a deep queue would show frames taken before a move. */
#define NBUF 2

struct plane {
	uint32_t fourcc;
	int packed_first; /* -1: planar luma first, else packed luma offset */
};

/* Formats whose luma we read directly (by their layout in the format
 * table: a luma plane first, or packed 4:2:2); anything else is
 * converted. */
static int luma_layout(uint32_t fourcc, int *packed_first)
{
	const struct v4lc_format *f = v4lc_format_row(fourcc);

	switch (f ? f->layout : V4LC_L_NONE) {
	case V4LC_L_GREY8:
	case V4LC_L_PLANAR420:
	case V4LC_L_SEMI420:
	case V4LC_L_SEMI422:
	case V4LC_L_PLANAR422:
		*packed_first = -1;
		return 1;
	case V4LC_L_PACKED422:
		*packed_first = v4lc_yuv422_luma_odd(f->order);
		return 1;
	default:
		return 0;
	}
}

/* Keep the device's format when its luma is readable, else ask YU12. */
static int setup_format(int fd, const struct v4lc_af_loop *opt,
			struct v4l2_format *f, int *packed_first)
{
	memset(f, 0, sizeof(*f));
	f->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	if (v4l2_ioctl(fd, VIDIOC_G_FMT, f) < 0)
		return -1;
	if (opt->width && opt->height) {
		f->fmt.pix.width = opt->width;
		f->fmt.pix.height = opt->height;
	}
	if (!luma_layout(f->fmt.pix.pixelformat, packed_first))
		f->fmt.pix.pixelformat = V4L2_PIX_FMT_YUV420;
	if (v4l2_ioctl(fd, VIDIOC_S_FMT, f) < 0)
		return -1;
	if (!luma_layout(f->fmt.pix.pixelformat, packed_first)) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

static int set_focus(int fd, int pos)
{
	struct v4l2_control c = { V4L2_CID_FOCUS_ABSOLUTE, pos };

	return v4l2_ioctl(fd, VIDIOC_S_CTRL, &c);
}

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

struct stream {
	int fd;
	void *map[NBUF];
	size_t len[NBUF];
	int n, on;
};

static void stream_end(struct stream *s)
{
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	struct v4l2_requestbuffers r = {
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_MMAP,
	};

	if (s->on)
		v4l2_ioctl(s->fd, VIDIOC_STREAMOFF, &type);
	for (int i = 0; i < s->n; i++)
		if (s->map[i])
			v4l2_munmap(s->map[i], s->len[i]);
	if (s->n)
		v4l2_ioctl(s->fd, VIDIOC_REQBUFS, &r);
	s->n = s->on = 0;
}

static int stream_begin(struct stream *s)
{
	struct v4l2_requestbuffers r = {
		.count = NBUF,
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_MMAP,
	};
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;

	if (v4l2_ioctl(s->fd, VIDIOC_REQBUFS, &r) < 0)
		return -1;
	s->n = r.count < NBUF ? (int)r.count : NBUF;
	for (int i = 0; i < s->n; i++) {
		struct v4l2_buffer b = {
			.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
			.memory = V4L2_MEMORY_MMAP,
			.index = (uint32_t)i,
		};

		if (v4l2_ioctl(s->fd, VIDIOC_QUERYBUF, &b) < 0)
			return -1;
		s->map[i] = v4l2_mmap(NULL, b.length, PROT_READ, MAP_SHARED,
				      s->fd, b.m.offset);
		if (s->map[i] == MAP_FAILED) {
			s->map[i] = NULL;
			return -1;
		}
		s->len[i] = b.length;
		if (v4l2_ioctl(s->fd, VIDIOC_QBUF, &b) < 0)
			return -1;
	}
	if (v4l2_ioctl(s->fd, VIDIOC_STREAMON, &type) < 0)
		return -1;
	s->on = 1;
	return 0;
}

/* What the sharpness of a frame is computed with. */
struct meter {
	const struct v4lc_dsp *dsp;
	const struct stream *s;
	int w, h;
	size_t stride;
	int packed_first;
	uint8_t *rows; /* 3 rows of luma for packed formats */
};

/* The sharpness of the frame in buffer index. */
static double measure(const struct meter *mt, unsigned index,
		      struct v4lc_af_stats *st)
{
	uint64_t t0 = now_ns();
	const uint8_t *img = mt->s->map[index];
	double m;

	if (mt->packed_first < 0)
		m = v4lc_focus_measure(mt->dsp, img,
				       mt->stride ? mt->stride : (size_t)mt->w,
				       mt->w, mt->h);
	else
		m = v4lc_focus_measure_packed(mt->dsp, img,
					      mt->stride ? mt->stride
							 : 2 * (size_t)mt->w,
					      mt->w, mt->h, mt->packed_first,
					      mt->rows);
	st->measure_ns += now_ns() - t0;
	st->samples++;
	return m;
}

/* Move the lens to pos, counted in st. */
static int move_to(int fd, int pos, const struct v4lc_af *af,
		   const struct v4lc_af_loop *opt, struct v4lc_af_stats *st)
{
	if (set_focus(fd, pos) < 0)
		return -1;
	st->writes++;
	st->last_write = (long)st->frames;
	st->position = pos;
	if (opt->verbose)
		fprintf(stderr, "v4l2-autofocus: frame %lu: focus %d (%s)\n",
			st->frames, pos,
			af->state == V4LC_AF_COARSE ? "coarse"
			: af->state == V4LC_AF_FINE ? "fine"
						    : "lock");
	return 0;
}

/* The lens position the camera reports, after switching off its own
 * autofocus; its range in *q. */
static int focus_control(int fd, struct v4l2_queryctrl *q, int *cur)
{
	struct v4l2_control c = { .id = V4L2_CID_FOCUS_ABSOLUTE };
	struct v4l2_control manual = { .id = V4L2_CID_FOCUS_AUTO, .value = 0 };

	memset(q, 0, sizeof(*q));
	q->id = V4L2_CID_FOCUS_ABSOLUTE;
	if (v4l2_ioctl(fd, VIDIOC_QUERYCTRL, q) < 0 ||
	    (q->flags & V4L2_CTRL_FLAG_DISABLED)) {
		errno = ENOTTY;
		return -1;
	}
	/* A camera that focuses itself is switched to manual focus. */
	v4l2_ioctl(fd, VIDIOC_S_CTRL, &manual);
	if (v4l2_ioctl(fd, VIDIOC_G_CTRL, &c) < 0)
		return -1;
	*cur = c.value;
	return 0;
}

/*
 * A frame the camera took before the lens was last told to move: it shows
 * the old position, whatever the count of frames since (a frame waits in
 * the driver's queue, on the bus, in a frame server, longer when the host
 * is loaded). Neither measured nor counted as settling. Only monotonic
 * timestamps are compared, and never more than STALE_MAX frames in a row
 * (a camera whose clock is not the system's is not stopped).
 */
#define STALE_MAX 32

static int taken_before(const struct v4l2_buffer *b, uint64_t moved)
{
	uint64_t t = (uint64_t)b->timestamp.tv_sec * 1000000000u +
		     (uint64_t)b->timestamp.tv_usec * 1000u;

	return moved && t &&
	       (b->flags & V4L2_BUF_FLAG_TIMESTAMP_MASK) ==
		       V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC &&
	       t < moved;
}

/* Frames until the search ends or the caller stops it: 0, or -1. */
static int run_loop(int fd, const struct v4lc_af_loop *opt,
		    const struct meter *mt, struct v4lc_af *af, int pos,
		    struct v4lc_af_stats *st)
{
	int every = opt->every > 0 ? opt->every : 1, stale_run = 0;
	uint64_t moved = 0;

	for (;;) {
		struct v4l2_buffer b = {
			.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
			.memory = V4L2_MEMORY_MMAP,
		};
		enum v4lc_af_state before;
		double m = -1;
		int stale;

		if (pos >= 0) {
			if (move_to(fd, pos, af, opt, st) < 0)
				return -1;
			moved = now_ns();
		}
		if ((opt->stop && *opt->stop) ||
		    (opt->max_frames && st->frames >= opt->max_frames))
			return 0;
		if (v4l2_ioctl(fd, VIDIOC_DQBUF, &b) < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			if (errno == ENODEV)
				return 0; /* the camera went away: done */
			return -1;
		}
		stale = stale_run < STALE_MAX && taken_before(&b, moved);
		stale_run = stale ? stale_run + 1 : 0;
		st->stale += (unsigned long)stale;
		if (!stale && v4lc_af_need_measure(af, st->frames, every) &&
		    b.index < (uint32_t)mt->s->n)
			m = measure(mt, b.index, st);
		if (v4l2_ioctl(fd, VIDIOC_QBUF, &b) < 0)
			return -1;
		before = af->state;
		pos = stale ? -1 : v4lc_af_frame(af, m);
		if (af->state == V4LC_AF_LOCKED && before != V4LC_AF_LOCKED &&
		    st->first_lock < 0)
			st->first_lock = (long)st->frames;
		st->frames++;
		if (opt->on_frame && opt->on_frame(opt->ctx, st->frames, af))
			return 0;
	}
}

int v4lc_af_run(int fd, const struct v4lc_af_loop *opt,
		struct v4lc_af_stats *st)
{
	struct v4l2_queryctrl q;
	struct v4lc_af_params p;
	struct v4lc_af af;
	struct v4l2_format f;
	struct stream s = { .fd = fd };
	struct meter mt = { .dsp = v4lc_dsp_get(), .s = &s };
	int cur, pos, ret = -1, saved;

	memset(st, 0, sizeof(*st));
	st->first_lock = st->last_write = -1;
	if (focus_control(fd, &q, &cur) < 0)
		return -1;
	if (setup_format(fd, opt, &f, &mt.packed_first) < 0)
		return -1;
	mt.w = (int)f.fmt.pix.width;
	mt.h = (int)f.fmt.pix.height;
	mt.stride = f.fmt.pix.bytesperline;
	mt.rows = malloc(3 * (size_t)f.fmt.pix.width + 16);
	if (!mt.rows)
		return -1;
	if (stream_begin(&s) == 0) {
		v4lc_af_params_default(&p, q.minimum, q.maximum);
		pos = v4lc_af_start(&af, &p, cur);
		ret = run_loop(fd, opt, &mt, &af, pos, st);
	}
	saved = errno;
	stream_end(&s);
	free(mt.rows);
	errno = saved;
	return ret;
}
