/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The V4L1 ioctls a webcam has no use for, on a scripted TV-card-like
 * device: the virtual camera wrapped by a plugin (through the test
 * variant's lv2_test_set_plugin) that adds two inputs (a camera and a
 * tuner input with PAL/NTSC/SECAM), a tuner, frequencies, two audio inputs
 * with volume and mute controls, a frame buffer for overlay, overlay
 * on/off and a VBI capture format. The plugin records what V4L2 calls
 * arrive, so each V4L1 ioctl is checked both for its answer and for the
 * V4L2 state it leaves (values written here, never computed by libv4l1).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/videodev2.h>

#include <libv4l1.h>
#include <libv4l2.h>

#include "v4l2/testhook.h"
#include "vcam/vcam.h"
#include "../common/check.h"

#define STD_ALL3 (V4L2_STD_PAL | V4L2_STD_NTSC | V4L2_STD_SECAM)

static struct {
	uint32_t input;
	v4l2_std_id std;
	uint32_t audmode;
	uint32_t freq;
	uint32_t audio;
	int32_t volume; /* 0..100 */
	int32_t mute;
	int overlay;
	int streamoffs;
	struct v4l2_framebuffer fb;
	struct v4l2_vbi_format vbi;
} st;

static int err(int e)
{
	errno = e;
	return -1;
}

static int vbi_fix(struct v4l2_vbi_format *v)
{
	v->sampling_rate = 27000000;
	v->offset = 244;
	v->sample_format = V4L2_PIX_FMT_GREY;
	if (v->samples_per_line != 720)
		v->samples_per_line = 1440;
	for (int i = 0; i < 2; i++)
		if (v->count[i] == 0 || v->count[i] > 17)
			v->count[i] = 17;
	v->start[0] = 6;
	v->start[1] = 318;
	v->flags &= V4L2_VBI_INTERLACED;
	return 0;
}

/* What a handler below returns for a request it leaves to the camera. */
#define TO_CAMERA 1

/* Two inputs: a camera and a tuner input with two audio inputs. */
static int tv_input(unsigned long req, void *arg)
{
	struct v4l2_input *in = arg;
	uint32_t i;

	if (req == VIDIOC_G_INPUT) {
		*(int *)arg = (int)st.input;
		return 0;
	}
	if (req == VIDIOC_S_INPUT) {
		if (*(unsigned int *)arg > 1)
			return err(EINVAL);
		st.input = *(unsigned int *)arg;
		return 0;
	}
	i = in->index;
	if (i > 1)
		return err(EINVAL);
	memset(in, 0, sizeof(*in));
	in->index = i;
	strcpy((char *)in->name, i ? "Television" : "Composite");
	in->type = i ? V4L2_INPUT_TYPE_TUNER : V4L2_INPUT_TYPE_CAMERA;
	in->std = STD_ALL3;
	in->audioset = i ? 3 : 0;
	return 0;
}

/* PAL, NTSC and SECAM. */
static int tv_std(unsigned long req, void *arg)
{
	static const v4l2_std_id ids[3] = {
		V4L2_STD_PAL,
		V4L2_STD_NTSC_M,
		V4L2_STD_SECAM,
	};
	struct v4l2_standard *s = arg;
	uint32_t i;

	if (req == VIDIOC_G_STD) {
		*(v4l2_std_id *)arg = st.std;
		return 0;
	}
	if (req == VIDIOC_S_STD) {
		if (!(*(v4l2_std_id *)arg & STD_ALL3))
			return err(EINVAL);
		st.std = *(v4l2_std_id *)arg;
		return 0;
	}
	i = s->index;
	if (i > 2)
		return err(EINVAL);
	memset(s, 0, sizeof(*s));
	s->index = i;
	s->id = ids[i];
	return 0;
}

/* One analog TV tuner, stereo. */
static int tv_tuner(unsigned long req, void *arg)
{
	struct v4l2_tuner *t = arg;

	if (t->index != 0)
		return err(EINVAL);
	if (req == VIDIOC_S_TUNER) {
		st.audmode = t->audmode;
		return 0;
	}
	memset(t, 0, sizeof(*t));
	strcpy((char *)t->name, "TV tuner");
	t->type = V4L2_TUNER_ANALOG_TV;
	t->capability = V4L2_TUNER_CAP_NORM | V4L2_TUNER_CAP_STEREO;
	t->rangelow = 44 * 16;
	t->rangehigh = 958 * 16;
	t->rxsubchans = V4L2_TUNER_SUB_STEREO;
	t->audmode = st.audmode;
	t->signal = 0xc000;
	return 0;
}

