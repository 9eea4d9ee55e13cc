/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target for the JPEG-family chip decoders (PJPG, JL20, S401,
 * JPGL), called directly. Input: byte 0 picks the decoder (bits 0-1: PJPG,
 * JL20, S401, JPGL) and the destination (bits 2-3), byte 1 the frame size from a short list, the
 * rest is the frame. Seeds: tests/chip/jpeg/corpus/chipjpeg (valid frames
 * from the test encoders, with these two bytes in front).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <linux/videodev2.h>

#include "jpeg/jl2005.h"
#include "jpeg/jpgl.h"
#include "jpeg/pixart.h"
#include "jpeg/se401.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	static const int sizes[][2] = { { 160, 120 }, { 176, 144 },
					{ 320, 240 }, { 32, 16 },
					{ 16, 8 },    { 640, 480 } };
	static const uint32_t fmts[] = { V4L2_PIX_FMT_RGB24, V4L2_PIX_FMT_BGR24,
					 V4L2_PIX_FMT_YUV420,
					 V4L2_PIX_FMT_YVU420 };
	int w, h;
	uint8_t *dst;
	size_t dn;
	char err[160];

	if (n < 2)
		return 0;
	w = sizes[d[1] % 6][0];
	h = sizes[d[1] % 6][1];
	dn = (size_t)w * h * 3;
	dst = malloc(dn);
	if (!dst)
		return 0;
	switch (d[0] & 3) {
	case 0: {
		struct v4lc_pjpg *p = v4lc_pjpg_new();

		if (p)
			(void)v4lc_pjpg_decode(p, d + 2, n - 2,
					       fmts[(d[0] >> 2) & 3], dst, dn,
					       w, h, err, sizeof(err));
		v4lc_pjpg_free(p);
		break;
	}
	case 1:
		(void)v4lc_jl2005_decode(d + 2, n - 2, dst, w, h, err,
					 sizeof(err));
		break;
	case 2:
		(void)v4lc_se401_decode(d + 2, n - 2, dst, w, h, err,
					sizeof(err));
		break;
	default: {
		uint8_t *work = malloc(v4lc_jpgl_work_size(w));

		if (work)
			(void)v4lc_jpgl_decode(d + 2, n - 2,
					       fmts[(d[0] >> 2) & 3], dst, dn,
					       w, h, work, err, sizeof(err));
		free(work);
		break;
	}
	}
	free(dst);
	return 0;
}
