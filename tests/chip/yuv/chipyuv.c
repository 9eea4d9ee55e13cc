/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The chip YUV 4:2:0 sources (S501, S505, S508, CITV, KONI, S920) through
 * the public v4lconvert_convert, into all four destinations.
 *  - A test encoder (src/vcam/chipenc.c, shared with the virtual camera)
 *    lays a known YUV 4:2:0 picture out in each format (the layouts as
 *    described in src/libv4lconvert/src_chipyuv.c, written independently). YU12/YV12 output must be that picture; RGB24/BGR24
 *    must equal our YU12 -> RGB24/BGR24 of the same picture. Destination
 *    strides, guard bytes after the destination.
 *  - A frame one byte short, half a frame and an empty frame fail with
 *    EPIPE; odd sizes (and S920 sizes that are not whole 16x8 blocks) with
 *    EINVAL.
 *  - Differential, against the distribution's libv4lconvert (skipped when
 *    it cannot be loaded, and under AddressSanitizer, which refuses the
 *    RTLD_DEEPBIND that keeps its symbols apart from ours), at the sizes of
 *    the cameras (multiples of 16): on encoded and on random frames our
 *    YU12 and YV12 output must be identical to the original's; its
 *    RGB24/BGR24 must be its own YU12 -> RGB of that same picture (so that
 *    the only difference is the colour maths), and ours may differ from
 *    it by at most MAX_RGB_DIFF per channel.
 * Without arguments: the self-checks; --diff: the differential part (exit
 * 77 when the original cannot be loaded).
 * --bench: MPix/s at 640x480, ours (the tier LIBV4LCONVERT_SIMD picks) and
 * the original, to YU12 and to RGB24.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libv4l-plugin.h>
#include <libv4lconvert.h>

#include "../../common/fakedev.h"
#include "../../common/origlib.h"
#include "vcam/chipenc.h"
#include "../../common/check.h"
#include "../../common/rng.h"
#include "../../common/fourcc.h"

/*
 * The original's YUV -> RGB keeps luma as is (Y 16..235 gives 16..235),
 * ours expands the limited range (BT.601: 16..235 -> 0..255): they differ
 * by up to about 24 per channel, more where chroma saturates.
 */
#define MAX_RGB_DIFF 48

static uint32_t rng = 0x2545f491u;

static uint8_t rnd8(void)
{
	return (uint8_t)(xorshift32(&rng) >> 11);
}

static void fill(uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = rnd8();
}

static const uint32_t formats[] = {
	V4L2_PIX_FMT_SPCA501,   V4L2_PIX_FMT_SPCA505,
	V4L2_PIX_FMT_SPCA508,   V4L2_PIX_FMT_CIT_YYVYUY,
	V4L2_PIX_FMT_KONICA420, V4L2_PIX_FMT_SN9C20X_I420,
};
#define NFORMATS (sizeof(formats) / sizeof(formats[0]))

static const uint32_t dsts[4] = { V4L2_PIX_FMT_RGB24, V4L2_PIX_FMT_BGR24,
				  V4L2_PIX_FMT_YUV420, V4L2_PIX_FMT_YVU420 };

/* A YUV 4:2:0 picture: contiguous YU12 with minimal strides. */
struct pic {
	int w, h;
	uint8_t *buf, *y, *u, *v;
	size_t size;
};

static void pic_new(struct pic *p, int w, int h, int kind)
{
	size_t n = (size_t)w * h, c = n / 4;

	p->w = w;
	p->h = h;
	p->size = n + 2 * c;
	p->buf = malloc(p->size);
	p->y = p->buf;
	p->u = p->y + n;
	p->v = p->u + c;
	if (kind == 0) {
		fill(p->buf, p->size);
		return;
	}
	/* smooth ramps with the extremes 0 and 255 */
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++)
			p->y[(size_t)y * w + x] =
				(uint8_t)((x * 7 + y * 3) & 0xff);
	for (int y = 0; y < h / 2; y++)
		for (int x = 0; x < w / 2; x++) {
			p->u[(size_t)y * (w / 2) + x] =
				(uint8_t)(x * 255 / (w / 2));
			p->v[(size_t)y * (w / 2) + x] =
				(uint8_t)(255 - y * 255 / (h / 2));
		}
}

static void pic_free(struct pic *p)
{
	free(p->buf);
}

/* Lay the picture out as format f (w * h * 3 / 2 bytes), by the encoder
 * the virtual camera uses (src/vcam/chipenc.c). */
