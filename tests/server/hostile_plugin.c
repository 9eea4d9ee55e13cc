/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A hostile driver for the frame server (tests/server/hostile.c): the
 * virtual camera, loaded by the server from the plugin directory, with one
 * fault chosen by LV2_HOSTILE in the server's environment (inherited from
 * the client that started it):
 *   pad_short   formats with a padded stride and a sizeimage too short
 *               for it (the frames are the camera's, unpadded);
 *   enum_endless VIDIOC_ENUM_FMT never ends, a new format at every call;
 *   fmt_changed S_FMT and G_FMT report twice the size the buffers have;
 *   bad_index   DQBUF returns a buffer index never queued, every 3rd frame;
 *   over_used   DQBUF's bytesused beyond the buffer's length;
 *   corrupt_jpeg the JPEG of every frame whose sequence is 2 modulo 5
 *               loses its first marker (no decoder takes it).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/videodev2.h>

#include "libv4l-plugin.h"
#include "vcam/vcam.h"

static unsigned enum_calls, frames;

static void pad_short(struct v4l2_pix_format *p)
{
	p->bytesperline = p->width * 2 + 4096;
	p->sizeimage = p->width * 2 * p->height;
}

static int enum_endless(struct v4l2_fmtdesc *d)
{
	uint32_t n = __atomic_fetch_add(&enum_calls, 1, __ATOMIC_RELAXED);

	memset(d->description, 0, sizeof(d->description));
	memcpy(d->description, "endless", 7);
	d->flags = 0;
	/* Never twice the same: no unknown format is ever found again. */
	d->pixelformat = v4l2_fourcc('Z', 0, 0, 0) | ((n + 1) & 0xffffff);
	return 0;
}

static void after_dqbuf(const char *fault, int fd, struct v4l2_buffer *b)
{
	unsigned n = __atomic_fetch_add(&frames, 1, __ATOMIC_RELAXED);
	static const uint8_t zero[2];

	if (!strcmp(fault, "bad_index") && n % 3 == 1)
		b->index = 40 + n % 7;
	else if (!strcmp(fault, "over_used"))
		b->bytesused = b->length + 65536;
	else if (!strcmp(fault, "corrupt_jpeg") && b->sequence % 5 == 2 &&
		 b->memory == V4L2_MEMORY_MMAP &&
		 pwrite(fd, zero, sizeof(zero), (off_t)b->m.offset) !=
			 (ssize_t)sizeof(zero))
		b->flags |= V4L2_BUF_FLAG_ERROR; /* not corrupted after all */
}

static int hostile_ioctl(void *priv, int fd, unsigned long req, void *arg)
{
	const char *fault = getenv("LV2_HOSTILE");
	int r;

	if (!fault)
		fault = "";
	if (req == VIDIOC_ENUM_FMT && !strcmp(fault, "enum_endless"))
		return enum_endless(arg);
	r = v4lc_vcam_ops.ioctl(priv, fd, req, arg);
	if (r != 0)
		return r;
	if (req == VIDIOC_G_FMT || req == VIDIOC_S_FMT ||
	    req == VIDIOC_TRY_FMT) {
		struct v4l2_pix_format *p =
			&((struct v4l2_format *)arg)->fmt.pix;

		if (!strcmp(fault, "pad_short"))
			pad_short(p);
		if (!strcmp(fault, "fmt_changed") && req != VIDIOC_TRY_FMT) {
			p->width *= 2;
			p->height *= 2;
			p->bytesperline *= 2;
			p->sizeimage *= 4;
		}
	} else if (req == VIDIOC_DQBUF) {
		after_dqbuf(fault, fd, arg);
	}
	return r;
}

__attribute__((visibility("default"))) struct libv4l_dev_ops libv4l2_plugin = {
	.ioctl = hostile_ioctl,
};

/* The camera's other operations, filled in when the module loads. */
__attribute__((constructor)) static void hostile_init(void)
{
	struct libv4l_dev_ops *o = &libv4l2_plugin;

	o->init = v4lc_vcam_ops.init;
	o->close = v4lc_vcam_ops.close;
	o->read = v4lc_vcam_ops.read;
	o->write = v4lc_vcam_ops.write;
}
