/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A V4L1 program on a real V4L2 driver (vivid, in the VM of tests/vm):
 *   v4l1-vm-client DEVICE
 * Built with USE_LIBV4L1 (v4l1_* calls) and without (plain calls, run under
 * LD_PRELOAD=v4l1compat.so). With vivid's picture made static by the batch
 * script, every V4L1 palette is captured with read() and with VIDIOCGMBUF +
 * mmap + VIDIOCMCAPTURE/VIDIOCSYNC, and each frame must equal the frame of
 * the same capture through libv4l2 in the matching V4L2 format (V4L1's
 * RGB24 is BGR24, RGB32 BGR32). A palette is offered through V4L1 exactly
 * when libv4l2 offers its V4L2 format. Then the TV side: every channel,
 * the tuner, a frequency round trip and the audio inputs, checked against
 * the V4L2 answers of the same driver.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/videodev2.h>

#include <libv4l1-videodev.h>
#include <libv4l2.h>

#include "../common/check.h"

#ifdef USE_LIBV4L1
#include <libv4l1.h>
#define OPEN v4l1_open
#define CLOSE v4l1_close
#define IOCTL v4l1_ioctl
#define READ v4l1_read
#define MMAP v4l1_mmap
#define MUNMAP v4l1_munmap
#define VARIANT "libv4l1"
#else
#define OPEN open
#define CLOSE close
#define IOCTL ioctl
#define READ read
#define MMAP mmap
#define MUNMAP munmap
#define VARIANT "plain calls"
#endif

#define W 320
#define H 180

static const struct {
	int palette;
	uint32_t fourcc;
	int depth;
	const char *name;
} pals[] = {
	{ VIDEO_PALETTE_GREY, V4L2_PIX_FMT_GREY, 8, "GREY" },
	{ VIDEO_PALETTE_RGB565, V4L2_PIX_FMT_RGB565, 16, "RGB565" },
	{ VIDEO_PALETTE_RGB555, V4L2_PIX_FMT_RGB555, 16, "RGB555" },
	{ VIDEO_PALETTE_RGB24, V4L2_PIX_FMT_BGR24, 24, "RGB24" },
	{ VIDEO_PALETTE_RGB32, V4L2_PIX_FMT_BGR32, 32, "RGB32" },
	{ VIDEO_PALETTE_YUYV, V4L2_PIX_FMT_YUYV, 16, "YUYV" },
	{ VIDEO_PALETTE_YUV422, V4L2_PIX_FMT_YUYV, 16, "YUV422" },
	{ VIDEO_PALETTE_UYVY, V4L2_PIX_FMT_UYVY, 16, "UYVY" },
	{ VIDEO_PALETTE_YUV420, V4L2_PIX_FMT_YUV420, 12, "YUV420" },
	{ VIDEO_PALETTE_YUV420P, V4L2_PIX_FMT_YUV420, 12, "YUV420P" },
	{ VIDEO_PALETTE_YUV410P, V4L2_PIX_FMT_YUV410, 9, "YUV410P" },
	{ VIDEO_PALETTE_YUV411P, V4L2_PIX_FMT_YUV411P, 12, "YUV411P" },
	{ VIDEO_PALETTE_YUV422P, V4L2_PIX_FMT_YUV422P, 16, "YUV422P" },
	{ VIDEO_PALETTE_HI240, 0, 8, "HI240" },
	{ VIDEO_PALETTE_YUV411, 0, 12, "YUV411" },
	{ VIDEO_PALETTE_RAW, 0, 8, "RAW" },
};
#define NPALS (sizeof(pals) / sizeof(pals[0]))

static const char *dev;

/* One frame through libv4l2 in fourcc at W x H; NULL when not offered. */
static uint8_t *v4l2_frame(uint32_t fourcc, size_t *size)
{
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	int fd = v4l2_open(dev, O_RDWR);
	uint8_t *buf = NULL;

	if (fd < 0) {
		printf("FAIL v4l2_open %s: %s\n", dev, strerror(errno));
		failures++;
		return NULL;
	}
	f.fmt.pix.width = W;
	f.fmt.pix.height = H;
	f.fmt.pix.pixelformat = fourcc;
	f.fmt.pix.field = V4L2_FIELD_NONE;
	if (fourcc && v4l2_ioctl(fd, VIDIOC_S_FMT, &f) == 0 &&
	    f.fmt.pix.pixelformat == fourcc && f.fmt.pix.width == W &&
	    f.fmt.pix.height == H) {
		*size = f.fmt.pix.sizeimage;
		buf = malloc(*size);
		/* The second frame: the first may predate the format. */
		for (int i = 0; i < 2; i++)
			if (v4l2_read(fd, buf, *size) != (ssize_t)*size) {
				printf("FAIL v4l2_read: %s\n", strerror(errno));
				failures++;
				free(buf);
				buf = NULL;
				break;
			}
	}
	v4l2_close(fd);
	return buf;
}

