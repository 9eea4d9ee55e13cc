/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A checkasm-style kernel test harness: every family test runs once per
 * instruction-set tier the CPU has (cumulatively, as the dispatch fills the
 * tables), and each kernel pointer that differs from the scalar one and has
 * not been checked yet is compared with scalar, bit for bit, on random data,
 * extremes and many widths, with guard bytes behind every output.
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
 * bytes followed by CHECKASM_GUARD guard bytes; the usable part is filled
 * with `fill`. checkasm_out_guard_ok verifies the guard is untouched.
 */
#define CHECKASM_GUARD 64
uint8_t *checkasm_out_alloc(size_t size, uint8_t fill);
int checkasm_out_guard_ok(const uint8_t *buf, size_t size);
void checkasm_out_free(uint8_t *buf);

/*
 * Input buffers end exactly at the last requested byte, so an over-read
 * beyond it is caught by AddressSanitizer.
 */
uint8_t *checkasm_in_alloc(size_t size);
void checkasm_in_free(uint8_t *buf);

/*
 * Compare two outputs of `size` bytes and both guards; on a difference
 * report the first differing byte. Returns 1 when equal.
 */
int checkasm_check_bytes(const uint8_t *ref, const uint8_t *out, size_t size,
			 const char *what, int width);

#endif
