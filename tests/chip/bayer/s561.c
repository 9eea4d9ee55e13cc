/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * SPCA561 (S561) decoder (src/libv4lconvert/chipbayer_s561.c) against the
 * distribution's libv4lconvert. See README.md in this directory for the
 * rules where ours differs on purpose. For every frame:
 *  - OUR Bayer goes through ITS SGBRG8 -> RGB24 path and must equal ITS
 *    whole S561 -> RGB24 pipeline (pixels the stream does not code, when
 *    (h - 2) * w is not a multiple of 32, are history dependent in the
 *    original: then only the coded pixels are compared, each through its
 *    own colour channel of the original's RGB24);
 *  - where ours says EAGAIN (an invalid code) the original must have
 *    failed silently: it keeps its previous Bayer image, so a known
 *    sentinel frame is converted before every test frame and the
 *    original's output must then be the sentinel's;
 *  - frames where ours clamped a value outside -256 .. 511 (the original
 *    reads bytes of neighbouring tables there) are counted and not compared;
 *  - the original reads past the frame without a bound: it gets the frame
 *    followed by zeros, which is what ours reads past the end (EPIPE).
 * Frames: the test encoder's (src/vcam/chipenc_s561.c; best fit and random
 * symbols) at the SPCA561 sizes and others, mutated and truncated copies,
 * random, biased and zero-heavy random bytes, and hand-made ones.
 * Every encoder frame must also decode to the encoder's reconstruction.
 * Without the original only the checks that need none run (exit 77).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/origlib.h"
#include "libv4lconvert/chipbayer_s561.c"

#include "vcam/chipenc_bayer.h"
#include "../../common/check.h"

static struct origlib o;
static struct v4lconvert_data *cv;
static int have_orig;
static uint32_t seed = 561;

static uint32_t rnd(void)
{
	return v4lc_chipenc_rng(&seed);
}

#define FRAME_CAP (4u << 20)
#define MAXPX (640 * 480)

static uint8_t *frame, *bay, *recon, *rgb_a, *rgb_b, *sent_rgb, *sent_frame;
static size_t sent_n;
static int sent_w, sent_h;

/* Frames counted per outcome. */
static struct {
	long compared, identical, invalid_agree, clamp_excluded, short_frames,
		short_invalid, total, valid, valid_identical;
} cnt;

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

/* GBRG: the original's RGB24 channel that holds the raw sample at x, y. */
static int raw_of(const uint8_t *rgb, int w, int x, int y)
{
	int ch = (y & 1) == (x & 1) ? 1 : (y & 1) ? 0 : 2;

	return rgb[3 * ((size_t)y * w + x) + ch];
}

/*
 * A sentinel frame of this size: converted by the original right before
 * each test frame, so that a silent failure shows as its output.
 */
static void sentinel(int w, int h)
{
	uint8_t *img;

	if (sent_w == w && sent_h == h)
		return;
	img = malloc((size_t)w * h);
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++)
			img[(size_t)y * w + x] =
				(uint8_t)(37 + ((x * 5 + y * 11) % 7) * 23);
	sent_n = v4lc_chipenc_s561(img, w, h, sent_frame, FRAME_CAP / 2, 99,
				   NULL);
	memset(sent_frame + sent_n, 0, FRAME_CAP - sent_n);
	sent_w = w;
	sent_h = h;
	free(img);
	if (have_orig)
		CHECK(!orig_rgb(V4L2_PIX_FMT_SPCA561, w, h, sent_frame, sent_n,
				sent_rgb),
		      "original refuses the sentinel %dx%d", w, h);
}

/*
 * Frame `frame`, n bytes (zeros after it). expect: -1 no expectation, else
 * the return ours must give. want_clamped: -1 or the encoder's word.
 */
