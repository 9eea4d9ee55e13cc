/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Chip YUV 4:2:0 encoders (see chipenc.h).
 */
#include "vcam/chipenc.h"

#include <errno.h>
#include <linux/videodev2.h>
#include <string.h>

int v4lc_chipenc_yuv_size_ok(uint32_t fourcc, int w, int h)
{
	if (w < 2 || h < 2 || ((w | h) & 1))
		return 0;
	switch (fourcc) {
	case V4L2_PIX_FMT_SPCA501:
	case V4L2_PIX_FMT_SPCA505:
	case V4L2_PIX_FMT_SPCA508:
	case V4L2_PIX_FMT_CIT_YYVYUY:
	case V4L2_PIX_FMT_KONICA420:
		return 1;
	case V4L2_PIX_FMT_SN9C20X_I420:
		return w % 16 == 0 && h % 8 == 0;
	case V4L2_PIX_FMT_CPIA1:
		return w % 8 == 0 && h % 4 == 0 && w <= 352 && h <= 288;
	}
	return 0;
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

	if (fourcc == V4L2_PIX_FMT_CPIA1 || !v4lc_chipenc_yuv_size_ok(fourcc, w, h))
		return -EINVAL;
	if (size < need)
		return -ENOSPC;
	switch (fourcc) {
	case V4L2_PIX_FMT_SPCA501:
	case V4L2_PIX_FMT_SPCA505:
	case V4L2_PIX_FMT_SPCA508:
		for (size_t g = 0; g < H / 2; g++) {
			/* The four runs of a group: Y0, Y1, U, V. */
			const uint8_t *run[4] = { py + 2 * g * W, py + (2 * g + 1) * W,
						  pu + g * C, pv + g * C };
			size_t len[4] = { W, W, C, C };
			static const int order501[4] = { 0, 2, 1, 3 };
			static const int order505[4] = { 0, 1, 2, 3 };
			static const int order508[4] = { 0, 2, 3, 1 };
			const int *ord = fourcc == V4L2_PIX_FMT_SPCA501 ? order501 :
					 fourcc == V4L2_PIX_FMT_SPCA505 ? order505 :
									  order508;
			uint8_t *q = dst + g * 3 * W;

			for (int k = 0; k < 4; k++) {
				put_signed(q, run[ord[k]], len[ord[k]]);
				q += len[ord[k]];
			}
		}
		break;
	case V4L2_PIX_FMT_CIT_YYVYUY:
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
	case V4L2_PIX_FMT_KONICA420: {
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
	case V4L2_PIX_FMT_SN9C20X_I420: {
		uint8_t *q = dst;

		for (size_t by = 0; by < H / 8; by++) {
			for (size_t bx = 0; bx < W / 16; bx++) {
				for (size_t half = 0; half < 2; half++)
					for (size_t r = 0; r < 8; r++, q += 8)
						memcpy(q, py + (8 * by + r) * W +
								  16 * bx + 8 * half, 8);
				for (size_t r = 0; r < 4; r++, q += 8)
					memcpy(q, pu + (4 * by + r) * C + 8 * bx, 8);
				for (size_t r = 0; r < 4; r++, q += 8)
					memcpy(q, pv + (4 * by + r) * C + 8 * bx, 8);
			}
		}
		break;
	}
	}
	return (int)need;
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

	if (!v4lc_chipenc_yuv_size_ok(V4L2_PIX_FMT_CPIA1, w, h))
		return -EINVAL;
	for (int i = 0; i < 64; i++) {
		uint8_t b = opt && opt->header ? opt->header[i] : 0;
		int c0 = opt ? opt->col0 : 0, r0 = opt ? opt->row0 : 0;

		switch (i) {
		case 0: b = 0x19; break;
		case 1: b = 0x68; break;
		case 17: case 18: case 29: b = 0; break;
		case 24: b = (uint8_t)c0; break;
		case 25: b = (uint8_t)(c0 + w / 8); break;
		case 26: b = (uint8_t)r0; break;
		case 27: b = (uint8_t)(r0 + h / 4); break;
		case 28: b = (uint8_t)comp; break;
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
