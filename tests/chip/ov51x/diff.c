/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * OV511/OV518 decoders against the original's helper programs, spoken to
 * directly (a fresh helper per frame: its buffers then start zero, as
 * ours behave): identical planes and identical accept/reject on
 *  - frames of the test encoders from a picture at 640x480, 352x288,
 *    320x240, 176x144, 160x120 (OV518 also with yvu = 1);
 *  - frames from random coefficients / random block records at small
 *    sizes, including sizes that are not multiples of 16, with all-zero
 *    units inserted, truncated, and with bytes mutated;
 *  - random bytes (uniform, zero-rich, 0xff-rich), raw OV511 frames.
 * Cases where the original would read outside its buffers (our decoder
 * says V4LC_OV51X_UNDEFINED) are skipped and counted. OV51X_CASES scales
 * the number of random cases (default 1; 0.3 under ASan). Skips (77)
 * without the helpers and on other hosts than x86-64.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jpeg/ov51x.h"
#include "ovtest.h"
#include "vcam/chipenc_ov51x.h"

static int compared, identical, rejected_both, skipped;

/* A smooth test picture with some detail, planar YUV420. */
static uint8_t *picture(int w, int h)
{
	size_t wh = (size_t)w * (size_t)h;
	uint8_t *p = ot_xmalloc(wh + wh / 2);

	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			double v = 128 + 90 * sin(x * 0.05) * cos(y * 0.07) +
				   ((x / 8 + y / 8) % 5 == 0 ? 30 : 0);

			p[(size_t)y * w + x] = (uint8_t)(v < 0     ? 0
							 : v > 255 ? 255
								   : v);
		}
	for (int y = 0; y < h / 2; y++)
		for (int x = 0; x < w / 2; x++) {
			p[wh + (size_t)y * (w / 2) + x] =
				(uint8_t)(128 + 60 * sin(x * 0.11 + y * 0.03));
			p[wh + wh / 4 + (size_t)y * (w / 2) + x] =
				(uint8_t)(128 + 50 * cos(y * 0.09 - x * 0.02));
		}
	return p;
}

/* One comparison. Returns 1 when identical (or skipped). */
static int compare(const char *what, int is518, int w, int h, int yvu,
		   const uint8_t *f, size_t n)
{
	size_t size = v4lc_ov51x_out_size(w, h), cap = size ? size : 16;
	uint8_t *ours = ot_xmalloc(cap), *orig = ot_xmalloc(cap);
	unsigned notes = 0;
	int r, o, same;

	memset(ours, 0x5a, cap);
	r = is518 ? ot_ov518(f, n, ours, w, h, yvu, &notes)
		  : ot_ov511(f, n, ours, w, h, &notes);
	if (notes & V4LC_OV51X_UNDEFINED) {
		skipped++;
		free(ours);
		free(orig);
		return 1;
	}
	o = ot_oracle(is518, w, h, yvu, f, n, orig, cap);
	CHECK(o >= -1, "%s: helper failed (%d)", what, o);
	compared++;
	if (o == -1 || r < 0) {
		same = o == -1 && r < 0;
		CHECK(same, "%s %dx%d yvu %d (%zu bytes): ours %d, original %s",
		      what, w, h, yvu, n, r, o == -1 ? "rejects" : "accepts");
		rejected_both += same;
	} else {
		size_t i = 0;

		same = (size_t)o == size && !memcmp(ours, orig, size);
		if (!same)
			while (i < size && ours[i] == orig[i])
				i++;
		CHECK(same,
		      "%s %dx%d yvu %d (%zu bytes): first difference at "
		      "%zu: %d, original %d",
		      what, w, h, yvu, n, i, i < size ? ours[i] : -1,
		      i < size ? orig[i] : -1);
	}
	identical += same;
	free(ours);
	free(orig);
	return same;
}

/* ---- OV518 random coefficient frames ---- */
struct rnd518 {
	int big;
	int density;
};

static void rnd518_block(void *ctx, int comp, int x, int y, int32_t c[32])
{
	struct rnd518 *r = ctx;

	(void)comp;
	(void)x;
	(void)y;
	c[0] = (int32_t)(ot_rand() % 41) - 20;
	if (r->big && ot_rand() % 8 == 0)
		c[0] = (int32_t)(ot_rand() % 4095) - 2047;
	for (int j = 1; j < 32; j++)
		if ((int)(ot_rand() % 100) < r->density) {
			int lim = r->big ? 1023 : 30;

			c[j] = (int32_t)(ot_rand() % (2 * lim + 1)) - lim;
		}
}

