/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * VIDIOC_EXPBUF on the fake buffers of a converting device (buffers.c).
 * The converted frame lives in our memory, not the driver's, so there is
 * no DMA-BUF to hand out; a consumer that asks for one (PipeWire's V4L2
 * node exports every buffer it gives a client in another process) gets
 * the next best thing: a file descriptor whose mapping is the buffer, a
 * memfd per fake buffer. Mapping it shows the frame the last DQBUF of that
 * buffer converted, as mapping a driver's exported buffer does. It is not
 * a DMA-BUF: a consumer that imports it into a GPU gets an error from the
 * GPU driver (doc/libv4l2-differences.md).
 *
 * The fake region stays one anonymous mapping until a buffer is exported:
 * anonymous memory can use transparent huge pages, which the conversion
 * profits from (buffers.c), shared memory mostly cannot. On the first
 * EXPBUF every fake buffer is moved into a memfd of its own, mapped at the
 * same address, its contents copied: the application's mappings of the
 * fake buffers (fake_mmap hands out addresses inside the region) keep
 * pointing at the same buffers.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "priv.h"

/* One fake buffer moved into a new memfd, in place. */
static int back_one(struct lv2_dev *dev, unsigned int i)
{
	uint8_t *at = dev->fake + (size_t)i * dev->fake_len;
	void *tmp, *p;
	int fd =
		memfd_create("libv4l2-buffer", MFD_CLOEXEC | MFD_ALLOW_SEALING);

	if (fd < 0)
		return -1;
	/* The size is fixed: a consumer mapping the whole buffer must not
	 * fault because someone truncated it. Writes stay allowed (every
	 * frame is converted into it), as the udmabuf driver requires of a
	 * memfd it would turn into a DMA-BUF. */
	if (ftruncate(fd, (off_t)dev->fake_len) < 0 ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) <
		    0)
		goto fail;
	tmp = lv2_sys_mmap(NULL, dev->fake_len, PROT_READ | PROT_WRITE,
			   MAP_SHARED, fd, 0);
	if (tmp == MAP_FAILED)
		goto fail;
	memcpy(tmp, at, dev->fake_len);
	lv2_sys_munmap(tmp, dev->fake_len);
	p = lv2_sys_mmap(at, dev->fake_len, PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_FIXED, fd, 0);
	if (p == MAP_FAILED)
		goto fail;
	dev->fake_fd[i] = fd;
	return 0;
fail:
	syscall(SYS_close, fd);
	return -1;
}

/* Every fake buffer in a memfd of its own (the region allocated first). */
static int back_all(struct lv2_dev *dev)
{
	if (dev->fake_nfd)
		return 0;
	if (lv2_bufs_fake_alloc(dev) < 0)
		return -1;
	for (unsigned int i = 0; i < dev->nbufs; i++)
		if (back_one(dev, i) < 0) {
			int e = errno;

			lv2_log_err(dev, "fd %d: backing buffer %u: %s",
				    dev->fd, i, strerror(e));
			dev->fake_nfd = i;
			lv2_export_close(dev);
			errno = e;
			return -1;
		}
	dev->fake_nfd = dev->nbufs;
	return 0;
}

void lv2_export_close(struct lv2_dev *dev)
{
	for (unsigned int i = 0; i < dev->fake_nfd; i++)
		syscall(SYS_close, dev->fake_fd[i]);
	dev->fake_nfd = 0;
}

/*
 * A new file of buffer i's memfd with the access mode and close-on-exec
 * the caller asked for, as the kernel opens an exported DMA-BUF. Opened
 * (and closed) by the system calls themselves: a preload shim wraps open()
 * and close().
 * Without /proc, a duplicate (read-write whatever was asked).
 */
static int reopen(int fd, uint32_t flags)
{
	char path[32];
	int nfd, f = (int)(flags & (O_ACCMODE | O_CLOEXEC));

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	nfd = (int)syscall(SYS_openat, AT_FDCWD, path, f);
	if (nfd >= 0 || errno != ENOENT)
		return nfd;
	return fcntl(fd, f & O_CLOEXEC ? F_DUPFD_CLOEXEC : F_DUPFD, 0);
}

int lv2_export_buf(struct lv2_dev *dev, struct v4l2_exportbuffer *e)
{
	int fd;

	/* The kernel's checks: a buffer it has, plane 0 of a single-planar
	 * format, no flag beyond these two (the queue is MMAP: USERPTR is
	 * refused while converting). */
	if (e->index >= dev->nbufs || e->plane != 0 ||
	    (e->flags & ~(uint32_t)(O_ACCMODE | O_CLOEXEC))) {
		errno = EINVAL;
		return -1;
	}
	if (back_all(dev) < 0)
		return -1;
	fd = reopen(dev->fake_fd[e->index], e->flags);
	if (fd < 0)
		return -1;
	e->fd = fd;
	memset(e->reserved, 0, sizeof(e->reserved));
	return 0;
}
