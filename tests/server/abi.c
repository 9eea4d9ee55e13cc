/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A client of this build's ABI against a given frame server binary: in
 * the i686 build (under qemu-i386) the native x86-64 server, so a 32-bit
 * client talks to a 64-bit server, whose structs and ioctl numbers differ
 * (src/protocol/wire.h); natively, the same ABI on both ends. Through
 * libv4l2 with LIBV4L2_SHARE=1 on the virtual camera (YUYV 640x480):
 * QUERYCAP, ENUMINPUT, G_INPUT, ENUM_FMT, ENUM_FRAMESIZES,
 * ENUM_FRAMEINTERVALS, G/TRY/S_FMT, QUERYCTRL, QUERY_EXT_CTRL, G/S_CTRL,
 * G/S_EXT_CTRLS, G/S_PARM answer what the camera (src/vcam) offers, and
 * captured frames equal the camera's own renderer's, byte for byte. The
 * test starts the server (see start_server) and the client joins it.
 *
 *   server-abi SERVER_BINARY   (the camera's module in $LIBV4L2_PLUGIN_DIR)
 *   server-abi                 ($FS_NATIVE_SERVER, $FS_NATIVE_PLUGIN_DIR)
 * scripts/test-all.sh sets the two variables for the i686 build: the
 * native build's server and camera module (the server loads it; the
 * client loads this build's, VCAM_PLUGIN_DIR). Without
 * a server the test is skipped (77), saying why.
 */
#include <errno.h>
#include <ftw.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/videodev2.h>

#include <libv4l2.h>

#include "protocol/proto.h"
#include "vcam/vcam.h"
#include "../common/check.h"

extern char **environ;

#define W 640
#define H 480
#define NBUF 4
#define NFRAMES 8

static int xioctl(int fd, unsigned long req, void *arg)
{
	int r;

	do
		r = v4l2_ioctl(fd, req, arg);
	while (r < 0 && errno == EINTR);
	return r;
}

static void check_device(int fd)
{
	struct v4l2_capability cap;
	struct v4l2_input in = { .index = 0 };
	int input = -1;

	memset(&cap, 0, sizeof(cap));
	CHECK(xioctl(fd, VIDIOC_QUERYCAP, &cap) == 0, "QUERYCAP: %s",
	      strerror(errno));
	CHECK(!strcmp((char *)cap.driver, "v4l2-vcam"), "driver %s",
	      cap.driver);
	CHECK(cap.device_caps & V4L2_CAP_VIDEO_CAPTURE);
	CHECK(xioctl(fd, VIDIOC_ENUMINPUT, &in) == 0, "ENUMINPUT: %s",
	      strerror(errno));
	CHECK(!strcmp((char *)in.name, "Camera 1"), "input %s", in.name);
	CHECK(in.type == V4L2_INPUT_TYPE_CAMERA && in.std == 0 &&
	      in.status == 0 && in.index == 0);
	in.index = 1;
	CHECK(xioctl(fd, VIDIOC_ENUMINPUT, &in) < 0 && errno == EINVAL);
	CHECK(xioctl(fd, VIDIOC_G_INPUT, &input) == 0 && input == 0);
}

static void check_enums(int fd)
{
	struct v4l2_fmtdesc d = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_frmsizeenum s = { .pixel_format = V4L2_PIX_FMT_YUYV };
	struct v4l2_frmivalenum iv = { .pixel_format = V4L2_PIX_FMT_YUYV,
				       .width = W,
				       .height = H };
	int yuyv = 0, rgb = 0, big = 0;

	for (d.index = 0; xioctl(fd, VIDIOC_ENUM_FMT, &d) == 0; d.index++) {
		yuyv |= d.pixelformat == V4L2_PIX_FMT_YUYV &&
			!(d.flags & V4L2_FMT_FLAG_EMULATED);
		rgb |= d.pixelformat == V4L2_PIX_FMT_RGB24;
	}
	CHECK(d.index >= 2 && yuyv && rgb, "ENUM_FMT: %u formats", d.index);
	for (s.index = 0; xioctl(fd, VIDIOC_ENUM_FRAMESIZES, &s) == 0;
	     s.index++)
		big |= s.type == V4L2_FRMSIZE_TYPE_DISCRETE &&
		       s.discrete.width == W && s.discrete.height == H;
	CHECK(s.index > 0 && big, "ENUM_FRAMESIZES: %u sizes, %ux%u %s",
	      s.index, W, H, big ? "among them" : "missing");
	CHECK(xioctl(fd, VIDIOC_ENUM_FRAMEINTERVALS, &iv) == 0 &&
	      iv.type == V4L2_FRMIVAL_TYPE_DISCRETE &&
	      iv.discrete.numerator == 1 && iv.discrete.denominator == 30);
	iv.index = 1;
	CHECK(xioctl(fd, VIDIOC_ENUM_FRAMEINTERVALS, &iv) == 0 &&
	      iv.discrete.numerator == 1 && iv.discrete.denominator == 15);
}

static void check_formats(int fd)
{
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };

	CHECK(xioctl(fd, VIDIOC_G_FMT, &f) == 0, "G_FMT: %s", strerror(errno));
	CHECK(f.fmt.pix.width == W && f.fmt.pix.height == H &&
		      f.fmt.pix.pixelformat == V4L2_PIX_FMT_YUYV &&
		      f.fmt.pix.bytesperline == W * 2 &&
		      f.fmt.pix.sizeimage == W * H * 2,
	      "G_FMT %ux%u %.4s %u %u", f.fmt.pix.width, f.fmt.pix.height,
	      (char *)&f.fmt.pix.pixelformat, f.fmt.pix.bytesperline,
	      f.fmt.pix.sizeimage);
	memset(&f, 0, sizeof(f));
	f.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	f.fmt.pix.width = W;
	f.fmt.pix.height = H;
	f.fmt.pix.pixelformat = V4L2_PIX_FMT_RGB24;
	CHECK(xioctl(fd, VIDIOC_TRY_FMT, &f) == 0, "TRY_FMT: %s",
	      strerror(errno));
	CHECK(f.fmt.pix.pixelformat == V4L2_PIX_FMT_RGB24 &&
	      f.fmt.pix.width == W && f.fmt.pix.height == H &&
	      f.fmt.pix.sizeimage == W * H * 3);
	f.fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
	f.fmt.pix.field = V4L2_FIELD_ANY;
	CHECK(xioctl(fd, VIDIOC_S_FMT, &f) == 0, "S_FMT: %s", strerror(errno));
	CHECK(f.fmt.pix.pixelformat == V4L2_PIX_FMT_YUYV &&
	      f.fmt.pix.width == W && f.fmt.pix.height == H &&
	      f.fmt.pix.sizeimage == W * H * 2);
	/* An overlay format holds pointers: refused, never sent. */
	memset(&f, 0, sizeof(f));
	f.type = V4L2_BUF_TYPE_VIDEO_OVERLAY;
	CHECK(xioctl(fd, VIDIOC_TRY_FMT, &f) < 0 && errno == EINVAL);
}

