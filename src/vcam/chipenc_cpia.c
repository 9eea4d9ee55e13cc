/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The CPiA1 (CPIA) frame encoder (chipenc.h): a 64-byte header, then per
 * row a little-endian length, the row's groups (YUYV pairs on even rows,
 * Y pairs on odd ones) or skips, and 0xfd; four 0xff end the frame.
 */
#include "vcam/chipenc.h"

#include <errno.h>

int v4lc_chipenc_cpia_size_ok(int w, int h)
{
	/* whole 8x4 blocks, at most CIF */
	return w >= 2 && h >= 2 && w % 8 == 0 && h % 4 == 0 && w <= 352 &&
	       h <= 288;
}

size_t v4lc_chipenc_cpia_bound(int w, int h)
{
	size_t W = (size_t)w, H = (size_t)h;

	/* header, even rows (2 + 2w + 1), odd rows (2 + w + 1), end mark */
	return 64 + (H + 1) / 2 * (2 * W + 3) + H / 2 * (W + 3) + 4;
}

struct out {
	uint8_t *p;
	size_t cap, n;
};

static void put(struct out *o, uint8_t b)
{
	if (o->n < o->cap)
		o->p[o->n] = b;
	o->n++;
}

long v4lc_chipenc_cpia_encode(const uint8_t *yu12, int w, int h,
			      const struct v4lc_chipenc_cpia *opt, uint8_t *dst,
			      size_t size)
{
	size_t W = (size_t)w, C = W / 2;
	const uint8_t *py = yu12, *pu = py + W * (size_t)h;
	const uint8_t *pv = pu + C * (size_t)(h / 2);
	struct out o = { dst, size, 0 };
	int comp = opt && opt->compressed;
	uint8_t ymask = comp ? 0xfe : 0xff;

	if (!v4lc_chipenc_cpia_size_ok(w, h))
		return -EINVAL;
	for (int i = 0; i < 64; i++) {
		uint8_t b = opt && opt->header ? opt->header[i] : 0;
		int c0 = opt ? opt->col0 : 0, r0 = opt ? opt->row0 : 0;

		switch (i) {
		case 0:
			b = 0x19;
			break;
		case 1:
			b = 0x68;
			break;
		case 17:
		case 18:
		case 29:
			b = 0;
			break;
		case 24:
			b = (uint8_t)c0;
			break;
		case 25:
			b = (uint8_t)(c0 + w / 8);
			break;
		case 26:
			b = (uint8_t)r0;
			break;
		case 27:
			b = (uint8_t)(r0 + h / 4);
			break;
		case 28:
			b = (uint8_t)comp;
			break;
		}
		put(&o, b);
	}
	for (int y = 0; y < h; y++) {
		const uint8_t *yr = py + (size_t)y * W;
		const uint8_t *ur = pu + (size_t)(y / 2) * C;
		const uint8_t *vr = pv + (size_t)(y / 2) * C;
		size_t start = o.n, len;

		put(&o, 0);
		put(&o, 0);
		for (int x = 0; x < w;) {
			if (comp && opt->skip) {
				int k = opt->skip(opt->opaque, x, y, w - x);

				if (k >= 0) {
					k &= ~1;
					if (k > w - x)
						k = w - x;
					if (k > 126)
						k = 126;
					put(&o, (uint8_t)(k << 1 | 1));
					x += k;
					continue;
				}
			}
			put(&o, yr[x] & ymask);
			if (!(y & 1)) {
				put(&o, ur[x / 2]);
				put(&o, yr[x + 1]);
				put(&o, vr[x / 2]);
			} else {
				put(&o, yr[x + 1]);
			}
			x += 2;
		}
		put(&o, 0xfd);
		len = o.n - start - 2;
		if (start + 1 < o.cap) {
			o.p[start] = (uint8_t)len;
			o.p[start + 1] = (uint8_t)(len >> 8);
		}
	}
	for (int i = 0; i < 4; i++)
		put(&o, 0xff);
	return (long)o.n;
}
