/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A V4L1 program on the virtual camera. Built twice from this file:
 *  - with USE_LIBV4L1, calling v4l1_open/v4l1_ioctl/... (libv4l1);
 *  - without, calling plain open/ioctl/read/mmap/munmap/close/dup, and run
 *    under LD_PRELOAD=v4l1compat.so (without the shim it fails at once:
 *    a memfd answers no ioctl).
 *
 * Every palette the camera can deliver (natively or converted) is captured
 * with read() and with VIDIOCGMBUF + mmap + VIDIOCMCAPTURE/VIDIOCSYNC, and
 * every frame is compared byte for byte with the same capture done through
 * libv4l2 in the matching V4L2 format on a second, fresh camera (V4L1's
 * RGB24 is BGR24). Native palettes are also compared with the camera's own
 * renderer, independently of libv4l2. The other ioctls are checked against
 * values the camera documents (src/vcam/vcam.h) and against libv4l2's
 * answers on the same fd; the device-less ones must fail cleanly.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/videodev2.h>

#include <libv4l1-videodev.h>
#include <libv4l2.h>

#include "vcam/vcam.h"
#include "../common/check.h"

#ifdef USE_LIBV4L1
#include <libv4l1.h>
#define OPEN v4l1_open
#define CLOSE v4l1_close
#define DUP v4l1_dup
#define IOCTL v4l1_ioctl
#define READ v4l1_read
#define MMAP v4l1_mmap
#define MUNMAP v4l1_munmap
#define VARIANT "libv4l1"
#else
#define OPEN open
#define CLOSE close
#define DUP dup
#define IOCTL ioctl
#define READ read
#define MMAP mmap
#define MUNMAP munmap
#define VARIANT "plain calls (v4l1compat.so)"
#endif

#define W 320
#define H 240
#define SPEC "YUYV,UYVY,GREY:320x240:nopace"

/* Palettes and what they must be (from the V4L1 API, not from libv4l1). */
static const struct {
	int palette;
	uint32_t fourcc; /* matching V4L2 format; 0: not available */
	int depth;
	int native; /* the camera delivers it as is */
	const char *name;
} pals[] = {
	{ VIDEO_PALETTE_GREY, V4L2_PIX_FMT_GREY, 8, 1, "GREY" },
	{ VIDEO_PALETTE_YUYV, V4L2_PIX_FMT_YUYV, 16, 1, "YUYV" },
	{ VIDEO_PALETTE_YUV422, V4L2_PIX_FMT_YUYV, 16, 1, "YUV422" },
	{ VIDEO_PALETTE_UYVY, V4L2_PIX_FMT_UYVY, 16, 1, "UYVY" },
	{ VIDEO_PALETTE_RGB24, V4L2_PIX_FMT_BGR24, 24, 0, "RGB24" },
	{ VIDEO_PALETTE_YUV420, V4L2_PIX_FMT_YUV420, 12, 0, "YUV420" },
	{ VIDEO_PALETTE_YUV420P, V4L2_PIX_FMT_YUV420, 12, 0, "YUV420P" },
	/* Not offered by this camera, nor by conversion. */
	{ VIDEO_PALETTE_RGB565, 0, 16, 0, "RGB565" },
	{ VIDEO_PALETTE_RGB555, 0, 16, 0, "RGB555" },
	{ VIDEO_PALETTE_RGB32, 0, 32, 0, "RGB32" },
	{ VIDEO_PALETTE_YUV410P, 0, 9, 0, "YUV410P" },
	{ VIDEO_PALETTE_YUV411P, 0, 12, 0, "YUV411P" },
	{ VIDEO_PALETTE_YUV422P, 0, 16, 0, "YUV422P" },
	/* No V4L2 equivalent at all. */
	{ VIDEO_PALETTE_HI240, 0, 8, 0, "HI240" },
	{ VIDEO_PALETTE_YUV411, 0, 12, 0, "YUV411" },
	{ VIDEO_PALETTE_RAW, 0, 8, 0, "RAW" },
};
#define NPALS (sizeof(pals) / sizeof(pals[0]))

static size_t frame_bytes(int depth, int w, int h)
{
	return (size_t)w * (size_t)h * (size_t)depth / 8;
}

static int memfd; /* the camera behind the V4L1 device */

