/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * JPEG-Lite decoder (src/jpeg/jpgl.c) against the distribution's
 * libv4lconvert and against a slow model written here from the format
 * description (a bit-at-a-time reader, the code table matched as strings,
 * the original's row scratch): RGB24 and BGR24 must be byte-identical with
 * the original's on encoder frames, crafted streams, random and mutated
 * frames and truncated frames (the original is given the frame followed by
 * zeros, which is what our decoder reads past the end); our return code
 * must be -EPIPE exactly when the model needs bits past the end. YUV420 /
 * YVU420 (broken in the original) are checked against the model's planes
 * and the documented resampling. Exit 77 (skip) without the original after
 * the model checks.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/videodev2.h>

#include "../../common/origlib.h"
#include "../../jpeg/jpegtest.h"
#include "jpgltest.h"
#include "vcam/chipenc_jpgl.h"
#include "../../common/check.h"

#ifndef V4L2_PIX_FMT_JPGL
#define V4L2_PIX_FMT_JPGL v4l2_fourcc('J', 'P', 'G', 'L')
#endif

static struct origlib olib;
static struct v4lconvert_data *cv;
static long compared, identical;

/* ------------------------------------------------------------------ */
/* The model: straight from the description, slow and simple.         */

struct mbits {
	const uint8_t *s;
	size_t n;
	uint64_t pos; /* bits consumed */
};

static int mbit(struct mbits *b)
{
	uint64_t word = b->pos / 16, k = b->pos % 16;
	unsigned lo = 2 * word < b->n ? b->s[2 * word] : 0;
	unsigned hi = 2 * word + 1 < b->n ? b->s[2 * word + 1] : 0;
	unsigned w = lo | hi << 8;

	b->pos++;
	return (int)((w >> (15 - k)) & 1);
}

static unsigned mget(struct mbits *b, int n)
{
	unsigned v = 0;

	while (n--)
		v = 2 * v + (unsigned)mbit(b);
	return v;
}

static const struct {
	const char *code;
	int run, mag;
} mcodes[] = {
	{ "00", -1, 0 },        { "10", 0, 1 },         { "011", 0, 2 },
	{ "110", 1, 1 },        { "1110", 0, 3 },       { "01000", 2, 1 },
	{ "01011", 3, 1 },      { "010010", 1, 2 },     { "010100", 0, 4 },
	{ "111101", 4, 1 },     { "111110", 0, 5 },     { "1111000", 5, 1 },
	{ "1111001", 1, 3 },    { "1111110", 0, 6 },    { "0100110", -2, 0 },
	{ "0100111", -3, 0 },   { "01010100", 2, 2 },   { "01010111", 6, 1 },
	{ "11111111", 0, 7 },   { "010101010", 3, 2 },  { "010101100", 1, 4 },
	{ "111111100", 0, 8 },  { "0101010110", 1, 5 }, { "0101010111", 0, 9 },
	{ "0101011010", 7, 1 }, { "0101011011", 2, 3 }, { "1111111010", 0, 10 },
	{ "1111111011", 8, 1 },
};

/* zig-zag position -> (v, u) */
static const int zv[16] = { 0, 0, 1, 2, 1, 0, 0, 1, 2, 3, 3, 2, 1, 2, 3, 3 };
static const int zu[16] = { 0, 1, 0, 0, 1, 2, 3, 2, 1, 0, 1, 2, 3, 3, 2, 3 };
static const int64_t mwt[4][16] = {
	{ 32768, 17808, 794, 18618, 850, 18618, 43115, 1828, 40960, 1924, 2089,
	  45511, 2089, 49648, 2216, 2521 },
	{ 32768, 35617, 1589, 37236, 1700, 37236, 86231, 3656, 81920, 3849,
	  4179, 91022, 4179, 99296, 4432, 5043 },
	{ 32768, 71234, 3179, 74472, 3401, 74472, 172463, 7313, 163840, 7698,
	  8358, 182044, 8358, 198593, 8865, 10087 },
	{ 32768, 142469, 6359, 148945, 6803, 148945, 344926, 14627, 327680,
	  15397, 16716, 364088, 16716, 397187, 17730, 20175 },
};

static int32_t wrap32(int64_t v)
{
	return (int32_t)(uint32_t)(uint64_t)v;
}

static int clampi(int64_t v)
{
	return v < 0 ? 0 : v > 255 ? 255 : (int)v;
}

/* Returns -1 for EOB, else sets run/amp. */
static int mcode(struct mbits *b, int *run, int *amp)
{
	char s[17];
	int len = 0;

	for (;;) {
		s[len++] = (char)('0' + mbit(b));
		s[len] = 0;
		for (size_t i = 0; i < JT_ARRAY_SIZE(mcodes); i++) {
			if (strcmp(mcodes[i].code, s))
				continue;
			if (mcodes[i].run == -1)
				return -1;
			if (mcodes[i].run == -2) {
				int sg = mbit(b);

				*run = (int)mget(b, 3);
				*amp = (int)mget(b, 5);
				if (sg)
					*amp = -*amp;
				return 0;
			}
			if (mcodes[i].run == -3) {
				int sg = mbit(b);

				*run = (int)mget(b, 4);
				*amp = (int)mget(b, 4);
				if (sg)
					*amp = -*amp;
				return 0;
			}
			*run = mcodes[i].run;
			*amp = mbit(b) ? -mcodes[i].mag : mcodes[i].mag;
			return 0;
		}
		if (len > 10) {
			fprintf(stderr, "model: no code for %s\n", s);
			exit(99);
		}
	}
}

static void mblock(struct mbits *b, long *pred, uint8_t out[16])
{
	int q = (int)mget(b, 2), p = 0;
	int32_t c[4][4] = { { 0 } };

	if (mbit(b)) {
		int d = (int)mget(b, 5);

		*pred += d >= 16 ? d - 32 : d;
	} else {
		int d = (int)mget(b, 8);

		*pred = d >= 128 ? d - 256 : d;
	}
	c[0][0] = wrap32((int64_t)*pred * 32768);
	for (;;) {
		int run, amp;

		if (mcode(b, &run, &amp) < 0)
			break;
		p += run + 1;
		if (p > 15) {
			for (int i = 0; i < 16; i++)
				out[i] = (uint8_t)clampi(
					(int64_t)c[i / 4][i % 4] + 128);
			return;
		}
		c[zv[p]][zu[p]] = wrap32((int64_t)amp * mwt[q][p]);
	}
	{
		int32_t g[4][4];

		for (int u = 0; u < 4; u++) {
			int64_t a0 = c[0][u], a1 = c[1][u], a2 = c[2][u],
				a3 = c[3][u];

			g[0][u] = wrap32(a0 + a2 + 32 * a1 + 16 * a3);
			g[1][u] = wrap32(a0 - a2 + 15 * a1 - 32 * a3);
			g[2][u] = wrap32(a0 - a2 - 15 * a1 + 32 * a3);
			g[3][u] = wrap32(a0 + a2 - 32 * a1 - 16 * a3);
		}
		for (int y = 0; y < 4; y++) {
			int64_t b0 = g[y][0], b1 = g[y][1], b2 = g[y][2],
				b3 = g[y][3];
			int32_t s[4];

			s[0] = wrap32(128 * (b0 + b2) + 183 * b1 + 86 * b3);
			s[1] = wrap32(128 * (b0 - b2) + 86 * b1 - 183 * b3);
			s[2] = wrap32(128 * (b0 - b2) - 86 * b1 + 183 * b3);
			s[3] = wrap32(128 * (b0 + b2) - 183 * b1 - 86 * b3);
			for (int x = 0; x < 4; x++)
				out[4 * y + x] =
					(uint8_t)clampi((s[x] >> 22) + 128);
		}
	}
}

/*
 * Decode with the model. Fills the per-line luma (lum, w x h4), Cb and Cr
 * lines (cbl, crl: (w / 4 + 1) per line) as the original's scratch holds
 * them when the colour pass reads them; returns the bits consumed.
 */
static uint64_t model(const uint8_t *src, size_t n, int w, int h, uint8_t *lum,
		      uint8_t *cbl, uint8_t *crl)
{
	int s = w / 4 + 1;
	size_t scrn = 6 * (size_t)w + 8 + 64;
	uint8_t *scr = jt_xmalloc(scrn);
	struct mbits b = { src, n, 0 };

	memset(scr, 0, scrn);
	for (int r = 0; r < h / 4; r++) {
		long py = 0, pb = 0, pr = 0;

		for (int x0 = 0; x0 < w; x0 += 16) {
			uint8_t blk[6][16];

			for (int k = 0; k < 4; k++)
				mblock(&b, &py, blk[k]);
			mblock(&b, &pb, blk[4]);
			mblock(&b, &pr, blk[5]);
			for (int y = 0; y < 4; y++)
				for (int x = 0; x < 4; x++) {
					for (int k = 0; k < 4; k++)
						scr[y * w + x0 + 4 * k + x] =
							blk[k][4 * y + x];
					scr[4 * w + x0 / 4 + y * s + x] =
						blk[5][4 * y + x];
					scr[5 * w + 4 + x0 / 4 + y * s + x] =
						blk[4][4 * y + x];
				}
		}
		for (int y = 0; y < 4; y++) {
			scr[4 * w + y * s + w / 4] =
				scr[4 * w + y * s + w / 4 - 1];
			scr[5 * w + 4 + y * s + w / 4] =
				scr[5 * w + 4 + y * s + w / 4 - 1];
		}
		memcpy(lum + (size_t)r * 4 * w, scr, 4 * (size_t)w);
		memcpy(crl + (size_t)r * 4 * s, scr + 4 * w, 4 * (size_t)s);
		memcpy(cbl + (size_t)r * 4 * s, scr + 5 * w + 4, 4 * (size_t)s);
	}
	free(scr);
	return b.pos;
}

static int interp(const uint8_t *line, int x)
{
	int c0 = line[x / 4], c1 = line[x / 4 + 1];

	switch (x % 4) {
	case 0:
		return c0;
	case 1:
		return (3 * c0 + c1) >> 2;
	case 2:
		return (c0 + c1) >> 1;
	default:
		return (c0 + 3 * c1) >> 2;
	}
}

/* Model frame -> RGB24/BGR24 (lines 4 * (h / 4) only) or YUV420/YVU420. */
static uint64_t model_out(const uint8_t *src, size_t n, int w, int h,
			  uint32_t fcc, uint8_t *dst)
{
	int s = w / 4 + 1, h4 = h / 4 * 4;
	uint8_t *lum = jt_xmalloc((size_t)w * h4 + 1);
	uint8_t *cbl = jt_xmalloc((size_t)s * h4 + 1);
	uint8_t *crl = jt_xmalloc((size_t)s * h4 + 1);
	uint64_t bits = model(src, n, w, h, lum, cbl, crl);

	if (fcc == V4L2_PIX_FMT_RGB24 || fcc == V4L2_PIX_FMT_BGR24) {
		for (int y = 0; y < h4; y++)
			for (int x = 0; x < w; x++) {
				int Y = lum[(size_t)y * w + x];
				int cb = interp(cbl + (size_t)y * s, x);
				int cr = interp(crl + (size_t)y * s, x);
				int yy = 76284 * (Y - 16);
				int R = clampi((yy + 104595 * (cr - 128)) >>
					       16);
				int G = clampi((yy - 53281 * (cr - 128) -
						25625 * (cb - 128)) >>
					       16);
				int B = clampi((yy + 132252 * (cb - 128)) >>
					       16);
				uint8_t *o = dst + 3 * ((size_t)y * w + x);
				int bgr = fcc == V4L2_PIX_FMT_BGR24;

				o[0] = (uint8_t)(bgr ? B : R);
				o[1] = (uint8_t)G;
				o[2] = (uint8_t)(bgr ? R : B);
			}
	} else {
		size_t cw = (size_t)w / 2, cp = cw * (size_t)((h + 1) / 2);
		uint8_t *u = dst + (size_t)w * h, *v = u + cp;

		if (fcc == V4L2_PIX_FMT_YVU420) {
			uint8_t *t = u;

			u = v;
			v = t;
		}
		memcpy(dst, lum, (size_t)w * h4);
		/* 2x2 mean of the interpolated chroma, computed in eighths
		   of a level (exact: the interpolation's own floors are not
		   applied), rounded */
		for (int y = 0; y < h4 / 2; y++)
			for (size_t x = 0; x < cw; x++) {
				int su = 0, sv = 0;

				for (int dy = 0; dy < 2; dy++)
					for (int dx = 0; dx < 2; dx++) {
						int px = 2 * (int)x + dx,
						    m = px % 4;
						const uint8_t *lb =
							cbl +
							(size_t)(2 * y + dy) *
								s;
						const uint8_t *lr =
							crl +
							(size_t)(2 * y + dy) *
								s;

						su += (4 - m) * lb[px / 4] +
						      m * lb[px / 4 + 1];
						sv += (4 - m) * lr[px / 4] +
						      m * lr[px / 4 + 1];
					}
				/* su is 4x the sum of four samples */
				u[(size_t)y * cw + x] =
					(uint8_t)((su + 8) >> 4);
				v[(size_t)y * cw + x] =
					(uint8_t)((sv + 8) >> 4);
			}
	}
	free(lum);
	free(cbl);
	free(crl);
	return bits;
}

/* ------------------------------------------------------------------ */
/* The original                                                        */

static int orig_call(const uint8_t *frm, size_t n, int w, int h, uint32_t fcc,
		     uint8_t *dst, size_t dsize)
{
	struct v4l2_format sf, df;
	size_t pad = 4 * (size_t)w * h + 64;
	uint8_t *src = jt_xmalloc(n + pad);
	int r;

	memcpy(src, frm, n);
	memset(src + n, 0, pad);
	memset(&sf, 0, sizeof(sf));
	memset(&df, 0, sizeof(df));
	sf.type = df.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	sf.fmt.pix.width = df.fmt.pix.width = (uint32_t)w;
	sf.fmt.pix.height = df.fmt.pix.height = (uint32_t)h;
	sf.fmt.pix.pixelformat = V4L2_PIX_FMT_JPGL;
	sf.fmt.pix.field = df.fmt.pix.field = V4L2_FIELD_NONE;
	sf.fmt.pix.bytesperline = (uint32_t)w;
	sf.fmt.pix.sizeimage = (uint32_t)n;
	df.fmt.pix.pixelformat = fcc;
	df.fmt.pix.bytesperline = (uint32_t)w * 3;
	df.fmt.pix.sizeimage = (uint32_t)dsize;
	errno = 0;
	r = olib.convert(cv, &sf, &df, src, (int)n, dst, (int)dsize);
	free(src);
	return r;
}

/*
 * The original's RGB24/BGR24 output in dst (prefilled by the caller). In a
 * child process when w % 16 != 0 (its scratch overflows there). Returns
 * the original's return value, or -1000 when its process died.
 */
static int orig_decode(const uint8_t *frm, size_t n, int w, int h, uint32_t fcc,
		       uint8_t *dst)
{
	size_t dn = 3 * (size_t)w * h;
	uint8_t *shared;
	pid_t pid;
	int st, ret = -1000;

	if (w % 16 == 0)
		return orig_call(frm, n, w, h, fcc, dst, dn);
	shared = mmap(NULL, dn + sizeof(int), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED)
		return -1000;
	memcpy(shared, dst, dn);
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid == 0) {
		int r = orig_call(frm, n, w, h, fcc, shared, dn);

		memcpy(shared + dn, &r, sizeof(int));
		_exit(0);
	}
	if (pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
	    WEXITSTATUS(st) == 0) {
		memcpy(dst, shared, dn);
		memcpy(&ret, shared + dn, sizeof(int));
	}
	munmap(shared, dn + sizeof(int));
	return ret;
}

