/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Encoders of six chip Bayer formats (chipenc_bayer.h): each compresses an
 * 8-bit Bayer image into a valid frame of its format, choosing at every
 * step the code closest to the image (lossy where the format is). Written
 * from the format descriptions in src/libv4lconvert/chipbayer_*.c.
 */
#include "vcam/chipenc_bayer.h"

#include <stdlib.h>
#include <string.h>

#include "vcam/chipenc_bits.h"

void v4lc_bitw_put(struct v4lc_bitw *w, uint32_t v, int len)
{
	for (int i = len - 1; i >= 0; i--) {
		w->acc = w->acc << 1 | ((v >> i) & 1);
		if (++w->n == 8) {
			if (w->pos < w->cap)
				w->out[w->pos] = (uint8_t)w->acc;
			w->pos++;
			w->acc = 0;
			w->n = 0;
		}
	}
}

size_t v4lc_bitw_flush(struct v4lc_bitw *w)
{
	if (w->n)
		v4lc_bitw_put(w, 0, 8 - w->n);
	return w->pos;
}

void v4lc_chipenc_keep(uint8_t *recon, const uint8_t *rec, int w, int h)
{
	if (recon)
		memcpy(recon, rec, (size_t)w * h);
}

/* SN9C10X */
size_t v4lc_chipenc_s910(const uint8_t *img, int w, int h, uint8_t *out,
			 size_t cap, uint32_t seed, uint8_t *recon)
{
	static const struct {
		int val, len;
		uint32_t code;
	} codes[] = { { 0, 1, 0x0 },   { 4, 3, 0x4 },   { -4, 3, 0x5 },
		      { 11, 4, 0xd },  { -11, 4, 0xf }, { 20, 5, 0x19 },
		      { -20, 6, 0x30 } };
	uint8_t *rec = malloc((size_t)w * h);
	struct v4lc_bitw bw = { out, cap, 0, 0, 0 };

	if (!rec)
		return 0; /* no frame is empty: out of memory */
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			uint8_t *r = rec + (size_t)y * w;
			int t = img[(size_t)y * w + x], pred, best = -1,
			    bd = 1 << 30;
			uint32_t rnd = v4lc_chipenc_rng(&seed);

			if (x < 2 && y < 2) {
				v4lc_bitw_put(&bw, (uint32_t)t, 8);
				r[x] = (uint8_t)t;
				continue;
			}
			if (x < 2)
				pred = r[x - 2 * w];
			else if (y < 2)
				pred = r[x - 2];
			else
				pred = (r[x - 2] + r[x - 2 * w]) >> 1;
			for (int i = 0; i < 7; i++) {
				int d = abs(v4lc_chipenc_clamp(pred +
							       codes[i].val) -
					    t);

				if (d < bd || (d == bd && (rnd & 1)))
					bd = d, best = i;
			}
			if ((rnd >> 8) % 61 == 0) /* a code that is skipped */
				v4lc_bitw_put(&bw, 0xc4 | (rnd >> 16 & 3), 8);
			if (bd > 8 || (rnd >> 8) % 53 == 0) {
				int v = t >> 4;

				if (v < 15 && (t & 15) > 8)
					v++;
				v4lc_bitw_put(&bw, 0xe0 | (uint32_t)v, 8);
				r[x] = (uint8_t)(v << 4);
			} else {
				v4lc_bitw_put(&bw, codes[best].code,
					      codes[best].len);
				r[x] = (uint8_t)v4lc_chipenc_clamp(
					pred + codes[best].val);
			}
		}
	v4lc_chipenc_keep(recon, rec, w, h);
	free(rec);
	return v4lc_bitw_flush(&bw);
}

/* STV0680: even columns, then odd columns, per row (lossless). */
size_t v4lc_chipenc_s680(const uint8_t *img, int w, int h, uint8_t *out,
			 size_t cap, uint32_t seed, uint8_t *recon)
{
	size_t n = 0, ne = (size_t)(w + 1) / 2;

	(void)seed;
	v4lc_chipenc_keep(recon, img, w, h);
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			size_t at = (size_t)y * w + (x & 1 ? ne : 0) +
				    (size_t)(x / 2);

			if (at < cap)
				out[at] = img[(size_t)y * w + x];
			n++;
		}
	return n;
}

/*
 * MR97310A and SN9C2028 code a pixel alike: one of seven differences from
 * the decoder's prediction, or a 5-bit absolute value behind an escape
 * (also now and then at random, so the decoders' escape path is exercised).
 */
static const struct {
	int val, len;
	uint32_t code;
} diff_codes[] = { { 0, 1, 0x0 },  { 3, 3, 0x5 },  { -3, 3, 0x6 },
		   { 8, 4, 0x8 },  { -8, 4, 0x9 }, { 20, 5, 0x1c },
		   { -20, 4, 0xf } };

