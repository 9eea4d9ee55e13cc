/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Buffers. Without conversion the application's buffers (MMAP, USERPTR,
 * DMABUF) are the driver's, passed straight through. With conversion the
 * driver's buffers are mapped here and the application sees fake buffers
 * (m.offset = 0xABCDEF00 | index) in one anonymous region; DQBUF converts
 * into them; VIDIOC_EXPBUF moves them into memfds (export.c).
 * v4l2_mmap/v4l2_munmap recognise the fake offsets and pieces.
 * USERPTR is refused whenever conversion is enabled (lv2_bufs_reqbufs).
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "priv.h"

/* A shared device's buffers are the share client's (backend.h). */
static void *dev_mmap(struct lv2_dev *dev, void *start, size_t length, int prot,
		      int flags, int64_t offset)
{
	if (dev->ops == &lv2_share_ops)
		return lv2_share_mmap(dev->priv, start, length, prot, flags,
				      offset);
	return lv2_sys_mmap(start, length, prot, flags, dev->fd, offset);
}

static void buf_init(struct v4l2_buffer *b, unsigned int index)
{
	memset(b, 0, sizeof(*b));
	b->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	b->memory = V4L2_MEMORY_MMAP;
	b->index = index;
}

int lv2_bufs_busy(struct lv2_dev *dev)
{
	if (dev->streaming || dev->queued)
		return 1;
	for (unsigned int i = 0; i < LV2_MAX_BUFFERS; i++)
		if (dev->fake_maps[i])
			return 1;
	return 0;
}

static int fake_mapped(struct lv2_dev *dev)
{
	for (unsigned int i = 0; i < LV2_MAX_BUFFERS; i++)
		if (dev->fake_maps[i])
			return 1;
	return 0;
}

void lv2_bufs_free_fake(struct lv2_dev *dev)
{
	if (!dev->fake)
		return;
	if (fake_mapped(dev))
		lv2_log_err(dev, "fd %d: buffers still mapped, leaking them",
			    dev->fd);
	else
		lv2_sys_munmap(dev->fake, dev->fake_size);
	lv2_export_close(dev);
	dev->fake = NULL;
	dev->fake_size = 0;
	dev->fake_valid = 0;
	dev->last_good = -1;
	memset(dev->fake_maps, 0, sizeof(dev->fake_maps));
}

