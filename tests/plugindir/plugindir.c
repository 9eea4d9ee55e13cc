/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libv4l2 finds the virtual camera as a plugin module (libv4l-vcam.so) in
 * its plugin directory, beside a module without the plugin symbol and one
 * that declines every device; or it does not find it, and the same device
 * stays unclaimed.
 *   plugindir BUILTIN loaded       the camera is claimed and streams
 *   plugindir BUILTIN none         it is not claimed
 *   plugindir BUILTIN setuid DIR   LIBV4L2_PLUGIN_DIR=DIR (holding the
 *                                  camera) is ignored by a setuid copy of
 *                                  this program (owner nobody) and honoured
 *                                  by the same copy without the bit;
 *                                  skipped (77) when not root, or on a
 *                                  mount without setuid
 *   plugindir BUILTIN child        (the copy) prints whether the camera is
 *                                  claimed
 * BUILTIN stands for the directory compiled into libv4l2
 * (lv2_test_set_plugin_dir, testhook.h), so that one build of the library
 * serves every case. Which directory holds the camera (the built-in one,
 * or LIBV4L2_PLUGIN_DIR) is up to the test registration (meson.build).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libv4l2.h>
#include <libv4lconvert.h>

#include "v4l2/testhook.h"
#include "vcam/vcam.h"
#include "../common/check.h"
#include "../common/setuid.h"

/* The virtual camera claims a memfd of this name (src/vcam/vcam.h). */
#define CAMERA "libv4l-vcam:YUYV:64x48"
#define W 64
#define H 48

/*
 * Frame 0 as the camera renders it (the renderer linked into this test),
 * converted to RGB24 by libv4lconvert: what libv4l2 should have delivered.
 */
static int matches_camera(const uint8_t *rgb)
{
	struct v4l2_format src = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_format dst;
	struct v4lconvert_data *conv = v4lconvert_create(-1);
	size_t raw_size = (size_t)W * H * 2;
	uint8_t *raw = malloc(raw_size), *want = malloc(W * H * 3);
	int ok;

	CHECK(conv != NULL);
	src.fmt.pix.width = W;
	src.fmt.pix.height = H;
	src.fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
	src.fmt.pix.field = V4L2_FIELD_NONE;
	src.fmt.pix.bytesperline = W * 2;
	src.fmt.pix.sizeimage = (uint32_t)raw_size;
	src.fmt.pix.colorspace = V4L2_COLORSPACE_SMPTE170M;
	dst = src;
	dst.fmt.pix.pixelformat = V4L2_PIX_FMT_RGB24;
	v4lconvert_fixup_fmt(&dst);
	ok = conv &&
	     v4lc_vcam_render(V4L2_PIX_FMT_YUYV, W, H, 0, raw, raw_size) ==
		     (int)raw_size &&
	     v4lconvert_convert(conv, &src, &dst, raw, (int)raw_size, want,
				W * H * 3) == W * H * 3 &&
	     !memcmp(rgb, want, W * H * 3);
	if (conv)
		v4lconvert_destroy(conv);
	free(raw);
	free(want);
	return ok;
}

static void expect_claimed(int fd)
{
	struct v4l2_capability cap;
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	uint8_t *rgb = malloc(W * H * 3);

	CHECK(v4l2_ioctl(fd, VIDIOC_QUERYCAP, &cap) == 0);
	CHECK(cap.device_caps & V4L2_CAP_VIDEO_CAPTURE);
	CHECK(!strcmp((const char *)cap.driver, "v4l2-vcam"));
	f.fmt.pix.width = W;
	f.fmt.pix.height = H;
	f.fmt.pix.pixelformat = V4L2_PIX_FMT_RGB24;
	CHECK(v4l2_ioctl(fd, VIDIOC_S_FMT, &f) == 0);
	CHECK(f.fmt.pix.pixelformat == V4L2_PIX_FMT_RGB24);
	CHECK(v4l2_read(fd, rgb, W * H * 3) == W * H * 3);
	CHECK(matches_camera(rgb));
	free(rgb);
}

