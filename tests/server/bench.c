/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Frame server bench on the virtual camera (YUYV, 30 fps):
 *   server-bench SERVER [frames]
 * 1. Latency added per frame: (CLOCK_MONOTONIC at DQBUF return) minus the
 *    buffer timestamp (taken by the camera when the frame is done), for a
 *    direct libv4l2 capture and through the server; YUYV as delivered, and
 *    RGB24 (conversion in the client).
 * 2. CPU of the server per client (utime+stime from /proc while 1 and 3
 *    clients capture), as % of one core and ms per frame.
 * 3. The cost per frame of the sealing choices, in process: reusing slots
 *    sealed with F_SEAL_FUTURE_WRITE (one copy), a new memfd per frame
 *    sealed with F_SEAL_WRITE (create, copy, unmap, seal; the client maps
 *    and unmaps), and a private copy per client (no seal, N copies).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <libv4l2.h>

#include "vcam/vcam.h"
#include "protocol/proto.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Capture n frames; median latency in ms (or -1). */
static double capture(const char *spec, int share, uint32_t fourcc, int w,
		      int h, int n)
{
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_requestbuffers req = {
		.count = 4,
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_MMAP,
	};
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE, fd;
	double *lat = calloc((size_t)n, sizeof(double)), med;
	void *maps[4];
	size_t lens[4];

	setenv("LIBV4L2_SHARE", share ? "1" : "0", 1);
	fd = v4lc_vcam_create(spec);
	if (fd < 0 || v4l2_fd_open(fd, 0) < 0)
		return -1;
	f.fmt.pix.width = (uint32_t)w;
	f.fmt.pix.height = (uint32_t)h;
	f.fmt.pix.pixelformat = fourcc;
	if (v4l2_ioctl(fd, VIDIOC_S_FMT, &f) < 0 ||
	    v4l2_ioctl(fd, VIDIOC_REQBUFS, &req) < 0)
		return -1;
	for (unsigned i = 0; i < req.count && i < 4; i++) {
		struct v4l2_buffer b = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
					 .memory = V4L2_MEMORY_MMAP,
					 .index = i };

		v4l2_ioctl(fd, VIDIOC_QUERYBUF, &b);
		lens[i] = b.length;
		maps[i] = v4l2_mmap(NULL, b.length, PROT_READ | PROT_WRITE,
				    MAP_SHARED, fd, b.m.offset);
		v4l2_ioctl(fd, VIDIOC_QBUF, &b);
	}
	v4l2_ioctl(fd, VIDIOC_STREAMON, &type);
	for (int k = 0; k < n; k++) {
		struct v4l2_buffer b = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
					 .memory = V4L2_MEMORY_MMAP };

		if (v4l2_ioctl(fd, VIDIOC_DQBUF, &b) < 0)
			return -1;
		lat[k] = (now_s() - ((double)b.timestamp.tv_sec +
				     b.timestamp.tv_usec / 1e6)) *
			 1e3;
		v4l2_ioctl(fd, VIDIOC_QBUF, &b);
	}
	v4l2_ioctl(fd, VIDIOC_STREAMOFF, &type);
	for (unsigned i = 0; i < req.count && i < 4; i++)
		v4l2_munmap(maps[i], lens[i]);
	v4l2_close(fd);
	qsort(lat, (size_t)n, sizeof(double), cmp_d);
	med = lat[n / 2];
	free(lat);
	return med;
}

