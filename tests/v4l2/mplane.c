/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The multi-planar adapter (src/plugins/mplane.c) in front of a fake device
 * that speaks only the *_MPLANE types, checked through libv4l2's public
 * v4l2_* calls (test variant of the library: lv2_test_set_plugin). The app
 * must see a single-planar capture device. With a path argument, the built
 * module libv4l-mplane.so is also dlopened and its ABI checked.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/videodev2.h>

#include <libv4l2.h>

#include "plugins/mplane.h"
#include "../common/check.h"
#include "v4l2/testhook.h"

#define MP_CAP V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE
#define SP_CAP V4L2_BUF_TYPE_VIDEO_CAPTURE

/* ---- the fake multi-planar device ---- */

#define FAKE_MAX_BUFS 8
#define FAKE_STRIDE (640 * 480 * 2 + 4096) /* bytes per buffer in the memfd */

static int fake_also_single; /* QUERYCAP also reports VIDEO_CAPTURE */
static int fake_grey_only;   /* formats: NV12M and GREY only */
static int fake_open_count;

struct fake {
	uint32_t w, h, fourcc;
	unsigned int nbufs;
	int queued[FAKE_MAX_BUFS]; /* FIFO of buffer indices */
	int nqueued;
	int streaming;
	uint32_t seq;
};

/* The device's format list: two of them take more than one plane. */
static const uint32_t fake_fmts[] = {
	V4L2_PIX_FMT_NV12M,
	V4L2_PIX_FMT_YUYV,
	V4L2_PIX_FMT_YUV420M,
	V4L2_PIX_FMT_GREY,
};

static int err(int e)
{
	errno = e;
	return -1;
}

static uint8_t pattern(uint32_t seq, size_t k)
{
	return (uint8_t)(seq * 31u + k * 7u + (k >> 8));
}

static void fake_fill_fmt(struct v4l2_pix_format_mplane *mp, uint32_t w,
			  uint32_t h, uint32_t fourcc)
{
	memset(mp, 0, sizeof(*mp));
	w = w < 16 ? 16 : w > 640 ? 640 : w & ~1u;
	h = h < 16 ? 16 : h > 480 ? 480 : h & ~1u;
	mp->width = w;
	mp->height = h;
	mp->pixelformat = fourcc;
	mp->field = V4L2_FIELD_NONE;
	mp->colorspace = V4L2_COLORSPACE_SRGB;
	switch (fourcc) {
	case V4L2_PIX_FMT_NV12M:
		mp->num_planes = 2;
		mp->plane_fmt[0].bytesperline = w;
		mp->plane_fmt[0].sizeimage = w * h;
		mp->plane_fmt[1].bytesperline = w;
		mp->plane_fmt[1].sizeimage = w * h / 2;
		break;
	case V4L2_PIX_FMT_YUV420M:
		mp->num_planes = 3;
		mp->plane_fmt[0].bytesperline = w;
		mp->plane_fmt[0].sizeimage = w * h;
		for (int i = 1; i < 3; i++) {
			mp->plane_fmt[i].bytesperline = w / 2;
			mp->plane_fmt[i].sizeimage = w * h / 4;
		}
		break;
	case V4L2_PIX_FMT_GREY:
		mp->num_planes = 1;
		mp->plane_fmt[0].bytesperline = w;
		mp->plane_fmt[0].sizeimage = w * h;
		break;
	default:
		if (fake_grey_only) {
			fake_fill_fmt(mp, w, h, V4L2_PIX_FMT_GREY);
			break;
		}
		mp->pixelformat = V4L2_PIX_FMT_YUYV;
		mp->num_planes = 1;
		mp->plane_fmt[0].bytesperline = w * 2;
		mp->plane_fmt[0].sizeimage = w * h * 2;
		break;
	}
}

static uint32_t fake_size(struct fake *f)
{
	struct v4l2_pix_format_mplane mp;

	fake_fill_fmt(&mp, f->w, f->h, f->fourcc);
	return mp.plane_fmt[0].sizeimage;
}