int lv2_bufs_fake_alloc(struct lv2_dev *dev)
{
	size_t size = dev->fake_len * dev->nbufs;
	void *p;

	if (dev->fake)
		return 0;
	p = lv2_sys_mmap(NULL, size, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -1;
	/*
	 * Every frame rewrites these buffers whole (6 MB a 1080p RGB24
	 * frame): in huge pages their first touch takes a fault per 2 MB
	 * instead of per 4 kB, and the conversion misses the TLB far less
	 * (bench/results/mjshare.md: a shared camera's converting client
	 * costs about a third less). Only a hint: refused without THP.
	 */
	madvise(p, size, MADV_HUGEPAGE);
	dev->fake = p;
	dev->fake_size = size;
	return 0;
}

int lv2_bufs_release(struct lv2_dev *dev)
{
	int had = dev->mode == BUFS_CONVERT || dev->mode == BUFS_READ;

	for (unsigned int i = 0; i < LV2_MAX_BUFFERS; i++) {
		if (dev->map[i])
			lv2_sys_munmap(dev->map[i], dev->map_len[i]);
		dev->map[i] = NULL;
		dev->map_len[i] = 0;
	}
	dev->queued = 0;
	dev->nbufs = 0;
	dev->mode = BUFS_NONE;
	if (had) {
		struct v4l2_requestbuffers req = {
			.count = 0,
			.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
			.memory = V4L2_MEMORY_MMAP,
		};

		return lv2_dev_ioctl(dev, VIDIOC_REQBUFS, &req);
	}
	return 0;
}

int lv2_bufs_map_driver(struct lv2_dev *dev)
{
	for (unsigned int i = 0; i < dev->nbufs; i++) {
		struct v4l2_buffer b;
		void *p;

		buf_init(&b, i);
		if (lv2_dev_ioctl(dev, VIDIOC_QUERYBUF, &b) < 0)
			return -1;
		p = dev_mmap(dev, NULL, b.length, PROT_READ | PROT_WRITE,
			     MAP_SHARED, b.m.offset);
		if (p == MAP_FAILED) {
			lv2_log_err(dev, "mapping buffer %u: %s", i,
				    strerror(errno));
			return -1;
		}
		dev->map[i] = p;
		dev->map_len[i] = b.length;
	}
	return 0;
}

/*
 * USERPTR whenever conversion is enabled, also while the format needs
 * none: refused, as the original does. One answer for a camera whatever
 * the format and the order of the calls: zbarcam probes REQBUFS(USERPTR)
 * before its S_FMT and falls back to MMAP only on this refusal (granted,
 * it reads with the plain read(), which the driver refuses while
 * USERPTR buffers are held). With V4L2_DISABLE_CONVERSION (dev->conv
 * NULL) the driver answers.
 */
static int userptr_refused(struct lv2_dev *dev, uint32_t memory)
{
	return dev->conv && memory == V4L2_MEMORY_USERPTR;
}

/* The buffer capabilities of a REQBUFS or CREATE_BUFS answer say what
 * REQBUFS grants (v4l2-compliance -w compares them). */
static void hide_userptr(struct lv2_dev *dev, uint32_t *capabilities)
{
	if (dev->conv)
		*capabilities &= ~V4L2_BUF_CAP_SUPPORTS_USERPTR;
}

int lv2_bufs_create(struct lv2_dev *dev, struct v4l2_create_buffers *c)
{
	/* USERPTR as REQBUFS answers it; while converting or reading, the
	 * driver's buffers are ours, not the application's */
	if (userptr_refused(dev, c->memory) || dev->mode == BUFS_CONVERT ||
	    dev->mode == BUFS_READ) {
		errno = EINVAL;
		return -1;
	}
	if (lv2_dev_ioctl(dev, VIDIOC_CREATE_BUFS, c) < 0)
		return -1;
	hide_userptr(dev, &c->capabilities);
	return 0;
}

/* No conversion: the driver's buffers are the application's. */
static int reqbufs_direct(struct lv2_dev *dev, struct v4l2_requestbuffers *req)
{
	if (dev->mode == BUFS_CONVERT) {
		if (fake_mapped(dev) || dev->streaming) {
			errno = EBUSY;
			return -1;
		}
		lv2_bufs_release(dev);
		lv2_bufs_free_fake(dev);
	}
	if (lv2_dev_ioctl(dev, VIDIOC_REQBUFS, req) < 0)
		return -1;
	hide_userptr(dev, &req->capabilities);
	dev->mode = req->count ? BUFS_DIRECT : BUFS_NONE;
	return 0;
}

int lv2_bufs_reqbufs(struct lv2_dev *dev, struct v4l2_requestbuffers *req)
{
	struct v4l2_requestbuffers r;

	if (userptr_refused(dev, req->memory)) {
		errno = EINVAL;
		return -1;
	}
	lv2_read_stop(dev);
	if (!lv2_dev_needs_conversion(dev))
		return reqbufs_direct(dev, req);
	if (req->memory != V4L2_MEMORY_MMAP) {
		errno = EINVAL; /* the CPU writes a converted frame */
		return -1;
	}
	if (fake_mapped(dev) || dev->streaming) {
		errno = EBUSY;
		return -1;
	}
	if (dev->mode == BUFS_CONVERT)
		lv2_bufs_release(dev);
	lv2_bufs_free_fake(dev);
	r = *req;
	if (r.count > LV2_MAX_BUFFERS)
		r.count = LV2_MAX_BUFFERS;
	if (lv2_dev_ioctl(dev, VIDIOC_REQBUFS, &r) < 0) {
		dev->mode = BUFS_NONE;
		return -1;
	}
	hide_userptr(dev, &r.capabilities);
	dev->nbufs = r.count < LV2_MAX_BUFFERS ? r.count : LV2_MAX_BUFFERS;
	dev->fake_len = lv2_page_align(dev->dst.fmt.pix.sizeimage);
	dev->mode = dev->nbufs ? BUFS_CONVERT : BUFS_NONE;
	if (dev->nbufs && lv2_bufs_map_driver(dev) < 0) {
		int e = errno;

		lv2_bufs_release(dev);
		errno = e;
		return -1;
	}
	r.count = dev->nbufs;
	*req = r;
	return 0;
}

/* Show the fake buffer in place of the driver's. */
static void fake_view(struct lv2_dev *dev, struct v4l2_buffer *b)
{
	b->m.offset = LV2_FAKE_MAGIC | b->index;
	b->length = (uint32_t)dev->fake_len;
	b->flags &= ~V4L2_BUF_FLAG_MAPPED;
	if (b->index < LV2_MAX_BUFFERS && dev->fake_maps[b->index])
		b->flags |= V4L2_BUF_FLAG_MAPPED;
}

int lv2_bufs_querybuf(struct lv2_dev *dev, struct v4l2_buffer *buf)
{
	/* the read stream's buffers are not the program's to see */
	lv2_read_stop(dev);
	if (dev->mode != BUFS_CONVERT)
		return lv2_dev_ioctl(dev, VIDIOC_QUERYBUF, buf);
	if (buf->index >= dev->nbufs) {
		errno = EINVAL;
		return -1;
	}
	if (lv2_dev_ioctl(dev, VIDIOC_QUERYBUF, buf) < 0)
		return -1;
	fake_view(dev, buf);
	if (buf->flags & V4L2_BUF_FLAG_DONE)
		buf->bytesused = dev->dst.fmt.pix.sizeimage;
	return 0;
}

int lv2_bufs_qbuf(struct lv2_dev *dev, struct v4l2_buffer *buf)
{
	lv2_read_stop(dev);
	if (dev->mode != BUFS_CONVERT)
		return lv2_dev_ioctl(dev, VIDIOC_QBUF, buf);
	if (buf->memory != V4L2_MEMORY_MMAP || buf->index >= dev->nbufs) {
		errno = EINVAL;
		return -1;
	}
	if (lv2_dev_ioctl(dev, VIDIOC_QBUF, buf) < 0)
		return -1;
	dev->queued |= 1u << buf->index;
	fake_view(dev, buf);
	return 0;
}

/*
 * The errno of a failed DQBUF. A DQBUF waiting in the driver when the
 * device is unplugged fails with EINVAL (uvcvideo stops the queue as it
 * goes; only later calls get ENODEV): the device's answer to QUERYCAP
 * tells the two apart.
 */
static int dqbuf_errno(struct lv2_dev *dev, int e)
{
	struct v4l2_capability cap;

	if (e == EINVAL && dev->streaming &&
	    dev->ops->ioctl(dev->priv, dev->fd, VIDIOC_QUERYCAP, &cap) < 0 &&
	    errno == ENODEV)
		e = ENODEV;
	if (e == ENODEV)
		dev->gone = 1;
	return e;
}

/*
 * The driver's DQBUF. A shared device may leave the frame in the frame
 * server's slot (*view, held until frame_done): converted from there, it
 * is never copied into the buffer first.
 */
static int dequeue(struct lv2_dev *dev, struct v4l2_buffer *b,
		   const uint8_t **view)
{
	*view = NULL;
	if (dev->ops == &lv2_share_ops)
		return lv2_share_dqbuf(dev->priv, b, view);
	return dev->ops->ioctl(dev->priv, dev->fd, VIDIOC_DQBUF, b);
}

static void frame_done(struct lv2_dev *dev, const uint8_t **view)
{
	if (*view)
		lv2_share_frame_done(dev->priv);
	*view = NULL;
}

/* The frame (in buffer b, or at view) into dest. */
static int copy_or_convert(struct lv2_dev *dev, const struct v4l2_buffer *b,
			   const uint8_t *view, uint8_t *dest, size_t dest_size)
{
	const uint8_t *src = view ? view : dev->map[b->index];
	size_t len = b->bytesused ? b->bytesused : dev->map_len[b->index];

	if (len > dev->map_len[b->index])
		len = dev->map_len[b->index];
	if (!lv2_dev_needs_conversion(dev)) {
		if (len > dest_size)
			len = dest_size;
		memcpy(dest, src, len);
		return (int)len;
	}
	return v4lconvert_convert(dev->conv, &dev->src, &dev->dst,
				  (unsigned char *)src, (int)len, dest,
				  (int)(dest_size > INT32_MAX ? INT32_MAX
							      : dest_size));
}

/* Repeat the last good frame into d for buffer b (the fake buffers). */
static int repeat_last_good(struct lv2_dev *dev, struct v4l2_buffer *buf,
			    const struct v4l2_buffer *b, uint8_t *d)
{
	memcpy(d, dev->fake + (size_t)dev->last_good * dev->fake_len,
	       dev->last_good_bytes);
	dev->fake_valid |= 1u << b->index;
	dev->last_good = (int)b->index;
	*buf = *b;
	return (int)dev->last_good_bytes;
}

/*
 * Where the application sees the frame of driver buffer i: its fake
 * buffer. -1 when the buffers were released meanwhile.
 */
static int app_dest(struct lv2_dev *dev, unsigned int i, uint8_t **d,
		    size_t *ds)
{
	*d = dev->fake ? dev->fake + (size_t)i * dev->fake_len : NULL;
	*ds = dev->fake_len;
	return *d ? 0 : -1;
}

int lv2_bufs_get_frame(struct lv2_dev *dev, struct v4l2_buffer *buf,
		       uint8_t *dest, size_t dest_size, int requeue)
{
	int into_fake = dest == NULL; /* else read() */

	(void)requeue;
	if (into_fake && lv2_bufs_fake_alloc(dev) < 0)
		return -1;
	for (int tries = 0; tries < LV2_FRAME_TRIES; tries++) {
		struct v4l2_buffer b;
		const uint8_t *view;
		uint8_t *d = dest;
		size_t ds = dest_size;
		int n, r, e;

		buf_init(&b, 0);
		/* Blocking in the driver must not stall other calls. */
		lv2_dev_unlock_busy(dev);
		r = dequeue(dev, &b, &view);
		e = errno;
		lv2_dev_relock_busy(dev);
		if (r < 0) {
			e = dqbuf_errno(dev, e);
			if (!(e == EAGAIN && lv2_dev_nonblocking(dev)))
				lv2_log_err(dev, "error dequeuing buf: %s",
					    strerror(e));
			errno = e;
			return -1;
		}
		if (b.index >= dev->nbufs || !dev->map[b.index] ||
		    (into_fake && app_dest(dev, b.index, &d, &ds) < 0)) {
			/* buffers were released meanwhile */
			frame_done(dev, &view);
			errno = EINVAL;
			return -1;
		}
		dev->queued &= ~(1u << b.index);
		/* The driver says the data is damaged (uvcvideo returns every
		 * queued buffer so, empty, when its stream fails): retried
		 * as a corrupt frame, never converted from stale memory. */
		if (b.flags & V4L2_BUF_FLAG_ERROR) {
			n = -1;
			errno = EAGAIN;
		} else {
			n = copy_or_convert(dev, &b, view, d, ds);
		}
		e = errno;
		frame_done(dev, &view);
		if (n >= 0) {
			if (into_fake) {
				dev->fake_valid |= 1u << b.index;
				dev->last_good = (int)b.index;
				dev->last_good_bytes = (uint32_t)n;
			}
			*buf = b;
			return n;
		}
		if (e != EAGAIN && e != EPIPE)
			lv2_log_err(dev, "%s",
				    v4lconvert_get_error_message(dev->conv));
		if (into_fake) {
			dev->fake_valid &= ~(1u << b.index);
			if (tries == LV2_FRAME_TRIES - 1 &&
			    dev->last_good >= 0 &&
			    (dev->fake_valid & (1u << dev->last_good)))
				/* The last good frame, not an error. */
				return repeat_last_good(dev, buf, &b, d);
		}
		/* A corrupt or short frame: give it back, take the next. */
		if (lv2_dev_ioctl(dev, VIDIOC_QBUF, &b) < 0)
			return -1;
		dev->queued |= 1u << b.index;
	}
	errno = EAGAIN;
	return -1;
}

int lv2_bufs_dqbuf(struct lv2_dev *dev, struct v4l2_buffer *buf)
{
	struct v4l2_buffer b;
	int n;

	lv2_read_stop(dev);
	if (dev->mode != BUFS_CONVERT) {
		int r, e;

		lv2_dev_unlock_busy(dev);
		r = dev->ops->ioctl(dev->priv, dev->fd, VIDIOC_DQBUF, buf);
		e = errno;
		lv2_dev_relock_busy(dev);
		if (r < 0) {
			e = dqbuf_errno(dev, e);
			if (!(e == EAGAIN && lv2_dev_nonblocking(dev)))
				lv2_log_err(dev, "error dequeuing buf: %s",
					    strerror(e));
		} else if (buf->type == V4L2_BUF_TYPE_VIDEO_CAPTURE &&
			   buf->bytesused > buf->length) {
			/* a driver bug must not make the application
			 * read past its buffer */
			buf->bytesused = buf->length;
		}
		errno = e;
		return r;
	}
	/*
	 * memory is not checked: the kernel ignores it on DQBUF (and fills
	 * it in), and programs rely on that (qvidcap dequeues with memory
	 * 0). QBUF does check it, as the kernel does.
	 */
	n = lv2_bufs_get_frame(dev, &b, NULL, 0, 0);
	if (n < 0)
		return -1;
	*buf = b;
	buf->bytesused = (uint32_t)n;
	fake_view(dev, buf);
	return 0;
}

int lv2_bufs_stream(struct lv2_dev *dev, unsigned long request, void *arg)
{
	int r;

	lv2_read_stop(dev);
	r = lv2_dev_ioctl(dev, request, arg);
	if (r < 0)
		return r;
	if (request == VIDIOC_STREAMON) {
		dev->streaming = 1;
	} else {
		dev->streaming = 0;
		dev->queued = 0;
	}
	return 0;
}

/* A fake buffer (offset LV2_FAKE_MAGIC | index) of a converting device. */
static void *fake_mmap(struct lv2_dev *dev, size_t length, uint64_t off)
{
	unsigned int i = off & 0xff;

	if (dev->mode != BUFS_CONVERT || i >= dev->nbufs ||
	    length != dev->fake_len || lv2_bufs_fake_alloc(dev) < 0) {
		errno = EINVAL;
		return MAP_FAILED;
	}
	dev->fake_maps[i]++;
	return dev->fake + (size_t)i * dev->fake_len;
}

LIBV4L_PUBLIC void *v4l2_mmap(void *start, size_t length, int prot, int flags,
			      int fd, int64_t offset)
{
	struct lv2_dev *dev = lv2_dev_get(fd);
	uint64_t off = (uint64_t)offset;
	void *p;
	int e;

	if (!dev)
		return lv2_sys_mmap(start, length, prot, flags, fd, offset);
	if (!start && (off & ~(uint64_t)0xff) == LV2_FAKE_MAGIC)
		p = fake_mmap(dev, length, off);
	else
		p = dev_mmap(dev, start, length, prot, flags, offset);
	e = errno;
	lv2_dev_put(dev);
	errno = e;
	return p;
}

/* 1 if start lies in dev's fake buffers (then unmapped: r is 0 or -1). */
static int fake_munmap(struct lv2_dev *dev, uint8_t *start, size_t length,
		       int *r)
{
	size_t idx;

	if (!dev->fake || start < dev->fake ||
	    start >= dev->fake + dev->fake_size)
		return 0;
	idx = (size_t)(start - dev->fake) / dev->fake_len;
	if (start == dev->fake + idx * dev->fake_len &&
	    length == dev->fake_len && dev->fake_maps[idx]) {
		dev->fake_maps[idx]--;
		*r = 0;
	} else {
		errno = EINVAL;
		*r = -1;
	}
	return 1;
}

LIBV4L_PUBLIC int v4l2_munmap(void *start, size_t length)
{
	for (int i = 0; i < LV2_MAX_DEVICES; i++) {
		/* NULL also when this thread holds the lock: a plugin
		 * unmapping its own memory inside one of our calls. */
		struct lv2_dev *dev = lv2_dev_get_slot(i);
		int found, r = 0, e;

		if (!dev)
			continue;
		found = fake_munmap(dev, start, length, &r);
		e = errno;
		lv2_dev_put(dev);
		if (found) {
			errno = e;
			return r;
		}
	}
	return lv2_sys_munmap(start, length);
}
