/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target: random sequences of libv4l2 calls against the virtual
 * camera plugin (src/vcam): open (v4l2_fd_open on a vcam memfd), S/G/TRY
 * _FMT, REQBUFS, QUERYBUF + mmap, QBUF/DQBUF (mmap and userptr),
 * STREAMON/OFF, read, munmap, controls, enumeration, S_PARM, dup, close;
 * two cameras at once.
 *
 * Input: byte 0 and 1 choose the two cameras (format list, size, flip,
 * blocking or not, conversion disabled or not); then each operation is one
 * byte (low 5 bits: what, bit 7: which camera) followed by up to 4 argument
 * bytes. At the end everything still mapped is unmapped and every camera
 * closed, so that LeakSanitizer and the fd count see what the library
 * left behind.
 * Checks: no sanitizer report; a dequeued buffer's bytesused fits its
 * length; every mapped buffer is readable up to bytesused; no fd is left
 * open after the last close.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/videodev2.h>

#include <libv4l2.h>

#define MAX_MAPS 64
#define MAX_UPTR 32
#define NBUF 10 /* buffer indices tried: a few past the usual count */

/*
 * libv4l2 loads the virtual camera's plugin module for each device and
 * unloads it when the device closes; libFuzzer keeps reading the coverage
 * counters of every instrumented module it has seen, so an unloaded one
 * crashes it. Holding the module loaded (RTLD_NODELETE) keeps it mapped.
 */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *dir = getenv("LIBV4L2_PLUGIN_DIR");
	char path[4096];

	(void)argc;
	(void)argv;
	if (!dir ||
	    snprintf(path, sizeof(path), "%s/libv4l-vcam.so", dir) >=
		    (int)sizeof(path) ||
	    !dlopen(path, RTLD_NOW | RTLD_NODELETE)) {
		fprintf(stderr, "fuzz-ioctl: no camera plugin in "
				"LIBV4L2_PLUGIN_DIR\n");
		exit(1);
	}
	return 0;
}

static const char *const specs[] = {
	"YUYV",
	"MJPG",
	"GREY",
	"BA81",
	"NV12",
	"RGB3",
	"YU12,MJPG",
	"MJPG,YUYV,GRBG",
	"UYVY,BGR3",
	"JPEG",
	"YVYU,RGGB,NV21,YV12",
	"GBRG",
	"VYUY",
	"BGGR",
	"YUYV,MJPG,GREY,RGB3",
	"NV21",
};
static const char *const sizes[] = { "32x24", "48x32", "16x16", "64x48" };
static const char *const flips[] = { "", ":flip=h", ":flip=v", ":flip=hv" };

static const uint32_t fmts[] = {
	V4L2_PIX_FMT_RGB24,  V4L2_PIX_FMT_BGR24,
	V4L2_PIX_FMT_YUV420, V4L2_PIX_FMT_YVU420,
	V4L2_PIX_FMT_YUYV,   V4L2_PIX_FMT_MJPEG,
	V4L2_PIX_FMT_GREY,   V4L2_PIX_FMT_SBGGR8,
	V4L2_PIX_FMT_NV12,   V4L2_PIX_FMT_UYVY,
	V4L2_PIX_FMT_H264,   V4L2_PIX_FMT_JPEG,
	V4L2_PIX_FMT_NV21,   V4L2_PIX_FMT_SGRBG8,
	V4L2_PIX_FMT_YVYU,   0,
};

static const uint32_t ctrls[] = {
	V4L2_CID_BRIGHTNESS, V4L2_CID_FOCUS_ABSOLUTE,
	V4L2_CID_HFLIP,      V4L2_CID_VFLIP,
	V4L2_CID_GAMMA,      V4L2_CID_AUTO_WHITE_BALANCE,
	V4L2_CID_AUTOGAIN,   V4L2_CID_CONTRAST,
};

struct map {
	void *p;
	size_t len;
	int cam, index, fake;
};

struct cam {
	int fd, opens;
	uint32_t memory;
};

static struct map maps[MAX_MAPS];
static int n_maps;
static void *uptr[MAX_UPTR];
static int n_uptr;
static uint8_t sink;

#define FMT_MAGIC 0xABCDEF00u /* libv4l2's fake buffer offsets */

static int open_cam(struct cam *c, uint8_t sel)
{
	char name[96];
	int fd, flags = 0;

	snprintf(name, sizeof(name), "libv4l-vcam:%s:%s%s:nopace",
		 specs[sel & 15], sizes[(sel >> 4) & 3], flips[(sel >> 6) & 3]);
	fd = memfd_create(name, MFD_CLOEXEC);
	if (fd < 0)
		abort();
	/* one selector bit doubles as "non-blocking", another as "raw" */
	if (sel & 0x20)
		fcntl(fd, F_SETFL, O_NONBLOCK);
	if ((sel & 0x41) == 0x41)
		flags |= V4L2_DISABLE_CONVERSION;
	if (v4l2_fd_open(fd, flags) != fd) {
		close(fd);
		c->fd = -1;
		return -1;
	}
	c->fd = fd;
	c->opens = 1;
	c->memory = V4L2_MEMORY_MMAP;
	return 0;
}