static void *fake_init(int fd)
{
	struct fake *f = calloc(1, sizeof(*f));

	(void)fd;
	f->w = 64;
	f->h = 48;
	f->fourcc = fake_grey_only ? V4L2_PIX_FMT_GREY : V4L2_PIX_FMT_YUYV;
	fake_open_count++;
	return f;
}

static void fake_close(void *priv)
{
	fake_open_count--;
	free(priv);
}

static int fake_buf(struct fake *f, int fd, unsigned long req,
		    struct v4l2_buffer *b)
{
	struct v4l2_plane *p = b->m.planes;
	uint32_t size = fake_size(f);

	if (b->type != MP_CAP || b->memory != V4L2_MEMORY_MMAP || !p ||
	    b->length < 1)
		return err(EINVAL);
	if (req == VIDIOC_DQBUF) {
		uint8_t *frame;
		unsigned int i;

		if (!f->streaming || !f->nqueued)
			return err(EINVAL);
		i = (unsigned int)f->queued[0];
		memmove(f->queued, f->queued + 1,
			(size_t)--f->nqueued * sizeof(int));
		frame = malloc(size);
		for (size_t k = 0; k < size; k++)
			frame[k] = pattern(f->seq, k);
		if (pwrite(fd, frame, size, (off_t)i * FAKE_STRIDE) !=
		    (ssize_t)size) {
			free(frame);
			return err(EIO);
		}
		free(frame);
		b->index = i;
		b->sequence = f->seq++;
		b->field = V4L2_FIELD_NONE;
		b->flags = V4L2_BUF_FLAG_MAPPED | V4L2_BUF_FLAG_DONE;
	} else if (b->index >= f->nbufs) {
		return err(EINVAL);
	}
	if (req == VIDIOC_PREPARE_BUF) {
		b->flags = V4L2_BUF_FLAG_MAPPED | V4L2_BUF_FLAG_PREPARED;
		b->length = 1;
		p[0].length = FAKE_STRIDE;
		p[0].m.mem_offset = b->index * FAKE_STRIDE;
		return 0;
	}
	b->length = 1;
	p[0].length = FAKE_STRIDE; /* more than the image */
	p[0].m.mem_offset = b->index * FAKE_STRIDE;
	p[0].data_offset = 0;
	if (req == VIDIOC_QBUF) {
		for (int k = 0; k < f->nqueued; k++)
			if (f->queued[k] == (int)b->index)
				return err(EINVAL);
		f->queued[f->nqueued++] = (int)b->index;
		b->flags = V4L2_BUF_FLAG_MAPPED | V4L2_BUF_FLAG_QUEUED;
	} else if (req == VIDIOC_DQBUF) {
		p[0].bytesused = size;
	} else {
		p[0].bytesused = 0;
		b->flags = V4L2_BUF_FLAG_MAPPED;
	}
	return 0;
}

