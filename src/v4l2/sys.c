/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Raw system calls. A preload shim wraps libc's open/ioctl/read/mmap and
 * forwards them here, so going through libc would recurse into it.
 */
#include <errno.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "priv.h"

long lv2_sys_ioctl(int fd, unsigned long request, void *arg)
{
	return syscall(SYS_ioctl, fd, request, arg);
}

static int ops_ioctl(void *priv, int fd, unsigned long request, void *arg)
{
	(void)priv;
	return (int)syscall(SYS_ioctl, fd, request, arg);
}

static ssize_t ops_read(void *priv, int fd, void *buf, size_t n)
{
	(void)priv;
	return syscall(SYS_read, fd, buf, n);
}

static ssize_t ops_write(void *priv, int fd, const void *buf, size_t n)
{
	(void)priv;
	return syscall(SYS_write, fd, buf, n);
}

const struct libv4l_dev_ops lv2_sys_ops = {
	.ioctl = ops_ioctl,
	.read = ops_read,
	.write = ops_write,
};

void *lv2_sys_mmap(void *start, size_t length, int prot, int flags, int fd,
		   int64_t offset)
{
#ifdef SYS_mmap2
	if (offset & 4095) {
		errno = EINVAL;
		return MAP_FAILED;
	}
	return (void *)syscall(SYS_mmap2, start, length, prot, flags, fd,
			       (unsigned long)(offset >> 12));
#else
	return (void *)syscall(SYS_mmap, start, length, prot, flags, fd,
			       (off_t)offset);
#endif
}

int lv2_sys_munmap(void *start, size_t length)
{
	return (int)syscall(SYS_munmap, start, length);
}

int lv2_dev_ioctl(struct lv2_dev *dev, unsigned long request, void *arg)
{
	int r = dev->ops->ioctl(dev->priv, dev->fd, request, arg);

	if (r < 0 && errno == ENODEV)
		dev->gone = 1;
	return r;
}

ssize_t lv2_dev_read(struct lv2_dev *dev, void *buf, size_t n)
{
	ssize_t r;

	if (dev->ops->read)
		r = dev->ops->read(dev->priv, dev->fd, buf, n);
	else
		r = syscall(SYS_read, dev->fd, buf, n);
	if (r < 0 && errno == ENODEV)
		dev->gone = 1;
	return r;
}

size_t lv2_page_align(size_t n)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	return (n + page - 1) & ~(page - 1);
}