static void compare(int w, int h, size_t n, int expect, int want_clamped,
		    const char *what)
{
	char err[128] = "";
	unsigned flags;
	int ours, failed, stopped;
	size_t px = (size_t)w * h;
	size_t coded =
		h > 2 ? 2 * (size_t)w + (size_t)(h - 2) * w / 32 * 32 : px;

	cnt.total++;
	cnt.valid += expect == 0;
	memset(bay, 0xa5, px);
	ours = v4lc_s561_decode(frame, n, bay, w, h, &flags, err, sizeof(err));
	stopped = (flags & V4LC_S561_STOPPED) != 0;
	if (expect != -1)
		CHECK(ours == expect, "%dx%d %s: ours %d (%s), want %d", w, h,
		      what, ours, err, expect);
	if (want_clamped >= 0)
		CHECK(!!(flags & V4LC_S561_CLAMPED) == want_clamped,
		      "%dx%d %s: clamp flag %u, encoder %d", w, h, what, flags,
		      want_clamped);
	CHECK(ours == 0 || ours == -EPIPE || ours == -EAGAIN,
	      "%dx%d %s: ours %d", w, h, what, ours);
	CHECK(ours == -EAGAIN ? stopped
	      : ours == 0     ? !stopped
			      : 1,
	      "%dx%d %s: ours %d, flags %u", w, h, what, ours, flags);
	if (ours == -EPIPE)
		cnt.short_frames++;
	if (!have_orig)
		return;
	sentinel(w, h);
	if (orig_rgb(V4L2_PIX_FMT_SPCA561, w, h, sent_frame, sent_n, rgb_b)) {
		CHECK(0, "sentinel");
		return;
	}
	CHECK(!orig_rgb(V4L2_PIX_FMT_SPCA561, w, h, frame, n, rgb_a),
	      "%dx%d %s: the original reports an error", w, h, what);
	failed = !memcmp(rgb_a, sent_rgb, 3 * px);
	/*
	 * Past an out-of-range clamp the original's pixels differ, so do its
	 * contexts and tables: it may even stop at an invalid code.
	 */
	if (flags & V4LC_S561_CLAMPED) {
		cnt.clamp_excluded++;
		return;
	}
	if (ours == -EAGAIN || stopped) {
		CHECK(failed,
		      "%dx%d %s (%zu bytes): ours %d (%s), the original "
		      "decodes",
		      w, h, what, n, ours, err);
		if (failed) {
			if (ours == -EAGAIN)
				cnt.invalid_agree++;
			else
				cnt.short_invalid++;
		}
		return;
	}
	CHECK(!failed,
	      "%dx%d %s (%zu bytes): ours %d, the original fails "
	      "silently",
	      w, h, what, n, ours);
	if (failed)
		return;
	cnt.compared++;
	if (coded == px) {
		if (orig_rgb(V4L2_PIX_FMT_SGBRG8, w, h, bay, px, rgb_b)) {
			CHECK(0, "original refuses its own Bayer");
			return;
		}
		if (!memcmp(rgb_a, rgb_b, 3 * px)) {
			cnt.identical++;
			cnt.valid_identical += expect == 0;
			return;
		}
	}
	for (size_t i = 0; i < coded; i++) {
		int x = (int)(i % (size_t)w), y = (int)(i / (size_t)w);
		int t = raw_of(rgb_a, w, x, y);

		if (t != bay[i]) {
			CHECK(0,
			      "%dx%d %s (%zu bytes): first difference at "
			      "%d,%d: ours %d, original %d",
			      w, h, what, n, x, y, bay[i], t);
			return;
		}
	}
	if (coded == px)
		CHECK(0, "%dx%d %s: RGB differs (Bayer samples agree)", w, h,
		      what);
	else {
		cnt.identical++;
		cnt.valid_identical += expect == 0;
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
			case 2: /* hard edges */
				v = ((x / 8 + y / 8) & 1) ? 250 : 5;
				break;
			case 3: /* dark */
				v = (int)(rnd() % 40);
				break;
			case 4: /* bright, saturated */
				v = 215 + (int)(rnd() % 41);
				break;
			default: /* smooth plus noise */
				v = v4lc_chipenc_clamp(128 + (x - w / 2) / 3 +
						       (y - h / 2) / 4 +
						       (int)(rnd() % 13) - 6);
			}
			img[(size_t)y * w + x] = (uint8_t)v;
		}
}

static size_t encode(const uint8_t *img, int w, int h, int randsym,
		     int allow_clamp, int *clamped)
{
	size_t n;

	memset(frame, 0, FRAME_CAP);
	n = v4lc_chipenc_s561_ex(img, w, h, frame, FRAME_CAP / 2, rnd(),
				 randsym, allow_clamp, clamped, recon);
	return n;
}

