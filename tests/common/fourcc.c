/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A fourcc as text (fourcc.h). */
#include "fourcc.h"

#include <string.h>

char *fourcc_str(uint32_t fourcc, char buf[FOURCC_STR_LEN])
{
	for (int k = 0; k < 4; k++) {
		char c = (char)(fourcc >> (8 * k) & 0x7f);

		buf[k] = c >= 32 ? c : '?';
	}
	buf[4] = '\0';
	if (fourcc >> 31)
		strcat(buf, "-BE");
	return buf;
}