static int fake_ioctl(void *priv, int fd, unsigned long request, void *arg)
{
	struct fake *f = priv;
	unsigned int req = (unsigned int)request;

	switch (req) {
	case VIDIOC_QUERYCAP: {
		struct v4l2_capability *c = arg;

		memset(c, 0, sizeof(*c));
		strcpy((char *)c->driver, "fake-mplane");
		strcpy((char *)c->card, "fake multi-planar camera");
		strcpy((char *)c->bus_info, "platform:fake-mplane");
		c->device_caps =
			V4L2_CAP_VIDEO_CAPTURE_MPLANE | V4L2_CAP_STREAMING;
		if (fake_also_single)
			c->device_caps |= V4L2_CAP_VIDEO_CAPTURE;
		c->capabilities = c->device_caps | V4L2_CAP_DEVICE_CAPS;
		return 0;
	}
	case VIDIOC_ENUM_FMT: {
		struct v4l2_fmtdesc *d = arg;
		uint32_t i = d->index;

		if (d->type != MP_CAP || i >= 4 || (fake_grey_only && i >= 2))
			return err(EINVAL);
		memset(d, 0, sizeof(*d));
		d->index = i;
		d->type = MP_CAP;
		d->pixelformat = fake_fmts[i];
		if (fake_grey_only && i == 1)
			d->pixelformat = V4L2_PIX_FMT_GREY;
		snprintf((char *)d->description, sizeof(d->description),
			 "fake %u", i);
		return 0;
	}
	case VIDIOC_G_FMT:
	case VIDIOC_S_FMT:
	case VIDIOC_TRY_FMT: {
		struct v4l2_format *fm = arg;
		struct v4l2_pix_format_mplane *mp = &fm->fmt.pix_mp;

		if (fm->type != MP_CAP)
			return err(EINVAL);
		if (req == VIDIOC_G_FMT) {
			fake_fill_fmt(mp, f->w, f->h, f->fourcc);
			return 0;
		}
		if (req == VIDIOC_S_FMT && f->nbufs)
			return err(EBUSY);
		fake_fill_fmt(mp, mp->width, mp->height, mp->pixelformat);
		if (req == VIDIOC_S_FMT) {
			f->w = mp->width;
			f->h = mp->height;
			f->fourcc = mp->pixelformat;
		}
		return 0;
	}
	case VIDIOC_ENUM_FRAMESIZES: {
		struct v4l2_frmsizeenum *s = arg;
		int known = 0;

		for (int i = 0; i < 4; i++)
			known |= fake_fmts[i] == s->pixel_format;
		if (!known || s->index > 1)
			return err(EINVAL);
		s->type = V4L2_FRMSIZE_TYPE_DISCRETE;
		s->discrete.width = s->index ? 160 : 64;
		s->discrete.height = s->index ? 120 : 48;
		return 0;
	}
	case VIDIOC_G_PARM:
	case VIDIOC_S_PARM: {
		struct v4l2_streamparm *p = arg;

		if (p->type != MP_CAP)
			return err(EINVAL);
		memset(&p->parm, 0, sizeof(p->parm));
		p->parm.capture.capability = V4L2_CAP_TIMEPERFRAME;
		p->parm.capture.timeperframe.numerator = 1;
		p->parm.capture.timeperframe.denominator = 30;
		return 0;
	}
	case VIDIOC_REQBUFS: {
		struct v4l2_requestbuffers *r = arg;

		if (r->type != MP_CAP || r->memory != V4L2_MEMORY_MMAP)
			return err(EINVAL);
		if (f->streaming)
			return err(EBUSY);
		if (r->count > FAKE_MAX_BUFS)
			r->count = FAKE_MAX_BUFS;
		f->nbufs = r->count;
		f->nqueued = 0;
		if (ftruncate(fd, (off_t)FAKE_STRIDE * FAKE_MAX_BUFS) < 0)
			return -1;
		return 0;
	}
	case VIDIOC_QUERYBUF:
	case VIDIOC_QBUF:
	case VIDIOC_DQBUF:
	case VIDIOC_PREPARE_BUF:
		return fake_buf(f, fd, req, arg);
	case VIDIOC_CREATE_BUFS: {
		struct v4l2_create_buffers *c = arg;
		struct v4l2_pix_format_mplane *mp = &c->format.fmt.pix_mp;

		/* One plane, at least as large as the current image. */
		if (c->format.type != MP_CAP || c->memory != V4L2_MEMORY_MMAP ||
		    mp->num_planes != 1 ||
		    mp->plane_fmt[0].sizeimage < fake_size(f))
			return err(EINVAL);
		if (c->count > FAKE_MAX_BUFS - f->nbufs)
			c->count = FAKE_MAX_BUFS - f->nbufs;
		c->index = f->nbufs;
		f->nbufs += c->count;
		c->capabilities = V4L2_BUF_CAP_SUPPORTS_MMAP;
		if (ftruncate(fd, (off_t)FAKE_STRIDE * FAKE_MAX_BUFS) < 0)
			return -1;
		return 0;
	}
	case VIDIOC_STREAMON:
	case VIDIOC_STREAMOFF:
		if (*(uint32_t *)arg != MP_CAP)
			return err(EINVAL);
		if (req == VIDIOC_STREAMON && !f->nbufs)
			return err(EINVAL);
		f->streaming = req == VIDIOC_STREAMON;
		if (!f->streaming)
			f->nqueued = 0;
		return 0;
	default:
		return err(ENOTTY);
	}
}

