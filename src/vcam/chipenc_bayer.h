/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Test encoders of the chip Bayer formats: each compresses an 8-bit Bayer
 * image (width x height, stride width) into a valid frame of its format
 * (lossy where the format is: the closest code at every step), and returns
 * the frame's size. `seed` varies the choices between codes of equal merit
 * (and the rarely used codes) so that every code shows up. Written from the
 * format descriptions in src/libv4lconvert/chipbayer_*.c. (Moved here from
 * tests/chip/bayer/encoders.h: the tests of tests/chip/bayer include it,
 * and the virtual camera compiles it into src/vcam/chipenc_bayer.c.)
 */
#ifndef V4LC_TEST_CHIPBAYER_ENCODERS_H
#define V4LC_TEST_CHIPBAYER_ENCODERS_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/*
 * When set, each encoder also stores here the image a correct decoder
 * gives for its frame (width * height bytes).
 */
static uint8_t *enc_recon;

static inline void enc_keep(const uint8_t *rec, int w, int h)
{
	if (enc_recon)
		memcpy(enc_recon, rec, (size_t)w * h);
}

/* MSB-first bit writer into out[0 .. cap - 1]. */
struct bitw {
	uint8_t *out;
	size_t cap, pos;
	uint32_t acc;
	int n;
};

static inline void bitw_put(struct bitw *w, uint32_t v, int len)
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

static inline size_t bitw_flush(struct bitw *w)
{
	if (w->n)
		bitw_put(w, 0, 8 - w->n);
	return w->pos;
}

static inline uint32_t enc_rng(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static inline int enc_clamp(int v)
{
	return v < 0 ? 0 : v > 255 ? 255 : v;
}

/* SN9C10X */
static inline size_t encode_s910(const uint8_t *img, int w, int h,
				 uint8_t *out, size_t cap, uint32_t seed)
{
	static const struct {
		int val, len;
		uint32_t code;
	} codes[] = { { 0, 1, 0x0 },   { 4, 3, 0x4 },    { -4, 3, 0x5 },
		      { 11, 4, 0xd },  { -11, 4, 0xf },  { 20, 5, 0x19 },
		      { -20, 6, 0x30 } };
	uint8_t *rec = malloc((size_t)w * h);
	struct bitw bw = { out, cap, 0, 0, 0 };

	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			uint8_t *r = rec + (size_t)y * w;
			int t = img[(size_t)y * w + x], pred, best = -1, bd = 1 << 30;
			uint32_t rnd = enc_rng(&seed);

			if (x < 2 && y < 2) {
				bitw_put(&bw, (uint32_t)t, 8);
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
				int d = abs(enc_clamp(pred + codes[i].val) - t);

				if (d < bd || (d == bd && (rnd & 1)))
					bd = d, best = i;
			}
			if ((rnd >> 8) % 61 == 0) /* a code that is skipped */
				bitw_put(&bw, 0xc4 | (rnd >> 16 & 3), 8);
			if (bd > 8 || (rnd >> 8) % 53 == 0) {
				int v = t >> 4;

				if (v < 15 && (t & 15) > 8)
					v++;
				bitw_put(&bw, 0xe0 | (uint32_t)v, 8);
				r[x] = (uint8_t)(v << 4);
			} else {
				bitw_put(&bw, codes[best].code, codes[best].len);
				r[x] = (uint8_t)enc_clamp(pred + codes[best].val);
			}
		}
	enc_keep(rec, w, h);
	free(rec);
	return bitw_flush(&bw);
}

/* STV0680: even columns, then odd columns, per row (lossless). */
static inline size_t encode_s680(const uint8_t *img, int w, int h,
				 uint8_t *out, size_t cap, uint32_t seed)
{
	size_t n = 0, ne = (size_t)(w + 1) / 2;

	(void)seed;
	enc_keep(img, w, h);
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			size_t at = (size_t)y * w + (x & 1 ? ne : 0) + (size_t)(x / 2);

			if (at < cap)
				out[at] = img[(size_t)y * w + x];
			n++;
		}
	return n;
}

