/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * How every decoder of this folder reports a failure: a message for the
 * caller's buffer (libv4lconvert's error text) and a return code, in one
 * statement at the point of failure.
 */
#ifndef V4LC_JPEG_FAIL_H
#define V4LC_JPEG_FAIL_H

#include <stddef.h>

/* Store the message in err (when err_len > 0) and return ret. */
int v4lc_jpeg_fail(char *err, size_t err_len, int ret, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