/* Zero units inserted at 8-byte aligned places. */
static uint8_t *insert_zero_units(const uint8_t *f, size_t n, size_t *out,
				  int units)
{
	uint8_t *g = ot_xmalloc(n + 8 * (size_t)units);
	size_t at = 0, k = 0;

	/* walk the units, inserting a zero unit before some */
	for (size_t c = 0; c < n; c += 8) {
		if (k < (size_t)units &&
		    ot_rand() % (n / 8 / (size_t)units + 1) == 0) {
			memset(g + at, 0, 8);
			at += 8;
			k++;
		}
		memcpy(g + at, f + c, n - c < 8 ? n - c : 8);
		at += n - c < 8 ? n - c : 8;
	}
	*out = at;
	return g;
}

static void mutate(uint8_t *f, size_t n, int k)
{
	for (int i = 0; i < k && n; i++) {
		size_t at = ot_rand() % n;

		switch (ot_rand() % 3) {
		case 0:
			f[at] ^= (uint8_t)(1u << (ot_rand() % 8));
			break;
		case 1:
			f[at] = (uint8_t)ot_rand();
			break;
		default:
			f[at] = 0xff;
			break;
		}
	}
}

static void random518(int cases)
{
	static const int ws[] = { 16, 32, 48, 64, 40, 24, 8, 80 };
	static const int hs[] = { 8, 16, 24, 32, 12, 4, 20 };

	for (int t = 0; t < cases; t++) {
		int w = ws[ot_rand() % 8], h = hs[ot_rand() % 7];
		struct rnd518 r;
		uint8_t qy[32], qc[32], *f, *g;
		size_t n, m;
		int zu;

		r.big = ot_rand() % 4 == 0;
		r.density = (int)(ot_rand() % 60);
		for (int j = 0; j < 32; j++) {
			qy[j] = (uint8_t)(1 + ot_rand() % (r.big ? 255 : 16));
			qc[j] = (uint8_t)(1 + ot_rand() % (r.big ? 255 : 16));
		}
		f = v4lc_chipenc_ov518_frame(w, h, qy, qc, rnd518_block, &r, &n,
					     &zu);
		if (!f)
			continue;
		switch (t % 5) {
		case 0: /* as encoded, zero units inserted */
			g = insert_zero_units(f, n, &m,
					      1 + (int)(ot_rand() % 4));
			compare("O518 coef+zero", 1, w, h, (int)(ot_rand() & 1),
				g, m);
			free(g);
			break;
		case 1: /* truncated */
			m = n > 8 ? 8 + ot_rand() % (n - 8) : n;
			compare("O518 truncated", 1, w, h, 0, f, m);
			break;
		case 2: /* mutated */
			mutate(f, n, 1 + (int)(ot_rand() % 6));
			compare("O518 mutated", 1, w, h, 0, f, n);
			break;
		case 3: /* extended by random bytes */
			g = ot_xmalloc(n + 1000);
			memcpy(g, f, n);
			m = n + ot_rand() % 1000;
			for (size_t i = n; i < m; i++)
				g[i] = (uint8_t)ot_rand();
			compare("O518 extended", 1, w, h, 0, g, m);
			free(g);
			break;
		default:
			compare("O518 coef", 1, w, h, (int)(ot_rand() & 1), f,
				n);
			break;
		}
		free(f);
	}
}

static void random_bytes(int is518, int cases)
{
	static const int ws[] = { 16, 32, 64, 40, 48 };
	static const int hs[] = { 8, 16, 32, 12, 24 };

	for (int t = 0; t < cases; t++) {
		int w = ws[ot_rand() % 5], h = hs[ot_rand() % 5];
		size_t n = ot_rand() % 3000;
		uint8_t *f = ot_xmalloc(n);
		int kind = (int)(ot_rand() % 3);

		for (size_t i = 0; i < n; i++) {
			uint32_t v = ot_rand();

			f[i] = kind == 0   ? (uint8_t)v
			       : kind == 1 ? (v % 4 ? 0 : (uint8_t)(v >> 8))
					   : (v % 4 ? 0xff : (uint8_t)(v >> 8));
		}
		if (!is518 && n > 9 && ot_rand() % 2)
			f[8] |= 0x40; /* compressed */
		compare(is518 ? "O518 random" : "O511 random", is518, w, h,
			(int)(ot_rand() & 1), f, n);
		free(f);
	}
}

/* ---- OV511 random records ---- */
static int rnd511_block(void *ctx, int comp, int x, int y, uint8_t *out)
{
	int32_t z[64];
	int n = 1 + (int)(ot_rand() % 64), eight = (int)(ot_rand() & 1);
	int table = (int)(ot_rand() & 1);
	int lim = eight ? 127 : 2047;

	(void)ctx;
	(void)comp;
	(void)x;
	(void)y;
	if (ot_rand() % 2)
		n = 1 + (int)(ot_rand() % 25);
	memset(z, 0, sizeof(z));
	z[0] = (int32_t)(ot_rand() % 4096) - 2048;
	for (int i = 1; i < n; i++)
		if (ot_rand() % 3)
			z[i] = (int32_t)(ot_rand() % (2 * (unsigned)lim + 1)) -
			       lim;
	return v4lc_chipenc_ov511_record(z, n, eight, table, out);
}

