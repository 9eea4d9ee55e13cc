/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The YUV layout sources of src_yuv.c (NV16, NV61, YUV422P, M420, HM12,
 * NV24, NV42) through the public v4lconvert_convert, into all four
 * destinations, at odd sizes and with padded source and destination lines:
 *  - RGB24/BGR24 must be identical to the same samples converted from a
 *    plain format our frame layer handles (4:2:2 -> YUYV, 4:2:0 -> YU12,
 *    4:4:4 -> YUYV of twice the width with every pixel doubled);
 *  - YU12/YV12 must hold the luma unchanged and the chroma computed here
 *    (4:2:2: (a + b + 1) >> 1 of rows 2k, 2k + 1; 4:4:4: rounded 2x2 mean);
 *  - bytes after the destination stay untouched; a frame one byte short
 *    fails with EPIPE; HM12 sizes that are not multiples of 16 fail with
 *    EINVAL.
 * Then a differential check of NV16, NV61, M420 and HM12 -> YU12 against
 * the distribution's libv4lconvert (skipped when absent, or under
 * AddressSanitizer, which refuses the RTLD_DEEPBIND that keeps the
 * original's symbols away from ours).
 * --bench: MPix/s at 1280x720 of ours (the tier LIBV4LCONVERT_SIMD picks)
 * and of the original.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libv4l-plugin.h>
#include <libv4lconvert.h>

#include "../common/fakedev.h"
#include "../common/origlib.h"
#include "../common/check.h"
#include "../common/fourcc.h"
#include "../common/rng.h"

static uint32_t rng = 0x9e3779b9u;

static uint8_t rnd8(void)
{
	return (uint8_t)(xorshift32(&rng) >> 11);
}

static void fill(uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = rnd8();
}

/* The samples of a picture, chroma at the format's own resolution. */
struct pic {
	int w, h, cw, chh; /* chroma columns and rows */
	uint8_t *y, *u, *v;
};

enum sub { S422, S420, S444 };

static enum sub sub_of(uint32_t f)
{
	switch (f) {
	case V4L2_PIX_FMT_M420:
	case V4L2_PIX_FMT_NV12_16L16:
		return S420;
	case V4L2_PIX_FMT_NV24:
	case V4L2_PIX_FMT_NV42:
		return S444;
	default:
		return S422;
	}
}

static void pic_new(struct pic *p, enum sub s, int w, int h, int extremes)
{
	p->w = w;
	p->h = h;
	p->cw = s == S444 ? w : (w + 1) / 2;
	p->chh = s == S420 ? (h + 1) / 2 : h;
	p->y = malloc((size_t)w * h);
	p->u = malloc((size_t)p->cw * p->chh);
	p->v = malloc((size_t)p->cw * p->chh);
	fill(p->y, (size_t)w * h);
	fill(p->u, (size_t)p->cw * p->chh);
	fill(p->v, (size_t)p->cw * p->chh);
	if (extremes)
		for (int i = 0; i < w * h; i += 3) {
			p->y[i] = (rng & 1) ? 0 : 255;
			p->u[i % (p->cw * p->chh)] = (rng & 2) ? 0 : 255;
			p->v[(i * 7) % (p->cw * p->chh)] = (rng & 4) ? 0 : 255;
			rnd8();
		}
}

static void pic_free(struct pic *p)
{
	free(p->y);
	free(p->u);
	free(p->v);
}

static int min_stride(uint32_t f, int w)
{
	switch (f) {
	case V4L2_PIX_FMT_NV16:
	case V4L2_PIX_FMT_NV61:
	case V4L2_PIX_FMT_M420:
		return w + (w & 1);
	default:
		return w;
	}
}

