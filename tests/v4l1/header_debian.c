/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Compiled against the DISTRIBUTION's <libv4l1.h> and <libv4l1-videodev.h>
 * (Debian's libv4l-dev), linked with our libv4l1: the ABI facts as the
 * original's header has them, and calls through its prototypes.
 */
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>

#include <libv4l1.h>

#include "abi_list.h"

#define X(n, v) { n, v },
const struct v4l1_abi_entry v4l1_abi_debian[] = { V4L1_ABI_LIST{ 0, 0 } };
#undef X

/* A program built for the original: /dev/null stays a plain file. */
int v4l1_debian_program(void)
{
	struct video_capability cap;
	int fd = v4l1_open("/dev/null", O_RDWR), bad = 0;
	char c;

	if (fd < 0)
		return 1;
	memset(&cap, 0, sizeof(cap));
	bad |= v4l1_ioctl(fd, VIDIOCGCAP, &cap) != -1;
	bad |= v4l1_read(fd, &c, 1) != 0;
	bad |= v4l1_dup(fd) < 0;
	bad |= v4l1_mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1,
			 0) == MAP_FAILED;
	bad |= v4l1_close(fd) != 0;
	bad |= v4l1_log_file != NULL && 0;
	return bad;
}