static int tv_frequency(unsigned long req, void *arg)
{
	struct v4l2_frequency *f = arg;

	if (req == VIDIOC_G_FREQUENCY) {
		if (f->tuner != 0)
			return err(EINVAL);
		f->type = V4L2_TUNER_ANALOG_TV;
		f->frequency = st.freq;
		return 0;
	}
	if (f->tuner != 0 || f->type != V4L2_TUNER_ANALOG_TV)
		return err(EINVAL);
	st.freq = f->frequency;
	return 0;
}

/* Two audio inputs: line in and the tuner's sound. */
static int tv_audio(unsigned long req, void *arg)
{
	struct v4l2_audio *a = arg;
	uint32_t i;

	if (req == VIDIOC_S_AUDIO) {
		if (a->index > 1)
			return err(EINVAL);
		st.audio = a->index;
		return 0;
	}
	i = req == VIDIOC_G_AUDIO ? st.audio : a->index;
	if (i > 1)
		return err(EINVAL);
	memset(a, 0, sizeof(*a));
	a->index = i;
	strcpy((char *)a->name, i ? "TV sound" : "Line in");
	a->capability = V4L2_AUDCAP_STEREO;
	return 0;
}

/* Volume and mute added to the camera's controls. */
static int tv_queryctrl(unsigned long req, void *arg)
{
	struct v4l2_queryctrl *q = arg;
	int vol = q->id == V4L2_CID_AUDIO_VOLUME;

	(void)req;
	if (!vol && q->id != V4L2_CID_AUDIO_MUTE)
		return TO_CAMERA;
	memset(q, 0, sizeof(*q));
	q->id = vol ? V4L2_CID_AUDIO_VOLUME : V4L2_CID_AUDIO_MUTE;
	strcpy((char *)q->name, vol ? "Volume" : "Mute");
	q->type = vol ? V4L2_CTRL_TYPE_INTEGER : V4L2_CTRL_TYPE_BOOLEAN;
	q->maximum = vol ? 100 : 1;
	q->step = 1;
	return 0;
}

static int tv_ctrl(unsigned long req, void *arg)
{
	struct v4l2_control *c = arg;
	int32_t *v = c->id == V4L2_CID_AUDIO_VOLUME ? &st.volume
		     : c->id == V4L2_CID_AUDIO_MUTE ? &st.mute
						    : NULL;

	if (!v)
		return TO_CAMERA;
	if (req == VIDIOC_G_CTRL)
		c->value = *v;
	else
		*v = c->value;
	return 0;
}

/* The frame buffer and overlay on/off, kept as set. */
static int tv_overlay(unsigned long req, void *arg)
{
	if (req == VIDIOC_G_FBUF)
		*(struct v4l2_framebuffer *)arg = st.fb;
	else if (req == VIDIOC_S_FBUF)
		st.fb = *(struct v4l2_framebuffer *)arg;
	else
		st.overlay = *(int *)arg;
	return 0;
}

/* Counted, then done by the camera. */
static int tv_streamoff(unsigned long req, void *arg)
{
	(void)req, (void)arg;
	st.streamoffs++;
	return TO_CAMERA;
}

/* The VBI capture format; the video formats are the camera's. */
static int tv_vbi_fmt(unsigned long req, void *arg)
{
	struct v4l2_format *f = arg;

	if (f->type != V4L2_BUF_TYPE_VBI_CAPTURE)
		return TO_CAMERA;
	if (req == VIDIOC_G_FMT) {
		f->fmt.vbi = st.vbi;
		return 0;
	}
	vbi_fix(&f->fmt.vbi);
	if (req == VIDIOC_S_FMT)
		st.vbi = f->fmt.vbi;
	return 0;
}

