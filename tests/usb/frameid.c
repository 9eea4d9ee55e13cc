/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The frame counter of the emulated cameras' JPEG frames (frameid.h). */
#include "frameid.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char tag[] = "usbcam seq=";

size_t usbcam_frameid_put(uint8_t *buf, size_t n, size_t size, uint32_t seq)
{
	char text[20];

	if (n < 4 || buf[0] != 0xff || buf[1] != 0xd8 ||
	    n + USBCAM_FRAMEID_LEN > size)
		return n;
	snprintf(text, sizeof(text), "%s%08x", tag, seq);
	memmove(buf + 2 + USBCAM_FRAMEID_LEN, buf + 2, n - 2);
	buf[2] = 0xff;
	buf[3] = 0xfe;
	buf[4] = 0;
	buf[5] = USBCAM_FRAMEID_LEN - 2;
	memcpy(buf + 6, text, 19);
	return n + USBCAM_FRAMEID_LEN;
}

int usbcam_frameid_get(const uint8_t *buf, size_t n, uint32_t *seq)
{
	char text[9];

	if (n < 2 + USBCAM_FRAMEID_LEN || buf[0] != 0xff || buf[1] != 0xd8 ||
	    buf[2] != 0xff || buf[3] != 0xfe ||
	    buf[5] != USBCAM_FRAMEID_LEN - 2 ||
	    memcmp(buf + 6, tag, sizeof(tag) - 1))
		return -1;
	memcpy(text, buf + 6 + sizeof(tag) - 1, 8);
	text[8] = 0;
	*seq = (uint32_t)strtoul(text, NULL, 16);
	return 0;
}
