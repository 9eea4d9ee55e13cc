/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * V4L1 channels, tuners, norms and frequencies on V4L2 inputs, standards
 * and tuners; VIDIOCGCAP's device description.
 */
#include <errno.h>
#include <string.h>

#include "priv.h"

void lv1_copy_name(char *dst, size_t size, const void *src, size_t srcsize)
{
	size_t n = strnlen(src, srcsize);

	if (n >= size)
		n = size - 1;
	memcpy(dst, src, n);
	memset(dst + n, 0, size - n);
}

int lv1_count_inputs(int fd)
{
	int n = 0;

	for (;;) {
		struct v4l2_input in = { .index = (uint32_t)n };

		if (n >= 256 || v4l2_ioctl(fd, VIDIOC_ENUMINPUT, &in) < 0)
			break;
		n++;
	}
	return n;
}

int lv1_count_audios(int fd)
{
	int n = 0;

	for (;;) {
		struct v4l2_audio a = { .index = (uint32_t)n };

		if (n >= 256 || v4l2_ioctl(fd, VIDIOC_ENUMAUDIO, &a) < 0)
			break;
		n++;
	}
	return n;
}

int lv1_gcap(struct lv1_dev *dev, int fd, struct video_capability *c)
{
	struct v4l2_capability cap;
	struct v4l2_framebuffer fb;

	memset(&cap, 0, sizeof(cap));
	if (v4l2_ioctl(fd, VIDIOC_QUERYCAP, &cap) < 0)
		return -1;
	/* The whole structure, whatever the program left in it. */
	memset(c, 0, sizeof(*c));
	lv1_copy_name(c->name, sizeof(c->name), cap.card, sizeof(cap.card));
	if (dev->caps & V4L2_CAP_VIDEO_CAPTURE)
		c->type |= VID_TYPE_CAPTURE;
	if (dev->caps & V4L2_CAP_TUNER)
		c->type |= VID_TYPE_TUNER;
	if (dev->caps & V4L2_CAP_VBI_CAPTURE)
		c->type |= VID_TYPE_TELETEXT;
	if (dev->caps & V4L2_CAP_VIDEO_OVERLAY) {
		c->type |= VID_TYPE_OVERLAY;
		memset(&fb, 0, sizeof(fb));
		if (v4l2_ioctl(fd, VIDIOC_G_FBUF, &fb) == 0) {
			if (fb.capability & V4L2_FBUF_CAP_CHROMAKEY)
				c->type |= VID_TYPE_CHROMAKEY;
			if (fb.capability & (V4L2_FBUF_CAP_LIST_CLIPPING |
					     V4L2_FBUF_CAP_BITMAP_CLIPPING))
				c->type |= VID_TYPE_CLIPPING;
		}
	}
	c->channels = lv1_count_inputs(fd);
	if (c->channels == 0)
		c->channels = 1; /* the faked "Camera" input */
	c->audios = lv1_count_audios(fd);
	c->maxwidth = dev->max_w;
	c->maxheight = dev->max_h;
	c->minwidth = dev->min_w;
	c->minheight = dev->min_h;
	return 0;
}

static int std_to_mode(v4l2_std_id std)
{
	if (std & V4L2_STD_PAL)
		return VIDEO_MODE_PAL;
	if (std & V4L2_STD_NTSC)
		return VIDEO_MODE_NTSC;
	if (std & V4L2_STD_SECAM)
		return VIDEO_MODE_SECAM;
	return VIDEO_MODE_AUTO;
}

static int current_mode(int fd)
{
	v4l2_std_id std = 0;

	if (v4l2_ioctl(fd, VIDIOC_G_STD, &std) < 0)
		return VIDEO_MODE_AUTO;
	return std_to_mode(std);
}

/* S_STD for a VIDEO_MODE_*; AUTO changes nothing. */
static int set_mode(int fd, int mode)
{
	v4l2_std_id std;

	switch (mode) {
	case VIDEO_MODE_PAL:
		std = V4L2_STD_PAL;
		break;
	case VIDEO_MODE_NTSC:
		std = V4L2_STD_NTSC;
		break;
	case VIDEO_MODE_SECAM:
		std = V4L2_STD_SECAM;
		break;
	case VIDEO_MODE_AUTO:
		return 0;
	default:
		errno = EINVAL;
		return -1;
	}
	return v4l2_ioctl(fd, VIDIOC_S_STD, &std);
}

/*
 * ENUMINPUT for a V4L1 channel. Devices without inputs get one faked
 * camera input, channel 0. Returns 1 for a real input, 0 for the faked
 * one, -1 (EINVAL) for no such channel.
 */
static int find_input(int fd, int channel, struct v4l2_input *in)
{
	memset(in, 0, sizeof(*in));
	if (channel < 0) {
		errno = EINVAL;
		return -1;
	}
	in->index = (uint32_t)channel;
	if (v4l2_ioctl(fd, VIDIOC_ENUMINPUT, in) == 0)
		return 1;
	if (channel == 0 && lv1_count_inputs(fd) == 0) {
		memset(in, 0, sizeof(*in));
		strcpy((char *)in->name, "Camera");
		in->type = V4L2_INPUT_TYPE_CAMERA;
		return 0;
	}
	errno = EINVAL;
	return -1;
}

