/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "checkasm.h"

#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "v4lc_families.h"

/* Weak, so a family without a test is reported instead of failing to link. */
#define X(family) void checkasm_check_##family(void) __attribute__((weak));
V4LC_FAMILIES(X)
#undef X

static const struct {
	const char *name;
	void (*run)(void);
} families[] = {
#define X(family) { #family, checkasm_check_##family },
	V4LC_FAMILIES(X)
#undef X
};

/* Cumulative tiers in dispatch order: each includes the ones before it. */
static const struct {
	const char *name;
	unsigned flags;
} tiers[] = {
	{ "sse2", V4LC_CPU_SSE2 },
	{ "avx2", V4LC_CPU_SSE2 | V4LC_CPU_AVX2 },
	{ "neon", V4LC_CPU_NEON },
};

const struct v4lc_dsp *checkasm_ref;
const struct v4lc_dsp *checkasm_new;

static struct {
	uint64_t rng;
	const char *func_filter;
	const char *tier_name;
	char current[128];
	int current_failed;
	int passed, failed, mismatches;
	const void *tested[1024];
	int ntested;
	int verbose;
} state;

const int checkasm_widths[] = {
	1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,  16,
	17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31,  32,
	33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47,  48,
	49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63,  64,
	127, 128, 129, 640, 641, 1279, 1280, 1920,
};
const int checkasm_nwidths = sizeof(checkasm_widths) / sizeof(checkasm_widths[0]);

uint32_t checkasm_rand(void)
{
	/* xorshift64*: fast, and reproducible from the printed seed */
	state.rng ^= state.rng >> 12;
	state.rng ^= state.rng << 25;
	state.rng ^= state.rng >> 27;
	return (uint32_t)((state.rng * 0x2545F4914F6CDD1DULL) >> 32);
}

void checkasm_randomise(uint8_t *buf, size_t size)
{
	for (size_t i = 0; i < size; i++)
		buf[i] = (uint8_t)checkasm_rand();
}

void checkasm_pattern(uint8_t *buf, size_t size, int kind)
{
	switch (kind) {
	case 3:
		memset(buf, 0, size);
		break;
	case 4:
		memset(buf, 255, size);
		break;
	case 5:
		for (size_t i = 0; i < size; i++)
			buf[i] = (checkasm_rand() & 1) ? 235 : 16;
		break;
	case 6:
		for (size_t i = 0; i < size; i++)
			buf[i] = (checkasm_rand() & 1) ? 255 : 0;
		break;
	default:
		checkasm_randomise(buf, size);
		break;
	}
}

static const uint8_t guard_byte = 0xa5;

uint8_t *checkasm_out_alloc(size_t size, uint8_t fill)
{
	uint8_t *buf = malloc(size + CHECKASM_GUARD);

	if (!buf) {
		fprintf(stderr, "checkasm: out of memory\n");
		exit(1);
	}
	memset(buf, fill, size);
	memset(buf + size, guard_byte, CHECKASM_GUARD);
	return buf;
}

int checkasm_out_guard_ok(const uint8_t *buf, size_t size)
{
	for (size_t i = 0; i < CHECKASM_GUARD; i++)
		if (buf[size + i] != guard_byte)
			return 0;
	return 1;
}

void checkasm_out_free(uint8_t *buf)
{
	free(buf);
}

uint8_t *checkasm_in_alloc(size_t size)
{
	/* malloc of the exact size: ASan flags any read past it */
	uint8_t *buf = malloc(size ? size : 1);

	if (!buf) {
		fprintf(stderr, "checkasm: out of memory\n");
		exit(1);
	}
	return buf;
}

void checkasm_in_free(uint8_t *buf)
{
	free(buf);
}

int checkasm_func(const void *fn, const void *ref, const char *fmt, ...)
{
	va_list ap;

	if (!fn || fn == ref)
		return 0;
	for (int i = 0; i < state.ntested; i++)
		if (state.tested[i] == fn)
			return 0;
	va_start(ap, fmt);
	vsnprintf(state.current, sizeof(state.current), fmt, ap);
	va_end(ap);
	if (state.func_filter && fnmatch(state.func_filter, state.current, 0))
		return 0;
	if (state.ntested < (int)(sizeof(state.tested) / sizeof(state.tested[0])))
		state.tested[state.ntested++] = fn;
	state.current_failed = 0;
	return 1;
}

