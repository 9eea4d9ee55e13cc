/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A checkasm-style kernel test harness: every family test runs once per
 * instruction-set tier the CPU has (cumulatively, as the dispatch fills the
 * tables), and each kernel pointer that differs from the scalar one and has
 * not been checked yet is compared with scalar, bit for bit, on random data,
 * extremes and many widths, with guard bytes before and after every output.
 * Each family test runs twice per tier: with every buffer 64-byte aligned,
 * then with every buffer misaligned by 1 to 31 bytes.
 *
 * A family test (tests/checkasm/<family>.c) defines
 *   void checkasm_check_<family>(void);
 * and uses checkasm_ref / checkasm_new for the scalar and tier tables.
 */
#ifndef V4LC_CHECKASM_H
#define V4LC_CHECKASM_H

#include <stddef.h>
#include <stdint.h>

#include "dispatch/dsp.h"

void checkasm_check_rgb(void);
void checkasm_check_flip(void);
void checkasm_check_yuv422(void);
void checkasm_check_yuv420(void);
void checkasm_check_rgb2yuv(void);
void checkasm_check_rgbpack(void);
void checkasm_check_grey(void);
void checkasm_check_bayer(void);
void checkasm_check_yuvlayout(void);
void checkasm_check_proc(void);
void checkasm_check_focus(void);

extern const struct v4lc_dsp *checkasm_ref; /* scalar tables */
extern const struct v4lc_dsp *checkasm_new; /* tables of the current tier */

/*
 * True when `fn` must be tested: it differs from the scalar `ref`, has not
 * been tested at a lower tier, and its name matches --function. The name is
 * printf-formatted and becomes the current function for reports.
 */
int checkasm_func(const void *fn, const void *ref, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Record a mismatch of the current function (printf-formatted detail). */
void checkasm_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Close the current function: counts a pass unless a failure was recorded. */
void checkasm_report(void);

/* Deterministic random numbers from the run's seed. */
uint32_t checkasm_rand(void);
void checkasm_randomise(uint8_t *buf, size_t size);

/*
 * Fill `buf` with a pattern chosen by `kind`:
 * 0..2 random, 3 all zero, 4 all 255, 5 alternating 16/235 (video range
 * limits), 6 alternating 0/255.
 */
#define CHECKASM_PATTERNS 7
void checkasm_pattern(uint8_t *buf, size_t size, int kind);

/* Widths every row kernel is checked at: 1..64, then larger odd/even ones. */
extern const int checkasm_widths[];
extern const int checkasm_nwidths;

/*
 * Output buffers with guard bytes: checkasm_out_alloc returns `size` usable
 * bytes, filled with `fill`, between CHECKASM_GUARD guard bytes before and
 * after. checkasm_out_guard_ok verifies that both guards are untouched.
 */
#define CHECKASM_GUARD 64
uint8_t *checkasm_out_alloc(size_t size, uint8_t fill);
int checkasm_out_guard_ok(const uint8_t *buf, size_t size);
void checkasm_out_free(uint8_t *buf);

/*
 * Input buffers end exactly at the last requested byte, so an over-read
 * beyond it is caught by AddressSanitizer (and, when aligned, they start
 * exactly at the first byte too).
 */
uint8_t *checkasm_in_alloc(size_t size);
void checkasm_in_free(uint8_t *buf);

/*
 * Compare two outputs of `size` bytes and the guards around `out`; on a
 * difference report the first differing byte. Returns 1 when equal.
 */
int checkasm_check_bytes(const uint8_t *ref, const uint8_t *out, size_t size,
			 const char *what, int width);

/*
 * --bench: time the scalar call `ref_call` and the tier's call `new_call`
 * (expressions, on the same buffers) in interleaved batches and print the
 * medians per pixel, `pixels` pixels per call. checkasm_bench does it for
 * a row kernel's loop over the widths, at the width CHECKASM_BENCH_WIDTH;
 * checkasm_bench_run whenever the harness benchmarks. Timings are printed,
 * never checked.
 */
#define CHECKASM_BENCH_WIDTH 1920
#define CHECKASM_BENCH_ROUNDS_MAX 64

struct checkasm_timer {
	int iters, round;
	double t0, ns[2][CHECKASM_BENCH_ROUNDS_MAX];
};

int checkasm_benching(void);
void checkasm_bench_start(struct checkasm_timer *t);
int checkasm_bench_next(struct checkasm_timer *t);
void checkasm_bench_lap(struct checkasm_timer *t, int which);
void checkasm_bench_report(const struct checkasm_timer *t, double pixels);

#define checkasm_bench_run(pixels, ref_call, new_call)                         \
	do {                                                                   \
		struct checkasm_timer t_;                                      \
                                                                               \
		if (!checkasm_benching())                                      \
			break;                                                 \
		checkasm_bench_start(&t_);                                     \
		while (checkasm_bench_next(&t_)) {                             \
			for (int i_ = 0; i_ < t_.iters; i_++) {                \
				ref_call;                                      \
			}                                                      \
			checkasm_bench_lap(&t_, 0);                            \
			for (int i_ = 0; i_ < t_.iters; i_++) {                \
				new_call;                                      \
			}                                                      \
			checkasm_bench_lap(&t_, 1);                            \
		}                                                              \
		checkasm_bench_report(&t_, (pixels));                          \
	} while (0)

#define checkasm_bench(width, pixels, ref_call, new_call)                      \
	do {                                                                   \
		if ((width) == CHECKASM_BENCH_WIDTH)                           \
			checkasm_bench_run(pixels, ref_call, new_call);        \
	} while (0)

#endif