/* A fresh camera opened the V4L1 way (through /proc/self/fd). */
static int open_cam(const char *spec)
{
	char path[64];
	int fd;

	memfd = v4lc_vcam_create(spec);
	CHECK(memfd >= 0);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", memfd);
	fd = OPEN(path, O_RDWR);
	CHECK(fd >= 0);
	return fd;
}

static void close_cam(int fd)
{
	CHECK(CLOSE(fd) == 0);
	close(memfd);
}

/*
 * n frames of a fresh camera of that spec, captured through libv4l2 in
 * fourcc at w x h (read()). NULL when libv4l2 cannot give that format.
 */
static uint8_t *ref_frames(const char *spec, uint32_t fourcc, int w, int h,
			   int n, size_t *size)
{
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	int fd = v4lc_vcam_create(spec);
	uint8_t *out = NULL;

	if (fd < 0 || v4l2_fd_open(fd, 0) != fd) {
		printf("reference camera failed\n");
		return NULL;
	}
	f.fmt.pix.width = (uint32_t)w;
	f.fmt.pix.height = (uint32_t)h;
	f.fmt.pix.pixelformat = fourcc;
	if (v4l2_ioctl(fd, VIDIOC_S_FMT, &f) < 0 ||
	    f.fmt.pix.pixelformat != fourcc || f.fmt.pix.width != (uint32_t)w ||
	    f.fmt.pix.height != (uint32_t)h)
		goto out;
	*size = f.fmt.pix.sizeimage;
	out = malloc(*size * (size_t)n);
	for (int i = 0; i < n; i++)
		if (v4l2_read(fd, out + *size * (size_t)i, *size) !=
		    (ssize_t)*size) {
			free(out);
			out = NULL;
			break;
		}
out:
	v4l2_close(fd);
	return out;
}

/* Native frames must also be exactly what the camera renders. */
static void check_native(const uint8_t *frames, size_t size, uint32_t fourcc,
			 int n)
{
	uint8_t *raw = malloc(size);

	for (int i = 0; i < n; i++) {
		CHECK(v4lc_vcam_render(fourcc, W, H, (uint32_t)i, raw, size) ==
		      (int)size);
		CHECK(!memcmp(frames + size * (size_t)i, raw, size));
	}
	free(raw);
}

static int set_palette(int fd, int palette)
{
	struct video_picture p;

	memset(&p, 0, sizeof(p));
	if (IOCTL(fd, VIDIOCGPICT, &p) < 0)
		return -1;
	p.palette = (uint16_t)palette;
	return IOCTL(fd, VIDIOCSPICT, &p);
}