static void touch(const uint8_t *p, size_t n)
{
	uint8_t x = 0;

	for (size_t i = 0; i < n; i += 64)
		x ^= p[i];
	if (n)
		x ^= p[n - 1];
	sink ^= x;
}

static struct map *find_map(int cam, int index)
{
	for (int i = 0; i < n_maps; i++)
		if (maps[i].cam == cam && maps[i].index == index)
			return &maps[i];
	return NULL;
}

static void drop_map(int i, int via_lib)
{
	if (via_lib)
		v4l2_munmap(maps[i].p, maps[i].len);
	else
		munmap(maps[i].p, maps[i].len);
	maps[i] = maps[--n_maps];
}

/*
 * The operations: each gets its camera (index ci in the caller's pair),
 * the operation number (some share a function) and 4 argument bytes; not
 * every operation uses every argument.
 */
#define UNUSED __attribute__((unused))
#define OP_ARGS                                                                \
	struct cam *c UNUSED, int ci UNUSED, uint8_t what UNUSED,              \
		const uint8_t *a UNUSED
#define CAPTURE V4L2_BUF_TYPE_VIDEO_CAPTURE

/* 0 S_FMT, 1 TRY_FMT, 2 G_FMT */
static void op_fmt(OP_ARGS)
{
	struct v4l2_format f = { .type = CAPTURE };

	if (a[3] == 0xff)
		f.type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
	f.fmt.pix.pixelformat = fmts[a[0] % 16];
	f.fmt.pix.width = (uint32_t)a[1] * 2;
	f.fmt.pix.height = (uint32_t)a[2] * 2;
	f.fmt.pix.field = a[3] & 1 ? V4L2_FIELD_INTERLACED : V4L2_FIELD_ANY;
	f.fmt.pix.bytesperline = a[3] & 2 ? 0xffffffffu : 0;
	v4l2_ioctl(c->fd,
		   what == 0   ? VIDIOC_S_FMT
		   : what == 1 ? VIDIOC_TRY_FMT
			       : VIDIOC_G_FMT,
		   &f);
}

static void op_reqbufs(OP_ARGS)
{
	struct v4l2_requestbuffers r = {
		.count = a[0] % 12,
		.type = CAPTURE,
		.memory = a[1] & 1 ? V4L2_MEMORY_USERPTR : V4L2_MEMORY_MMAP,
	};

	if (a[1] == 0xff)
		r.memory = V4L2_MEMORY_DMABUF;
	if (v4l2_ioctl(c->fd, VIDIOC_REQBUFS, &r) == 0)
		c->memory = r.memory;
}

/* QUERYBUF and mmap, remembered for the later reads and the cleanup. */
static void op_querybuf_mmap(OP_ARGS)
{
	struct v4l2_buffer b = { .type = CAPTURE,
				 .memory = V4L2_MEMORY_MMAP,
				 .index = a[0] % NBUF };
	void *p;

	if (v4l2_ioctl(c->fd, VIDIOC_QUERYBUF, &b) || n_maps == MAX_MAPS ||
	    b.memory != V4L2_MEMORY_MMAP || !b.length)
		return;
	if (b.length > (64u << 20))
		abort(); /* absurd for a 64x48 camera */
	p = v4l2_mmap(NULL, b.length, PROT_READ | PROT_WRITE, MAP_SHARED, c->fd,
		      b.m.offset);
	if (p == MAP_FAILED)
		return;
	maps[n_maps++] = (struct map){ p, b.length, ci, (int)b.index,
				       (b.m.offset & ~0xffu) == FMT_MAGIC };
}

/* QBUF, sometimes of the other memory type; user memory of the right
 * size, a bit short, or longer. */
static void op_qbuf(OP_ARGS)
{
	struct v4l2_buffer b = { .type = CAPTURE,
				 .memory = c->memory,
				 .index = a[0] % NBUF };

	if (a[1] & 0x80)
		b.memory = V4L2_MEMORY_MMAP + V4L2_MEMORY_USERPTR - c->memory;
	if (b.memory == V4L2_MEMORY_USERPTR) {
		struct v4l2_format f = { .type = CAPTURE };
		size_t len;

		if (n_uptr == MAX_UPTR)
			return;
		v4l2_ioctl(c->fd, VIDIOC_G_FMT, &f);
		/* the right size, or a bit short, or longer */
		len = f.fmt.pix.sizeimage + (size_t)(a[1] & 7) * 512;
		if (a[1] & 8)
			len = len > 4096 ? len - 4096 : 1;
		uptr[n_uptr] = malloc(len);
		b.m.userptr = (unsigned long)uptr[n_uptr++];
		b.length = (uint32_t)len;
	}
	v4l2_ioctl(c->fd, VIDIOC_QBUF, &b);
}

