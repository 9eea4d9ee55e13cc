/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libv4l2's device table against calls racing a close of the same fd, on
 * the virtual camera (suite 'threads': the ThreadSanitizer configuration
 * runs it; AddressSanitizer sees a double free or a use after free):
 *   1. two threads close one fd at once: one closes the device, the other
 *      gets EBADF, nothing is freed twice (the read() scratch buffer of a
 *      converting device was);
 *   2. v4l2_dup racing v4l2_close: the dup either counts (and the device
 *      then needs one more close) or fails like dup(2) on a closed fd, and
 *      never revives the closed slot, so all table slots open afterwards;
 *   3. v4l2_mmap of a driver buffer racing v4l2_close: a mapping or an
 *      error, never the state of a device being torn down;
 *   4. v4l2_ioctl and v4l2_read racing v4l2_close.
 * `rounds` (argument, else $ROBUST_CYCLES / 10, else 200) of each.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/videodev2.h>

#include <libv4l2.h>

#include "v4l2/testhook.h"
#include "vcam/vcam.h"
#include "../common/check.h"

#define W 64
#define H 48
/* libv4l2's device table (src/v4l2/priv.h, LV2_MAX_DEVICES) */
#define TABLE_SLOTS 16

/* A camera through libv4l2 in `fourcc` (RGB3: converted from YUYV). */
static int cam_open(uint32_t fourcc)
{
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	int fd = v4lc_vcam_create("YUYV:64x48:nopace");

	if (fd < 0 || v4l2_fd_open(fd, 0) != fd) {
		CHECK(!"open");
		return -1;
	}
	f.fmt.pix.width = W;
	f.fmt.pix.height = H;
	f.fmt.pix.pixelformat = fourcc;
	CHECK(v4l2_ioctl(fd, VIDIOC_S_FMT, &f) == 0);
	CHECK(f.fmt.pix.pixelformat == fourcc);
	return fd;
}

/* Two threads released together on a barrier, each with its result. */
struct race {
	pthread_barrier_t go;
	int fd;
	int ret[2], err[2];
	void *map;
};

struct side {
	struct race *r;
	int k;
};

static void *close_it(void *arg)
{
	struct side *s = arg;
	struct race *r = s->r;

	pthread_barrier_wait(&r->go);
	errno = 0;
	r->ret[s->k] = v4l2_close(r->fd);
	r->err[s->k] = errno;
	return NULL;
}

static void run_two(struct race *r, void *(*a)(void *), void *(*b)(void *))
{
	struct side sa = { r, 0 }, sb = { r, 1 };
	pthread_t ta, tb;

	pthread_barrier_init(&r->go, NULL, 2);
	CHECK(pthread_create(&ta, NULL, a, &sa) == 0);
	CHECK(pthread_create(&tb, NULL, b, &sb) == 0);
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	pthread_barrier_destroy(&r->go);
}

static int closed(int fd)
{
	errno = 0;
	return fcntl(fd, F_GETFD) == -1 && errno == EBADF;
}

static void test_close_close(int rounds)
{
	for (int i = 0; i < rounds; i++) {
		struct race r = { .ret = { -3, -3 } };
		uint8_t small[100];

		r.fd = cam_open(V4L2_PIX_FMT_RGB24);
		if (r.fd < 0)
			return;
		/* A read shorter than a frame: converted through scratch. */
		CHECK(v4l2_read(r.fd, small, sizeof(small)) ==
		      (ssize_t)sizeof(small));
		run_two(&r, close_it, close_it);
		/* One closed the device, the other found it closed. */
		CHECK((r.ret[0] == 0 && r.ret[1] == -1 && r.err[1] == EBADF) ||
		      (r.ret[1] == 0 && r.ret[0] == -1 && r.err[0] == EBADF));
		CHECK(closed(r.fd));
	}
}

static void *dup_it(void *arg)
{
	struct side *s = arg;
	struct race *r = s->r;

	pthread_barrier_wait(&r->go);
	errno = 0;
	r->ret[s->k] = v4l2_dup(r->fd);
	r->err[s->k] = errno;
	return NULL;
}

/* Every slot of the table can hold a device (none was leaked). */
static void check_table_free(void)
{
	int fds[TABLE_SLOTS], n = 0;

	for (; n < TABLE_SLOTS; n++) {
		fds[n] = v4lc_vcam_create("YUYV:64x48:nopace");
		if (fds[n] < 0 || v4l2_fd_open(fds[n], 0) != fds[n]) {
			CHECK(!"a table slot is free");
			if (fds[n] >= 0)
				close(fds[n]);
			break;
		}
	}
	while (n--)
		CHECK(v4l2_close(fds[n]) == 0);
}