static uint8_t *encode(uint32_t f, const struct pic *p, size_t *size)
{
	size_t n = (size_t)p->w * p->h * 3 / 2;
	uint8_t *b = malloc(n);
	int r = v4lc_chipenc_yuv(f, p->buf, p->w, p->h, b, n);

	CHECK(r == (int)n, "encoder %.4s %dx%d: %d", (const char *)&f, p->w,
	      p->h, r);
	*size = n;
	return b;
}

static struct v4l2_format fmt(uint32_t f, int w, int h, int bpl)
{
	struct v4l2_format v;

	memset(&v, 0, sizeof(v));
	v.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	v.fmt.pix.pixelformat = f;
	v.fmt.pix.width = (uint32_t)w;
	v.fmt.pix.height = (uint32_t)h;
	v.fmt.pix.bytesperline = (uint32_t)bpl;
	v.fmt.pix.field = V4L2_FIELD_NONE;
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

typedef int convert_fn(void *, const struct v4l2_format *,
		       const struct v4l2_format *, unsigned char *, int,
		       unsigned char *, int);

/* Convert with minimal destination strides; returns the call's result. */
static int run(convert_fn *fn, void *cv, uint32_t f, int w, int h,
	       const uint8_t *src, size_t n, uint32_t df, uint8_t *out)
{
	struct v4l2_format sf = fmt(f, w, h, 0), dfm = fmt(df, w, h, 0);

	return fn(cv, &sf, &dfm, (unsigned char *)src, (int)n, out,
		  (int)dst_bytes(df, h, is_rgb(df) ? 3 * w : w));
}

#define OURS ((convert_fn *)(void *)v4lconvert_convert)

static void test_one(struct v4lconvert_data *cv, uint32_t f, int w, int h,
		     int kind, int pad)
{
	struct pic p;
	size_t n;
	uint8_t *src, *ref_rgb = malloc((size_t)w * h * 3);
	int r;

	pic_new(&p, w, h, kind);
	src = encode(f, &p, &n);
	r = run(OURS, cv, V4L2_PIX_FMT_YUV420, w, h, p.buf, p.size,
		V4L2_PIX_FMT_RGB24, ref_rgb);
	CHECK(r == w * h * 3, "YU12 -> RGB3 %dx%d: %d", w, h, r);

	for (int d = 0; d < 4; d++) {
		uint32_t df = dsts[d];
		int dmin = is_rgb(df) ? 3 * w : w;
		int ds = pad ? dmin + 6 : dmin;
		size_t dsize = dst_bytes(df, h, ds);
		uint8_t *out = malloc(dsize + 64);
		struct v4l2_format sf = fmt(f, w, h, pad ? w + 16 : 0);
		struct v4l2_format dfm = fmt(df, w, h, pad ? ds : 0);
		char what[80];
		int ret, bad = 0;

		snprintf(what, sizeof(what), "%s %dx%d kind %d pad %d -> %s",
			 FOURCC_STR(f), w, h, kind, pad, FOURCC_STR(df));
		memset(out, 0xa5, dsize + 64);
		ret = v4lconvert_convert(cv, &sf, &dfm, src, (int)n, out,
					 (int)dsize + 64);
		CHECK(ret == (int)dsize, "%s: returned %d (%s), want %zu", what,
		      ret, v4lconvert_get_error_message(cv), dsize);
		for (int i = 0; i < 64; i++)
			if (out[dsize + i] != 0xa5) {
				CHECK(0, "%s: guard byte %d written", what, i);
				break;
			}
		if (ret == (int)dsize && is_rgb(df)) {
			int sw = df == V4L2_PIX_FMT_BGR24;

			for (int y = 0; y < h; y++)
				for (int x = 0; x < w; x++)
					for (int ch = 0; ch < 3; ch++) {
						int o = out[(size_t)y * ds +
							    3 * x + ch];
						int e = ref_rgb[((size_t)y * w +
								 x) * 3 +
								(sw ? 2 - ch
								    : ch)];

						if (o != e && !bad++)
							CHECK(0,
							      "%s: pixel %d,%d ch %d: %d, want %d",
							      what, x, y, ch, o,
							      e);
					}
		} else if (ret == (int)dsize) {
			int cs = (ds + 1) / 2, c = w / 2;
			const uint8_t *pu = out + (size_t)ds * h;
			const uint8_t *pv = pu + (size_t)cs * (h / 2);

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
						CHECK(0,
						      "%s: Y at %d,%d: %d, want %d",
						      what, x, y,
						      out[(size_t)y * ds + x],
						      p.y[(size_t)y * w + x]);
			for (int y = 0; y < h / 2; y++)
				for (int x = 0; x < c; x++)
					if ((pu[(size_t)y * cs + x] !=
						     p.u[(size_t)y * c + x] ||
					     pv[(size_t)y * cs + x] !=
						     p.v[(size_t)y * c + x]) &&
					    !bad++)
						CHECK(0, "%s: U,V at %d,%d",
						      what, x, y);
		}
		/* Short frames. */
		if (!pad) {
			size_t shorts[3] = { n - 1, n / 2, 0 };

			for (int i = 0; i < 3; i++) {
				errno = 0;
				ret = v4lconvert_convert(cv, &sf, &dfm, src,
							 (int)shorts[i], out,
							 (int)dsize + 64);
				CHECK(ret == -1 && errno == EPIPE,
				      "%s: %zu of %zu bytes gave %d errno %d",
				      what, shorts[i], n, ret, errno);
			}
		}
		free(out);
	}
	free(src);
	free(ref_rgb);
	pic_free(&p);
}

static int size_ok(uint32_t f, int w, int h)
{
	if ((w | h) & 1)
		return 0;
	if (f == V4L2_PIX_FMT_SN9C20X_I420)
		return w % 16 == 0 && h % 8 == 0;
	return 1;
}

static void test_all(struct v4lconvert_data *cv)
{
	static const int sizes[][2] = {
		{ 2, 2 },  { 4, 2 },     { 8, 4 },     { 16, 8 },
		{ 24, 6 }, { 30, 10 },   { 32, 16 },   { 48, 24 },
		{ 64, 8 }, { 160, 120 }, { 176, 144 }, { 208, 18 }
	};
	static const int bad[][2] = { { 1, 2 },  { 2, 1 },  { 3, 3 }, { 15, 8 },
				      { 16, 9 }, { 24, 8 }, { 16, 6 } };

	for (size_t fi = 0; fi < NFORMATS; fi++) {
		for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]);
		     si++) {
			int w = sizes[si][0], h = sizes[si][1];

			if (!size_ok(formats[fi], w, h))
				continue;
			for (int kind = 0; kind < 2; kind++)
				test_one(cv, formats[fi], w, h, kind, si % 2);
		}
		for (size_t bi = 0; bi < sizeof(bad) / sizeof(bad[0]); bi++) {
			static uint8_t buf[16 * 16 * 2], out[16 * 16 * 3 * 2];
			int w = bad[bi][0], h = bad[bi][1], ret;

			if (size_ok(formats[fi], w, h))
				continue;
			for (int d = 0; d < 4; d++) {
				struct v4l2_format sf =
					fmt(formats[fi], w, h, 0);
				struct v4l2_format df = fmt(dsts[d], w, h, 0);

				errno = 0;
				ret = v4lconvert_convert(cv, &sf, &df, buf,
							 sizeof(buf), out,
							 sizeof(out));
				CHECK(ret == -1 && errno == EINVAL,
				      "%s %dx%d -> %s: %d errno %d",
				      FOURCC_STR(formats[fi]), w, h,
				      FOURCC_STR(dsts[d]), ret, errno);
			}
		}
	}
}

