/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Bit-exactness of the chip Bayer decoders against the distribution's
 * libv4lconvert: for each format, OUR decoder's Bayer output goes through
 * ITS plain Bayer -> RGB24 path, and must give the same bytes as ITS whole
 * pipeline on the compressed frame. Frames: valid ones from the test
 * encoders (src/vcam/chipenc_bayer.h) for several images and sizes, random and
 * structured garbage, and truncated valid frames. Both must agree on
 * rejecting a frame (EAGAIN / EPIPE); where the original does not check the
 * length at all (it reads past its input), it gets the frame followed by
 * zeros, which is what our decoders read past the end, and ours must say
 * EPIPE exactly when the bitstream ran past the end.
 * Every valid frame must also decode to the encoder's own reconstruction.
 * Without the original (e.g. on ARM) only that check and the no-crash runs
 * over the other frames are done, then exit 77 (skipped) unless one failed.
 * --bench: MPix/s of our decoder alone and of the original's whole
 * pipeline to RGB24 at 640x480.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../common/origlib.h"
#include "libv4lconvert/chipbayer.h"

#include "vcam/chipenc_bayer.h"
#include "../../common/check.h"

struct fmt {
	const char *name;
	uint32_t fourcc, bayer;
	v4lc_chipbayer_fn *dec;
	v4lc_chipenc_bayer_fn *enc;
	/*
	 * 1: the original reads past its input without checking; 2: also
	 * keeps a corrupt frame (stopping where it is, the rest of its buffer
	 * stale) where ours says EAGAIN.
	 */
	int unchecked;
};

static const struct fmt fmts[] = {
	{ "S910", V4L2_PIX_FMT_SN9C10X, V4LC_S910_ORDER, v4lc_decode_s910,
	  v4lc_chipenc_s910, 1 },
	{ "P207", V4L2_PIX_FMT_PAC207, V4LC_P207_ORDER, v4lc_decode_p207,
	  v4lc_chipenc_p207, 1 },
	{ "M310", V4L2_PIX_FMT_MR97310A, V4LC_M310_ORDER, v4lc_decode_m310,
	  v4lc_chipenc_m310, 0 },
	{ "SONX", V4L2_PIX_FMT_SN9C2028, V4LC_SONX_ORDER, v4lc_decode_sonx,
	  v4lc_chipenc_sonx, 1 },
	{ "905C", V4L2_PIX_FMT_SQ905C, V4LC_905C_ORDER, v4lc_decode_905c,
	  v4lc_chipenc_905c, 2 },
	{ "S680", V4L2_PIX_FMT_STV0680, V4LC_S680_ORDER, v4lc_decode_s680,
	  v4lc_chipenc_s680, 1 },
};
#define NF (int)(sizeof(fmts) / sizeof(fmts[0]))

static struct origlib o;
static struct v4lconvert_data *cv;

static uint32_t seed = 2024;

static uint32_t rnd(void)
{
	return v4lc_chipenc_rng(&seed);
}

/* The original: fourcc frame -> RGB24; returns 0 or the errno. */
static int orig_rgb(uint32_t fourcc, int w, int h, const uint8_t *src, size_t n,
		    uint8_t *rgb)
{
	struct v4l2_format sf, df;
	int r;

	memset(&sf, 0, sizeof(sf));
	memset(&df, 0, sizeof(df));
	sf.type = df.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	sf.fmt.pix.width = df.fmt.pix.width = (uint32_t)w;
	sf.fmt.pix.height = df.fmt.pix.height = (uint32_t)h;
	sf.fmt.pix.pixelformat = fourcc;
	sf.fmt.pix.bytesperline = (uint32_t)w;
	sf.fmt.pix.sizeimage = (uint32_t)n;
	sf.fmt.pix.field = df.fmt.pix.field = V4L2_FIELD_NONE;
	df.fmt.pix.pixelformat = V4L2_PIX_FMT_RGB24;
	df.fmt.pix.bytesperline = (uint32_t)(3 * w);
	df.fmt.pix.sizeimage = (uint32_t)(3 * w * h);
	errno = 0;
	r = o.convert(cv, &sf, &df, (unsigned char *)src, (int)n, rgb,
		      3 * w * h);
	return r < 0 ? (errno ? errno : -1) : 0;
}

