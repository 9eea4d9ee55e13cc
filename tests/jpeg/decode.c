/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * MJPEG decoder: correctness on well-formed frames.
 *
 * Frames are made with tjCompress2 in every subsampling TurboJPEG offers,
 * at sizes including odd ones, with and without their DHT segments (webcam
 * MJPEG has none). Checks:
 *  - RGB24/BGR24 are byte-identical to a bare tjDecompress2 of the frame
 *    WITH its tables (so stripped frames prove the standard tables are used);
 *  - YUV420/YVU420 equal an independent reference built here from
 *    tjDecompressToYUVPlanes output (luma cropped, chroma averaged by the
 *    test's own code), and are close (PSNR) to the original image;
 *  - guard bytes behind dst are untouched, dst_size is honoured;
 *  - error codes for a size mismatch, bad fourcc, short dst;
 *  - one decoder reused over many frames of changing size/format.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/videodev2.h>

#include "jpeg/mjpeg.h"
#include "jpegtest.h"
#include "../common/check.h"

#define GUARD 64

struct frame {
	int w, h, subsamp, stripped;
	uint8_t *rgb; /* source image */
	uint8_t *jpg; /* the frame under test */
	size_t size;
	uint8_t *full; /* the same frame with its DHT (reference input) */
	size_t full_size;
};

static void make_frame(struct frame *f, int w, int h, int subsamp, int strip,
		       unsigned seed)
{
	f->w = w;
	f->h = h;
	f->subsamp = subsamp;
	f->rgb = jt_make_image(w, h, seed);
	f->full = jt_compress(f->rgb, w, h, subsamp, 90, 0, &f->full_size);
	f->stripped = 0;
	if (strip) {
		int removed;

		f->jpg = jt_xmalloc(f->full_size);
		f->size = jt_strip_dht(f->full, f->full_size, f->jpg, &removed);
		CHECK(removed > 0 && f->size < f->full_size &&
			      !jt_find_marker(f->jpg, f->size, 0xc4),
		      "DHT strip did nothing (%d removed)", removed);
		f->stripped = 1;
	} else {
		f->jpg = jt_xmalloc(f->full_size);
		memcpy(f->jpg, f->full, f->full_size);
		f->size = f->full_size;
	}
}

static void free_frame(struct frame *f)
{
	free(f->rgb);
	free(f->jpg);
	free(f->full);
}

/* dst with guard bytes behind it, prefilled with a pattern. */
static uint8_t *guarded(size_t n, uint8_t fill)
{
	uint8_t *p = jt_xmalloc(n + GUARD);

	memset(p, fill, n + GUARD);
	return p;
}

static int guard_ok(const uint8_t *p, size_t n, uint8_t fill)
{
	for (size_t i = n; i < n + GUARD; i++)
		if (p[i] != fill)
			return 0;
	return 1;
}

static const char *tag(const struct frame *f)
{
	static char buf[64];

	snprintf(buf, sizeof(buf), "%dx%d %s%s", f->w, f->h,
		 jt_samp_name[f->subsamp], f->stripped ? " no-DHT" : "");
	return buf;
}

static void check_rgb(struct v4lc_jpeg *j, tjhandle ref, const struct frame *f)
{
	size_t n = (size_t)f->w * f->h * 3;
	uint8_t *want = jt_xmalloc(n), *got = guarded(n, 0xa5);
	char err[256];

	for (int bgr = 0; bgr < 2; bgr++) {
		int r = tjDecompress2(ref, f->full, f->full_size, want, f->w,
				      3 * f->w, f->h, bgr ? TJPF_BGR : TJPF_RGB,
				      0);

		CHECK(r == 0, "%s: reference tjDecompress2 failed", tag(f));
		r = v4lc_jpeg_decode(j, f->jpg, f->size,
				     bgr ? V4L2_PIX_FMT_BGR24
					 : V4L2_PIX_FMT_RGB24,
				     got, n, f->w, f->h, err, sizeof(err));
		CHECK(r == 0, "%s %s: decode returned %d (%s)", tag(f),
		      bgr ? "BGR24" : "RGB24", r, err);
		CHECK(!memcmp(want, got, n),
		      "%s %s: differs from tjDecompress2", tag(f),
		      bgr ? "BGR24" : "RGB24");
		CHECK(guard_ok(got, n, 0xa5), "%s: wrote past dst", tag(f));
		/* Tiny frames of this busy image lose too much to chroma
		 * subsampling for a meaningful bound. */
		if (!bgr && f->subsamp != TJSAMP_GRAY && f->w >= 16 &&
		    f->h >= 16) {
			double p = jt_psnr(got, f->rgb, n);

			CHECK(p > (f->subsamp == TJSAMP_411 ? 26 : 30),
			      "%s: RGB PSNR %.1f dB too low", tag(f), p);
		}
	}
	free(want);
	free(got);
}

static void check_yuv(struct v4lc_jpeg *j, const struct frame *f,
		      double *min_psnr_y, double *min_psnr_c)
{
	int w = f->w, h = f->h, cw = (w + 1) / 2, ch = (h + 1) / 2;
	size_t ny = (size_t)w * h, nc = (size_t)cw * ch, n = ny + 2 * nc;
	uint8_t *want =
		jt_reference_yuv420(f->full, f->full_size, w, h, f->subsamp);
	uint8_t *got = guarded(n, 0x5a);
	char err[256];
	int r;

	CHECK(want != NULL, "%s: reference YUV decode failed", tag(f));
	if (!want)
		goto out;

	r = v4lc_jpeg_decode(j, f->jpg, f->size, V4L2_PIX_FMT_YUV420, got, n, w,
			     h, err, sizeof(err));
	CHECK(r == 0, "%s YUV420: decode returned %d (%s)", tag(f), r, err);
	CHECK(!memcmp(want, got, ny), "%s YUV420: luma differs", tag(f));
	CHECK(!memcmp(want + ny, got + ny, nc), "%s YUV420: U differs", tag(f));
	CHECK(!memcmp(want + ny + nc, got + ny + nc, nc),
	      "%s YUV420: V differs", tag(f));
	CHECK(guard_ok(got, n, 0x5a), "%s YUV420: wrote past dst", tag(f));

	if (f->subsamp != TJSAMP_GRAY && w >= 16 && h >= 16) {
		uint8_t *ideal = jt_image_yuv420(f->rgb, w, h);
		double py = jt_psnr(ideal, got, ny);
		double pc = jt_psnr(ideal + ny, got + ny, 2 * nc);

		CHECK(py > 35, "%s: Y PSNR %.1f dB too low", tag(f), py);
		/* 4:1:1 has a quarter of the horizontal chroma resolution. */
		CHECK(pc > (f->subsamp == TJSAMP_411 ? 28 : 33),
		      "%s: chroma PSNR %.1f dB too low", tag(f), pc);
		if (getenv("JT_VERBOSE"))
			printf("  %s: PSNR Y %.1f dB, chroma %.1f dB\n", tag(f),
			       py, pc);
		if (py < *min_psnr_y)
			*min_psnr_y = py;
		if (pc < *min_psnr_c)
			*min_psnr_c = pc;
		free(ideal);
	}

	memset(got, 0x5a, n + GUARD);
	r = v4lc_jpeg_decode(j, f->jpg, f->size, V4L2_PIX_FMT_YVU420, got, n, w,
			     h, err, sizeof(err));
	CHECK(r == 0, "%s YVU420: decode returned %d (%s)", tag(f), r, err);
	CHECK(!memcmp(want, got, ny), "%s YVU420: luma differs", tag(f));
	CHECK(!memcmp(want + ny, got + ny + nc, nc), "%s YVU420: U differs",
	      tag(f));
	CHECK(!memcmp(want + ny + nc, got + ny, nc), "%s YVU420: V differs",
	      tag(f));
	CHECK(guard_ok(got, n, 0x5a), "%s YVU420: wrote past dst", tag(f));
out:
	free(want);
	free(got);
}

static void check_errors(struct v4lc_jpeg *j, const struct frame *f)
{
	size_t n = (size_t)f->w * f->h * 3;
	size_t big = (size_t)(f->w + 1) * (f->h + 1) * 3;
	uint8_t *dst = guarded(big, 0x11);
	char err[256];
	int r;

	err[0] = 0;
	r = v4lc_jpeg_decode(j, f->jpg, f->size, V4L2_PIX_FMT_RGB24, dst, big,
			     f->w + 1, f->h, err, sizeof(err));
	CHECK(r == -EIO && err[0], "%s: width mismatch gave %d (%s)", tag(f), r,
	      err);
	r = v4lc_jpeg_decode(j, f->jpg, f->size, V4L2_PIX_FMT_RGB24, dst, big,
			     f->w, f->h + 1, err, sizeof(err));
	CHECK(r == -EIO, "%s: height mismatch gave %d", tag(f), r);
	r = v4lc_jpeg_decode(j, f->jpg, f->size, V4L2_PIX_FMT_YUYV, dst, n,
			     f->w, f->h, err, sizeof(err));
	CHECK(r == -EINVAL, "%s: YUYV destination gave %d", tag(f), r);
	r = v4lc_jpeg_decode(j, f->jpg, f->size, V4L2_PIX_FMT_RGB24, dst, n - 1,
			     f->w, f->h, err, sizeof(err));
	CHECK(r == -EFAULT, "%s: short RGB dst gave %d", tag(f), r);
	r = v4lc_jpeg_decode(j, f->jpg, f->size, V4L2_PIX_FMT_YUV420, dst,
			     v4lc_jpeg_dst_bytes(V4L2_PIX_FMT_YUV420, f->w,
						 f->h) -
				     1,
			     f->w, f->h, err, sizeof(err));
	CHECK(r == -EFAULT, "%s: short YUV dst gave %d", tag(f), r);
	r = v4lc_jpeg_decode(j, f->jpg, f->size, V4L2_PIX_FMT_RGB24, dst, n, 0,
			     f->h, err, sizeof(err));
	CHECK(r == -EINVAL, "%s: zero width gave %d", tag(f), r);
	/* Error paths must not have touched dst. */
	for (size_t i = 0; i < big + GUARD; i++)
		if (dst[i] != 0x11) {
			CHECK(0, "%s: an error path wrote dst", tag(f));
			break;
		}
	/* A NULL or tiny err buffer is fine. */
	r = v4lc_jpeg_decode(j, f->jpg, f->size, V4L2_PIX_FMT_RGB24, dst, big,
			     f->w + 1, f->h, NULL, 0);
	CHECK(r == -EIO, "%s: NULL err gave %d", tag(f), r);
	r = v4lc_jpeg_decode(j, f->jpg, f->size, V4L2_PIX_FMT_RGB24, dst, big,
			     f->w + 1, f->h, err, 1);
	CHECK(r == -EIO && err[0] == 0, "%s: 1-byte err gave %d", tag(f), r);
	free(dst);
}

static void check_sizes(void)
{
	static const int sizes[][2] = {
		{ 16, 16 },
		{ 640, 480 },
		{ 33, 17 },
		{ 641, 479 },
		{ 1, 1 },
		{ 2, 2 },
		{ 17, 33 },
		{ 3, 5 },
		{ 8, 7 },
		{ 1, 9 },
		{ 9, 1 },
		{ 48, 32 },
		/* Whole-block widths (luma decoded in place) with 1, 7 and 9
		 * rows in the last 8- or 16-row band. */
		{ 64, 49 },
		{ 72, 23 },
		{ 40, 57 },
	};
	static const int samps[] = { TJSAMP_444,  TJSAMP_422, TJSAMP_420,
				     TJSAMP_GRAY, TJSAMP_440, TJSAMP_411 };
	struct v4lc_jpeg *j = v4lc_jpeg_new();
	tjhandle ref = tjInitDecompress();
	double min_py = 999, min_pc = 999;
	int cases = 0;

	CHECK(j && ref, "cannot create decoders");
	for (size_t s = 0; s < JT_ARRAY_SIZE(sizes); s++)
		for (size_t k = 0; k < JT_ARRAY_SIZE(samps); k++)
			for (int strip = 0; strip < 2; strip++) {
				struct frame f;

				make_frame(&f, sizes[s][0], sizes[s][1],
					   samps[k], strip, (unsigned)(s + k));
				check_rgb(j, ref, &f);
				check_yuv(j, &f, &min_py, &min_pc);
				if (s < 4)
					check_errors(j, &f);
				free_frame(&f);
				cases++;
			}
	printf("sizes: %d frames, lowest PSNR vs the original image: Y %.1f dB, "
	       "chroma %.1f dB\n",
	       cases, min_py, min_pc);
	tjDestroy(ref);
	v4lc_jpeg_free(j);
}

/* Progressive frames, and frames made with the accurate forward DCT,
 * decode too (same checks). */
static void check_variants(void)
{
	static const int flags[] = { TJFLAG_PROGRESSIVE, TJFLAG_ACCURATEDCT };
	struct v4lc_jpeg *j = v4lc_jpeg_new();
	tjhandle ref = tjInitDecompress();
	double py = 999, pc = 999;

	for (size_t i = 0; i < JT_ARRAY_SIZE(flags); i++) {
		struct frame f;

		f.w = 97;
		f.h = 61;
		f.subsamp = TJSAMP_422;
		f.stripped = 0;
		f.rgb = jt_make_image(f.w, f.h, 7);
		f.full = jt_compress(f.rgb, f.w, f.h, f.subsamp, 95, flags[i],
				     &f.full_size);
		f.jpg = jt_xmalloc(f.full_size);
		memcpy(f.jpg, f.full, f.full_size);
		f.size = f.full_size;
		check_rgb(j, ref, &f);
		check_yuv(j, &f, &py, &pc);
		free_frame(&f);
	}
	tjDestroy(ref);
	v4lc_jpeg_free(j);
}

/*
 * A grey frame whose only component claims 4x4 sampling. A single-component
 * scan codes one block per MCU whatever the factors, so it is the same
 * picture, but the decoder hands it out in 32-row iMCU rows (the largest
 * JPEG allows). Must equal the reference of the unpatched frame.
 */
static void check_tall_imcu(void)
{
	static const int sizes[][2] = { { 64, 48 }, { 40, 33 }, { 24, 65 } };
	struct v4lc_jpeg *j = v4lc_jpeg_new();

	for (size_t s = 0; s < JT_ARRAY_SIZE(sizes); s++) {
		int w = sizes[s][0], h = sizes[s][1];
		uint8_t *img = jt_make_image(w, h, 11);
		size_t n, sof,
			nd = v4lc_jpeg_dst_bytes(V4L2_PIX_FMT_YUV420, w, h);
		uint8_t *jpg = jt_compress(img, w, h, TJSAMP_GRAY, 90, 0, &n);
		uint8_t *want = jt_reference_yuv420(jpg, n, w, h, TJSAMP_GRAY);
		uint8_t *got = guarded(nd, 0x3c);
		char err[256];
		int r;

		sof = jt_find_marker(jpg, n, 0xc0);
		CHECK(sof && jpg[sof + 9] == 1 && jpg[sof + 11] == 0x11,
		      "grey SOF not as expected");
		jpg[sof + 11] = 0x44;
		r = v4lc_jpeg_decode(j, jpg, n, V4L2_PIX_FMT_YUV420, got, nd, w,
				     h, err, sizeof(err));
		CHECK(r == 0 && want && !memcmp(want, got, nd),
		      "%dx%d grey 4x4 sampling: %d (%s)", w, h, r,
		      r ? err : "output differs");
		CHECK(guard_ok(got, nd, 0x3c), "grey 4x4: wrote past dst");
		free(img);
		free(jpg);
		free(want);
		free(got);
	}
	v4lc_jpeg_free(j);
}

/*
 * One decoder over many frames whose size, subsampling, DHT presence and
 * destination change from frame to frame (scratch growth and reuse, stale
 * state), each checked against the references.
 */
static void check_reuse(void)
{
	static const int sizes[][2] = { { 320, 240 }, { 33, 17 },
					{ 640, 480 }, { 16, 16 },
					{ 641, 479 }, { 1, 1 },
					{ 176, 144 } };
	static const int samps[] = { TJSAMP_422,  TJSAMP_420, TJSAMP_444,
				     TJSAMP_GRAY, TJSAMP_411, TJSAMP_440 };
	enum { NFRAMES = 14, ROUNDS = 150 };
	struct frame fr[NFRAMES];
	uint8_t *ref_rgb[NFRAMES], *ref_yuv[NFRAMES];
	struct v4lc_jpeg *j = v4lc_jpeg_new();
	tjhandle ref = tjInitDecompress();
	size_t maxn = 0;
	uint8_t *dst;
	char err[256];
	int bad = 0;

	for (int i = 0; i < NFRAMES; i++) {
		struct frame *f = &fr[i];
		size_t n;

		make_frame(f, sizes[i % 7][0], sizes[i % 7][1],
			   samps[i % JT_ARRAY_SIZE(samps)], i & 1,
			   (unsigned)i * 3);
		n = (size_t)f->w * f->h * 3;
		if (n > maxn)
			maxn = n;
		ref_rgb[i] = jt_xmalloc(n);
		CHECK(!tjDecompress2(ref, f->full, f->full_size, ref_rgb[i],
				     f->w, 0, f->h, TJPF_RGB, 0),
		      "reference decode");
		ref_yuv[i] = jt_reference_yuv420(f->full, f->full_size, f->w,
						 f->h, f->subsamp);
	}
	dst = jt_xmalloc(maxn);
	/*
	 * Regression: libjpeg-turbo 2.1 leaves a handle unusable after a failed
	 * header parse (the next header "succeeds" with stale sizes). A frame
	 * cut inside its header, then a good frame of another size, then a
	 * frame cut in its entropy data, then a good one.
	 */
	for (int cut = 8; cut < 200; cut += 24)
		for (int yuv = 0; yuv < 2; yuv++) {
			struct frame *a = &fr[10], *b = &fr[6];
			uint32_t fcc =
				yuv ? V4L2_PIX_FMT_YUV420 : V4L2_PIX_FMT_RGB24;
			size_t na = v4lc_jpeg_dst_bytes(fcc, a->w, a->h);
			size_t nb = v4lc_jpeg_dst_bytes(fcc, b->w, b->h);
			int r = v4lc_jpeg_decode(j, a->jpg, (size_t)cut, fcc,
						 dst, na, a->w, a->h, err,
						 sizeof(err));

			CHECK(r == -EAGAIN, "header cut at %d gave %d (%s)",
			      cut, r, err);
			r = v4lc_jpeg_decode(j, b->jpg, b->size, fcc, dst, nb,
					     b->w, b->h, err, sizeof(err));
			CHECK(r == 0 && !memcmp(dst,
						yuv ? ref_yuv[6] : ref_rgb[6],
						nb),
			      "good frame after a header cut at %d: %d (%s)",
			      cut, r, r ? err : "output differs");
			r = v4lc_jpeg_decode(j, b->jpg, b->size - 100, fcc, dst,
					     nb, b->w, b->h, err, sizeof(err));
			CHECK(r == -EPIPE, "entropy cut gave %d (%s)", r, err);
			r = v4lc_jpeg_decode(j, a->jpg, a->size, fcc, dst, na,
					     a->w, a->h, err, sizeof(err));
			CHECK(r == 0 && !memcmp(dst,
						yuv ? ref_yuv[10] : ref_rgb[10],
						na),
			      "good frame after an entropy cut: %d", r);
		}
	/*
	 * Regression: libjpeg keeps a handle's Huffman tables from one image
	 * to the next, so a DHT-less frame after a frame with its own
	 * (optimised, progressive) tables must still get the standard ones.
	 */
	{
		struct frame *b = &fr[1]; /* 33x17 4:2:0 without DHT */
		size_t np;
		uint8_t *img = jt_make_image(b->w, b->h, 5);
		uint8_t *prog = jt_compress(img, b->w, b->h, TJSAMP_420, 80,
					    TJFLAG_PROGRESSIVE, &np);

		CHECK(b->stripped, "fr[1] should be DHT-less");
		for (int yuv = 0; yuv < 2; yuv++) {
			uint32_t fcc =
				yuv ? V4L2_PIX_FMT_YUV420 : V4L2_PIX_FMT_RGB24;
			size_t n = v4lc_jpeg_dst_bytes(fcc, b->w, b->h);
			int r = v4lc_jpeg_decode(j, prog, np, fcc, dst, n, b->w,
						 b->h, err, sizeof(err));

			CHECK(r == 0, "progressive frame: %d (%s)", r, err);
			r = v4lc_jpeg_decode(j, b->jpg, b->size, fcc, dst, n,
					     b->w, b->h, err, sizeof(err));
			CHECK(r == 0 &&
				      !memcmp(dst,
					      yuv ? ref_yuv[1] : ref_rgb[1], n),
			      "DHT-less frame after a progressive one: %d (%s)",
			      r, r ? err : "output differs");
		}
		free(img);
		free(prog);
	}
	for (int k = 0; k < ROUNDS * 2; k++) {
		int i = (int)(jt_rand() % NFRAMES), yuv = k & 1;
		struct frame *f = &fr[i];
		uint32_t fcc = yuv ? V4L2_PIX_FMT_YUV420 : V4L2_PIX_FMT_RGB24;
		size_t n = v4lc_jpeg_dst_bytes(fcc, f->w, f->h);
		int r = v4lc_jpeg_decode(j, f->jpg, f->size, fcc, dst, n, f->w,
					 f->h, err, sizeof(err));

		if (r || memcmp(dst, yuv ? ref_yuv[i] : ref_rgb[i], n)) {
			if (bad++ < 5)
				CHECK(0, "reuse frame %d (%s %s): r=%d %s", k,
				      tag(f), yuv ? "YUV420" : "RGB24", r,
				      r ? err : "output differs");
			else
				failures++;
		}
		/* Now and then an error in between must not spoil the state. */
		if (k % 17 == 0) {
			r = v4lc_jpeg_decode(j, f->jpg, f->size / 2, fcc, dst,
					     n, f->w, f->h, err, sizeof(err));
			CHECK(r < 0, "truncated frame in reuse gave %d", r);
		}
	}
	printf("reuse: %d decodes on one decoder, %d bad\n", ROUNDS * 2, bad);
	for (int i = 0; i < NFRAMES; i++) {
		free_frame(&fr[i]);
		free(ref_rgb[i]);
		free(ref_yuv[i]);
	}
	free(dst);
	tjDestroy(ref);
	v4lc_jpeg_free(j);
}

static void check_lifecycle(void)
{
	struct v4lc_jpeg *j = v4lc_jpeg_new();

	CHECK(j != NULL, "v4lc_jpeg_new");
	v4lc_jpeg_free(j); /* never used: no handle was created */
	v4lc_jpeg_free(NULL);
	CHECK(v4lc_jpeg_dst_bytes(V4L2_PIX_FMT_YUV420, 33, 17) ==
		      33 * 17 + 2 * 17 * 9,
	      "dst_bytes YUV420 33x17");
	CHECK(v4lc_jpeg_dst_bytes(V4L2_PIX_FMT_BGR24, 641, 479) ==
		      641 * 479 * 3,
	      "dst_bytes BGR24");
	CHECK(v4lc_jpeg_dst_bytes(V4L2_PIX_FMT_MJPEG, 16, 16) == 0,
	      "dst_bytes MJPEG");
	CHECK(v4lc_jpeg_dst_bytes(V4L2_PIX_FMT_RGB24, -1, 16) == 0,
	      "dst_bytes negative");
}

int main(void)
{
	check_lifecycle();
	check_sizes();
	check_variants();
	check_tall_imcu();
	check_reuse();
	if (failures) {
		printf("%d failures\n", failures);
		return 1;
	}
	printf("all passed\n");
	return 0;
}
