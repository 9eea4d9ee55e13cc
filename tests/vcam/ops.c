/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The virtual camera's plugin operations, driven directly (no libv4l2):
 * claiming by memfd name, every ioctl it serves, streaming through mmap of
 * the memfd, the frames against independent expectations, error codes.
 * One topic a file: ops_ioctls.c, ops_pattern.c, ops_stream.c (ops.h).
 */
#include <stdio.h>

#include "ops.h"
#include "../common/check.h"

int main(void)
{
	test_claim();
	test_caps();
	test_formats();
	test_absurd_sizes();
	test_pattern();
	for (size_t i = 0; i < NFMTS; i++) {
		test_streaming(&fmts[i], 320, 240);
		if (i == 0 || is_jpeg(fmts[i].fourcc) || i == 6)
			test_streaming(&fmts[i], 1280, 720);
	}
	test_streaming(&fmts[0], 176, 144);
	test_userptr();
	test_flip();
	test_orphan();
	test_pacing();
	test_scene();
	if (failures) {
		fprintf(stderr, "%d failure(s)\n", failures);
		return 1;
	}
	printf("vcam ops: all passed\n");
	return 0;
}