/*
 * A device offering only the chip format: try_format must pick it as the
 * source of each destination (all devices here need conversion).
 */
static void test_negotiation(void)
{
	static const uint32_t all[] = {
		V4L2_PIX_FMT_SPCA501,   V4L2_PIX_FMT_SPCA505,
		V4L2_PIX_FMT_SPCA508,   V4L2_PIX_FMT_CIT_YYVYUY,
		V4L2_PIX_FMT_KONICA420, V4L2_PIX_FMT_SN9C20X_I420,
		V4L2_PIX_FMT_CPIA1,
	};

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		int w = all[i] == V4L2_PIX_FMT_CPIA1 ? 352 : 640;
		int h = all[i] == V4L2_PIX_FMT_CPIA1 ? 288 : 480;
		struct fakedev dev = {
			.driver = "fakedev",
			.n_formats = 1,
			.formats = { { all[i],
				       1,
				       { { (uint32_t)w, (uint32_t)h } } } },
		};
		struct v4lconvert_data *cv =
			v4lconvert_create_with_dev_ops(3, &dev, &fakedev_ops);

		for (int d = 0; d < 4 && cv; d++) {
			struct v4l2_format want = fmt(dsts[d], w, h, 0), got;
			int r;

			memset(&got, 0, sizeof(got));
			r = v4lconvert_try_format(cv, &want, &got);
			CHECK(r == 0 && got.fmt.pix.pixelformat == all[i] &&
				      want.fmt.pix.pixelformat == dsts[d] &&
				      (int)want.fmt.pix.width == w,
			      "try_format %s from a %s device: %d, source %s %ux%u",
			      FOURCC_STR(dsts[d]), FOURCC_STR(all[i]), r,
			      FOURCC_STR(got.fmt.pix.pixelformat),
			      want.fmt.pix.width, want.fmt.pix.height);
		}
		CHECK(cv != NULL, "create for %s", FOURCC_STR(all[i]));
		if (cv)
			v4lconvert_destroy(cv);
	}
}