/* ------------------------------------------------------------------ */

/*
 * One frame: ours against the model (RGB24, BGR24, YUV420, YVU420, return
 * code), and RGB24 or BGR24 against the original when use_orig.
 */
static void check_frame(const char *what, const uint8_t *frm, size_t n, int w,
			int h, int use_orig, int verbose)
{
	static const uint32_t fccs[4] = { V4L2_PIX_FMT_RGB24,
					  V4L2_PIX_FMT_BGR24,
					  V4L2_PIX_FMT_YUV420,
					  V4L2_PIX_FMT_YVU420 };
	size_t dn = 3 * (size_t)w * h;
	uint8_t *ours = jt_xmalloc(dn), *want = jt_xmalloc(dn);
	uint8_t *orig = jt_xmalloc(dn);
	char err[200];
	int same_orig = 1;

	for (int f = 0; f < 4; f++) {
		size_t sz = f < 2 ? dn
				  : (size_t)w * h +
					    2 * (size_t)(w / 2) * ((h + 1) / 2);
		uint64_t bits;
		int r;

		memset(ours, 0xa5, dn);
		memset(want, 0xa5, dn);
		r = jpgl_decode(frm, n, fccs[f], ours, sz, w, h, err,
				sizeof(err));
		bits = model_out(frm, n, w, h, fccs[f], want);
		CHECK(r == (bits > 16 * (uint64_t)(n / 2) ? -EPIPE : 0),
		      "%s %dx%d (%zu bytes, %llu bits): returned %d (%s)", what,
		      w, h, n, (unsigned long long)bits, r, err);
		CHECK(!memcmp(ours, want, dn),
		      "%s %dx%d fmt %d: differs from the model", what, w, h, f);
		if (use_orig && f < 2 &&
		    ((jt_rand() & 1) == (unsigned)f || verbose)) {
			int ro;

			memset(orig, 0xa5, dn);
			ro = orig_decode(frm, n, w, h, fccs[f], orig);
			compared++;
			CHECK(ro == (int)dn,
			      "%s %dx%d: the original returned %d", what, w, h,
			      ro);
			if (!memcmp(ours, orig, dn)) {
				identical++;
			} else {
				same_orig = 0;
				for (size_t i = 0; i < dn; i++)
					if (ours[i] != orig[i]) {
						CHECK(0,
						      "%s %dx%d fmt %d: byte %zu "
						      "ours %u original %u",
						      what, w, h, f, i, ours[i],
						      orig[i]);
						break;
					}
			}
		}
	}
	if (verbose)
		printf("  %-22s %4dx%-4d %7zu bytes: %s\n", what, w, h, n,
		       !use_orig   ? "model only"
		       : same_orig ? "identical"
				   : "DIFFERENT");
	free(ours);
	free(want);
	free(orig);
}