/* DQBUF: bytesused must fit, and the frame is read; sometimes requeued. */
static void op_dqbuf(OP_ARGS)
{
	struct v4l2_buffer b = { .type = CAPTURE, .memory = c->memory };
	struct map *m;

	if (v4l2_ioctl(c->fd, VIDIOC_DQBUF, &b))
		return;
	if (b.bytesused > b.length && b.memory == V4L2_MEMORY_MMAP) {
		fprintf(stderr, "DQBUF: bytesused %u > length %u\n",
			b.bytesused, b.length);
		abort();
	}
	if (b.memory == V4L2_MEMORY_MMAP && (m = find_map(ci, (int)b.index)) &&
	    b.bytesused <= m->len)
		touch(m->p, b.bytesused);
	if (b.memory == V4L2_MEMORY_USERPTR && b.m.userptr)
		touch((const uint8_t *)b.m.userptr, b.bytesused);
	if (a[0] & 1)
		v4l2_ioctl(c->fd, VIDIOC_QBUF, &b);
}

/* 7 STREAMON, 8 STREAMOFF */
static void op_stream(OP_ARGS)
{
	int type = CAPTURE;

	v4l2_ioctl(c->fd, what == 7 ? VIDIOC_STREAMON : VIDIOC_STREAMOFF,
		   &type);
}

static void op_read(OP_ARGS)
{
	size_t n = (size_t)a[0] * 64 + a[1];
	uint8_t *buf = malloc(n ? n : 1);
	ssize_t r = v4l2_read(c->fd, buf, n);

	if (r > (ssize_t)n)
		abort();
	if (r > 0)
		touch(buf, (size_t)r);
	free(buf);
}

/* munmap one of this camera's mappings */
static void op_munmap(OP_ARGS)
{
	for (int i = 0; i < n_maps; i++)
		if (maps[i].cam == ci) {
			drop_map(i, 1);
			break;
		}
}

/* 11 v4l2_set_control, 12 v4l2_get_control */
static void op_control(OP_ARGS)
{
	if (what == 11)
		v4l2_set_control(c->fd, (int)ctrls[a[0] % 8],
				 (int)(a[1] | (unsigned)a[2] << 8));
	else
		v4l2_get_control(c->fd, (int)ctrls[a[0] % 8]);
}

/* S_CTRL / G_CTRL */
static void op_ctrl_ioctl(OP_ARGS)
{
	struct v4l2_control ctl = { .id = ctrls[a[0] % 8],
				    .value = (int8_t)a[1] * 1000 + a[2] };

	v4l2_ioctl(c->fd, a[3] & 1 ? VIDIOC_G_CTRL : VIDIOC_S_CTRL, &ctl);
}

/* QUERYCTRL enumeration */
static void op_queryctrl(OP_ARGS)
{
	struct v4l2_queryctrl q = { .id = V4L2_CTRL_FLAG_NEXT_CTRL };

	for (int k = 0; k < 32 && v4l2_ioctl(c->fd, VIDIOC_QUERYCTRL, &q) == 0;
	     k++)
		q.id |= V4L2_CTRL_FLAG_NEXT_CTRL;
}

/* ENUM_FMT, ENUM_FRAMESIZES, ENUM_FRAMEINTERVALS */
static void op_enum(OP_ARGS)
{
	struct v4l2_fmtdesc d = { .type = CAPTURE, .index = a[0] % 40 };
	struct v4l2_frmsizeenum s = { .index = a[1] % 8 };
	struct v4l2_frmivalenum iv = { .index = a[2] % 4 };

	v4l2_ioctl(c->fd, VIDIOC_ENUM_FMT, &d);
	s.pixel_format = a[3] & 1 ? d.pixelformat : fmts[a[3] % 16];
	if (v4l2_ioctl(c->fd, VIDIOC_ENUM_FRAMESIZES, &s) == 0 &&
	    s.type == V4L2_FRMSIZE_TYPE_DISCRETE) {
		iv.pixel_format = s.pixel_format;
		iv.width = s.discrete.width;
		iv.height = s.discrete.height;
		v4l2_ioctl(c->fd, VIDIOC_ENUM_FRAMEINTERVALS, &iv);
	}
}

