/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Logging: errors go to v4l2_log_file when set (LIBV4L2_LOG_FILENAME or the
 * application), else to stderr; never to stdout. With a log file, ioctls
 * are traced too.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/logfile.h"
#include "priv.h"

LIBV4L_PUBLIC FILE *v4l2_log_file;

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

void lv2_log_init(void)
{
	FILE *f;

	/* Written only when a file is opened: other threads read it unlocked
	 * on every call. */
	pthread_mutex_lock(&log_lock);
	if (!v4l2_log_file && (f = v4lc_log_file_open("LIBV4L2_LOG_FILENAME")))
		v4l2_log_file = f;
	pthread_mutex_unlock(&log_lock);
}

/* One "libv4l2: ..." line on f, whole (other threads log too). */
static void vlog(FILE *f, const char *fmt, va_list ap)
{
	flockfile(f);
	fputs("libv4l2: ", f);
	vfprintf(f, fmt, ap);
	fputc('\n', f);
	fflush(f);
	funlockfile(f);
}

void lv2_log_err(struct lv2_dev *dev, const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	if (dev && dev->gone && !v4l2_log_file)
		goto out; /* unplugged: one report is enough */
	va_start(ap, fmt);
	vlog(v4l2_log_file ? v4l2_log_file : stderr, fmt, ap);
	va_end(ap);
out:
	errno = saved;
}

void lv2_log_note(int to_stderr, const char *fmt, ...)
{
	FILE *f = v4l2_log_file ? v4l2_log_file : to_stderr ? stderr : NULL;
	int saved = errno;
	va_list ap;

	if (!f)
		return;
	va_start(ap, fmt);
	vlog(f, fmt, ap);
	va_end(ap);
	errno = saved;
}

void lv2_log_ioctl(int fd, unsigned long request, int result, int err)
{
	FILE *f = v4l2_log_file;

	if (!f)
		return;
	flockfile(f);
	fprintf(f,
		"libv4l2: fd %d ioctl 0x%08lx (dir %lu type '%c' nr %lu "
		"size %lu) result %d",
		fd, request, (unsigned long)_IOC_DIR(request),
		(int)_IOC_TYPE(request), (unsigned long)_IOC_NR(request),
		(unsigned long)_IOC_SIZE(request), result);
	if (result < 0)
		fprintf(f, " (%s)", strerror(err));
	fputc('\n', f);
	fflush(f);
	funlockfile(f);
	errno = err;
}
