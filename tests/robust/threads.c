/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libv4l2 from several threads, on the virtual camera (run under
 * ThreadSanitizer in the 'threads' suite of a -Db_sanitize=thread build).
 * libv4l2 calls the driver's DQBUF without its own lock, as a kernel driver
 * serialises itself; the virtual camera does not, so here it is wrapped
 * (test variant's plugin hook) by a plugin taking a per-camera lock
 * around each of its calls, as a driver would.
 *   1. DQBUF/QBUF in one thread while another changes controls (a real one
 *      and the emulated flips, which change the conversion) and formats
 *      are queried;
 *   2. DQBUF in one thread while another closes the device: every call
 *      returns (a frame or an error), nothing is used after it is freed;
 *   3. two cameras streaming in two threads, each frame checked;
 *   4. read() in one thread, G_FMT/QUERYCTRL in another.
 * Then `cycles` (argument, else $ROBUST_CYCLES, else 10000) open / stream /
 * close cycles, checking that no fd and no mapping is left behind
 * (/proc/self/fd, /proc/self/maps) and, under LeakSanitizer, no memory.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <dirent.h>
#include <time.h>

#include <linux/videodev2.h>

#include <libv4l2.h>

#include "v4l2/testhook.h"
#include "vcam/vcam.h"
#include "../common/check.h"

struct locked {
	pthread_mutex_t lock;
	void *inner;
};

static void *locked_init(int fd)
{
	void *inner = v4lc_vcam_ops.init(fd);
	struct locked *l;

	if (!inner)
		return NULL;
	l = calloc(1, sizeof(*l));
	pthread_mutex_init(&l->lock, NULL);
	l->inner = inner;
	return l;
}

static void locked_close(void *priv)
{
	struct locked *l = priv;

	v4lc_vcam_ops.close(l->inner);
	pthread_mutex_destroy(&l->lock);
	free(l);
}

static int locked_ioctl(void *priv, int fd, unsigned long req, void *arg)
{
	struct locked *l = priv;
	int r, e;

	pthread_mutex_lock(&l->lock);
	r = v4lc_vcam_ops.ioctl(l->inner, fd, req, arg);
	e = errno;
	pthread_mutex_unlock(&l->lock);
	errno = e;
	return r;
}

static const struct libv4l_dev_ops locked_ops = {
	.init = locked_init,
	.close = locked_close,
	.ioctl = locked_ioctl,
};

#define W 64
#define H 48

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

struct cam {
	int fd;
	uint8_t *maps[4];
	size_t len;
	uint32_t fourcc;
	int stop;   /* atomic */
	int frames; /* atomic */
};

static int cam_open(struct cam *c, const char *spec, uint32_t fourcc)
{
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };

	memset(c, 0, sizeof(*c));
	c->fourcc = fourcc;
	c->fd = v4lc_vcam_create(spec);
	if (c->fd < 0 || v4l2_fd_open(c->fd, 0) != c->fd) {
		CHECK(!"open");
		return -1;
	}
	f.fmt.pix.width = W;
	f.fmt.pix.height = H;
	f.fmt.pix.pixelformat = fourcc;
	CHECK(v4l2_ioctl(c->fd, VIDIOC_S_FMT, &f) == 0);
	CHECK(f.fmt.pix.pixelformat == fourcc);
	return 0;
}

static int cam_stream(struct cam *c)
{
	struct v4l2_requestbuffers req = {
		.count = 4,
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_MMAP,
	};
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;

	if (v4l2_ioctl(c->fd, VIDIOC_REQBUFS, &req) != 0 || req.count != 4) {
		CHECK(!"REQBUFS");
		return -1;
	}
	for (unsigned int i = 0; i < 4; i++) {
		struct v4l2_buffer b = { .type = type,
					 .memory = V4L2_MEMORY_MMAP,
					 .index = i };

		CHECK(v4l2_ioctl(c->fd, VIDIOC_QUERYBUF, &b) == 0);
		c->len = b.length;
		c->maps[i] = v4l2_mmap(NULL, b.length, PROT_READ | PROT_WRITE,
				       MAP_SHARED, c->fd, b.m.offset);
		CHECK(c->maps[i] != MAP_FAILED);
		CHECK(v4l2_ioctl(c->fd, VIDIOC_QBUF, &b) == 0);
	}
	CHECK(v4l2_ioctl(c->fd, VIDIOC_STREAMON, &type) == 0);
	return 0;
}

static void cam_unmap(struct cam *c)
{
	for (int i = 0; i < 4; i++)
		if (c->maps[i] && c->maps[i] != MAP_FAILED)
			CHECK(v4l2_munmap(c->maps[i], c->len) == 0);
}

static void cam_close(struct cam *c)
{
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;

	CHECK(v4l2_ioctl(c->fd, VIDIOC_STREAMOFF, &type) == 0);
	cam_unmap(c);
	CHECK(v4l2_close(c->fd) == 0);
}

