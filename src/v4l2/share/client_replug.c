/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Asking the server to carry this client across a replug of the camera
 * (FS_REPLUG, proto.h): only when the program's environment asks for it,
 * since a program that was written to notice an unplug (and, say, switch
 * to another camera) must keep getting ENODEV at once.
 *   LIBV4L2_SHARE_REPLUG=1        ask (anything else: don't);
 *   LIBV4L2_SHARE_REPLUG_MS=N     how long the server may wait for the
 *                                 camera (default 30 s, at most 10 min).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"

#define REPLUG_DEFAULT_MS 30000u
#define REPLUG_MAX_MS 600000u

/* The wait this program asks for, or 0 (not asked). */
static uint32_t replug_wait_ms(void)
{
	const char *on = secure_getenv("LIBV4L2_SHARE_REPLUG");
	const char *ms = secure_getenv("LIBV4L2_SHARE_REPLUG_MS");
	unsigned long n;
	char *end;

	if (!on || strcmp(on, "1"))
		return 0;
	if (!ms || !*ms)
		return REPLUG_DEFAULT_MS;
	n = strtoul(ms, &end, 10);
	if (*end || !n)
		return REPLUG_DEFAULT_MS;
	return n > REPLUG_MAX_MS ? REPLUG_MAX_MS : (uint32_t)n;
}

int share_ask_replug(struct share *sh)
{
	struct fs_replug m = { .h.type = FS_REPLUG };

	m.wait_ms = replug_wait_ms();
	if (!m.wait_ms)
		return 0;
	return share_request(sh, &m, sizeof(m), sizeof(m));
}
