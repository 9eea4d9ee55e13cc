/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The virtual camera's buffers and streaming (see vcam.h): MMAP buffers in
 * the memfd itself, USERPTR buffers, the queue, and frames made when DQBUF
 * asks for one, paced by the frame interval.
 */
#include "vcam/vcam.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "vcam/priv.h"

static int is_capture(uint32_t type)
{
	return type == V4L2_BUF_TYPE_VIDEO_CAPTURE;
}

/*
 * Whether the process maps the memfd anywhere but our own view: then the
 * file must not shrink under those mappings (they would fault). The kernel
 * keeps such buffers alive ("orphaned") on REQBUFS; keeping the file size
 * is the nearest a single file can do.
 */
static int foreign_maps(const struct vcam *c)
{
	struct stat st;
	char *line = NULL;
	size_t cap = 0;
	FILE *f;
	int found = 0;

	if (fstat(c->fd, &st))
		return 0;
	f = fopen("/proc/self/maps", "re");
	if (!f)
		return 0;
	while (!found && getline(&line, &cap, f) > 0) {
		unsigned long lo, hi, ino;
		unsigned maj, min;

		if (sscanf(line, "%lx-%lx %*s %*s %x:%x %lu", &lo, &hi, &maj,
			   &min, &ino) != 5)
			continue;
		if (ino != (unsigned long)st.st_ino ||
		    makedev(maj, min) != st.st_dev)
			continue;
		if (c->map && lo >= (unsigned long)(uintptr_t)c->map &&
		    hi <= (unsigned long)(uintptr_t)c->map + c->map_size)
			continue;
		found = 1;
	}
	free(line);
	fclose(f);
	return found;
}

void v4lc_vcam_unmap(struct vcam *c)
{
	if (c->map)
		munmap(c->map, c->map_size);
	c->map = NULL;
	c->map_size = 0;
}

static void free_buffers(struct vcam *c, int shrink)
{
	v4lc_vcam_unmap(c);
	if (shrink)
		(void)!ftruncate(c->fd, 0);
	c->memory = 0;
	c->nbufs = 0;
	c->qhead = c->qcount = 0;
	memset(c->bufs, 0, sizeof(c->bufs));
}

/* Size the memfd for `total` bytes of MMAP buffers and map it (busy: the
 * process maps it elsewhere, so it never shrinks). */
static int map_buffers(struct vcam *c, size_t total, int busy)
{
	struct stat st;

	if ((!busy || fstat(c->fd, &st) || (size_t)st.st_size < total) &&
	    ftruncate(c->fd, (off_t)total))
		return v4lc_vcam_fail(ENOMEM);
	c->map =
		mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_SHARED, c->fd, 0);
	if (c->map == MAP_FAILED) {
		c->map = NULL;
		if (!busy)
			(void)!ftruncate(c->fd, 0);
		return v4lc_vcam_fail(ENOMEM);
	}
	c->map_size = total;
	return 0;
}

int v4lc_vcam_reqbufs(struct vcam *c, unsigned long req, void *arg)
{
	struct v4l2_requestbuffers *r = arg;
	long page = sysconf(_SC_PAGESIZE);
	size_t stride;
	uint32_t count;
	int busy;

	(void)req;
	if (!is_capture(r->type))
		return v4lc_vcam_fail(EINVAL);
	if (r->memory != V4L2_MEMORY_MMAP && r->memory != V4L2_MEMORY_USERPTR)
		return v4lc_vcam_fail(EINVAL);
	if (c->streaming)
		return v4lc_vcam_fail(EBUSY);
	if (c->memory && c->memory != r->memory && r->count)
		return v4lc_vcam_fail(EINVAL);
	memset(r->reserved, 0, sizeof(r->reserved));
	r->capabilities =
		V4L2_BUF_CAP_SUPPORTS_MMAP | V4L2_BUF_CAP_SUPPORTS_USERPTR;
	busy = foreign_maps(c);
	free_buffers(c, !busy);
	if (r->count == 0)
		return 0;
	count = r->count > VCAM_MAX_BUFFERS ? VCAM_MAX_BUFFERS : r->count;
	if (page <= 0)
		page = 4096;
	stride = ((size_t)c->fmt.sizeimage + (size_t)page - 1) &
		 ~((size_t)page - 1);
	if (r->memory == V4L2_MEMORY_MMAP &&
	    map_buffers(c, stride * count, busy))
		return -1;
	c->stride = stride;
	c->memory = r->memory;
	c->nbufs = (int)count;
	for (uint32_t i = 0; i < count; i++)
		c->bufs[i].length = c->fmt.sizeimage;
	r->count = count;
	return 0;
}

