/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The VIDIOCGMBUF frame area and the capture into it: VIDIOCMCAPTURE
 * selects the format of a frame slot, VIDIOCSYNC captures one converted
 * frame into the slot (a read through libv4l2 at that time, as the
 * original does). The area is anonymous memory, VIDEO_FRAMES slots of at
 * least 16 MiB each (more when the largest frame would not fit), mapped
 * by v4l1_mmap(NULL, size, ..., fd, 0) after VIDIOCGMBUF.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "priv.h"

static size_t page_align(size_t n)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	return (n + page - 1) / page * page;
}

/* dev->lock held. */
int lv1_mbuf_alloc(struct lv1_dev *dev)
{
	void *p;

	if (dev->mbuf)
		return 0;
	if (!dev->frame_stride) {
		/* The largest frame: the biggest size at 32 bits per pixel. */
		size_t big = (size_t)dev->max_w * (size_t)dev->max_h * 4;

		if (big > FRAME_MAX_STRIDE)
			big = FRAME_MAX_STRIDE; /* video_mbuf.size is an int */
		dev->frame_stride = big > FRAME_MIN_STRIDE ? page_align(big)
							   : FRAME_MIN_STRIDE;
		dev->mbuf_size = dev->frame_stride * VIDEO_FRAMES;
	}
	/* Virtual memory only until frames are written. */
	p = v4l2_mmap(NULL, dev->mbuf_size, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -1;
	dev->mbuf = p;
	dev->mbuf_maps = 0;
	return 0;
}

LIBV4L_PUBLIC void *v4l1_mmap(void *start, size_t length, int prot, int flags,
			      int fd, int64_t offset)
{
	struct lv1_dev *dev = lv1_dev_find(fd);
	void *r = MAP_FAILED;

	if (!dev)
		return v4l2_mmap(start, length, prot, flags, fd, offset);
	pthread_mutex_lock(&dev->lock);
	if (dev->mbuf_given && start == NULL && offset == 0 && length > 0 &&
	    length <= dev->mbuf_size) {
		if (lv1_mbuf_alloc(dev) == 0) {
			dev->mbuf_maps++;
			r = dev->mbuf;
		}
		pthread_mutex_unlock(&dev->lock);
		return r;
	}
	pthread_mutex_unlock(&dev->lock);
	return v4l2_mmap(start, length, prot, flags, fd, offset);
}

LIBV4L_PUBLIC int v4l1_munmap(void *start, size_t length)
{
	for (int i = 0; i < LV1_MAX_DEVICES; i++) {
		struct lv1_dev *dev = &lv1_devices[i];
		int fd = __atomic_load_n(&dev->fd, __ATOMIC_ACQUIRE);

		if (fd < 0)
			continue;
		pthread_mutex_lock(&dev->lock);
		if (dev->fd == fd && dev->mbuf && start == dev->mbuf) {
			int r = 0;

			/* Kept for the next mmap; freed at close. */
			if (length > 0 && length <= dev->mbuf_size &&
			    dev->mbuf_maps > 0) {
				dev->mbuf_maps--;
			} else {
				errno = EINVAL; /* not mapped (twice?) */
				r = -1;
			}
			pthread_mutex_unlock(&dev->lock);
			return r;
		}
		pthread_mutex_unlock(&dev->lock);
	}
	return v4l2_munmap(start, length);
}

int lv1_gmbuf(struct lv1_dev *dev, struct video_mbuf *m)
{
	if (!(dev->caps & V4L2_CAP_VIDEO_CAPTURE)) {
		errno = EINVAL;
		return -1;
	}
	if (lv1_mbuf_alloc(dev) < 0)
		return -1;
	memset(m, 0, sizeof(*m));
	m->size = (int)dev->mbuf_size;
	m->frames = VIDEO_FRAMES;
	for (int i = 0; i < VIDEO_FRAMES; i++)
		m->offsets[i] = (int)(dev->frame_stride * (size_t)i);
	dev->mbuf_given = 1;
	return 0;
}

/* Make a frame slot's format current. dev->lock held. */
static int apply_mmap_fmt(struct lv1_dev *dev, int fd,
			  const struct video_mmap *vm, struct v4l2_format *out)
{
	uint32_t fourcc = lv1_palette_fourcc((int)vm->format);

	if (!fourcc || vm->width <= 0 || vm->height <= 0 || vm->width > 65535 ||
	    vm->height > 65535) {
		errno = EINVAL;
		return -1;
	}
	/* Frames land in the program's buffer: the size must be exact. */
	if (lv1_set_fmt(fd, fourcc, (uint32_t)vm->width, (uint32_t)vm->height,
			1, out) < 0)
		return -1;
	if (out->fmt.pix.sizeimage > dev->frame_stride) {
		errno = EINVAL;
		return -1;
	}
	dev->palette = (int)vm->format;
	dev->fmt_chosen = 1;
	return 0;
}

int lv1_mcapture(struct lv1_dev *dev, int fd, const struct video_mmap *vm)
{
	struct v4l2_format f;

	if (vm->frame >= VIDEO_FRAMES) {
		errno = EINVAL;
		return -1;
	}
	if (lv1_mbuf_alloc(dev) < 0)
		return -1;
	if (apply_mmap_fmt(dev, fd, vm, &f) < 0)
		return -1;
	dev->pending[vm->frame] = *vm;
	dev->pending_mask |= 1u << vm->frame;
	return 0;
}

/* Called with dev->lock held; drops it while reading. */
int lv1_vsync(struct lv1_dev *dev, int fd, const int *framep)
{
	struct v4l2_format f;
	int frame = *framep;
	uint8_t *dst;
	ssize_t r;

	if (frame < 0 || frame >= VIDEO_FRAMES) {
		errno = EINVAL;
		return -1;
	}
	if (lv1_mbuf_alloc(dev) < 0)
		return -1;
	if (dev->pending_mask & (1u << frame)) {
		/* Another slot's MCAPTURE may have changed the format. */
		if (apply_mmap_fmt(dev, fd, &dev->pending[frame], &f) < 0)
			return -1;
		dev->pending_mask &= ~(1u << frame);
	} else if (lv1_get_fmt(fd, &f) < 0) {
		return -1;
	}
	if (f.fmt.pix.sizeimage > dev->frame_stride) {
		errno = EINVAL;
		return -1;
	}
	dst = dev->mbuf + dev->frame_stride * (size_t)frame;
	pthread_mutex_unlock(&dev->lock);
	r = v4l2_read(fd, dst, f.fmt.pix.sizeimage);
	pthread_mutex_lock(&dev->lock);
	return r < 0 ? -1 : 0;
}