/* G/S_PARM */
static void op_parm(OP_ARGS)
{
	struct v4l2_streamparm p = { .type = CAPTURE };

	p.parm.capture.timeperframe.numerator = a[0];
	p.parm.capture.timeperframe.denominator = a[1];
	v4l2_ioctl(c->fd, a[2] & 1 ? VIDIOC_G_PARM : VIDIOC_S_PARM, &p);
}

/* G/TRY/S_EXT_CTRLS of up to 3 controls */
static void op_ext_ctrls(OP_ARGS)
{
	struct v4l2_ext_control ec[3] = {
		{ .id = ctrls[a[0] % 8], .value = a[1] },
		{ .id = ctrls[a[1] % 8], .value = (int8_t)a[2] * 9 },
		{ .id = ctrls[a[2] % 8], .value = a[0] },
	};
	struct v4l2_ext_controls ecs = {
		.which = V4L2_CTRL_WHICH_CUR_VAL,
		.count = a[3] % 4,
		.controls = ec,
	};
	static const unsigned long reqs[] = {
		VIDIOC_G_EXT_CTRLS,
		VIDIOC_TRY_EXT_CTRLS,
		VIDIOC_S_EXT_CTRLS,
	};

	v4l2_ioctl(c->fd, reqs[a[3] / 4 % 3], &ecs);
}

static void op_dup(OP_ARGS)
{
	if (c->opens < 4 && v4l2_dup(c->fd) == c->fd)
		c->opens++;
}

/* close one reference; the last one takes the fake buffers with it */
static void op_close(OP_ARGS)
{
	v4l2_close(c->fd);
	if (--c->opens == 0) {
		/* the fake buffers went with the device */
		for (int i = n_maps - 1; i >= 0; i--)
			if (maps[i].cam == ci && maps[i].fake)
				maps[i] = maps[--n_maps];
		c->fd = -1;
	}
}

/* (re)open: the one operation on a closed camera */
static void op_open(OP_ARGS)
{
	if (c->fd < 0)
		open_cam(c, a[0]);
}

/* QUERYCAP and G/S_INPUT */
static void op_misc(OP_ARGS)
{
	struct v4l2_capability cap;
	int input = a[0] & 1;

	v4l2_ioctl(c->fd, VIDIOC_QUERYCAP, &cap);
	v4l2_ioctl(c->fd, a[1] & 1 ? VIDIOC_G_INPUT : VIDIOC_S_INPUT, &input);
}

#define OP_OPEN 20

/* By operation number; numbers past the table do nothing. */
static void (*const op_table[])(OP_ARGS) = {
	[0] = op_fmt,      [1] = op_fmt,           [2] = op_fmt,
	[3] = op_reqbufs,  [4] = op_querybuf_mmap, [5] = op_qbuf,
	[6] = op_dqbuf,    [7] = op_stream,        [8] = op_stream,
	[9] = op_read,     [10] = op_munmap,       [11] = op_control,
	[12] = op_control, [13] = op_ctrl_ioctl,   [14] = op_queryctrl,
	[15] = op_enum,    [16] = op_parm,         [17] = op_ext_ctrls,
	[18] = op_dup,     [19] = op_close,        [OP_OPEN] = op_open,
	[21] = op_misc,
};

static void op(struct cam *cams, int ci, uint8_t what, const uint8_t *a)
{
	struct cam *c = &cams[ci];

	if (c->fd < 0 && what != OP_OPEN)
		return;
	if (what < sizeof(op_table) / sizeof(op_table[0]))
		op_table[what](c, ci, what, a);
}

static int count_fds(void)
{
	int n = 0;

	for (int fd = 0; fd < 1024; fd++)
		if (fcntl(fd, F_GETFD) >= 0)
			n++;
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cam cams[2];
	uint8_t args[4];
	int fds_before;
	size_t i = 2;

	if (size < 2)
		return 0;
	fds_before = count_fds();
	n_maps = n_uptr = 0;
	cams[0].fd = cams[1].fd = -1;
	open_cam(&cams[0], data[0]);
	if (data[1] & 0x80)
		open_cam(&cams[1], data[1]);
	for (int ops = 0; i < size && ops < 200; ops++) {
		uint8_t o = data[i++];

		memset(args, 0, sizeof(args));
		for (int k = 0; k < 4 && i < size; k++)
			args[k] = data[i++];
		op(cams, o >> 7, o & 31, args);
	}
	/* the application cleans up: unmap, then close every reference */
	for (int k = n_maps - 1; k >= 0; k--)
		drop_map(k, 1);
	for (int c = 0; c < 2; c++)
		while (cams[c].fd >= 0 && cams[c].opens-- > 0)
			v4l2_close(cams[c].fd);
	for (int k = 0; k < n_uptr; k++)
		free(uptr[k]);
	if (count_fds() != fds_before) {
		fprintf(stderr, "fd leak: %d open before, %d after\n",
			fds_before, count_fds());
		abort();
	}
	return 0;
}