/* Raw sample at (x, y) recovered from the original's RGB24 (own channel). */
static int raw_of(const uint8_t *rgb, uint32_t order, int w, int x, int y)
{
	static const char *cells[4] = { "BGGR", "GBRG", "GRBG", "RGGB" };
	static const uint32_t fccs[4] = { V4L2_PIX_FMT_SBGGR8,
					  V4L2_PIX_FMT_SGBRG8,
					  V4L2_PIX_FMT_SGRBG8,
					  V4L2_PIX_FMT_SRGGB8 };
	int k = 0;
	char c;

	while (k < 3 && fccs[k] != order)
		k++;
	c = cells[k][(y & 1) * 2 + (x & 1)];
	return rgb[3 * ((size_t)y * w + x) + (c == 'R' ? 0 : c == 'G' ? 1 : 2)];
}

static uint8_t *bay, *rgb_a, *rgb_b, *frame, *recon;
static int have_orig;
static size_t frame_cap;

/*
 * The last valid frame: the original passes every third consecutive
 * corrupt MR97310A frame on as if it were good (a good frame resets the
 * count), so after each frame it rejects it converts this one.
 */
static uint8_t *good;
static size_t good_n;
static int good_w, good_h;

/*
 * One frame of n bytes at `frame` (followed by zeros up to frame_cap):
 * ours against the original. `valid`: ours must decode it without error.
 */
static void compare(const struct fmt *f, int w, int h, size_t n, int valid,
		    const char *what)
{
	char err[128] = "";
	int ours = f->dec(frame, n, bay, w, h, err, sizeof(err));
	int theirs;

	if (valid) {
		CHECK(ours == 0, "%s %dx%d %s: ours %d (%s)", f->name, w, h,
		      what, ours, err);
		CHECK(!memcmp(bay, recon, (size_t)w * h),
		      "%s %dx%d %s: not the encoder's image", f->name, w, h,
		      what);
	}
	if (!have_orig)
		return;
	theirs = orig_rgb(f->fourcc, w, h, frame, n, rgb_a);
	if (theirs && good_n)
		orig_rgb(f->fourcc, good_w, good_h, good, good_n, rgb_b);
	if (theirs) {
		CHECK(ours == -theirs,
		      "%s %dx%d %s (%zu bytes): original errno %d, "
		      "ours %d (%s)",
		      f->name, w, h, what, n, theirs, ours, err);
		return;
	}
	if (ours == -EAGAIN && f->unchecked == 2)
		return;
	if (ours) {
		CHECK(f->unchecked && ours == -EPIPE,
		      "%s %dx%d %s (%zu bytes): original decodes, ours %d (%s)",
		      f->name, w, h, what, n, ours, err);
		if (ours != -EPIPE)
			return;
	}
	if (orig_rgb(f->bayer, w, h, bay, (size_t)w * h, rgb_b)) {
		CHECK(0, "%s: original refuses its own Bayer", f->name);
		return;
	}
	if (memcmp(rgb_a, rgb_b, (size_t)3 * w * h)) {
		for (int y = 0; y < h; y++)
			for (int x = 0; x < w; x++) {
				int t = raw_of(rgb_a, f->bayer, w, x, y);

				if (t != bay[(size_t)y * w + x]) {
					CHECK(0,
					      "%s %dx%d %s (%zu bytes): first "
					      "difference at %d,%d: ours %d, "
					      "original %d",
					      f->name, w, h, what, n, x, y,
					      bay[(size_t)y * w + x], t);
					return;
				}
			}
		CHECK(0, "%s %dx%d %s: RGB differs (Bayer samples agree)",
		      f->name, w, h, what);
	}
}

static void make_image(uint8_t *img, int w, int h, int kind)
{
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			int v;

			switch (kind) {
			case 0: /* smooth, different per colour site */
				v = (x * 3 + y * 2 + ((x & 1) + (y & 1)) * 40) &
				    255;
				break;
			case 1:
				v = (int)(rnd() >> 24);
				break;
			case 2:
				v = ((x / 8 + y / 8) & 1) ? 250 : 5;
				break;
			case 3:
				v = 0;
				break;
			case 4:
				v = 255;
				break;
			default: /* smooth plus noise */
				v = v4lc_chipenc_clamp(128 + (x - w / 2) / 3 +
						       (y - h / 2) / 4 +
						       (int)(rnd() % 13) - 6);
			}
			img[(size_t)y * w + x] = (uint8_t)v;
		}
}

static const int sizes[][2] = { { 16, 4 },    { 64, 8 },    { 160, 120 },
				{ 176, 144 }, { 320, 240 }, { 352, 288 },
				{ 640, 480 } };

