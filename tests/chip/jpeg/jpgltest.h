/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The JPEG-Lite decoder as the tests call it. */
#ifndef V4LC_TEST_JPGLTEST_H
#define V4LC_TEST_JPGLTEST_H

#include <stdio.h>
#include <stdlib.h>

#include "jpeg/jpgl.h"

/* The decoder with a work buffer of its own, of exactly the size it asks
 * for (a read past it is caught under AddressSanitizer). */
static inline int jpgl_decode(const uint8_t *src, size_t n, uint32_t fourcc,
			      uint8_t *dst, size_t dst_size, int w, int h,
			      char *err, size_t err_len)
{
	size_t ws = v4lc_jpgl_work_size(w);
	uint8_t *work = malloc(ws ? ws : 1);
	int r;

	if (!work) {
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
	r = v4lc_jpgl_decode(src, n, fourcc, dst, dst_size, w, h, work, err,
			     err_len);
	free(work);
	return r;
}

#endif
