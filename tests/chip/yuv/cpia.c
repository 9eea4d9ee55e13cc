/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * CPIA (CPiA1 compressed) through the public v4lconvert_convert.
 *  - The test encoder (src/vcam/chipenc.c, written from the format
 *    description in src/libv4lconvert/src_chipyuv.c) makes uncompressed and compressed
 *    frames; compressed ones skip random even runs of pixels, which must
 *    keep the previous picture's values. It tracks the picture a decoder
 *    must produce: YU12/YV12 output must be it, RGB24/BGR24 our YU12 ->
 *    RGB of it, across sequences of frames (a rejected frame leaves the
 *    previous picture as it was).
 *  - Corrupted frames (every prefix, byte changes in the header, in line
 *    lengths and data, the end marks) must not crash; a frame whose
 *    structure is broken fails with EAGAIN; bad sizes with EINVAL.
 *  - Differential (--diff; exit 77 when the distribution's libv4lconvert
 *    cannot be loaded): the same frame sequences, valid and corrupted,
 *    into both libraries: both must accept or reject each frame, and
 *    accepted frames must give identical YU12 and YV12 (each library's
 *    RGB being its own YU12 -> RGB, checked as in chipyuv.c). Each
 *    sequence starts with an uncompressed frame: the original's previous
 *    picture is uninitialised memory until then. Each destination has its
 *    own pair of instances: the original keeps the previous picture in the
 *    layout of its last output, so a YV12 frame after a YU12 one swaps the
 *    chroma of skipped pixels there (ours keeps it in YUV order).
 * --bench: MPix/s at 352x288 (the largest CPiA size), ours and the
 * original, compressed frames skipping about half of the pixels.
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

static uint32_t rng = 0x6b43a9b5u;

static uint32_t rnd(void)
{
	return xorshift32(&rng);
}

static uint8_t rnd8(void)
{
	return (uint8_t)(rnd() >> 11);
}

static const uint32_t dsts[4] = { V4L2_PIX_FMT_YUV420, V4L2_PIX_FMT_YVU420,
				  V4L2_PIX_FMT_RGB24, V4L2_PIX_FMT_BGR24 };

static int is_rgb(uint32_t f)
{
	return f == V4L2_PIX_FMT_RGB24 || f == V4L2_PIX_FMT_BGR24;
}

static size_t dst_bytes(uint32_t f, int w, int h)
{
	return is_rgb(f) ? (size_t)w * h * 3 : (size_t)w * h * 3 / 2;
}

static struct v4l2_format fmt(uint32_t f, int w, int h)
{
	struct v4l2_format v;

	memset(&v, 0, sizeof(v));
	v.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	v.fmt.pix.pixelformat = f;
	v.fmt.pix.width = (uint32_t)w;
	v.fmt.pix.height = (uint32_t)h;
	v.fmt.pix.field = V4L2_FIELD_NONE;
	return v;
}

typedef int convert_fn(void *, const struct v4l2_format *,
		       const struct v4l2_format *, unsigned char *, int,
		       unsigned char *, int);
#define OURS ((convert_fn *)(void *)v4lconvert_convert)

static int run(convert_fn *fn, void *cv, uint32_t f, int w, int h,
	       const uint8_t *src, size_t n, uint32_t df, uint8_t *out)
{
	struct v4l2_format sf = fmt(f, w, h), dfm = fmt(df, w, h);

	errno = 0;
	return fn(cv, &sf, &dfm, (unsigned char *)src, (int)n, out,
		  (int)dst_bytes(df, w, h));
}

/* ---- the test encoder ---- */

struct enc {
	int w, h;
	uint8_t *
		pic; /* the picture a decoder must hold after the frame, YU12 */
	uint8_t *buf; /* the frame */
	size_t size, cap;
};

/* What a skip decision needs: the picture before this frame, the rate. */
struct skipctx {
	struct enc *e;
	const uint8_t *prev;
	int pct;
};

