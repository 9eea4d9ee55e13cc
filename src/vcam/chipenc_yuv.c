/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The six fixed YUV 4:2:0 layouts of the chip formats (chipenc.h), written
 * independently of the decoders (src/libv4lconvert/src_chipyuv.c).
 */
#include "vcam/chipenc.h"

#include <errno.h>
#include <string.h>

#include "core/format.h"

/* The layout of a chip YUV format (enum v4lc_chip_yuv: the format
 * table's order of its CHIPYUV row), or -1 for another format. */
static int layout_of(uint32_t fourcc)
{
	const struct v4lc_format *f = v4lc_format_row(fourcc);

	return f && f->layout == V4LC_L_CHIPYUV ? f->order : -1;
}

int v4lc_chipenc_yuv_size_ok(uint32_t fourcc, int w, int h)
{
	int l = layout_of(fourcc);

	if (l < 0 || w < 2 || h < 2 || ((w | h) & 1))
		return 0;
	/* SN9C20X I420: whole 16x8 blocks */
	return l != V4LC_S920 || (w % 16 == 0 && h % 8 == 0);
}

/* n samples minus 128 (the signed storage of the SPCA50x layouts). */
static void put_signed(uint8_t *dst, const uint8_t *src, size_t n)
{
	for (size_t i = 0; i < n; i++)
		dst[i] = (uint8_t)(src[i] ^ 0x80);
}

int v4lc_chipenc_yuv(uint32_t fourcc, const uint8_t *yu12, int w, int h,
		     uint8_t *dst, size_t size)
{
	size_t W = (size_t)w, H = (size_t)h, C = W / 2;
	size_t need = W * H * 3 / 2;
	const uint8_t *py = yu12, *pu = py + W * H, *pv = pu + C * (H / 2);
	int l = layout_of(fourcc);

	if (!v4lc_chipenc_yuv_size_ok(fourcc, w, h))
		return -EINVAL;
	if (size < need)
		return -ENOSPC;
	switch (l) {
	case V4LC_S501:
	case V4LC_S505:
	case V4LC_S508:
		for (size_t g = 0; g < H / 2; g++) {
			/* The four runs of a group: Y0, Y1, U, V. */
			const uint8_t *run[4] = { py + 2 * g * W,
						  py + (2 * g + 1) * W,
						  pu + g * C, pv + g * C };
			size_t len[4] = { W, W, C, C };
			static const int order501[4] = { 0, 2, 1, 3 };
			static const int order505[4] = { 0, 1, 2, 3 };
			static const int order508[4] = { 0, 2, 3, 1 };
			const int *ord = l == V4LC_S501   ? order501
					 : l == V4LC_S505 ? order505
							  : order508;
			uint8_t *q = dst + g * 3 * W;

			for (int k = 0; k < 4; k++) {
				put_signed(q, run[ord[k]], len[ord[k]]);
				q += len[ord[k]];
			}
		}
		break;
	case V4LC_CITV:
		for (size_t g = 0; g < H / 2; g++) {
			const uint8_t *y1 = py + (2 * g + 1) * W;
			uint8_t *q = dst + g * 3 * W;

			memcpy(q, py + 2 * g * W, W);
			q += W;
			for (size_t x = 0; x < C; x++, q += 4) {
				q[0] = pv[g * C + x];
				q[1] = y1[2 * x];
				q[2] = pu[g * C + x];
				q[3] = y1[2 * x + 1];
			}
		}
		break;
	case V4LC_KONI: {
		size_t total = W * H, done = 0;
		uint8_t *q = dst;

		while (done < total) {
			size_t m = total - done < 256 ? total - done : 256;

			memcpy(q, py + done, m);
			memcpy(q + m, pu + done / 4, m / 4);
			memcpy(q + m + m / 4, pv + done / 4, m / 4);
			q += m + m / 2;
			done += m;
		}
		break;
	}
	case V4LC_S920: {
		uint8_t *q = dst;

		for (size_t by = 0; by < H / 8; by++) {
			for (size_t bx = 0; bx < W / 16; bx++) {
				for (size_t half = 0; half < 2; half++)
					for (size_t r = 0; r < 8; r++, q += 8)
						memcpy(q,
						       py + (8 * by + r) * W +
							       16 * bx +
							       8 * half,
						       8);
				for (size_t r = 0; r < 4; r++, q += 8)
					memcpy(q,
					       pu + (4 * by + r) * C + 8 * bx,
					       8);
				for (size_t r = 0; r < 4; r++, q += 8)
					memcpy(q,
					       pv + (4 * by + r) * C + 8 * bx,
					       8);
			}
		}
		break;
	}
	}
	return (int)need;
}
