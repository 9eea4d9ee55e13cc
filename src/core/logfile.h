/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The log file a library opens when its variable names one (libv4l1's
 * LIBV4L1_LOG_FILENAME, libv4l2's LIBV4L2_LOG_FILENAME). A setuid program
 * ignores the variable (secure_getenv), a symbolic link is not followed, a
 * new file is the user's alone, and the fd does not leak into exec'd
 * programs. The raw system calls: a preload shim wraps libc's open and
 * close and must not see the library's own file.
 */
#ifndef V4LC_CORE_LOGFILE_H
#define V4LC_CORE_LOGFILE_H

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The stream to append to, or NULL (no variable, or it cannot be opened). */
static inline FILE *v4lc_log_file_open(const char *variable)
{
	const char *name = secure_getenv(variable);
	FILE *f;
	int fd;

	if (!name || !*name)
		return NULL;
	fd = (int)syscall(SYS_openat, AT_FDCWD, name,
			  O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW |
				  O_CLOEXEC,
			  0600);
	if (fd < 0)
		return NULL;
	f = fdopen(fd, "a");
	if (!f)
		syscall(SYS_close, fd);
	return f;
}

#endif