/* Dequeue until told to stop: frames in sequence, each of the right size. */
static void *dq_loop(void *arg)
{
	struct cam *c = arg;
	uint32_t last = 0;
	size_t want =
		c->fourcc == V4L2_PIX_FMT_RGB24 ? W * H * 3 : W * H * 3 / 2;

	while (!__atomic_load_n(&c->stop, __ATOMIC_ACQUIRE)) {
		struct v4l2_buffer b = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
					 .memory = V4L2_MEMORY_MMAP };

		if (v4l2_ioctl(c->fd, VIDIOC_DQBUF, &b) != 0) {
			CHECK(!"DQBUF");
			break;
		}
		CHECK(b.index < 4 && b.bytesused == want);
		CHECK(__atomic_load_n(&c->frames, __ATOMIC_RELAXED) == 0 ||
		      b.sequence > last);
		last = b.sequence;
		if (b.index < 4) {
			/* read the frame the application got */
			volatile uint8_t x = c->maps[b.index][0];

			x ^= c->maps[b.index][want - 1];
			(void)x;
		}
		__atomic_add_fetch(&c->frames, 1, __ATOMIC_RELEASE);
		CHECK(v4l2_ioctl(c->fd, VIDIOC_QBUF, &b) == 0);
	}
	return NULL;
}

static void test_controls_while_streaming(void)
{
	struct cam c;
	pthread_t t;

	if (cam_open(&c, "YUYV:64x48:nopace", V4L2_PIX_FMT_RGB24) ||
	    cam_stream(&c))
		return;
	double end = now_s() + 20;

	pthread_create(&t, NULL, dq_loop, &c);
	for (int i = 0;
	     i < 400 || (now_s() < end &&
			 __atomic_load_n(&c.frames, __ATOMIC_ACQUIRE) < 50);
	     i++) {
		struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
		struct v4l2_queryctrl q = { .id = V4L2_CTRL_FLAG_NEXT_CTRL };
		struct v4l2_control ctl = { .id = V4L2_CID_HFLIP,
					    .value = i & 1 };

		CHECK(v4l2_set_control(c.fd, V4L2_CID_BRIGHTNESS,
				       (i * 997) & 0xffff) == 0);
		/* the emulated flips, when this camera has them */
		v4l2_ioctl(c.fd, VIDIOC_S_CTRL, &ctl);
		ctl.id = V4L2_CID_VFLIP;
		v4l2_ioctl(c.fd, VIDIOC_S_CTRL, &ctl);
		CHECK(v4l2_get_control(c.fd, V4L2_CID_BRIGHTNESS) >= 0);
		CHECK(v4l2_ioctl(c.fd, VIDIOC_G_FMT, &f) == 0 &&
		      f.fmt.pix.pixelformat == V4L2_PIX_FMT_RGB24);
		v4l2_ioctl(c.fd, VIDIOC_QUERYCTRL, &q);
	}
	__atomic_store_n(&c.stop, 1, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	CHECK(c.frames >= 50);
	cam_close(&c);
}

struct closer {
	struct cam *c;
	int delay_us;
};

/* DQBUF until an error: the device was closed under us. */
static void *dq_until_error(void *arg)
{
	struct cam *c = arg;

	for (int k = 0; k < 100000; k++) {
		struct v4l2_buffer b = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
					 .memory = V4L2_MEMORY_MMAP };

		if (v4l2_ioctl(c->fd, VIDIOC_DQBUF, &b) != 0)
			break;
		if (v4l2_ioctl(c->fd, VIDIOC_QBUF, &b) != 0)
			break;
	}
	return NULL;
}

static void test_close_while_dqbuf(int rounds)
{
	for (int r = 0; r < rounds; r++) {
		struct cam c;
		pthread_t t;

		if (cam_open(&c, "YUYV:64x48:nopace", V4L2_PIX_FMT_RGB24) ||
		    cam_stream(&c))
			return;
		pthread_create(&t, NULL, dq_until_error, &c);
		usleep((useconds_t)(r % 7) * 100);
		/* the application unmaps and closes while the other thread
		 * is still dequeuing (an application bug, but no crash) */
		cam_unmap(&c);
		CHECK(v4l2_close(c.fd) == 0);
		pthread_join(t, NULL);
	}
}

static void test_two_cameras(void)
{
	struct cam a, b;
	pthread_t ta, tb;

	if (cam_open(&a, "YUYV:64x48:nopace", V4L2_PIX_FMT_RGB24) ||
	    cam_open(&b, "MJPG:64x48:nopace", V4L2_PIX_FMT_YUV420) ||
	    cam_stream(&a) || cam_stream(&b))
		return;
	pthread_create(&ta, NULL, dq_loop, &a);
	pthread_create(&tb, NULL, dq_loop, &b);
	{
		double end = now_s() + 60;

		while ((__atomic_load_n(&a.frames, __ATOMIC_ACQUIRE) < 200 ||
			__atomic_load_n(&b.frames, __ATOMIC_ACQUIRE) < 200) &&
		       now_s() < end)
			usleep(1000);
	}
	CHECK(__atomic_load_n(&a.frames, __ATOMIC_ACQUIRE) >= 200 &&
	      __atomic_load_n(&b.frames, __ATOMIC_ACQUIRE) >= 200);
	__atomic_store_n(&a.stop, 1, __ATOMIC_RELEASE);
	__atomic_store_n(&b.stop, 1, __ATOMIC_RELEASE);
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	cam_close(&a);
	cam_close(&b);
}

