/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The decoders' failure report (fail.h). */
#include "jpeg/fail.h"

#include <stdarg.h>
#include <stdio.h>

int v4lc_jpeg_fail(char *err, size_t err_len, int ret, const char *fmt, ...)
{
	if (err && err_len > 0) {
		va_list ap;

		va_start(ap, fmt);
		vsnprintf(err, err_len, fmt, ap);
		va_end(ap);
	}
	return ret;
}