static void fill_buf(const struct vcam *c, int i, struct v4l2_buffer *b)
{
	const struct vcam_buf *v = &c->bufs[i];

	b->index = (uint32_t)i;
	b->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	b->memory = c->memory;
	b->bytesused = v->bytesused;
	b->flags = v->flags | V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC |
		   V4L2_BUF_FLAG_TSTAMP_SRC_EOF;
	b->field = V4L2_FIELD_NONE;
	b->timestamp = v->timestamp;
	memset(&b->timecode, 0, sizeof(b->timecode));
	b->sequence = v->sequence;
	b->length = v->length;
	if (c->memory == V4L2_MEMORY_MMAP)
		b->m.offset = (uint32_t)((size_t)i * c->stride);
	else
		b->m.userptr = v->userptr;
	b->reserved2 = 0;
	b->request_fd = 0;
}

/*
 * As vb2: the memory type must be the queue's on QBUF only; QUERYBUF and
 * DQBUF ignore it and answer the queue's (qvidcap leaves it 0).
 */
static int check_buf(const struct vcam *c, const struct v4l2_buffer *b,
		     int memory_too)
{
	if (!is_capture(b->type) || !c->memory ||
	    (memory_too && b->memory != c->memory) ||
	    b->index >= (uint32_t)c->nbufs)
		return -1;
	return 0;
}

int v4lc_vcam_querybuf(struct vcam *c, unsigned long req, void *arg)
{
	struct v4l2_buffer *b = arg;

	(void)req;
	if (check_buf(c, b, 0))
		return v4lc_vcam_fail(EINVAL);
	fill_buf(c, (int)b->index, b);
	return 0;
}

int v4lc_vcam_qbuf(struct vcam *c, unsigned long req, void *arg)
{
	struct v4l2_buffer *b = arg;
	struct vcam_buf *v;

	(void)req;
	if (check_buf(c, b, 1))
		return v4lc_vcam_fail(EINVAL);
	v = &c->bufs[b->index];
	if (v->flags & V4L2_BUF_FLAG_QUEUED)
		return v4lc_vcam_fail(EINVAL);
	if (c->memory == V4L2_MEMORY_USERPTR) {
		if (!b->m.userptr || b->length < c->fmt.sizeimage)
			return v4lc_vcam_fail(EINVAL);
		v->userptr = b->m.userptr;
		v->length = b->length;
	}
	v->flags = V4L2_BUF_FLAG_QUEUED;
	v->bytesused = 0;
	c->queue[(c->qhead + c->qcount) % VCAM_MAX_BUFFERS] = (int)b->index;
	c->qcount++;
	fill_buf(c, (int)b->index, b);
	return 0;
}

static void ts_add(struct timespec *t, const struct v4l2_fract *f)
{
	long long ns = (long long)f->numerator * 1000000000LL / f->denominator;

	t->tv_nsec += ns % 1000000000LL;
	t->tv_sec += ns / 1000000000LL;
	if (t->tv_nsec >= 1000000000L) {
		t->tv_nsec -= 1000000000L;
		t->tv_sec++;
	}
}

/*
 * Wait, unlocked, until the next frame is due. 0, or -1 (EINVAL) when
 * another thread stopped streaming or emptied the queue meanwhile.
 */
static int wait_due(struct vcam *c)
{
	struct timespec due = c->next_due;

	pthread_mutex_unlock(&c->lock);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &due, NULL) ==
	       EINTR)
		;
	pthread_mutex_lock(&c->lock);
	if (!c->streaming || !c->qcount)
		return v4lc_vcam_fail(EINVAL);
	return 0;
}