static void check_controls(int fd)
{
	struct v4l2_queryctrl q = { .id = V4L2_CID_BRIGHTNESS };
	struct v4l2_query_ext_ctrl qe = { .id = V4L2_CID_BRIGHTNESS };
	struct v4l2_control c = { .id = V4L2_CID_BRIGHTNESS, .value = 77 };
	struct v4l2_ext_control x[2] = {
		{ .id = V4L2_CID_BRIGHTNESS, .value = 201 },
		{ .id = V4L2_CID_FOCUS_ABSOLUTE, .value = 300 },
	};
	struct v4l2_ext_controls e = {
		.which = V4L2_CTRL_WHICH_CUR_VAL,
		.count = 2,
		.controls = x,
	};

	CHECK(xioctl(fd, VIDIOC_QUERYCTRL, &q) == 0 && q.minimum == 0 &&
		      q.maximum == 255 && q.default_value == 128 &&
		      !strcmp((char *)q.name, "Brightness"),
	      "QUERYCTRL: %s", strerror(errno));
	CHECK(xioctl(fd, VIDIOC_QUERY_EXT_CTRL, &qe) == 0 && qe.minimum == 0 &&
		      qe.maximum == 255 && qe.default_value == 128 &&
		      qe.step == 1,
	      "QUERY_EXT_CTRL: %s", strerror(errno));
	CHECK(xioctl(fd, VIDIOC_S_CTRL, &c) == 0, "S_CTRL: %s",
	      strerror(errno));
	c.value = 0;
	CHECK(xioctl(fd, VIDIOC_G_CTRL, &c) == 0 && c.value == 77, "G_CTRL %d",
	      c.value);
	CHECK(xioctl(fd, VIDIOC_S_EXT_CTRLS, &e) == 0, "S_EXT_CTRLS: %s",
	      strerror(errno));
	x[0].value = x[1].value = -1;
	CHECK(xioctl(fd, VIDIOC_G_EXT_CTRLS, &e) == 0 && x[0].value == 201 &&
		      x[1].value == 300,
	      "G_EXT_CTRLS %d %d", x[0].value, x[1].value);
	c.value = 0;
	CHECK(xioctl(fd, VIDIOC_G_CTRL, &c) == 0 && c.value == 201);
}