/* The code of pixel t predicted as p; its value as the decoder sees it. */
static uint8_t code_pixel(struct v4lc_bitw *bw, int p, int t, uint32_t rnd)
{
	int best = 0, bd = 1 << 30;

	for (int i = 0; i < (int)(sizeof(diff_codes) / sizeof(diff_codes[0]));
	     i++) {
		int d = abs(v4lc_chipenc_clamp(p + diff_codes[i].val) - t);

		if (d < bd || (d == bd && (rnd & 1)))
			bd = d, best = i;
	}
	if (bd > 4 || rnd % 47 == 0) {
		int a = (t + 4) >> 3;

		if (a > 31)
			a = 31;
		v4lc_bitw_put(bw, 0x3a0 | (uint32_t)a, 10);
		return (uint8_t)(a << 3);
	}
	v4lc_bitw_put(bw, diff_codes[best].code, diff_codes[best].len);
	return (uint8_t)v4lc_chipenc_clamp(p + diff_codes[best].val);
}

/* The decoder's prediction of pixel x of row r (row y), or -1 for a pixel
 * sent as a plain byte. */
typedef int (*predict_fn)(const uint8_t *r, int x, int y, int w);

/* 12 header bytes, then every pixel against the prediction. */
static size_t code_frame(const uint8_t *img, int w, int h, uint8_t *out,
			 size_t cap, uint32_t seed, uint8_t *recon,
			 predict_fn predict)
{
	struct v4lc_bitw bw = { out, cap, 0, 0, 0 };
	uint8_t *rec = malloc((size_t)w * h);

	if (!rec)
		return 0; /* no frame is empty: out of memory */
	for (int i = 0; i < 12; i++)
		v4lc_bitw_put(&bw, v4lc_chipenc_rng(&seed) & 0xff, 8);
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			uint8_t *r = rec + (size_t)y * w;
			int t = img[(size_t)y * w + x];
			uint32_t rnd = v4lc_chipenc_rng(&seed);
			int p = predict(r, x, y, w);

			if (p < 0) {
				v4lc_bitw_put(&bw, (uint32_t)t, 8);
				r[x] = (uint8_t)t;
			} else {
				r[x] = code_pixel(&bw, p, t, rnd);
			}
		}
	v4lc_chipenc_keep(recon, rec, w, h);
	free(rec);
	return v4lc_bitw_flush(&bw);
}

/* MR97310A: the first two pixels plain, then the decoder's prediction. */
static int m310_pred(const uint8_t *r, int x, int y, int w)
{
	const uint8_t *up = r - 2 * w;

	if (y < 2 && x < 2)
		return -1;
	if (y < 2)
		return r[x - 2];
	if (x < 2)
		return x + 2 < w ? (up[x] + up[x + 2]) / 2 : up[x];
	if (x >= w - 2)
		return (r[x - 2] + up[x - 2] + up[x] + 1) / 3;
	return (r[x - 2] + up[x] + up[x - 2] / 2 + up[x + 2] / 2 + 1) / 3;
}

size_t v4lc_chipenc_m310(const uint8_t *img, int w, int h, uint8_t *out,
			 size_t cap, uint32_t seed, uint8_t *recon)
{
	return code_frame(img, w, h, out, cap, seed, recon, m310_pred);
}

/* SN9C2028: rows of two plain bytes, then the pixel two to the left. */
static int sonx_pred(const uint8_t *r, int x, int y, int w)
{
	(void)y;
	(void)w;
	return x < 2 ? -1 : r[x - 2];
}

size_t v4lc_chipenc_sonx(const uint8_t *img, int w, int h, uint8_t *out,
			 size_t cap, uint32_t seed, uint8_t *recon)
{
	return code_frame(img, w, h, out, cap, seed, recon, sonx_pred);
}

