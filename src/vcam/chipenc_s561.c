/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Encoder of SPCA561 (S561) frames (chipenc_bayer.h), written from the
 * clean-room description of the format (src/libv4lconvert/chipbayer_s561.c): it
 * runs the decoder's model (prediction, gradient classes, context
 * statistics, table choice, multiplier) step by step and, at each pixel,
 * writes a code word of the table the decoder will use. The code words are
 * enumerated here from the description on their own (every escape form
 * included), not taken from the decoder's tables.
 *
 * v4lc_chipenc_s561_ex:
 *   random_symbols 0: the symbol whose result is closest to the image
 *     (shortest code among equal ones; now and then another code word of
 *     the same symbol, e.g. an escape, so that every form shows up);
 *     1: a random code word of the table (drives contexts into the
 *     tables for large magnitudes, E and F).
 *   allow_clamp 0: never a symbol whose P - Q falls outside -256 .. 511
 *     (where the original library reads outside its clamp table); 1: such
 *     symbols allowed. *clamped (may be NULL) says whether one was written.
 * Block modes are random. recon receives the image a decoder following
 * the library's documented rules gives (uncoded last pixels: copies of the
 * pixel two rows above).
 */
#include "vcam/chipenc_bayer.h"

#include <stdlib.h>
#include <string.h>

#include "vcam/chipenc_bits.h"

struct s561e_cw {
	uint16_t code;
	uint8_t len;
	int16_t v; /* 237: the special symbol of table D (no change) */
};

struct s561e_tabs {
	struct s561e_cw cw[6][64];
	int n[6];
};

static void s561e_add(struct s561e_tabs *T, int t, unsigned code, int len,
		      int v)
{
	struct s561e_cw *c = &T->cw[t][T->n[t]++];

	c->code = (uint16_t)code;
	c->len = (uint8_t)len;
	c->v = (int16_t)v;
}