/* Lay the picture out in format f with luma stride s; returns the bytes. */
static uint8_t *build(uint32_t f, const struct pic *p, int s, size_t *size)
{
	size_t w = (size_t)p->w, h = (size_t)p->h, n;
	int swap = f == V4L2_PIX_FMT_NV61 || f == V4L2_PIX_FMT_NV42;
	uint8_t *b;

	switch (f) {
	case V4L2_PIX_FMT_NV16:
	case V4L2_PIX_FMT_NV61:
		n = 2 * (size_t)s * h;
		break;
	case V4L2_PIX_FMT_YUV422P:
		n = (size_t)s * h + 2 * (size_t)((s + 1) / 2) * h;
		break;
	case V4L2_PIX_FMT_M420:
		n = (size_t)s * (h + (h + 1) / 2);
		break;
	case V4L2_PIX_FMT_NV12_16L16:
		/* a partial last chroma tile row keeps the 256-byte spacing */
		n = w * h + w * (h / 2);
		if (h / 2 % 16)
			n = w * h + w * (h / 2 - h / 2 % 16) +
			    (w / 16 - 1) * 256 + h / 2 % 16 * 16;
		break;
	default: /* NV24, NV42 */
		n = 3 * (size_t)s * h;
		break;
	}
	b = malloc(n);
	fill(b, n); /* padding holds noise */
	*size = n;
	switch (f) {
	case V4L2_PIX_FMT_NV16:
	case V4L2_PIX_FMT_NV61:
	case V4L2_PIX_FMT_NV24:
	case V4L2_PIX_FMT_NV42: {
		size_t cs = f == V4L2_PIX_FMT_NV24 || f == V4L2_PIX_FMT_NV42
				    ? 2 * (size_t)s
				    : (size_t)s;
		uint8_t *c = b + (size_t)s * h;

		for (size_t y = 0; y < h; y++) {
			memcpy(b + y * s, p->y + y * w, w);
			for (int x = 0; x < p->cw; x++) {
				c[y * cs + 2 * x + swap] = p->u[y * p->cw + x];
				c[y * cs + 2 * x + !swap] = p->v[y * p->cw + x];
			}
		}
		break;
	}
	case V4L2_PIX_FMT_YUV422P: {
		size_t cs = (size_t)((s + 1) / 2);
		uint8_t *u = b + (size_t)s * h, *v = u + cs * h;

		for (size_t y = 0; y < h; y++) {
			memcpy(b + y * s, p->y + y * w, w);
			memcpy(u + y * cs, p->u + y * p->cw, (size_t)p->cw);
			memcpy(v + y * cs, p->v + y * p->cw, (size_t)p->cw);
		}
		break;
	}
	case V4L2_PIX_FMT_M420:
		for (size_t y = 0; y < h; y++) {
			size_t g = y / 2 * 3 * (size_t)s;

			memcpy(b + g + (y & 1) * s, p->y + y * w, w);
			if ((y & 1) || y + 1 == h) {
				uint8_t *c =
					b + g + ((y & 1) ? 2 : 1) * (size_t)s;

				for (int x = 0; x < p->cw; x++) {
					c[2 * x] = p->u[y / 2 * p->cw + x];
					c[2 * x + 1] = p->v[y / 2 * p->cw + x];
				}
			}
		}
		break;
	case V4L2_PIX_FMT_NV12_16L16: {
		/* Tiles of 16x16 bytes (chroma: 8 U,V pairs by 16 lines). */
		uint8_t *c = b + w * h;

		for (size_t y = 0; y < h; y++)
			for (size_t x = 0; x < w; x++) {
				size_t t = (y / 16) * (w / 16) + x / 16;

				b[t * 256 + (y % 16) * 16 + x % 16] =
					p->y[y * w + x];
			}
		for (size_t y = 0; y < h / 2; y++)
			for (size_t x = 0; x < w; x++) {
				size_t t = (y / 16) * (w / 16) + x / 16;
				const uint8_t *pl = x & 1 ? p->v : p->u;

				c[t * 256 + (y % 16) * 16 + x % 16] =
					pl[y * p->cw + x / 2];
			}
		break;
	}
	}
	return b;
}

/*
 * The plain-format twin: YUYV (4:2:2), YU12 (4:2:0), or YUYV of width 2w
 * with each pixel doubled (4:4:4). Minimal strides.
 */