static const struct libv4l_dev_ops fake_ops = {
	.init = fake_init,
	.close = fake_close,
	.ioctl = fake_ioctl,
};

/* ---- checks ---- */

static int new_fd(void)
{
	return memfd_create("fake-mplane", MFD_CLOEXEC);
}

/* The plugin declines devices that are also single-planar. */
static void test_claim(void)
{
	int fd = new_fd();
	void *p;

	fake_also_single = 1;
	p = libv4l2_plugin.init(fd);
	CHECK(p == NULL);
	CHECK(fake_open_count == 0);
	fake_also_single = 0;
	p = libv4l2_plugin.init(fd);
	CHECK(p != NULL);
	if (p)
		libv4l2_plugin.close(p);
	CHECK(fake_open_count == 0);
	close(fd);
}

/* raw: V4L2_DISABLE_CONVERSION (ENUM_FMT and TRY_FMT reach the adapter
 * unchanged; with conversion libv4lconvert answers them). */
static void test_formats(int fd, int raw)
{
	struct v4l2_capability cap;
	struct v4l2_fmtdesc d;
	struct v4l2_format f;
	struct v4l2_streamparm parm;

	memset(&cap, 0, sizeof(cap));
	CHECK(v4l2_ioctl(fd, VIDIOC_QUERYCAP, &cap) == 0);
	CHECK(!strcmp((char *)cap.driver, "fake-mplane"));
	CHECK(cap.device_caps & V4L2_CAP_VIDEO_CAPTURE);
	CHECK(cap.capabilities & V4L2_CAP_VIDEO_CAPTURE);
	CHECK(cap.device_caps & V4L2_CAP_STREAMING);
	CHECK(!(cap.device_caps & V4L2_CAP_VIDEO_CAPTURE_MPLANE));
	CHECK(!(cap.capabilities & V4L2_CAP_VIDEO_CAPTURE_MPLANE));

	/* Only the single-plane formats, renumbered. */
	memset(&d, 0, sizeof(d));
	d.type = SP_CAP;
	if (raw) {
		CHECK(v4l2_ioctl(fd, VIDIOC_ENUM_FMT, &d) == 0);
		CHECK(d.index == 0 && d.type == SP_CAP &&
		      d.pixelformat == V4L2_PIX_FMT_YUYV);
		d.index = 1;
		CHECK(v4l2_ioctl(fd, VIDIOC_ENUM_FMT, &d) == 0);
		CHECK(d.index == 1 && d.pixelformat == V4L2_PIX_FMT_GREY);
		d.index = 2;
		errno = 0;
		CHECK(v4l2_ioctl(fd, VIDIOC_ENUM_FMT, &d) == -1 &&
		      errno == EINVAL);
	}
	memset(&d, 0, sizeof(d));
	d.type = MP_CAP;
	errno = 0;
	CHECK(v4l2_ioctl(fd, VIDIOC_ENUM_FMT, &d) == -1 && errno == EINVAL);

	memset(&f, 0, sizeof(f));
	f.type = SP_CAP;
	CHECK(v4l2_ioctl(fd, VIDIOC_G_FMT, &f) == 0);
	CHECK(f.type == SP_CAP && f.fmt.pix.width == 64 &&
	      f.fmt.pix.height == 48 &&
	      f.fmt.pix.pixelformat == V4L2_PIX_FMT_YUYV &&
	      f.fmt.pix.bytesperline == 128 &&
	      f.fmt.pix.sizeimage == 64 * 48 * 2 &&
	      f.fmt.pix.field == V4L2_FIELD_NONE &&
	      f.fmt.pix.colorspace == V4L2_COLORSPACE_SRGB);
	memset(&f, 0, sizeof(f));
	f.type = MP_CAP;
	errno = 0;
	CHECK(v4l2_ioctl(fd, VIDIOC_G_FMT, &f) == -1 && errno == EINVAL);

	/* Multi-plane formats are declined, and change nothing. */
	memset(&f, 0, sizeof(f));
	f.type = SP_CAP;
	f.fmt.pix.width = 160;
	f.fmt.pix.height = 120;
	f.fmt.pix.pixelformat = V4L2_PIX_FMT_NV12M;
	if (raw) {
		errno = 0;
		CHECK(v4l2_ioctl(fd, VIDIOC_TRY_FMT, &f) == -1 &&
		      errno == EINVAL);
		errno = 0;
		CHECK(v4l2_ioctl(fd, VIDIOC_S_FMT, &f) == -1 &&
		      errno == EINVAL);
	} else {
		/* libv4lconvert hands a format it does not know to the
		 * device (the adapter: EINVAL), or offers another one. */
		int r = v4l2_ioctl(fd, VIDIOC_TRY_FMT, &f);

		CHECK((r == -1 && errno == EINVAL) ||
		      (r == 0 && f.fmt.pix.pixelformat != V4L2_PIX_FMT_NV12M));
	}
	memset(&f, 0, sizeof(f));
	f.type = SP_CAP;
	CHECK(v4l2_ioctl(fd, VIDIOC_G_FMT, &f) == 0);
	CHECK(f.fmt.pix.width == 64 &&
	      f.fmt.pix.pixelformat == V4L2_PIX_FMT_YUYV);

	/* TRY then S of a single-plane format. */
	memset(&f, 0, sizeof(f));
	f.type = SP_CAP;
	f.fmt.pix.width = 160;
	f.fmt.pix.height = 120;
	f.fmt.pix.pixelformat = V4L2_PIX_FMT_GREY;
	CHECK(v4l2_ioctl(fd, VIDIOC_TRY_FMT, &f) == 0);
	CHECK(f.type == SP_CAP && f.fmt.pix.width == 160 &&
	      f.fmt.pix.pixelformat == V4L2_PIX_FMT_GREY &&
	      f.fmt.pix.bytesperline == 160 &&
	      f.fmt.pix.sizeimage == 160 * 120);
	memset(&f, 0, sizeof(f));
	f.type = MP_CAP;
	f.fmt.pix_mp.width = 160;
	f.fmt.pix_mp.height = 120;
	f.fmt.pix_mp.pixelformat = V4L2_PIX_FMT_YUYV;
	f.fmt.pix_mp.num_planes = 1;
	errno = 0;
	CHECK(v4l2_ioctl(fd, VIDIOC_S_FMT, &f) == -1 && errno == EINVAL);
	memset(&f, 0, sizeof(f));
	f.type = SP_CAP;
	f.fmt.pix.width = 160;
	f.fmt.pix.height = 120;
	f.fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
	CHECK(v4l2_ioctl(fd, VIDIOC_S_FMT, &f) == 0);
	CHECK(f.type == SP_CAP && f.fmt.pix.width == 160 &&
	      f.fmt.pix.height == 120 &&
	      f.fmt.pix.pixelformat == V4L2_PIX_FMT_YUYV &&
	      f.fmt.pix.bytesperline == 320 &&
	      f.fmt.pix.sizeimage == 160 * 120 * 2);
	memset(&f, 0, sizeof(f));
	f.type = SP_CAP;
	CHECK(v4l2_ioctl(fd, VIDIOC_G_FMT, &f) == 0);
	CHECK(f.fmt.pix.width == 160 && f.fmt.pix.height == 120 &&
	      f.fmt.pix.sizeimage == 160 * 120 * 2);

	memset(&parm, 0, sizeof(parm));
	parm.type = SP_CAP;
	CHECK(v4l2_ioctl(fd, VIDIOC_G_PARM, &parm) == 0);
	CHECK(parm.type == SP_CAP &&
	      parm.parm.capture.timeperframe.numerator == 1 &&
	      parm.parm.capture.timeperframe.denominator == 30);
	memset(&parm, 0, sizeof(parm));
	parm.type = MP_CAP;
	errno = 0;
	CHECK(v4l2_ioctl(fd, VIDIOC_G_PARM, &parm) == -1 && errno == EINVAL);
}

