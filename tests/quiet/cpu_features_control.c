/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Negative control for the silence test: Debian's cpu_features prints a
 * debug line to stdout on ARM cores without the hwcaps it looks for. If this
 * program stays silent on the same emulated CPU, the silence test proves
 * nothing, so check-silent.sh --expect-output insists that it does print.
 */
#if defined(__aarch64__)
#include "cpuinfo_aarch64.h"
#else
#include "cpuinfo_arm.h"
#endif

int main(void)
{
#if defined(__aarch64__)
	return GetAarch64Info().features.asimd ? 0 : 0;
#else
	return GetArmInfo().features.neon ? 0 : 0;
#endif
}
