/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libv4l1: the Video4Linux 1 API emulated on V4L2 devices, on top of
 * libv4l2 (which does every format conversion and the read() emulation).
 *
 * A device is managed when libv4l2 accepts it (it answers VIDIOC_QUERYCAP:
 * a V4L2 device, or one of libv4l2's plugin devices); everything else,
 * real V4L1 drivers included, goes to the plain system calls through
 * libv4l2's pass-through.
 *
 * State kept here per device: the V4L1 palette the program chose (V4L1 has
 * two names for YUYV and for YUV420, so the V4L2 format alone cannot tell
 * which one to report), the size limits found at open, and the
 * VIDIOCGMBUF frame area. Formats and sizes are always read back from
 * libv4l2 (G_FMT is answered from its cache), so V4L2 ioctls mixed in by
 * the program (S_FMT, S_INPUT, S_STD) never leave a stale copy here.
 *
 * VIDIOCMCAPTURE selects the format of a frame slot; VIDIOCSYNC captures
 * one converted frame into the slot (a read through libv4l2 at that time,
 * as the original does). The frame area is anonymous memory, VIDEO_FRAMES
 * slots of at least 16 MiB each (more when the largest frame would not
 * fit), mapped by v4l1_mmap(NULL, size, ..., fd, 0) after VIDIOCGMBUF.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/videodev2.h>

#include "libv4l1.h"
#include "libv4l1-videodev.h"
#include "libv4l2.h"

#define V4L1_MAX_DEVICES 16
#define VIDEO_FRAMES 4
#define FRAME_MIN_STRIDE (16u << 20)
#define FRAME_MAX_STRIDE (256u << 20)

struct v4l1_dev {
	int fd;			/* -1: free slot */
	int open_count;
	pthread_mutex_t lock;
	int palette;		/* VIDEO_PALETTE_* last chosen through V4L1, 0 none */
	int fmt_chosen;		/* the program chose a format (V4L1 or S_FMT) */
	uint32_t caps;		/* V4L2 device capabilities */
	int min_w, min_h, max_w, max_h;
	/* VIDIOCGMBUF frame area */
	int mbuf_given;		/* VIDIOCGMBUF answered: mmap recognised */
	uint8_t *mbuf;
	size_t mbuf_size, frame_stride;
	int mbuf_maps;
	struct video_mmap pending[VIDEO_FRAMES];
	unsigned int pending_mask;
};

static struct v4l1_dev devices[V4L1_MAX_DEVICES] = {
	[0 ... V4L1_MAX_DEVICES - 1] = { .fd = -1 },
};
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;

/* ---- logging ---------------------------------------------------------- */

LIBV4L_PUBLIC FILE *v4l1_log_file;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

static void log_init(void)
{
	const char *name;
	int fd;

	pthread_mutex_lock(&log_lock);
	if (v4l1_log_file)
		goto out;
	name = secure_getenv("LIBV4L1_LOG_FILENAME");
	if (!name || !*name)
		goto out;
	fd = (int)syscall(SYS_openat, AT_FDCWD, name,
			  O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW |
			  O_CLOEXEC, 0600);
	if (fd < 0)
		goto out;
	v4l1_log_file = fdopen(fd, "a");
	if (!v4l1_log_file)
		syscall(SYS_close, fd);
out:
	pthread_mutex_unlock(&log_lock);
}

/* Only with a log file: the library never writes to stdout or stderr. */
static void log_ioctl(int fd, unsigned int request, int result, int err)
{
	FILE *f = v4l1_log_file;

	if (!f)
		return;
	pthread_mutex_lock(&log_lock);
	if (result < 0)
		fprintf(f, "libv4l1: fd %d request 0x%08x ('%c', %u) failed: %s\n",
			fd, request, (int)((request >> 8) & 0xff),
			request & 0xff, strerror(err));
	else
		fprintf(f, "libv4l1: fd %d request 0x%08x ('%c', %u) ok\n",
			fd, request, (int)((request >> 8) & 0xff),
			request & 0xff);
	fflush(f);
	pthread_mutex_unlock(&log_lock);
}

/* ---- palettes --------------------------------------------------------- */

static const struct {
	int palette;
	uint32_t fourcc;
	int depth;		/* bits per pixel as V4L1 reports it */
} palettes[] = {
	{ VIDEO_PALETTE_GREY, V4L2_PIX_FMT_GREY, 8 },
	{ VIDEO_PALETTE_RGB565, V4L2_PIX_FMT_RGB565, 16 },
	/* V4L1's RGB24/RGB32 are B, G, R in memory. */
	{ VIDEO_PALETTE_RGB24, V4L2_PIX_FMT_BGR24, 24 },
	{ VIDEO_PALETTE_RGB32, V4L2_PIX_FMT_BGR32, 32 },
	{ VIDEO_PALETTE_RGB555, V4L2_PIX_FMT_RGB555, 16 },
	{ VIDEO_PALETTE_YUYV, V4L2_PIX_FMT_YUYV, 16 },
	{ VIDEO_PALETTE_YUV422, V4L2_PIX_FMT_YUYV, 16 },
	{ VIDEO_PALETTE_UYVY, V4L2_PIX_FMT_UYVY, 16 },
	{ VIDEO_PALETTE_YUV420P, V4L2_PIX_FMT_YUV420, 12 },
	{ VIDEO_PALETTE_YUV420, V4L2_PIX_FMT_YUV420, 12 },
	{ VIDEO_PALETTE_YUV410P, V4L2_PIX_FMT_YUV410, 9 },
	{ VIDEO_PALETTE_YUV411P, V4L2_PIX_FMT_YUV411P, 12 },
	{ VIDEO_PALETTE_YUV422P, V4L2_PIX_FMT_YUV422P, 16 },
};
#define N_PALETTES (sizeof(palettes) / sizeof(palettes[0]))

static uint32_t palette_fourcc(int palette)
{
	for (size_t i = 0; i < N_PALETTES; i++)
		if (palettes[i].palette == palette)
			return palettes[i].fourcc;
	return 0;
}

static int palette_depth(int palette)
{
	for (size_t i = 0; i < N_PALETTES; i++)
		if (palettes[i].palette == palette)
			return palettes[i].depth;
	return 0;
}

/* The first (preferred) palette of a V4L2 format; 0 when none. */
static int fourcc_palette(uint32_t fourcc)
{
	for (size_t i = 0; i < N_PALETTES; i++)
		if (palettes[i].fourcc == fourcc)
			return palettes[i].palette;
	return 0;
}

/* Frame buffer depths (VIDIOCGFBUF/SFBUF). */
static const struct {
	int depth;
	uint32_t fourcc;
} fb_depths[] = {
	{ 8, V4L2_PIX_FMT_RGB332 },
	{ 15, V4L2_PIX_FMT_RGB555 },
	{ 16, V4L2_PIX_FMT_RGB565 },
	{ 24, V4L2_PIX_FMT_BGR24 },
	{ 32, V4L2_PIX_FMT_BGR32 },
};

/* Other frame buffer formats VIDIOCGFBUF can name a depth for. */
static const struct {
	int depth;
	uint32_t fourcc;
} fb_depths_more[] = {
	{ 15, V4L2_PIX_FMT_XRGB555 }, { 15, V4L2_PIX_FMT_ARGB555 },
	{ 15, V4L2_PIX_FMT_RGB555X }, { 16, V4L2_PIX_FMT_RGB565X },
	{ 24, V4L2_PIX_FMT_RGB24 }, { 32, V4L2_PIX_FMT_RGB32 },
	{ 32, V4L2_PIX_FMT_XRGB32 }, { 32, V4L2_PIX_FMT_ARGB32 },
	{ 32, V4L2_PIX_FMT_XBGR32 }, { 32, V4L2_PIX_FMT_ABGR32 },
	{ 8, V4L2_PIX_FMT_GREY },
};

/* ---- the device table ------------------------------------------------- */

static struct v4l1_dev *dev_find(int fd)
{
	if (fd < 0)
		return NULL;
	for (int i = 0; i < V4L1_MAX_DEVICES; i++)
		if (__atomic_load_n(&devices[i].fd, __ATOMIC_ACQUIRE) == fd)
			return &devices[i];
	return NULL;
}

static int get_fmt(int fd, struct v4l2_format *f)
{
	memset(f, 0, sizeof(*f));
	f->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	return v4l2_ioctl(fd, VIDIOC_G_FMT, f);
}

/*
 * Make the capture format fourcc at w x h (through libv4l2's emulation).
 * Nothing is changed unless TRY_FMT promises exactly that pixel format;
 * with exact, the size must come out exactly too. The resulting format is
 * left in *out (when not NULL). 0 or -1 with errno.
 */
static int set_fmt(int fd, uint32_t fourcc, uint32_t w, uint32_t h,
		   int exact, struct v4l2_format *out)
{
	struct v4l2_format cur, f;

	if (get_fmt(fd, &cur) == 0 && cur.fmt.pix.pixelformat == fourcc &&
	    cur.fmt.pix.width == w && cur.fmt.pix.height == h) {
		if (out)
			*out = cur;
		return 0;	/* nothing to do: keep a running stream */
	}
	memset(&f, 0, sizeof(f));
	f.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	f.fmt.pix.pixelformat = fourcc;
	f.fmt.pix.width = w;
	f.fmt.pix.height = h;
	f.fmt.pix.field = V4L2_FIELD_ANY;
	if (v4l2_ioctl(fd, VIDIOC_TRY_FMT, &f) < 0)
		return -1;
	if (f.fmt.pix.pixelformat != fourcc ||
	    (exact && (f.fmt.pix.width != w || f.fmt.pix.height != h))) {
		errno = EINVAL;
		return -1;
	}
	if (v4l2_ioctl(fd, VIDIOC_S_FMT, &f) < 0)
		return -1;
	if (f.fmt.pix.pixelformat != fourcc ||
	    (exact && (f.fmt.pix.width != w || f.fmt.pix.height != h))) {
		errno = EINVAL;
		return -1;
	}
	if (out)
		*out = f;
	return 0;
}

/* Smallest and largest capture sizes over every format (emulated too). */
static void probe_sizes(struct v4l1_dev *dev, int fd)
{
	static const uint32_t tries[2][2] = { { 48, 32 }, { 100000, 100000 } };
	struct v4l2_fmtdesc d;

	dev->min_w = dev->min_h = dev->max_w = dev->max_h = 0;
	for (uint32_t i = 0; i < 256; i++) {
		memset(&d, 0, sizeof(d));
		d.index = i;
		d.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		if (v4l2_ioctl(fd, VIDIOC_ENUM_FMT, &d) < 0)
			break;
		for (int k = 0; k < 2; k++) {
			struct v4l2_format f;

			memset(&f, 0, sizeof(f));
			f.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
			f.fmt.pix.pixelformat = d.pixelformat;
			f.fmt.pix.width = tries[k][0];
			f.fmt.pix.height = tries[k][1];
			f.fmt.pix.field = V4L2_FIELD_ANY;
			if (v4l2_ioctl(fd, VIDIOC_TRY_FMT, &f) < 0 ||
			    f.fmt.pix.width == 0 || f.fmt.pix.height == 0 ||
			    f.fmt.pix.width > 65535 || f.fmt.pix.height > 65535)
				continue;
			if (!dev->min_w || (int)f.fmt.pix.width < dev->min_w)
				dev->min_w = (int)f.fmt.pix.width;
			if (!dev->min_h || (int)f.fmt.pix.height < dev->min_h)
				dev->min_h = (int)f.fmt.pix.height;
			if ((int)f.fmt.pix.width > dev->max_w)
				dev->max_w = (int)f.fmt.pix.width;
			if ((int)f.fmt.pix.height > dev->max_h)
				dev->max_h = (int)f.fmt.pix.height;
		}
	}
}

LIBV4L_PUBLIC int v4l1_open(const char *file, int oflag, ...)
{
	struct v4l2_capability cap;
	struct v4l2_format f;
	struct v4l1_dev *dev = NULL;
	mode_t mode = 0;
	int fd;

	if ((oflag & O_CREAT) || (oflag & __O_TMPFILE) == __O_TMPFILE) {
		va_list ap;

		va_start(ap, oflag);
		mode = (mode_t)va_arg(ap, int);
		va_end(ap);
	}
	/* The raw system call: the preload shim's open() must not recurse. */
	fd = (int)syscall(SYS_openat, AT_FDCWD, file, oflag, mode);
	if (fd < 0)
		return -1;
	log_init();

	/*
	 * libv4l2 takes only devices that answer VIDIOC_QUERYCAP: anything
	 * else (a real V4L1 driver, a plain file) stays a plain fd.
	 */
	if (v4l2_fd_open(fd, 0) != fd)
		return fd;
	memset(&cap, 0, sizeof(cap));
	if (v4l2_ioctl(fd, VIDIOC_QUERYCAP, &cap) < 0)
		memset(&cap, 0, sizeof(cap));	/* libv4l2 had an answer */

	pthread_mutex_lock(&table_lock);
	for (int i = 0; i < V4L1_MAX_DEVICES; i++) {
		if (devices[i].fd < 0 && devices[i].open_count == 0) {
			dev = &devices[i];
			break;
		}
	}
	if (!dev) {
		pthread_mutex_unlock(&table_lock);
		v4l2_close(fd);
		errno = EBUSY;
		return -1;
	}
	dev->open_count = -1;	/* reserved while probing */
	pthread_mutex_unlock(&table_lock);

	memset((char *)dev + sizeof(dev->fd), 0,
	       sizeof(*dev) - sizeof(dev->fd));
	dev->open_count = -1;
	pthread_mutex_init(&dev->lock, NULL);
	dev->caps = (cap.capabilities & V4L2_CAP_DEVICE_CAPS) ?
		    cap.device_caps : cap.capabilities;
	if (dev->caps & V4L2_CAP_VIDEO_CAPTURE) {
		probe_sizes(dev, fd);
		if (get_fmt(fd, &f) == 0)
			dev->palette = fourcc_palette(f.fmt.pix.pixelformat);
	}
	dev->open_count = 1;
	__atomic_store_n(&dev->fd, fd, __ATOMIC_RELEASE);
	return fd;
}

LIBV4L_PUBLIC int v4l1_dup(int fd)
{
	struct v4l1_dev *dev = dev_find(fd);

	if (!dev)
		return v4l2_dup(fd);
	pthread_mutex_lock(&dev->lock);
	dev->open_count++;
	pthread_mutex_unlock(&dev->lock);
	return v4l2_dup(fd);
}

LIBV4L_PUBLIC int v4l1_close(int fd)
{
	struct v4l1_dev *dev = dev_find(fd);
	int left;

	if (!dev)
		return v4l2_close(fd);
	pthread_mutex_lock(&dev->lock);
	left = --dev->open_count;
	if (left == 0 && dev->mbuf) {
		/*
		 * Still mapped by the program: leave the memory to it (its
		 * munmap then reaches the real munmap); else free it.
		 */
		if (dev->mbuf_maps == 0)
			v4l2_munmap(dev->mbuf, dev->mbuf_size);
		dev->mbuf = NULL;
	}
	pthread_mutex_unlock(&dev->lock);
	if (left == 0) {
		pthread_mutex_lock(&table_lock);
		__atomic_store_n(&dev->fd, -1, __ATOMIC_RELEASE);
		pthread_mutex_destroy(&dev->lock);
		dev->open_count = 0;
		pthread_mutex_unlock(&table_lock);
	}
	return v4l2_close(fd);
}

static int current_palette(struct v4l1_dev *dev, int fd, int switch_unknown);

LIBV4L_PUBLIC ssize_t v4l1_read(int fd, void *buffer, size_t n)
{
	struct v4l1_dev *dev = dev_find(fd);

	if (dev && !dev->palette && !dev->fmt_chosen) {
		/* As VIDIOCGPICT: never hand a V4L1 program a format it
		 * has no name for (JPEG, Bayer...) unasked. */
		pthread_mutex_lock(&dev->lock);
		current_palette(dev, fd, 1);
		pthread_mutex_unlock(&dev->lock);
	}
	return v4l2_read(fd, buffer, n);
}

/* ---- the frame area --------------------------------------------------- */

static size_t page_align(size_t n)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	return (n + page - 1) / page * page;
}

