/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Multi-planar adapter plugin (libv4l-mplane.so). A device that offers only
 * the multi-planar video types (VIDEO_CAPTURE_MPLANE and/or
 * VIDEO_OUTPUT_MPLANE, no single-planar VIDEO_CAPTURE/VIDEO_OUTPUT) is shown
 * to the application, and to libv4l2, as a single-planar capture/output
 * device. Written from the V4L2 API documentation.
 *
 * Translated: QUERYCAP, ENUM_FMT, TRY/S/G_FMT, S/G_PARM, REQBUFS,
 * QUERYBUF, QBUF, DQBUF, PREPARE_BUF, CREATE_BUFS, EXPBUF, STREAMON,
 * STREAMOFF. The single-planar types go to the driver as their *_MPLANE
 * counterparts; an explicit *_MPLANE type from the application is rejected
 * with EINVAL (the device looks single-planar). Other types and other
 * ioctls pass through unchanged.
 *
 * Only single-plane formats (num_planes == 1) are handled. Formats that
 * need more than one memory plane (NV12M, YUV420M, ...) are left out of
 * ENUM_FMT, and TRY_FMT/S_FMT answer EINVAL when the driver would use more
 * than one plane (S_FMT asks TRY_FMT first, so the device is not changed).
 * G_FMT on a device currently set to such a format answers EINVAL too.
 * A plane's data_offset cannot be expressed in the single-planar API: it is
 * sent as 0 and ignored on return (bytesused is passed on as it is).
 *
 * The plugin prints nothing.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/videodev2.h>

#include <libv4l-plugin.h>

#include "mplane.h"

#define CAP_MPLANE                                                             \
	(V4L2_CAP_VIDEO_CAPTURE_MPLANE | V4L2_CAP_VIDEO_OUTPUT_MPLANE)
#define CAP_SPLANE (V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_VIDEO_OUTPUT)

struct mplane {
	int fd;
	const struct libv4l_dev_ops *lower; /* NULL: plain system calls */
	void *lower_priv;
};

/* Below us: the real device, or (tests) another set of device ops. */
static const struct libv4l_dev_ops *lower_ops;

void v4lc_mplane_set_lower(const struct libv4l_dev_ops *ops)
{
	lower_ops = ops;
}

static int down(struct mplane *m, unsigned long req, void *arg)
{
	if (m->lower)
		return m->lower->ioctl(m->lower_priv, m->fd, req, arg);
	return (int)syscall(SYS_ioctl, m->fd, req, arg);
}

static int fail(int e)
{
	errno = e;
	return -1;
}

/*
 * The driver's type for an application's type: 0 when the type is not
 * ours to translate, -1 when the application may not use it.
 */
static int map_type(uint32_t type, uint32_t *out)
{
	switch (type) {
	case V4L2_BUF_TYPE_VIDEO_CAPTURE:
		*out = V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE;
		return 1;
	case V4L2_BUF_TYPE_VIDEO_OUTPUT:
		*out = V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE;
		return 1;
	case V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE:
	case V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE:
		return -1;
	default:
		*out = type;
		return 0;
	}
}

/* Formats that always take more than one memory plane. */
static int multi_plane_fourcc(uint32_t f)
{
	static const uint32_t list[] = {
		V4L2_PIX_FMT_NV12M,   V4L2_PIX_FMT_NV21M,
		V4L2_PIX_FMT_NV16M,   V4L2_PIX_FMT_NV61M,
		V4L2_PIX_FMT_NV12MT,  V4L2_PIX_FMT_NV12MT_16X16,
		V4L2_PIX_FMT_YUV420M, V4L2_PIX_FMT_YVU420M,
		V4L2_PIX_FMT_YUV422M, V4L2_PIX_FMT_YVU422M,
		V4L2_PIX_FMT_YUV444M, V4L2_PIX_FMT_YVU444M,
	};

	for (size_t i = 0; i < sizeof(list) / sizeof(list[0]); i++)
		if (list[i] == f)
			return 1;
	return 0;
}

