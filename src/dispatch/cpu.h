/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef V4LC_DISPATCH_CPU_H
#define V4LC_DISPATCH_CPU_H

/*
 * Instruction-set tiers of every architecture, X(NAME, name, bit): their
 * CPU bits V4LC_CPU_<NAME>, and the names LIBV4LCONVERT_SIMD takes. Per
 * architecture they form a ladder, in ascending order: SSE2, SSSE3 and
 * AVX2 on x86, NEON on ARM (v4lc_cpu_tiers, dispatch/cpu.c).
 */
#define V4LC_CPU_TIERS(X)                                                      \
	X(SSE2, sse2, 0) X(SSSE3, ssse3, 3) X(AVX2, avx2, 1) X(NEON, neon, 2)

enum {
#define X(NAME, name, bit) V4LC_CPU_##NAME = 1u << (bit),
	V4LC_CPU_TIERS(X)
#undef X
};

/*
 * The flags of each tier: its own bit and those of the tiers below it. The
 * dispatch (dispatch/dsp.c) runs a tier's overrides only when a set of
 * flags holds all of them.
 */
enum {
	V4LC_TIER_SSE2 = V4LC_CPU_SSE2,
	V4LC_TIER_SSSE3 = V4LC_TIER_SSE2 | V4LC_CPU_SSSE3,
	V4LC_TIER_AVX2 = V4LC_TIER_SSSE3 | V4LC_CPU_AVX2,
	V4LC_TIER_NEON = V4LC_CPU_NEON,
};

struct v4lc_cpu_tier {
	const char *name; /* as LIBV4LCONVERT_SIMD takes it */
	unsigned flags;   /* its bit and those of the tiers below it */
};

/* The tiers this build has, in ascending order, then { NULL, 0 }. */
extern const struct v4lc_cpu_tier v4lc_cpu_tiers[];

/* The flags of the highest tier this CPU runs (no cap applied). */
unsigned v4lc_cpu_detect(void);

/*
 * Apply a LIBV4LCONVERT_SIMD value ("scalar", or a tier name) to a set of
 * detected flags. A tier this build does not have (another
 * architecture's) caps to scalar. Returns the capped flags; *ok is set to
 * 0 when the value is none of these names (the flags are then left alone).
 */
unsigned v4lc_cpu_cap(unsigned detected, const char *value, int *ok);

/* Detected and capped by LIBV4LCONVERT_SIMD; computed once per process. */
unsigned v4lc_cpu_flags(void);

/* Name of the highest tier in flags, for logs and test output. */
const char *v4lc_cpu_tier_name(unsigned flags);

#endif
