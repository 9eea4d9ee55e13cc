/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "checkasm.h"
#include "../common/rng.h"

#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const struct {
	const char *name;
	void (*run)(void);
} families[] = {
	{ "rgb", checkasm_check_rgb },
	{ "flip", checkasm_check_flip },
	{ "yuv422", checkasm_check_yuv422 },
	{ "yuv420", checkasm_check_yuv420 },
	{ "rgb2yuv", checkasm_check_rgb2yuv },
	{ "rgbpack", checkasm_check_rgbpack },
	{ "grey", checkasm_check_grey },
	{ "bayer", checkasm_check_bayer },
	{ "yuvlayout", checkasm_check_yuvlayout },
	{ "proc", checkasm_check_proc },
	{ "focus", checkasm_check_focus },
};
#define NFAMILIES (sizeof(families) / sizeof(families[0]))

const struct v4lc_dsp *checkasm_ref;
const struct v4lc_dsp *checkasm_new;

static struct {
	uint64_t rng;
	const char *func_filter;
	const char *tier_name;
	int misaligned; /* this pass misaligns every buffer */
	int bench;      /* --bench, and this pass may time */
	char current[128];
	int current_failed;
	int passed, failed, mismatches;
	const void *tested[1024];
	int ntested;
	int verbose;
} state;

const int checkasm_widths[] = {
	1,  2,  3,  4,  5,   6,   7,   8,   9,   10,   11,   12,   13, 14, 15,
	16, 17, 18, 19, 20,  21,  22,  23,  24,  25,   26,   27,   28, 29, 30,
	31, 32, 33, 34, 35,  36,  37,  38,  39,  40,   41,   42,   43, 44, 45,
	46, 47, 48, 49, 50,  51,  52,  53,  54,  55,   56,   57,   58, 59, 60,
	61, 62, 63, 64, 127, 128, 129, 640, 641, 1279, 1280, 1920,
};
const int checkasm_nwidths =
	sizeof(checkasm_widths) / sizeof(checkasm_widths[0]);

uint32_t checkasm_rand(void)
{
	/* fast, and reproducible from the printed seed */
	return xorshift64star(&state.rng);
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

/* ------------------------------------------------------------ buffers */

#define ALIGN 64

/* 0 in the aligned pass, else 1..31: where a buffer starts past a line. */
static size_t misalignment(void)
{
	return state.misaligned ? 1 + checkasm_rand() % 31 : 0;
}

static void *alloc_aligned(size_t size)
{
	void *p;

	if (posix_memalign(&p, ALIGN, size ? size : 1)) {
		fprintf(stderr, "checkasm: out of memory\n");
		exit(1);
	}
	return p;
}

static const uint8_t guard_byte = 0xa5;

/* Before the front guard of an output buffer: where its block starts. */
struct out_header {
	void *block;
};

uint8_t *checkasm_out_alloc(size_t size, uint8_t fill)
{
	size_t head = sizeof(struct out_header) + CHECKASM_GUARD;
	size_t front = (head + ALIGN - 1) / ALIGN * ALIGN + misalignment();
	uint8_t *block = alloc_aligned(front + size + CHECKASM_GUARD);
	uint8_t *buf = block + front;
	struct out_header h = { block };

	memcpy(buf - head, &h, sizeof(h));
	memset(buf - CHECKASM_GUARD, guard_byte, CHECKASM_GUARD);
	memset(buf, fill, size);
	memset(buf + size, guard_byte, CHECKASM_GUARD);
	return buf;
}

int checkasm_out_guard_ok(const uint8_t *buf, size_t size)
{
	for (size_t i = 0; i < CHECKASM_GUARD; i++)
		if (buf[-1 - (ptrdiff_t)i] != guard_byte ||
		    buf[size + i] != guard_byte)
			return 0;
	return 1;
}

void checkasm_out_free(uint8_t *buf)
{
	struct out_header h;

	memcpy(&h, buf - sizeof(h) - CHECKASM_GUARD, sizeof(h));
	free(h.block);
}

uint8_t *checkasm_in_alloc(size_t size)
{
	/* the block ends at the buffer's end: ASan flags any read past it */
	size_t mis = misalignment();

	return (uint8_t *)alloc_aligned(mis + size) + mis;
}

void checkasm_in_free(uint8_t *buf)
{
	/* the block is the 64-byte line the buffer starts in */
	free((void *)((uintptr_t)buf & ~(uintptr_t)(ALIGN - 1)));
}

/* ------------------------------------------------------------ reports */

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
	if (state.ntested <
	    (int)(sizeof(state.tested) / sizeof(state.tested[0])))
		state.tested[state.ntested++] = fn;
	state.current_failed = 0;
	return 1;
}

static const char *pass_name(void)
{
	return state.misaligned ? "misaligned" : "aligned";
}

