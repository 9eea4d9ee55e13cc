/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * MJPEG decoder robustness: empty input, truncation at every offset, random
 * byte flips, random garbage, SOF sizes patched to huge/zero values,
 * missing quantisation tables, progressive frames. Every call must return
 * 0 (only where a frame can still decode) or one of the documented
 * negative errnos, never crash, read outside the input (the input is an
 * exactly sized heap block: run under ASan), write outside dst (guard
 * bytes), or take long. After every few corrupt frames the same decoder
 * must still decode a good frame exactly.
 *
 * Set JPEG_CORRUPT_CASES to scale the random parts (default 3000 flips).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/videodev2.h>

#include "jpeg/mjpeg.h"
#include "jpegtest.h"
#include "../common/check.h"

#define GUARD 64

static int cases;
static double slowest;
static char slowest_what[96];

/* Return counts per outcome, for the report. */
enum { R_OK, R_EAGAIN, R_EPIPE, R_EIO, R_EINVAL, R_OTHER, R_N };
static const char *const rname[R_N] = { "0",   "EAGAIN", "EPIPE",
					"EIO", "EINVAL", "other" };

static int rclass(int r)
{
	switch (r) {
	case 0:
		return R_OK;
	case -EAGAIN:
		return R_EAGAIN;
	case -EPIPE:
		return R_EPIPE;
	case -EIO:
		return R_EIO;
	case -EINVAL:
		return R_EINVAL;
	default:
		return R_OTHER;
	}
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

struct target {
	int w, h;
	uint8_t *rgb_ref, *yuv_ref; /* decodes of the good frame */
	uint8_t *good;
	size_t good_size;
	uint8_t *dst; /* max(rgb, yuv) + GUARD */
	size_t rgb_n, yuv_n;
};

/*
 * Decode `n` bytes (copied into an exactly sized heap block) with the given
 * destination; checks guards and the return code against `allowed` (a
 * bitmask of R_* classes). Returns the class.
 */
static int run(struct v4lc_jpeg *j, struct target *t, const uint8_t *data,
	       size_t n, int yuv, unsigned allowed, const char *what)
{
	uint8_t *src = n ? jt_xmalloc(n) : NULL;
	uint32_t fcc = yuv ? V4L2_PIX_FMT_YUV420 : V4L2_PIX_FMT_RGB24;
	size_t dn = yuv ? t->yuv_n : t->rgb_n;
	char err[128];
	double t0, dt;
	int r, c;

	if (n)
		memcpy(src, data, n);
	memset(t->dst + dn, 0xe7, GUARD);
	err[0] = 0;
	t0 = now();
	r = v4lc_jpeg_decode(j, src, n, fcc, t->dst, dn, t->w, t->h, err,
			     sizeof(err));
	dt = now() - t0;
	if (dt > slowest) {
		slowest = dt;
		snprintf(slowest_what, sizeof(slowest_what), "%s", what);
	}
	c = rclass(r);
	cases++;
	CHECK(allowed & (1u << c), "%s (%zu bytes, %s): returned %d (%s)", what,
	      n, yuv ? "YUV420" : "RGB24", r, err);
	CHECK(r == 0 || err[0], "%s: error %d without a message", what, r);
	for (int i = 0; i < GUARD; i++)
		if (t->dst[dn + i] != 0xe7) {
			CHECK(0, "%s: wrote past dst", what);
			break;
		}
	CHECK(dt < 2.0, "%s: took %.2f s", what, dt);
	free(src);
	return c;
}

/* The decoder still works on the good frame. */
static void sanity(struct v4lc_jpeg *j, struct target *t, const char *after)
{
	char err[128];
	int r;

	r = v4lc_jpeg_decode(j, t->good, t->good_size, V4L2_PIX_FMT_RGB24,
			     t->dst, t->rgb_n, t->w, t->h, err, sizeof(err));
	CHECK(r == 0 && !memcmp(t->dst, t->rgb_ref, t->rgb_n),
	      "good RGB frame after %s: %d %s", after, r, r ? err : "differs");
	r = v4lc_jpeg_decode(j, t->good, t->good_size, V4L2_PIX_FMT_YUV420,
			     t->dst, t->yuv_n, t->w, t->h, err, sizeof(err));
	CHECK(r == 0 && !memcmp(t->dst, t->yuv_ref, t->yuv_n),
	      "good YUV frame after %s: %d %s", after, r, r ? err : "differs");
}

static void make_target(struct target *t, int w, int h, int subsamp, int strip,
			int flags)
{
	uint8_t *img = jt_make_image(w, h, (unsigned)(w + subsamp));
	size_t n;
	uint8_t *jpg = jt_compress(img, w, h, subsamp, 85, flags, &n);
	tjhandle d = tjInitDecompress();

	t->w = w;
	t->h = h;
	if (strip) {
		int removed;

		t->good = jt_xmalloc(n);
		t->good_size = jt_strip_dht(jpg, n, t->good, &removed);
		free(jpg);
	} else {
		t->good = jpg;
		t->good_size = n;
	}
	t->rgb_n = (size_t)w * h * 3;
	t->yuv_n = v4lc_jpeg_dst_bytes(V4L2_PIX_FMT_YUV420, w, h);
	t->rgb_ref = jt_xmalloc(t->rgb_n);
	if (tjDecompress2(d, t->good, t->good_size, t->rgb_ref, w, 0, h,
			  TJPF_RGB, 0)) {
		fprintf(stderr, "reference decode failed\n");
		exit(99);
	}
	t->yuv_ref = jt_reference_yuv420(t->good, t->good_size, w, h, subsamp);
	t->dst = jt_xmalloc(t->rgb_n + GUARD);
	tjDestroy(d);
	free(img);
}

static void free_target(struct target *t)
{
	free(t->rgb_ref);
	free(t->yuv_ref);
	free(t->good);
	free(t->dst);
}

#define A(x) (1u << (x))
#define NEG (A(R_EAGAIN) | A(R_EPIPE) | A(R_EIO) | A(R_EINVAL))

static void tiny_inputs(struct v4lc_jpeg *j, struct target *t)
{
	static const uint8_t soi[] = { 0xff, 0xd8 };
	static const uint8_t soi_eoi[] = { 0xff, 0xd8, 0xff, 0xd9 };
	static const uint8_t soi_sos[] = { 0xff, 0xd8, 0xff, 0xda, 0x00, 0x02 };
	static const uint8_t ff[] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	char err[64];
	int r;

	for (int yuv = 0; yuv < 2; yuv++) {
		run(j, t, NULL, 0, yuv, A(R_EAGAIN), "empty input");
		run(j, t, soi, 1, yuv, A(R_EAGAIN), "1 byte");
		run(j, t, soi, 2, yuv, A(R_EAGAIN), "SOI only");
		run(j, t, soi_eoi, 4, yuv, A(R_EAGAIN), "SOI EOI");
		run(j, t, soi_sos, 6, yuv, A(R_EAGAIN), "SOI SOS");
		run(j, t, ff, 6, yuv, A(R_EAGAIN), "0xFF bytes");
	}
	r = v4lc_jpeg_decode(j, NULL, 100, V4L2_PIX_FMT_RGB24, t->dst, t->rgb_n,
			     t->w, t->h, err, sizeof(err));
	CHECK(r == -EAGAIN, "NULL src gave %d", r);
	r = v4lc_jpeg_decode(j, t->good, t->good_size, V4L2_PIX_FMT_RGB24, NULL,
			     t->rgb_n, t->w, t->h, err, sizeof(err));
	CHECK(r == -EFAULT, "NULL dst gave %d", r);
	r = v4lc_jpeg_decode(NULL, t->good, t->good_size, V4L2_PIX_FMT_RGB24,
			     t->dst, t->rgb_n, t->w, t->h, err, sizeof(err));
	CHECK(r == -EINVAL, "NULL decoder gave %d", r);
	sanity(j, t, "tiny inputs");
}

/* Every step-th prefix of the frame, both destinations. */
static void truncations(struct v4lc_jpeg *j, struct target *t, const char *name,
			size_t step)
{
	int count[R_N] = { 0 };
	size_t sos = jt_find_marker(t->good, t->good_size, 0xda);
	char what[96];

	for (size_t n = 0; n < t->good_size; n += (n < sos + 20 ? 1 : step))
		for (int yuv = 0; yuv < 2; yuv++) {
			/* Cut before the end of the SOS header: no image. After
			 * it, libjpeg-turbo fills in the missing data (warning)
			 * or gives up; a frame cut inside the final EOI marker
			 * may still count as complete. */
			unsigned allowed =
				n < sos + 4 ? A(R_EAGAIN)
				: n + 2 >= t->good_size
					? A(R_OK) | A(R_EPIPE) | A(R_EAGAIN)
					: A(R_EPIPE) | A(R_EAGAIN);

			snprintf(what, sizeof(what), "%s cut at %zu", name, n);
			count[run(j, t, t->good, n, yuv, allowed, what)]++;
			if (n % 97 == (size_t)yuv)
				sanity(j, t, what);
		}
	printf("truncations %-22s %5zu bytes:", name, t->good_size);
	for (int c = 0; c < R_N; c++)
		if (count[c])
			printf(" %s %d", rname[c], count[c]);
	printf("\n");
}

static void flips(struct v4lc_jpeg *j, struct target *t, const char *name,
		  int ncases)
{
	int count[R_N] = { 0 };
	uint8_t *buf = jt_xmalloc(t->good_size);
	size_t sos = jt_find_marker(t->good, t->good_size, 0xda);
	char what[96];

	for (int k = 0; k < ncases; k++) {
		int nflip = 1 + (int)(jt_rand() % 4);

		memcpy(buf, t->good, t->good_size);
		for (int f = 0; f < nflip; f++) {
			/* Half of the flips hit the headers. */
			size_t pos = (jt_rand() & 1) ? jt_rand() % (sos + 14)
						     : jt_rand() % t->good_size;
			uint32_t v = jt_rand();

			if (pos >= t->good_size)
				pos = t->good_size - 1;
			if (v & 0x100)
				buf[pos] ^= (uint8_t)(1u << (v & 7));
			else
				buf[pos] = (uint8_t)v;
		}
		snprintf(what, sizeof(what), "%s flip case %d", name, k);
		count[run(j, t, buf, t->good_size, k & 1, A(R_OK) | NEG,
			  what)]++;
		if (k % 50 == 0)
			sanity(j, t, what);
	}
	printf("byte flips  %-22s %5d cases:", name, ncases);
	for (int c = 0; c < R_N; c++)
		if (count[c])
			printf(" %s %d", rname[c], count[c]);
	printf("\n");
	free(buf);
}

static void garbage(struct v4lc_jpeg *j, struct target *t, int ncases)
{
	int count[R_N] = { 0 };
	size_t sos = jt_find_marker(t->good, t->good_size, 0xda);
	uint8_t *buf = jt_xmalloc(8192);

	for (int k = 0; k < ncases; k++) {
		size_t n = jt_rand() % 8192;
		unsigned allowed = A(R_EAGAIN);
		int kind = k % 3;

		for (size_t i = 0; i < n; i++)
			buf[i] = (uint8_t)jt_rand();
		if (kind == 1 && n >= 2) {
			buf[0] = 0xff; /* SOI, then garbage */
			buf[1] = 0xd8;
		} else if (kind == 2 && n > sos + 14) {
			/* A real header, then garbage entropy data: libjpeg
			 * decodes something from anything; it may even end
			 * without complaint. */
			memcpy(buf, t->good, sos + 14);
			allowed = A(R_OK) | NEG;
		}
		count[run(j, t, buf, n, k & 1, allowed, "garbage")]++;
		if (k % 50 == 0)
			sanity(j, t, "garbage");
	}
	printf("garbage     %27d cases:", ncases);
	for (int c = 0; c < R_N; c++)
		if (count[c])
			printf(" %s %d", rname[c], count[c]);
	printf("\n");
	free(buf);
}

/* SOF dimensions patched to extreme values. */
static void sof_sizes(struct v4lc_jpeg *j, struct target *t)
{
	size_t sof = jt_find_marker(t->good, t->good_size, 0xc0);
	uint8_t *buf = jt_xmalloc(t->good_size);
	static const int dims[][2] = { { 65535, 65535 }, { 65535, 1 },
				       { 1, 65535 },     { 0, 48 },
				       { 64, 0 },        { 0, 0 },
				       { 32768, 32768 } };
	char err[128];
	int r;

	CHECK(sof != 0, "no SOF0 in the test frame");
	for (size_t k = 0; k < JT_ARRAY_SIZE(dims); k++) {
		int w = dims[k][0], h = dims[k][1];
		char what[64];

		memcpy(buf, t->good, t->good_size);
		buf[sof + 5] = (uint8_t)(h >> 8);
		buf[sof + 6] = (uint8_t)h;
		buf[sof + 7] = (uint8_t)(w >> 8);
		buf[sof + 8] = (uint8_t)w;
		snprintf(what, sizeof(what), "SOF %dx%d", w, h);
		for (int yuv = 0; yuv < 2; yuv++)
			/* 0 height is legal in JPEG (DNL) but not supported:
			 * header error; others mismatch the format. */
			run(j, t, buf, t->good_size, yuv,
			    A(R_EIO) | A(R_EAGAIN), what);
		if (w > 0 && h > 0) {
			/* Asking for the huge size with a small buffer. */
			r = v4lc_jpeg_decode(j, buf, t->good_size,
					     V4L2_PIX_FMT_RGB24, t->dst,
					     t->rgb_n, w, h, err, sizeof(err));
			CHECK(r == -EFAULT, "%s, small dst: %d", what, r);
		}
	}
	/* A plausible but larger SOF than the data covers: the frame is
	 * short; decoded with grey filling (or rejected). */
	{
		int w = 1000, h = 700;
		size_t n = v4lc_jpeg_dst_bytes(V4L2_PIX_FMT_RGB24, w, h);
		uint8_t *dst = jt_xmalloc(n + GUARD);

		memcpy(buf, t->good, t->good_size);
		buf[sof + 5] = (uint8_t)(h >> 8);
		buf[sof + 6] = (uint8_t)h;
		buf[sof + 7] = (uint8_t)(w >> 8);
		buf[sof + 8] = (uint8_t)w;
		memset(dst + n, 0xe7, GUARD);
		for (int yuv = 0; yuv < 2; yuv++) {
			uint32_t fcc =
				yuv ? V4L2_PIX_FMT_YUV420 : V4L2_PIX_FMT_RGB24;
			size_t dn = v4lc_jpeg_dst_bytes(fcc, w, h);

			memset(dst + dn, 0xe7, GUARD);
			r = v4lc_jpeg_decode(j, buf, t->good_size, fcc, dst, dn,
					     w, h, err, sizeof(err));
			CHECK(r == -EPIPE || r == -EAGAIN,
			      "SOF enlarged to %dx%d: %d (%s)", w, h, r, err);
			for (int i = 0; i < GUARD; i++)
				if (dst[dn + i] != 0xe7) {
					CHECK(0,
					      "SOF enlarged: wrote past dst");
					break;
				}
			cases++;
		}
		free(dst);
	}
	free(buf);
	sanity(j, t, "SOF patches");
}

/* A frame without its quantisation tables, on a fresh decoder. */
static void no_dqt(struct target *t)
{
	struct v4lc_jpeg *j = v4lc_jpeg_new();
	uint8_t *buf = jt_xmalloc(t->good_size);
	size_t i = 2, o = 2;

	memcpy(buf, t->good, 2);
	while (i + 4 <= t->good_size && t->good[i] == 0xff) {
		size_t len = ((size_t)t->good[i + 2] << 8) | t->good[i + 3];

		if (t->good[i + 1] == 0xda)
			break;
		if (t->good[i + 1] != 0xdb) {
			memcpy(buf + o, t->good + i, 2 + len);
			o += 2 + len;
		}
		i += 2 + len;
	}
	memcpy(buf + o, t->good + i, t->good_size - i);
	o += t->good_size - i;
	for (int yuv = 0; yuv < 2; yuv++)
		run(j, t, buf, o, yuv, A(R_EAGAIN), "no DQT, fresh decoder");
	sanity(j, t, "no DQT");
	free(buf);
	v4lc_jpeg_free(j);
}

int main(void)
{
	const char *env = getenv("JPEG_CORRUPT_CASES");
	int nflip = env ? atoi(env) : 3000;
	struct v4lc_jpeg *j = v4lc_jpeg_new();
	struct target t422, t420, tprog, tbig;
	double t0 = now();

	if (nflip < 10)
		nflip = 10;
	make_target(&t422, 64, 48, TJSAMP_422, 1, 0);
	make_target(&t420, 48, 32, TJSAMP_420, 0, 0);
	make_target(&tprog, 40, 24, TJSAMP_444, 0, TJFLAG_PROGRESSIVE);
	make_target(&tbig, 320, 240, TJSAMP_422, 1, 0);

	tiny_inputs(j, &t422);
	truncations(j, &t422, "422 64x48 no-DHT", 1);
	truncations(j, &t420, "420 48x32", 1);
	truncations(j, &tprog, "444 40x24 progressive", 1);
	truncations(j, &tbig, "422 320x240 no-DHT", 29);
	flips(j, &t422, "422 64x48 no-DHT", nflip / 2);
	flips(j, &t420, "420 48x32", nflip / 4);
	flips(j, &tprog, "444 40x24 progressive", nflip / 4);
	flips(j, &tbig, "422 320x240 no-DHT", nflip / 10);
	garbage(j, &t422, nflip / 6);
	sof_sizes(j, &t420);
	no_dqt(&t422);

	printf("%d cases in %.2f s; slowest %.1f ms (%s)\n", cases, now() - t0,
	       slowest * 1e3, slowest_what);
	free_target(&t422);
	free_target(&t420);
	free_target(&tprog);
	free_target(&tbig);
	v4lc_jpeg_free(j);
	if (failures) {
		printf("%d failures\n", failures);
		return 1;
	}
	printf("all passed\n");
	return 0;
}