static void test_format(const struct fmt *f)
{
	int before = failures;

	for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
		int w = sizes[si][0], h = sizes[si][1];
		size_t px = (size_t)w * h;
		uint8_t *img = malloc(px);

		for (int kind = 0; kind < 6; kind++) {
			size_t n;
			char what[64];

			make_image(img, w, h, kind);
			memset(frame, 0, frame_cap);
			n = f->enc(img, w, h, frame, frame_cap / 2, rnd(),
				   recon);
			snprintf(what, sizeof(what), "valid image %d", kind);
			good_n = 0;
			compare(f, w, h, n, 1, what);
			memcpy(good, frame, n);
			good_n = n;
			good_w = w;
			good_h = h;
			/* copies with a few bytes changed */
			for (int t = 0; t < 3; t++) {
				uint8_t *copy = malloc(n + 1);

				memcpy(copy, frame, n);
				for (int k = 0; k <= t; k++)
					frame[rnd() % n] =
						(uint8_t)(rnd() >> 24);
				snprintf(what, sizeof(what), "image %d mutated",
					 kind);
				compare(f, w, h, n, 0, what);
				memcpy(frame, copy, n);
				free(copy);
			}
			/* truncated copies of it */
			for (int t = 0; t < 4; t++) {
				size_t m = t == 0   ? n - 1
					   : t == 1 ? n / 2
					   : t == 2 ? 0
						    : rnd() % n;

				memset(frame + m, 0, frame_cap - m);
				snprintf(what, sizeof(what),
					 "image %d cut to %zu", kind, m);
				compare(f, w, h, m, 0, what);
			}
		}
		for (int r = 0; r < 8; r++) {
			size_t n = r < 4 ? px : rnd() % (px + 1);
			int fill = r & 1 ? -1 : (int)(rnd() & 255);

			memset(frame, 0, frame_cap);
			for (size_t i = 0; i < n; i++)
				frame[i] = fill < 0 ? (uint8_t)(rnd() >> 24)
						    : (uint8_t)fill;
			compare(f, w, h, n, 0,
				fill < 0 ? "random" : "constant");
		}
		free(img);
	}
	printf("%s: %s\n", f->name,
	       failures != before ? "FAILED"
	       : have_orig        ? "exact"
				  : "decodes the encoder's frames");
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void bench(const struct fmt *f)
{
	int w = 640, h = 480;
	uint8_t *img = malloc((size_t)w * h);
	size_t n;
	double best_d = 1e9, best_o = 1e9;

	make_image(img, w, h, 5);
	memset(frame, 0, frame_cap);
	n = f->enc(img, w, h, frame, frame_cap / 2, 1, NULL);
	for (int rep = 0; rep < 7; rep++) {
		double t0 = now();

		for (int i = 0; i < 20; i++)
			f->dec(frame, n, bay, w, h, NULL, 0);
		t0 = (now() - t0) / 20;
		if (t0 < best_d)
			best_d = t0;
		t0 = now();
		for (int i = 0; i < 20; i++)
			orig_rgb(f->fourcc, w, h, frame, n, rgb_a);
		t0 = (now() - t0) / 20;
		if (t0 < best_o)
			best_o = t0;
	}
	printf("%s 640x480: our decoder %.0f MPix/s, original to RGB24 %.0f "
	       "MPix/s\n",
	       f->name, w * h / best_d / 1e6, w * h / best_o / 1e6);
	free(img);
}

int main(int argc, char **argv)
{
	int do_bench = argc > 1 && !strcmp(argv[1], "--bench");

	cv = origlib_open_plain(&o, 0);
	have_orig = cv != NULL;
	if (!have_orig && do_bench)
		return 77;
	frame_cap = 8u << 20;
	recon = malloc(1024 * 1024);
	frame = calloc(frame_cap, 1);
	bay = malloc(1024 * 1024);
	good = malloc(frame_cap);
	rgb_a = malloc(3 * 1024 * 1024);
	rgb_b = malloc(3 * 1024 * 1024);
	for (int i = 0; i < NF; i++) {
		if (argc > 1 && !do_bench && strcmp(argv[1], fmts[i].name))
			continue;
		if (do_bench)
			bench(&fmts[i]);
		else
			test_format(&fmts[i]);
	}
	if (have_orig) {
		o.destroy(cv);
		origlib_close(&o);
	}
	free(recon);
	free(frame);
	free(bay);
	free(good);
	free(rgb_a);
	free(rgb_b);
	if (failures)
		printf("%d failures\n", failures);
	if (!failures && !have_orig)
		printf("decoders checked against the test encoders only; "
		       "no original to compare with: skipped\n");
	return failures ? 1 : have_orig ? 0 : 77;
}