/* Render frame c->sequence into buffer i: its size, or -errno. */
static int render_into(struct vcam *c, int i)
{
	struct vcam_buf *v = &c->bufs[i];
	int mmapped = c->memory == V4L2_MEMORY_MMAP;
	uint8_t *dst = mmapped ? c->map + (size_t)i * c->stride
			       : (uint8_t *)v->userptr;
	int n, w = (int)c->fmt.width, h = (int)c->fmt.height;

	if (c->still && mmapped && v->still_n > 0)
		return v->still_n;
	if (c->lens.enabled) {
		struct v4lc_vcam_optics o = { 1, 0 };

		o.blur = v4lc_vcam_lens_frame(&c->lens, c->focus, w);
		n = v4lc_vcam_render_picture(c->fmt.pixelformat, w, h,
					     c->sequence, c->flip, &o, c->scene,
					     dst, v->length);
	} else {
		n = v4lc_vcam_render_picture(c->fmt.pixelformat, w, h,
					     c->sequence, c->flip, NULL,
					     c->scene, dst, v->length);
	}
	if (c->still && mmapped && n > 0)
		v->still_n = n;
	return n;
}

/* The frame is done: the buffer's fields, the next frame's due time. */
static void complete(struct vcam *c, struct vcam_buf *v, int n)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	v->timestamp.tv_sec = now.tv_sec;
	v->timestamp.tv_usec = now.tv_nsec / 1000;
	v->sequence = c->sequence++;
	if (n < 0) {
		v->bytesused = 0;
		v->flags = V4L2_BUF_FLAG_DONE | V4L2_BUF_FLAG_ERROR;
	} else {
		v->bytesused = (uint32_t)n;
		v->flags = V4L2_BUF_FLAG_DONE;
	}
	/* The next frame is due one interval after this one (or now). */
	if (now.tv_sec > c->next_due.tv_sec ||
	    (now.tv_sec == c->next_due.tv_sec &&
	     now.tv_nsec > c->next_due.tv_nsec + 2000000L))
		c->next_due = now;
	ts_add(&c->next_due, &c->interval);
}

int v4lc_vcam_dqbuf(struct vcam *c, unsigned long req, void *arg)
{
	struct v4l2_buffer *b = arg;
	int flags = fcntl(c->fd, F_GETFL);
	int nonblock = flags >= 0 && (flags & O_NONBLOCK);
	int i, n;

	(void)req;
	if (!is_capture(b->type) || !c->memory)
		return v4lc_vcam_fail(EINVAL);
	if (!c->streaming)
		return v4lc_vcam_fail(EINVAL);
	if (!c->qcount)
		return v4lc_vcam_fail(nonblock ? EAGAIN : EINVAL);
	if (c->pace && !nonblock && wait_due(c))
		return -1;
	i = c->queue[c->qhead];
	n = render_into(c, i);
	c->qhead = (c->qhead + 1) % VCAM_MAX_BUFFERS;
	c->qcount--;
	complete(c, &c->bufs[i], n);
	fill_buf(c, i, b);
	c->bufs[i].flags = 0;
	if (c->unplug_after && ++c->delivered >= c->unplug_after) {
		c->gone = 1;
		v4lc_vcam_unplugged(c);
	}
	return 0;
}

int v4lc_vcam_streamon(struct vcam *c, unsigned long req, void *arg)
{
	(void)req;
	if (!is_capture(*(uint32_t *)arg) || !c->nbufs)
		return v4lc_vcam_fail(EINVAL);
	if (!c->streaming) {
		c->streaming = 1;
		c->sequence = 0;
		clock_gettime(CLOCK_MONOTONIC, &c->next_due);
	}
	return 0;
}

int v4lc_vcam_streamoff(struct vcam *c, unsigned long req, void *arg)
{
	(void)req;
	if (!is_capture(*(uint32_t *)arg))
		return v4lc_vcam_fail(EINVAL);
	c->streaming = 0;
	c->qhead = c->qcount = 0;
	for (int i = 0; i < c->nbufs; i++)
		c->bufs[i].flags = 0;
	return 0;
}