/* Encoder frames of a test image. */
static void encoder_frames(int use_orig)
{
	static const int sizes[][2] = {
		{ 640, 480 }, { 352, 288 }, { 320, 240 }, { 176, 144 },
		{ 160, 120 }, { 48, 12 },   { 16, 4 },    { 32, 8 },
		{ 80, 20 },   { 20, 8 },    { 28, 12 },   { 44, 4 },
		{ 36, 16 },   { 100, 8 },
	};

	for (size_t i = 0; i < JT_ARRAY_SIZE(sizes); i++) {
		int w = sizes[i][0], h = sizes[i][1];
		uint8_t *img = jt_make_image(w, h, (unsigned)i);

		for (int v = 0; v < 3; v++) {
			struct v4lc_jpgl_enc o = { v == 2 ? 3 : -1, v == 1,
						   v ? (uint32_t)(i + 1) : 0 };
			size_t n;
			uint8_t *frm = v4lc_jpgl_encode(img, w, h, &o, &n);
			char what[64];

			if (!frm) {
				CHECK(0, "encoder failed at %dx%d", w, h);
				continue;
			}
			snprintf(what, sizeof(what), "encoder q%d%s%s", o.q,
				 o.direct_dc ? " direct" : "",
				 o.seed ? " esc" : "");
			check_frame(what, frm, n, w, h, use_orig, 1);
			if (v == 0 && w * h >= 16 * 4) {
				uint8_t *dec = jt_xmalloc(3 * (size_t)w * h);
				char err[100];

				jpgl_decode(frm, n, V4L2_PIX_FMT_RGB24, dec,
					    3 * (size_t)w * h, w, h, err,
					    sizeof(err));
				if (w % 16 == 0)
					printf("    %.2f dB from the image, "
					       "%.2f bits/pixel\n",
					       jt_psnr(dec, img,
						       3 * (size_t)w * h),
					       8.0 * n / ((double)w * h));
				free(dec);
			}
			free(frm);
		}
		free(img);
	}
}

