/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Run with v4l2convert.so preloaded: two threads, each with its own
 * camera, open, stream a few frames and close it over and over, with the
 * plain libc calls of an unmodified program. Code inside libv4l2 and its
 * plugins unmaps and closes memory and descriptors of its own while it
 * holds a device's lock; those calls must not come back through the shim
 * into libv4l2 (which would wait for the other thread's device: a lock
 * order inversion, both threads hung). A thread that has not finished
 * after the watchdog's time is a hang: the test fails instead of waiting
 * for meson's timeout. The cameras are virtual ones (memfds named
 * "libv4l-vcam:...", opened through /proc/self/fd as the shim claims
 * them), used directly or, with a server binary given, through the frame
 * server.
 *
 *   preload-threads [SERVER_BINARY]
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <linux/videodev2.h>

#include "../common/check.h"

#define ROUNDS 200
#define NBUF 2
#define WATCHDOG_S 60

struct cam {
	const char *spec;
	int hold; /* the memfd */
	int rounds_done;
	pthread_t th;
};

static void xioctl(int fd, unsigned long req, void *arg, const char *what)
{
	int r;

	do
		r = ioctl(fd, req, arg);
	while (r < 0 && errno == EINTR);
	CHECK(r == 0, "%s", what);
}

/* One frame through mmap buffers, then everything released. */
static void stream_once(int fd)
{
	struct v4l2_requestbuffers rb = {
		.count = NBUF,
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_MMAP,
	};
	struct v4l2_buffer b[NBUF];
	void *map[NBUF];
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	struct pollfd p = { .fd = fd, .events = POLLIN };

	xioctl(fd, VIDIOC_REQBUFS, &rb, "REQBUFS");
	if (rb.count < 1 || rb.count > NBUF)
		return;
	for (unsigned i = 0; i < rb.count; i++) {
		memset(&b[i], 0, sizeof(b[i]));
		b[i].index = i;
		b[i].type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		b[i].memory = V4L2_MEMORY_MMAP;
		xioctl(fd, VIDIOC_QUERYBUF, &b[i], "QUERYBUF");
		map[i] = mmap(NULL, b[i].length, PROT_READ, MAP_SHARED, fd,
			      b[i].m.offset);
		CHECK(map[i] != MAP_FAILED, "mmap");
		xioctl(fd, VIDIOC_QBUF, &b[i], "QBUF");
	}
	xioctl(fd, VIDIOC_STREAMON, &type, "STREAMON");
	if (poll(&p, 1, 5000) == 1) {
		struct v4l2_buffer d = {
			.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
			.memory = V4L2_MEMORY_MMAP,
		};

		xioctl(fd, VIDIOC_DQBUF, &d, "DQBUF");
		CHECK(d.index < rb.count && d.bytesused <= b[d.index].length);
	} else {
		CHECK(0, "no frame within 5 s");
	}
	xioctl(fd, VIDIOC_STREAMOFF, &type, "STREAMOFF");
	for (unsigned i = 0; i < rb.count; i++)
		if (map[i] != MAP_FAILED)
			CHECK(munmap(map[i], b[i].length) == 0, "munmap");
	rb.count = 0;
	xioctl(fd, VIDIOC_REQBUFS, &rb, "REQBUFS 0");
}

static void *run(void *arg)
{
	struct cam *c = arg;
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/fd/%d", c->hold);
	for (int i = 0; i < ROUNDS; i++) {
		struct v4l2_capability cap;
		int fd = open(path, O_RDWR);

		CHECK(fd >= 0, "open %s", c->spec);
		if (fd < 0)
			break;
		xioctl(fd, VIDIOC_QUERYCAP, &cap, "QUERYCAP");
		/* odd rounds: closed with its buffers still mapped */
		if (i % 2 == 0) {
			stream_once(fd);
		} else {
			void *junk = mmap(NULL, 1 << 16, PROT_READ,
					  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

			CHECK(junk != MAP_FAILED && munmap(junk, 1 << 16) == 0,
			      "anonymous mmap/munmap");
		}
		CHECK(close(fd) == 0, "close");
		__atomic_store_n(&c->rounds_done, i + 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	struct cam cams[2] = { { .spec = "libv4l-vcam:YUYV:64x48" },
			       { .spec = "libv4l-vcam:YUYV:96x64" } };
	char dir[] = "/tmp/v4l-pthreads-XXXXXX";
	struct timespec until;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1) {
		CHECK(mkdtemp(dir) != NULL);
		setenv("XDG_RUNTIME_DIR", dir, 1);
		setenv("LIBV4L2_FRAMESERVER", argv[1], 1);
		setenv("LIBV4L2_FRAMESERVER_IDLE_MS", "300", 1);
		setenv("LIBV4L2_SHARE", "1", 1);
	} else {
		setenv("LIBV4L2_SHARE", "0", 1);
	}
	for (int i = 0; i < 2; i++) {
		cams[i].hold = memfd_create(cams[i].spec, MFD_CLOEXEC);
		CHECK(cams[i].hold >= 0, "memfd");
	}
	for (int i = 0; i < 2; i++)
		CHECK(pthread_create(&cams[i].th, NULL, run, &cams[i]) == 0);
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += WATCHDOG_S;
	for (int i = 0; i < 2; i++) {
		if (pthread_timedjoin_np(cams[i].th, NULL, &until) != 0) {
			printf("FAIL: hang: thread %d stopped after %d of %d "
			       "rounds, thread %d after %d\n",
			       i, cams[i].rounds_done, ROUNDS, !i,
			       cams[!i].rounds_done);
			fflush(stdout);
			_exit(1);
		}
	}
	printf("preload-threads (%s): %d and %d rounds, %d failures\n",
	       argc > 1 ? "shared" : "direct", cams[0].rounds_done,
	       cams[1].rounds_done, failures);
	return failures != 0;
}