static void random511(int cases)
{
	static const int ws[] = { 16, 32, 48, 64, 40, 24, 176, 160 };
	static const int hs[] = { 16, 32, 24, 8, 48, 144, 120 };

	for (int t = 0; t < cases; t++) {
		int w = ws[ot_rand() % 8], h = hs[ot_rand() % 7];
		uint8_t *f;
		size_t n, m;

		if (t % 6 == 5) { /* raw */
			n = 9 + (size_t)w * h * 3 / 2 + 384 + ot_rand() % 200;
			f = ot_xmalloc(n);
			for (size_t i = 0; i < n; i++)
				f[i] = (uint8_t)ot_rand();
			memset(f, 0, 8);
			f[8] = 0x08;
			compare("O511 raw", 0, w, h, 0, f, n);
			free(f);
			continue;
		}
		f = v4lc_chipenc_ov511_frame(w, h, rnd511_block, NULL, &n);
		if (!f)
			continue;
		switch (t % 6) {
		case 1:
			m = ot_rand() % (n + 1);
			compare("O511 truncated", 0, w, h, 0, f, m);
			break;
		case 2:
			mutate(f, n, 1 + (int)(ot_rand() % 6));
			compare("O511 mutated", 0, w, h, 0, f, n);
			break;
		case 3: {
			/* zero chunks inserted at 32-byte boundaries */
			uint8_t *g = ot_xmalloc(n + 32 * 4);
			size_t at = 0;
			int k = 0;

			for (size_t c = 0; c < n; c += 32) {
				size_t l = n - c < 32 ? n - c : 32;

				if (k < 4 && ot_rand() % 4 == 0) {
					memset(g + at, 0, 32);
					at += 32;
					k++;
				}
				memcpy(g + at, f + c, l);
				at += l;
			}
			compare("O511 coef+zero", 0, w, h, 1, g, at);
			free(g);
			break;
		}
		default:
			compare("O511 coef", 0, w, h, (int)(ot_rand() & 1), f,
				n);
			break;
		}
		free(f);
	}
}

static void encoded(void)
{
	static const int sz[][2] = { { 640, 480 },
				     { 352, 288 },
				     { 320, 240 },
				     { 176, 144 },
				     { 160, 120 } };

	for (int i = 0; i < 5; i++) {
		int w = sz[i][0], h = sz[i][1];
		uint8_t *pic = picture(w, h), *f;
		size_t n;
		char what[64];

		for (int q = 0; q < 4; q += 3) {
			f = v4lc_chipenc_ov518_image(pic, w, h, q, &n);
			CHECK(f, "O518 encoder failed at %dx%d", w, h);
			if (!f)
				continue;
			snprintf(what, sizeof(what), "O518 picture q%d", q);
			compare(what, 1, w, h, 0, f, n);
			compare(what, 1, w, h, 1, f, n);
			free(f);
		}
		f = v4lc_chipenc_ov511_image(pic, w, h, &n);
		CHECK(f, "O511 encoder failed at %dx%d", w, h);
		if (f) {
			compare("O511 picture", 0, w, h, 0, f, n);
			compare("O511 picture", 0, w, h, 1, f, n);
			free(f);
		}
		free(pic);
	}
}

int main(void)
{
	const char *e = getenv("OV51X_CASES");
#ifdef __SANITIZE_ADDRESS__
	double scale = e ? atof(e) : 0.3; /* a fork costs more there */
#else
	double scale = e ? atof(e) : 1.0;
#endif
	struct ot_helper hp;
	clock_t t0 = clock();

#ifndef __x86_64__
	/* the helpers are the distribution's x86-64 programs (emulated
	 * builds: too slow a fork, and not the library under test's host) */
	(void)hp;
	(void)scale;
	(void)t0;
	printf("SKIP: the original's helpers are x86-64 programs\n");
	return 77;
#endif
	if (ot_helper_start(&hp, 1)) {
		printf("SKIP: the original's ov518-decomp helper is not installed\n");
		return 77;
	}
	ot_helper_stop(&hp);
	encoded();
	random518((int)(1200 * scale));
	random_bytes(1, (int)(500 * scale));
	random511((int)(600 * scale));
	random_bytes(0, (int)(300 * scale));
	printf("ov51x-diff: %d frames compared with the original: %d identical "
	       "(%d of them rejected by both), %d skipped (undefined in the "
	       "original), %.1f s CPU\n",
	       compared, identical, rejected_both, skipped,
	       (double)(clock() - t0) / CLOCKS_PER_SEC);
	return failures ? 1 : 0;
}
