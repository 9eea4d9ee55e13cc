/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * read() emulation: the driver's read() when it has one and no conversion
 * is needed; otherwise mmap streaming under the hood (4 buffers), each read
 * converting one frame straight into the caller's buffer. The stream is
 * torn down when the application takes over the buffers or the format.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "priv.h"

void lv2_read_stop(struct lv2_dev *dev)
{
	if (dev->mode != BUFS_READ)
		return;
	if (dev->streaming) {
		int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;

		lv2_dev_ioctl(dev, VIDIOC_STREAMOFF, &type);
		dev->streaming = 0;
	}
	lv2_bufs_release(dev);
}

static int read_start(struct lv2_dev *dev)
{
	struct v4l2_requestbuffers req = {
		.count = LV2_READ_BUFFERS,
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_MMAP,
	};
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;

	if (!(dev->caps & V4L2_CAP_STREAMING)) {
		errno = EINVAL;
		return -1;
	}
	if (lv2_dev_ioctl(dev, VIDIOC_REQBUFS, &req) < 0)
		return -1;
	dev->mode = BUFS_READ;
	dev->nbufs = req.count < LV2_MAX_BUFFERS ? req.count : LV2_MAX_BUFFERS;
	if (!dev->nbufs) {
		errno = ENOMEM;
		goto fail;
	}
	if (lv2_bufs_map_driver(dev) < 0)
		goto fail;
	for (unsigned int i = 0; i < dev->nbufs; i++) {
		struct v4l2_buffer b = {
			.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
			.memory = V4L2_MEMORY_MMAP,
			.index = i,
		};

		if (lv2_dev_ioctl(dev, VIDIOC_QBUF, &b) < 0)
			goto fail;
		dev->queued |= 1u << i;
	}
	if (lv2_dev_ioctl(dev, VIDIOC_STREAMON, &type) < 0)
		goto fail;
	dev->streaming = 1;
	return 0;
fail : {
	int e = errno;

	lv2_bufs_release(dev);
	errno = e;
	return -1;
}
}

static uint8_t *grow(uint8_t **p, size_t *size, size_t want)
{
	if (want > *size) {
		uint8_t *n = realloc(*p, want);

		if (!n)
			return NULL;
		*p = n;
		*size = want;
	}
	return *p;
}

/* The driver's read() into a private buffer, then convert. */
static ssize_t read_convert(struct lv2_dev *dev, uint8_t *dest, size_t n)
{
	size_t frame = dev->src.fmt.pix.sizeimage;
	int e = EAGAIN;

	if (!frame)
		frame = (size_t)dev->src.fmt.pix.width *
			dev->src.fmt.pix.height * 4;
	if (!grow(&dev->read_buf, &dev->read_buf_size, frame)) {
		errno = ENOMEM;
		return -1;
	}
	for (int tries = 0; tries < LV2_FRAME_TRIES; tries++) {
		ssize_t got = lv2_dev_read(dev, dev->read_buf, frame);
		int r;

		if (got < 0)
			return -1;
		r = v4lconvert_convert(dev->conv, &dev->src, &dev->dst,
				       dev->read_buf, (int)got, dest,
				       (int)(n > INT32_MAX ? INT32_MAX : n));
		if (r >= 0)
			return r;
		e = errno;
		if (e != EAGAIN && e != EPIPE) {
			lv2_log_err(dev, "%s",
				    v4lconvert_get_error_message(dev->conv));
			return -1;
		}
	}
	errno = EAGAIN;
	(void)e;
	return -1;
}

static ssize_t read_locked(struct lv2_dev *dev, void *buffer, size_t n)
{
	int need = lv2_dev_needs_conversion(dev);
	size_t frame = dev->dst.fmt.pix.sizeimage;
	struct v4l2_buffer b;
	uint8_t *dest = buffer;
	size_t dest_size = n;
	int r;

	if (dev->passthrough || ((dev->caps & V4L2_CAP_READWRITE) && !need &&
				 dev->mode != BUFS_READ))
		return lv2_dev_read(dev, buffer, n);
	/*
	 * Buffers requested by the application (used or not) make read()
	 * EBUSY until REQBUFS 0, as the kernel answers and v4l2-compliance
	 * -w checks (testReqBufs).
	 */
	if (dev->mode == BUFS_CONVERT || dev->mode == BUFS_DIRECT) {
		errno = EBUSY;
		return -1;
	}
	if (need && n < frame) {
		if (!grow(&dev->read_scratch, &dev->read_scratch_size, frame)) {
			errno = ENOMEM;
			return -1;
		}
		dest = dev->read_scratch;
		dest_size = frame;
	}
	if (dev->mode == BUFS_NONE && read_start(dev) < 0) {
		ssize_t got;

		if (!(dev->caps & V4L2_CAP_READWRITE))
			return -1;
		got = read_convert(dev, dest, dest_size);
		if (got >= 0 && dest != buffer) {
			if ((size_t)got > n)
				got = (ssize_t)n;
			memcpy(buffer, dest, (size_t)got);
		}
		return got;
	}
	r = lv2_bufs_get_frame(dev, &b, dest, dest_size, 1);
	if (r < 0)
		return -1;
	if (lv2_dev_ioctl(dev, VIDIOC_QBUF, &b) == 0)
		dev->queued |= 1u << b.index;
	if (dest != buffer) {
		if ((size_t)r > n)
			r = (int)n;
		memcpy(buffer, dest, (size_t)r);
	}
	return r;
}

LIBV4L_PUBLIC ssize_t v4l2_read(int fd, void *buffer, size_t n)
{
	struct lv2_dev *dev = lv2_dev_get(fd);
	ssize_t r;
	int e;

	if (!dev)
		return syscall(SYS_read, fd, buffer, n);
	r = read_locked(dev, buffer, n);
	e = errno;
	lv2_dev_put(dev);
	errno = e;
	return r;
}