static const struct {
	unsigned long req;
	int (*handle)(unsigned long req, void *arg);
} tv_requests[] = {
	{ VIDIOC_ENUMINPUT, tv_input },
	{ VIDIOC_G_INPUT, tv_input },
	{ VIDIOC_S_INPUT, tv_input },
	{ VIDIOC_ENUMSTD, tv_std },
	{ VIDIOC_G_STD, tv_std },
	{ VIDIOC_S_STD, tv_std },
	{ VIDIOC_G_TUNER, tv_tuner },
	{ VIDIOC_S_TUNER, tv_tuner },
	{ VIDIOC_G_FREQUENCY, tv_frequency },
	{ VIDIOC_S_FREQUENCY, tv_frequency },
	{ VIDIOC_ENUMAUDIO, tv_audio },
	{ VIDIOC_G_AUDIO, tv_audio },
	{ VIDIOC_S_AUDIO, tv_audio },
	{ VIDIOC_QUERYCTRL, tv_queryctrl },
	{ VIDIOC_G_CTRL, tv_ctrl },
	{ VIDIOC_S_CTRL, tv_ctrl },
	{ VIDIOC_G_FBUF, tv_overlay },
	{ VIDIOC_S_FBUF, tv_overlay },
	{ VIDIOC_OVERLAY, tv_overlay },
	{ VIDIOC_STREAMOFF, tv_streamoff },
	{ VIDIOC_G_FMT, tv_vbi_fmt },
	{ VIDIOC_TRY_FMT, tv_vbi_fmt },
	{ VIDIOC_S_FMT, tv_vbi_fmt },
};

/* The TV card's requests here, the rest (and QUERYCAP first) the camera's. */
static int tv_ioctl(void *priv, int fd, unsigned long req, void *arg)
{
	if (req == VIDIOC_QUERYCAP) {
		struct v4l2_capability *c = arg;
		int r = v4lc_vcam_ops.ioctl(priv, fd, req, arg);
		uint32_t more = V4L2_CAP_TUNER | V4L2_CAP_VBI_CAPTURE |
				V4L2_CAP_VIDEO_OVERLAY | V4L2_CAP_AUDIO;

		c->capabilities |= more;
		c->device_caps |= more;
		return r;
	}
	for (size_t i = 0; i < sizeof(tv_requests) / sizeof(tv_requests[0]);
	     i++) {
		if (tv_requests[i].req == req) {
			int r = tv_requests[i].handle(req, arg);

			if (r != TO_CAMERA)
				return r;
			break;
		}
	}
	return v4lc_vcam_ops.ioctl(priv, fd, req, arg);
}

static struct libv4l_dev_ops tv_ops;

static void test_cap_and_channels(int fd)
{
	struct video_capability cap;
	struct video_channel ch;

	memset(&cap, 0xff, sizeof(cap));
	CHECK(v4l1_ioctl(fd, VIDIOCGCAP, &cap) == 0);
	CHECK(cap.type ==
	      (VID_TYPE_CAPTURE | VID_TYPE_TUNER | VID_TYPE_TELETEXT |
	       VID_TYPE_OVERLAY | VID_TYPE_CHROMAKEY | VID_TYPE_CLIPPING));
	CHECK(cap.channels == 2 && cap.audios == 2);

	memset(&ch, 0xff, sizeof(ch));
	ch.channel = 1;
	CHECK(v4l1_ioctl(fd, VIDIOCGCHAN, &ch) == 0);
	CHECK(ch.channel == 1 && !strcmp(ch.name, "Television"));
	CHECK(ch.tuners == 1 && ch.flags == (VIDEO_VC_TUNER | VIDEO_VC_AUDIO));
	CHECK(ch.type == VIDEO_TYPE_TV && ch.norm == VIDEO_MODE_PAL);
	ch.channel = 0;
	CHECK(v4l1_ioctl(fd, VIDIOCGCHAN, &ch) == 0);
	CHECK(!strcmp(ch.name, "Composite") && ch.tuners == 0 && ch.flags == 0);
	CHECK(ch.type == VIDEO_TYPE_CAMERA);
	ch.channel = 2;
	errno = 0;
	CHECK(v4l1_ioctl(fd, VIDIOCGCHAN, &ch) == -1 && errno == EINVAL);

	/* SCHAN: input and norm. */
	memset(&ch, 0, sizeof(ch));
	ch.channel = 1;
	ch.norm = VIDEO_MODE_SECAM;
	CHECK(v4l1_ioctl(fd, VIDIOCSCHAN, &ch) == 0);
	CHECK(st.input == 1 && st.std == V4L2_STD_SECAM);
	CHECK(v4l1_ioctl(fd, VIDIOCGCHAN, &ch) == 0 &&
	      ch.norm == VIDEO_MODE_SECAM);
	ch.norm = VIDEO_MODE_NTSC;
	CHECK(v4l1_ioctl(fd, VIDIOCSCHAN, &ch) == 0 && st.std == V4L2_STD_NTSC);
	ch.norm = VIDEO_MODE_AUTO; /* leaves the standard */
	CHECK(v4l1_ioctl(fd, VIDIOCSCHAN, &ch) == 0 && st.std == V4L2_STD_NTSC);
	ch.norm = 7;
	errno = 0;
	CHECK(v4l1_ioctl(fd, VIDIOCSCHAN, &ch) == -1 && errno == EINVAL);
	ch.norm = VIDEO_MODE_PAL;
	ch.channel = 0;
	CHECK(v4l1_ioctl(fd, VIDIOCSCHAN, &ch) == 0);
	CHECK(st.input == 0 && st.std == V4L2_STD_PAL);
	ch.channel = 5;
	errno = 0;
	CHECK(v4l1_ioctl(fd, VIDIOCSCHAN, &ch) == -1 && errno == EINVAL);
	CHECK(st.input == 0);
}