static void test_caps(void)
{
	int fd = open_cam(SPEC);
	struct video_capability cap;
	struct v4l2_capability v2;
	struct video_channel ch;
	struct video_window win;
	struct video_picture pic;
	struct v4l2_control ctrl = { .id = V4L2_CID_BRIGHTNESS };

	/* The whole structure is filled, whatever was in it. */
	memset(&cap, 0xa5, sizeof(cap));
	CHECK(IOCTL(fd, VIDIOCGCAP, &cap) == 0);
	CHECK(IOCTL(fd, VIDIOC_QUERYCAP, &v2) == 0); /* V4L2 passes */
	CHECK(!strncmp(cap.name, (const char *)v2.card, sizeof(cap.name) - 1));
	CHECK(memchr(cap.name, 0, sizeof(cap.name)) != NULL);
	CHECK(cap.type == VID_TYPE_CAPTURE);
	CHECK(cap.channels == 1);
	CHECK(cap.audios == 0);
	/* The camera's sizes: 320x240, 640x480, 1280x720. */
	CHECK(cap.minwidth == 320 && cap.minheight == 240);
	CHECK(cap.maxwidth == 1280 && cap.maxheight == 720);

	memset(&ch, 0xa5, sizeof(ch));
	ch.channel = 0;
	CHECK(IOCTL(fd, VIDIOCGCHAN, &ch) == 0);
	CHECK(ch.channel == 0 && ch.tuners == 0 && ch.flags == 0);
	CHECK(ch.type == VIDEO_TYPE_CAMERA);
	CHECK(ch.norm == VIDEO_MODE_AUTO);
	{
		struct v4l2_input in = { .index = 0 };

		CHECK(IOCTL(fd, VIDIOC_ENUMINPUT, &in) == 0);
		CHECK(!strcmp(ch.name, (const char *)in.name));
	}
	ch.channel = 1;
	errno = 0;
	CHECK(IOCTL(fd, VIDIOCGCHAN, &ch) == -1 && errno == EINVAL);
	ch.channel = 0;
	ch.norm = VIDEO_MODE_PAL; /* a camera ignores the norm */
	CHECK(IOCTL(fd, VIDIOCSCHAN, &ch) == 0);
	ch.channel = 3;
	errno = 0;
	CHECK(IOCTL(fd, VIDIOCSCHAN, &ch) == -1 && errno == EINVAL);

	/* Picture: brightness 0..255, default 128; no other level. */
	memset(&pic, 0xa5, sizeof(pic));
	CHECK(IOCTL(fd, VIDIOCGPICT, &pic) == 0);
	CHECK(pic.brightness == 32896); /* 128 * 65535 / 255 */
	CHECK(pic.hue == 32768 && pic.colour == 32768);
	CHECK(pic.contrast == 32768 && pic.whiteness == 32768);
	CHECK(pic.palette == VIDEO_PALETTE_YUYV && pic.depth == 16);
	pic.brightness = 65535;
	CHECK(IOCTL(fd, VIDIOCSPICT, &pic) == 0);
	CHECK(IOCTL(fd, VIDIOC_G_CTRL, &ctrl) == 0 && ctrl.value == 255);
	pic.brightness = 0;
	CHECK(IOCTL(fd, VIDIOCGPICT, &pic) == 0 && pic.brightness == 65535);
	pic.brightness = 0;
	CHECK(IOCTL(fd, VIDIOCSPICT, &pic) == 0);
	CHECK(IOCTL(fd, VIDIOC_G_CTRL, &ctrl) == 0 && ctrl.value == 0);

	/* Window: the capture size only. */
	memset(&win, 0xa5, sizeof(win));
	CHECK(IOCTL(fd, VIDIOCGWIN, &win) == 0);
	CHECK(win.width == W && win.height == H);
	CHECK(win.x == 0 && win.y == 0 && win.chromakey == 0);
	CHECK(win.clips == NULL && win.clipcount == 0);
	win.width = 640;
	win.height = 480;
	CHECK(IOCTL(fd, VIDIOCSWIN, &win) == 0);
	memset(&win, 0, sizeof(win));
	CHECK(IOCTL(fd, VIDIOCGWIN, &win) == 0);
	CHECK(win.width == 640 && win.height == 480);
	{
		struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };

		CHECK(IOCTL(fd, VIDIOC_G_FMT, &f) == 0);
		CHECK(f.fmt.pix.width == 640 && f.fmt.pix.height == 480);
		CHECK(f.fmt.pix.pixelformat == V4L2_PIX_FMT_YUYV);
	}
	win.width = 0;
	errno = 0;
	CHECK(IOCTL(fd, VIDIOCSWIN, &win) == -1 && errno == EINVAL);

	/* A V4L2 S_FMT in between is seen by V4L1. */
	{
		struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };

		f.fmt.pix.width = W;
		f.fmt.pix.height = H;
		f.fmt.pix.pixelformat = V4L2_PIX_FMT_UYVY;
		CHECK(IOCTL(fd, VIDIOC_S_FMT, &f) == 0);
		CHECK(IOCTL(fd, VIDIOCGPICT, &pic) == 0);
		CHECK(pic.palette == VIDEO_PALETTE_UYVY && pic.depth == 16);
		CHECK(IOCTL(fd, VIDIOCGWIN, &win) == 0 && win.width == W);
	}

	/* What this camera does not have fails, and changes nothing. */
	{
		struct video_tuner t = { .tuner = 0 };
		struct video_audio a = { .audio = 0 };
		struct video_buffer b = { .depth = 24,
					  .width = W,
					  .height = H,
					  .bytesperline = W * 3 };
		struct vbi_format v = { .sample_format = VIDEO_PALETTE_RAW };
		unsigned long freq = 1000;
		int on = 1;

		CHECK(IOCTL(fd, VIDIOCGTUNER, &t) == -1);
		CHECK(IOCTL(fd, VIDIOCSTUNER, &t) == -1);
		CHECK(IOCTL(fd, VIDIOCGFREQ, &freq) == -1);
		CHECK(IOCTL(fd, VIDIOCSFREQ, &freq) == -1);
		CHECK(IOCTL(fd, VIDIOCGAUDIO, &a) == -1);
		CHECK(IOCTL(fd, VIDIOCSAUDIO, &a) == -1);
		CHECK(IOCTL(fd, VIDIOCGFBUF, &b) == -1);
		CHECK(IOCTL(fd, VIDIOCSFBUF, &b) == -1);
		CHECK(IOCTL(fd, VIDIOCCAPTURE, &on) == -1);
		CHECK(IOCTL(fd, VIDIOCGVBIFMT, &v) == -1);
		CHECK(IOCTL(fd, VIDIOCSVBIFMT, &v) == -1);
		v.sample_format = VIDEO_PALETTE_GREY;
		errno = 0;
		CHECK(IOCTL(fd, VIDIOCSVBIFMT, &v) == -1 && errno == EINVAL);
		CHECK(IOCTL(fd, VIDIOCGPICT, &pic) == 0);
		CHECK(pic.palette == VIDEO_PALETTE_UYVY);
	}

	/* dup gives the same, counted descriptor. */
	CHECK(DUP(fd) == fd);
	CHECK(CLOSE(fd) == 0);
	CHECK(IOCTL(fd, VIDIOCGCAP, &cap) == 0);
	close_cam(fd);
}

