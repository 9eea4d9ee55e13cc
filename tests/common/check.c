/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The reports of CHECK (check.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

atomic_int failures;
atomic_int check_count;
static pid_t main_pid;

static __attribute__((constructor)) void check_init(void)
{
	main_pid = getpid();
}

static void report(const char *what, int err, const char *file, int line,
		   const char *cond, const char *msg, va_list ap)
{
	/* one line, even when threads fail at once */
	flockfile(stdout);
	printf("%s", what);
	if (getpid() != main_pid)
		printf(" [pid %d]", (int)getpid());
	printf(" %s:%d: %s", file, line, cond);
	if (msg[2])
		vprintf(msg, ap);
	if (err)
		printf(" (errno: %s)", strerror(err));
	printf("\n");
	/* now: a forked child must not print this line a second time */
	fflush(stdout);
	funlockfile(stdout);
}

void check_failed(int err, const char *file, int line, const char *cond,
		  const char *msg, ...)
{
	int n = ++failures;
	va_list ap;

	if (n > CHECK_MAX_PRINTED)
		return;
	va_start(ap, msg);
	report("FAIL", err, file, line, cond, msg, ap);
	va_end(ap);
	if (n == CHECK_MAX_PRINTED) {
		printf("(further failures are counted, not printed)\n");
		fflush(stdout);
	}
}

void check_passed(const char *file, int line, const char *cond, const char *msg,
		  ...)
{
	va_list ap;

	va_start(ap, msg);
	report("ok", 0, file, line, cond, msg, ap);
	va_end(ap);
}