static void test_tuner(int fd)
{
	struct video_tuner t;
	unsigned long freq = 0;

	st.std = V4L2_STD_NTSC_M;
	st.audmode = V4L2_TUNER_MODE_STEREO;
	memset(&t, 0xff, sizeof(t));
	t.tuner = 0;
	CHECK(v4l1_ioctl(fd, VIDIOCGTUNER, &t) == 0);
	CHECK(t.tuner == 0 && !strcmp(t.name, "TV tuner"));
	CHECK(t.rangelow == 44 * 16 && t.rangehigh == 958 * 16);
	CHECK(t.flags ==
	      (VIDEO_TUNER_PAL | VIDEO_TUNER_NTSC | VIDEO_TUNER_SECAM |
	       VIDEO_TUNER_NORM | VIDEO_TUNER_STEREO_ON));
	CHECK(t.mode == VIDEO_MODE_NTSC && t.signal == 0xc000);
	t.tuner = 1;
	errno = 0;
	CHECK(v4l1_ioctl(fd, VIDIOCGTUNER, &t) == -1 && errno == EINVAL);

	t.tuner = 0;
	t.mode = VIDEO_MODE_PAL;
	CHECK(v4l1_ioctl(fd, VIDIOCSTUNER, &t) == 0);
	CHECK(st.std == V4L2_STD_PAL && st.audmode == V4L2_TUNER_MODE_STEREO);
	t.mode = 9;
	errno = 0;
	CHECK(v4l1_ioctl(fd, VIDIOCSTUNER, &t) == -1 && errno == EINVAL);
	CHECK(st.std == V4L2_STD_PAL);

	st.freq = 1234;
	CHECK(v4l1_ioctl(fd, VIDIOCGFREQ, &freq) == 0 && freq == 1234);
	freq = 8000;
	CHECK(v4l1_ioctl(fd, VIDIOCSFREQ, &freq) == 0 && st.freq == 8000);
}

static void test_audio(int fd)
{
	struct video_audio a;

	st.volume = 100;
	st.mute = 1;
	st.audmode = V4L2_TUNER_MODE_LANG2;
	memset(&a, 0xff, sizeof(a));
	a.audio = 1;
	CHECK(v4l1_ioctl(fd, VIDIOCGAUDIO, &a) == 0);
	CHECK(a.audio == 1 && !strcmp(a.name, "TV sound"));
	CHECK(a.flags ==
	      (VIDEO_AUDIO_VOLUME | VIDEO_AUDIO_MUTABLE | VIDEO_AUDIO_MUTE));
	CHECK(a.volume == 65535 && a.bass == 0 && a.treble == 0);
	CHECK(a.balance == 0 && a.mode == VIDEO_SOUND_LANG2);
	a.audio = 2;
	errno = 0;
	CHECK(v4l1_ioctl(fd, VIDIOCGAUDIO, &a) == -1 && errno == EINVAL);

	memset(&a, 0, sizeof(a));
	a.audio = 1;
	a.flags = VIDEO_AUDIO_VOLUME; /* unmuted */
	a.volume = 32768;             /* half of 0..100 */
	a.mode = VIDEO_SOUND_MONO;
	CHECK(v4l1_ioctl(fd, VIDIOCSAUDIO, &a) == 0);
	CHECK(st.audio == 1 && st.volume == 50 && st.mute == 0);
	CHECK(st.audmode == V4L2_TUNER_MODE_MONO);
	a.flags = VIDEO_AUDIO_MUTE;
	a.mode = VIDEO_SOUND_STEREO;
	CHECK(v4l1_ioctl(fd, VIDIOCSAUDIO, &a) == 0);
	CHECK(st.volume == 50 && st.mute == 1);
	CHECK(st.audmode == V4L2_TUNER_MODE_STEREO);
	a.audio = 3;
	errno = 0;
	CHECK(v4l1_ioctl(fd, VIDIOCSAUDIO, &a) == -1 && errno == EINVAL);
}

