/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The device table and device lifetime: v4l2_open, v4l2_fd_open, v4l2_dup,
 * v4l2_close. A call on an fd that is not in the table behaves exactly like
 * the plain system call.
 *
 * A slot's lock and condition variable live for the whole process (a
 * thread may wait for the lock of a slot whose device is being closed and
 * reopened); its fd is read without the lock, atomically, and written
 * under it, so lv2_dev_get can find a slot, lock it and check that it
 * still holds the fd. Which slots are free is guarded by table_lock.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "priv.h"

struct slot {
	pthread_mutex_t lock; /* error-checking, see table_init */
	pthread_cond_t idle;  /* busy dropped to 0 */
	int fd;               /* atomic; -1 unless the device is live */
	int used;             /* table_lock: from open to the end of close */
	int open_count;       /* lock */
	int busy;             /* lock: driver calls made without it */
	struct lv2_dev dev;
};

static struct slot slots[LV2_MAX_DEVICES] = {
	[0 ... LV2_MAX_DEVICES - 1] = {
		.fd = -1, .idle = PTHREAD_COND_INITIALIZER,
	},
};
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

/*
 * Error-checking locks: a plugin may unmap memory of its own inside a call
 * made with a device's lock held, and a preload shim routes that munmap
 * back to v4l2_munmap, which must then see EDEADLK, not hang.
 */
static void table_init(void)
{
	pthread_mutexattr_t a;

	pthread_mutexattr_init(&a);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);
	for (int i = 0; i < LV2_MAX_DEVICES; i++)
		pthread_mutex_init(&slots[i].lock, &a);
	pthread_mutexattr_destroy(&a);
}

static struct slot *slot_of(struct lv2_dev *dev)
{
	return (struct slot *)((char *)dev - offsetof(struct slot, dev));
}

static int slot_fd(const struct slot *s)
{
	return __atomic_load_n(&s->fd, __ATOMIC_ACQUIRE);
}

/* Lock slot s if it holds fd (or any live fd, for fd -1). */
static struct lv2_dev *slot_get(struct slot *s, int fd)
{
	int now = slot_fd(s);

	if (now < 0 || (fd >= 0 && now != fd))
		return NULL;
	if (pthread_mutex_lock(&s->lock) != 0)
		return NULL; /* EDEADLK: held by this thread */
	now = slot_fd(s);
	if (now < 0 || (fd >= 0 && now != fd)) {
		/* closed by another thread meanwhile */
		pthread_mutex_unlock(&s->lock);
		return NULL;
	}
	return &s->dev;
}

struct lv2_dev *lv2_dev_get(int fd)
{
	if (fd < 0)
		return NULL;
	for (int i = 0; i < LV2_MAX_DEVICES; i++) {
		struct lv2_dev *dev = slot_get(&slots[i], fd);

		if (dev)
			return dev;
	}
	return NULL;
}

struct lv2_dev *lv2_dev_get_slot(int i)
{
	return slot_get(&slots[i], -1);
}

void lv2_dev_put(struct lv2_dev *dev)
{
	pthread_mutex_unlock(&slot_of(dev)->lock);
}

void lv2_dev_unlock_busy(struct lv2_dev *dev)
{
	struct slot *s = slot_of(dev);

	s->busy++;
	pthread_mutex_unlock(&s->lock);
}

void lv2_dev_relock_busy(struct lv2_dev *dev)
{
	struct slot *s = slot_of(dev);

	pthread_mutex_lock(&s->lock);
	if (--s->busy == 0)
		pthread_cond_broadcast(&s->idle);
}

int lv2_dev_needs_conversion(struct lv2_dev *dev)
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

int lv2_dev_nonblocking(struct lv2_dev *dev)
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

/* Capture format and frame rate of a fresh device. */
static void dev_probe_format(struct lv2_dev *dev)
{
	struct v4l2_streamparm parm = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };

	memset(&dev->src, 0, sizeof(dev->src));
	dev->src.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	if (lv2_dev_ioctl(dev, VIDIOC_G_FMT, &dev->src) < 0) {
		memset(&dev->src, 0, sizeof(dev->src));
		dev->src.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	}
	dev->dst = dev->src;
	if (dev->conv && lv2_dev_ioctl(dev, VIDIOC_G_PARM, &parm) == 0 &&
	    (parm.parm.capture.capability & V4L2_CAP_TIMEPERFRAME) &&
	    parm.parm.capture.timeperframe.numerator)
		v4lconvert_set_fps(dev->conv,
				   parm.parm.capture.timeperframe.denominator /
					   parm.parm.capture.timeperframe
						   .numerator);
}

/*
 * Set up a reserved slot's device for fd: its backend, what it can do,
 * the converter and the formats. Nothing else sees the slot meanwhile
 * (its fd is not published). 0, or -1 with errno and nothing held.
 */
