/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libv4l2's share backend: a capture device opened through libv4l2 (or
 * v4l2convert.so) is served by v4l2-frameserver instead of being opened
 * directly, with LIBV4L2_SHARE=1 (starting the server when none runs) or,
 * by default, when a server for the device is already running (see
 * share_mode). This file is a device in the plugin ABI
 * (<libv4l-plugin.h>), built into libv4l2, that takes over from the
 * backend found for a node that captures video (src/v4l2/plugin.c):
 * libv4l2 and libv4lconvert above it see a normal V4L2 device offering the device's native formats, and do the
 * format conversion, fake mmap buffers and read() emulation in this
 * process as for a real device.
 *
 * init(fd): the fd must be a V4L2 character device (or a virtual camera
 * memfd "libv4l-vcam:..."). We connect to the server of that device
 * ($XDG_RUNTIME_DIR/libv4l/<key>.sock; started when absent, see
 * server_connect) and hand it one end of a socket pair, the frame socket;
 * the other end replaces the application's fd (dup3), so the device itself
 * is only kept open by the server and poll()/select() on the application's
 * fd follow the frames: POLLIN|POLLRDNORM when a frame is there to
 * dequeue, never POLLOUT, POLLERR|POLLHUP once the device is gone or the
 * server died. (Unlike a V4L2 device, a shared fd that is not streaming
 * reports nothing rather than POLLERR; frames sent while the application
 * has no buffer queued make it readable too, and DQBUF then says EAGAIN.)
 * The buffers live in a memfd of ours: libv4l2's v4l2_mmap maps them
 * through lv2_share_mmap. USERPTR buffers (V4L2_DISABLE_CONVERSION only,
 * as for a device) are filled by DQBUF; DMABUF is refused (EINVAL).
 *
 * Frames: the server sends each frame as a sealed read-only memfd slot on
 * the frame socket; DQBUF takes the newest frame received (older ones are
 * released unread, the server drops frames while we are behind), copies
 * it into the first queued buffer, resampled by nearest neighbour when the
 * server streams a larger size than ours (src/protocol/scale.c), and
 * releases the slot; libv4l2's own DQBUF of a frame it converts leaves an
 * uncompressed frame of our size in the slot and converts from there
 * (lv2_share_dqbuf), which saves a copy of every frame. Requests, replies, control events and the end of
 * the stream (FS_END: ENODEV) travel on the request socket.
 * Controls go to the server (last writer wins, visible to all).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "client.h"
#include "libv4l-plugin.h"
#include "libv4lconvert/private_api.h"
#include "v4l2/backend.h"

/*
 * The application's fd is a socket from now on: a plain ioctl() on it
 * (not v4l2_ioctl) never reaches libv4l2 nor the server, the kernel
 * answers ENOTTY, and a program that checks its format that way (v4l2-ctl
 * -w does) streams the format libv4l2 chose without knowing why. Nothing
 * can see such a call; this says it once, when the share starts, where a
 * log was asked for.
 */
static void note_plain_ioctls(int fd, const char *dev)
{
	const char *v = secure_getenv("LIBV4L2_SHARE");

	lv2_log_note(secure_getenv("LIBV4L2_FRAMESERVER_VERBOSE") != NULL,
		     "fd %d (%s) is shared through v4l2-frameserver (%s): "
		     "the fd is the server's socket now, so a plain ioctl() "
		     "on it (VIDIOC_S_FMT, VIDIOC_TRY_FMT, VIDIOC_G_FMT...) "
		     "fails with ENOTTY; only v4l2_ioctl() reaches the camera "
		     "(LIBV4L2_SHARE=0 opens it directly)",
		     fd, dev,
		     v && !strcmp(v, "1") ? "LIBV4L2_SHARE=1"
					  : "a server ran for it, "
					    "LIBV4L2_SHARE unset");
}

