/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A program that uses the library the way an application does (CPU
 * detection, table fill, one conversion) and must print nothing at all:
 * tests/quiet/check-silent.sh asserts its stdout and stderr are empty.
 */
#include <stdint.h>
#include <string.h>

#include "dispatch/dsp.h"

int main(void)
{
	uint8_t src[48], dst[48];
	const struct v4lc_dsp *dsp = v4lc_dsp_get();

	memset(src, 7, sizeof(src));
	dsp->rgb.swap_rb24(src, dst, 16);
	return dst[0] == 7 && v4lc_cpu_flags() == v4lc_cpu_flags() ? 0 : 1;
}
