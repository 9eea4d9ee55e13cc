/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * CPU of programs sharing an MJPEG camera through the frame server:
 *   mjshare SERVER [--runs N] [--frames F] [--size WxH] [--scene]
 *           [--camera FOURCC]
 * The virtual camera (MJPG, "still": its JPEGs are made once per buffer,
 * so the camera itself costs next to nothing; colour bars, or with --scene
 * its natural-like picture at quality 85, a JPEG that costs what a real
 * scene's does) streams at 30 fps through a server this program starts;
 * 1 then 3 client processes capture F frames each as RGB24 through
 * libv4l2 (LIBV4L2_SHARE=1). Two ways:
 *   decoded  the clients set RGB24: their libv4l2 takes the server's
 *            decoded YU12 (decoded once in the server) and converts it
 *            from the server's slot;
 *   self     the clients set MJPEG and decode each frame themselves with
 *            v4lconvert_convert (what every client did when the server
 *            offered MJPEG alone).
 * --camera YU12 or RGB3: a raw camera of that format instead, the first
 * way only: what a client's part costs when it converts the server's
 * YU12 to RGB24, or copies RGB24 the server would have decoded to.
 * CPU is user+system time of the clients and of the server (all children
 * of this program, getrusage RUSAGE_CHILDREN once the server has idled
 * out); the median of N runs is printed, with the 3-client / 1-client
 * ratio.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libv4l2.h>
#include <libv4lconvert.h>

#include "protocol/proto.h"

static int W = 1920, H = 1080, FRAMES = 60;
static char devname[128];
static double server_s;         /* the last run's server CPU */
static long server_flt, faults; /* the last run's minor faults */

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* One client: F frames as RGB24; self: MJPEG decoded here. 0 if all ok. */
static int client(int self)
{
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE }, d;
	struct v4l2_requestbuffers req = {
		.count = 4,
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_MMAP,
	};
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	int fd = memfd_create(devname, MFD_CLOEXEC);
	struct v4lconvert_data *cv = v4lconvert_create(-1);
	uint8_t *rgb = malloc((size_t)W * H * 3);
	void *maps[4];
	size_t lens[4];

	if (fd < 0 || v4l2_fd_open(fd, 0) != fd || !cv || !rgb)
		return 1;
	f.fmt.pix.width = (uint32_t)W;
	f.fmt.pix.height = (uint32_t)H;
	f.fmt.pix.pixelformat = self ? V4L2_PIX_FMT_MJPEG : V4L2_PIX_FMT_RGB24;
	if (v4l2_ioctl(fd, VIDIOC_S_FMT, &f) < 0 ||
	    v4l2_ioctl(fd, VIDIOC_REQBUFS, &req) < 0 || req.count > 4)
		return 1;
	d = f;
	d.fmt.pix.pixelformat = V4L2_PIX_FMT_RGB24;
	d.fmt.pix.bytesperline = (uint32_t)W * 3;
	d.fmt.pix.sizeimage = (uint32_t)(W * H * 3);
	for (unsigned i = 0; i < req.count; i++) {
		struct v4l2_buffer b = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
					 .memory = V4L2_MEMORY_MMAP,
					 .index = i };

		if (v4l2_ioctl(fd, VIDIOC_QUERYBUF, &b) < 0)
			return 1;
		lens[i] = b.length;
		maps[i] = v4l2_mmap(NULL, b.length, PROT_READ | PROT_WRITE,
				    MAP_SHARED, fd, b.m.offset);
		if (maps[i] == MAP_FAILED || v4l2_ioctl(fd, VIDIOC_QBUF, &b))
			return 1;
	}
	if (v4l2_ioctl(fd, VIDIOC_STREAMON, &type) < 0)
		return 1;
	for (int k = 0; k < FRAMES; k++) {
		struct v4l2_buffer b = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
					 .memory = V4L2_MEMORY_MMAP };

		if (v4l2_ioctl(fd, VIDIOC_DQBUF, &b) < 0)
			return 1;
		if (self && v4lconvert_convert(cv, &f, &d, maps[b.index],
					       (int)b.bytesused, rgb,
					       (int)d.fmt.pix.sizeimage) < 0)
			return 1;
		v4l2_ioctl(fd, VIDIOC_QBUF, &b);
	}
	v4l2_ioctl(fd, VIDIOC_STREAMOFF, &type);
	for (unsigned i = 0; i < req.count; i++)
		v4l2_munmap(maps[i], lens[i]);
	v4l2_close(fd);
	return 0;
}