/* Valid frames, their mutated and truncated copies. */
static void test_encoder(void)
{
	static const int sizes[][2] = {
		{ 352, 288 }, { 320, 240 }, { 176, 144 }, { 160, 120 },
		{ 640, 480 }, { 64, 34 },   { 32, 3 },    { 36, 7 },
		{ 101, 51 },  { 4, 18 },    { 48, 10 },   { 33, 2 },
	};
	uint8_t *img = malloc(MAXPX), *copy = malloc(FRAME_CAP);

	for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
		int w = sizes[si][0], h = sizes[si][1];
		int big = w * h >= 320 * 240, kinds = big ? 6 : 12;

		for (int kind = 0; kind < kinds; kind++) {
			int randsym = kind >= 6 ? kind & 1 : kind == 1;
			int allow = kind >= 8 && (kind & 2);
			int clamped;
			size_t n;
			char what[80];

			make_image(img, w, h, kind % 6);
			n = encode(img, w, h, randsym, allow, &clamped);
			snprintf(what, sizeof(what), "encoder image %d%s%s",
				 kind % 6, randsym ? " random symbols" : "",
				 allow ? " clamps allowed" : "");
			compare(w, h, n, 0, clamped, what);
			CHECK(!memcmp(bay, recon, (size_t)w * h),
			      "%dx%d %s: not the encoder's image", w, h, what);
			if (!allow)
				CHECK(!clamped, "encoder clamped");
			memcpy(copy, frame, n);
			/* mutations: random bytes, then bytes that make codes invalid */
			for (int t = 0; t < (big ? 4 : 24); t++) {
				static const uint8_t nasty[] = {
					0x00, 0x01, 0x02, 0x03, 0x08, 0x2e,
					0x2f, 0x30, 0x3f, 0x90, 0x91, 0xff
				};
				size_t at =
					20 + 2 * (size_t)w +
					rnd() % (n - 20 - 2 * (size_t)w + 1);

				if (at >= n)
					at = n - 1;
				frame[at] = t & 1 ? nasty[rnd() % sizeof(nasty)]
						  : (uint8_t)(rnd() >> 24);
				if (t & 2)
					frame[rnd() % n] ^=
						(uint8_t)(1u << (rnd() % 8));
				snprintf(what, sizeof(what), "image %d mutated",
					 kind % 6);
				compare(w, h, n, -1, -1, what);
				memcpy(frame, copy, n);
			}
			/* truncated copies: EPIPE */
			for (int t = 0; t < (big ? 2 : 6); t++) {
				size_t m = t == 0   ? n - 1
					   : t == 1 ? rnd() % n
					   : t == 2 ? 0
						    : rnd() % n;

				memset(frame + m, 0, FRAME_CAP - m);
				snprintf(what, sizeof(what),
					 "image %d cut to %zu", kind % 6, m);
				compare(w, h, m,
					h > 2 && (size_t)(h - 2) * w >= 32
						? -EPIPE
					: m < 20 + 2 * (size_t)w ? -EPIPE
								 : 0,
					-1, what);
				memcpy(frame, copy, n);
			}
		}
	}
	free(img);
	free(copy);
}

/* Random bytes: plain, biased towards ones, towards zeros, escapes. */
static void test_random(int nframes)
{
	static const int sizes[][2] = { { 32, 4 },  { 32, 10 }, { 64, 10 },
					{ 16, 6 },  { 40, 5 },  { 24, 12 },
					{ 64, 34 }, { 8, 8 } };

	for (int i = 0; i < nframes; i++) {
		int w = sizes[i % 8][0], h = sizes[i % 8][1],
		    kind = (i / 8) % 6;
		size_t n = 20 + 2 * (size_t)w + (size_t)w * h / 2 + rnd() % 64;
		static const uint8_t esc[] = { 0,    1,    2,    3,   0x91,
					       0x90, 0x44, 0x3f, 0xff };

		memset(frame, 0, FRAME_CAP);
		for (size_t j = 0; j < n; j++) {
			uint32_t r = rnd(), r2 = rnd();

			switch (kind) {
			case 0:
				frame[j] = (uint8_t)(r >> 24);
				break;
			case 1:
				frame[j] = (uint8_t)((r >> 24) | (r2 >> 24));
				break;
			case 2:
				frame[j] = (uint8_t)((r >> 24) & (r2 >> 24));
				break;
			case 3:
				frame[j] = r % 3 ? (uint8_t)((r >> 24) | 0x80)
						 : esc[r2 % sizeof(esc)];
				break;
			case 4:
				frame[j] = (uint8_t)((r >> 24) | (r2 >> 24) |
						     0x40);
				break;
			default:
				frame[j] = (uint8_t)(r >> 24 | 0x88);
			}
		}
		/* raw rows: extreme values now and then */
		if (i % 3 == 0)
			for (int j = 0; j < 2 * w; j++)
				frame[20 + j] =
					(uint8_t)((j + i) & 2 ? 255 : 0);
		compare(w, h, n, -1, -1, "random");
	}
}