/* dev->lock held. */
static int mbuf_alloc(struct v4l1_dev *dev)
{
	void *p;

	if (dev->mbuf)
		return 0;
	if (!dev->frame_stride) {
		/* The largest frame: the biggest size at 32 bits per pixel. */
		size_t big = (size_t)dev->max_w * (size_t)dev->max_h * 4;

		if (big > FRAME_MAX_STRIDE)
			big = FRAME_MAX_STRIDE;	/* video_mbuf.size is an int */
		dev->frame_stride = big > FRAME_MIN_STRIDE ? page_align(big)
							   : FRAME_MIN_STRIDE;
		dev->mbuf_size = dev->frame_stride * VIDEO_FRAMES;
	}
	/* Virtual memory only until frames are written. */
	p = v4l2_mmap(NULL, dev->mbuf_size, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -1;
	dev->mbuf = p;
	dev->mbuf_maps = 0;
	return 0;
}

LIBV4L_PUBLIC void *v4l1_mmap(void *start, size_t length, int prot, int flags,
			      int fd, int64_t offset)
{
	struct v4l1_dev *dev = dev_find(fd);
	void *r = MAP_FAILED;

	if (!dev)
		return v4l2_mmap(start, length, prot, flags, fd, offset);
	pthread_mutex_lock(&dev->lock);
	if (dev->mbuf_given && start == NULL && offset == 0 && length > 0 &&
	    length <= dev->mbuf_size) {
		if (mbuf_alloc(dev) == 0) {
			dev->mbuf_maps++;
			r = dev->mbuf;
		}
		pthread_mutex_unlock(&dev->lock);
		return r;
	}
	pthread_mutex_unlock(&dev->lock);
	return v4l2_mmap(start, length, prot, flags, fd, offset);
}

LIBV4L_PUBLIC int v4l1_munmap(void *start, size_t length)
{
	for (int i = 0; i < V4L1_MAX_DEVICES; i++) {
		struct v4l1_dev *dev = &devices[i];
		int fd = __atomic_load_n(&dev->fd, __ATOMIC_ACQUIRE);

		if (fd < 0)
			continue;
		pthread_mutex_lock(&dev->lock);
		if (dev->fd == fd && dev->mbuf && start == dev->mbuf) {
			int r = 0;

			/* Kept for the next mmap; freed at close. */
			if (length > 0 && length <= dev->mbuf_size &&
			    dev->mbuf_maps > 0) {
				dev->mbuf_maps--;
			} else {
				errno = EINVAL;	/* not mapped (twice?) */
				r = -1;
			}
			pthread_mutex_unlock(&dev->lock);
			return r;
		}
		pthread_mutex_unlock(&dev->lock);
	}
	return v4l2_munmap(start, length);
}

/* ---- the ioctls ------------------------------------------------------- */

static void copy_name(char *dst, size_t size, const void *src, size_t srcsize)
{
	size_t n = strnlen(src, srcsize);

	if (n >= size)
		n = size - 1;
	memcpy(dst, src, n);
	memset(dst + n, 0, size - n);
}

static int count_inputs(int fd)
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

static int count_audios(int fd)
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

static int gcap(struct v4l1_dev *dev, int fd, struct video_capability *c)
{
	struct v4l2_capability cap;
	struct v4l2_framebuffer fb;

	memset(&cap, 0, sizeof(cap));
	if (v4l2_ioctl(fd, VIDIOC_QUERYCAP, &cap) < 0)
		return -1;
	/* The whole structure, whatever the program left in it. */
	memset(c, 0, sizeof(*c));
	copy_name(c->name, sizeof(c->name), cap.card, sizeof(cap.card));
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
	c->channels = count_inputs(fd);
	if (c->channels == 0)
		c->channels = 1;	/* the faked "Camera" input */
	c->audios = count_audios(fd);
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
	if (channel == 0 && count_inputs(fd) == 0) {
		memset(in, 0, sizeof(*in));
		strcpy((char *)in->name, "Camera");
		in->type = V4L2_INPUT_TYPE_CAMERA;
		return 0;
	}
	errno = EINVAL;
	return -1;
}

static int gchan(int fd, struct video_channel *ch)
{
	struct v4l2_input in;
	int channel = ch->channel, real;

	real = find_input(fd, channel, &in);
	if (real < 0)
		return -1;
	memset(ch, 0, sizeof(*ch));
	ch->channel = channel;
	copy_name(ch->name, sizeof(ch->name), in.name, sizeof(in.name));
	if (in.type == V4L2_INPUT_TYPE_TUNER) {
		ch->tuners = 1;
		ch->flags |= VIDEO_VC_TUNER;
		ch->type = VIDEO_TYPE_TV;
	} else {
		ch->type = VIDEO_TYPE_CAMERA;
	}
	if (in.audioset)
		ch->flags |= VIDEO_VC_AUDIO;
	ch->norm = (uint16_t)(real && in.std ? current_mode(fd)
					       : VIDEO_MODE_AUTO);
	return 0;
}

static int schan(int fd, const struct video_channel *ch)
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

static int gtuner(int fd, struct video_tuner *vt)
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
	copy_name(vt->name, sizeof(vt->name), t.name, sizeof(t.name));
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

static int stuner(int fd, const struct video_tuner *vt)
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

static int gfreq(int fd, unsigned long *freq)
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

static int sfreq(int fd, const unsigned long *freq)
{
	struct v4l2_frequency f;

	memset(&f, 0, sizeof(f));
	f.tuner = 0;
	f.type = tuner_type(fd);
	f.frequency = (uint32_t)*freq;
	return v4l2_ioctl(fd, VIDIOC_S_FREQUENCY, &f);
}

/* Picture levels: V4L2 controls scaled to 0..65535 by libv4l2. */
static const uint32_t pict_cids[5] = {
	V4L2_CID_BRIGHTNESS, V4L2_CID_HUE, V4L2_CID_SATURATION,
	V4L2_CID_CONTRAST, V4L2_CID_WHITENESS,
};

static uint16_t *pict_level(struct video_picture *p, int i)
{
	switch (i) {
	case 0: return &p->brightness;
	case 1: return &p->hue;
	case 2: return &p->colour;
	case 3: return &p->contrast;
	default: return &p->whiteness;
	}
}

/* The palette shown for the current format. dev->lock held. */
static int current_palette(struct v4l1_dev *dev, int fd, int switch_unknown)
{
	struct v4l2_format f;
	int pal;

	if (get_fmt(fd, &f) < 0)
		return 0;
	if (dev->palette &&
	    palette_fourcc(dev->palette) == f.fmt.pix.pixelformat)
		return dev->palette;
	pal = fourcc_palette(f.fmt.pix.pixelformat);
	if (!pal && switch_unknown && !dev->fmt_chosen &&
	    (dev->caps & V4L2_CAP_VIDEO_CAPTURE)) {
		/*
		 * A format V4L1 cannot name, which the program did not ask
		 * for: offer RGB24 (BGR24) so "take what you get" programs
		 * work.
		 */
		if (set_fmt(fd, V4L2_PIX_FMT_BGR24, f.fmt.pix.width,
			    f.fmt.pix.height, 0, NULL) == 0)
			pal = VIDEO_PALETTE_RGB24;
	}
	if (pal)
		dev->palette = pal;
	return pal;
}

static int gpict(struct v4l1_dev *dev, int fd, struct video_picture *p)
{
	memset(p, 0, sizeof(*p));
	for (int i = 0; i < 5; i++) {
		int v = v4l2_get_control(fd, (int)pict_cids[i]);

		/* No such control: the middle of the scale. */
		*pict_level(p, i) = (uint16_t)(v < 0 ? 32768 : v);
	}
	p->palette = (uint16_t)current_palette(dev, fd, 1);
	p->depth = (uint16_t)palette_depth(p->palette);
	return 0;
}

static int spict(struct v4l1_dev *dev, int fd, const struct video_picture *p)
{
	struct video_picture want = *p;

	if (want.palette && want.palette != dev->palette) {
		uint32_t fourcc = palette_fourcc(want.palette);
		struct v4l2_format f;

		if (!fourcc || get_fmt(fd, &f) < 0) {
			errno = EINVAL;
			return -1;
		}
		if (set_fmt(fd, fourcc, f.fmt.pix.width, f.fmt.pix.height, 0,
			    NULL) < 0)
			return -1;
		dev->palette = want.palette;
		dev->fmt_chosen = 1;
	} else if (want.palette) {
		/* Same palette: re-assert it if a V4L2 call changed it. */
		struct v4l2_format f;

		if (get_fmt(fd, &f) == 0 &&
		    f.fmt.pix.pixelformat != palette_fourcc(want.palette) &&
		    set_fmt(fd, palette_fourcc(want.palette), f.fmt.pix.width,
			    f.fmt.pix.height, 0, NULL) < 0)
			return -1;
		dev->fmt_chosen = 1;
	}
	for (int i = 0; i < 5; i++) {
		int cur = v4l2_get_control(fd, (int)pict_cids[i]);
		int v = *pict_level(&want, i);

		/* Only what changed, so an unchanged level is not rounded. */
		if (cur >= 0 && cur != v &&
		    v4l2_set_control(fd, (int)pict_cids[i], v) < 0)
			return -1;
	}
	return 0;
}

static int capture(int fd, const int *on)
{
	int v = *on ? 1 : 0;

	if (!v) {
		int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		int saved = errno;

		/* Also ends streaming (a read() stream included). */
		v4l2_ioctl(fd, VIDIOC_STREAMOFF, &type);
		errno = saved;
	}
	return v4l2_ioctl(fd, VIDIOC_OVERLAY, &v);
}

static int gwin(int fd, struct video_window *w)
{
	struct v4l2_format f;

	if (get_fmt(fd, &f) < 0)
		return -1;
	memset(w, 0, sizeof(*w));
	w->width = f.fmt.pix.width;
	w->height = f.fmt.pix.height;
	if (f.fmt.pix.field == V4L2_FIELD_INTERLACED)
		w->flags = VIDEO_WINDOW_INTERLACE;
	return 0;
}

static int swin(int fd, const struct video_window *w)
{
	struct v4l2_format f;

	if (w->width == 0 || w->height == 0 || w->width > 65535 ||
	    w->height > 65535) {
		errno = EINVAL;
		return -1;
	}
	if (get_fmt(fd, &f) < 0)
		return -1;
	/* The size only; the driver may adjust it (see VIDIOCGWIN). */
	if (set_fmt(fd, f.fmt.pix.pixelformat, w->width, w->height, 0,
		    NULL) < 0)
		return -1;
	return 0;
}

static int gfbuf(int fd, struct video_buffer *b)
{
	struct v4l2_framebuffer fb;

	memset(&fb, 0, sizeof(fb));
	if (v4l2_ioctl(fd, VIDIOC_G_FBUF, &fb) < 0)
		return -1;
	memset(b, 0, sizeof(*b));
	b->base = fb.base;
	b->width = (int)fb.fmt.width;
	b->height = (int)fb.fmt.height;
	for (size_t i = 0; i < sizeof(fb_depths) / sizeof(fb_depths[0]); i++)
		if (fb_depths[i].fourcc == fb.fmt.pixelformat)
			b->depth = fb_depths[i].depth;
	for (size_t i = 0;
	     i < sizeof(fb_depths_more) / sizeof(fb_depths_more[0]); i++)
		if (fb_depths_more[i].fourcc == fb.fmt.pixelformat)
			b->depth = fb_depths_more[i].depth;
	b->bytesperline = (int)fb.fmt.bytesperline;
	return 0;
}

static int sfbuf(int fd, const struct video_buffer *b)
{
	struct v4l2_framebuffer fb;
	uint32_t fourcc = 0;

	for (size_t i = 0; i < sizeof(fb_depths) / sizeof(fb_depths[0]); i++)
		if (fb_depths[i].depth == b->depth)
			fourcc = fb_depths[i].fourcc;
	if (!fourcc || b->width <= 0 || b->height <= 0 ||
	    b->bytesperline < 0) {
		errno = EINVAL;
		return -1;
	}
	memset(&fb, 0, sizeof(fb));
	if (v4l2_ioctl(fd, VIDIOC_G_FBUF, &fb) < 0)
		return -1;
	fb.base = b->base;
	fb.fmt.width = (uint32_t)b->width;
	fb.fmt.height = (uint32_t)b->height;
	fb.fmt.pixelformat = fourcc;
	fb.fmt.bytesperline = (uint32_t)b->bytesperline;
	fb.fmt.sizeimage = fb.fmt.bytesperline * fb.fmt.height;
	return v4l2_ioctl(fd, VIDIOC_S_FBUF, &fb);
}

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
	case 0: return &a->volume;
	case 1: return &a->bass;
	case 2: return &a->treble;
	default: return &a->balance;
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

static int gaudio(int fd, struct video_audio *va)
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
	copy_name(va->name, sizeof(va->name), a.name, sizeof(a.name));
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

static int saudio(int fd, const struct video_audio *va)
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

static int gvbifmt(int fd, struct vbi_format *v)
{
	struct v4l2_format f;

	memset(&f, 0, sizeof(f));
	f.type = V4L2_BUF_TYPE_VBI_CAPTURE;
	if (v4l2_ioctl(fd, VIDIOC_G_FMT, &f) < 0)
		return -1;
	if (f.fmt.vbi.sample_format != V4L2_PIX_FMT_GREY) {
		errno = EINVAL;
		return -1;
	}
	memset(v, 0, sizeof(*v));
	v->sampling_rate = f.fmt.vbi.sampling_rate;
	v->samples_per_line = f.fmt.vbi.samples_per_line;
	v->sample_format = VIDEO_PALETTE_RAW;
	v->start[0] = f.fmt.vbi.start[0];
	v->start[1] = f.fmt.vbi.start[1];
	v->count[0] = f.fmt.vbi.count[0];
	v->count[1] = f.fmt.vbi.count[1];
	if (f.fmt.vbi.flags & V4L2_VBI_UNSYNC)
		v->flags |= VBI_UNSYNC;
	if (f.fmt.vbi.flags & V4L2_VBI_INTERLACED)
		v->flags |= VBI_INTERLACED;
	return 0;
}

static int svbifmt(int fd, const struct vbi_format *v)
{
	struct v4l2_format f;

	if (v->sample_format != VIDEO_PALETTE_RAW) {
		errno = EINVAL;
		return -1;
	}
	memset(&f, 0, sizeof(f));
	f.type = V4L2_BUF_TYPE_VBI_CAPTURE;
	if (v4l2_ioctl(fd, VIDIOC_G_FMT, &f) < 0)
		return -1;
	f.fmt.vbi.sampling_rate = v->sampling_rate;
	f.fmt.vbi.samples_per_line = v->samples_per_line;
	f.fmt.vbi.sample_format = V4L2_PIX_FMT_GREY;
	f.fmt.vbi.start[0] = v->start[0];
	f.fmt.vbi.start[1] = v->start[1];
	f.fmt.vbi.count[0] = v->count[0];
	f.fmt.vbi.count[1] = v->count[1];
	f.fmt.vbi.flags = ((v->flags & VBI_UNSYNC) ? V4L2_VBI_UNSYNC : 0) |
			  ((v->flags & VBI_INTERLACED) ? V4L2_VBI_INTERLACED
						       : 0);
	if (v4l2_ioctl(fd, VIDIOC_TRY_FMT, &f) < 0)
		return -1;
	/* V4L1 has no way to report an adjusted format: refuse it. */
	if (f.fmt.vbi.sampling_rate != v->sampling_rate ||
	    f.fmt.vbi.samples_per_line != v->samples_per_line ||
	    f.fmt.vbi.sample_format != V4L2_PIX_FMT_GREY ||
	    f.fmt.vbi.start[0] != v->start[0] ||
	    f.fmt.vbi.start[1] != v->start[1] ||
	    f.fmt.vbi.count[0] != v->count[0] ||
	    f.fmt.vbi.count[1] != v->count[1]) {
		errno = EINVAL;
		return -1;
	}
	return v4l2_ioctl(fd, VIDIOC_S_FMT, &f);
}

static int gmbuf(struct v4l1_dev *dev, struct video_mbuf *m)
{
	if (!(dev->caps & V4L2_CAP_VIDEO_CAPTURE)) {
		errno = EINVAL;
		return -1;
	}
	if (mbuf_alloc(dev) < 0)
		return -1;
	memset(m, 0, sizeof(*m));
	m->size = (int)dev->mbuf_size;
	m->frames = VIDEO_FRAMES;
	for (int i = 0; i < VIDEO_FRAMES; i++)
		m->offsets[i] = (int)(dev->frame_stride * (size_t)i);
	dev->mbuf_given = 1;
	return 0;
}

/* Make a frame slot's format current. dev->lock held. */
static int apply_mmap_fmt(struct v4l1_dev *dev, int fd,
			  const struct video_mmap *vm, struct v4l2_format *out)
{
	uint32_t fourcc = palette_fourcc((int)vm->format);

	if (!fourcc || vm->width <= 0 || vm->height <= 0 ||
	    vm->width > 65535 || vm->height > 65535) {
		errno = EINVAL;
		return -1;
	}
	/* Frames land in the program's buffer: the size must be exact. */
	if (set_fmt(fd, fourcc, (uint32_t)vm->width, (uint32_t)vm->height, 1,
		    out) < 0)
		return -1;
	if (out->fmt.pix.sizeimage > dev->frame_stride) {
		errno = EINVAL;
		return -1;
	}
	dev->palette = (int)vm->format;
	dev->fmt_chosen = 1;
	return 0;
}

static int mcapture(struct v4l1_dev *dev, int fd, const struct video_mmap *vm)
{
	struct v4l2_format f;

	if (vm->frame >= VIDEO_FRAMES) {
		errno = EINVAL;
		return -1;
	}
	if (mbuf_alloc(dev) < 0)
		return -1;
	if (apply_mmap_fmt(dev, fd, vm, &f) < 0)
		return -1;
	dev->pending[vm->frame] = *vm;
	dev->pending_mask |= 1u << vm->frame;
	return 0;
}

/* Called with dev->lock held; drops it while reading. */
static int vsync(struct v4l1_dev *dev, int fd, const int *framep)
{
	struct v4l2_format f;
	int frame = *framep;
	uint8_t *dst;
	ssize_t r;

	if (frame < 0 || frame >= VIDEO_FRAMES) {
		errno = EINVAL;
		return -1;
	}
	if (mbuf_alloc(dev) < 0)
		return -1;
	if (dev->pending_mask & (1u << frame)) {
		/* Another slot's MCAPTURE may have changed the format. */
		if (apply_mmap_fmt(dev, fd, &dev->pending[frame], &f) < 0)
			return -1;
		dev->pending_mask &= ~(1u << frame);
	} else if (get_fmt(fd, &f) < 0) {
		return -1;
	}
	if (f.fmt.pix.sizeimage > dev->frame_stride) {
		errno = EINVAL;
		return -1;
	}
	dst = dev->mbuf + dev->frame_stride * (size_t)frame;
	pthread_mutex_unlock(&dev->lock);
	r = v4l2_read(fd, dst, f.fmt.pix.sizeimage);
	pthread_mutex_lock(&dev->lock);
	return r < 0 ? -1 : 0;
}

LIBV4L_PUBLIC int v4l1_ioctl(int fd, unsigned long int request, ...)
{
	struct v4l1_dev *dev;
	unsigned int req = (unsigned int)request;
	va_list ap;
	void *arg;
	int r, err;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);

	dev = dev_find(fd);
	if (!dev)
		return v4l2_ioctl(fd, request, arg);

	switch (req) {
	case VIDIOCGCAP: case VIDIOCGCHAN: case VIDIOCSCHAN:
	case VIDIOCGTUNER: case VIDIOCSTUNER: case VIDIOCGPICT:
	case VIDIOCSPICT: case VIDIOCCAPTURE: case VIDIOCGWIN:
	case VIDIOCSWIN: case VIDIOCGFBUF: case VIDIOCSFBUF:
	case VIDIOCGFREQ: case VIDIOCSFREQ: case VIDIOCGAUDIO:
	case VIDIOCSAUDIO: case VIDIOCSYNC: case VIDIOCMCAPTURE:
	case VIDIOCGMBUF: case VIDIOCGVBIFMT: case VIDIOCSVBIFMT:
		break;
	case VIDIOC_S_FMT: {
		/* V4L2 passes through; a capture format change is noted. */
		struct v4l2_format *f = arg;

		r = v4l2_ioctl(fd, request, arg);
		if (r == 0 && f && f->type == V4L2_BUF_TYPE_VIDEO_CAPTURE) {
			pthread_mutex_lock(&dev->lock);
			dev->fmt_chosen = 1;
			if (palette_fourcc(dev->palette) !=
			    f->fmt.pix.pixelformat)
				dev->palette = fourcc_palette(
					f->fmt.pix.pixelformat);
			pthread_mutex_unlock(&dev->lock);
		}
		return r;
	}
	default:
		return v4l2_ioctl(fd, request, arg);
	}

	if (!arg) {
		errno = EFAULT;
		log_ioctl(fd, req, -1, EFAULT);
		return -1;
	}
	pthread_mutex_lock(&dev->lock);
	switch (req) {
	case VIDIOCGCAP:
		r = gcap(dev, fd, arg);
		break;
	case VIDIOCGCHAN:
		r = gchan(fd, arg);
		break;
	case VIDIOCSCHAN:
		r = schan(fd, arg);
		break;
	case VIDIOCGTUNER:
		r = gtuner(fd, arg);
		break;
	case VIDIOCSTUNER:
		r = stuner(fd, arg);
		break;
	case VIDIOCGPICT:
		r = gpict(dev, fd, arg);
		break;
	case VIDIOCSPICT:
		r = spict(dev, fd, arg);
		break;
	case VIDIOCCAPTURE:
		r = capture(fd, arg);
		break;
	case VIDIOCGWIN:
		r = gwin(fd, arg);
		break;
	case VIDIOCSWIN:
		r = swin(fd, arg);
		break;
	case VIDIOCGFBUF:
		r = gfbuf(fd, arg);
		break;
	case VIDIOCSFBUF:
		r = sfbuf(fd, arg);
		break;
	case VIDIOCGFREQ:
		r = gfreq(fd, arg);
		break;
	case VIDIOCSFREQ:
		r = sfreq(fd, arg);
		break;
	case VIDIOCGAUDIO:
		r = gaudio(fd, arg);
		break;
	case VIDIOCSAUDIO:
		r = saudio(fd, arg);
		break;
	case VIDIOCSYNC:
		r = vsync(dev, fd, arg);
		break;
	case VIDIOCMCAPTURE:
		r = mcapture(dev, fd, arg);
		break;
	case VIDIOCGMBUF:
		r = gmbuf(dev, arg);
		break;
	case VIDIOCGVBIFMT:
		r = gvbifmt(fd, arg);
		break;
	default: /* VIDIOCSVBIFMT */
		r = svbifmt(fd, arg);
		break;
	}
	err = errno;
	pthread_mutex_unlock(&dev->lock);
	r = r < 0 ? -1 : 0;
	log_ioctl(fd, req, r, err);
	errno = err;
	return r;
}
