/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Format, buffers and frames of a shared device: MMAP buffers in our
 * memfd, USERPTR buffers in the application's memory; DQBUF copies the
 * newest frame the server sent into the first queued buffer, resampled
 * (scale.h) when the server streams a larger size, or leaves it in the
 * server's slot for libv4l2 to convert from (lv2_share_dqbuf, backend.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "client.h"
#include "protocol/scale.h"

static int nonblocking(struct share *sh)
{
	int fl = fcntl(sh->fd, F_GETFL);

	return fl >= 0 && (fl & O_NONBLOCK);
}

int share_get_fmt(struct share *sh)
{
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };

	if (sh->fmt_valid)
		return 0;
	if (share_fwd_ioctl(sh, VIDIOC_G_FMT, &f) < 0)
		return -1;
	sh->fmt = f.fmt.pix;
	sh->fmt_valid = 1;
	return 0;
}

int share_s_fmt(struct share *sh, struct v4l2_format *f)
{
	struct fs_setfmt m = { .h.type = FS_SETFMT };

	if (f->type != V4L2_BUF_TYPE_VIDEO_CAPTURE) {
		errno = EINVAL;
		return -1;
	}
	if (share_get_fmt(sh) < 0)
		return -1;
	if (sh->nbufs && (f->fmt.pix.pixelformat != sh->fmt.pixelformat ||
			  f->fmt.pix.width != sh->fmt.width ||
			  f->fmt.pix.height != sh->fmt.height)) {
		errno = EBUSY;
		return -1;
	}
	m.pix = f->fmt.pix;
	if (share_request(sh, &m, sizeof(m), sizeof(m)) < 0)
		return -1;
	/*
	 * The server's answer stands: it alone knows the size it streams, and
	 * so which sizes it can give (scale.h's formats resampled from it, the
	 * others only at it).
	 */
	f->fmt.pix = m.pix;
	sh->fmt = m.pix;
	sh->fmt_valid = 1;
	return 0;
}

int share_reqbufs(struct share *sh, struct v4l2_requestbuffers *r)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), need;

	/*
	 * MMAP: buffers in our memfd. USERPTR: the application's memory,
	 * DQBUF copies the frame there (asked only with
	 * V4L2_DISABLE_CONVERSION: libv4l2 refuses USERPTR itself whenever
	 * it may convert, buffers.c). DMABUF: EINVAL (a frame that went
	 * through the server is no device buffer to export or import).
	 */
	if (r->type != V4L2_BUF_TYPE_VIDEO_CAPTURE ||
	    (r->memory != V4L2_MEMORY_MMAP &&
	     r->memory != V4L2_MEMORY_USERPTR)) {
		errno = EINVAL;
		return -1;
	}
	if (sh->streaming) {
		errno = EBUSY;
		return -1;
	}
	memset(r->reserved, 0, sizeof(r->reserved));
	r->capabilities =
		V4L2_BUF_CAP_SUPPORTS_MMAP | V4L2_BUF_CAP_SUPPORTS_USERPTR;
	sh->memory = r->memory;
	sh->qlen = sh->qhead = 0;
	memset(sh->queued, 0, sizeof(sh->queued));
	if (r->count == 0) {
		/* The memfd keeps its size: the application may still map it. */
		sh->nbufs = 0;
		return 0;
	}
	if (share_get_fmt(sh) < 0)
		return -1;
	if (r->count > MAX_BUFS)
		r->count = MAX_BUFS;
	sh->stride = (sh->fmt.sizeimage + page - 1) / page * page;
	need = sh->stride * r->count;
	if (r->memory == V4L2_MEMORY_MMAP && need > sh->map_size) {
		void *m;

		if (ftruncate(sh->mfd, (off_t)need) < 0)
			return -1;
		m = mmap(NULL, need, PROT_READ | PROT_WRITE, MAP_SHARED,
			 sh->mfd, 0);
		if (m == MAP_FAILED)
			return -1;
		if (sh->map)
			munmap(sh->map, sh->map_size);
		sh->map = m;
		sh->map_size = need;
	}
	sh->nbufs = r->count;
	for (unsigned i = 0; i < sh->nbufs; i++) {
		struct v4l2_buffer *b = &sh->info[i];

		memset(b, 0, sizeof(*b));
		b->index = i;
		b->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		b->memory = r->memory;
		if (r->memory == V4L2_MEMORY_MMAP)
			b->m.offset = (uint32_t)(i * sh->stride);
		b->length = sh->fmt.sizeimage;
		b->field = V4L2_FIELD_NONE;
		b->flags = V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC;
	}
	return 0;
}