static uint8_t *build_twin(const struct pic *p, enum sub s, uint32_t *fourcc,
			   int *tw, size_t *size)
{
	size_t w = (size_t)p->w, h = (size_t)p->h;
	uint8_t *b;

	if (s == S420) {
		size_t cw = (size_t)p->cw, ch = (size_t)p->chh;

		*fourcc = V4L2_PIX_FMT_YUV420;
		*tw = p->w;
		*size = w * h + 2 * cw * ch;
		b = malloc(*size);
		memcpy(b, p->y, w * h);
		memcpy(b + w * h, p->u, cw * ch);
		memcpy(b + w * h + cw * ch, p->v, cw * ch);
		return b;
	}
	*fourcc = V4L2_PIX_FMT_YUYV;
	if (s == S422) {
		size_t rs = 4 * (size_t)p->cw;

		*tw = p->w;
		*size = rs * h;
		b = malloc(*size);
		for (size_t y = 0; y < h; y++)
			for (int x = 0; x < p->cw; x++) {
				uint8_t *q = b + y * rs + 4 * x;

				q[0] = p->y[y * w + 2 * x];
				q[1] = p->u[y * p->cw + x];
				q[2] = 2 * (size_t)x + 1 < w
					       ? p->y[y * w + 2 * x + 1]
					       : 77;
				q[3] = p->v[y * p->cw + x];
			}
		return b;
	}
	*tw = 2 * p->w;
	*size = 4 * w * h;
	b = malloc(*size);
	for (size_t y = 0; y < h; y++)
		for (size_t x = 0; x < w; x++) {
			uint8_t *q = b + 4 * (y * w + x);

			q[0] = q[2] = p->y[y * w + x];
			q[1] = p->u[y * w + x];
			q[3] = p->v[y * w + x];
		}
	return b;
}

static struct v4l2_format fmt(uint32_t f, int w, int h, int bpl, uint32_t cs)
{
	struct v4l2_format v;

	memset(&v, 0, sizeof(v));
	v.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	v.fmt.pix.pixelformat = f;
	v.fmt.pix.width = (uint32_t)w;
	v.fmt.pix.height = (uint32_t)h;
	v.fmt.pix.bytesperline = (uint32_t)bpl;
	v.fmt.pix.field = V4L2_FIELD_NONE;
	v.fmt.pix.colorspace = cs;
	return v;
}

static int is_rgb(uint32_t f)
{
	return f == V4L2_PIX_FMT_RGB24 || f == V4L2_PIX_FMT_BGR24;
}

static size_t dst_bytes(uint32_t f, int h, int stride)
{
	if (is_rgb(f))
		return (size_t)stride * h;
	return (size_t)stride * h +
	       2 * (size_t)((stride + 1) / 2) * ((h + 1) / 2);
}

/* The expected 4:2:0 chroma sample (bx, by) of plane pl (0 = U). */
static int want_chroma(const struct pic *p, enum sub s, int pl, int bx, int by)
{
	const uint8_t *c = pl ? p->v : p->u;

	if (s == S420)
		return c[by * p->cw + bx];
	if (s == S422) {
		int r0 = 2 * by, r1 = r0 + 1 < p->h ? r0 + 1 : r0;

		return (c[r0 * p->cw + bx] + c[r1 * p->cw + bx] + 1) >> 1;
	} else {
		int r0 = 2 * by, r1 = r0 + 1 < p->h ? r0 + 1 : r0;
		int x0 = 2 * bx, x1 = x0 + 1 < p->w ? x0 + 1 : x0;

		return (c[r0 * p->w + x0] + c[r0 * p->w + x1] +
			c[r1 * p->w + x0] + c[r1 * p->w + x1] + 2) >>
		       2;
	}
}

static const uint32_t dsts[4] = { V4L2_PIX_FMT_RGB24, V4L2_PIX_FMT_BGR24,
				  V4L2_PIX_FMT_YUV420, V4L2_PIX_FMT_YVU420 };

