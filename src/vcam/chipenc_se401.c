/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The SE401 frame encoder (chipenc_jpeg.h): RGB values as differences to
 * the previous pixel of the row in steps of 8, each a unary JPEG magnitude
 * category and its bits, in packets with a 4-byte header.
 */
#include "vcam/chipenc_jpeg.h"

#include <stdlib.h>
#include <string.h>

#include "vcam/chipenc_jpeg_coder.h"

/* One value of the SE401 code: n ones and a zero (n = the JPEG magnitude
 * category of v), then n bits as in JPEG (v < 0 stored as v + 2^n - 1). */
static void put_value(struct v4lc_jenc_bits *b, int v)
{
	int n = v4lc_jenc_category(v);

	for (int i = 0; i < n; i++)
		v4lc_jenc_put(b, 1, 1);
	v4lc_jenc_put(b, 0, 1);
	v4lc_jenc_value(b, v, n);
}

/* The bits of one packet of cnt pixels (values vals[0 .. 3 cnt - 1]). */
static void packet_bits(struct v4lc_jenc_bits *b, const int *vals, int cnt)
{
	for (int i = 0; i < 3 * cnt; i++)
		put_value(b, vals[i]);
}

/* Make room for n more bytes in *out (capacity *cap, *used in use). */
static int reserve(uint8_t **out, size_t *cap, size_t used, size_t n)
{
	uint8_t *o;

	if (used + n <= *cap)
		return 0;
	o = realloc(*out, 2 * (used + n));
	if (!o)
		return -1;
	*out = o;
	*cap = 2 * (used + n);
	return 0;
}

uint8_t *v4lc_chipenc_se401_packets(const int *vals, int npix, int pp,
				    size_t *len)
{
	size_t cap = 0, n = 0;
	uint8_t *out = NULL;

	for (int p0 = 0; p0 < npix; p0 += pp) {
		int cnt = npix - p0 < pp ? npix - p0 : pp;
		struct v4lc_jenc_bits b = { 0 };
		size_t bits, plen;

		packet_bits(&b, vals + 3 * (size_t)p0, cnt);
		bits = b.n * 8 + (size_t)b.nacc;
		while (b.nacc)
			v4lc_jenc_put(&b, 0, 1);
		plen = ((bits + 47) >> 4) << 1;
		if (b.oom || reserve(&out, &cap, n, plen)) {
			free(b.buf);
			free(out);
			return NULL;
		}
		memset(out + n, 0, plen);
		out[n] = (uint8_t)((p0 == 0 ? 0x80 : 0) |
				   (p0 + cnt >= npix ? 0x40 : 0) |
				   ((cnt >> 8) & 0x3f));
		out[n + 1] = (uint8_t)cnt;
		out[n + 2] = (uint8_t)(bits >> 8);
		out[n + 3] = (uint8_t)bits;
		memcpy(out + n + 4, b.buf, b.n);
		n += plen;
		free(b.buf);
	}
	if (!out)
		out = malloc(1); /* an empty frame, still freeable */
	if (out)
		*len = n;
	return out;
}

uint8_t *v4lc_chipenc_se401_rgb(const uint8_t *rgb, int w, int h, size_t *len)
{
	int *vals = malloc(sizeof(int) * 3 * (size_t)w * (size_t)h);
	uint8_t *out;

	if (!vals)
		return NULL;
	for (int y = 0; y < h; y++) {
		int prev[3] = { 0, 0, 0 };

		for (int x = 0; x < w; x++)
			for (int c = 0; c < 3; c++) {
				size_t i = 3 * ((size_t)y * w + x) + (size_t)c;
				int d = rgb[i] - prev[c];
				/* nearest multiple of 8 (the step of a value) */
				int v = d >= 0 ? (d + 4) / 8 : -((-d + 3) / 8);

				/* no wrap modulo 256 */
				while (prev[c] + 8 * v > 255)
					v--;
				while (prev[c] + 8 * v < 0)
					v++;

				vals[i] = v;
				prev[c] = (prev[c] + 8 * v) & 255;
			}
	}
	out = v4lc_chipenc_se401_packets(vals, w * h, w, len);
	free(vals);
	return out;
}