static void s561e_build(struct s561e_tabs *T)
{
	/* 8-bit windows: value, code, length */
	static const int a_codes[][3] = {
		{ 0, 0x0, 1 },   { 1, 0x7, 3 },    { -1, 0x5, 3 },
		{ 2, 0x18, 5 },  { 3, 0x19, 5 },   { -2, 0x1a, 5 },
		{ -3, 0x1b, 5 }, { 4, 0x41, 7 },   { 5, 0x42, 7 },
		{ 6, 0x43, 7 },  { 7, 0x44, 7 },   { 8, 0x45, 7 },
		{ 9, 0x46, 7 },  { 10, 0x47, 7 },  { -4, 0x49, 7 },
		{ -5, 0x4a, 7 }, { -6, 0x4b, 7 },  { -7, 0x4c, 7 },
		{ -8, 0x4d, 7 }, { -9, 0x4e, 7 },  { -10, 0x4f, 7 },
		{ 11, 0x80, 8 }, { -11, 0x81, 8 },
	};
	static const int b_vals[8] = { 0, -1, 1, -2, 2, -3, 3, -4 };
	static const int c_vals[14] = { 0,  -1, 1,  -2, 2,  -3, 3,
					-4, 4,  -5, 5,  -6, 6,  -7 };
	int i;

	memset(T, 0, sizeof(*T));
	for (i = 0; i < (int)(sizeof(a_codes) / sizeof(a_codes[0])); i++)
		s561e_add(T, 0, (unsigned)a_codes[i][1], a_codes[i][2],
			  a_codes[i][0]);
	for (i = 0; i < 16; i++) /* 10010001 tttt */
		s561e_add(T, 0, 0x910u | (unsigned)i, 12,
			  i < 8 ? 12 + i : -(4 + i));
	/* B: 1, 01, 001, ... 00000001 */
	for (i = 0; i < 8; i++)
		s561e_add(T, 1, 1, i + 1, b_vals[i]);
	/* B escape: only a few of the zero forms (t = 84 .. 100) */
	for (i = 68; i <= 115; i++)
		if (i <= 83 || i >= 101 || i == 84 || i == 92 || i == 100)
			s561e_add(T, 1, (unsigned)i, 15,
				  i <= 83    ? 4 + (i - 68)
				  : i <= 100 ? 0
					     : -(i - 68 - 28));
	/* C: 10, 11, 010, 011, ... 00000011 */
	for (i = 0; i < 14; i++)
		s561e_add(T, 2, 2u | (i & 1), 2 + i / 2, c_vals[i]);
	s561e_add(T, 2, 2, 9, 7);  /* 00000001 0 */
	s561e_add(T, 2, 3, 9, -8); /* 00000001 1 */
	for (i = 72; i <= 115; i++)
		if (i <= 83 || i >= 105 || i == 84 || i == 95 || i == 104)
			s561e_add(T, 2, (unsigned)i, 15,
				  i <= 83    ? 8 + (i - 72)
				  : i <= 104 ? 0
					     : -(i - 72 - 24));
	/* D: 100 0, 101 -1, 110 +1, 111 -2, 0100 +2, ... 00000111 -12 */
	for (i = 0; i < 24; i++) {
		int n = i / 4, s = i % 4, mag = 2 * n + (s >> 1);
		int v = (s & 1) ? -(mag + 1) : mag;

		s561e_add(T, 3, 4u | (unsigned)s, n + 3, v);
	}
	s561e_add(T, 3, 0x04, 9, 12);  /* 00000010 0 */
	s561e_add(T, 3, 0x05, 9, -13); /* 00000010 1 */
	s561e_add(T, 3, 0x06, 9, 13);  /* 00000011 0 */
	s561e_add(T, 3, 0x07, 9, -14); /* 00000011 1 */
	s561e_add(T, 3, 0x04, 10, 14); /* 00000001 00 */
	s561e_add(T, 3, 0x05, 10, -15);
	s561e_add(T, 3, 0x06, 10, 15);
	s561e_add(T, 3, 0x07, 10, -16);
	s561e_add(T, 3, 0x04, 11, 16); /* 00000000 100 */
	s561e_add(T, 3, 0x05, 11, -17);
	s561e_add(T, 3, 0x06, 11, 17);
	s561e_add(T, 3, 0x07, 11, -18);
	s561e_add(T, 3, 0x04, 12, 18);  /* 00000000 0100 */
	s561e_add(T, 3, 0x05, 12, 237); /* 00000000 0101 */
	s561e_add(T, 3, 0x06, 12, 18);  /* 00000000 0110 */
	s561e_add(T, 3, 0x07, 12, 18);  /* 00000000 0111 */
	/* E: n zeros, 1, jjj */
	for (i = 0; i < 40; i++) {
		int n = i / 8, j = i % 8, v;

		v = (j & 1) ? -(4 * n + (j + 1) / 2) : 4 * n + j / 2;
		if (i == 39)
			v = -19;
		s561e_add(T, 4, 8u | (unsigned)j, n + 4, v);
	}
	/* F: 1jjjj, 01jjjj, 0010jjj (j <= 6) */
	for (i = 0; i < 39; i++) {
		int g = i < 16   ? 0
			: i < 32 ? 1
				 : 2,
		    j = i < 32 ? i % 16 : i - 32;
		int v = (j & 1) ? -(8 * g + (j + 1) / 2) : 8 * g + j / 2;

		s561e_add(T, 5, 0x10u | (unsigned)j, 5 + g, v);
	}
}

static int s561e_class(int d)
{
	if (d <= -21)
		return 7;
	if (d <= -7)
		return 5;
	if (d <= -3)
		return 3;
	if (d < 0)
		return 1;
	if (d == 0)
		return 0;
	if (d <= 2)
		return 2;
	if (d <= 6)
		return 4;
	return 6;
}

