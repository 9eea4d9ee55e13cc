/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The controls the clients set, set again on the camera reopened after a
 * replug (server_replug.c): a camera plugged back comes with its
 * defaults, and a client that had set its brightness must not find it
 * changed behind its back. A client's S_EXT_CTRLS reaches us as one
 * S_CTRL a control (src/v4l2/share/client.c), so S_CTRL is all there is
 * to remember: the value the driver kept (clamped), for every client,
 * including those gone since (the camera kept their values too).
 *
 * They are set again in the order of their last setting: a mode control
 * (auto exposure off) set before the value it unlocks (exposure) is set
 * before it again, and one set back afterwards (auto exposure on) is set
 * after it, as the camera saw them. Buttons and write-only controls
 * (a pan by so many degrees, a one-push focus) are actions, not state:
 * not repeated. A control the camera refuses now is left as it is.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <libv4l2.h>

#include "server.h"

#define SAVED_MAX 64 /* more than any camera has */

static struct {
	uint32_t id;
	int32_t value;
} saved[SAVED_MAX];
static unsigned nsaved;

void srv_ctrls_remember(uint32_t id, int32_t value)
{
	unsigned i;

	for (i = 0; i < nsaved && saved[i].id != id; i++)
		;
	if (i == nsaved && nsaved == SAVED_MAX)
		i = 0; /* full: the one set longest ago is forgotten */
	else if (i == nsaved)
		nsaved++;
	/* to the end: the most recently set */
	memmove(&saved[i], &saved[i + 1], sizeof(saved[0]) * (nsaved - 1 - i));
	saved[nsaved - 1].id = id;
	saved[nsaved - 1].value = value;
}

/* Whether id is state to set again on this camera. */
static int restorable(uint32_t id)
{
	struct v4l2_queryctrl q = { .id = id };

	if (v4l2_ioctl(srv.dev, VIDIOC_QUERYCTRL, &q) < 0)
		return 0;
	if (q.type == V4L2_CTRL_TYPE_BUTTON ||
	    (q.flags & (V4L2_CTRL_FLAG_WRITE_ONLY | V4L2_CTRL_FLAG_READ_ONLY |
			V4L2_CTRL_FLAG_DISABLED)))
		return 0;
	return 1;
}

void srv_ctrls_restore(void)
{
	for (unsigned i = 0; i < nsaved; i++) {
		struct v4l2_control c = { .id = saved[i].id,
					  .value = saved[i].value };

		if (!restorable(c.id))
			continue;
		if (v4l2_ioctl(srv.dev, VIDIOC_S_CTRL, &c) < 0 && srv.verbose)
			fprintf(stderr,
				"v4l2-frameserver: control 0x%08x not set "
				"again after the replug: %s\n",
				c.id, strerror(errno));
	}
}
