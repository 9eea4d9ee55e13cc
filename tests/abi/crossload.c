/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * crossload DIR: a program linked against one build of libv4lconvert.so.0
 * (ours or the distribution's) runs on the other one, found in DIR through
 * LD_LIBRARY_PATH. Our library versions only its private entry points,
 * never the public ones, so neither direction records a version the other
 * library lacks (glibc's loader would refuse or abort). The program checks
 * that the library it got is the one in DIR, then converts a frame through
 * the public API.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libv4lconvert.h>

#include "../common/check.h"
#include "../common/fakedev.h"

/* The directory the library defining v4lconvert_create came from. */
static int loaded_from(const char *dir)
{
	char lib[PATH_MAX], want[PATH_MAX], got[PATH_MAX];
	Dl_info info;

	if (!dladdr((void *)v4lconvert_create, &info) || !info.dli_fname)
		return 0;
	snprintf(lib, sizeof(lib), "%s", info.dli_fname);
	if (!realpath(dirname(lib), got) || !realpath(dir, want))
		return 0;
	printf("libv4lconvert.so.0 loaded from %s\n", got);
	return !strcmp(got, want);
}

int main(int argc, char **argv)
{
	struct fakedev dev = {
		.n_formats = 1,
		.formats = { { V4L2_PIX_FMT_YUYV, 1, { { 64, 48 } } } },
	};
	struct v4l2_format want, src;
	struct v4lconvert_data *conv;
	unsigned char in[64 * 48 * 2], out[64 * 48 * 3];
	int n;

	if (argc != 2) {
		fprintf(stderr, "usage: %s LIBDIR\n", argv[0]);
		return 2;
	}
	CHECK(loaded_from(argv[1]), "the library of %s is loaded", argv[1]);

	conv = v4lconvert_create_with_dev_ops(-1, &dev, &fakedev_ops);
	CHECK(conv != NULL);
	if (!conv)
		return 1;
	memset(&want, 0, sizeof(want));
	want.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	want.fmt.pix.pixelformat = V4L2_PIX_FMT_RGB24;
	want.fmt.pix.width = 64;
	want.fmt.pix.height = 48;
	CHECK(v4lconvert_try_format(conv, &want, &src) == 0);
	CHECK(src.fmt.pix.pixelformat == V4L2_PIX_FMT_YUYV);
	/* Mid grey: Y 128, U = V = 128 is grey in any matrix and range. */
	memset(in, 128, sizeof(in));
	n = v4lconvert_convert(conv, &src, &want, in, (int)sizeof(in), out,
			       (int)sizeof(out));
	CHECK(n == (int)sizeof(out), "%d bytes converted", n);
	CHECK(out[0] == out[1] && out[1] == out[2] && out[0] > 100 &&
		      out[0] < 160,
	      "grey stays grey: %u %u %u", out[0], out[1], out[2]);
	v4lconvert_destroy(conv);
	printf("%s\n", failures ? "FAILED" : "ok");
	return failures ? 1 : 0;
}