static void *share_init(int fd)
{
	char dev[300], key[80], name[100];
	struct v4l2_capability cap;
	struct share *sh;
	int s, fl, fdfl, mfd = -1, fsock;
	uint32_t caps;

	s = share_connect(fd, dev, sizeof(dev), key, sizeof(key), &fsock);
	if (s < 0)
		return NULL;
	sh = calloc(1, sizeof(*sh));
	if (!sh) {
		close(s);
		close(fsock);
		return NULL;
	}
	sh->sock = s;
	sh->mfd = -1;
	snprintf(sh->dev, sizeof(sh->dev), "%s", dev);
	pthread_mutex_init(&sh->lock, NULL);
	memset(&cap, 0, sizeof(cap));
	if (share_fwd_ioctl(sh, VIDIOC_QUERYCAP, &cap) < 0)
		goto fail;
	caps = lv2_node_caps(&cap);
	if (!(caps & V4L2_CAP_VIDEO_CAPTURE) || !(caps & V4L2_CAP_STREAMING))
		goto fail;
	if (share_ask_replug(sh) < 0)
		goto fail;

	/* Our buffers: a memfd, mapped through v4l2_mmap (lv2_share_mmap). */
	snprintf(name, sizeof(name), "libv4l-share:%s", key);
	mfd = memfd_create(name, MFD_CLOEXEC);
	if (mfd < 0)
		goto fail;
	/* The frame socket replaces the device on the application's fd
	 * number: poll() and select() on it see the frames arrive. */
	fl = fcntl(fd, F_GETFL);
	fdfl = fcntl(fd, F_GETFD);
	if (dup3(fsock, fd,
		 (fdfl >= 0 && (fdfl & FD_CLOEXEC)) ? O_CLOEXEC : 0) < 0)
		goto fail;
	close(fsock);
	fsock = -1;
	if (fl >= 0 && (fl & O_NONBLOCK))
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	sh->fd = fd;
	sh->mfd = mfd;
	note_plain_ioctls(fd, dev);
	return sh;
fail:
	if (mfd >= 0)
		close(mfd);
	if (fsock >= 0)
		close(fsock);
	close(s);
	pthread_mutex_destroy(&sh->lock);
	free(sh);
	return NULL;
}

static void share_close(void *priv)
{
	struct share *sh = priv;

	if (!sh)
		return;
	for (unsigned i = 0; i < FS_MAX_SLOTS; i++)
		share_slot_unmap(sh, i);
	if (sh->map)
		munmap(sh->map, sh->map_size);
	close(sh->sock);
	if (sh->mfd >= 0)
		close(sh->mfd);
	pthread_mutex_destroy(&sh->lock);
	free(sh);
}

static int ext_ctrls(struct share *sh, unsigned long req,
		     struct v4l2_ext_controls *e)
{
	for (uint32_t i = 0; i < e->count; i++) {
		struct v4l2_ext_control *x = &e->controls[i];
		struct v4l2_control c = { .id = x->id, .value = x->value };
		struct v4l2_queryctrl q = { .id = x->id };
		int r;

		if (req == VIDIOC_G_EXT_CTRLS)
			r = share_fwd_ioctl(sh, VIDIOC_G_CTRL, &c);
		else if (req == VIDIOC_S_EXT_CTRLS)
			r = share_fwd_ioctl(sh, VIDIOC_S_CTRL, &c);
		else
			r = share_fwd_ioctl(sh, VIDIOC_QUERYCTRL, &q);
		if (r < 0) {
			e->error_idx = req == VIDIOC_S_EXT_CTRLS && i == 0
					       ? e->count
					       : i;
			return -1;
		}
		if (req != VIDIOC_TRY_EXT_CTRLS)
			x->value = c.value;
	}
	return 0;
}

/*
 * The camera node the server serves, for libv4lconvert's quirk lookup
 * (V4LC_IOCTL_DEVICE_RDEV): without it a shared upside-down laptop camera
 * would match no USB id rule and stay upside down. The node is the one
 * this program asked for, so it may stat it; a virtual camera has none.
 */
static int device_rdev(struct share *sh, uint64_t *rdev)
{
	struct stat st;

	if (sh->dev[0] != '/' || stat(sh->dev, &st) || !S_ISCHR(st.st_mode)) {
		errno = ENOTTY;
		return -1;
	}
	*rdev = (uint64_t)st.st_rdev;
	return 0;
}