/* ---- the distribution's library ---- */

static int rgb_maxdiff_all;

static void diff_one(struct v4lconvert_data *cv, struct origlib *o,
		     struct v4lconvert_data *od, uint32_t f, int w, int h,
		     int kind)
{
	struct pic p;
	size_t n, ysz = (size_t)w * h * 3 / 2, rsz = (size_t)w * h * 3;
	uint8_t *src, *a = malloc(rsz), *b = malloc(rsz), *oy = malloc(ysz),
		      *orgb = malloc(rsz);
	convert_fn *orig = (convert_fn *)(void *)o->convert;
	int maxd = 0, ra, rb;

	pic_new(&p, w, h, kind);
	if (kind == 2) { /* a random frame */
		n = ysz;
		src = malloc(n);
		fill(src, n);
	} else {
		src = encode(f, &p, &n);
	}
	for (int i = 0; i < 4; i++) {
		uint32_t df =
			dsts[(i + 2) % 4]; /* YU12 first: oy is used below */
		size_t sz = is_rgb(df) ? rsz : ysz;

		ra = run(OURS, cv, f, w, h, src, n, df, a);
		rb = run(orig, od, f, w, h, src, n, df, b);
		CHECK(ra == (int)sz && rb == (int)sz,
		      "diff %s %dx%d -> %s: ours %d, "
		      "original %d",
		      FOURCC_STR(f), w, h, FOURCC_STR(df), ra, rb);
		if (ra != (int)sz || rb != (int)sz)
			continue;
		if (!is_rgb(df)) {
			size_t nd = 0;

			for (size_t i = 0; i < sz; i++)
				nd += a[i] != b[i];
			CHECK(!nd,
			      "diff %s %dx%d kind %d -> %s: %zu bytes differ",
			      FOURCC_STR(f), w, h, kind, FOURCC_STR(df), nd);
			if (df == V4L2_PIX_FMT_YUV420)
				memcpy(oy, b, sz);
			continue;
		}
		/*
		 * Each library's RGB must be its own YU12 -> RGB of the (same)
		 * decoded YU12: the colour maths is then the only difference.
		 */
		rb = run(orig, od, V4L2_PIX_FMT_YUV420, w, h, oy, ysz, df,
			 orgb);
		CHECK(rb == (int)sz && !memcmp(orgb, b, sz),
		      "diff %s %dx%d -> %s: the original's RGB is not its YU12 -> RGB",
		      FOURCC_STR(f), w, h, FOURCC_STR(df));
		ra = run(OURS, cv, V4L2_PIX_FMT_YUV420, w, h, oy, ysz, df,
			 orgb);
		CHECK(ra == (int)sz && !memcmp(orgb, a, sz),
		      "diff %s %dx%d -> %s: our RGB is not our YU12 -> RGB of the "
		      "original's YU12",
		      FOURCC_STR(f), w, h, FOURCC_STR(df));
		for (size_t i = 0; i < sz; i++) {
			int dd = a[i] > b[i] ? a[i] - b[i] : b[i] - a[i];

			maxd = dd > maxd ? dd : maxd;
		}
	}
	CHECK(maxd <= MAX_RGB_DIFF, "diff %s %dx%d: RGB differs by up to %d",
	      FOURCC_STR(f), w, h, maxd);
	if (maxd > rgb_maxdiff_all)
		rgb_maxdiff_all = maxd;
	free(src);
	free(a);
	free(b);
	free(oy);
	free(orgb);
	pic_free(&p);
}

static void diff_all(struct v4lconvert_data *cv, struct origlib *o,
		     struct v4lconvert_data *od)
{
	static const int sizes[][2] = { { 16, 8 },    { 32, 16 },
					{ 64, 48 },   { 160, 120 },
					{ 176, 144 }, { 320, 240 },
					{ 352, 288 }, { 640, 480 } };