static void *mp_init(int fd)
{
	const struct libv4l_dev_ops *lower = lower_ops;
	struct v4l2_capability cap;
	struct mplane *m = calloc(1, sizeof(*m));
	uint32_t caps;

	if (!m)
		return NULL;
	m->fd = fd;
	m->lower = lower;
	if (lower) {
		if (!lower->init || !lower->ioctl || !lower->close)
			goto decline;
		m->lower_priv = lower->init(fd);
		if (!m->lower_priv)
			goto decline;
	}
	memset(&cap, 0, sizeof(cap));
	if (down(m, VIDIOC_QUERYCAP, &cap) < 0)
		goto decline_lower;
	caps = (cap.capabilities & V4L2_CAP_DEVICE_CAPS) ? cap.device_caps
							 : cap.capabilities;
	if (!(caps & CAP_MPLANE) || (caps & CAP_SPLANE))
		goto decline_lower;
	return m;

decline_lower:
	if (lower)
		lower->close(m->lower_priv);
decline:
	free(m);
	return NULL;
}

static void mp_close(void *priv)
{
	struct mplane *m = priv;

	if (!m)
		return;
	if (m->lower)
		m->lower->close(m->lower_priv);
	free(m);
}

static uint32_t caps_single(uint32_t c)
{
	if (c & V4L2_CAP_VIDEO_CAPTURE_MPLANE)
		c |= V4L2_CAP_VIDEO_CAPTURE;
	if (c & V4L2_CAP_VIDEO_OUTPUT_MPLANE)
		c |= V4L2_CAP_VIDEO_OUTPUT;
	return c & ~(uint32_t)CAP_MPLANE;
}

static void pix_to_mp(const struct v4l2_pix_format *p,
		      struct v4l2_pix_format_mplane *mp)
{
	memset(mp, 0, sizeof(*mp));
	mp->width = p->width;
	mp->height = p->height;
	mp->pixelformat = p->pixelformat;
	mp->field = p->field;
	mp->colorspace = p->colorspace;
	mp->num_planes = 1;
	mp->plane_fmt[0].bytesperline = p->bytesperline;
	mp->plane_fmt[0].sizeimage = p->sizeimage;
	if (p->priv == V4L2_PIX_FMT_PRIV_MAGIC) {
		mp->flags = (uint8_t)p->flags;
		mp->ycbcr_enc = (uint8_t)p->ycbcr_enc;
		mp->quantization = (uint8_t)p->quantization;
		mp->xfer_func = (uint8_t)p->xfer_func;
	}
}

static void mp_to_pix(const struct v4l2_pix_format_mplane *mp,
		      struct v4l2_pix_format *p)
{
	memset(p, 0, sizeof(*p));
	p->width = mp->width;
	p->height = mp->height;
	p->pixelformat = mp->pixelformat;
	p->field = mp->field;
	p->colorspace = mp->colorspace;
	p->bytesperline = mp->plane_fmt[0].bytesperline;
	p->sizeimage = mp->plane_fmt[0].sizeimage;
	p->priv = V4L2_PIX_FMT_PRIV_MAGIC;
	p->flags = mp->flags;
	p->ycbcr_enc = mp->ycbcr_enc;
	p->quantization = mp->quantization;
	p->xfer_func = mp->xfer_func;
}

/* TRY_FMT, S_FMT, G_FMT. */
static int do_fmt(struct mplane *m, unsigned long req, struct v4l2_format *f)
{
	struct v4l2_format d;
	uint32_t t;
	int r = map_type(f->type, &t);

	if (r < 0)
		return fail(EINVAL);
	if (r == 0)
		return down(m, req, f);
	memset(&d, 0, sizeof(d));
	d.type = t;
	if (req != VIDIOC_G_FMT) {
		if (multi_plane_fourcc(f->fmt.pix.pixelformat))
			return fail(EINVAL);
		pix_to_mp(&f->fmt.pix, &d.fmt.pix_mp);
		if (req == VIDIOC_S_FMT) {
			struct v4l2_format tr = d;

			if (down(m, VIDIOC_TRY_FMT, &tr) == 0 &&
			    tr.fmt.pix_mp.num_planes != 1)
				return fail(EINVAL);
		}
	}
	if (down(m, req, &d) < 0)
		return -1;
	if (d.fmt.pix_mp.num_planes != 1)
		return fail(EINVAL);
	mp_to_pix(&d.fmt.pix_mp, &f->fmt.pix);
	return 0;
}