static int share_ioctl_locked(struct share *sh, unsigned long req, void *arg)
{
	if (!arg) {
		errno = EFAULT;
		return -1;
	}
	switch (req) {
	case VIDIOC_QUERYCAP: {
		struct v4l2_capability *c = arg;
		uint32_t caps = V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING |
				V4L2_CAP_EXT_PIX_FORMAT;

		if (share_fwd_ioctl(sh, req, arg) < 0)
			return -1;
		c->device_caps = caps;
		c->capabilities = caps | V4L2_CAP_DEVICE_CAPS;
		return 0;
	}
	case VIDIOC_ENUM_FMT:
	case VIDIOC_ENUM_FRAMESIZES:
	case VIDIOC_ENUM_FRAMEINTERVALS:
	case VIDIOC_ENUMINPUT:
	case VIDIOC_G_INPUT:
	case VIDIOC_QUERYCTRL:
	case VIDIOC_QUERY_EXT_CTRL:
	case VIDIOC_QUERYMENU:
	case VIDIOC_G_CTRL:
	case VIDIOC_S_CTRL:
	case VIDIOC_TRY_FMT:
	case VIDIOC_G_PARM:
	case VIDIOC_S_PARM:
		return share_fwd_ioctl(sh, req, arg);
	case VIDIOC_S_INPUT: {
		int cur;

		if (share_fwd_ioctl(sh, VIDIOC_G_INPUT, &cur) < 0)
			return -1;
		if (*(int *)arg != cur) {
			errno = EBUSY;
			return -1;
		}
		return 0;
	}
	case VIDIOC_G_EXT_CTRLS:
	case VIDIOC_S_EXT_CTRLS:
	case VIDIOC_TRY_EXT_CTRLS:
		return ext_ctrls(sh, req, arg);
	case VIDIOC_G_FMT: {
		struct v4l2_format *f = arg;

		if (f->type != V4L2_BUF_TYPE_VIDEO_CAPTURE) {
			errno = EINVAL;
			return -1;
		}
		if (share_get_fmt(sh) < 0)
			return -1;
		f->fmt.pix = sh->fmt;
		return 0;
	}
	case VIDIOC_S_FMT:
		return share_s_fmt(sh, arg);
	case VIDIOC_REQBUFS:
		return share_reqbufs(sh, arg);
	case VIDIOC_QUERYBUF:
		return share_querybuf(sh, arg);
	case VIDIOC_QBUF:
		return share_qbuf(sh, arg);
	case VIDIOC_DQBUF:
		return share_dqbuf(sh, arg, NULL);
	case VIDIOC_STREAMON:
		return share_streamon(sh, arg);
	case VIDIOC_STREAMOFF:
		return share_streamoff(sh, arg);
	case V4LC_IOCTL_DEVICE_RDEV:
		return device_rdev(sh, arg);
	}
	errno = ENOTTY;
	return -1;
}

static int share_ioctl(void *priv, int fd, unsigned long req, void *arg)
{
	struct share *sh = priv;
	int r;

	(void)fd;
	pthread_mutex_lock(&sh->lock);
	r = share_ioctl_locked(sh, (unsigned int)req, arg);
	pthread_mutex_unlock(&sh->lock);
	return r;
}

static ssize_t share_read(void *priv, int fd, void *buf, size_t n)
{
	(void)priv;
	(void)fd;
	(void)buf;
	(void)n;
	errno = EINVAL; /* no READWRITE: libv4l2 emulates read() */
	return -1;
}

static ssize_t share_write(void *priv, int fd, const void *buf, size_t n)
{
	(void)priv;
	(void)fd;
	(void)buf;
	(void)n;
	errno = EINVAL;
	return -1;
}

/* backend.h */
int lv2_share_device(void *priv, char *buf, size_t size)
{
	const struct share *sh = priv;

	if (!sh || strlen(sh->dev) >= size)
		return -1;
	strcpy(buf, sh->dev);
	return 0;
}

/* backend.h: DQBUF that may leave the frame in the server's slot. */
int lv2_share_dqbuf(void *priv, struct v4l2_buffer *b, const uint8_t **frame)
{
	struct share *sh = priv;
	int r;

	*frame = NULL;
	pthread_mutex_lock(&sh->lock);
	r = share_dqbuf(sh, b, frame);
	pthread_mutex_unlock(&sh->lock);
	return r;
}

void lv2_share_frame_done(void *priv)
{
	struct share *sh = priv;

	pthread_mutex_lock(&sh->lock);
	share_view_done(sh);
	pthread_mutex_unlock(&sh->lock);
}

/*
 * mmap of this client's buffers (backend.h): the application's fd is the
 * frame socket, which cannot be mapped, so libv4l2's v4l2_mmap (and its
 * own mapping of the "driver" buffers) comes here for a shared device.
 */
void *lv2_share_mmap(void *priv, void *start, size_t length, int prot,
		     int flags, int64_t offset)
{
	struct share *sh = priv;
	void *p = MAP_FAILED;

	if (!sh) {
		errno = ENODEV;
		return MAP_FAILED;
	}
	pthread_mutex_lock(&sh->lock);
	if (offset < 0 || length == 0 || (uint64_t)offset > sh->map_size ||
	    length > sh->map_size - (uint64_t)offset)
		errno = EINVAL;
	else
		p = mmap(start, length, prot, flags, sh->mfd, (off_t)offset);
	pthread_mutex_unlock(&sh->lock);
	return p;
}

const struct libv4l_dev_ops lv2_share_ops = {
	.init = share_init,
	.close = share_close,
	.ioctl = share_ioctl,
	.read = share_read,
	.write = share_write,
};