/*
 * Widths with w % 16 == 8 (the original's scratch overflow aborts its
 * process there) and below 16: against the model only.
 */
static void model_only_widths(void)
{
	static const int sizes[][2] = { { 24, 8 }, { 40, 12 }, { 8, 4 },
					{ 4, 4 },  { 12, 8 },  { 56, 4 } };

	for (size_t i = 0; i < JT_ARRAY_SIZE(sizes); i++) {
		int w = sizes[i][0], h = sizes[i][1];
		uint8_t *img = jt_make_image(w, h, (unsigned)i + 50);
		struct v4lc_jpgl_enc o = { -1, 0, (uint32_t)i + 1 };
		size_t n;
		uint8_t *frm = v4lc_jpgl_encode(img, w, h, &o, &n);

		check_frame("encoder, model only", frm, n, w, h, 0, 1);
		for (int k = 0; k < 20; k++) {
			size_t rn = jt_rand() % (size_t)(w * h);
			uint8_t *r = jt_xmalloc(rn);

			for (size_t j = 0; j < rn; j++)
				r[j] = (uint8_t)jt_rand();
			check_frame("random, model only", r, rn, w, h, 0, 0);
			free(r);
		}
		free(frm);
		free(img);
	}
}

/* A random syntactically valid stream (aborts allowed). */
static uint8_t *crafted(int w, int h, int flavour, size_t *n)
{
	struct v4lc_jpgl_bw bw;
	int blocks = (w + 15) / 16 * 6 * (h / 4);
	long pred = 0;

	v4lc_jpgl_bw_init(&bw);
	for (int b = 0; b < blocks; b++) {
		int q = (int)(jt_rand() % 4), p = 0;

		if (flavour == 1 && b % ((w + 15) / 16 * 6) != 0 &&
		    jt_rand() % 8) {
			/* long differential chains: the predictor drifts */
			v4lc_jpgl_put_header(&bw, q, 1,
					     15 - (int)(jt_rand() % 3));
		} else if (jt_rand() % 2) {
			v4lc_jpgl_put_header(&bw, q, 1,
					     (int)(jt_rand() % 32) - 16);
		} else {
			v4lc_jpgl_put_header(&bw, q, 0,
					     (int)(jt_rand() % 256) - 128);
		}
		(void)pred;
		for (;;) {
			int k = (int)(jt_rand() % 10), run, amp, esc;

			if (k == 0 && flavour != 2)
				break;
			run = (int)(jt_rand() % (jt_rand() % 4 ? 3 : 16));
			esc = (int)(jt_rand() % 3);
			if (flavour == 1) {
				amp = (jt_rand() % 2 ? 31 : -31);
				esc = 1;
				run = (int)(jt_rand() % 3);
			} else if (esc == 1) {
				amp = (int)(jt_rand() % 63) - 31;
				run &= 7;
			} else if (esc == 2) {
				amp = (int)(jt_rand() % 31) - 15;
			} else {
				amp = (int)(jt_rand() % 21) - 10;
				if (!amp)
					amp = 1;
			}
			if (p + run + 1 > 15 && jt_rand() % 3) {
				/* end exactly, or abort */
				break;
			}
			if (v4lc_jpgl_put_ac(&bw, run, amp, esc) < 0)
				(void)v4lc_jpgl_put_ac(&bw, run & 7, amp / 3,
						       1);
			p += run + 1;
			if (p > 15)
				break; /* aborted: no EOB */
		}
		if (p <= 15)
			v4lc_jpgl_put_eob(&bw);
	}
	return v4lc_jpgl_bw_finish(&bw, jt_rand() % 3 ? 0 : 6, n);
}