/* Palettes this camera has not: refused, and the palette stays. */
static void test_refused(void)
{
	int fd = open_cam(SPEC);
	struct video_picture p;
	struct video_mbuf mb;

	CHECK(IOCTL(fd, VIDIOCGMBUF, &mb) == 0);
	for (size_t i = 0; i < NPALS; i++) {
		struct video_mmap vm = { .frame = 0,
					 .width = W,
					 .height = H,
					 .format = (unsigned)pals[i].palette };

		if (pals[i].fourcc)
			continue;
		errno = 0;
		CHECK(set_palette(fd, pals[i].palette) == -1 &&
		      errno == EINVAL);
		CHECK(IOCTL(fd, VIDIOCGPICT, &p) == 0);
		CHECK(p.palette == VIDEO_PALETTE_YUYV);
		errno = 0;
		CHECK(IOCTL(fd, VIDIOCMCAPTURE, &vm) == -1 && errno == EINVAL);
		if (failures)
			printf("  (palette %s)\n", pals[i].name);
	}
	close_cam(fd);
}

static void test_read(size_t k)
{
	int fd = open_cam(SPEC), n = 4;
	size_t want = frame_bytes(pals[k].depth, W, H), rsize = 0;
	uint8_t *ref = ref_frames(SPEC, pals[k].fourcc, W, H, n, &rsize);
	uint8_t *buf = malloc(want + 64);
	struct video_picture p;
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	int fails = failures;

	CHECK(ref != NULL && rsize == want);
	CHECK(set_palette(fd, pals[k].palette) == 0);
	memset(&p, 0, sizeof(p));
	CHECK(IOCTL(fd, VIDIOCGPICT, &p) == 0);
	CHECK(p.palette == pals[k].palette && p.depth == pals[k].depth);
	CHECK(IOCTL(fd, VIDIOC_G_FMT, &f) == 0);
	CHECK(f.fmt.pix.pixelformat == pals[k].fourcc);
	for (int i = 0; ref && rsize == want && i < n; i++) {
		CHECK(READ(fd, buf, want + 64) == (ssize_t)want);
		CHECK(!memcmp(buf, ref + want * (size_t)i, want));
	}
	if (ref && rsize == want && pals[k].native)
		check_native(ref, want, pals[k].fourcc, n);
	if (failures != fails)
		printf("  (read, palette %s)\n", pals[k].name);
	free(ref);
	free(buf);
	close_cam(fd);
}