/* Hand-made frames (the worked example of the description). */
static void test_crafted(void)
{
	static const uint8_t tail[5] = { 0x00, 0xff, 0xff, 0xff, 0x80 };

	memset(frame, 0, FRAME_CAP);
	memset(frame + 20, 100, 64);
	memcpy(frame + 84, tail, 5);
	compare(32, 3, 89, 0, 0, "crafted 32x3");
	for (int i = 0; i < 96; i++)
		CHECK(bay[i] == 100, "crafted: pixel %d is %d", i, bay[i]);
	/* an all-zero stream is invalid at the 8th pixel (table B) */
	memset(frame + 84, 0, 16);
	compare(32, 3, 100, -EAGAIN, -1, "crafted zeros");
	/* the same, the zeros being past the end: short */
	compare(32, 3, 84, -EPIPE, -1, "crafted cut");
	/*
	 * leftover pixels: 36x3 has 4 uncoded ones, copies of row 0; the 32
	 * coded ones see only 100s (as in the example above)
	 */
	memset(frame, 0, FRAME_CAP);
	memset(frame + 20, 100, 72);
	frame[20 + 34] = 7;
	frame[20 + 35] = 9;
	memcpy(frame + 92, tail, 5);
	{
		char err[64];
		unsigned fl;
		int r = v4lc_s561_decode(frame, 97, bay, 36, 3, &fl, err, 64);

		CHECK(r == 0, "36x3: %d", r);
		for (int x = 32; x < 36; x++)
			CHECK(bay[72 + x] == frame[20 + x],
			      "36x3 leftover pixel %d: %d", x, bay[72 + x]);
	}
}

int main(int argc, char **argv)
{
	int nrandom = argc > 1 ? atoi(argv[1]) : 6000;

	cv = origlib_open_plain(&o, 0);
	have_orig = cv != NULL;
	frame = calloc(FRAME_CAP, 1);
	sent_frame = calloc(FRAME_CAP, 1);
	bay = malloc(MAXPX);
	recon = malloc(MAXPX);
	rgb_a = malloc(3 * MAXPX);
	rgb_b = malloc(3 * MAXPX);
	sent_rgb = malloc(3 * MAXPX);

	test_crafted();
	test_encoder();
	test_random(nrandom);

	printf("S561: %ld frames: %ld compared, %ld identical; %ld invalid "
	       "(EAGAIN, the original silent: agreed), %ld short frames "
	       "(EPIPE; %ld of them stopped at an invalid code past the end, "
	       "the original silent: agreed), %ld excluded: out-of-range "
	       "clamp; valid frames (encoder, crafted): %ld, %ld of them "
	       "identical\n",
	       cnt.total, cnt.compared, cnt.identical, cnt.invalid_agree,
	       cnt.short_frames, cnt.short_invalid, cnt.clamp_excluded,
	       cnt.valid, cnt.valid_identical);
	if (have_orig) {
		o.destroy(cv);
		origlib_close(&o);
	}
	free(frame);
	free(sent_frame);
	free(bay);
	free(recon);
	free(rgb_a);
	free(rgb_b);
	free(sent_rgb);
	if (failures)
		printf("%d failures\n", failures);
	if (!failures && !have_orig)
		printf("no original to compare with: skipped\n");
	return failures ? 1 : have_orig ? 0 : 77;
}