static int do_enum_fmt(struct mplane *m, struct v4l2_fmtdesc *fd)
{
	struct v4l2_fmtdesc d;
	uint32_t t, want = fd->index, seen = 0;
	int r = map_type(fd->type, &t);

	if (r < 0)
		return fail(EINVAL);
	if (r == 0)
		return down(m, VIDIOC_ENUM_FMT, fd);
	/* The driver's list without the multi-plane formats, renumbered. */
	for (uint32_t i = 0;; i++) {
		d = *fd;
		d.index = i;
		d.type = t;
		if (down(m, VIDIOC_ENUM_FMT, &d) < 0)
			return -1;
		if (multi_plane_fourcc(d.pixelformat))
			continue;
		if (seen++ == want)
			break;
		if (i > 4096)
			return fail(EINVAL);
	}
	d.index = want;
	d.type = fd->type;
	*fd = d;
	return 0;
}

static int do_parm(struct mplane *m, unsigned long req,
		   struct v4l2_streamparm *p)
{
	uint32_t t, orig = p->type;
	int r = map_type(p->type, &t);

	if (r < 0)
		return fail(EINVAL);
	p->type = t;
	r = down(m, req, p);
	p->type = orig;
	return r;
}

/* QUERYBUF, QBUF, DQBUF, PREPARE_BUF. */
static int do_buf(struct mplane *m, unsigned long req, struct v4l2_buffer *b)
{
	struct v4l2_plane pl;
	struct v4l2_buffer d;
	uint32_t t;
	int r = map_type(b->type, &t);

	if (r < 0)
		return fail(EINVAL);
	if (r == 0)
		return down(m, req, b);
	d = *b;
	d.type = t;
	d.length = 1;
	memset(&pl, 0, sizeof(pl));
	pl.bytesused = b->bytesused;
	pl.length = b->length;
	switch (b->memory) {
	case V4L2_MEMORY_USERPTR:
		pl.m.userptr = b->m.userptr;
		break;
	case V4L2_MEMORY_DMABUF:
		pl.m.fd = b->m.fd;
		break;
	default:
		pl.m.mem_offset = b->m.offset;
		break;
	}
	d.m.planes = &pl;
	if (down(m, req, &d) < 0)
		return -1;
	b->index = d.index;
	b->bytesused = pl.bytesused;
	b->flags = d.flags;
	b->field = d.field;
	b->timestamp = d.timestamp;
	b->timecode = d.timecode;
	b->sequence = d.sequence;
	b->memory = d.memory;
	b->length = pl.length;
	switch (d.memory) {
	case V4L2_MEMORY_USERPTR:
		b->m.userptr = pl.m.userptr;
		break;
	case V4L2_MEMORY_DMABUF:
		b->m.fd = pl.m.fd;
		break;
	default:
		b->m.offset = pl.m.mem_offset;
		break;
	}
	b->request_fd = d.request_fd;
	return 0;
}

static int do_create_bufs(struct mplane *m, struct v4l2_create_buffers *c)
{
	struct v4l2_create_buffers d;
	uint32_t t;
	int r = map_type(c->format.type, &t);

	if (r < 0)
		return fail(EINVAL);
	if (r == 0)
		return down(m, VIDIOC_CREATE_BUFS, c);
	if (multi_plane_fourcc(c->format.fmt.pix.pixelformat))
		return fail(EINVAL);
	d = *c;
	memset(&d.format, 0, sizeof(d.format));
	d.format.type = t;
	pix_to_mp(&c->format.fmt.pix, &d.format.fmt.pix_mp);
	if (down(m, VIDIOC_CREATE_BUFS, &d) < 0)
		return -1;
	c->index = d.index;
	c->count = d.count;
	c->capabilities = d.capabilities;
	c->flags = d.flags;
	mp_to_pix(&d.format.fmt.pix_mp, &c->format.fmt.pix);
	return 0;
}