static void random_frames(int rounds, int use_orig)
{
	static const int sizes[][2] = { { 16, 4 },    { 32, 8 },  { 64, 12 },
					{ 48, 8 },    { 160, 8 }, { 176, 144 },
					{ 32, 10 },   { 20, 4 },  { 28, 8 },
					{ 320, 240 }, { 64, 16 }, { 44, 12 } };
	long kinds[6] = { 0 };

	for (int i = 0; i < rounds; i++) {
		int si = (int)(jt_rand() % JT_ARRAY_SIZE(sizes));
		int w = sizes[si][0], h = sizes[si][1], kind = i % 6;
		size_t n = 0;
		uint8_t *frm;

		if (w * h > 20000 && i % 8)
			si = 0, w = 16, h = 4;
		switch (kind) {
		case 0: /* random bytes */
			n = jt_rand() % (w * h / 2 + 32);
			frm = jt_xmalloc(n);
			for (size_t k = 0; k < n; k++)
				frm[k] = (uint8_t)jt_rand();
			break;
		case 1: /* crafted, plain */
		case 2: /* crafted: DC drift and big ACs (int32 wrap) */
		case 3: /* crafted: no EOB unless aborted */
			frm = crafted(w, h, kind - 1, &n);
			break;
		default: { /* mutated / truncated encoder frames */
			uint8_t *img = jt_make_image(w, h, (unsigned)i);
			struct v4lc_jpgl_enc o = { -1, (int)(jt_rand() % 2),
						   jt_rand() };

			/* (the extra lines of an h % 4 != 0 frame: none) */
			frm = v4lc_jpgl_encode(img, w, h / 4 * 4, &o, &n);
			free(img);
			if (!frm || !n) {
				CHECK(0, "encoder failed at %dx%d", w, h);
				continue;
			}
			if (kind == 4) {
				for (int k = 0; k < 1 + (int)(jt_rand() % 8);
				     k++)
					frm[jt_rand() % n] ^=
						(uint8_t)(1u
							  << (jt_rand() % 8));
			} else {
				n = jt_rand() % (n + 1);
			}
			break;
		}
		}
		kinds[kind]++;
		check_frame("random", frm, n, w, h, use_orig, 0);
		free(frm);
	}
	printf("random frames: %ld random bytes, %ld crafted, %ld drift, %ld "
	       "no-EOB, %ld mutated, %ld truncated\n",
	       kinds[0], kinds[1], kinds[2], kinds[3], kinds[4], kinds[5]);
}