static void test_mmap(size_t k)
{
	int fd = open_cam(SPEC), n = 6;
	size_t want = frame_bytes(pals[k].depth, W, H), rsize = 0;
	uint8_t *ref = ref_frames(SPEC, pals[k].fourcc, W, H, n, &rsize);
	struct video_mbuf mb;
	struct video_mmap vm = { .width = W,
				 .height = H,
				 .format = (unsigned)pals[k].palette };
	struct video_picture p;
	uint8_t *base;
	int fails = failures, frame;

	CHECK(ref != NULL && rsize == want);
	memset(&mb, 0xa5, sizeof(mb));
	CHECK(IOCTL(fd, VIDIOCGMBUF, &mb) == 0);
	CHECK(mb.frames >= 2 && mb.frames <= VIDEO_MAX_FRAME);
	if (mb.frames < 2 || mb.frames > VIDEO_MAX_FRAME) {
		base = MAP_FAILED;
		goto out;
	}
	for (int i = 0; i < mb.frames; i++)
		CHECK(mb.offsets[i] >= 0 &&
		      (size_t)mb.offsets[i] + want <= (size_t)mb.size);
	for (int i = mb.frames; i < VIDEO_MAX_FRAME; i++)
		CHECK(mb.offsets[i] == 0);
	base = MMAP(NULL, (size_t)mb.size, PROT_READ | PROT_WRITE, MAP_SHARED,
		    fd, 0);
	CHECK(base != MAP_FAILED);
	if (base == MAP_FAILED || !ref || rsize != want)
		goto out;
	/* Two frames in flight, as V4L1 programs do. */
	for (frame = 0; frame < 2; frame++) {
		vm.frame = (unsigned)frame;
		CHECK(IOCTL(fd, VIDIOCMCAPTURE, &vm) == 0);
	}
	for (int i = 0; i < n; i++) {
		frame = i % 2;
		memset(base + mb.offsets[frame], 0x5a, want);
		CHECK(IOCTL(fd, VIDIOCSYNC, &frame) == 0);
		CHECK(!memcmp(base + mb.offsets[frame], ref + want * (size_t)i,
			      want));
		vm.frame = (unsigned)frame;
		CHECK(IOCTL(fd, VIDIOCMCAPTURE, &vm) == 0);
	}
	/* MCAPTURE chose the palette. */
	CHECK(IOCTL(fd, VIDIOCGPICT, &p) == 0);
	CHECK(p.palette == pals[k].palette && p.depth == pals[k].depth);
	/* Bad frame numbers and sizes. */
	vm.frame = (unsigned)mb.frames;
	errno = 0;
	CHECK(IOCTL(fd, VIDIOCMCAPTURE, &vm) == -1 && errno == EINVAL);
	vm.frame = 0;
	vm.width = W + 3; /* cannot be delivered exactly */
	errno = 0;
	CHECK(IOCTL(fd, VIDIOCMCAPTURE, &vm) == -1 && errno == EINVAL);
	vm.width = W;
	vm.format = 0;
	errno = 0;
	CHECK(IOCTL(fd, VIDIOCMCAPTURE, &vm) == -1 && errno == EINVAL);
	frame = mb.frames;
	errno = 0;
	CHECK(IOCTL(fd, VIDIOCSYNC, &frame) == -1 && errno == EINVAL);
	frame = -1;
	errno = 0;
	CHECK(IOCTL(fd, VIDIOCSYNC, &frame) == -1 && errno == EINVAL);
	CHECK(MUNMAP(base, (size_t)mb.size) == 0);
	/* Mapped again: the same frames area. */
	base = MMAP(NULL, (size_t)mb.size, PROT_READ | PROT_WRITE, MAP_SHARED,
		    fd, 0);
	CHECK(base != MAP_FAILED);
	if (base != MAP_FAILED)
		CHECK(MUNMAP(base, (size_t)mb.size) == 0);
out:
	if (failures != fails)
		printf("  (mmap, palette %s)\n", pals[k].name);
	free(ref);
	close_cam(fd);
}

/* One slot at another size and palette than the other. */
static void test_mixed_slots(void)
{
	int fd = open_cam(SPEC), frame;
	size_t s0 = 0, s1 = 0;
	uint8_t *ref0 = ref_frames(SPEC, V4L2_PIX_FMT_BGR24, 640, 480, 1, &s0);
	uint8_t *ref1 = ref_frames(SPEC, V4L2_PIX_FMT_GREY, W, H, 1, &s1);
	struct video_mbuf mb;
	struct video_mmap vm0 = { .frame = 0,
				  .width = 640,
				  .height = 480,
				  .format = VIDEO_PALETTE_RGB24 };
	struct video_mmap vm1 = { .frame = 1,
				  .width = W,
				  .height = H,
				  .format = VIDEO_PALETTE_GREY };
	uint8_t *base;

	CHECK(ref0 && ref1 && s0 == 640 * 480 * 3 && s1 == W * H);
	memset(&mb, 0, sizeof(mb));
	CHECK(IOCTL(fd, VIDIOCGMBUF, &mb) == 0);
	if (mb.size <= 0)
		goto out;
	base = MMAP(NULL, (size_t)mb.size, PROT_READ, MAP_SHARED, fd, 0);
	CHECK(base != MAP_FAILED);
	if (base == MAP_FAILED || !ref0 || !ref1)
		goto out;
	CHECK(IOCTL(fd, VIDIOCMCAPTURE, &vm0) == 0);
	CHECK(IOCTL(fd, VIDIOCMCAPTURE, &vm1) == 0);
	/* Each format change restarts the stream: frame 0 both times. */
	frame = 0;
	CHECK(IOCTL(fd, VIDIOCSYNC, &frame) == 0);
	CHECK(!memcmp(base + mb.offsets[0], ref0, s0));
	frame = 1;
	CHECK(IOCTL(fd, VIDIOCSYNC, &frame) == 0);
	CHECK(!memcmp(base + mb.offsets[1], ref1, s1));
	CHECK(MUNMAP(base, (size_t)mb.size) == 0);
out:
	free(ref0);
	free(ref1);
	close_cam(fd);
}

