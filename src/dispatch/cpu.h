/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef V4LC_DISPATCH_CPU_H
#define V4LC_DISPATCH_CPU_H

/* Instruction-set tiers; each x86 tier implies the one before it. */
enum {
	V4LC_CPU_SSE2 = 1u << 0,
	V4LC_CPU_AVX2 = 1u << 1,
	V4LC_CPU_NEON = 1u << 2,
};

/* What this CPU offers among the tiers compiled in (no cap applied). */
unsigned v4lc_cpu_detect(void);

/*
 * Apply a LIBV4LCONVERT_SIMD value ("scalar", "sse2", "avx2", "neon") to a
 * set of detected flags. Returns the capped flags; *ok is set to 0 when the
 * value is not one of the names above (the flags are then left alone).
 */
unsigned v4lc_cpu_cap(unsigned detected, const char *value, int *ok);

/* Detected and capped by LIBV4LCONVERT_SIMD; computed once per process. */
unsigned v4lc_cpu_flags(void);

/* Name of the highest tier in flags, for logs and test output. */
const char *v4lc_cpu_tier_name(unsigned flags);

#endif
