/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * try_format keeps within the USB bus bandwidth: with a fake sysfs
 * (LIBV4LCONTROL_SYSFS_PREFIX) saying the camera sits on a 12 Mb/s bus, raw
 * YUYV at 640x480x30 does not fit and MJPEG is chosen; at 480 Mb/s YUYV
 * fits and wins (cheaper to convert); at 1 fps YUYV fits even the slow bus.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <libv4lconvert.h>

#include "../common/fakedev.h"
#include "../common/check.h"

static struct fakedev camera = {
	.driver = "fakecam",
	.n_formats = 2,
	.formats = {
		{ V4L2_PIX_FMT_YUYV, 1, { { 640, 480 } } },
		{ V4L2_PIX_FMT_MJPEG, 1, { { 640, 480 } } },
	},
};

static char root[] = "/tmp/v4lc-sysfs-XXXXXX";

static void set_speed(const struct stat *st, const char *speed)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "mkdir -p %s/sys/dev/char/%u:%u/device",
		 root, major(st->st_rdev), minor(st->st_rdev));
	if (system(path))
		exit(99);
	snprintf(path, sizeof(path), "%s/sys/dev/char/%u:%u/speed", root,
		 major(st->st_rdev), minor(st->st_rdev));
	f = fopen(path, "w");
	if (!f)
		exit(99);
	fprintf(f, "%s\n", speed);
	fclose(f);
}

static uint32_t source_for(int fd, int fps)
{
	struct v4l2_format dst, src;
	struct v4lconvert_data *cv =
		v4lconvert_create_with_dev_ops(fd, &camera, &fakedev_ops);

	memset(&dst, 0, sizeof(dst));
	dst.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	dst.fmt.pix.pixelformat = V4L2_PIX_FMT_RGB24;
	dst.fmt.pix.width = 640;
	dst.fmt.pix.height = 480;
	if (fps)
		v4lconvert_set_fps(cv, fps);
	if (v4lconvert_try_format(cv, &dst, &src))
		src.fmt.pix.pixelformat = 0;
	v4lconvert_destroy(cv);
	return src.fmt.pix.pixelformat;
}

int main(void)
{
	/* any character device will do: the library looks it up in sysfs */
	int fd = open("/dev/null", O_RDWR);
	struct stat st;
	char cmd[64];

	if (fd < 0 || fstat(fd, &st) || !mkdtemp(root))
		return 99;
	setenv("LIBV4LCONTROL_SYSFS_PREFIX", root, 1);

	set_speed(&st, "12");
	CHECK(source_for(fd, 0) == V4L2_PIX_FMT_MJPEG,
	      "full-speed USB should force MJPEG");
	CHECK(source_for(fd, 1) == V4L2_PIX_FMT_YUYV,
	      "at 1 fps YUYV fits a 12 Mb/s bus");
	set_speed(&st, "480");
	CHECK(source_for(fd, 0) == V4L2_PIX_FMT_YUYV,
	      "high-speed USB should keep YUYV");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	CHECK(system(cmd) == 0, "%s", cmd);
	printf("bandwidth: %d failures\n", failures);
	return failures != 0;
}
