/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The virtual camera's device operations (see vcam.h): claiming a memfd
 * by its name, QUERYCAP and the one input, and the dispatch of every
 * other ioctl to the camera's parts (priv.h).
 */
#include "vcam/vcam.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "vcam/priv.h"

int v4lc_vcam_fail(int err)
{
	errno = err;
	return -1;
}

/* The spec in the memfd's name, into buf: NULL when fd is no camera. */
static char *camera_spec(int fd, char *buf, size_t size)
{
	static const char want[] = "/memfd:" V4LC_VCAM_PREFIX;
	char path[64], *spec, *del;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, buf, size - 1);
	if (n < (ssize_t)sizeof(want) - 1)
		return NULL;
	buf[n] = '\0';
	if (strncmp(buf, want, sizeof(want) - 1))
		return NULL;
	spec = buf + sizeof(want) - 1;
	if (*spec == ':')
		spec++;
	else if (*spec != '\0' && *spec != ' ')
		return NULL;
	del = strstr(spec, " (deleted)");
	if (del)
		*del = '\0';
	return spec;
}

void *v4lc_vcam_init(int fd)
{
	char link[512], *spec = camera_spec(fd, link, sizeof(link));
	struct vcam *c;

	if (!spec)
		return NULL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->fd = fd;
	snprintf(c->spec, sizeof(c->spec), "%.*s", (int)sizeof(c->spec) - 1,
		 spec);
	if (v4lc_vcam_absent(c->spec)) {
		/* Unplugged and not back (replug.c): no camera here. */
		free(c);
		errno = ENODEV;
		return NULL;
	}
	if (v4lc_vcam_parse_spec(c, spec)) {
		free(c);
		return NULL;
	}
	pthread_mutex_init(&c->lock, NULL);
	c->fmt.pixelformat = c->formats[0]->fourcc;
	v4lc_vcam_fix_format(c, &c->fmt);
	c->interval = v4lc_vcam_intervals[0];
	c->brightness = 128;
	c->focus = 512;
	c->lens.pos = c->focus;
	return c;
}