static int check_buf(struct share *sh, const struct v4l2_buffer *b)
{
	if (b->type != V4L2_BUF_TYPE_VIDEO_CAPTURE || b->memory != sh->memory ||
	    b->index >= sh->nbufs) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

static void stream_stop(struct share *sh)
{
	sh->streaming = 0;
	share_drain(sh); /* frames still on their way: released */
	if (sh->have_pending)
		share_release(sh, &sh->pending);
	sh->have_pending = 0;
	sh->qlen = sh->qhead = 0;
	for (unsigned i = 0; i < MAX_BUFS; i++) {
		sh->queued[i] = 0;
		sh->info[i].flags &=
			~(V4L2_BUF_FLAG_QUEUED | V4L2_BUF_FLAG_DONE);
	}
}

/* The newest frame from the server into sh->pending (lock held). */
static int wait_frame(struct share *sh)
{
	for (;;) {
		struct pollfd p[2] = {
			{ .fd = sh->fd, .events = POLLIN },
			{ .fd = sh->sock, .events = POLLIN },
		};
		int r;

		share_drain(sh);
		if (sh->ended) {
			errno = sh->end_err ? sh->end_err : EIO;
			return -1;
		}
		if (sh->have_pending)
			return 0;
		if (nonblocking(sh)) {
			errno = EAGAIN;
			return -1;
		}
		pthread_mutex_unlock(&sh->lock);
		r = poll(p, 2, 1000);
		pthread_mutex_lock(&sh->lock);
		if (r < 0 && errno == EINTR) {
			/* As a driver's blocking DQBUF: a signal
			 * interrupts the wait. */
			return -1;
		}
		if (!sh->streaming) {
			errno = EINVAL;
			return -1;
		}
	}
}

/*
 * The pending frame where the server put it, when it needs no copying to
 * be ours: our format and layout (nothing to resample), uncompressed (a
 * compressed frame is small, and its parser then never reads memory the
 * server could still write), whole, in a slot we map. NULL otherwise.
 */
static const uint8_t *frame_in_slot(const struct share *sh)
{
	const struct fs_frame *f = &sh->pending;
	const struct v4l2_pix_format *p = &f->pix, *o = &sh->fmt;

	if (f->slot >= FS_MAX_SLOTS || !sh->slot[f->slot].map ||
	    sh->slot[f->slot].gen != f->gen ||
	    f->bytesused > sh->slot[f->slot].size ||
	    !fs_scale_supported(o->pixelformat) ||
	    p->pixelformat != o->pixelformat || p->width != o->width ||
	    p->height != o->height || p->bytesperline != o->bytesperline ||
	    f->bytesused < o->sizeimage)
		return NULL;
	return sh->slot[f->slot].map;
}

/* The pending frame into buffer idx; its bytes, or -1 (lock held). */
static long copy_frame(struct share *sh, unsigned idx)
{
	const struct slot_map *m = &sh->slot[sh->pending.slot];
	const struct v4l2_buffer *info = &sh->info[idx];

	if (!m->map || m->gen != sh->pending.gen ||
	    sh->pending.bytesused > m->size)
		return -1;
	if (sh->memory == V4L2_MEMORY_USERPTR)
		return fs_scale_frame(m->map, &sh->pending.pix,
				      sh->pending.bytesused,
				      (uint8_t *)info->m.userptr, &sh->fmt,
				      info->length);
	return fs_scale_frame(m->map, &sh->pending.pix, sh->pending.bytesused,
			      sh->map + idx * sh->stride, &sh->fmt, sh->stride);
}

int share_dqbuf(struct share *sh, struct v4l2_buffer *b, const uint8_t **view)
{
	struct v4l2_buffer *info;
	const uint8_t *in_slot;
	unsigned idx;
	long n;

	if (b->type != V4L2_BUF_TYPE_VIDEO_CAPTURE || b->memory != sh->memory ||
	    !sh->streaming) {
		errno = EINVAL;
		return -1;
	}
	if (!sh->qlen) {
		errno = nonblocking(sh) ? EAGAIN : EINVAL;
		return -1;
	}
	if (wait_frame(sh) < 0)
		return -1;
	idx = sh->q[sh->qhead];
	info = &sh->info[idx];
	in_slot = view ? frame_in_slot(sh) : NULL;
	if (in_slot) {
		/* Held until share_view_done: the server reuses no slot a
		 * client holds, and drops this client's frames meanwhile
		 * rather than wait for it. */
		share_view_done(sh);
		sh->lease = sh->pending;
		sh->leased = 1;
		*view = in_slot;
		n = sh->fmt.sizeimage;
	} else {
		n = copy_frame(sh, idx);
		share_release(sh, &sh->pending);
	}
	sh->have_pending = 0;
	sh->qhead = (sh->qhead + 1) % MAX_BUFS;
	sh->qlen--;
	sh->queued[idx] = 0;
	info->flags &= ~V4L2_BUF_FLAG_QUEUED;
	info->flags |= V4L2_BUF_FLAG_DONE | V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC |
		       V4L2_BUF_FLAG_TSTAMP_SRC_EOF;
	if (n < 0) {
		info->flags |= V4L2_BUF_FLAG_ERROR;
		info->bytesused = 0;
	} else {
		info->flags &= ~V4L2_BUF_FLAG_ERROR;
		info->bytesused = (uint32_t)n;
	}
	info->sequence = sh->pending.sequence;
	info->timestamp.tv_sec = sh->pending.ts_sec;
	info->timestamp.tv_usec = sh->pending.ts_usec;
	info->field = V4L2_FIELD_NONE;
	*b = *info;
	return 0;
}

void share_view_done(struct share *sh)
{
	if (sh->leased)
		share_release(sh, &sh->lease);
	sh->leased = 0;
}

int share_querybuf(struct share *sh, struct v4l2_buffer *b)
{
	if (check_buf(sh, b) < 0)
		return -1;
	*b = sh->info[b->index];
	return 0;
}

int share_qbuf(struct share *sh, struct v4l2_buffer *b)
{
	if (check_buf(sh, b) < 0)
		return -1;
	if (sh->queued[b->index]) {
		errno = EINVAL;
		return -1;
	}
	if (sh->memory == V4L2_MEMORY_USERPTR) {
		/* As vb2: the memory must hold a whole frame. */
		if (!b->m.userptr || b->length < sh->fmt.sizeimage) {
			errno = EINVAL;
			return -1;
		}
		sh->info[b->index].m.userptr = b->m.userptr;
		sh->info[b->index].length = b->length;
	}
	sh->queued[b->index] = 1;
	sh->q[(sh->qhead + sh->qlen) % MAX_BUFS] = b->index;
	sh->qlen++;
	sh->info[b->index].flags |= V4L2_BUF_FLAG_QUEUED;
	sh->info[b->index].flags &= ~V4L2_BUF_FLAG_DONE;
	*b = sh->info[b->index];
	return 0;
}

int share_streamon(struct share *sh, const int *type)
{
	if (*type != V4L2_BUF_TYPE_VIDEO_CAPTURE || !sh->nbufs) {
		errno = EINVAL;
		return -1;
	}
	if (sh->streaming)
		return 0;
	if (share_simple(sh, FS_STREAMON) < 0)
		return -1;
	sh->streaming = 1;
	return 0;
}

int share_streamoff(struct share *sh, const int *type)
{
	if (*type != V4L2_BUF_TYPE_VIDEO_CAPTURE) {
		errno = EINVAL;
		return -1;
	}
	if (sh->streaming)
		share_simple(sh, FS_STREAMOFF);
	stream_stop(sh);
	return 0;
}