/* MR97310A: 12 header bytes, then the prediction of the decoder. */
static inline int m310_pred(const uint8_t *r, int x, int y, int w)
{
	const uint8_t *up = r - 2 * w;

	if (y < 2)
		return r[x - 2];
	if (x < 2)
		return x + 2 < w ? (up[x] + up[x + 2]) / 2 : up[x];
	if (x >= w - 2)
		return (r[x - 2] + up[x - 2] + up[x] + 1) / 3;
	return (r[x - 2] + up[x] + up[x - 2] / 2 + up[x + 2] / 2 + 1) / 3;
}

static inline size_t encode_m310(const uint8_t *img, int w, int h,
				 uint8_t *out, size_t cap, uint32_t seed)
{
	static const struct {
		int val, len;
		uint32_t code;
	} codes[] = { { 0, 1, 0x0 },  { 3, 3, 0x5 },   { -3, 3, 0x6 },
		      { 8, 4, 0x8 },  { -8, 4, 0x9 },  { 20, 5, 0x1c },
		      { -20, 4, 0xf } };
	struct bitw bw = { out, cap, 0, 0, 0 };
	uint8_t *rec = malloc((size_t)w * h);

	for (int i = 0; i < 12; i++)
		bitw_put(&bw, enc_rng(&seed) & 0xff, 8);
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			uint8_t *r = rec + (size_t)y * w;
			int t = img[(size_t)y * w + x], p, best = 0, bd = 1 << 30;
			uint32_t rnd = enc_rng(&seed);

			if (y < 2 && x < 2) {
				bitw_put(&bw, (uint32_t)t, 8);
				r[x] = (uint8_t)t;
				continue;
			}
			p = m310_pred(r, x, y, w);
			for (int i = 0; i < 7; i++) {
				int d = abs(enc_clamp(p + codes[i].val) - t);

				if (d < bd || (d == bd && (rnd & 1)))
					bd = d, best = i;
			}
			if (bd > 4 || rnd % 47 == 0) {
				int a = (t + 4) >> 3;

				if (a > 31)
					a = 31;
				bitw_put(&bw, 0x3a0 | (uint32_t)a, 10);
				r[x] = (uint8_t)(a << 3);
			} else {
				bitw_put(&bw, codes[best].code, codes[best].len);
				r[x] = (uint8_t)enc_clamp(p + codes[best].val);
			}
		}
	enc_keep(rec, w, h);
	free(rec);
	return bitw_flush(&bw);
}

/* SN9C2028: 12 header bytes, rows of two plain bytes and codes. */
static inline size_t encode_sonx(const uint8_t *img, int w, int h,
				 uint8_t *out, size_t cap, uint32_t seed)
{
	static const struct {
		int val, len;
		uint32_t code;
	} codes[] = { { 0, 1, 0x0 },  { 3, 3, 0x5 },   { -3, 3, 0x6 },
		      { 8, 4, 0x8 },  { -8, 4, 0x9 },  { 20, 5, 0x1c },
		      { -20, 4, 0xf } };
	struct bitw bw = { out, cap, 0, 0, 0 };
	uint8_t *rec = malloc((size_t)w * h);

	for (int i = 0; i < 12; i++)
		bitw_put(&bw, enc_rng(&seed) & 0xff, 8);
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			uint8_t *r = rec + (size_t)y * w;
			int t = img[(size_t)y * w + x], p, best = 0, bd = 1 << 30;
			uint32_t rnd = enc_rng(&seed);

			if (x < 2) {
				bitw_put(&bw, (uint32_t)t, 8);
				r[x] = (uint8_t)t;
				continue;
			}
			p = r[x - 2];
			for (int i = 0; i < 7; i++) {
				int d = abs(enc_clamp(p + codes[i].val) - t);

				if (d < bd || (d == bd && (rnd & 1)))
					bd = d, best = i;
			}
			if (bd > 4 || rnd % 47 == 0) {
				int a = (t + 4) >> 3;

				if (a > 31)
					a = 31;
				bitw_put(&bw, 0x3a0 | (uint32_t)a, 10);
				r[x] = (uint8_t)(a << 3);
			} else {
				bitw_put(&bw, codes[best].code, codes[best].len);
				r[x] = (uint8_t)enc_clamp(p + codes[best].val);
			}
		}
	enc_keep(rec, w, h);
	free(rec);
	return bitw_flush(&bw);
}