static int s561e_curve(int v)
{
	static const int cv[20] = {
		0,  2,  5,  8,  12, 18, 24,  32,  40,  48,
		56, 64, 72, 80, 88, 98, 112, 128, 144, 160
	};

	if (v == 237)
		return 0;
	return v < 0 ? -cv[-v] : cv[v];
}

static int s561e_mag(int v)
{
	if (v == 237 || v == 19)
		return 0;
	v = v < 0 ? -v : v;
	return v > 15 ? 15 : v;
}

static int s561e_trunc_div(int a, int b)
{
	int q = (a < 0 ? -a : a) / b;

	return a < 0 ? -q : q;
}

/* The decoder's model at one pixel: context, multiplier, table, prediction. */
struct s561e_px {
	int c, m, t, P;
};

/*
 * At column x of row y (r: the row decoded so far, u: two rows above), the
 * k-th pixel of a 32-pixel block in block mode `mode`, with the context
 * statistics H and A.
 */
static struct s561e_px s561e_model(const uint8_t *r, const uint8_t *u, int x,
				   int y, int w, int k, int mode, const int *H,
				   const int *A)
{
	struct s561e_px p;
	int U = u[x], L, UL, dL, dC, dR, c;

	if (x < 2) {
		L = UL = U;
		dL = dC = 0;
		dR = s561e_class((x + 2 < w ? u[x + 2] : U) - U);
	} else {
		L = r[x - 2];
		UL = u[x - 2];
		dL = s561e_class(UL - L);
		dC = s561e_class(U - UL);
		dR = x >= w - 2 ? 0 : s561e_class(u[x + 2] - U);
	}
	c = 64 * dL + 8 * dC + dR;
	p.c = c;
	if (L + 2 * U <= 144 && y % 2 == 0 && k % 4 == 0 && dR < 5 && dC < 5 &&
	    dL < 5)
		p.m = 1;
	else if (L <= 48 && dL >= 1 && dL <= 4 && dC >= 1 && dC <= 4)
		p.m = 2;
	else if (mode == 1)
		p.m = 2;
	else if (dC + dL >= 11 || mode == 2)
		p.m = 8;
	else
		p.m = 4;
	if (H[c] < 7)
		p.t = 0;
	else if (H[c] >= A[c])
		p.t = 1;
	else if (2 * H[c] >= A[c])
		p.t = 2;
	else if (4 * H[c] >= A[c])
		p.t = 3;
	else if (8 * H[c] >= A[c])
		p.t = 4;
	else
		p.t = 5;
	p.P = s561e_trunc_div(3 * (U + L) - 2 * UL, 4);
	return p;
}

/* The decoded value of code word cw at that pixel (before clamping). */
static int s561e_result(const struct s561e_px *p, const struct s561e_cw *cw)
{
	return p->P - s561e_trunc_div(s561e_curve(cw->v) * p->m, 2);
}

/* A random code word of the table (one in range unless allow_clamp). */
static int s561e_pick_random(const struct s561e_tabs *T,
			     const struct s561e_px *p, uint32_t *seed,
			     int allow_clamp)
{
	const struct s561e_cw *cw = T->cw[p->t];
	int best = -1;

	for (int tries = 0; tries < 8; tries++) {
		int j = (int)(v4lc_chipenc_rng(seed) % (uint32_t)T->n[p->t]);
		int s = s561e_result(p, &cw[j]);

		best = j;
		if (allow_clamp || (s >= -256 && s <= 511))
			break;
		best = 0; /* every table codes 0, in range */
		while (cw[best].v != 0)
			best++;
	}
	return best;
}

