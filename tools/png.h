/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef V4LC_TOOLS_PNG_H
#define V4LC_TOOLS_PNG_H

#include <stddef.h>
#include <stdint.h>

/*
 * Write an 8-bit RGB PNG from rows of 3 * width bytes, `stride` apart
 * (`bgr`: the rows are B,G,R). Returns 0, or -1 on any error.
 */
int png_write(const char *path, const uint8_t *rgb, int width, int height,
	      size_t stride, int bgr);

#endif