/* mmap streaming of the current format (w x h, bpp bytes per pixel, as
 * the fake delivers it: the frames are the fake's pattern). */
static void test_stream(int fd, uint32_t w, uint32_t h, uint32_t bpp)
{
	struct v4l2_requestbuffers req;
	int type = SP_CAP, mtype = MP_CAP;
	uint8_t *maps[4];
	size_t lens[4];
	size_t size = (size_t)w * h * bpp;

	memset(&req, 0, sizeof(req));
	req.count = 4;
	req.type = MP_CAP;
	req.memory = V4L2_MEMORY_MMAP;
	errno = 0;
	CHECK(v4l2_ioctl(fd, VIDIOC_REQBUFS, &req) == -1 && errno == EINVAL);
	req.type = SP_CAP;
	CHECK(v4l2_ioctl(fd, VIDIOC_REQBUFS, &req) == 0 && req.count == 4);
	CHECK(req.type == SP_CAP);
	for (unsigned int i = 0; i < 4; i++) {
		struct v4l2_buffer b;

		memset(&b, 0, sizeof(b));
		b.type = SP_CAP;
		b.memory = V4L2_MEMORY_MMAP;
		b.index = i;
		CHECK(v4l2_ioctl(fd, VIDIOC_QUERYBUF, &b) == 0);
		CHECK(b.type == SP_CAP && b.index == i && b.length >= size);
		lens[i] = b.length;
		maps[i] = v4l2_mmap(NULL, b.length, PROT_READ | PROT_WRITE,
				    MAP_SHARED, fd, b.m.offset);
		CHECK(maps[i] != MAP_FAILED);
		if (i == 0) {
			b.type = MP_CAP;
			errno = 0;
			CHECK(v4l2_ioctl(fd, VIDIOC_QBUF, &b) == -1 &&
			      errno == EINVAL);
			b.type = SP_CAP;
		}
		CHECK(v4l2_ioctl(fd, VIDIOC_QBUF, &b) == 0);
		CHECK(b.type == SP_CAP && (b.flags & V4L2_BUF_FLAG_QUEUED));
	}
	errno = 0;
	CHECK(v4l2_ioctl(fd, VIDIOC_STREAMON, &mtype) == -1 && errno == EINVAL);
	CHECK(v4l2_ioctl(fd, VIDIOC_STREAMON, &type) == 0);
	for (uint32_t k = 0; k < 6; k++) {
		struct v4l2_buffer b;
		int bad = 0;

		memset(&b, 0, sizeof(b));
		b.type = SP_CAP;
		b.memory = V4L2_MEMORY_MMAP;
		CHECK(v4l2_ioctl(fd, VIDIOC_DQBUF, &b) == 0);
		CHECK(b.type == SP_CAP && b.index == k % 4);
		CHECK(b.sequence == k);
		CHECK(b.bytesused == size);
		if (b.index < 4 && b.bytesused == size)
			for (size_t i = 0; i < size && !bad; i++)
				bad = maps[b.index][i] != pattern(k, i);
		CHECK(!bad);
		CHECK(v4l2_ioctl(fd, VIDIOC_QBUF, &b) == 0);
	}
	{
		struct v4l2_buffer b;

		memset(&b, 0, sizeof(b));
		b.type = MP_CAP;
		b.memory = V4L2_MEMORY_MMAP;
		errno = 0;
		CHECK(v4l2_ioctl(fd, VIDIOC_DQBUF, &b) == -1 &&
		      errno == EINVAL);
	}
	errno = 0;
	CHECK(v4l2_ioctl(fd, VIDIOC_STREAMOFF, &mtype) == -1 &&
	      errno == EINVAL);
	CHECK(v4l2_ioctl(fd, VIDIOC_STREAMOFF, &type) == 0);
	for (int i = 0; i < 4; i++)
		CHECK(v4l2_munmap(maps[i], lens[i]) == 0);
	req.count = 0;
	CHECK(v4l2_ioctl(fd, VIDIOC_REQBUFS, &req) == 0);
}

