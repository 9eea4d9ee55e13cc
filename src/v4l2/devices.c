/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The device table and device lifetime: v4l2_open, v4l2_fd_open, v4l2_dup,
 * v4l2_close, v4l2_write. A call on an fd that is not in the table behaves
 * exactly like the plain system call.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "priv.h"

static struct v4l2_dev devices[V4L2_MAX_DEVICES] = {
	[0 ... V4L2_MAX_DEVICES - 1] = { .fd = -1 },
};
/* Serialises slot allocation and release; lookups read fd atomically. */
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;

struct v4l2_dev *v4l2_dev_find(int fd)
{
	if (fd < 0)
		return NULL;
	for (int i = 0; i < V4L2_MAX_DEVICES; i++)
		if (__atomic_load_n(&devices[i].fd, __ATOMIC_ACQUIRE) == fd)
			return &devices[i];
	return NULL;
}

void v4l2_dev_unlock_busy(struct v4l2_dev *dev)
{
	dev->busy++;
	pthread_mutex_unlock(&dev->lock);
}

void v4l2_dev_relock_busy(struct v4l2_dev *dev)
{
	pthread_mutex_lock(&dev->lock);
	if (--dev->busy == 0)
		pthread_cond_broadcast(&dev->idle);
}

struct v4l2_dev *v4l2_dev_at(int i)
{
	if (__atomic_load_n(&devices[i].fd, __ATOMIC_ACQUIRE) < 0)
		return NULL;
	return &devices[i];
}

int v4l2_dev_needs_conversion(struct v4l2_dev *dev)
{
	const struct v4l2_pix_format *s = &dev->src.fmt.pix;
	const struct v4l2_pix_format *d = &dev->dst.fmt.pix;

	if (!dev->conv || dev->passthrough)
		return 0;
	if (s->pixelformat != d->pixelformat || s->width != d->width ||
	    s->height != d->height)
		return 1;
	return v4lconvert_needs_conversion(dev->conv, &dev->src, &dev->dst);
}

int v4l2_dev_nonblocking(struct v4l2_dev *dev)
{
	long fl = syscall(SYS_fcntl, dev->fd, F_GETFL);

	return fl >= 0 && (fl & O_NONBLOCK);
}

LIBV4L_PUBLIC int v4l2_open(const char *file, int oflag, ...)
{
	mode_t mode = 0;
	int fd, saved;

	if (oflag & (O_CREAT | __O_TMPFILE)) {
		va_list ap;

		va_start(ap, oflag);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	fd = (int)syscall(SYS_openat, AT_FDCWD, file, oflag, mode);
	if (fd < 0)
		return fd;
	if (v4l2_fd_open(fd, 0) < 0) {
		saved = errno;
		syscall(SYS_close, fd);
		errno = saved;
		return -1;
	}
	return fd;
}

static void dev_reset(struct v4l2_dev *dev)
{
	int fd = dev->fd;

	memset(dev, 0, sizeof(*dev));
	dev->fd = fd;
	dev->last_good = -1;
	dev->ops = &v4l2_sys_ops;
}

/* Capture format and frame rate of a fresh device. */
static void dev_probe_format(struct v4l2_dev *dev)
{
	struct v4l2_streamparm parm = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };

	memset(&dev->src, 0, sizeof(dev->src));
	dev->src.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	if (v4l2_dev_ioctl(dev, VIDIOC_G_FMT, &dev->src) < 0) {
		memset(&dev->src, 0, sizeof(dev->src));
		dev->src.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	}
	dev->dst = dev->src;
	if (dev->conv && v4l2_dev_ioctl(dev, VIDIOC_G_PARM, &parm) == 0 &&
	    (parm.parm.capture.capability & V4L2_CAP_TIMEPERFRAME) &&
	    parm.parm.capture.timeperframe.numerator)
		v4lconvert_set_fps(dev->conv,
				   parm.parm.capture.timeperframe.denominator /
				   parm.parm.capture.timeperframe.numerator);
}