static double proc_cpu_s(int pid)
{
	char p[64], buf[1024], *c;
	unsigned long ut = 0, st = 0;
	FILE *f;

	snprintf(p, sizeof(p), "/proc/%d/stat", pid);
	f = fopen(p, "r");
	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	c = strrchr(buf, ')');
	/* fields after ")": state(3) ... utime(14) stime(15) */
	if (sscanf(c + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu",
		   &ut, &st) != 2)
		return -1;
	return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

static int server_pid(const char *spec)
{
	char key[80], path[200], dev[128];
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	struct fs_hello h = { .h.type = FS_HELLO, .version = FS_PROTO_VERSION };
	int s, fd, pid = -1;

	snprintf(dev, sizeof(dev), "%s:%s", V4LC_VCAM_PREFIX, spec);
	if (fs_device_key(dev, key, sizeof(key)) ||
	    fs_socket_path(key, path, sizeof(path)))
		return -1;
	strcpy(a.sun_path, path);
	s = socket(AF_UNIX, SOCK_SEQPACKET, 0);
	if (connect(s, (struct sockaddr *)&a, sizeof(a)) == 0 &&
	    fs_send(s, &h, sizeof(h), -1, 0) == 0 &&
	    fs_recv(s, &h, sizeof(h), &fd, 0) == (ssize_t)sizeof(h))
		pid = (int)h.pid;
	close(s);
	return pid;
}

/* Server CPU while nclients capture n frames each at w x h. */
static void server_cpu(const char *spec, int w, int h, int nclients, int n)
{
	pid_t kids[8];
	double c0, c1, t0, t1;
	int spid = -1;

	for (int i = 0; i < nclients; i++) {
		fflush(stdout);
		kids[i] = fork();
		if (kids[i] == 0)
			_exit(capture(spec, 1,
				      i ? V4L2_PIX_FMT_RGB24
					: V4L2_PIX_FMT_YUYV,
				      w, h, n) < 0);
	}
	for (int k = 0; k < 200 && spid < 0; k++) {
		usleep(10000);
		spid = server_pid(spec);
	}
	usleep(300000); /* past startup */
	c0 = proc_cpu_s(spid);
	t0 = now_s();
	usleep((useconds_t)((n / 30.0 - 0.6) * 1e6));
	c1 = proc_cpu_s(spid);
	t1 = now_s();
	for (int i = 0; i < nclients; i++)
		waitpid(kids[i], NULL, 0);
	{
		/* The server's process also runs the virtual camera: its
		 * rendering (measured here in process) is not server cost. */
		size_t sz = (size_t)w * h * 2;
		uint8_t *buf = malloc(sz);
		double render = 1e9;

		/* warm (templates), then the fastest of 20 */
		for (int i = 0; i < 25; i++) {
			double r0 = now_s(), t;

			v4lc_vcam_render(V4L2_PIX_FMT_YUYV, w, h, (uint32_t)i,
					 buf, sz);
			t = (now_s() - r0) * 1e3;
			if (i >= 5 && t < render)
				render = t;
		}
		free(buf);
		printf("  server process CPU, %d client(s) %dx%d: %.1f %% of a "
		       "core, %.2f ms per frame, of which camera rendering "
		       "%.2f ms: server %.2f ms per frame (%.1f %% at 30 fps)\n",
		       nclients, w, h, 100 * (c1 - c0) / (t1 - t0),
		       (c1 - c0) * 1e3 / ((t1 - t0) * 30), render,
		       (c1 - c0) * 1e3 / ((t1 - t0) * 30) - render,
		       ((c1 - c0) * 1e3 / ((t1 - t0) * 30) - render) * 3);
	}
}

/* In-process cost of the three sealing choices for one frame. */
static void seal_bench(size_t size, int nclients, int reps)
{
	uint8_t *frame = malloc(size);
	double t0, fut, wr, cp;
	int fds[4];
	uint8_t *maps[4];

	memset(frame, 0x42, size);
	/* future: one persistent slot, one copy per frame. */
	fds[0] = memfd_create("b", MFD_ALLOW_SEALING);
	if (ftruncate(fds[0], (off_t)size) < 0)
		return;
	maps[0] =
		mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fds[0], 0);
	fcntl(fds[0], F_ADD_SEALS,
	      F_SEAL_FUTURE_WRITE | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL);
	memcpy(maps[0], frame, size); /* pages in, as for the others */
	t0 = now_s();
	for (int r = 0; r < reps; r++)
		memcpy(maps[0], frame, size);
	fut = (now_s() - t0) / reps;
	munmap(maps[0], size);
	close(fds[0]);

	/* write: new memfd per frame, sealed; each client maps it once. */
	t0 = now_s();
	for (int r = 0; r < reps; r++) {
		int fd = memfd_create("b", MFD_ALLOW_SEALING);
		uint8_t *m;

		if (ftruncate(fd, (off_t)size) < 0)
			return;
		m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		memcpy(m, frame, size);
		munmap(m, size);
		fcntl(fd, F_ADD_SEALS,
		      F_SEAL_WRITE | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL);
		for (int c = 0; c < nclients; c++) {
			const volatile uint8_t *ro =
				mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
			volatile uint8_t sink = 0;

			/* the client touches every page as a copy would */
			for (size_t o = 0; o < size; o += 4096)
				sink ^= ro[o];
			(void)sink;
			munmap((void *)ro, size);
		}
		close(fd);
	}
	wr = (now_s() - t0) / reps;

	/* copy: a private persistent buffer per client, N copies. */
	for (int c = 0; c < nclients; c++) {
		fds[c] = memfd_create("b", 0);
		if (ftruncate(fds[c], (off_t)size) < 0)
			return;
		maps[c] = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED,
			       fds[c], 0);
		memset(maps[c], 0, size);
	}
	t0 = now_s();
	for (int r = 0; r < reps; r++)
		for (int c = 0; c < nclients; c++)
			memcpy(maps[c], frame, size);
	cp = (now_s() - t0) / reps;
	for (int c = 0; c < nclients; c++) {
		munmap(maps[c], size);
		close(fds[c]);
	}
	printf("  seal cost per frame, %zu bytes, %d client(s): "
	       "future-write slots %.3f ms, new sealed memfd %.3f ms, "
	       "per-client copies %.3f ms\n",
	       size, nclients, fut * 1e3, wr * 1e3, cp * 1e3);
	free(frame);
}