static int set_picture(int fd, int palette)
{
	struct video_picture p;
	struct video_window w;

	memset(&p, 0, sizeof(p));
	memset(&w, 0, sizeof(w));
	if (IOCTL(fd, VIDIOCGPICT, &p) < 0)
		return -1;
	p.palette = (uint16_t)palette;
	if (IOCTL(fd, VIDIOCSPICT, &p) < 0)
		return -1;
	w.width = W;
	w.height = H;
	return IOCTL(fd, VIDIOCSWIN, &w);
}

static void check_palette(size_t k)
{
	size_t size = 0, want = (size_t)W * H * (size_t)pals[k].depth / 8;
	uint8_t *ref = v4l2_frame(pals[k].fourcc, &size), *buf, *base;
	int fd = OPEN(dev, O_RDWR), ok, frame;
	struct video_mbuf mb;
	struct video_mmap vm = { .width = W,
				 .height = H,
				 .format = (unsigned)pals[k].palette };
	struct video_window win;
	int fails = failures;

	CHECK(fd >= 0);
	if (fd < 0) {
		free(ref);
		return;
	}
	ok = set_picture(fd, pals[k].palette) == 0;
	/* Offered through V4L1 exactly when libv4l2 offers it. */
	CHECK(ok == (ref != NULL));
	if (!ok || !ref) {
		printf("%-8s not offered (%s)\n", pals[k].name,
		       ok    ? "V4L1 only"
		       : ref ? "V4L2 only"
			     : "both agree");
		goto out;
	}
	CHECK(size == want);
	/* A real picture, not a blank one that would compare equal anyway. */
	{
		size_t n = 0;

		for (size_t i = 1; i < want; i++)
			n += ref[i] != ref[0];
		CHECK(n > want / 4);
	}
	CHECK(IOCTL(fd, VIDIOCGWIN, &win) == 0 && win.width == W &&
	      win.height == H);

	/* read(): the second frame, as on the V4L2 side. */
	buf = malloc(want);
	for (int i = 0; i < 2; i++)
		CHECK(READ(fd, buf, want) == (ssize_t)want);
	CHECK(!memcmp(buf, ref, want));
	free(buf);

	/* mmap + MCAPTURE/SYNC, two frames in flight. */
	memset(&mb, 0, sizeof(mb));
	CHECK(IOCTL(fd, VIDIOCGMBUF, &mb) == 0 && mb.frames >= 2);
	base = mb.size > 0 ? MMAP(NULL, (size_t)mb.size, PROT_READ | PROT_WRITE,
				  MAP_SHARED, fd, 0)
			   : MAP_FAILED;
	CHECK(base != MAP_FAILED);
	if (base != MAP_FAILED) {
		for (frame = 0; frame < 2; frame++) {
			vm.frame = (unsigned)frame;
			CHECK(IOCTL(fd, VIDIOCMCAPTURE, &vm) == 0);
		}
		for (int i = 0; i < 4; i++) {
			frame = i % 2;
			memset(base + mb.offsets[frame], 0x5a, want);
			CHECK(IOCTL(fd, VIDIOCSYNC, &frame) == 0);
			if (i > 0)
				CHECK(!memcmp(base + mb.offsets[frame], ref,
					      want));
			vm.frame = (unsigned)frame;
			CHECK(IOCTL(fd, VIDIOCMCAPTURE, &vm) == 0);
		}
		CHECK(MUNMAP(base, (size_t)mb.size) == 0);
	}
	printf("%-8s read + mmap/MCAPTURE/SYNC: %s\n", pals[k].name,
	       failures == fails ? "equal to libv4l2" : "FAIL");
out:
	free(ref);
	CHECK(CLOSE(fd) == 0);
}