static int dev_setup(struct lv2_dev *dev, int fd, int v4l2_flags)
{
	struct v4l2_capability cap;
	uint32_t caps;
	int saved;

	memset(dev, 0, sizeof(*dev));
	dev->fd = fd;
	dev->flags = v4l2_flags;
	dev->last_good = -1;
	lv2_plugin_attach(dev);
	memset(&cap, 0, sizeof(cap));
	if (lv2_dev_ioctl(dev, VIDIOC_QUERYCAP, &cap) < 0)
		goto fail;
	caps = lv2_node_caps(&cap);
	dev->caps = caps;
	if (!(caps & V4L2_CAP_VIDEO_CAPTURE) ||
	    !(caps & (V4L2_CAP_STREAMING | V4L2_CAP_READWRITE))) {
		dev->passthrough = 1;
		return 0;
	}
	if (!(v4l2_flags & V4L2_DISABLE_CONVERSION)) {
		dev->conv =
			v4lconvert_create_with_dev_ops(fd, dev->priv, dev->ops);
		if (!dev->conv)
			goto fail;
	}
	dev_probe_format(dev);
	lv2_af_probe(dev);
	return 0;
fail:
	saved = errno;
	lv2_plugin_detach(dev);
	errno = saved ? saved : ENOTTY;
	return -1;
}

/* One more reference to a device already in the table: 1, or 0 if fd is
 * not there. */
static int dev_ref(int fd)
{
	struct lv2_dev *dev = lv2_dev_get(fd);

	if (!dev)
		return 0;
	slot_of(dev)->open_count++;
	lv2_dev_put(dev);
	return 1;
}

LIBV4L_PUBLIC int v4l2_fd_open(int fd, int v4l2_flags)
{
	struct slot *s = NULL;

	if (fd < 0) {
		errno = EBADF;
		return -1;
	}
	lv2_log_init();
	pthread_once(&table_once, table_init);

	pthread_mutex_lock(&table_lock);
	if (dev_ref(fd)) {
		/* Already managed: one more reference, as v4l2_dup. */
		pthread_mutex_unlock(&table_lock);
		return fd;
	}
	for (int i = 0; i < LV2_MAX_DEVICES && !s; i++)
		if (!slots[i].used)
			s = &slots[i];
	if (!s) {
		pthread_mutex_unlock(&table_lock);
		lv2_log_err(NULL, "too many devices");
		errno = EBUSY;
		return -1;
	}
	s->used = 1;
	pthread_mutex_unlock(&table_lock);

	if (dev_setup(&s->dev, fd, v4l2_flags) < 0) {
		pthread_mutex_lock(&table_lock);
		s->used = 0;
		pthread_mutex_unlock(&table_lock);
		return -1;
	}
	pthread_mutex_lock(&s->lock);
	s->open_count = 1;
	__atomic_store_n(&s->fd, fd, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&s->lock);
	return fd;
}

LIBV4L_PUBLIC int v4l2_dup(int fd)
{
	if (!dev_ref(fd))
		return (int)syscall(SYS_dup, fd);
	return fd;
}

/* Stop the stream and free everything of the device (lock held). */
static void dev_teardown(struct slot *s)
{
	struct lv2_dev *dev = &s->dev;

	lv2_read_stop(dev);
	if (dev->mode == BUFS_CONVERT || (s->busy && dev->streaming)) {
		if (dev->streaming) {
			int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;

			/* also wakes a DQBUF blocked in another thread */
			lv2_dev_ioctl(dev, VIDIOC_STREAMOFF, &type);
			dev->streaming = 0;
		}
		if (dev->mode == BUFS_CONVERT)
			lv2_bufs_release(dev);
	}
	/* another thread still in the driver: let it return first */
	while (s->busy)
		pthread_cond_wait(&s->idle, &s->lock);
	lv2_bufs_free_fake(dev);
	free(dev->read_buf);
	dev->read_buf = NULL;
	dev->read_buf_size = 0;
	free(dev->read_scratch);
	dev->read_scratch = NULL;
	dev->read_scratch_size = 0;
	lv2_af_close(dev);
	v4lconvert_destroy(dev->conv);
	dev->conv = NULL;
	lv2_plugin_detach(dev);
}

LIBV4L_PUBLIC int v4l2_close(int fd)
{
	struct lv2_dev *dev = lv2_dev_get(fd);
	struct slot *s;

	if (!dev)
		return (int)syscall(SYS_close, fd);
	s = slot_of(dev);
	if (--s->open_count > 0) {
		lv2_dev_put(dev);
		return 0;
	}
	dev_teardown(s);
	/*
	 * Out of the table before the lock is released: a call that found
	 * the device and waits for the lock sees it gone. The slot is free
	 * for another device only now.
	 */
	__atomic_store_n(&s->fd, -1, __ATOMIC_RELEASE);
	lv2_dev_put(dev);
	pthread_mutex_lock(&table_lock);
	s->used = 0;
	pthread_mutex_unlock(&table_lock);
	return (int)syscall(SYS_close, fd);
}

LIBV4L_PUBLIC ssize_t v4l2_write(int fd, const void *buffer, size_t n)
{
	struct lv2_dev *dev = lv2_dev_get(fd);
	ssize_t r;
	int e;

	if (!dev || !dev->ops->write || dev->ops == &lv2_sys_ops) {
		if (dev)
			lv2_dev_put(dev);
		return syscall(SYS_write, fd, buffer, n);
	}
	/* A plugin's write may block: made outside the lock, the device
	 * kept alive (close waits). */
	lv2_dev_unlock_busy(dev);
	r = dev->ops->write(dev->priv, fd, buffer, n);
	e = errno;
	lv2_dev_relock_busy(dev);
	lv2_dev_put(dev);
	errno = e;
	return r;
}