/* CREATE_BUFS and PREPARE_BUF (no conversion: the driver's buffers). */
static void test_create(int fd)
{
	struct v4l2_requestbuffers req;
	struct v4l2_create_buffers c;
	struct v4l2_buffer b;
	struct v4l2_format g;

	memset(&req, 0, sizeof(req));
	req.count = 2;
	req.type = SP_CAP;
	req.memory = V4L2_MEMORY_MMAP;
	CHECK(v4l2_ioctl(fd, VIDIOC_REQBUFS, &req) == 0 && req.count == 2);
	memset(&g, 0, sizeof(g));
	g.type = SP_CAP;
	CHECK(v4l2_ioctl(fd, VIDIOC_G_FMT, &g) == 0);

	memset(&c, 0, sizeof(c));
	c.count = 2;
	c.memory = V4L2_MEMORY_MMAP;
	c.format = g;
	c.format.type = MP_CAP;
	errno = 0;
	CHECK(v4l2_ioctl(fd, VIDIOC_CREATE_BUFS, &c) == -1 && errno == EINVAL);
	c.format = g;
	c.format.fmt.pix.pixelformat = V4L2_PIX_FMT_NV12M;
	errno = 0;
	CHECK(v4l2_ioctl(fd, VIDIOC_CREATE_BUFS, &c) == -1 && errno == EINVAL);
	/* Too small for the current format: the fake says EINVAL, so the
	 * size went down as the plane's sizeimage. */
	c.format = g;
	c.format.fmt.pix.sizeimage = g.fmt.pix.sizeimage - 1;
	errno = 0;
	CHECK(v4l2_ioctl(fd, VIDIOC_CREATE_BUFS, &c) == -1 && errno == EINVAL);
	c.format = g;
	CHECK(v4l2_ioctl(fd, VIDIOC_CREATE_BUFS, &c) == 0);
	CHECK(c.index == 2 && c.count == 2 &&
	      (c.capabilities & V4L2_BUF_CAP_SUPPORTS_MMAP));
	CHECK(c.format.type == SP_CAP &&
	      c.format.fmt.pix.pixelformat == g.fmt.pix.pixelformat &&
	      c.format.fmt.pix.sizeimage == g.fmt.pix.sizeimage);

	memset(&b, 0, sizeof(b));
	b.type = MP_CAP;
	b.memory = V4L2_MEMORY_MMAP;
	b.index = 3;
	errno = 0;
	CHECK(v4l2_ioctl(fd, VIDIOC_PREPARE_BUF, &b) == -1 && errno == EINVAL);
	b.type = SP_CAP;
	CHECK(v4l2_ioctl(fd, VIDIOC_PREPARE_BUF, &b) == 0);
	CHECK(b.type == SP_CAP && b.index == 3 &&
	      (b.flags & V4L2_BUF_FLAG_PREPARED) && b.length == FAKE_STRIDE &&
	      b.m.offset == 3 * FAKE_STRIDE);
	b.index = 4;
	errno = 0;
	CHECK(v4l2_ioctl(fd, VIDIOC_PREPARE_BUF, &b) == -1 && errno == EINVAL);
	req.count = 0;
	CHECK(v4l2_ioctl(fd, VIDIOC_REQBUFS, &req) == 0);
}