void checkasm_fail(const char *fmt, ...)
{
	va_list ap;

	state.mismatches++;
	if (state.current_failed++ >= 5)
		return; /* the first few cases are enough to debug */
	fprintf(stderr, "  FAIL %s_%s (%s): ", state.current, state.tier_name,
		pass_name());
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
		printf("  %-40s %-6s %-10s %s\n", state.current,
		       state.tier_name, pass_name(),
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
	for (size_t i = 1; i <= CHECKASM_GUARD; i++) {
		if (out[-(ptrdiff_t)i] != guard_byte) {
			checkasm_fail("%s: width %d: wrote %zu bytes before "
				      "the start",
				      what, width, i);
			return 0;
		}
	}
	if (!checkasm_out_guard_ok(out, size)) {
		checkasm_fail("%s: width %d: wrote past the end", what, width);
		return 0;
	}
	return 1;
}

/* -------------------------------------------------------------- bench */

#define BENCH_ROUNDS 21    /* measured rounds, the median reported */
#define BENCH_BATCH_NS 1e5 /* a batch of the scalar calls lasts this */

/*
 * The thread's CPU time: on a shared machine, the time the thread waited
 * for a CPU is not the kernel's.
 */
static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int checkasm_benching(void)
{
	return state.bench;
}

/*
 * Round -2: nothing timed yet; -1: calibrating, the batch doubled until the
 * scalar calls take BENCH_BATCH_NS; 0 .. BENCH_ROUNDS - 1: measured.
 */
void checkasm_bench_start(struct checkasm_timer *t)
{
	t->iters = 1;
	t->round = -2;
}

int checkasm_bench_next(struct checkasm_timer *t)
{
	if (t->round == -2)
		t->round = -1;
	else if (t->round >= 0)
		t->round++;
	else if (t->ns[0][0] * t->iters < BENCH_BATCH_NS &&
		 t->iters < (1 << 20))
		t->iters *= 2;
	else
		t->round = 0;
	t->t0 = now_ns();
	return t->round < BENCH_ROUNDS;
}

void checkasm_bench_lap(struct checkasm_timer *t, int which)
{
	double t1 = now_ns();
	int r = t->round < 0 ? 0 : t->round;

	t->ns[which][r] = (t1 - t->t0) / t->iters;
	t->t0 = t1;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(const double *v, int n)
{
	double s[CHECKASM_BENCH_ROUNDS_MAX];

	memcpy(s, v, sizeof(*v) * (size_t)n);
	qsort(s, (size_t)n, sizeof(*s), cmp_double);
	return s[n / 2];
}

void checkasm_bench_report(const struct checkasm_timer *t, double pixels)
{
	double ref = median(t->ns[0], BENCH_ROUNDS) / pixels;
	double cur = median(t->ns[1], BENCH_ROUNDS) / pixels;

	printf("  bench %-40s %-5s %8.3f ns/px %9.1f MPix/s  scalar %8.3f "
	       "ns/px  x%.2f\n",
	       state.current, state.tier_name, cur, 1e3 / cur, ref, ref / cur);
}

/* --------------------------------------------------------------- main */

static void usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [--seed=N] [--function=GLOB] [--test=FAMILY] "
		"[--bench] [--verbose] [--list]\n",
		prog);
}

/* Both passes of one family at one tier, each with its own seed. */
static void run_family(size_t f, size_t tier, uint64_t seed, int bench)
{
	int before = state.ntested;

	for (int pass = 0; pass < 2; pass++) {
		state.ntested = before;
		state.misaligned = pass;
		state.bench = bench && !pass;
		state.rng = seed * 2654435761u + f * 97 + tier * 7 + pass + 1;
		families[f].run();
	}
}

int main(int argc, char **argv)
{
	static struct v4lc_dsp ref, cur;
	const char *test_filter = NULL;
	uint64_t seed = (uint64_t)time(NULL);
	unsigned have;
	int bench = 0;

	/* Line by line: a kernel that crashes leaves the lines before it. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "--seed=", 7)) {
			seed = strtoull(argv[i] + 7, NULL, 0);
		} else if (!strncmp(argv[i], "--function=", 11)) {
			state.func_filter = argv[i] + 11;
		} else if (!strncmp(argv[i], "--test=", 7)) {
			test_filter = argv[i] + 7;
		} else if (!strcmp(argv[i], "--bench")) {
			bench = 1;
		} else if (!strcmp(argv[i], "--verbose") ||
			   !strcmp(argv[i], "-v")) {
			state.verbose = 1;
		} else if (!strcmp(argv[i], "--list")) {
			for (size_t f = 0; f < NFAMILIES; f++)
				printf("%s\n", families[f].name);
			return 0;
		} else {
			usage(argv[0]);
			return 2;
		}
	}

	/* The library's cap: LIBV4LCONVERT_SIMD=scalar tests nothing. */
	have = v4lc_cpu_flags();
	printf("checkasm: seed %llu, cpu tiers: %s (detected %s)\n",
	       (unsigned long long)seed, v4lc_cpu_tier_name(have),
	       v4lc_cpu_tier_name(v4lc_cpu_detect()));

	v4lc_dsp_init(&ref, 0);
	checkasm_ref = &ref;
	for (size_t t = 0; v4lc_cpu_tiers[t].name; t++) {
		if ((have & v4lc_cpu_tiers[t].flags) != v4lc_cpu_tiers[t].flags)
			continue;
		v4lc_dsp_init(&cur, v4lc_cpu_tiers[t].flags);
		checkasm_new = &cur;
		state.tier_name = v4lc_cpu_tiers[t].name;
		for (size_t f = 0; f < NFAMILIES; f++)
			if (!test_filter ||
			    !fnmatch(test_filter, families[f].name, 0))
				run_family(f, t, seed, bench);
	}

	printf("checkasm: %d passed, %d failed (%d mismatching cases; "
	       "aligned and misaligned buffers count apart)\n",
	       state.passed, state.failed, state.mismatches);
	if (state.passed + state.failed == 0 && have)
		printf("checkasm: no SIMD kernel to check at this tier\n");
	return state.failed ? 1 : 0;
}