	for (size_t fi = 0; fi < NFORMATS; fi++) {
		int before = failures;

		rgb_maxdiff_all = 0;
		for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++)
			for (int kind = 0; kind < 3; kind++)
				/* the original decodes whole 256-pixel blocks only */
				if (formats[fi] != V4L2_PIX_FMT_KONICA420 ||
				    sizes[si][0] * sizes[si][1] % 256 == 0)
					diff_one(cv, o, od, formats[fi],
						 sizes[si][0], sizes[si][1],
						 kind);
		printf("diff %s: %s (YU12/YV12 identical to the original on encoded "
		       "and random frames, 16x8 .. 640x480; RGB3/BGR3 are each "
		       "library's YU12 -> RGB, differing by up to %d)\n",
		       FOURCC_STR(formats[fi]),
		       failures == before ? "ok" : "FAILED", rgb_maxdiff_all);
	}
	/* The original checks no size: a short frame is decoded (past its end). */
	{
		static uint8_t src[64 * 48 * 3 / 2], out[64 * 48 * 3];
		int r = run((convert_fn *)(void *)o->convert, od,
			    V4L2_PIX_FMT_SPCA501, 64, 48, src, 100,
			    V4L2_PIX_FMT_YUV420, out);

		printf("note: the original given 100 bytes of a 64x48 S501 frame "
		       "returns %d (ours: EPIPE)\n",
		       r);
	}
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

static double bench_one(convert_fn *fn, void *cv, uint32_t f, uint32_t df)
{
	enum { W = 640, H = 480, RUNS = 41 };
	struct pic p;
	size_t n;
	uint8_t *src, *dst = malloc((size_t)W * H * 3);
	double t[RUNS];

	pic_new(&p, W, H, 0);
	src = encode(f, &p, &n);
	for (int i = 0; i < RUNS + 2; i++) {
		double t0 = now_s();
		int r = run(fn, cv, f, W, H, src, n, df, dst);

		if (r <= 0)
			break;
		if (i >= 2)
			t[i - 2] = now_s() - t0;
		if (i == RUNS + 1) {
			qsort(t, RUNS, sizeof(t[0]), cmpd);
			free(src);
			free(dst);
			pic_free(&p);
			return (double)W * H / t[RUNS / 2] / 1e6;
		}
	}
	free(src);
	free(dst);
	pic_free(&p);
	return 0;
}

int main(int argc, char **argv)
{
	struct fakedev dev = {
		.driver = "fakedev",
		.n_formats = 1,
		.formats = { { V4L2_PIX_FMT_SPCA501, 1, { { 640, 480 } } } },
	};
	struct v4lconvert_data *cv =
		v4lconvert_create_with_dev_ops(3, &dev, &fakedev_ops);
	int bench = argc > 1 && !strcmp(argv[1], "--bench");
	int diff = argc > 1 && !strcmp(argv[1], "--diff");
	struct origlib o;
	struct v4lconvert_data *od;

	setvbuf(stdout, NULL, _IONBF, 0);
	if (!cv) {
		printf("FAIL: create_with_dev_ops\n");
		return 1;
	}
	if (!bench && !diff) {
		test_all(cv);
		test_negotiation();
	}
	od = bench || diff ? origlib_open_plain(&o, ORIGLIB_LINKED_WITH_OURS)
			   : NULL;
	if (diff && !od) {
		v4lconvert_destroy(cv);
		return 77;
	}
	if (diff)
		diff_all(cv, &o, od);
	if (bench) {
		const char *tier = getenv("LIBV4LCONVERT_SIMD");

		for (size_t fi = 0; fi < NFORMATS; fi++)
			for (int d = 0; d < 4; d += 2) {
				double a = bench_one(OURS, cv, formats[fi],
						     dsts[d]);
				double b =
					od ? bench_one((convert_fn *)(void *)
							       o.convert,
						       od, formats[fi], dsts[d])
					   : 0;

				printf("bench %s -> %s 640x480: ours (%s) %.0f MPix/s, "
				       "original %.0f MPix/s\n",
				       FOURCC_STR(formats[fi]),
				       FOURCC_STR(dsts[d]),
				       tier ? tier : "best", a, b);
			}
	}
	if (od)
		o.destroy(od); /* not dlclosed, as in the other tests */
	v4lconvert_destroy(cv);
	printf("%s: %d failures\n", __FILE__, failures);
	return failures ? 1 : 0;
}
