/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The check every test program uses (tests/common/check.c):
 *
 *   CHECK(cond);                     FAIL file:line: cond
 *   CHECK(cond, "fmt", args...);     FAIL file:line: cond: message
 *
 * A failed check prints one line on stdout (with the last errno when it is
 * set, and the pid when a forked child failed) and adds one to `failures`;
 * the test returns its status from that count (0 passed, 1 failed, and 77
 * for meson's "skipped"). The message arguments are evaluated only when the
 * check fails. The first CHECK_MAX_PRINTED failures are printed, the others
 * only counted, so that a broken kernel does not print a line per pixel.
 * `check_count` counts the checks evaluated. Both counters are atomic:
 * threads may check.
 *
 * Define CHECK_PRINT_PASSES before including this header to print an "ok"
 * line for every check that passes as well (a log of what was verified).
 */
#ifndef V4LC_TEST_CHECK_H
#define V4LC_TEST_CHECK_H

#include <errno.h>
#include <stdatomic.h>

#define CHECK_MAX_PRINTED 40

extern atomic_int failures;
extern atomic_int check_count;

/* msg is ": " and the caller's format; ": " alone means no message. */
void check_failed(int err, const char *file, int line, const char *cond,
		  const char *msg, ...) __attribute__((format(printf, 5, 6)));
void check_passed(const char *file, int line, const char *cond, const char *msg,
		  ...) __attribute__((format(printf, 4, 5)));

#ifdef CHECK_PRINT_PASSES
#define CHECK_PASSED_(cond, ...)                                               \
	check_passed(__FILE__, __LINE__, #cond, ": " __VA_ARGS__)
#else
#define CHECK_PASSED_(cond, ...) ((void)0)
#endif

#define CHECK(cond, ...)                                                       \
	do {                                                                   \
		atomic_fetch_add_explicit(&check_count, 1,                     \
					  memory_order_relaxed);               \
		if (!(cond)) {                                                 \
			int check_errno_ = errno;                              \
			check_failed(check_errno_, __FILE__, __LINE__, #cond,  \
				     ": " __VA_ARGS__);                        \
		} else {                                                       \
			CHECK_PASSED_(cond, __VA_ARGS__);                      \
		}                                                              \
	} while (0)

/*
 * CHECK for the innermost loops of a test (millions of samples): a check
 * that passes is not counted in check_count nor printed, so that it costs
 * one comparison instead of an atomic add. A failure is reported as by
 * CHECK.
 */
#define CHECK_HOT(cond, ...)                                                   \
	do {                                                                   \
		if (!(cond))                                                   \
			CHECK(cond, __VA_ARGS__);                              \
	} while (0)

#endif
