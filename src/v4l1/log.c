/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libv4l1's log: with LIBV4L1_LOG_FILENAME (ignored by setuid programs),
 * one line per V4L1 ioctl. The library never writes to stdout or stderr.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/logfile.h"
#include "priv.h"

LIBV4L_PUBLIC FILE *v4l1_log_file;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

void lv1_log_init(void)
{
	FILE *f;

	/* Written only when a file is opened: other threads read it unlocked
	 * on every call. */
	pthread_mutex_lock(&log_lock);
	if (!v4l1_log_file && (f = v4lc_log_file_open("LIBV4L1_LOG_FILENAME")))
		v4l1_log_file = f;
	pthread_mutex_unlock(&log_lock);
}

/* Only with a log file. */
void lv1_log_ioctl(int fd, unsigned int request, int result, int err)
{
	FILE *f = v4l1_log_file;

	if (!f)
		return;
	pthread_mutex_lock(&log_lock);
	if (result < 0)
		fprintf(f,
			"libv4l1: fd %d request 0x%08x ('%c', %u) failed: %s\n",
			fd, request, (int)((request >> 8) & 0xff),
			request & 0xff, strerror(err));
	else
		fprintf(f, "libv4l1: fd %d request 0x%08x ('%c', %u) ok\n", fd,
			request, (int)((request >> 8) & 0xff), request & 0xff);
	fflush(f);
	pthread_mutex_unlock(&log_lock);
}