/* A camera whose only format (MJPG) V4L1 cannot name: GPICT offers RGB24. */
static void test_take_what_you_get(void)
{
	const char *spec = "MJPG:320x240:nopace";
	int fd = open_cam(spec);
	size_t size = 0;
	uint8_t *ref = ref_frames(spec, V4L2_PIX_FMT_BGR24, W, H, 2, &size);
	uint8_t *buf = malloc(W * H * 3);
	struct video_picture p;
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };

	CHECK(ref && size == W * H * 3);
	CHECK(IOCTL(fd, VIDIOCGPICT, &p) == 0);
	CHECK(p.palette == VIDEO_PALETTE_RGB24 && p.depth == 24);
	CHECK(IOCTL(fd, VIDIOC_G_FMT, &f) == 0);
	CHECK(f.fmt.pix.pixelformat == V4L2_PIX_FMT_BGR24);
	for (int i = 0; ref && i < 2; i++) {
		CHECK(READ(fd, buf, W * H * 3) == W * H * 3);
		CHECK(!memcmp(buf, ref + (size_t)i * W * H * 3, W * H * 3));
	}
	free(buf);
	free(ref);
	close_cam(fd);
}

/* The same, when the program reads without asking (no VIDIOCGPICT). */
static void test_read_unasked(void)
{
	const char *spec = "BA81:320x240:nopace";
	int fd = open_cam(spec);
	size_t size = 0;
	uint8_t *ref = ref_frames(spec, V4L2_PIX_FMT_BGR24, W, H, 1, &size);
	uint8_t *buf = malloc(W * H * 3);
	struct video_picture p;

	CHECK(ref && size == W * H * 3);
	CHECK(READ(fd, buf, W * H * 3) == W * H * 3);
	CHECK(ref && !memcmp(buf, ref, W * H * 3));
	CHECK(IOCTL(fd, VIDIOCGPICT, &p) == 0);
	CHECK(p.palette == VIDEO_PALETTE_RGB24 && p.depth == 24);
	free(buf);
	free(ref);
	close_cam(fd);
}

/* Files that are not V4L2 devices stay plain. */
static void test_passthrough(void)
{
	int fd = OPEN("/dev/null", O_RDWR);
	struct video_capability cap;
	char c;
	int want;

	/* What the plain system call says (ENOTTY; ENOSYS under qemu-user). */
	CHECK(fd >= 0);
	errno = 0;
	CHECK(syscall(SYS_ioctl, fd, VIDIOCGCAP, &cap) == -1);
	want = errno;
	errno = 0;
	CHECK(IOCTL(fd, VIDIOCGCAP, &cap) == -1 && errno == want);
	CHECK(READ(fd, &c, 1) == 0);
	CHECK(CLOSE(fd) == 0);
	errno = 0;
	CHECK(OPEN("/nonexistent/video0", O_RDWR) == -1 && errno == ENOENT);
}

int main(void)
{
	printf("V4L1 client through %s\n", VARIANT);
	test_passthrough();
	test_caps();
	test_refused();
	for (size_t k = 0; k < NPALS; k++) {
		if (!pals[k].fourcc)
			continue;
		test_read(k);
		test_mmap(k);
	}
	test_mixed_slots();
	test_take_what_you_get();
	test_read_unasked();
	printf("%s\n", failures ? "FAILED" : "ok");
	return failures != 0;
}