static void check_tv(void)
{
	int fd = OPEN(dev, O_RDWR);
	struct video_capability cap;
	struct v4l2_capability v2;
	int inputs = 0, tuner_input = -1;

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	memset(&cap, 0xff, sizeof(cap));
	CHECK(IOCTL(fd, VIDIOCGCAP, &cap) == 0);
	CHECK(IOCTL(fd, VIDIOC_QUERYCAP, &v2) == 0);
	CHECK(!strncmp(cap.name, (const char *)v2.card, sizeof(cap.name) - 1));
	CHECK(cap.type & VID_TYPE_CAPTURE);
	CHECK(!!(cap.type & VID_TYPE_TUNER) ==
	      !!(v2.device_caps & V4L2_CAP_TUNER));
	CHECK(cap.minwidth > 0 && cap.minwidth <= cap.maxwidth);
	CHECK(cap.minheight > 0 && cap.minheight <= cap.maxheight);
	printf("VIDIOCGCAP: \"%s\" type 0x%x channels %d audios %d "
	       "%dx%d..%dx%d\n",
	       cap.name, cap.type, cap.channels, cap.audios, cap.minwidth,
	       cap.minheight, cap.maxwidth, cap.maxheight);
	for (;;) {
		struct v4l2_input in = { .index = (uint32_t)inputs };

		if (IOCTL(fd, VIDIOC_ENUMINPUT, &in) < 0)
			break;
		if (in.type == V4L2_INPUT_TYPE_TUNER && tuner_input < 0)
			tuner_input = inputs;
		inputs++;
	}
	CHECK(cap.channels == (inputs ? inputs : 1));
	for (int i = 0; i < inputs; i++) {
		struct video_channel ch;
		struct v4l2_input in = { .index = (uint32_t)i };

		memset(&ch, 0, sizeof(ch));
		ch.channel = i;
		CHECK(IOCTL(fd, VIDIOCGCHAN, &ch) == 0);
		CHECK(IOCTL(fd, VIDIOC_ENUMINPUT, &in) == 0);
		CHECK(!strncmp(ch.name, (const char *)in.name,
			       sizeof(ch.name) - 1));
		CHECK((ch.type == VIDEO_TYPE_TV) ==
		      (in.type == V4L2_INPUT_TYPE_TUNER));
		printf("VIDIOCGCHAN %d: \"%s\" type %d flags 0x%x norm %d\n", i,
		       ch.name, ch.type, ch.flags, ch.norm);
	}
	if (cap.type & VID_TYPE_OVERLAY) {
		struct video_buffer b;
		struct v4l2_framebuffer fb;

		memset(&b, 0xff, sizeof(b));
		memset(&fb, 0, sizeof(fb));
		CHECK(IOCTL(fd, VIDIOCGFBUF, &b) == 0);
		CHECK(IOCTL(fd, VIDIOC_G_FBUF, &fb) == 0);
		CHECK(b.base == fb.base && b.width == (int)fb.fmt.width);
		CHECK(b.height == (int)fb.fmt.height);
		CHECK(b.bytesperline == (int)fb.fmt.bytesperline);
		/* (depth: 0 when the format is not RGB, e.g. vivid's YUYV) */
		printf("VIDIOCGFBUF: %dx%d depth %d bytesperline %d (%.4s)\n",
		       b.width, b.height, b.depth, b.bytesperline,
		       (const char *)&fb.fmt.pixelformat);
	}
	if (tuner_input >= 0) {
		struct video_channel ch = { .channel = tuner_input,
					    .norm = VIDEO_MODE_NTSC };
		struct video_tuner t = { .tuner = 0 };
		struct video_audio a = { .audio = 0 };
		v4l2_std_id std = 0;
		int cur = -1;
		unsigned long f = 0, g = 0;

		CHECK(IOCTL(fd, VIDIOCSCHAN, &ch) == 0);
		CHECK(IOCTL(fd, VIDIOC_G_INPUT, &cur) == 0 &&
		      cur == tuner_input);
		CHECK(IOCTL(fd, VIDIOC_G_STD, &std) == 0 &&
		      (std & V4L2_STD_NTSC) && !(std & V4L2_STD_PAL));
		CHECK(IOCTL(fd, VIDIOCGTUNER, &t) == 0);
		CHECK(t.mode == VIDEO_MODE_NTSC && t.rangehigh > t.rangelow);
		printf("VIDIOCGTUNER: \"%s\" %lu..%lu flags 0x%x signal %u\n",
		       t.name, t.rangelow, t.rangehigh, t.flags, t.signal);
		t.mode = VIDEO_MODE_PAL;
		CHECK(IOCTL(fd, VIDIOCSTUNER, &t) == 0);
		CHECK(IOCTL(fd, VIDIOC_G_STD, &std) == 0 &&
		      (std & V4L2_STD_PAL));
		CHECK(IOCTL(fd, VIDIOCGFREQ, &f) == 0);
		g = t.rangelow + (t.rangehigh - t.rangelow) / 2;
		CHECK(IOCTL(fd, VIDIOCSFREQ, &g) == 0);
		f = 0;
		CHECK(IOCTL(fd, VIDIOCGFREQ, &f) == 0 && f == g);
		if (cap.audios > 0) {
			CHECK(IOCTL(fd, VIDIOCGAUDIO, &a) == 0);
			printf("VIDIOCGAUDIO 0: \"%s\" flags 0x%x mode %u\n",
			       a.name, a.flags, a.mode);
			CHECK(IOCTL(fd, VIDIOCSAUDIO, &a) == 0);
		}
		ch.channel = 0;
		ch.norm = VIDEO_MODE_AUTO;
		CHECK(IOCTL(fd, VIDIOCSCHAN, &ch) == 0);
	}
	CHECK(CLOSE(fd) == 0);
}

