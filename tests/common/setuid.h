/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the setuid tests (tests/robust/security.c, tests/plugindir) share:
 * a setuid copy of the test program, and a child run whose report is read
 * back from its stdout.
 */
#ifndef V4LC_TEST_SETUID_H
#define V4LC_TEST_SETUID_H

#include <stddef.h>

/*
 * Copy this program (/proc/self/exe) to path, owned by the user nobody,
 * mode 04755. 0, or -1 when that cannot be done (not root, no such user):
 * the caller skips its setuid part then. Whether the bit takes effect (a
 * nosuid mount) the child tells with getauxval(AT_SECURE).
 */
int setuid_copy_self(const char *path);

/*
 * Run argv (argv[0] the program) in a child: setup(arg), when not NULL,
 * runs there before the exec (the environment), stdout goes to a pipe and
 * stderr too when with_stderr. The output in buf (NUL-terminated, at most
 * size - 1 bytes); returns the child's exit status, or -1.
 */
int setuid_run_report(char *const argv[], void (*setup)(void *), void *arg,
		      int with_stderr, char *buf, size_t size);

#endif
