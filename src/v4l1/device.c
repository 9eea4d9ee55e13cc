/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libv4l1's device table: a device is managed when libv4l2 accepts it,
 * with its V4L1 state (priv.h) from v4l1_open to the last v4l1_close.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "priv.h"

struct lv1_dev lv1_devices[LV1_MAX_DEVICES] = {
	[0 ... LV1_MAX_DEVICES - 1] = { .fd = -1 },
};
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;

struct lv1_dev *lv1_dev_find(int fd)
{
	if (fd < 0)
		return NULL;
	for (int i = 0; i < LV1_MAX_DEVICES; i++)
		if (__atomic_load_n(&lv1_devices[i].fd, __ATOMIC_ACQUIRE) == fd)
			return &lv1_devices[i];
	return NULL;
}

LIBV4L_PUBLIC int v4l1_open(const char *file, int oflag, ...)
{
	struct v4l2_capability cap;
	struct v4l2_format f;
	struct lv1_dev *dev = NULL;
	mode_t mode = 0;
	int fd;

	if ((oflag & O_CREAT) || (oflag & __O_TMPFILE) == __O_TMPFILE) {
		va_list ap;

		va_start(ap, oflag);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	/* The raw system call: the preload shim's open() must not recurse. */
	fd = (int)syscall(SYS_openat, AT_FDCWD, file, oflag, mode);
	if (fd < 0)
		return -1;
	lv1_log_init();

	/*
	 * libv4l2 takes only devices that answer VIDIOC_QUERYCAP: anything
	 * else (a real V4L1 driver, a plain file) stays a plain fd.
	 */
	if (v4l2_fd_open(fd, 0) != fd)
		return fd;
	memset(&cap, 0, sizeof(cap));
	if (v4l2_ioctl(fd, VIDIOC_QUERYCAP, &cap) < 0)
		memset(&cap, 0, sizeof(cap)); /* libv4l2 had an answer */

	pthread_mutex_lock(&table_lock);
	for (int i = 0; i < LV1_MAX_DEVICES; i++) {
		if (lv1_devices[i].fd < 0 && lv1_devices[i].open_count == 0) {
			dev = &lv1_devices[i];
			break;
		}
	}
	if (!dev) {
		pthread_mutex_unlock(&table_lock);
		v4l2_close(fd);
		errno = EBUSY;
		return -1;
	}
	dev->open_count = -1; /* reserved while probing */
	pthread_mutex_unlock(&table_lock);

	memset((char *)dev + sizeof(dev->fd), 0,
	       sizeof(*dev) - sizeof(dev->fd));
	dev->open_count = -1;
	pthread_mutex_init(&dev->lock, NULL);
	dev->caps = (cap.capabilities & V4L2_CAP_DEVICE_CAPS)
			    ? cap.device_caps
			    : cap.capabilities;
	if (dev->caps & V4L2_CAP_VIDEO_CAPTURE) {
		lv1_probe_sizes(dev, fd);
		if (lv1_get_fmt(fd, &f) == 0)
			dev->palette =
				lv1_fourcc_palette(f.fmt.pix.pixelformat);
	}
	dev->open_count = 1;
	__atomic_store_n(&dev->fd, fd, __ATOMIC_RELEASE);
	return fd;
}

LIBV4L_PUBLIC int v4l1_dup(int fd)
{
	struct lv1_dev *dev = lv1_dev_find(fd);

	if (!dev)
		return v4l2_dup(fd);
	pthread_mutex_lock(&dev->lock);
	dev->open_count++;
	pthread_mutex_unlock(&dev->lock);
	return v4l2_dup(fd);
}

LIBV4L_PUBLIC int v4l1_close(int fd)
{
	struct lv1_dev *dev = lv1_dev_find(fd);
	int left;

	if (!dev)
		return v4l2_close(fd);
	pthread_mutex_lock(&dev->lock);
	left = --dev->open_count;
	if (left == 0 && dev->mbuf) {
		/*
		 * Still mapped by the program: leave the memory to it (its
		 * munmap then reaches the real munmap); else free it.
		 */
		if (dev->mbuf_maps == 0)
			v4l2_munmap(dev->mbuf, dev->mbuf_size);
		dev->mbuf = NULL;
	}
	pthread_mutex_unlock(&dev->lock);
	if (left == 0) {
		pthread_mutex_lock(&table_lock);
		__atomic_store_n(&dev->fd, -1, __ATOMIC_RELEASE);
		pthread_mutex_destroy(&dev->lock);
		dev->open_count = 0;
		pthread_mutex_unlock(&table_lock);
	}
	return v4l2_close(fd);
}

LIBV4L_PUBLIC ssize_t v4l1_read(int fd, void *buffer, size_t n)
{
	struct lv1_dev *dev = lv1_dev_find(fd);

	if (dev && !dev->palette && !dev->fmt_chosen) {
		/* As VIDIOCGPICT: never hand a V4L1 program a format it
		 * has no name for (JPEG, Bayer...) unasked. */
		pthread_mutex_lock(&dev->lock);
		lv1_current_palette(dev, fd, 1);
		pthread_mutex_unlock(&dev->lock);
	}
	return v4l2_read(fd, buffer, n);
}