/* A VBI capture node: VIDIOCGCAP, VIDIOCGVBIFMT/SVBIFMT, read(). */
static void check_vbi(const char *vbi)
{
	int fd = OPEN(vbi, O_RDWR);
	struct video_capability cap;
	struct vbi_format v, v2;
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VBI_CAPTURE };
	struct video_mbuf mb;
	size_t size;
	uint8_t *buf;

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	CHECK(IOCTL(fd, VIDIOCGCAP, &cap) == 0);
	CHECK(cap.type & VID_TYPE_TELETEXT);
	CHECK(!(cap.type & VID_TYPE_CAPTURE));
	/* The TV input carries VBI. */
	{
		struct video_channel ch = { .channel = 1 };

		CHECK(IOCTL(fd, VIDIOCGCHAN, &ch) == 0);
		if (ch.type == VIDEO_TYPE_TV) {
			ch.norm = VIDEO_MODE_PAL;
			CHECK(IOCTL(fd, VIDIOCSCHAN, &ch) == 0);
		}
	}
	memset(&v, 0xff, sizeof(v));
	CHECK(IOCTL(fd, VIDIOCGVBIFMT, &v) == 0);
	CHECK(IOCTL(fd, VIDIOC_G_FMT, &f) == 0);
	CHECK(v.sample_format == VIDEO_PALETTE_RAW);
	CHECK(v.sampling_rate == f.fmt.vbi.sampling_rate);
	CHECK(v.samples_per_line == f.fmt.vbi.samples_per_line);
	CHECK(v.start[0] == f.fmt.vbi.start[0] &&
	      v.start[1] == f.fmt.vbi.start[1]);
	CHECK(v.count[0] == f.fmt.vbi.count[0] &&
	      v.count[1] == f.fmt.vbi.count[1]);
	printf("VIDIOCGVBIFMT on %s: %u Hz, %u samples, lines %d+%u, %d+%u, "
	       "flags 0x%x\n",
	       vbi, v.sampling_rate, v.samples_per_line, v.start[0], v.count[0],
	       v.start[1], v.count[1], v.flags);
	CHECK(IOCTL(fd, VIDIOCSVBIFMT, &v) == 0);
	v2 = v;
	v2.sample_format = VIDEO_PALETTE_GREY;
	errno = 0;
	CHECK(IOCTL(fd, VIDIOCSVBIFMT, &v2) == -1 && errno == EINVAL);
	errno = 0;
	CHECK(IOCTL(fd, VIDIOCGMBUF, &mb) == -1 && errno == EINVAL);
	size = (size_t)v.samples_per_line * (v.count[0] + v.count[1]);
	buf = malloc(size);
	CHECK(READ(fd, buf, size) == (ssize_t)size);
	free(buf);
	CHECK(CLOSE(fd) == 0);
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--vbi")) {
		dev = argv[2];
		printf("V4L1 VBI through %s\n", VARIANT);
		check_vbi(argv[2]);
		printf("%s\n", failures ? "FAILED" : "ok");
		return failures != 0;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: %s DEVICE | --vbi VBI_DEVICE\n",
			argv[0]);
		return 2;
	}
	dev = argv[1];
	if (access(dev, R_OK | W_OK) != 0) {
		printf("no %s: skipped\n", dev);
		return 77;
	}
	printf("V4L1 on %s through %s\n", dev, VARIANT);
	check_tv();
	for (size_t k = 0; k < NPALS; k++)
		check_palette(k);
	printf("%s\n", failures ? "FAILED" : "ok");
	return failures != 0;
}