/* SQ905C: 80 header bytes, then codes against the decoder's prediction. */
size_t v4lc_chipenc_905c(const uint8_t *img, int w, int h, uint8_t *out,
			 size_t cap, uint32_t seed, uint8_t *recon)
{
	static const struct {
		int val, len;
		uint32_t code;
	} codes[] = { { 2, 1, 0x0 },    { -3, 2, 0x2 },   { 10, 3, 0x6 },
		      { -11, 4, 0xe },  { 20, 8, 0xf0 },  { 34, 8, 0xf1 },
		      { 52, 8, 0xf2 },  { 76, 8, 0xf3 },  { 110, 8, 0xf4 },
		      { 144, 8, 0xf5 }, { -21, 8, 0xf6 }, { -35, 8, 0xf7 },
		      { -53, 8, 0xf8 }, { -77, 8, 0xf9 }, { -110, 8, 0xfa },
		      { -144, 8, 0xfb } };
	struct v4lc_bitw bw = { out, cap, 0, 0, 0 };
	uint8_t *rec = malloc((size_t)w * h);

	if (!rec)
		return 0; /* no frame is empty: out of memory */
	for (int i = 0; i < 80; i++)
		v4lc_bitw_put(&bw, v4lc_chipenc_rng(&seed) & 0xff, 8);
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			uint8_t *r = rec + (size_t)y * w;
			int t = img[(size_t)y * w + x], p, best = 0,
			    bd = 1 << 30;
			int green = (x ^ y) & 1;
			const uint8_t *u = NULL;
			uint32_t rnd = v4lc_chipenc_rng(&seed);

			if (!green && y >= 2)
				u = r + x - 2 * w;
			else if (green && y >= 1)
				u = r + x + (x + 1 < w ? 1 : -1) - w;
			if (!u)
				p = ((x >= 2 ? r[x - 2] : 128) + 128) >> 1;
			else if (x < 2)
				p = *u;
			else
				p = (r[x - 2] + *u) >> 1;
			for (int i = 0; i < 16; i++) {
				int d = abs(
					v4lc_chipenc_clamp(p + codes[i].val) -
					t);

				if (d < bd || (d == bd && (rnd & 1)))
					bd = d, best = i;
			}
			v4lc_bitw_put(&bw, codes[best].code, codes[best].len);
			r[x] = (uint8_t)v4lc_chipenc_clamp(p + codes[best].val);
		}
	v4lc_chipenc_keep(recon, rec, w, h);
	free(rec);
	return v4lc_bitw_flush(&bw);
}

/* PAC207: a random mix of row kinds (no repeat in rows 0 and 1). */
size_t v4lc_chipenc_p207(const uint8_t *img, int w, int h, uint8_t *out,
			 size_t cap, uint32_t seed, uint8_t *recon)
{
	static const struct {
		int val, len;
		uint32_t code;
	} codes[] = { { 0, 2, 0x0 },  { -1, 2, 0x1 },  { 1, 2, 0x2 },
		      { -2, 4, 0xc }, { 2, 4, 0xd },   { -3, 5, 0x1c },
		      { 3, 5, 0x1d }, { -4, 6, 0x3c }, { 4, 6, 0x3d } };
	static const uint16_t hdrs[5] = { 0x0ff0, 0x1ee1, 0x2dd2, 0x3cc3,
					  0x4bb4 };
	struct v4lc_bitw bw = { out, cap, 0, 0, 0 };
	uint8_t *rec = malloc((size_t)w * h);

	if (!rec)
		return 0; /* no frame is empty: out of memory */
	for (int y = 0; y < h; y++) {
		const uint8_t *t = img + (size_t)y * w;
		uint8_t *r = rec + (size_t)y * w;
		uint32_t rr = v4lc_chipenc_rng(&seed);
		int kind = rr % 16 < 2             ? 0
			   : rr % 16 < 3 && y >= 2 ? 4
						   : 1 + (int)(rr >> 8) % 3;
		int step = kind >= 1 && kind <= 3 ? (1 << kind) * 2 + 1 : 0;

		v4lc_bitw_put(&bw, hdrs[kind], 16);
		if (kind == 0) {
			for (int x = 0; x < w; x++) {
				v4lc_bitw_put(&bw, t[x], 8);
				r[x] = t[x];
			}
			continue;
		}
		if (kind == 4) {
			memcpy(r, r - 2 * w, (size_t)w);
			continue;
		}
		for (int x = 0; x < w; x++) {
			int best = -1, bd = 1 << 30, bv = 0;
			uint32_t rnd = v4lc_chipenc_rng(&seed);

			if (x < 2) {
				v4lc_bitw_put(&bw, t[x], 8);
				r[x] = t[x];
				continue;
			}
			for (int i = 0; i < 9; i++) {
				int v = v4lc_chipenc_clamp(r[x - 2] +
							   codes[i].val * step);
				int d = abs(v - t[x]);

				if (d < bd || (d == bd && (rnd & 1)))
					bd = d, best = i, bv = v;
			}
			if (bd > 16 || rnd % 41 == 0) {
				int nb = 7 - kind, sh = kind + 1;
				int a = (t[x] + (1 << sh >> 1)) >> sh;

				if (a > (1 << nb) - 1)
					a = (1 << nb) - 1;
				v4lc_bitw_put(&bw, 0x1fu << nb | (uint32_t)a,
					      5 + nb);
				r[x] = (uint8_t)(a << sh);
			} else {
				v4lc_bitw_put(&bw, codes[best].code,
					      codes[best].len);
				r[x] = (uint8_t)bv;
			}
		}
		while (bw.n || (bw.pos & 1))
			v4lc_bitw_put(&bw, 0, 1);
	}
	v4lc_chipenc_keep(recon, rec, w, h);
	free(rec);
	return v4lc_bitw_flush(&bw);
}
