/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * For tests whose failure may be a hang: a SIGALRM handler that says so
 * on stdout and exits 2 (set it, then alarm(N) around what may hang), and
 * a monotonic clock in milliseconds.
 */
#ifndef TESTS_COMMON_HANG_H
#define TESTS_COMMON_HANG_H

#include <time.h>
#include <unistd.h>

static inline void hang_on_alarm(int sig)
{
	static const char msg[] = "FAIL hang: alarm\n";

	(void)sig;
	if (write(1, msg, sizeof(msg) - 1) < 0)
		_exit(3);
	_exit(2);
}

static inline double hang_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

#endif