void checkasm_fail(const char *fmt, ...)
{
	va_list ap;

	state.mismatches++;
	if (state.current_failed++ >= 5)
		return; /* the first few cases are enough to debug */
	fprintf(stderr, "  FAIL %s_%s: ", state.current, state.tier_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void checkasm_report(void)
{
	if (state.current_failed)
		state.failed++;
	else
		state.passed++;
	if (state.current_failed || state.verbose)
		printf("  %-40s %-6s %s\n", state.current, state.tier_name,
		       state.current_failed ? "FAILED" : "ok");
}

int checkasm_check_bytes(const uint8_t *ref, const uint8_t *out, size_t size,
			 const char *what, int width)
{
	for (size_t i = 0; i < size; i++) {
		if (ref[i] != out[i]) {
			checkasm_fail("%s: width %d: byte %zu is %u, scalar %u",
				      what, width, i, out[i], ref[i]);
			return 0;
		}
	}
	if (!checkasm_out_guard_ok(out, size)) {
		checkasm_fail("%s: width %d: wrote past the end", what, width);
		return 0;
	}
	return 1;
}

static void usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [--seed=N] [--function=GLOB] [--test=FAMILY] "
		"[--verbose] [--list]\n",
		prog);
}

int main(int argc, char **argv)
{
	static struct v4lc_dsp ref, cur;
	const char *test_filter = NULL;
	uint64_t seed = (uint64_t)time(NULL);
	unsigned have;

	for (int i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "--seed=", 7)) {
			seed = strtoull(argv[i] + 7, NULL, 0);
		} else if (!strncmp(argv[i], "--function=", 11)) {
			state.func_filter = argv[i] + 11;
		} else if (!strncmp(argv[i], "--test=", 7)) {
			test_filter = argv[i] + 7;
		} else if (!strcmp(argv[i], "--verbose") || !strcmp(argv[i], "-v")) {
			state.verbose = 1;
		} else if (!strcmp(argv[i], "--list")) {
			for (size_t f = 0; f < sizeof(families) / sizeof(families[0]); f++)
				printf("%s\n", families[f].name);
			return 0;
		} else {
			usage(argv[0]);
			return 2;
		}
	}

	/* The same cap as the library: LIBV4LCONVERT_SIMD=scalar tests nothing. */
	have = v4lc_cpu_flags();
	printf("checkasm: seed %llu, cpu tiers: %s (detected %s)\n",
	       (unsigned long long)seed, v4lc_cpu_tier_name(have),
	       v4lc_cpu_tier_name(v4lc_cpu_detect()));

	v4lc_dsp_init(&ref, 0);
	checkasm_ref = &ref;
	for (size_t t = 0; t < sizeof(tiers) / sizeof(tiers[0]); t++) {
		if ((have & tiers[t].flags) != tiers[t].flags)
			continue;
		v4lc_dsp_init(&cur, tiers[t].flags);
		checkasm_new = &cur;
		state.tier_name = tiers[t].name;
		for (size_t f = 0; f < sizeof(families) / sizeof(families[0]); f++) {
			if (test_filter && fnmatch(test_filter, families[f].name, 0))
				continue;
			if (!families[f].run) {
				printf("  family %s has no checkasm test\n",
				       families[f].name);
				state.failed++;
				continue;
			}
			/* Same seed per family and tier: reruns reproduce. */
			state.rng = seed * 2654435761u + f * 97 + t + 1;
			families[f].run();
		}
	}

	printf("checkasm: %d passed, %d failed (%d mismatching cases)\n",
	       state.passed, state.failed, state.mismatches);
	if (state.passed + state.failed == 0 && have)
		printf("checkasm: no SIMD kernel to check at this tier\n");
	return state.failed ? 1 : 0;
}
