/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target for the OV511/OV518 decoders, called directly. Input:
 * byte 0 bit 0 picks the decoder (OV511, OV518), bit 1 the yvu flag;
 * byte 1 the frame size from a short list; the rest is the frame. The
 * output buffer is exactly w*h*3/2 bytes (heap), so that any write past
 * it is caught. Seeds: tests/chip/ov51x/corpus/ov51x (the known-answer
 * frames with these two bytes in front).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "jpeg/ov51x.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	static const int sizes[][2] = { { 176, 144 }, { 160, 120 }, { 64, 48 },
					{ 40, 12 },   { 48, 32 },   { 16, 8 },
					{ 640, 480 }, { 24, 20 } };
	int w, h, r;
	size_t on;
	uint8_t *out, *work;
	unsigned notes;

	if (n < 2)
		return 0;
	w = sizes[d[1] % 8][0];
	h = sizes[d[1] % 8][1];
	on = v4lc_ov51x_out_size(w, h);
	out = malloc(on);
	work = malloc(v4lc_ov51x_work_size(n - 2));
	if (!out || !work) {
		free(out);
		free(work);
		return 0;
	}
	if (d[0] & 1)
		r = v4lc_ov518_decode(d + 2, n - 2, out, w, h, (d[0] >> 1) & 1,
				      work, &notes);
	else
		r = v4lc_ov511_decode(d + 2, n - 2, out, w, h, work, &notes);
	if (r && r != -EAGAIN)
		abort();
	free(work);
	free(out);
	return 0;
}