static void check_parm(int fd)
{
	struct v4l2_streamparm p = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };

	CHECK(xioctl(fd, VIDIOC_G_PARM, &p) == 0 &&
		      p.parm.capture.timeperframe.numerator == 1 &&
		      p.parm.capture.timeperframe.denominator == 30,
	      "G_PARM: %s", strerror(errno));
	p.parm.capture.timeperframe.denominator = 15;
	CHECK(xioctl(fd, VIDIOC_S_PARM, &p) == 0 &&
	      p.parm.capture.timeperframe.denominator == 15);
	memset(&p.parm, 0, sizeof(p.parm));
	CHECK(xioctl(fd, VIDIOC_G_PARM, &p) == 0 &&
	      p.parm.capture.timeperframe.denominator == 15 &&
	      (p.parm.capture.capability & V4L2_CAP_TIMEPERFRAME));
	p.parm.capture.timeperframe.denominator = 30;
	CHECK(xioctl(fd, VIDIOC_S_PARM, &p) == 0 &&
	      p.parm.capture.timeperframe.denominator == 30);
}

/* NFRAMES frames, each equal to the renderer's frame of its sequence. */
static void check_frames(int fd)
{
	struct v4l2_requestbuffers rb = { .count = NBUF,
					  .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
					  .memory = V4L2_MEMORY_MMAP };
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE, good = 0;
	size_t size = (size_t)W * H * 2;
	uint8_t *want = malloc(size);
	void *map[NBUF];

	CHECK(want != NULL);
	if (xioctl(fd, VIDIOC_REQBUFS, &rb) < 0 || rb.count < 2 ||
	    rb.count > NBUF) {
		CHECK(0, "REQBUFS: %s, %u buffers", strerror(errno), rb.count);
		free(want);
		return;
	}
	for (unsigned i = 0; i < rb.count; i++) {
		struct v4l2_buffer b = { .index = i,
					 .type = rb.type,
					 .memory = rb.memory };

		map[i] = MAP_FAILED;
		if (xioctl(fd, VIDIOC_QUERYBUF, &b) == 0)
			map[i] = v4l2_mmap(NULL, b.length,
					   PROT_READ | PROT_WRITE, MAP_SHARED,
					   fd, b.m.offset);
		if (map[i] == MAP_FAILED || xioctl(fd, VIDIOC_QBUF, &b) < 0) {
			CHECK(0, "buffer %u: %s", i, strerror(errno));
			free(want);
			return;
		}
	}
	CHECK(xioctl(fd, VIDIOC_STREAMON, &type) == 0, "STREAMON: %s",
	      strerror(errno));
	for (int n = 0; n < NFRAMES; n++) {
		struct v4l2_buffer b = { .type = rb.type, .memory = rb.memory };

		if (xioctl(fd, VIDIOC_DQBUF, &b) < 0 || b.index >= rb.count) {
			CHECK(0, "DQBUF: %s", strerror(errno));
			break;
		}
		CHECK(v4lc_vcam_render(V4L2_PIX_FMT_YUYV, W, H, b.sequence,
				       want, size) == (int)size);
		CHECK(b.bytesused == size && !memcmp(map[b.index], want, size),
		      "frame %u (seq %u): %u bytes, not the camera's",
		      (unsigned)n, b.sequence, b.bytesused);
		good += b.bytesused == size &&
			!memcmp(map[b.index], want, size);
		CHECK(xioctl(fd, VIDIOC_QBUF, &b) == 0);
	}
	CHECK(good == NFRAMES, "%d of %d frames equal", good, NFRAMES);
	CHECK(xioctl(fd, VIDIOC_STREAMOFF, &type) == 0);
	for (unsigned i = 0; i < rb.count; i++)
		v4l2_munmap(map[i], size);
	free(want);
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/*
 * The server, started here rather than by libv4l2: a dynamically linked
 * i386 program's fork() never returns under qemu-i386 7.2 (the emulator
 * of the i686 tests), posix_spawn works. Returns its pid once it listens
 * (the client then joins it), or -1.
 */
static pid_t start_server(const char *bin, const char *dev)
{
	char key[80], path[200];
	char *argv[] = { (char *)bin, "--device", (char *)dev,
			 "--idle-ms", "1000",     NULL };
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	struct stat st;
	pid_t pid;

	if (fs_device_key(dev, key, sizeof(key)) < 0 ||
	    fs_socket_path(key, path, sizeof(path)) < 0 ||
	    posix_spawn(&pid, bin, NULL, NULL, argv, environ) != 0)
		return -1;
	for (int i = 0; i < 1000; i++) {
		if (stat(path, &st) == 0 && S_ISSOCK(st.st_mode))
			return pid;
		if (waitpid(pid, NULL, WNOHANG) == pid)
			return -1;
		nanosleep(&tick, NULL);
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	return -1;
}

int main(int argc, char **argv)
{
	const char *server = argc > 1 ? argv[1] : getenv("FS_NATIVE_SERVER");
	const char *plugins = getenv(argc > 1 ? "LIBV4L2_PLUGIN_DIR"
					      : "FS_NATIVE_PLUGIN_DIR");
	char dir[] = "/tmp/fsabiXXXXXX", link[128], path[64], name[64];
	ssize_t n;
	pid_t pid;
	int fd, status = -1;

	if (!server || !plugins || access(server, X_OK) < 0) {
		printf("SKIP: no frame server to talk to: "
		       "FS_NATIVE_SERVER and FS_NATIVE_PLUGIN_DIR are not "
		       "set (scripts/test-all.sh sets them for the i686 "
		       "build, from the native one)\n");
		return 77;
	}
	CHECK(mkdtemp(dir) != NULL);
	setenv("XDG_RUNTIME_DIR", dir, 1);
	setenv("LIBV4L2_FRAMESERVER", server, 1);
	setenv("LIBV4L2_PLUGIN_DIR", plugins, 1);
	setenv("LIBV4L2_SHARE", "1", 1);
	alarm(100); /* a server that stops answering must not hang us */

	CHECK(v4lc_vcam_name(name, sizeof(name), "YUYV:640x480") == 0);
	pid = start_server(server, name);
	CHECK(pid > 0, "%s did not start", server);
	/* The client's camera from a module of its own ABI (the server's
	 * may be another's, which this process cannot load). */
	setenv("LIBV4L2_PLUGIN_DIR", VCAM_PLUGIN_DIR, 1);
	fd = v4lc_vcam_create("YUYV:640x480");
	CHECK(fd >= 0);
	CHECK(pid > 0 && v4l2_fd_open(fd, 0) == fd, "v4l2_fd_open: %s",
	      strerror(errno));
	/* Shared: the fd is the server's frame socket now. */
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, link, sizeof(link) - 1);
	link[n > 0 ? n : 0] = '\0';
	CHECK(!strncmp(link, "socket:", 7), "not shared: fd is %s", link);
	if (!failures) {
		check_device(fd);
		check_enums(fd);
		check_formats(fd);
		check_controls(fd);
		check_parm(fd);
		check_frames(fd);
	}
	v4l2_close(fd);
	/* Its last client gone, the server exits (--idle-ms). */
	if (pid > 0)
		CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
			      WEXITSTATUS(status) == 0,
		      "server status %#x", status);
	nftw(dir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
	printf("server-abi: %d failures\n", failures);
	return failures != 0;
}