static void test_fbuf_overlay(int fd)
{
	static char screen[16];
	struct video_buffer b;
	int on;

	memset(&st.fb, 0, sizeof(st.fb));
	st.fb.capability =
		V4L2_FBUF_CAP_CHROMAKEY | V4L2_FBUF_CAP_LIST_CLIPPING;
	st.fb.base = screen;
	st.fb.fmt.width = 1024;
	st.fb.fmt.height = 768;
	st.fb.fmt.pixelformat = V4L2_PIX_FMT_RGB565;
	st.fb.fmt.bytesperline = 2054; /* padded: no "& 7" slip */
	memset(&b, 0xff, sizeof(b));
	CHECK(v4l1_ioctl(fd, VIDIOCGFBUF, &b) == 0);
	CHECK(b.base == screen && b.width == 1024 && b.height == 768);
	CHECK(b.depth == 16 && b.bytesperline == 2054);

	static const struct {
		int depth;
		uint32_t fourcc;
	} d[] = {
		{ 8, V4L2_PIX_FMT_RGB332 },  { 15, V4L2_PIX_FMT_RGB555 },
		{ 16, V4L2_PIX_FMT_RGB565 }, { 24, V4L2_PIX_FMT_BGR24 },
		{ 32, V4L2_PIX_FMT_BGR32 },
	};
	for (int i = 0; i < 5; i++) {
		b.base = screen + i;
		b.width = 800;
		b.height = 600;
		b.depth = d[i].depth;
		b.bytesperline = 800 * 4;
		CHECK(v4l1_ioctl(fd, VIDIOCSFBUF, &b) == 0);
		CHECK(st.fb.base == screen + i && st.fb.fmt.width == 800);
		CHECK(st.fb.fmt.height == 600 &&
		      st.fb.fmt.bytesperline == 3200);
		CHECK(st.fb.fmt.pixelformat == d[i].fourcc);
		CHECK(st.fb.capability ==
		      (V4L2_FBUF_CAP_CHROMAKEY | V4L2_FBUF_CAP_LIST_CLIPPING));
		memset(&b, 0, sizeof(b));
		CHECK(v4l1_ioctl(fd, VIDIOCGFBUF, &b) == 0 &&
		      b.depth == d[i].depth);
	}
	/* Formats V4L1 has no own name for still give their depth. */
	st.fb.fmt.pixelformat = V4L2_PIX_FMT_XRGB555;
	CHECK(v4l1_ioctl(fd, VIDIOCGFBUF, &b) == 0 && b.depth == 15);
	st.fb.fmt.pixelformat = V4L2_PIX_FMT_XBGR32;
	CHECK(v4l1_ioctl(fd, VIDIOCGFBUF, &b) == 0 && b.depth == 32);
	b.depth = 12;
	errno = 0;
	CHECK(v4l1_ioctl(fd, VIDIOCSFBUF, &b) == -1 && errno == EINVAL);

	on = 1;
	CHECK(v4l1_ioctl(fd, VIDIOCCAPTURE, &on) == 0 && st.overlay == 1);
	st.streamoffs = 0;
	on = 0;
	CHECK(v4l1_ioctl(fd, VIDIOCCAPTURE, &on) == 0 && st.overlay == 0);
}