/*
 * Asked by the encoder at each group start of a compressed frame: skip
 * k pixels (an even run, sometimes none) with skip_pct percent chance;
 * skipped pixels (and on even rows their chroma) get back the previous
 * picture's values in e->pic, as a decoder keeps them.
 */
static int pick_skip(void *opaque, int x, int y, int left)
{
	struct skipctx *s = opaque;
	int w = s->e->w, h = s->e->h, k;
	size_t np = (size_t)w * h, c = (size_t)w / 2;

	if ((int)(rnd() % 100) >= s->pct)
		return -1;
	k = 2 * (int)(1 + rnd() % 8);
	if (rnd() % 16 == 0)
		k = 0; /* a skip of nothing is legal */
	if (k > left)
		k = left;
	memcpy(s->e->pic + (size_t)y * w + x, s->prev + (size_t)y * w + x,
	       (size_t)k);
	if (!(y & 1))
		for (size_t p = np; p < np + np / 2; p += np / 4)
			memcpy(s->e->pic + p + (size_t)(y / 2) * c + x / 2,
			       s->prev + p + (size_t)(y / 2) * c + x / 2,
			       (size_t)k / 2);
	return k;
}

/*
 * Encode a new picture (random or smooth content) as a frame, updating
 * e->pic. compressed: 0 none, 1 with skips (skip_pct percent of the
 * runs). The picture's Y0 samples are made even where a compressed frame
 * stores them (an odd one would read as a skip). The encoder is the
 * virtual camera's (src/vcam/chipenc.c).
 */
static void encode(struct enc *e, int compressed, int skip_pct, int smooth)
{
	int w = e->w, h = e->h;
	size_t np = (size_t)w * h;
	uint8_t *py = e->pic, *pu = py + np, *pv = pu + np / 4;
	uint8_t *prev = malloc(np * 3 / 2), header[64];
	struct skipctx sc = { e, prev, skip_pct };
	struct v4lc_chipenc_cpia o = {
		compressed, pick_skip, &sc, header, 1, 2
	};
	long n;

	memcpy(prev, e->pic, np * 3 / 2);
	for (int i = 0; i < 64; i++)
		header[i] = rnd8();
	for (int y = 0; y < h; y++) {
		uint8_t *yr = py + (size_t)y * w;
		uint8_t *u = pu + (size_t)(y / 2) * (w / 2);
		uint8_t *v = pv + (size_t)(y / 2) * (w / 2);

		for (int x = 0; x < w; x += 2) {
			for (int i = 0; i < 2; i++)
				yr[x + i] = smooth ? (uint8_t)(x * 3 + y * 5 +
							       40 * i)
						   : rnd8();
			if (compressed)
				yr[x] &= 0xfe;
			if (!(y & 1)) {
				u[x / 2] =
					smooth ? (uint8_t)(x + 2 * y) : rnd8();
				v[x / 2] = smooth ? (uint8_t)(255 - x - y)
						  : rnd8();
			}
		}
	}
	/* The skips put the previous values back as the rows are encoded. */
	n = v4lc_chipenc_cpia_encode(e->pic, w, h, &o, e->buf, e->cap);
	CHECK(n > 0 && (size_t)n <= e->cap, "CPIA encoder %dx%d: %ld", w, h, n);
	e->size = n > 0 ? (size_t)n : 0;
	free(prev);
}

static void enc_init(struct enc *e, int w, int h)
{
	e->w = w;
	e->h = h;
	e->pic = malloc((size_t)w * h * 3 / 2);
	memset(e->pic, 0x80, (size_t)w * h * 3 / 2); /* our initial picture */
	e->cap = 64 + (size_t)h * (2 * (size_t)w + 3) + 4;
	e->buf = malloc(e->cap);
	e->size = 0;
}

static void enc_free(struct enc *e)
{
	free(e->pic);
	free(e->buf);
}

/* ---- corruption ---- */

