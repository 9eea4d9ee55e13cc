/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "dispatch/cpu.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(V4LC_ARCH_X86)
#include "cpuinfo_x86.h"
#elif defined(V4LC_ARCH_ARM)
#include <sys/auxv.h>
#ifndef HWCAP_ARM_NEON
#define HWCAP_ARM_NEON (1u << 12)
#endif
#endif

/*
 * On ARM we do not call cpu_features: Debian's build of it prints a debug
 * line to stdout from its hwcaps code, and this library is loaded into other
 * programs. NEON is architectural on AArch64; on 32-bit ARM the kernel's
 * HWCAP_NEON bit is the authoritative answer anyway.
 */
unsigned v4lc_cpu_detect(void)
{
	unsigned flags = 0;
#if defined(V4LC_ARCH_X86)
	const X86Info info = GetX86Info();
#if defined(V4LC_HAVE_SSE2)
	if (info.features.sse2)
		flags |= V4LC_CPU_SSE2;
#endif
#if defined(V4LC_HAVE_AVX2)
	if (info.features.sse2 && info.features.avx2)
		flags |= V4LC_CPU_AVX2;
#endif
	(void)info;
#elif defined(V4LC_ARCH_AARCH64) && defined(V4LC_HAVE_NEON)
	flags |= V4LC_CPU_NEON;
#elif defined(V4LC_ARCH_ARM) && defined(V4LC_HAVE_NEON)
	if (getauxval(AT_HWCAP) & HWCAP_ARM_NEON)
		flags |= V4LC_CPU_NEON;
#endif
	return flags;
}

unsigned v4lc_cpu_cap(unsigned detected, const char *value, int *ok)
{
	static const struct {
		const char *name;
		unsigned allowed;
	} caps[] = {
		{ "scalar", 0 },
		{ "c", 0 },
		{ "sse2", V4LC_CPU_SSE2 },
		{ "avx2", V4LC_CPU_SSE2 | V4LC_CPU_AVX2 },
		{ "neon", V4LC_CPU_NEON },
	};

	*ok = 1;
	if (!value || !*value)
		return detected;
	for (size_t i = 0; i < sizeof(caps) / sizeof(caps[0]); i++)
		if (!strcasecmp(value, caps[i].name))
			return detected & caps[i].allowed;
	*ok = 0;
	return detected;
}

static unsigned cpu_flags;
static pthread_once_t cpu_once = PTHREAD_ONCE_INIT;

static void cpu_init(void)
{
	int ok;
	const char *value = secure_getenv("LIBV4LCONVERT_SIMD");

	cpu_flags = v4lc_cpu_cap(v4lc_cpu_detect(), value, &ok);
	if (!ok)
		fprintf(stderr,
			"libv4lconvert: ignoring LIBV4LCONVERT_SIMD=%s "
			"(expected scalar, sse2, avx2 or neon)\n",
			value);
}

unsigned v4lc_cpu_flags(void)
{
	pthread_once(&cpu_once, cpu_init);
	return cpu_flags;
}

const char *v4lc_cpu_tier_name(unsigned flags)
{
	if (flags & V4LC_CPU_AVX2)
		return "avx2";
	if (flags & V4LC_CPU_SSE2)
		return "sse2";
	if (flags & V4LC_CPU_NEON)
		return "neon";
	return "scalar";
}