static void test_one(struct v4lconvert_data *cv, uint32_t f, int w, int h,
		     int pad, uint32_t colorspace)
{
	enum sub s = sub_of(f);
	struct pic p;
	int ms = min_stride(f, w);
	int bpl = pad == 0 ? 0 : pad == 1 ? ms : ms + 13;
	size_t ssize, tsize;
	uint32_t tf;
	int tw;
	uint8_t *src, *twin;

	if (f == V4L2_PIX_FMT_NV12_16L16)
		bpl = pad == 2 ? w + 32 : bpl; /* ignored by the format */
	pic_new(&p, s, w, h, pad == 1);
	src = build(f, &p, f == V4L2_PIX_FMT_NV12_16L16 || !bpl ? ms : bpl,
		    &ssize);
	twin = build_twin(&p, s, &tf, &tw, &tsize);

	for (int d = 0; d < 4; d++) {
		uint32_t df = dsts[d];
		int dmin = is_rgb(df) ? 3 * w : w;
		int ds = pad == 2 ? dmin + 5 : dmin;
		size_t dsize = dst_bytes(df, h, ds);
		uint8_t *out = malloc(dsize + 64);
		struct v4l2_format sf = fmt(f, w, h, bpl, colorspace);
		struct v4l2_format dfm = fmt(df, w, h, pad == 2 ? ds : 0, 0);
		char what[96];
		int ret;

		snprintf(what, sizeof(what), "%s %dx%d pad %d cs %u -> %s",
			 FOURCC_STR(f), w, h, pad, colorspace, FOURCC_STR(df));
		memset(out, 0xa5, dsize + 64);
		ret = v4lconvert_convert(cv, &sf, &dfm, src, (int)ssize, out,
					 (int)dsize + 64);
		CHECK(ret == (int)dsize, "%s: returned %d (%s), want %zu", what,
		      ret, v4lconvert_get_error_message(cv), dsize);
		for (int i = 0; i < 64; i++)
			if (out[dsize + i] != 0xa5) {
				CHECK(0, "%s: guard byte %d written", what, i);
				break;
			}
		if (ret == (int)dsize && is_rgb(df)) {
			/* The twin through our plain-format path. */
			int rs = 3 * tw;
			uint8_t *ref = malloc((size_t)rs * h);
			struct v4l2_format tsf = fmt(tf, tw, h, 0, colorspace);
			struct v4l2_format tdf = fmt(df, tw, h, 0, 0);
			int r2 = v4lconvert_convert(cv, &tsf, &tdf, twin,
						    (int)tsize, ref, rs * h);
			int bad = 0, step = s == S444 ? 6 : 3;

			CHECK(r2 == rs * h, "%s: twin %s returned %d", what,
			      FOURCC_STR(tf), r2);
			for (int y = 0; y < h && r2 == rs * h; y++)
				for (int x = 0; x < w; x++)
					for (int c = 0; c < 3; c++)
						if (out[(size_t)y * ds + 3 * x +
							c] !=
							    ref[(size_t)y * rs +
								step * x + c] &&
						    !bad++)
							CHECK(0,
							      "%s: pixel %d,%d ch %d: %d, %s gives %d",
							      what, x, y, c,
							      out[(size_t)y *
									  ds +
								  3 * x + c],
							      FOURCC_STR(tf),
							      ref[(size_t)y *
									  rs +
								  step * x +
								  c]);
			free(ref);
		} else if (ret == (int)dsize) {
			int cs = (ds + 1) / 2, ch = (h + 1) / 2, bad = 0;
			const uint8_t *pu = out + (size_t)ds * h;
			const uint8_t *pv = pu + (size_t)cs * ch;

			if (df == V4L2_PIX_FMT_YVU420) {
				const uint8_t *t = pu;

				pu = pv;
				pv = t;
			}
			for (int y = 0; y < h; y++)
				for (int x = 0; x < w; x++)
					if (out[(size_t)y * ds + x] !=
						    p.y[(size_t)y * w + x] &&
					    !bad++)
						CHECK(0, "%s: Y at %d,%d", what,
						      x, y);
			for (int by = 0; by < ch; by++)
				for (int bx = 0; bx < (w + 1) / 2; bx++) {
					int eu = want_chroma(&p, s, 0, bx, by);
					int ev = want_chroma(&p, s, 1, bx, by);
					int ou = pu[(size_t)by * cs + bx];
					int ov = pv[(size_t)by * cs + bx];

					if ((ou != eu || ov != ev) && !bad++)
						CHECK(0,
						      "%s: UV at %d,%d: %d,%d want %d,%d",
						      what, bx, by, ou, ov, eu,
						      ev);
				}
		}
		/* One byte short. */
		errno = 0;
		ret = v4lconvert_convert(cv, &sf, &dfm, src, (int)ssize - 1,
					 out, (int)dsize + 64);
		CHECK(ret == -1 && errno == EPIPE,
		      "%s: short frame gave %d errno %d", what, ret, errno);
		free(out);
	}
	free(src);
	free(twin);
	pic_free(&p);
}