int lv1_gchan(int fd, struct video_channel *ch)
{
	struct v4l2_input in;
	int channel = ch->channel, real;

	real = find_input(fd, channel, &in);
	if (real < 0)
		return -1;
	memset(ch, 0, sizeof(*ch));
	ch->channel = channel;
	lv1_copy_name(ch->name, sizeof(ch->name), in.name, sizeof(in.name));
	if (in.type == V4L2_INPUT_TYPE_TUNER) {
		ch->tuners = 1;
		ch->flags |= VIDEO_VC_TUNER;
		ch->type = VIDEO_TYPE_TV;
	} else {
		ch->type = VIDEO_TYPE_CAMERA;
	}
	if (in.audioset)
		ch->flags |= VIDEO_VC_AUDIO;
	ch->norm =
		(uint16_t)(real && in.std ? current_mode(fd) : VIDEO_MODE_AUTO);
	return 0;
}

int lv1_schan(int fd, const struct video_channel *ch)
{
	struct v4l2_input in;
	int real, idx = ch->channel;

	real = find_input(fd, ch->channel, &in);
	if (real < 0)
		return -1;
	if (ch->norm > VIDEO_MODE_AUTO) {
		errno = EINVAL;
		return -1;
	}
	if (real && v4l2_ioctl(fd, VIDIOC_S_INPUT, &idx) < 0)
		return -1;
	/* A norm means nothing to an input without standards (a camera). */
	if (real && in.std)
		return set_mode(fd, ch->norm);
	return 0;
}

static uint32_t tuner_type(int fd)
{
	struct v4l2_tuner t = { .index = 0 };

	if (v4l2_ioctl(fd, VIDIOC_G_TUNER, &t) == 0)
		return t.type;
	return V4L2_TUNER_ANALOG_TV;
}

int lv1_gtuner(int fd, struct video_tuner *vt)
{
	struct v4l2_tuner t;
	int index = vt->tuner;

	memset(&t, 0, sizeof(t));
	if (index < 0) {
		errno = EINVAL;
		return -1;
	}
	t.index = (uint32_t)index;
	if (v4l2_ioctl(fd, VIDIOC_G_TUNER, &t) < 0)
		return -1;
	memset(vt, 0, sizeof(*vt));
	vt->tuner = index;
	lv1_copy_name(vt->name, sizeof(vt->name), t.name, sizeof(t.name));
	vt->rangelow = t.rangelow;
	vt->rangehigh = t.rangehigh;
	if (t.capability & V4L2_TUNER_CAP_LOW)
		vt->flags |= VIDEO_TUNER_LOW;
	if (t.rxsubchans & V4L2_TUNER_SUB_STEREO)
		vt->flags |= VIDEO_TUNER_STEREO_ON;
	if (t.rxsubchans & V4L2_TUNER_SUB_RDS)
		vt->flags |= VIDEO_TUNER_RDS_ON;
	/* The norms the device offers. */
	for (uint32_t i = 0; i < 256; i++) {
		struct v4l2_standard s = { .index = i };

		if (v4l2_ioctl(fd, VIDIOC_ENUMSTD, &s) < 0)
			break;
		if (s.id & V4L2_STD_PAL)
			vt->flags |= VIDEO_TUNER_PAL | VIDEO_TUNER_NORM;
		if (s.id & V4L2_STD_NTSC)
			vt->flags |= VIDEO_TUNER_NTSC | VIDEO_TUNER_NORM;
		if (s.id & V4L2_STD_SECAM)
			vt->flags |= VIDEO_TUNER_SECAM | VIDEO_TUNER_NORM;
	}
	vt->mode = (uint16_t)(t.type == V4L2_TUNER_RADIO ? VIDEO_MODE_AUTO
							 : current_mode(fd));
	vt->signal = t.signal;
	return 0;
}

int lv1_stuner(int fd, const struct video_tuner *vt)
{
	struct v4l2_tuner t;

	memset(&t, 0, sizeof(t));
	if (vt->tuner < 0 || vt->mode > VIDEO_MODE_AUTO) {
		errno = EINVAL;
		return -1;
	}
	t.index = (uint32_t)vt->tuner;
	if (v4l2_ioctl(fd, VIDIOC_G_TUNER, &t) < 0)
		return -1;
	if (v4l2_ioctl(fd, VIDIOC_S_TUNER, &t) < 0)
		return -1;
	if (t.type == V4L2_TUNER_RADIO)
		return 0;
	return set_mode(fd, vt->mode);
}

int lv1_gfreq(int fd, unsigned long *freq)
{
	struct v4l2_frequency f;

	memset(&f, 0, sizeof(f));
	f.tuner = 0;
	f.type = tuner_type(fd);
	if (v4l2_ioctl(fd, VIDIOC_G_FREQUENCY, &f) < 0)
		return -1;
	*freq = f.frequency;
	return 0;
}

int lv1_sfreq(int fd, const unsigned long *freq)
{
	struct v4l2_frequency f;

	memset(&f, 0, sizeof(f));
	f.tuner = 0;
	f.type = tuner_type(fd);
	f.frequency = (uint32_t)*freq;
	return v4l2_ioctl(fd, VIDIOC_S_FREQUENCY, &f);
}
