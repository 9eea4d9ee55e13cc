/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Run with v4l2convert.so preloaded: a camera descriptor closed behind the
 * shim's back (fclose of an fdopen'ed stream, close_range, the raw close
 * syscall) must not leave its number claimed. The next file that gets the
 * number is read as that file, not as the camera. The camera is the
 * virtual one (a memfd named "libv4l-vcam:...", opened again through
 * /proc/self/fd, which the shim claims like a device node).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/videodev2.h>

#include "../common/check.h"

static char file_path[] = "/tmp/v4l-stale-XXXXXX";

/* A claimed camera descriptor (VIDIOC_QUERYCAP answers through the shim). */
static int open_camera(int hold)
{
	struct v4l2_capability cap;
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", hold);
	fd = open(path, O_RDWR);
	CHECK(fd >= 0, "open the camera");
	memset(&cap, 0, sizeof(cap));
	CHECK(ioctl(fd, VIDIOC_QUERYCAP, &cap) == 0, "QUERYCAP on the camera");
	return fd;
}

/* After the camera's fd was closed by `how`, the same number is a file
 * (the lowest free number, as open gives it). */
static void check_reuse(int cam, const char *how)
{
	char buf[32];
	int fd = open(file_path, O_RDONLY);
	ssize_t n;

	/* v4l1compat's camera is a reopened descriptor: the number the
	 * real open gave is free below it, so move the file up by hand. */
	if (fd >= 0 && fd != cam) {
		CHECK(syscall(SYS_dup3, fd, cam, 0) == cam, "%s: dup3", how);
		syscall(SYS_close, fd);
		fd = cam;
	}
	memset(buf, 0, sizeof(buf));
	n = read(fd, buf, sizeof(buf));
	CHECK(n == 11 && !memcmp(buf, "hello world", 11),
	      "%s: read gives the file (%zd bytes)", how, n);
	CHECK(close(fd) == 0 && fcntl(fd, F_GETFD) == -1,
	      "%s: close closes the file", how);
}

int main(void)
{
	int hold, cam, fd;
	FILE *f;

	setenv("LIBV4L2_SHARE", "0", 1);
	hold = memfd_create("libv4l-vcam:YUYV:64x48:nopace", MFD_CLOEXEC);
	fd = mkstemp(file_path);
	CHECK(hold >= 0 && fd >= 0 && write(fd, "hello world", 11) == 11,
	      "setup");
	close(fd);

	cam = open_camera(hold);
	f = fdopen(cam, "r+");
	CHECK(f != NULL, "fdopen");
	fclose(f);
	check_reuse(cam, "fclose");

	cam = open_camera(hold);
	CHECK(syscall(SYS_close_range, cam, cam, 0) == 0, "close_range");
	check_reuse(cam, "close_range");

	cam = open_camera(hold);
	CHECK(syscall(SYS_close, cam) == 0, "syscall(SYS_close)");
	check_reuse(cam, "syscall close");

	/* The camera still works after all that. */
	cam = open_camera(hold);
	CHECK(close(cam) == 0, "close the camera");
	unlink(file_path);
	printf("stale: %d failures\n", failures);
	return failures != 0;
}