static const uint32_t formats[] = {
	V4L2_PIX_FMT_NV16, V4L2_PIX_FMT_NV61,       V4L2_PIX_FMT_YUV422P,
	V4L2_PIX_FMT_M420, V4L2_PIX_FMT_NV12_16L16, V4L2_PIX_FMT_NV24,
	V4L2_PIX_FMT_NV42,
};
#define NFORMATS (sizeof(formats) / sizeof(formats[0]))

static void test_all(struct v4lconvert_data *cv)
{
	static const int sizes[][2] = { { 1, 1 },   { 2, 2 },   { 3, 3 },
					{ 5, 1 },   { 1, 6 },   { 7, 5 },
					{ 16, 2 },  { 33, 17 }, { 64, 9 },
					{ 130, 3 }, { 97, 31 } };
	static const int tiled[][2] = { { 16, 16 },   { 32, 16 },  { 48, 32 },
					{ 16, 48 },   { 720, 64 }, { 1040, 32 },
					{ 720, 240 }, { 64, 80 } };
	static const uint32_t spaces[] = { 0, V4L2_COLORSPACE_REC709,
					   V4L2_COLORSPACE_JPEG };

	for (size_t fi = 0; fi < NFORMATS; fi++) {
		int hm = formats[fi] == V4L2_PIX_FMT_NV12_16L16;
		size_t n = hm ? sizeof(tiled) / sizeof(tiled[0])
			      : sizeof(sizes) / sizeof(sizes[0]);

		for (size_t si = 0; si < n; si++)
			for (int pad = 0; pad < 3; pad++)
				test_one(cv, formats[fi],
					 hm ? tiled[si][0] : sizes[si][0],
					 hm ? tiled[si][1] : sizes[si][1], pad,
					 spaces[(si + pad) % 3]);
	}

	/* HM12 geometry that is not whole tiles. */
	{
		static const int bad[][2] = {
			{ 8, 16 }, { 16, 8 }, { 17, 16 }, { 720, 30 }
		};
		static uint8_t buf[720 * 32 * 3], out[720 * 32 * 3];

		for (size_t i = 0; i < 4; i++) {
			struct v4l2_format sf = fmt(V4L2_PIX_FMT_NV12_16L16,
						    bad[i][0], bad[i][1], 0, 0);
			struct v4l2_format df = fmt(V4L2_PIX_FMT_RGB24,
						    bad[i][0], bad[i][1], 0, 0);
			int ret;

			errno = 0;
			ret = v4lconvert_convert(cv, &sf, &df, buf, sizeof(buf),
						 out, sizeof(out));
			CHECK(ret == -1 && errno == EINVAL,
			      "HM12 %dx%d gave %d errno %d", bad[i][0],
			      bad[i][1], ret, errno);
		}
	}
}

/* ---- the distribution's library ---- */

typedef int convert_fn(void *, const struct v4l2_format *,
		       const struct v4l2_format *, unsigned char *, int,
		       unsigned char *, int);

/*
 * Compare with the original: luma must match; chroma either matches
 * exactly, or the original took one row of each pair (even rows) where we
 * average, which is then reported and ours must be the average.
 */