/* The code word nearest to target (rnd: now and then an equal one). */
static int s561e_pick_best(const struct s561e_tabs *T, const struct s561e_px *p,
			   int target, uint32_t rnd, int allow_clamp)
{
	const struct s561e_cw *cw = T->cw[p->t];
	int best = -1, bestd = 1 << 30;

	for (int j = 0; j < T->n[p->t]; j++) {
		int s = s561e_result(p, &cw[j]);
		int d = abs((s < 0 ? 0 : s > 255 ? 255 : s) - target);

		if (!allow_clamp && (s < -256 || s > 511))
			continue;
		d = d * 64 + cw[j].len;
		/* now and then any code word of equal result */
		if (best >= 0 && d / 64 == bestd / 64 &&
		    (rnd >> (j % 24) & 0x81) == 0x81 && rnd % 16 == 0)
			d = bestd - 1;
		if (d < bestd)
			bestd = d, best = j;
	}
	return best;
}

size_t v4lc_chipenc_s561_ex(const uint8_t *img, int w, int h, uint8_t *out,
			    size_t cap, uint32_t seed, int random_symbols,
			    int allow_clamp, int *clamped, uint8_t *recon)
{
	struct s561e_tabs T;
	struct v4lc_bitw bw = { out, cap, 0, 0, 0 };
	uint8_t *rec = malloc((size_t)w * h);
	int H[512], A[512], mode = 0, hit = 0;
	size_t ndec = h > 2 ? (size_t)(h - 2) * w / 32 * 32 : 0;

	if (!rec)
		return 0; /* no frame is empty: out of memory */
	s561e_build(&T);
	memset(H, 0, sizeof(H));
	memset(A, 0, sizeof(A));
	for (int b = 0; b < 20; b++)
		v4lc_bitw_put(&bw,
			      b == 1 ? 0x10 : v4lc_chipenc_rng(&seed) & 0xff,
			      8);
	for (int y = 0; y < 2 && y < h; y++)
		for (int x = 0; x < w; x++) {
			rec[(size_t)y * w + x] = img[(size_t)y * w + x];
			v4lc_bitw_put(&bw, img[(size_t)y * w + x], 8);
		}
	for (size_t i = 0; i < ndec; i++) {
		int y = 2 + (int)(i / (size_t)w), x = (int)(i % (size_t)w);
		int k = (int)(i % 32), best, s;
		uint8_t *r = rec + (size_t)y * w;
		uint32_t rnd = v4lc_chipenc_rng(&seed);
		struct s561e_px p;
		const struct s561e_cw *cw;

		if (k == 0) {
			uint32_t rm = v4lc_chipenc_rng(&seed) % 8;

			mode = rm < 4 ? 0 : rm < 6 ? 1 : 2;
			if (mode == 0)
				v4lc_bitw_put(&bw, 0, 1);
			else
				v4lc_bitw_put(&bw, mode == 1 ? 2 : 3, 2);
		}
		p = s561e_model(r, r - 2 * w, x, y, w, k, mode, H, A);
		best = random_symbols
			       ? s561e_pick_random(&T, &p, &seed, allow_clamp)
			       : s561e_pick_best(&T, &p, img[(size_t)y * w + x],
						 rnd, allow_clamp);
		cw = &T.cw[p.t][best];
		s = s561e_result(&p, cw);
		if (s < -256 || s > 511)
			hit = 1;
		r[x] = (uint8_t)(s < 0 ? 0 : s > 255 ? 255 : s);
		v4lc_bitw_put(&bw, cw->code, cw->len);
		A[p.c] += s561e_mag(cw->v);
		if (H[p.c] == 15) {
			H[p.c] = 8;
			A[p.c] /= 2;
		} else {
			H[p.c]++;
		}
	}
	for (size_t q = 2 * (size_t)w + ndec; q < (size_t)w * h; q++)
		rec[q] = rec[q - 2 * (size_t)w];
	if (clamped)
		*clamped = hit;
	v4lc_chipenc_keep(recon, rec, w, h);
	free(rec);
	return v4lc_bitw_flush(&bw);
}

size_t v4lc_chipenc_s561(const uint8_t *img, int w, int h, uint8_t *out,
			 size_t cap, uint32_t seed, uint8_t *recon)
{
	return v4lc_chipenc_s561_ex(img, w, h, out, cap, seed, 0, 0, NULL,
				    recon);
}