/* SQ905C: 80 header bytes, then codes against the decoder's prediction. */
static inline size_t encode_905c(const uint8_t *img, int w, int h,
				 uint8_t *out, size_t cap, uint32_t seed)
{
	static const struct {
		int val, len;
		uint32_t code;
	} codes[] = { { 2, 1, 0x0 },     { -3, 2, 0x2 },    { 10, 3, 0x6 },
		      { -11, 4, 0xe },   { 20, 8, 0xf0 },   { 34, 8, 0xf1 },
		      { 52, 8, 0xf2 },   { 76, 8, 0xf3 },   { 110, 8, 0xf4 },
		      { 144, 8, 0xf5 },  { -21, 8, 0xf6 },  { -35, 8, 0xf7 },
		      { -53, 8, 0xf8 },  { -77, 8, 0xf9 },  { -110, 8, 0xfa },
		      { -144, 8, 0xfb } };
	struct bitw bw = { out, cap, 0, 0, 0 };
	uint8_t *rec = malloc((size_t)w * h);

	for (int i = 0; i < 80; i++)
		bitw_put(&bw, enc_rng(&seed) & 0xff, 8);
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			uint8_t *r = rec + (size_t)y * w;
			int t = img[(size_t)y * w + x], p, best = 0, bd = 1 << 30;
			int green = (x ^ y) & 1;
			const uint8_t *u = NULL;
			uint32_t rnd = enc_rng(&seed);

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
				int d = abs(enc_clamp(p + codes[i].val) - t);

				if (d < bd || (d == bd && (rnd & 1)))
					bd = d, best = i;
			}
			bitw_put(&bw, codes[best].code, codes[best].len);
			r[x] = (uint8_t)enc_clamp(p + codes[best].val);
		}
	enc_keep(rec, w, h);
	free(rec);
	return bitw_flush(&bw);
}

/* PAC207: a random mix of row kinds (no repeat in rows 0 and 1). */
static inline size_t encode_p207(const uint8_t *img, int w, int h,
				 uint8_t *out, size_t cap, uint32_t seed)
{
	static const struct {
		int val, len;
		uint32_t code;
	} codes[] = { { 0, 2, 0x0 },   { -1, 2, 0x1 },  { 1, 2, 0x2 },
		      { -2, 4, 0xc },  { 2, 4, 0xd },   { -3, 5, 0x1c },
		      { 3, 5, 0x1d },  { -4, 6, 0x3c }, { 4, 6, 0x3d } };
	static const uint16_t hdrs[5] = { 0x0ff0, 0x1ee1, 0x2dd2, 0x3cc3, 0x4bb4 };
	struct bitw bw = { out, cap, 0, 0, 0 };
	uint8_t *rec = malloc((size_t)w * h);

	for (int y = 0; y < h; y++) {
		const uint8_t *t = img + (size_t)y * w;
		uint8_t *r = rec + (size_t)y * w;
		uint32_t rr = enc_rng(&seed);
		int kind = rr % 16 < 2 ? 0 : rr % 16 < 3 && y >= 2 ? 4 :
			   1 + (int)(rr >> 8) % 3;
		int step = kind >= 1 && kind <= 3 ? (1 << kind) * 2 + 1 : 0;

		bitw_put(&bw, hdrs[kind], 16);
		if (kind == 0) {
			for (int x = 0; x < w; x++) {
				bitw_put(&bw, t[x], 8);
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
			uint32_t rnd = enc_rng(&seed);

			if (x < 2) {
				bitw_put(&bw, t[x], 8);
				r[x] = t[x];
				continue;
			}
			for (int i = 0; i < 9; i++) {
				int v = enc_clamp(r[x - 2] + codes[i].val * step);
				int d = abs(v - t[x]);

				if (d < bd || (d == bd && (rnd & 1)))
					bd = d, best = i, bv = v;
			}
			if (bd > 16 || rnd % 41 == 0) {
				int nb = 7 - kind, sh = kind + 1;
				int a = (t[x] + (1 << sh >> 1)) >> sh;

				if (a > (1 << nb) - 1)
					a = (1 << nb) - 1;
				bitw_put(&bw, 0x1fu << nb | (uint32_t)a, 5 + nb);
				r[x] = (uint8_t)(a << sh);
			} else {
				bitw_put(&bw, codes[best].code, codes[best].len);
				r[x] = (uint8_t)bv;
			}
		}
		while (bw.n || (bw.pos & 1))
			bitw_put(&bw, 0, 1);
	}
	enc_keep(rec, w, h);
	free(rec);
	return bitw_flush(&bw);
}

#endif
