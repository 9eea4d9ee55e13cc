/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libv4l2 built without the built-in virtual camera, finding it as a plugin
 * module in its compiled-in plugin directory (argument "loaded"), or with
 * an absent directory (argument "none": the negative control, where the
 * same device must stay unclaimed). The directory also holds a module
 * without the plugin symbol and one that declines every device. The camera
 * is not linked here: that would make it libv4l2's built-in plugin again.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <libv4l2.h>
#include <libv4lconvert.h>

#include "libv4l-plugin.h"
#include "../common/check.h"

/* The virtual camera claims a memfd of this name (src/vcam/vcam.h). */
#define CAMERA "libv4l-vcam:YUYV:64x48"
#define W 64
#define H 48

/*
 * Frame 0 as the camera renders it (the module's test hook), converted to
 * RGB24 by libv4lconvert: what libv4l2 should have delivered.
 */
static int matches_camera(const uint8_t *rgb, const char *module)
{
	void *h = dlopen(module, RTLD_NOW | RTLD_LOCAL);
	int (*render)(uint32_t, int, int, uint32_t, uint8_t *, size_t) =
		h ? (int (*)(uint32_t, int, int, uint32_t, uint8_t *, size_t))
			    dlsym(h, "libv4l_test_render")
		  : NULL;
	struct v4l2_format src = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_format dst;
	struct v4lconvert_data *conv = v4lconvert_create(-1);
	size_t raw_size = (size_t)W * H * 2;
	uint8_t *raw = malloc(raw_size), *want = malloc(W * H * 3);
	int ok;

	CHECK(render != NULL && conv != NULL);
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
	ok = render && conv &&
	     render(V4L2_PIX_FMT_YUYV, W, H, 0, raw, raw_size) ==
		     (int)raw_size &&
	     v4lconvert_convert(conv, &src, &dst, raw, (int)raw_size, want,
				W * H * 3) == W * H * 3 &&
	     !memcmp(rgb, want, W * H * 3);
	if (conv)
		v4lconvert_destroy(conv);
	if (h)
		dlclose(h);
	free(raw);
	free(want);
	return ok;
}

static void expect_claimed(int fd, const char *module)
{
	struct v4l2_capability cap;
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	uint8_t *rgb = malloc(W * H * 3);

	CHECK(v4l2_ioctl(fd, VIDIOC_QUERYCAP, &cap) == 0);
	CHECK(cap.device_caps & V4L2_CAP_VIDEO_CAPTURE);
	f.fmt.pix.width = W;
	f.fmt.pix.height = H;
	f.fmt.pix.pixelformat = V4L2_PIX_FMT_RGB24;
	CHECK(v4l2_ioctl(fd, VIDIOC_S_FMT, &f) == 0);
	CHECK(f.fmt.pix.pixelformat == V4L2_PIX_FMT_RGB24);
	CHECK(v4l2_read(fd, rgb, W * H * 3) == W * H * 3);
	CHECK(matches_camera(rgb, module));
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
	CHECK(v4l2_fd_open(fd, 0) == -1 && (errno == ENOTTY || errno == ENOSYS));
}

int main(int argc, char **argv)
{
	int loaded = argc > 1 && !strcmp(argv[1], "loaded");
	int cam = memfd_create(CAMERA, MFD_CLOEXEC);
	int other = memfd_create("not-a-camera", MFD_CLOEXEC);

	CHECK(cam >= 0 && other >= 0);
	if (loaded) {
		CHECK(argc > 2);
		CHECK(v4l2_fd_open(cam, 0) == cam);
		expect_claimed(cam, argc > 2 ? argv[2] : "");
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
