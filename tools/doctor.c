/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * v4l2-doctor: for each camera, what libv4l makes of it, in one screen
 * (see v4l2-doctor(1)):
 *
 *   v4l2-doctor [--json] [--camera SPEC]... [DEVICE]...
 *
 * DEVICE: a /dev/video* path, or the virtual camera as "libv4l-vcam:SPEC";
 * --camera SPEC is the same as "libv4l-vcam:SPEC". Without devices, every
 * /dev/video*. Exit status 0 when every device was read, 1 otherwise.
 */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor.h"

#define MAX_DEVS 64

static int usage(void)
{
	fputs("usage: v4l2-doctor [--json] [--camera SPEC]... [DEVICE]...\n",
	      stderr);
	return 2;
}

static void add(const char **names, int *n, const char *name)
{
	if (*n < MAX_DEVS)
		names[(*n)++] = name;
}

int main(int argc, char **argv)
{
	static struct doc_dev devs[MAX_DEVS];
	static char vcam[MAX_DEVS][300];
	const char *names[MAX_DEVS];
	int n = 0, json = 0, failed = 0;
	glob_t g = { 0 };

	/* Never a frame server's client, nor the one who starts it. */
	setenv("LIBV4L2_SHARE", "0", 1);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json")) {
			json = 1;
		} else if (!strcmp(argv[i], "--camera") && i + 1 < argc) {
			if (n == MAX_DEVS)
				break;
			snprintf(vcam[n], sizeof(vcam[n]), "libv4l-vcam:%s",
				 argv[++i]);
			add(names, &n, vcam[n]);
		} else if (!strcmp(argv[i], "--help") || argv[i][0] == '-') {
			return usage();
		} else {
			add(names, &n, argv[i]);
		}
	}
	if (!n && !glob("/dev/video*", 0, NULL, &g))
		for (size_t i = 0; i < g.gl_pathc; i++)
			add(names, &n, g.gl_pathv[i]);
	for (int i = 0; i < n; i++) {
		doc_probe(names[i], &devs[i]);
		doc_server_ask(names[i], &devs[i].server);
		failed |= !devs[i].ok;
	}
	if (json)
		doc_print_json(stdout, devs, n, v4lc_simd_tier());
	else
		doc_print_text(stdout, devs, n, v4lc_simd_tier());
	globfree(&g);
	return failed || fflush(stdout) ? 1 : 0;
}