static void test_vbi(int fd)
{
	struct vbi_format v;

	memset(&st.vbi, 0, sizeof(st.vbi));
	vbi_fix(&st.vbi);
	st.vbi.flags = V4L2_VBI_INTERLACED | V4L2_VBI_UNSYNC;
	memset(&v, 0xff, sizeof(v));
	CHECK(v4l1_ioctl(fd, VIDIOCGVBIFMT, &v) == 0);
	CHECK(v.sampling_rate == 27000000 && v.samples_per_line == 1440);
	CHECK(v.sample_format == VIDEO_PALETTE_RAW);
	CHECK(v.start[0] == 6 && v.start[1] == 318);
	CHECK(v.count[0] == 17 && v.count[1] == 17);
	CHECK(v.flags == (VBI_INTERLACED | VBI_UNSYNC));

	v.samples_per_line = 720;
	v.count[0] = v.count[1] = 10;
	v.flags = 0;
	CHECK(v4l1_ioctl(fd, VIDIOCSVBIFMT, &v) == 0);
	CHECK(st.vbi.samples_per_line == 720 && st.vbi.count[1] == 10);
	/* Not what the device can do: refused, not adjusted. */
	v.samples_per_line = 1000;
	errno = 0;
	CHECK(v4l1_ioctl(fd, VIDIOCSVBIFMT, &v) == -1 && errno == EINVAL);
	CHECK(st.vbi.samples_per_line == 720);
	v.samples_per_line = 720;
	v.sample_format = VIDEO_PALETTE_GREY;
	errno = 0;
	CHECK(v4l1_ioctl(fd, VIDIOCSVBIFMT, &v) == -1 && errno == EINVAL);
	/* A non-GREY device VBI format cannot be shown to V4L1. */
	st.vbi.sample_format = V4L2_PIX_FMT_YUYV;
	errno = 0;
	CHECK(v4l1_ioctl(fd, VIDIOCGVBIFMT, &v) == -1 && errno == EINVAL);
}

/* Every pointer argument may be NULL: EFAULT, no crash. */
static void test_null(int fd)
{
	static const unsigned long reqs[] = {
		VIDIOCGCAP,    VIDIOCGCHAN,    VIDIOCSCHAN,  VIDIOCGTUNER,
		VIDIOCSTUNER,  VIDIOCGPICT,    VIDIOCSPICT,  VIDIOCCAPTURE,
		VIDIOCGWIN,    VIDIOCSWIN,     VIDIOCGFBUF,  VIDIOCSFBUF,
		VIDIOCGFREQ,   VIDIOCSFREQ,    VIDIOCGAUDIO, VIDIOCSAUDIO,
		VIDIOCSYNC,    VIDIOCMCAPTURE, VIDIOCGMBUF,  VIDIOCGVBIFMT,
		VIDIOCSVBIFMT,
	};

	for (size_t i = 0; i < sizeof(reqs) / sizeof(reqs[0]); i++) {
		errno = 0;
		CHECK(v4l1_ioctl(fd, reqs[i], NULL) == -1 && errno == EFAULT);
	}
	/* Sign-extended request numbers (an int on the caller's side). */
	{
		struct video_capability cap;
		int req = (int)VIDIOCGCAP;

		CHECK(v4l1_ioctl(fd, (unsigned long)(long)req, &cap) == 0);
	}
}

int main(void)
{
	char path[64], logname[64];
	int mfd = v4lc_vcam_create("YUYV:320x240:nopace"), fd;

	tv_ops = v4lc_vcam_ops;
	tv_ops.ioctl = tv_ioctl;
	lv2_test_set_plugin(&tv_ops);
	st.std = V4L2_STD_PAL;
	st.fb.capability =
		V4L2_FBUF_CAP_CHROMAKEY | V4L2_FBUF_CAP_LIST_CLIPPING;
	CHECK(mfd >= 0);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", mfd);
	/* With a log file, the V4L1 ioctls are logged there. */
	snprintf(logname, sizeof(logname), "/tmp/v4l1-ioctls-%d.log",
		 (int)getpid());
	unlink(logname);
	setenv("LIBV4L1_LOG_FILENAME", logname, 1);
	fd = v4l1_open(path, O_RDWR);
	CHECK(fd >= 0);
	if (fd < 0)
		return 1;
	CHECK(v4l1_log_file != NULL);
	test_cap_and_channels(fd);
	test_tuner(fd);
	test_audio(fd);
	test_fbuf_overlay(fd);
	test_vbi(fd);
	test_null(fd);
	CHECK(v4l1_close(fd) == 0);
	close(mfd);
	{
		FILE *f = fopen(logname, "r");
		char line[256];
		int ok = 0, failed = 0;

		CHECK(f != NULL);
		while (f && fgets(line, sizeof(line), f)) {
			/* VIDIOCGTUNER is ('v', 4). */
			ok += strstr(line, "('v', 4) ok") != NULL;
			failed += strstr(line, "('v', 4) failed") != NULL;
		}
		CHECK(ok >= 1 && failed >= 1);
		if (f)
			fclose(f);
		unlink(logname);
	}
	printf("%s\n", failures ? "FAILED" : "ok");
	return failures != 0;
}