static void *read_loop(void *arg)
{
	struct cam *c = arg;
	uint8_t *buf = malloc(W * H * 3);

	for (int k = 0; k < 100; k++)
		CHECK(v4l2_read(c->fd, buf, W * H * 3) == W * H * 3);
	free(buf);
	__atomic_store_n(&c->stop, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void test_read_and_queries(void)
{
	struct cam c;
	pthread_t t;

	if (cam_open(&c, "GRBG:64x48:nopace", V4L2_PIX_FMT_RGB24))
		return;
	pthread_create(&t, NULL, read_loop, &c);
	while (!__atomic_load_n(&c.stop, __ATOMIC_ACQUIRE)) {
		struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
		struct v4l2_fmtdesc d = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };

		CHECK(v4l2_ioctl(c.fd, VIDIOC_G_FMT, &f) == 0);
		CHECK(v4l2_ioctl(c.fd, VIDIOC_ENUM_FMT, &d) == 0);
		v4l2_get_control(c.fd, V4L2_CID_BRIGHTNESS);
	}
	pthread_join(t, NULL);
	CHECK(v4l2_close(c.fd) == 0);
}

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	if (!d)
		return -1;
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

/* Mappings of the process that come from libv4l (memfds of the camera,
 * and the anonymous fake buffers are counted as all mappings). */
static int count_maps(int *vcam)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	int n = 0;

	*vcam = 0;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		n++;
		if (strstr(line, V4LC_VCAM_PREFIX))
			(*vcam)++;
	}
	fclose(f);
	return n;
}

static void test_cycles(int cycles)
{
	int fds0, maps0, vcam0, fds1, maps1, vcam1;

	/* warm up once: lazily created state of the libraries */
	{
		struct cam c;

		if (!cam_open(&c, "YUYV:64x48:nopace", V4L2_PIX_FMT_RGB24) &&
		    !cam_stream(&c))
			cam_close(&c);
	}
	fds0 = count_fds();
	maps0 = count_maps(&vcam0);
	for (int i = 0; i < cycles && !failures; i++) {
		struct cam c;
		struct v4l2_buffer b = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
					 .memory = V4L2_MEMORY_MMAP };

		if (cam_open(&c,
			     i & 1 ? "YUYV:64x48:nopace"
				   : "MJPG,YUYV:32x24:nopace",
			     i & 2 ? V4L2_PIX_FMT_RGB24 : V4L2_PIX_FMT_YUV420))
			break;
		if (i % 3 == 2) {
			/* read() emulation instead of mmap */
			uint8_t buf[W * H * 3];

			CHECK(v4l2_read(c.fd, buf, sizeof(buf)) > 0);
			CHECK(v4l2_close(c.fd) == 0);
			continue;
		}
		if (cam_stream(&c))
			break;
		CHECK(v4l2_ioctl(c.fd, VIDIOC_DQBUF, &b) == 0);
		if (i % 5 == 4) {
			/* closed with buffers still mapped and streaming */
			CHECK(v4l2_close(c.fd) == 0);
			cam_unmap(&c);
			continue;
		}
		cam_close(&c);
	}
	fds1 = count_fds();
	maps1 = count_maps(&vcam1);
	printf("%d open/close cycles: fds %d -> %d, mappings %d -> %d "
	       "(camera %d -> %d)\n",
	       cycles, fds0, fds1, maps0, maps1, vcam0, vcam1);
	CHECK(fds1 == fds0);
	CHECK(vcam1 == vcam0);
	/* allocator arenas may add a few; a leak per cycle would be >= cycles */
	CHECK(maps1 <= maps0 + 16);
}

int main(int argc, char **argv)
{
	const char *env = getenv("ROBUST_CYCLES");
	int cycles = argc > 1 ? atoi(argv[1]) : env ? atoi(env) : 10000;

	setvbuf(stdout, NULL, _IOLBF, 0);
	lv2_test_set_plugin(&locked_ops);

	printf("controls while streaming...\n");
	test_controls_while_streaming();
	printf("controls while streaming: done\n");
	test_close_while_dqbuf(60);
	printf("close while dequeuing: done\n");
	test_two_cameras();
	printf("two cameras: done\n");
	test_read_and_queries();
	printf("read and queries: done\n");
	test_cycles(cycles);
	printf("%s\n", failures ? "FAILED" : "ok");
	return failures != 0;
}
