/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The virtual camera's unplug and replug (vcam.h, "unplug=N" and
 * "replug=MS"): a real camera that was unplugged is not there for anyone
 * until it is plugged back, so a camera is remembered by its spec, per
 * process, from its unplug on: opening that spec again fails (ENODEV) for
 * good, or until MS milliseconds after the unplug with "replug=MS" (the
 * camera then comes back, as new: sequence numbers from 0, unplugged
 * again after N frames). This is what lets the frame server's replug
 * (src/server/server_replug.c) be tested in process. libv4l2 unloads a
 * plugin module with the last device it serves, which would forget the
 * unplug: the module is kept loaded from its first unplug on.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <string.h>
#include <time.h>

#include "vcam/priv.h"

#define ABSENT_MAX 8

static struct absent {
	char spec[VCAM_SPEC_MAX];
	struct timespec back; /* CLOCK_MONOTONIC */
	int forever;
	int used;
} absent[ABSENT_MAX];
static pthread_mutex_t absent_lock = PTHREAD_MUTEX_INITIALIZER;

static int passed(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec > t->tv_sec ||
	       (now.tv_sec == t->tv_sec && now.tv_nsec >= t->tv_nsec);
}

/* This module (or program) stays loaded: the table below must live. */
static void stay_loaded(void)
{
	Dl_info info;

	if (dladdr((void *)stay_loaded, &info) && info.dli_fname)
		dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD | RTLD_NODELETE);
}

void v4lc_vcam_unplugged(const struct vcam *c)
{
	struct absent *a = &absent[0];

	stay_loaded();
	pthread_mutex_lock(&absent_lock);
	for (int i = 0; i < ABSENT_MAX; i++) {
		if (!absent[i].used || !strcmp(absent[i].spec, c->spec)) {
			a = &absent[i];
			break;
		}
	}
	memset(a, 0, sizeof(*a));
	memcpy(a->spec, c->spec, sizeof(a->spec));
	a->used = 1;
	a->forever = !c->replug_set;
	clock_gettime(CLOCK_MONOTONIC, &a->back);
	a->back.tv_sec += c->replug_ms / 1000;
	a->back.tv_nsec += (long)(c->replug_ms % 1000) * 1000000L;
	if (a->back.tv_nsec >= 1000000000L) {
		a->back.tv_sec++;
		a->back.tv_nsec -= 1000000000L;
	}
	pthread_mutex_unlock(&absent_lock);
}

int v4lc_vcam_absent(const char *spec)
{
	int r = 0;

	pthread_mutex_lock(&absent_lock);
	for (int i = 0; i < ABSENT_MAX; i++) {
		struct absent *a = &absent[i];

		if (!a->used || strncmp(a->spec, spec, sizeof(a->spec) - 1))
			continue;
		if (a->forever || !passed(&a->back))
			r = 1;
		else
			a->used = 0; /* plugged back */
		break;
	}
	pthread_mutex_unlock(&absent_lock);
	return r;
}
