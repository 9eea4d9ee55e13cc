/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * USERPTR buffers while converting. The driver's buffers stay ours (MMAP,
 * mapped here, as for the fake buffers); the application's buffers only
 * receive the converted frame on DQBUF. So a camera answers REQBUFS
 * (USERPTR) the same whatever format is set, and whether the program asks
 * before or after its S_FMT (zbarcam probes USERPTR before it; the
 * original refuses USERPTR whenever it converts or could).
 */
#include <errno.h>

#include "priv.h"

void lv2_user_view(struct lv2_dev *dev, struct v4l2_buffer *b)
{
	unsigned int i = b->index;

	b->memory = V4L2_MEMORY_USERPTR;
	b->flags &= ~V4L2_BUF_FLAG_MAPPED;
	if (i < LV2_MAX_BUFFERS && dev->user_ptr[i]) {
		b->m.userptr = dev->user_ptr[i];
		b->length = dev->user_len[i];
	} else {
		/* not queued yet: the size it needs, as the kernel says */
		b->m.userptr = 0;
		b->length = dev->dst.fmt.pix.sizeimage;
	}
}

int lv2_user_qbuf(struct lv2_dev *dev, struct v4l2_buffer *buf)
{
	struct v4l2_buffer b = {
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_MMAP,
		.index = buf->index,
	};

	/* the kernel's checks on a USERPTR buffer: too small is EINVAL */
	if (buf->memory != V4L2_MEMORY_USERPTR || buf->index >= dev->nbufs ||
	    !buf->m.userptr || buf->length < dev->dst.fmt.pix.sizeimage) {
		errno = EINVAL;
		return -1;
	}
	if (lv2_dev_ioctl(dev, VIDIOC_QBUF, &b) < 0)
		return -1;
	dev->user_ptr[b.index] = buf->m.userptr;
	dev->user_len[b.index] = buf->length;
	dev->queued |= 1u << b.index;
	*buf = b;
	lv2_user_view(dev, buf);
	return 0;
}