/* With conversion on: libv4lconvert sees the device through the adapter. */
static void test_convert(int fd)
{
	struct v4l2_fmtdesc d;
	struct v4l2_format f;
	struct v4l2_requestbuffers req;
	int type = SP_CAP, seen_rgb = 0, seen_grey = 0;
	uint8_t *map;
	size_t len;

	memset(&d, 0, sizeof(d));
	d.type = SP_CAP;
	for (d.index = 0; v4l2_ioctl(fd, VIDIOC_ENUM_FMT, &d) == 0; d.index++) {
		CHECK(d.pixelformat != V4L2_PIX_FMT_NV12M &&
		      d.pixelformat != V4L2_PIX_FMT_YUV420M);
		seen_rgb |= d.pixelformat == V4L2_PIX_FMT_RGB24;
		seen_grey |= d.pixelformat == V4L2_PIX_FMT_GREY;
	}
	CHECK(seen_rgb && seen_grey);

	memset(&f, 0, sizeof(f));
	f.type = SP_CAP;
	f.fmt.pix.width = 64;
	f.fmt.pix.height = 48;
	f.fmt.pix.pixelformat = V4L2_PIX_FMT_RGB24;
	CHECK(v4l2_ioctl(fd, VIDIOC_S_FMT, &f) == 0);
	CHECK(f.fmt.pix.pixelformat == V4L2_PIX_FMT_RGB24 &&
	      f.fmt.pix.width == 64 && f.fmt.pix.height == 48);

	memset(&req, 0, sizeof(req));
	req.count = 2;
	req.type = SP_CAP;
	req.memory = V4L2_MEMORY_MMAP;
	CHECK(v4l2_ioctl(fd, VIDIOC_REQBUFS, &req) == 0 && req.count >= 1);
	{
		struct v4l2_buffer b;

		memset(&b, 0, sizeof(b));
		b.type = SP_CAP;
		b.memory = V4L2_MEMORY_MMAP;
		CHECK(v4l2_ioctl(fd, VIDIOC_QUERYBUF, &b) == 0);
		len = b.length;
		CHECK(len >= 64 * 48 * 3);
		map = v4l2_mmap(NULL, len, PROT_READ, MAP_SHARED, fd,
				b.m.offset);
		CHECK(map != MAP_FAILED);
		CHECK(v4l2_ioctl(fd, VIDIOC_QBUF, &b) == 0);
		CHECK(v4l2_ioctl(fd, VIDIOC_STREAMON, &type) == 0);
		memset(&b, 0, sizeof(b));
		b.type = SP_CAP;
		b.memory = V4L2_MEMORY_MMAP;
		CHECK(v4l2_ioctl(fd, VIDIOC_DQBUF, &b) == 0);
		CHECK(b.index == 0 && b.bytesused == 64 * 48 * 3);
		if (map != MAP_FAILED && b.bytesused == 64 * 48 * 3) {
			int bad = 0;

			for (size_t i = 0; i < 64 * 48 && !bad; i++) {
				uint8_t y = pattern(b.sequence, i);

				bad = map[3 * i] != y || map[3 * i + 1] != y ||
				      map[3 * i + 2] != y;
			}
			CHECK(!bad);
		}
		CHECK(v4l2_ioctl(fd, VIDIOC_STREAMOFF, &type) == 0);
		if (map != MAP_FAILED)
			CHECK(v4l2_munmap(map, len) == 0);
	}
}