/* A broken copy of frame f (n bytes) into out; returns its size. */
static size_t corrupt(const uint8_t *f, size_t n, uint8_t *out, size_t cap,
		      int w)
{
	size_t m = n;

	memcpy(out, f, n);
	switch (rnd() % 9) {
	case 8: { /* every line's content random, lengths and marks kept */
		size_t p = 64;

		while (p + 2 <= n - 4) {
			size_t l = (size_t)out[p] | (size_t)out[p + 1] << 8;

			if (l < 1 || p + 2 + l > n - 4)
				break;
			for (size_t i = 0; i + 1 < l; i++)
				out[p + 2 + i] =
					rnd() & 1 ? rnd8()
						  : (uint8_t)(rnd8() & 0xfe);
			p += 2 + l;
		}
		break;
	}
	case 0: /* a prefix */
		m = rnd() % n;
		break;
	case 1: { /* a header byte that matters */
		static const int pos[] = {
			0, 1, 17, 18, 24, 25, 26, 27, 28, 29
		};

		out[pos[rnd() % 10]] ^= (uint8_t)(1u << (rnd() % 8));
		break;
	}
	case 2: /* the first line's length */
		out[64 + (rnd() & 1)] ^= (uint8_t)(1u << (rnd() % 8));
		break;
	case 3: /* the end-of-image mark */
		out[n - 1 - rnd() % 4] ^= (uint8_t)(1u << (rnd() % 8));
		break;
	case 4: /* random bytes in the lines */
		for (int k = 0, c = 1 + (int)(rnd() % 4); k < c; k++)
			out[64 + rnd() % (n - 68)] = rnd8();
		break;
	case 5: /* an extra byte before the end mark (accepted: ignored) */
		if (n < cap) {
			memmove(out + n - 3, out + n - 4, 4);
			out[n - 4] = rnd8();
			m = n + 1;
		}
		break;
	case 6: /* flip bit 0 of some bytes: group <-> skip */
		for (int k = 0, c = 1 + (int)(rnd() % 3); k < c; k++)
			out[64 + rnd() % (n - 68)] ^= 1;
		break;
	default: /* width or height of the header against the format */
		out[rnd() & 1 ? 25 : 27] += (uint8_t)(rnd() & 1 ? 1 : -1);
		(void)w;
		break;
	}
	return m;
}

/* ---- self-checks ---- */

static void check_out(struct v4lconvert_data *cv, const struct enc *e,
		      const uint8_t *out, uint32_t df, const char *what)
{
	int w = e->w, h = e->h;
	size_t np = (size_t)w * h, sz = dst_bytes(df, w, h);
	uint8_t *ref = malloc(sz);
	int bad = 0;

	if (is_rgb(df)) {
		int r = run(OURS, cv, V4L2_PIX_FMT_YUV420, w, h, e->pic,
			    np * 3 / 2, df, ref);

		CHECK(r == (int)sz, "%s: YU12 -> RGB %d", what, r);
	} else {
		memcpy(ref, e->pic, np);
		memcpy(ref + np,
		       e->pic + np + (df == V4L2_PIX_FMT_YVU420 ? np / 4 : 0),
		       np / 4);
		memcpy(ref + np + np / 4,
		       e->pic + np + (df == V4L2_PIX_FMT_YVU420 ? 0 : np / 4),
		       np / 4);
	}
	for (size_t i = 0; i < sz; i++)
		if (out[i] != ref[i] && !bad++)
			CHECK(0, "%s: byte %zu is %d, want %d", what, i, out[i],
			      ref[i]);
	free(ref);
}