/* REQBUFS, EXPBUF, STREAMON/OFF: only the type field (*type, inside arg)
 * changes. */
static int do_typed(struct mplane *m, unsigned long req, void *arg,
		    uint32_t *type)
{
	uint32_t t, orig = *type;
	int r = map_type(orig, &t);

	if (r < 0)
		return fail(EINVAL);
	*type = t;
	r = down(m, req, arg);
	*type = orig;
	return r;
}

static int mp_ioctl(void *priv, int fd, unsigned long request, void *arg)
{
	struct mplane *m = priv;
	unsigned int req = (unsigned int)request;

	(void)fd;
	switch (req) {
	case VIDIOC_QUERYCAP:
	case VIDIOC_ENUM_FMT:
	case VIDIOC_TRY_FMT:
	case VIDIOC_S_FMT:
	case VIDIOC_G_FMT:
	case VIDIOC_G_PARM:
	case VIDIOC_S_PARM:
	case VIDIOC_QUERYBUF:
	case VIDIOC_QBUF:
	case VIDIOC_DQBUF:
	case VIDIOC_PREPARE_BUF:
	case VIDIOC_CREATE_BUFS:
	case VIDIOC_REQBUFS:
	case VIDIOC_EXPBUF:
	case VIDIOC_STREAMON:
	case VIDIOC_STREAMOFF:
		if (!arg)
			return fail(EFAULT);
		break;
	default:
		return down(m, request, arg);
	}
	switch (req) {
	case VIDIOC_QUERYCAP: {
		struct v4l2_capability *cap = arg;

		if (down(m, request, arg) < 0)
			return -1;
		cap->capabilities = caps_single(cap->capabilities);
		cap->device_caps = caps_single(cap->device_caps);
		return 0;
	}
	case VIDIOC_ENUM_FMT:
		return do_enum_fmt(m, arg);
	case VIDIOC_TRY_FMT:
	case VIDIOC_S_FMT:
	case VIDIOC_G_FMT:
		return do_fmt(m, req, arg);
	case VIDIOC_G_PARM:
	case VIDIOC_S_PARM:
		return do_parm(m, req, arg);
	case VIDIOC_QUERYBUF:
	case VIDIOC_QBUF:
	case VIDIOC_DQBUF:
	case VIDIOC_PREPARE_BUF:
		return do_buf(m, req, arg);
	case VIDIOC_CREATE_BUFS:
		return do_create_bufs(m, arg);
	case VIDIOC_REQBUFS:
		return do_typed(m, req, arg,
				&((struct v4l2_requestbuffers *)arg)->type);
	case VIDIOC_EXPBUF:
		return do_typed(m, req, arg,
				&((struct v4l2_exportbuffer *)arg)->type);
	default: /* STREAMON, STREAMOFF: the argument is the type */
		return do_typed(m, req, arg, arg);
	}
}

static ssize_t mp_read(void *priv, int fd, void *buf, size_t n)
{
	struct mplane *m = priv;

	if (m->lower && m->lower->read)
		return m->lower->read(m->lower_priv, fd, buf, n);
	return syscall(SYS_read, fd, buf, n);
}

static ssize_t mp_write(void *priv, int fd, const void *buf, size_t n)
{
	struct mplane *m = priv;

	if (m->lower && m->lower->write)
		return m->lower->write(m->lower_priv, fd, buf, n);
	return syscall(SYS_write, fd, buf, n);
}

V4LC_MPLANE_EXPORT const struct libv4l_dev_ops libv4l2_plugin = {
	.init = mp_init,
	.close = mp_close,
	.ioctl = mp_ioctl,
	.read = mp_read,
	.write = mp_write,
};