int main(int argc, char **argv)
{
	char tmp[] = "/tmp/fsbenchXXXXXX";
	int n = argc > 2 ? atoi(argv[2]) : 90;
	static const int sizes[2][2] = { { 640, 480 }, { 1280, 720 } };

	if (argc < 2) {
		fprintf(stderr, "usage: %s SERVER [frames]\n", argv[0]);
		return 2;
	}
	if (!mkdtemp(tmp))
		return 1;
	setenv("XDG_RUNTIME_DIR", tmp, 1);
	setenv("LIBV4L2_FRAMESERVER", argv[1], 1);
	setenv("LIBV4L2_FRAMESERVER_IDLE_MS", "300", 1);
	for (int s = 0; s < 2; s++) {
		int w = sizes[s][0], h = sizes[s][1];
		char spec[64];

		snprintf(spec, sizeof(spec), "YUYV:%dx%d", w, h);
		printf("%dx%d YUYV, %d frames, median latency DQBUF - "
		       "timestamp:\n",
		       w, h, n);
		for (int rgb = 0; rgb < 2; rgb++) {
			uint32_t fc =
				rgb ? V4L2_PIX_FMT_RGB24 : V4L2_PIX_FMT_YUYV;
			double d = capture(spec, 0, fc, w, h, n);
			double sh = capture(spec, 1, fc, w, h, n);

			printf("  app %s: direct %.3f ms, shared %.3f ms, "
			       "added %.3f ms\n",
			       rgb ? "RGB24" : "YUYV", d, sh, sh - d);
		}
		usleep(500000);
		server_cpu(spec, w, h, 1, n);
		usleep(500000);
		server_cpu(spec, w, h, 3, n);
		seal_bench((size_t)w * h * 2, 1, 100);
		seal_bench((size_t)w * h * 2, 3, 100);
	}
	{
		char cmd[64];

		usleep(600000);
		snprintf(cmd, sizeof(cmd), "rm -rf %s", tmp);
		if (system(cmd) != 0)
			return 1;
	}
	return 0;
}