static void self_sequence(int w, int h, int frames)
{
	struct fakedev dev = {
		.driver = "fakedev",
		.n_formats = 1,
		.formats = { { V4L2_PIX_FMT_CPIA1, 1, { { 352, 288 } } } }
	};
	struct v4lconvert_data *cv =
		v4lconvert_create_with_dev_ops(3, &dev, &fakedev_ops);
	struct enc e;
	uint8_t *out = malloc((size_t)w * h * 3), *bad;
	char what[96];

	enc_init(&e, w, h);
	bad = malloc(e.cap + 8);
	for (int f = 0; f < frames; f++) {
		int comp = f == 0 ? (int)(rnd() & 1) : (int)(rnd() % 4 != 0);

		encode(&e, comp, f == 0 ? 40 : (int)(rnd() % 90),
		       (int)(rnd() & 1));
		for (int d = 0; d < 4; d++) {
			int r = run(OURS, cv, V4L2_PIX_FMT_CPIA1, w, h, e.buf,
				    e.size, dsts[d], out);

			snprintf(what, sizeof(what),
				 "CPIA %dx%d frame %d comp %d -> %.4s", w, h, f,
				 comp, (const char *)&dsts[d]);
			CHECK(r == (int)dst_bytes(dsts[d], w, h),
			      "%s: %d errno %d (%s)", what, r, errno,
			      v4lconvert_get_error_message(cv));
			if (r > 0)
				check_out(cv, &e, out, dsts[d], what);
		}
		/*
		 * Broken frames: no crash; when rejected the picture stays (the
		 * next frame's skips check it).
		 */
		for (int k = 0; k < 4; k++) {
			size_t m = corrupt(e.buf, e.size, bad, e.cap + 8, w);
			int r = run(OURS, cv, V4L2_PIX_FMT_CPIA1, w, h, bad, m,
				    V4L2_PIX_FMT_YUV420, out);

			if (r < 0) {
				CHECK(errno == EAGAIN,
				      "CPIA %dx%d corrupt frame: errno %d", w,
				      h, errno);
				continue;
			}
			/* accepted (still a valid frame): resync by a full one */
			encode(&e, 0, 0, 0);
			r = run(OURS, cv, V4L2_PIX_FMT_CPIA1, w, h, e.buf,
				e.size, V4L2_PIX_FMT_YUV420, out);
			CHECK(r > 0, "CPIA resync frame rejected");
		}
		/* every prefix of a small frame is rejected */
		if (f == 1 && w * h <= 64 * 32)
			for (size_t m = 0; m < e.size; m++) {
				int r = run(OURS, cv, V4L2_PIX_FMT_CPIA1, w, h,
					    e.buf, m, V4L2_PIX_FMT_YUV420, out);

				CHECK(r == -1 && errno == EAGAIN,
				      "CPIA %dx%d prefix %zu: %d", w, h, m, r);
			}
	}
	enc_free(&e);
	free(bad);
	free(out);
	v4lconvert_destroy(cv);
}

static void self_sizes(void)
{
	static const int bad[][2] = { { 4, 4 },     { 8, 2 },     { 12, 4 },
				      { 360, 288 }, { 352, 292 }, { 8, 6 } };
	struct fakedev dev = {
		.driver = "fakedev",
		.n_formats = 1,
		.formats = { { V4L2_PIX_FMT_CPIA1, 1, { { 352, 288 } } } }
	};
	struct v4lconvert_data *cv =
		v4lconvert_create_with_dev_ops(3, &dev, &fakedev_ops);
	static uint8_t src[4096], out[360 * 292 * 3];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		for (int d = 0; d < 4; d++) {
			int r = run(OURS, cv, V4L2_PIX_FMT_CPIA1, bad[i][0],
				    bad[i][1], src, sizeof(src), dsts[d], out);

			CHECK(r == -1 && errno == EINVAL,
			      "CPIA %dx%d: %d errno %d", bad[i][0], bad[i][1],
			      r, errno);
		}
	v4lconvert_destroy(cv);
}

/* ---- the original ---- */

