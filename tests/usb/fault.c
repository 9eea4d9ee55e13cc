/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Faults on demand, asked for by a line in the camera's command file (or
 * on the command line):
 *   unplug N [REPLUG_MS]  disconnect after N more frames (0: now; when not
 *                         streaming, N frames into the next stream), and
 *                         plug back in REPLUG_MS later (default: never)
 *   corrupt N             scramble the data of the next N frames
 *   truncate N            cut the next N frames to half their length
 *   stall                 stall every stream request until the driver
 *                         clears the halt (bulk), or every isochronous
 *                         packet is sent empty (isochronous) until a new
 *                         stream starts
 */
#include "usbcam.h"

#include <stdio.h>
#include <string.h>

void usbcam_faults_reset(struct usbcam_faults *f)
{
	memset(f, 0, sizeof(*f));
	f->unplug_after = -1;
	f->replug_ms = -1;
}

int usbcam_fault_parse(struct usbcam *c, const char *cmd)
{
	struct usbcam_faults *f = &c->f;
	int a = 0, b = -1;
	char word[16];

	if (sscanf(cmd, "%15s %d %d", word, &a, &b) < 1)
		return -1;
	if (!strcmp(word, "unplug")) {
		/* N more frames, of this stream or of the next one */
		f->unplug_after = (int64_t)c->s.total + (a > 0 ? a : 0);
		f->replug_ms = b;
		if (a <= 0)
			f->unplug_now = 1;
	} else if (!strcmp(word, "corrupt")) {
		f->corrupt = a > 0 ? a : 1;
	} else if (!strcmp(word, "truncate")) {
		f->truncate = a > 0 ? a : 1;
	} else if (!strcmp(word, "stall")) {
		f->stall = f->stall_active = 1;
	} else {
		usbcam_log(c, "unknown command: %s", cmd);
		return -1;
	}
	usbcam_log(c, "fault: %s", cmd);
	return 0;
}

size_t usbcam_fault_frame(struct usbcam *c, uint8_t *buf, size_t len)
{
	struct usbcam_faults *f = &c->f;

	if (f->corrupt > 0 && len > 64) {
		/* a burst of garbage in the middle: data, not the headers */
		uint32_t x = 0x9e3779b9u ^ c->s.seq;

		for (size_t i = len / 3; i < len / 3 + len / 6; i++) {
			x = x * 1664525u + 1013904223u;
			buf[i] ^= (uint8_t)(x >> 24) | 1;
		}
		f->corrupt--;
		usbcam_log(c, "frame %u corrupted", c->s.seq);
	}
	if (f->truncate > 0) {
		f->truncate--;
		usbcam_log(c, "frame %u truncated to %zu of %zu bytes",
			   c->s.seq, len / 2, len);
		len /= 2;
	}
	return len;
}