void v4lc_vcam_close(void *priv)
{
	struct vcam *c = priv;

	if (!c)
		return;
	v4lc_vcam_unmap(c);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

static int querycap(struct vcam *c, unsigned long req, void *arg)
{
	struct v4l2_capability *cap = arg;

	(void)req;
	memset(cap, 0, sizeof(*cap));
	snprintf((char *)cap->driver, sizeof(cap->driver), "v4l2-vcam");
	snprintf((char *)cap->card, sizeof(cap->card), "Virtual camera");
	snprintf((char *)cap->bus_info, sizeof(cap->bus_info), "platform:vcam");
	cap->version = 0x00060100;
	cap->device_caps =
		(c->meta ? V4L2_CAP_META_CAPTURE : V4L2_CAP_VIDEO_CAPTURE) |
		V4L2_CAP_STREAMING;
	cap->capabilities = cap->device_caps | V4L2_CAP_DEVICE_CAPS;
	return 0;
}

/* One camera input; a flipped sensor shows in its status. */
static int enuminput(struct vcam *c, unsigned long req, void *arg)
{
	struct v4l2_input *in = arg;

	(void)req;
	if (in->index != 0)
		return v4lc_vcam_fail(EINVAL);
	memset(in, 0, sizeof(*in));
	snprintf((char *)in->name, sizeof(in->name), "Camera 1");
	in->type = V4L2_INPUT_TYPE_CAMERA;
	if (c->flip & V4LC_VCAM_HFLIP)
		in->status |= V4L2_IN_ST_HFLIP;
	if (c->flip & V4LC_VCAM_VFLIP)
		in->status |= V4L2_IN_ST_VFLIP;
	return 0;
}

static int g_input(struct vcam *c, unsigned long req, void *arg)
{
	(void)c;
	(void)req;
	*(int *)arg = 0;
	return 0;
}

static int s_input(struct vcam *c, unsigned long req, void *arg)
{
	(void)c;
	(void)req;
	return *(int *)arg == 0 ? 0 : v4lc_vcam_fail(EINVAL);
}

/* Every ioctl served; each takes an argument. */
static const struct {
	unsigned long request;
	int (*handle)(struct vcam *c, unsigned long req, void *arg);
} served[] = {
	{ VIDIOC_QUERYCAP, querycap },
	{ VIDIOC_ENUM_FMT, v4lc_vcam_enum_fmt },
	{ VIDIOC_ENUM_FRAMESIZES, v4lc_vcam_enum_framesizes },
	{ VIDIOC_ENUM_FRAMEINTERVALS, v4lc_vcam_enum_frameintervals },
	{ VIDIOC_G_FMT, v4lc_vcam_g_fmt },
	{ VIDIOC_TRY_FMT, v4lc_vcam_try_s_fmt },
	{ VIDIOC_S_FMT, v4lc_vcam_try_s_fmt },
	{ VIDIOC_G_PARM, v4lc_vcam_g_s_parm },
	{ VIDIOC_S_PARM, v4lc_vcam_g_s_parm },
	{ VIDIOC_ENUMINPUT, enuminput },
	{ VIDIOC_G_INPUT, g_input },
	{ VIDIOC_S_INPUT, s_input },
	{ VIDIOC_REQBUFS, v4lc_vcam_reqbufs },
	{ VIDIOC_QUERYBUF, v4lc_vcam_querybuf },
	{ VIDIOC_QBUF, v4lc_vcam_qbuf },
	{ VIDIOC_DQBUF, v4lc_vcam_dqbuf },
	{ VIDIOC_STREAMON, v4lc_vcam_streamon },
	{ VIDIOC_STREAMOFF, v4lc_vcam_streamoff },
	{ VIDIOC_QUERYCTRL, v4lc_vcam_queryctrl },
	{ VIDIOC_QUERY_EXT_CTRL, v4lc_vcam_query_ext_ctrl },
	{ VIDIOC_G_EXT_CTRLS, v4lc_vcam_ext_ctrls },
	{ VIDIOC_S_EXT_CTRLS, v4lc_vcam_ext_ctrls },
	{ VIDIOC_TRY_EXT_CTRLS, v4lc_vcam_ext_ctrls },
	{ VIDIOC_G_CTRL, v4lc_vcam_g_ctrl },
	{ VIDIOC_S_CTRL, v4lc_vcam_s_ctrl },
};

static int vcam_ioctl_locked(struct vcam *c, unsigned long request, void *arg)
{
	if (c->meta && arg && request != VIDIOC_QUERYCAP)
		return v4lc_vcam_fail(EINVAL);
	for (size_t i = 0; i < sizeof(served) / sizeof(served[0]); i++) {
		if (served[i].request != request)
			continue;
		if (!arg)
			return v4lc_vcam_fail(EFAULT);
		return served[i].handle(c, request, arg);
	}
	return v4lc_vcam_fail(ENOTTY);
}

/* "slow=MS": the calls that wait for a USB camera's answer, delayed
 * without the lock, as a driver sleeps on the bus without holding up
 * the stream. */
static void slow_call(const struct vcam *c, unsigned long request)
{
	struct timespec t;

	if (!c->slow_ms ||
	    (request != VIDIOC_S_CTRL && request != VIDIOC_S_EXT_CTRLS &&
	     request != VIDIOC_TRY_FMT && request != VIDIOC_S_FMT))
		return;
	t.tv_sec = c->slow_ms / 1000;
	t.tv_nsec = (long)(c->slow_ms % 1000) * 1000000;
	while (nanosleep(&t, &t) < 0 && errno == EINTR)
		;
}

int v4lc_vcam_ioctl(void *priv, int fd, unsigned long request, void *arg)
{
	struct vcam *c = priv;
	int r, e;

	(void)fd;
	if (!c)
		return v4lc_vcam_fail(EBADF);
	slow_call(c, request);
	pthread_mutex_lock(&c->lock);
	r = c->gone ? v4lc_vcam_fail(ENODEV)
		    : vcam_ioctl_locked(c, request, arg);
	e = errno;
	pthread_mutex_unlock(&c->lock);
	errno = e;
	return r;
}

/* No READWRITE capability. */
ssize_t v4lc_vcam_read(void *priv, int fd, void *buffer, size_t n)
{
	(void)priv;
	(void)fd;
	(void)buffer;
	(void)n;
	return v4lc_vcam_fail(EINVAL);
}

ssize_t v4lc_vcam_write(void *priv, int fd, const void *buffer, size_t n)
{
	(void)priv;
	(void)fd;
	(void)buffer;
	(void)n;
	return v4lc_vcam_fail(EINVAL);
}

const struct libv4l_dev_ops v4lc_vcam_ops = {
	.init = v4lc_vcam_init,
	.close = v4lc_vcam_close,
	.ioctl = v4lc_vcam_ioctl,
	.read = v4lc_vcam_read,
	.write = v4lc_vcam_write,
};
