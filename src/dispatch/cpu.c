/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "dispatch/cpu.h"

#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(V4LC_ARCH_X86_32)
/*
 * 32-bit x86 asks the compiler's CPUID probe (libgcc), which like
 * cpu_features reports AVX only where the OS saves the YMM registers. An
 * i686 CPU may have no SSE2 at all (a Pentium III): then every kernel
 * stays scalar.
 */
typedef struct {
	int sse2, ssse3, avx2;
} x86_flags;

static x86_flags x86_features(void)
{
	/* The probe may not have run yet when called from a constructor. */
	__builtin_cpu_init();
	return (x86_flags){
		.sse2 = __builtin_cpu_supports("sse2"),
		.ssse3 = __builtin_cpu_supports("ssse3"),
		.avx2 = __builtin_cpu_supports("avx2"),
	};
}
#elif defined(V4LC_ARCH_X86)
#include "cpuinfo_x86.h"

typedef X86Features x86_flags;

static x86_flags x86_features(void)
{
	return GetX86Info().features;
}
#elif defined(V4LC_ARCH_ARM)
#include <sys/auxv.h>
#ifndef HWCAP_ARM_NEON
#define HWCAP_ARM_NEON (1u << 12)
#endif
#endif

/*
 * The tiers of this build, as dispatch/dsp.c runs them. V4LC_SIMD is set by
 * src/meson.build when it builds the architecture's tier libraries.
 */
const struct v4lc_cpu_tier v4lc_cpu_tiers[] = {
#if defined(V4LC_SIMD) && defined(V4LC_ARCH_X86)
	{ "sse2", V4LC_TIER_SSE2 },
	{ "ssse3", V4LC_TIER_SSSE3 },
	{ "avx2", V4LC_TIER_AVX2 },
#elif defined(V4LC_SIMD) && defined(V4LC_ARCH_ARM)
	{ "neon", V4LC_TIER_NEON },
#endif
	{ NULL, 0 },
};

/*
 * Whether the CPU (and, for AVX2, the OS) supports the instructions of the
 * tier with bit `tier`. On ARM we do not call cpu_features: Debian's build
 * of it prints a debug line to stdout from its hwcaps code, and this library
 * is loaded into other programs. NEON is architectural on AArch64; on
 * 32-bit ARM the kernel's HWCAP_NEON bit is the authoritative answer anyway.
 */
static int cpu_has(unsigned tier)
{
#if defined(V4LC_ARCH_X86)
	const x86_flags f = x86_features();

	switch (tier) {
	case V4LC_CPU_SSE2:
		return f.sse2;
	case V4LC_CPU_SSSE3:
		return f.ssse3;
	case V4LC_CPU_AVX2:
		return f.avx2;
	}
#elif defined(V4LC_ARCH_AARCH64)
	return tier == V4LC_CPU_NEON;
#elif defined(V4LC_ARCH_ARM)
	if (tier == V4LC_CPU_NEON)
		return (getauxval(AT_HWCAP) & HWCAP_ARM_NEON) != 0;
#endif
	return 0;
}

unsigned v4lc_cpu_detect(void)
{
	unsigned flags = 0;

	/* Up the ladder while the CPU has the next tier's own instructions. */
	for (const struct v4lc_cpu_tier *t = v4lc_cpu_tiers; t->name; t++) {
		if (!cpu_has(t->flags & ~flags))
			break;
		flags = t->flags;
	}
	return flags;
}

unsigned v4lc_cpu_cap(unsigned detected, const char *value, int *ok)
{
	static const char *const names[] = { "scalar", "c",
#define X(NAME, name, bit) #name,
					     V4LC_CPU_TIERS(X)
#undef X
	};

	*ok = 1;
	if (!value || !*value)
		return detected;
	for (const struct v4lc_cpu_tier *t = v4lc_cpu_tiers; t->name; t++)
		if (!strcasecmp(value, t->name))
			return detected & t->flags;
	/* scalar, or a tier this build does not have */
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcasecmp(value, names[i]))
			return 0;
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
#define X(NAME, name, bit) ", " #name
	if (!ok)
		fprintf(stderr,
			"libv4lconvert: ignoring LIBV4LCONVERT_SIMD=%s "
			"(expected scalar" V4LC_CPU_TIERS(X) ")\n",
			value);
#undef X
}

unsigned v4lc_cpu_flags(void)
{
	pthread_once(&cpu_once, cpu_init);
	return cpu_flags;
}

const char *v4lc_cpu_tier_name(unsigned flags)
{
	const char *name = "scalar";

	for (const struct v4lc_cpu_tier *t = v4lc_cpu_tiers; t->name; t++)
		if ((flags & t->flags) == t->flags)
			name = t->name;
	return name;
}