static void diff_sequence(struct origlib *o, int w, int h, int frames,
			  int *accepted, int *rejected, int *broken_accepted)
{
	struct fakedev dev = {
		.driver = "fakedev",
		.n_formats = 1,
		.formats = { { V4L2_PIX_FMT_CPIA1, 1, { { 352, 288 } } } }
	};
	/* one instance per destination: a stream keeps its format */
	struct v4lconvert_data *cv[4], *od[4];
	convert_fn *orig = (convert_fn *)(void *)o->convert;
	size_t rsz = (size_t)w * h * 3, ysz = rsz / 2;
	uint8_t *a[4], *b[4], *t = malloc(rsz), *bad;
	struct enc e;

	for (int d = 0; d < 4; d++) {
		cv[d] = v4lconvert_create_with_dev_ops(3, &dev, &fakedev_ops);
		od[d] = origlib_create_plain(o);
		a[d] = malloc(rsz);
		b[d] = malloc(rsz);
	}
	enc_init(&e, w, h);
	bad = malloc(e.cap + 8);
	encode(&e, 0, 0, 0); /* the first frame sets every pixel */
	for (int f = 0; f < frames; f++) {
		const uint8_t *fr = e.buf;
		size_t n = e.size;
		int ra[4], rb[4], broken = 0;

		if (f > 0 && rnd() % 2 == 0) {
			n = corrupt(e.buf, e.size, bad, e.cap + 8, w);
			fr = bad;
			broken = 1;
		}
		for (int d = 0; d < 4; d++) {
			uint32_t df = dsts[d];
			size_t sz = dst_bytes(df, w, h);

			ra[d] = run(OURS, cv[d], V4L2_PIX_FMT_CPIA1, w, h, fr,
				    n, df, a[d]);
			rb[d] = run(orig, od[d], V4L2_PIX_FMT_CPIA1, w, h, fr,
				    n, df, b[d]);
			CHECK((ra[d] < 0) == (rb[d] < 0),
			      "diff CPIA %dx%d frame %d -> "
			      "%.4s: ours %d, original %d",
			      w, h, f, (const char *)&df, ra[d], rb[d]);
			if (ra[d] < 0 || rb[d] < 0) {
				if (d == 0)
					++*rejected;
				continue;
			}
			if (d == 0) {
				++*accepted;
				*broken_accepted += broken;
			}
			if (!is_rgb(df)) {
				CHECK(!memcmp(a[d], b[d], sz),
				      "diff CPIA %dx%d frame %d -> "
				      "%.4s: output differs",
				      w, h, f, (const char *)&df);
				continue;
			}
			if (ra[0] < 0 || rb[0] < 0)
				continue;
			/* each library's RGB: its own YU12 -> RGB of its YU12 */
			CHECK(run(orig, od[d], V4L2_PIX_FMT_YUV420, w, h, b[0],
				  ysz, df, t) == (int)sz &&
				      !memcmp(t, b[d], sz),
			      "diff CPIA %dx%d -> %.4s: the original's RGB is not its "
			      "YU12 -> RGB",
			      w, h, (const char *)&df);
			CHECK(run(OURS, cv[d], V4L2_PIX_FMT_YUV420, w, h, a[0],
				  ysz, df, t) == (int)sz &&
				      !memcmp(t, a[d], sz),
			      "diff CPIA %dx%d -> %.4s: our RGB is not our YU12 -> RGB",
			      w, h, (const char *)&df);
		}
		encode(&e, (int)(rnd() % 4 != 0), (int)(rnd() % 90),
		       (int)(rnd() & 1));
	}
	enc_free(&e);
	free(bad);
	free(t);
	for (int d = 0; d < 4; d++) {
		free(a[d]);
		free(b[d]);
		o->destroy(od[d]);
		v4lconvert_destroy(cv[d]);
	}
}

/* ---- bench ---- */

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmpd(const void *x, const void *y)
{
	double p = *(const double *)x, q = *(const double *)y;

	return p < q ? -1 : p > q;
}

static double bench(convert_fn *fn, void *cv, const struct enc *e,
		    const struct enc *first, uint32_t df)
{
	enum { RUNS = 41 };
	uint8_t *out = malloc(dst_bytes(df, e->w, e->h));
	double t[RUNS];

	if (run(fn, cv, V4L2_PIX_FMT_CPIA1, e->w, e->h, first->buf, first->size,
		df, out) <= 0) {
		free(out);
		return 0;
	}
	for (int i = 0; i < RUNS; i++) {
		double t0 = now_s();

		if (run(fn, cv, V4L2_PIX_FMT_CPIA1, e->w, e->h, e->buf, e->size,
			df, out) <= 0) {
			free(out);
			return 0;
		}
		t[i] = now_s() - t0;
	}
	qsort(t, RUNS, sizeof(t[0]), cmpd);
	free(out);
	return (double)e->w * e->h / t[RUNS / 2] / 1e6;
}