static void diff_one(struct v4lconvert_data *cv, struct origlib *o,
		     struct v4lconvert_data *od, uint32_t f, int w, int h,
		     uint32_t df)
{
	enum sub s = sub_of(f);
	struct pic p;
	size_t ssize, dsize = dst_bytes(df, h, w);
	int ms = min_stride(f, w);
	uint8_t *src, *ours = malloc(dsize), *theirs = malloc(dsize);
	struct v4l2_format sf = fmt(f, w, h, ms, 0), dfm = fmt(df, w, h, w, 0);
	int a, b, cs = (w + 1) / 2, ch = (h + 1) / 2, same = 0, dropped = 0,
		  truncated = 0, averaged = 0, lbad = 0;

	pic_new(&p, s, w, h, 0);
	src = build(f, &p, ms, &ssize);
	a = v4lconvert_convert(cv, &sf, &dfm, src, (int)ssize, ours,
			       (int)dsize);
	sf = fmt(f, w, h, ms, 0);
	dfm = fmt(df, w, h, w, 0);
	b = o->convert(od, &sf, &dfm, src, (int)ssize, theirs, (int)dsize);
	CHECK(a == (int)dsize && b == (int)dsize,
	      "diff %s %dx%d: ours %d, original %d", FOURCC_STR(f), w, h, a, b);
	if (a == (int)dsize && b == (int)dsize) {
		for (size_t i = 0; i < (size_t)w * h; i++)
			lbad += ours[i] != theirs[i];
		CHECK(!lbad, "diff %s %dx%d -> %s: %d luma bytes differ",
		      FOURCC_STR(f), w, h, FOURCC_STR(df), lbad);
		for (int pl = 0; pl < 2; pl++) {
			/* plane index in the output: YV12 stores V first */
			int out_pl = df == V4L2_PIX_FMT_YVU420 ? !pl : pl;
			size_t off = (size_t)w * h + (size_t)out_pl * cs * ch;
			const uint8_t *c = pl ? p.v : p.u;

			for (int by = 0; by < ch; by++)
				for (int bx = 0; bx < cs; bx++) {
					size_t i = off + (size_t)by * cs + bx;
					int even =
						s == S422
							? c[2 * by * p.cw + bx]
							: -1;
					int odd = s == S422 && 2 * by + 1 < h
							  ? c[(2 * by + 1) *
								      p.cw +
							      bx]
							  : even;

					same += ours[i] == theirs[i];
					dropped += theirs[i] == even;
					truncated +=
						theirs[i] == (even + odd) >> 1;
					averaged +=
						ours[i] ==
						want_chroma(&p, s, pl, bx, by);
				}
		}
		{
			int n = 2 * cs * ch;

			CHECK(averaged == n,
			      "diff %s: ours not the exact chroma",
			      FOURCC_STR(f));
			if (same == n)
				printf("diff %s %dx%d -> %s: identical to the original\n",
				       FOURCC_STR(f), w, h, FOURCC_STR(df));
			else if (dropped == n)
				printf("diff %s %dx%d -> %s: luma identical; the original "
				       "keeps the chroma of even rows only, ours averages "
				       "row pairs (%d of %d chroma bytes differ)\n",
				       FOURCC_STR(f), w, h, FOURCC_STR(df),
				       n - same, n);
			else if (truncated == n)
				printf("diff %s %dx%d -> %s: luma identical; the original "
				       "averages row pairs rounding down, (a + b) >> 1, ours "
				       "rounds, (a + b + 1) >> 1 (%d of %d chroma bytes "
				       "differ, by 1)\n",
				       FOURCC_STR(f), w, h, FOURCC_STR(df),
				       n - same, n);
			else
				CHECK(0,
				      "diff %s %dx%d -> %s: chroma differs from the "
				      "original in %d of %d bytes, and not as a dropped row",
				      FOURCC_STR(f), w, h, FOURCC_STR(df),
				      n - same, n);
		}
	}
	free(src);
	free(ours);
	free(theirs);
	pic_free(&p);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmpd(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double bench_one(convert_fn *fn, void *data, uint32_t f, uint32_t df)
{
	enum { W = 1280, H = 720, RUNS = 41 };
	struct pic p;
	size_t ssize;
	uint8_t *src, *dst = malloc((size_t)W * H * 3);
	double t[RUNS];

	pic_new(&p, sub_of(f), W, H, 0);
	src = build(f, &p, min_stride(f, W), &ssize);
	for (int i = 0; i < RUNS + 2; i++) {
		struct v4l2_format sf = fmt(f, W, H, 0, 0),
				   dfm = fmt(df, W, H, 0, 0);
		double t0 = now_s();

		int r = fn(data, &sf, &dfm, src, (int)ssize, dst, W * H * 3);

		if (r <= 0) {
			free(src);
			free(dst);
			pic_free(&p);
			return 0; /* unsupported: no figure */
		}
		if (i >= 2)
			t[i - 2] = now_s() - t0;
	}
	qsort(t, RUNS, sizeof(t[0]), cmpd);
	free(src);
	free(dst);
	pic_free(&p);
	return (double)W * H / t[RUNS / 2] / 1e6;
}

int main(int argc, char **argv)
{
	struct fakedev dev = {
		.driver = "fakedev",
		.n_formats = 1,
		.formats = { { V4L2_PIX_FMT_NV16, 1, { { 640, 480 } } } },
	};
	struct v4lconvert_data *cv =
		v4lconvert_create_with_dev_ops(3, &dev, &fakedev_ops);
	int bench = argc > 1 && !strcmp(argv[1], "--bench");

	setvbuf(stdout, NULL, _IONBF, 0);
	struct origlib o;
	struct v4lconvert_data *od;

	if (!cv) {
		printf("FAIL: create_with_dev_ops\n");
		return 1;
	}
	if (!bench)
		test_all(cv);

	od = origlib_open_plain(&o, ORIGLIB_LINKED_WITH_OURS);
	if (od) {
		static const uint32_t dfs[] = { V4L2_PIX_FMT_NV16,
						V4L2_PIX_FMT_NV61,
						V4L2_PIX_FMT_M420,
						V4L2_PIX_FMT_NV12_16L16 };
		static const int sz[][2] = { { 64, 48 },
					     { 320, 240 },
					     { 720, 480 } };
		static const int hm[][2] = { { 720, 480 },
					     { 720, 576 },
					     { 720, 48 } };

		for (size_t i = 0; i < 4 && !bench; i++)
			for (size_t k = 0; k < 3; k++) {
				const int *z = dfs[i] == V4L2_PIX_FMT_NV12_16L16
						       ? hm[k]
						       : sz[k];

				diff_one(cv, &o, od, dfs[i], z[0], z[1],
					 V4L2_PIX_FMT_YUV420);
				diff_one(cv, &o, od, dfs[i], z[0], z[1],
					 V4L2_PIX_FMT_YVU420);
			}
	}
	if (bench) {
		static const uint32_t pairs[][2] = {
			{ V4L2_PIX_FMT_NV16, V4L2_PIX_FMT_RGB24 },
			{ V4L2_PIX_FMT_M420, V4L2_PIX_FMT_YUV420 },
			{ V4L2_PIX_FMT_NV12_16L16, V4L2_PIX_FMT_YUV420 },
			{ V4L2_PIX_FMT_YUV422P, V4L2_PIX_FMT_YUV420 },
			{ V4L2_PIX_FMT_NV16, V4L2_PIX_FMT_YUV420 },
		};
		const char *tier = getenv("LIBV4LCONVERT_SIMD");

		for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
			double a = bench_one((convert_fn *)(void *)
						     v4lconvert_convert,
					     cv, pairs[i][0], pairs[i][1]);
			double b =
				od ? bench_one((convert_fn *)(void *)o.convert,
					       od, pairs[i][0], pairs[i][1])
				   : 0;

			printf("bench %s -> %s 1280x720: ours (%s) %.0f MPix/s, "
			       "original %.0f MPix/s\n",
			       FOURCC_STR(pairs[i][0]), FOURCC_STR(pairs[i][1]),
			       tier ? tier : "best", a, b);
		}
	}
	if (od)
		o.destroy(od); /* not dlclosed, as before */
	v4lconvert_destroy(cv);
	printf("%s: %d failures\n", __FILE__, failures);
	return failures ? 1 : 0;
}