/* The installable module: one exported symbol, the plugin ABI. */
static void test_module(const char *path)
{
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	const struct libv4l_dev_ops *ops;
	int fd;

	CHECK(h != NULL);
	if (!h) {
		printf("dlopen: %s\n", dlerror());
		return;
	}
	ops = dlsym(h, "libv4l2_plugin");
	CHECK(ops != NULL);
	CHECK(dlsym(h, "v4lc_mplane_set_lower") == NULL);
	if (ops) {
		CHECK(ops->init && ops->close && ops->ioctl);
		CHECK(!ops->reserved1 && !ops->reserved7);
		/* Not a V4L2 device (QUERYCAP fails): declined. */
		fd = new_fd();
		CHECK(ops->init(fd) == NULL);
		close(fd);
	}
	dlclose(h);
}

int main(int argc, char **argv)
{
	int fd;

	v4lc_mplane_set_lower(&fake_ops);
	test_claim();

	lv2_test_set_plugin(&libv4l2_plugin);
	fd = new_fd();
	CHECK(fd >= 0 && v4l2_fd_open(fd, V4L2_DISABLE_CONVERSION) == fd);
	test_formats(fd, 1);
	test_stream(fd, 160, 120, 2);
	test_create(fd);
	CHECK(v4l2_close(fd) == 0);
	CHECK(fake_open_count == 0);

	fd = new_fd();
	CHECK(fd >= 0 && v4l2_fd_open(fd, 0) == fd);
	test_formats(fd, 0);
	test_stream(fd, 160, 120, 2);
	CHECK(v4l2_close(fd) == 0);
	CHECK(fake_open_count == 0);

	/* A GREY-only device: RGB24 is made from GREY (R = G = B = Y). */
	fake_grey_only = 1;
	fd = new_fd();
	CHECK(fd >= 0 && v4l2_fd_open(fd, 0) == fd);
	test_convert(fd);
	CHECK(v4l2_close(fd) == 0);
	CHECK(fake_open_count == 0);

	if (argc > 1)
		test_module(argv[1]);
	printf("%s\n", failures ? "FAILED" : "ok");
	return failures != 0;
}