/*
 * Not a V4L2 device to libv4l2: v4l2_fd_open refuses it, as the original,
 * with the plain ioctl's error (ENOTTY; qemu-user answers ENOSYS for an
 * ioctl it does not know).
 */
static void expect_unclaimed(int fd)
{
	errno = 0;
	CHECK(v4l2_fd_open(fd, 0) == -1 &&
	      (errno == ENOTTY || errno == ENOSYS));
}

/* In the copy: whether the camera is claimed, and whether we are secure. */
static int child(void)
{
	int fd = memfd_create(CAMERA, MFD_CLOEXEC);
	int claimed = fd >= 0 && v4l2_fd_open(fd, 0) == fd;

	printf("secure %lu claimed %d\n", getauxval(AT_SECURE), claimed);
	fflush(stdout);
	/* no exit handlers: LeakSanitizer cannot inspect a setuid process */
	_exit(0);
}

/* In the child: LIBV4L2_PLUGIN_DIR=dir. */
static void child_env(void *dir)
{
	setenv("LIBV4L2_PLUGIN_DIR", dir, 1);
	setenv("ASAN_OPTIONS", "detect_leaks=0", 1);
}

/* Run `exe child` with LIBV4L2_PLUGIN_DIR=dir; its report in buf. */
static const char *builtin_dir;

static int run_child(const char *exe, const char *dir, char *buf, size_t size)
{
	char *argv[] = { (char *)exe, (char *)builtin_dir, "child", NULL };

	return setuid_run_report(argv, child_env, (void *)dir, 0, buf, size);
}

/* A setuid program ignores LIBV4L2_PLUGIN_DIR: plugins are code. */
static int setuid_check(const char *dir)
{
	char tmp[] = "/tmp/libv4l-plugindir-XXXXXX", exe[512], report[256];
	int skipped = 0;

	if (!mkdtemp(tmp))
		return 1;
	chmod(tmp, 0755);
	snprintf(exe, sizeof(exe), "%s/plugindir", tmp);
	if (setuid_copy_self(exe) != 0) {
		skipped = 1;
	} else {
		CHECK(run_child(exe, dir, report, sizeof(report)) == 0);
		if (!strstr(report, "secure 1"))
			skipped = 1; /* nosuid mount */
		else
			CHECK(strstr(report, "claimed 0") != NULL);
		/* control: the same copy without the bit loads the camera */
		CHECK(chmod(exe, 0755) == 0);
		CHECK(run_child(exe, dir, report, sizeof(report)) == 0);
		CHECK(strstr(report, "secure 0 claimed 1") != NULL);
	}
	unlink(exe);
	rmdir(tmp);
	if (failures) {
		printf("setuid: FAILED\n");
		return 1;
	}
	printf(skipped ? "setuid: skipped (not root, or nosuid)\n"
		       : "setuid: ok\n");
	return skipped ? 77 : 0;
}

int main(int argc, char **argv)
{
	int loaded, cam, other;

	if (argc < 3) {
		fprintf(stderr, "usage: %s BUILTIN_DIR CASE [DIR]\n", argv[0]);
		return 2;
	}
	builtin_dir = argv[1];
	lv2_test_set_plugin_dir(builtin_dir);
	argc--;
	argv++;
	loaded = !strcmp(argv[1], "loaded");

	if (argc > 1 && !strcmp(argv[1], "child"))
		return child();
	if (argc > 2 && !strcmp(argv[1], "setuid"))
		return setuid_check(argv[2]);
	cam = memfd_create(CAMERA, MFD_CLOEXEC);
	other = memfd_create("not-a-camera", MFD_CLOEXEC);
	CHECK(cam >= 0 && other >= 0);
	if (loaded) {
		CHECK(v4l2_fd_open(cam, 0) == cam);
		expect_claimed(cam);
		CHECK(v4l2_close(cam) == 0);
	} else {
		expect_unclaimed(cam);
		close(cam);
	}
	/* No plugin claims a file that is not its device. */
	expect_unclaimed(other);
	close(other);
	printf("%s: %s\n", loaded ? "loaded" : "none",
	       failures ? "FAILED" : "ok");
	return failures != 0;
}