LIBV4L_PUBLIC int v4l2_fd_open(int fd, int v4l2_flags)
{
	struct v4l2_capability cap;
	struct v4l2_dev *dev = NULL;
	uint32_t caps;
	int saved;

	if (fd < 0) {
		errno = EBADF;
		return -1;
	}
	v4l2_log_init();

	pthread_mutex_lock(&table_lock);
	dev = v4l2_dev_find(fd);
	if (dev) {
		/* Already managed: one more reference, as v4l2_dup. */
		pthread_mutex_lock(&dev->lock);
		dev->open_count++;
		pthread_mutex_unlock(&dev->lock);
		pthread_mutex_unlock(&table_lock);
		return fd;
	}
	for (int i = 0; i < V4L2_MAX_DEVICES; i++) {
		if (devices[i].fd < 0 && devices[i].open_count == 0) {
			dev = &devices[i];
			break;
		}
	}
	if (!dev) {
		pthread_mutex_unlock(&table_lock);
		v4l2_log_err(NULL, "too many devices");
		errno = EBUSY;
		return -1;
	}
	/* Reserve the slot while probing (fd stays -1: not visible yet). */
	dev->open_count = -1;
	pthread_mutex_unlock(&table_lock);

	dev_reset(dev);
	dev->fd = -1;
	dev->open_count = -1;
	{
		/* Plugins and converter must see the real fd while probing. */
		struct v4l2_dev probe = *dev;

		probe.fd = fd;
		v4l2_plugin_attach(&probe);
		memset(&cap, 0, sizeof(cap));
		if (v4l2_dev_ioctl(&probe, VIDIOC_QUERYCAP, &cap) < 0) {
			saved = errno;
			v4l2_plugin_detach(&probe);
			goto fail;
		}
		caps = (cap.capabilities & V4L2_CAP_DEVICE_CAPS) ?
		       cap.device_caps : cap.capabilities;
		probe.caps = caps;
		probe.flags = v4l2_flags;
		if (!(caps & V4L2_CAP_VIDEO_CAPTURE) ||
		    !(caps & (V4L2_CAP_STREAMING | V4L2_CAP_READWRITE))) {
			probe.passthrough = 1;
		} else {
			if (!(v4l2_flags & V4L2_DISABLE_CONVERSION)) {
				probe.conv = v4lconvert_create_with_dev_ops(
					fd, probe.priv, probe.ops);
				if (!probe.conv) {
					saved = errno;
					v4l2_plugin_detach(&probe);
					goto fail;
				}
			}
			dev_probe_format(&probe);
			v4l2_af_probe(&probe);
		}
		probe.fd = -1;
		*dev = probe;
		{
			/*
			 * Error-checking: a plugin may unmap memory of its own
			 * inside a call we make with this lock held, and a
			 * preload shim routes that munmap back to v4l2_munmap,
			 * which must then see EDEADLK, not hang.
			 */
			pthread_mutexattr_t a;

			pthread_mutexattr_init(&a);
			pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);
			pthread_mutex_init(&dev->lock, &a);
			pthread_mutexattr_destroy(&a);
		}
		pthread_cond_init(&dev->idle, NULL);
	}
	dev->open_count = 1;
	__atomic_store_n(&dev->fd, fd, __ATOMIC_RELEASE);
	return fd;

fail:
	pthread_mutex_lock(&table_lock);
	dev->fd = -1;
	dev->open_count = 0;
	pthread_mutex_unlock(&table_lock);
	errno = saved ? saved : ENOTTY;
	return -1;
}

LIBV4L_PUBLIC int v4l2_dup(int fd)
{
	struct v4l2_dev *dev = v4l2_dev_find(fd);

	if (!dev)
		return (int)syscall(SYS_dup, fd);
	pthread_mutex_lock(&dev->lock);
	dev->open_count++;
	pthread_mutex_unlock(&dev->lock);
	return fd;
}

LIBV4L_PUBLIC int v4l2_close(int fd)
{
	struct v4l2_dev *dev = v4l2_dev_find(fd);
	int left;

	if (!dev)
		return (int)syscall(SYS_close, fd);
	pthread_mutex_lock(&dev->lock);
	left = --dev->open_count;
	if (left > 0) {
		pthread_mutex_unlock(&dev->lock);
		return 0;
	}
	v4l2_read_stop(dev);
	if (dev->mode == BUFS_CONVERT || (dev->busy && dev->streaming)) {
		if (dev->streaming) {
			int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;

			/* also wakes a DQBUF blocked in another thread */
			v4l2_dev_ioctl(dev, VIDIOC_STREAMOFF, &type);
			dev->streaming = 0;
		}
		if (dev->mode == BUFS_CONVERT)
			v4l2_bufs_release(dev);
	}
	/* another thread still in the driver: let it return first */
	while (dev->busy)
		pthread_cond_wait(&dev->idle, &dev->lock);
	v4l2_bufs_free_fake(dev);
	free(dev->read_buf);
	free(dev->read_scratch);
	v4l2_af_close(dev);
	v4lconvert_destroy(dev->conv);
	dev->conv = NULL;
	v4l2_plugin_detach(dev);
	/*
	 * Out of the table before the lock is released: a call that found
	 * the device and waits for the lock sees it gone (ioctl.c, read.c).
	 * The slot is reusable only once the lock is free (open_count 0).
	 */
	__atomic_store_n(&dev->fd, -1, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&dev->lock);

	pthread_mutex_lock(&table_lock);
	dev->open_count = 0;
	pthread_mutex_unlock(&table_lock);
	return (int)syscall(SYS_close, fd);
}

LIBV4L_PUBLIC ssize_t v4l2_write(int fd, const void *buffer, size_t n)
{
	struct v4l2_dev *dev = v4l2_dev_find(fd);

	if (!dev)
		return syscall(SYS_write, fd, buffer, n);
	return v4l2_dev_write(dev, buffer, n);
}