static void test_dup_close(int rounds)
{
	for (int i = 0; i < rounds; i++) {
		struct race r = { .ret = { -3, -3 } };

		r.fd = cam_open(V4L2_PIX_FMT_RGB24);
		if (r.fd < 0)
			return;
		run_two(&r, dup_it, close_it);
		CHECK(r.ret[1] == 0);
		if (r.ret[0] == r.fd) {
			/* counted before the close: one reference left */
			CHECK(!closed(r.fd));
			CHECK(v4l2_close(r.fd) == 0);
		} else if (r.ret[0] >= 0) {
			/* a plain dup(2) of the device after it left the
			 * table, before the fd was closed */
			CHECK(close(r.ret[0]) == 0);
		} else {
			CHECK(r.err[0] == EBADF);
		}
		CHECK(closed(r.fd));
	}
	check_table_free();
}

/* The application's own buffers (no conversion): v4l2_mmap maps the
 * driver's memory through the device's plugin. */
static void *mmap_it(void *arg)
{
	struct side *s = arg;
	struct race *r = s->r;
	long page = sysconf(_SC_PAGESIZE);

	pthread_barrier_wait(&r->go);
	r->map = v4l2_mmap(NULL, (size_t)page, PROT_READ, MAP_SHARED, r->fd, 0);
	r->err[0] = errno;
	return NULL;
}

static void test_mmap_close(int rounds)
{
	for (int i = 0; i < rounds; i++) {
		struct v4l2_requestbuffers req = {
			.count = 2,
			.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
			.memory = V4L2_MEMORY_MMAP,
		};
		struct race r = { .ret = { -3, -3 } };

		r.fd = cam_open(V4L2_PIX_FMT_YUYV);
		if (r.fd < 0)
			return;
		CHECK(v4l2_ioctl(r.fd, VIDIOC_REQBUFS, &req) == 0);
		run_two(&r, mmap_it, close_it);
		CHECK(r.ret[1] == 0);
		if (r.map != MAP_FAILED)
			CHECK(munmap(r.map, (size_t)sysconf(_SC_PAGESIZE)) ==
			      0);
		else
			CHECK(r.err[0] == EBADF);
		CHECK(closed(r.fd));
	}
	check_table_free();
}

static void *ioctl_read_it(void *arg)
{
	struct side *s = arg;
	struct race *r = s->r;
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	uint8_t small[64];

	pthread_barrier_wait(&r->go);
	for (int k = 0; k < 4; k++) {
		/*
		 * Between the device leaving the table and the fd's close,
		 * calls reach the fd itself (the camera's memfd: ENOTTY for
		 * an ioctl, its bytes for a read).
		 */
		errno = 0;
		if (v4l2_ioctl(r->fd, VIDIOC_G_FMT, &f) == 0)
			CHECK(f.fmt.pix.pixelformat == V4L2_PIX_FMT_RGB24);
		else
			CHECK(errno == EBADF || errno == ENOTTY);
		/* A read waiting for a frame when the close stops the
		 * stream fails as a driver's DQBUF does then (EINVAL). */
		errno = 0;
		if (v4l2_read(r->fd, small, sizeof(small)) < 0)
			CHECK(errno == EBADF || errno == EINVAL);
	}
	return NULL;
}

static void test_calls_close(int rounds)
{
	for (int i = 0; i < rounds; i++) {
		struct race r = { .ret = { -3, -3 } };

		r.fd = cam_open(V4L2_PIX_FMT_RGB24);
		if (r.fd < 0)
			return;
		run_two(&r, ioctl_read_it, close_it);
		CHECK(r.ret[1] == 0);
		CHECK(closed(r.fd));
	}
	check_table_free();
}

int main(int argc, char **argv)
{
	const char *env = getenv("ROBUST_CYCLES");
	int rounds = argc > 1 ? atoi(argv[1]) : env ? atoi(env) / 10 : 200;

	if (rounds < 20)
		rounds = 20;
	setvbuf(stdout, NULL, _IOLBF, 0);
	lv2_test_set_plugin(&v4lc_vcam_ops);
	test_close_close(rounds);
	printf("close / close: done\n");
	test_dup_close(rounds);
	printf("dup / close: done\n");
	test_mmap_close(rounds);
	printf("mmap / close: done\n");
	test_calls_close(rounds);
	printf("ioctl, read / close: done\n");
	printf("%s\n", failures ? "FAILED" : "ok");
	return failures != 0;
}