int main(int argc, char **argv)
{
	int diff = argc > 1 && !strcmp(argv[1], "--diff");
	int do_bench = argc > 1 && !strcmp(argv[1], "--bench");
	struct origlib o;
	int have_orig;

	setvbuf(stdout, NULL, _IONBF, 0);
	if (!diff && !do_bench) {
		static const int sizes[][2] = { { 8, 4 },     { 16, 8 },
						{ 32, 12 },   { 64, 32 },
						{ 176, 144 }, { 352, 288 } };

		for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
			self_sequence(sizes[i][0], sizes[i][1], i < 4 ? 12 : 4);
		self_sizes();
		printf("%s: %d failures\n", __FILE__, failures);
		return failures ? 1 : 0;
	}
	have_orig = !origlib_open(&o, 1);
	if (diff) {
		static const int sizes[][2] = { { 8, 4 },     { 16, 8 },
						{ 40, 20 },   { 64, 48 },
						{ 176, 144 }, { 352, 288 } };
		int acc = 0, rej = 0, bacc = 0;

		if (!have_orig)
			return 77;
		/* the original reports every broken frame on stderr */
		if (!freopen("/dev/null", "w", stderr))
			return 1;
		for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
			for (int k = 0; k < (i < 4 ? 10 : 2); k++)
				diff_sequence(&o, sizes[i][0], sizes[i][1],
					      i < 4 ? 100 : 25, &acc, &rej,
					      &bacc);
		printf("diff CPIA: %d frames accepted by both (YU12/YV12 identical; "
		       "%d of them altered ones), %d rejected by both\n",
		       acc, bacc, rej);
	} else {
		struct fakedev dev = { .driver = "fakedev",
				       .n_formats = 1,
				       .formats = { { V4L2_PIX_FMT_CPIA1,
						      1,
						      { { 352, 288 } } } } };
		struct v4lconvert_data *cv =
			v4lconvert_create_with_dev_ops(3, &dev, &fakedev_ops);
		struct v4lconvert_data *od =
			have_orig ? origlib_create_plain(&o) : NULL;
		struct enc first, e;

		enc_init(&first, 352, 288);
		enc_init(&e, 352, 288);
		encode(&first, 0, 0, 0);
		encode(&e, 1, 50, 0);
		for (int d = 0; d < 4; d += 2) {
			double x = bench(OURS, cv, &e, &first, dsts[d]);
			double y = od ? bench((convert_fn *)(void *)o.convert,
					      od, &e, &first, dsts[d])
				      : 0;

			printf("bench CPIA (half skipped) -> %.4s 352x288: ours (%s) %.0f "
			       "MPix/s, original %.0f MPix/s\n",
			       (const char *)&dsts[d],
			       getenv("LIBV4LCONVERT_SIMD")
				       ? getenv("LIBV4LCONVERT_SIMD")
				       : "best",
			       x, y);
		}
		encode(&first, 0, 0, 0);
		for (int d = 0; d < 4; d += 2) {
			double x = bench(OURS, cv, &first, &first, dsts[d]);
			double y = od ? bench((convert_fn *)(void *)o.convert,
					      od, &first, &first, dsts[d])
				      : 0;

			printf("bench CPIA (uncompressed) -> %.4s 352x288: ours %.0f "
			       "MPix/s, original %.0f MPix/s\n",
			       (const char *)&dsts[d], x, y);
		}
		enc_free(&first);
		enc_free(&e);
		if (od)
			o.destroy(od);
		v4lconvert_destroy(cv);
	}
	printf("%s: %d failures\n", __FILE__, failures);
	return failures ? 1 : 0;
}