/* The server, started here (so its CPU is ours to count); its pid. */
static pid_t start_server(const char *bin)
{
	char key[80];
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	pid_t pid = fork();

	if (pid == 0) {
		execl(bin, bin, "--device", devname, "--idle-ms", "200",
		      (char *)NULL);
		_exit(127);
	}
	if (fs_device_key(devname, key, sizeof(key)) ||
	    fs_socket_path(key, a.sun_path, sizeof(a.sun_path)))
		return pid;
	for (int k = 0; k < 500; k++) {
		int s = socket(AF_UNIX, SOCK_SEQPACKET, 0), ok;

		ok = connect(s, (struct sockaddr *)&a, sizeof(a)) == 0;
		close(s);
		if (ok)
			return pid;
		usleep(10000);
	}
	return pid;
}

static double tv_s(struct timeval t)
{
	return (double)t.tv_sec + t.tv_usec / 1e6;
}

/* CPU seconds of one run: n clients, and the server. */
static double run(const char *bin, int n, int self)
{
	struct rusage r0, r1, ru;
	pid_t srv, kids[8];
	int st, bad = 0;

	getrusage(RUSAGE_CHILDREN, &r0);
	srv = start_server(bin);
	for (int i = 0; i < n; i++) {
		fflush(stdout);
		kids[i] = fork();
		if (kids[i] == 0)
			_exit(client(self));
	}
	for (int i = 0; i < n; i++) {
		waitpid(kids[i], &st, 0);
		bad += !WIFEXITED(st) || WEXITSTATUS(st);
	}
	wait4(srv, &st, 0, &ru); /* idles out */
	if (bad)
		fprintf(stderr, "mjshare: %d client(s) failed\n", bad);
	getrusage(RUSAGE_CHILDREN, &r1);
	server_flt = ru.ru_minflt;
	server_s = tv_s(ru.ru_utime) + tv_s(ru.ru_stime);
	faults = r1.ru_minflt - r0.ru_minflt;
	return tv_s(r1.ru_utime) + tv_s(r1.ru_stime) - tv_s(r0.ru_utime) -
	       tv_s(r0.ru_stime);
}

int main(int argc, char **argv)
{
	char dir[] = "/tmp/mjshare-XXXXXX";
	int runs = 5, scene = 0, modes = 2;
	const char *camera = "MJPG";
	double med[2][2];

	if (argc < 2) {
		fprintf(stderr, "usage: mjshare SERVER [--runs N] [--frames F] "
				"[--size WxH] [--scene] [--camera FOURCC]\n");
		return 2;
	}
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--scene"))
			scene = 1;
		else if (i + 1 == argc)
			return 2;
		else if (!strcmp(argv[i], "--runs"))
			runs = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--frames"))
			FRAMES = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--size"))
			sscanf(argv[++i], "%dx%d", &W, &H);
		else if (!strcmp(argv[i], "--camera"))
			camera = argv[++i];
	}
	/* A raw camera: its clients' part alone (nothing to decode). */
	if (strcmp(camera, "MJPG"))
		modes = 1;
	if (runs < 1 || runs > 50 || FRAMES < 1 || !mkdtemp(dir))
		return 2;
	snprintf(devname, sizeof(devname), "libv4l-vcam:%.4s:%dx%d:still%s",
		 camera, W, H, scene ? ":scene" : "");
	setenv("XDG_RUNTIME_DIR", dir, 1);
	setenv("LIBV4L2_FRAMESERVER", argv[1], 1);
	setenv("LIBV4L2_SHARE", "1", 1);
	printf("%s, %d frames per client at 30 fps, median of %d runs\n",
	       devname, FRAMES, runs);
	for (int self = 0; self < modes; self++) {
		for (int c = 0; c < 2; c++) {
			double *t = calloc((size_t)runs, sizeof(double));
			int n = c ? 3 : 1;

			double *sv = calloc((size_t)runs, sizeof(double));

			for (int r = 0; r < runs; r++) {
				t[r] = run(argv[1], n, self);
				sv[r] = server_s;
			}
			qsort(sv, (size_t)runs, sizeof(double), cmp_d);
			qsort(t, (size_t)runs, sizeof(double), cmp_d);
			med[self][c] = t[runs / 2];
			printf("  %-7s %d client(s): CPU %.3f s (runs %.3f .. "
			       "%.3f), of which the server %.3f s; minor "
			       "faults (last run) %ld, the server's %ld\n",
			       self ? "self" : "decoded", n, med[self][c], t[0],
			       t[runs - 1], sv[runs / 2], faults, server_flt);
			free(t);
			free(sv);
		}
		printf("  %-7s 3 / 1 clients: %.2fx\n",
		       self ? "self" : "decoded", med[self][1] / med[self][0]);
	}
	return 0;
}