/* Truncation of a valid frame: -EPIPE exactly when bits are missing. */
static void truncated(int use_orig)
{
	int w = 176, h = 144;
	uint8_t *img = jt_make_image(w, h, 9);
	size_t n, dn = 3 * (size_t)w * h;
	uint8_t *frm = v4lc_jpgl_encode(img, w, h, NULL, &n);
	uint8_t *full = jt_xmalloc(dn), *cut = jt_xmalloc(dn);
	char err[200];
	int r, epipe = 0;

	r = jpgl_decode(frm, n, V4L2_PIX_FMT_RGB24, full, dn, w, h, err,
			sizeof(err));
	CHECK(r == 0, "whole frame: %d (%s)", r, err);
	for (size_t k = 1; k <= 8; k++) {
		r = jpgl_decode(frm, n - k, V4L2_PIX_FMT_RGB24, cut, dn, w, h,
				err, sizeof(err));
		/* the encoder pads to a word: the last byte may be padding */
		epipe += r == -EPIPE;
		CHECK(r == -EPIPE || (k == 1 && r == 0), "cut by %zu bytes: %d",
		      k, r);
	}
	CHECK(epipe >= 7, "only %d of 8 truncations reported", epipe);
	r = jpgl_decode(frm, 0, V4L2_PIX_FMT_RGB24, cut, dn, w, h, err,
			sizeof(err));
	CHECK(r == -EPIPE, "empty frame: %d", r);
	r = jpgl_decode(NULL, 0, V4L2_PIX_FMT_RGB24, cut, dn, w, h, err,
			sizeof(err));
	CHECK(r == -EPIPE, "NULL frame: %d", r);
	/* an empty frame is grey 130 (all zero bits) */
	for (size_t i = 0; i < dn; i++)
		if (cut[i] != 130) {
			CHECK(0, "empty frame: byte %zu is %u", i, cut[i]);
			break;
		}
	check_frame("truncated half", frm, n / 2, w, h, use_orig, 1);
	check_frame("truncated to 0", frm, 0, w, h, use_orig, 1);
	/* geometry */
	CHECK(jpgl_decode(frm, n, V4L2_PIX_FMT_RGB24, cut, dn, 174, 144, err,
			  sizeof(err)) == -EINVAL,
	      "width 174 accepted");
	CHECK(jpgl_decode(frm, n, V4L2_PIX_FMT_RGB24, cut, dn, 176, 3, err,
			  sizeof(err)) == -EINVAL,
	      "height 3 accepted");
	CHECK(jpgl_decode(frm, n, V4L2_PIX_FMT_RGB24, cut, dn - 1, 176, 144,
			  err, sizeof(err)) == -EFAULT,
	      "small destination accepted");
	CHECK(jpgl_decode(frm, n, V4L2_PIX_FMT_YUYV, cut, dn, 176, 144, err,
			  sizeof(err)) == -EINVAL,
	      "YUYV destination accepted");
	free(img);
	free(frm);
	free(full);
	free(cut);
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* MPix/s to RGB24: ours and the original alternating, medians. */
static void bench(int use_orig)
{
	enum { RUNS = 15, REPS = 20 };
	int w = 640, h = 480;
	uint8_t *img = jt_make_image(w, h, 3);
	size_t n, dn = 3 * (size_t)w * h, pad = 4 * (size_t)w * h + 64;
	uint8_t *frm = v4lc_jpgl_encode(img, w, h, NULL, &n);
	uint8_t *src = jt_xmalloc(n + pad), *dst = jt_xmalloc(dn);
	double t[2][RUNS];
	char err[100];
	struct v4l2_format sf, df;

	memcpy(src, frm, n);
	memset(src + n, 0, pad);
	memset(&sf, 0, sizeof(sf));
	memset(&df, 0, sizeof(df));
	sf.type = df.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	sf.fmt.pix.width = df.fmt.pix.width = (uint32_t)w;
	sf.fmt.pix.height = df.fmt.pix.height = (uint32_t)h;
	sf.fmt.pix.pixelformat = V4L2_PIX_FMT_JPGL;
	sf.fmt.pix.bytesperline = (uint32_t)w;
	sf.fmt.pix.sizeimage = (uint32_t)n;
	df.fmt.pix.pixelformat = V4L2_PIX_FMT_RGB24;
	df.fmt.pix.bytesperline = (uint32_t)w * 3;
	df.fmt.pix.sizeimage = (uint32_t)dn;
	for (int r = 0; r < RUNS; r++) {
		double t0 = now();

		for (int k = 0; k < REPS; k++)
			jpgl_decode(src, n, V4L2_PIX_FMT_RGB24, dst, dn, w, h,
				    err, sizeof(err));
		t[0][r] = now() - t0;
		t0 = now();
		if (use_orig)
			for (int k = 0; k < REPS; k++)
				olib.convert(cv, &sf, &df, src, (int)n, dst,
					     (int)dn);
		t[1][r] = now() - t0;
	}
	qsort(t[0], RUNS, sizeof(double), cmp_double);
	qsort(t[1], RUNS, sizeof(double), cmp_double);
	printf("640x480 JPGL -> RGB24 (%.2f bits/pixel): ours %.1f MPix/s",
	       8.0 * n / (w * h), (double)w * h * REPS / t[0][RUNS / 2] / 1e6);
	if (use_orig)
		printf(", original %.1f MPix/s",
		       (double)w * h * REPS / t[1][RUNS / 2] / 1e6);
	printf(" (process CPU time, medians of %d runs of %d frames)\n", RUNS,
	       REPS);
	free(img);
	free(frm);
	free(src);
	free(dst);
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 3000;
	int use_orig;

	cv = origlib_open_plain(&olib, 0);
	use_orig = cv != NULL;
	encoder_frames(use_orig);
	model_only_widths();
	truncated(use_orig);
	random_frames(use_orig ? rounds : rounds / 10, use_orig);
	if (getenv("CHIPJPEG_BENCH"))
		bench(use_orig);
	if (use_orig) {
		printf("compared with the original: %ld frames, %ld "
		       "identical\n",
		       compared, identical);
		olib.destroy(cv);
		origlib_close(&olib);
	}
	if (failures)
		fprintf(stderr, "%d failure(s)\n", failures);
	return failures ? 1 : use_orig ? 0 : 77;
}
