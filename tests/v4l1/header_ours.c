/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Compile test of our <libv4l1.h> (which brings <libv4l1-videodev.h>):
 * every declaration has the original's type, the V4L1 constants have the
 * values of the V4L1 API, and, when the distribution's header is there
 * (HAVE_DEBIAN_HEADER, header_debian.c), every size, offset, ioctl number
 * and constant equals the original's, and a program compiled with the
 * original's header runs on our library.
 */
#include <stdio.h>
#include <string.h>

#include <libv4l1.h>

#include "abi_list.h"
#include "../common/check.h"

#define X(n, v) { n, v },
static const struct v4l1_abi_entry ours[] = { V4L1_ABI_LIST{ 0, 0 } };
#undef X

#ifdef HAVE_DEBIAN_HEADER
extern const struct v4l1_abi_entry v4l1_abi_debian[];
int v4l1_debian_program(void);
#endif

int main(void)
{
	/* The prototypes of the original library. */
	int (*p_open)(const char *, int, ...) = v4l1_open;
	int (*p_close)(int) = v4l1_close;
	int (*p_dup)(int) = v4l1_dup;
	int (*p_ioctl)(int, unsigned long int, ...) = v4l1_ioctl;
	ssize_t (*p_read)(int, void *, size_t) = v4l1_read;
	void *(*p_mmap)(void *, size_t, int, int, int, int64_t) = v4l1_mmap;
	int (*p_munmap)(void *, size_t) = v4l1_munmap;
	FILE **p_log = &v4l1_log_file;
	size_t n = 0;

	CHECK(p_open && p_close && p_dup && p_ioctl && p_read && p_mmap &&
	      p_munmap && p_log);

	/* Values fixed by the V4L1 API. */
	CHECK(VIDEO_PALETTE_GREY == 1 && VIDEO_PALETTE_RGB24 == 4);
	CHECK(VIDEO_PALETTE_YUV410P == 16 && VIDEO_PALETTE_YUYV == 8);
	CHECK(VID_TYPE_MJPEG_ENCODER == 8192 && VIDEO_MAX_FRAME == 32);
	CHECK(_IOC_TYPE(VIDIOCGCAP) == 'v' && _IOC_NR(VIDIOCGCAP) == 1);
	CHECK(_IOC_NR(VIDIOCSVBIFMT) == 29 && _IOC_NR(VIDIOCGFREQ) == 14);
	CHECK(_IOC_SIZE(VIDIOCGMBUF) == 8 + 4 * 32);
	CHECK(_IOC_SIZE(VIDIOCGPICT) == 14 && _IOC_SIZE(VIDIOCSYNC) == 4);
	CHECK(_IOC_DIR(VIDIOCGCHAN) == (_IOC_READ | _IOC_WRITE));
	CHECK(_IOC_DIR(VIDIOCMCAPTURE) == _IOC_WRITE);
	CHECK(_IOC_SIZE(VIDIOCGFREQ) == sizeof(unsigned long));
	CHECK(sizeof(struct video_capability) == 32 + 7 * sizeof(int));

	for (n = 0; ours[n].name; n++)
		;
	CHECK(n > 100);
#ifdef HAVE_DEBIAN_HEADER
	for (size_t i = 0; ours[i].name; i++) {
		if (strcmp(ours[i].name, v4l1_abi_debian[i].name) ||
		    ours[i].value != v4l1_abi_debian[i].value) {
			printf("FAIL %s: ours %lu, the original's %lu\n",
			       ours[i].name, ours[i].value,
			       v4l1_abi_debian[i].value);
			failures++;
		}
	}
	CHECK(v4l1_debian_program() == 0);
	printf("%zu ABI facts equal to the distribution's header\n", n);
#else
	printf("distribution header not available: compile checks only\n");
#endif
	printf("%s\n", failures ? "FAILED" : "ok");
	return failures != 0;
}
