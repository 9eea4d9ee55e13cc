/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * V4L1 audio on V4L2 audio inputs, the audio controls and the tuner's
 * sound mode.
 */
#include <errno.h>
#include <string.h>

#include "priv.h"

static const struct {
	uint32_t cid;
	uint32_t flag;
} audio_levels[] = {
	{ V4L2_CID_AUDIO_VOLUME, VIDEO_AUDIO_VOLUME },
	{ V4L2_CID_AUDIO_BASS, VIDEO_AUDIO_BASS },
	{ V4L2_CID_AUDIO_TREBLE, VIDEO_AUDIO_TREBLE },
	{ V4L2_CID_AUDIO_BALANCE, VIDEO_AUDIO_BALANCE },
};

static uint16_t *audio_level(struct video_audio *a, int i)
{
	switch (i) {
	case 0:
		return &a->volume;
	case 1:
		return &a->bass;
	case 2:
		return &a->treble;
	default:
		return &a->balance;
	}
}

static const struct {
	uint32_t v4l2;
	uint16_t v4l1;
} sound_modes[] = {
	{ V4L2_TUNER_MODE_MONO, VIDEO_SOUND_MONO },
	{ V4L2_TUNER_MODE_STEREO, VIDEO_SOUND_STEREO },
	{ V4L2_TUNER_MODE_LANG1, VIDEO_SOUND_LANG1 },
	{ V4L2_TUNER_MODE_LANG2, VIDEO_SOUND_LANG2 },
};

int lv1_gaudio(int fd, struct video_audio *va)
{
	struct v4l2_audio a;
	struct v4l2_tuner t;
	int index = va->audio;

	memset(&a, 0, sizeof(a));
	if (index < 0) {
		errno = EINVAL;
		return -1;
	}
	a.index = (uint32_t)index;
	if (v4l2_ioctl(fd, VIDIOC_ENUMAUDIO, &a) < 0) {
		/* Without ENUMAUDIO: the current input only. */
		memset(&a, 0, sizeof(a));
		if (v4l2_ioctl(fd, VIDIOC_G_AUDIO, &a) < 0)
			return -1;
		if (a.index != (uint32_t)index) {
			errno = EINVAL;
			return -1;
		}
	}
	memset(va, 0, sizeof(*va));
	va->audio = index;
	lv1_copy_name(va->name, sizeof(va->name), a.name, sizeof(a.name));
	for (int i = 0; i < 4; i++) {
		int v = v4l2_get_control(fd, (int)audio_levels[i].cid);

		if (v >= 0) {
			va->flags |= audio_levels[i].flag;
			*audio_level(va, i) = (uint16_t)v;
		}
	}
	{
		int mute = v4l2_get_control(fd, V4L2_CID_AUDIO_MUTE);

		if (mute >= 0)
			va->flags |= VIDEO_AUDIO_MUTABLE;
		if (mute > 0)
			va->flags |= VIDEO_AUDIO_MUTE;
	}
	va->step = 1;
	va->mode = VIDEO_SOUND_MONO;
	memset(&t, 0, sizeof(t));
	if (v4l2_ioctl(fd, VIDIOC_G_TUNER, &t) == 0) {
		for (size_t i = 0; i < 4; i++)
			if (sound_modes[i].v4l2 == t.audmode)
				va->mode = sound_modes[i].v4l1;
		if (t.audmode == V4L2_TUNER_MODE_LANG1_LANG2)
			va->mode = VIDEO_SOUND_STEREO;
	}
	return 0;
}

int lv1_saudio(int fd, const struct video_audio *va)
{
	struct v4l2_audio a;
	struct v4l2_tuner t;
	struct video_audio want = *va;

	memset(&a, 0, sizeof(a));
	if (want.audio < 0) {
		errno = EINVAL;
		return -1;
	}
	a.index = (uint32_t)want.audio;
	if (v4l2_ioctl(fd, VIDIOC_S_AUDIO, &a) < 0)
		return -1;
	for (int i = 0; i < 4; i++) {
		if (!(want.flags & audio_levels[i].flag))
			continue;
		if (v4l2_set_control(fd, (int)audio_levels[i].cid,
				     *audio_level(&want, i)) < 0)
			return -1;
	}
	if (v4l2_get_control(fd, V4L2_CID_AUDIO_MUTE) >= 0 &&
	    v4l2_set_control(fd, V4L2_CID_AUDIO_MUTE,
			     (want.flags & VIDEO_AUDIO_MUTE) ? 65535 : 0) < 0)
		return -1;
	/* The sound mode goes to the tuner, if any; errors ignored. */
	memset(&t, 0, sizeof(t));
	for (size_t i = 0; i < 4; i++) {
		if (sound_modes[i].v4l1 != want.mode)
			continue;
		if (v4l2_ioctl(fd, VIDIOC_G_TUNER, &t) == 0) {
			int saved = errno;

			t.audmode = sound_modes[i].v4l2;
			v4l2_ioctl(fd, VIDIOC_S_TUNER, &t);
			errno = saved;
		}
	}
	return 0;
}
