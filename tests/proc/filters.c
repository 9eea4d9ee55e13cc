/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Software processing through the public API, against references computed
 * here in double precision (never with the library's code):
 * - gamma: out = round(255 * (in / 255) ^ (1000 / gamma)), exact;
 * - grey-world white balance: channel c scaled by mean(means) / mean_c,
 *   within 1 level of the double-precision result, and a colour cast
 *   becomes grey within a bounded number of frames after a scene change;
 * - Bayer: processing happens on the raw samples before demosaic, so the
 *   output equals the unprocessed conversion of the gamma-mapped raw frame;
 * - YUV (beyond the original): luma gamma exact, chroma means moved to 128.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libv4lconvert.h>

#include "../common/fakedev.h"
#include "../common/check.h"

#define W 64
#define H 32

static struct fakedev dev;

static struct v4lconvert_data *open_cam(uint32_t fourcc)
{
	memset(&dev, 0, sizeof(dev));
	dev.driver = "proccam";
	dev.n_formats = 1;
	dev.formats[0].fourcc = fourcc;
	dev.formats[0].n_sizes = 1;
	dev.formats[0].sizes[0][0] = W;
	dev.formats[0].sizes[0][1] = H;
	/* all emulated controls (white balance, flips, gamma, auto gain) */
	setenv("LIBV4LCONTROL_CONTROLS", "0x3f", 1);
	unsetenv("LIBV4LCONTROL_FLAGS");
	return v4lconvert_create_with_dev_ops(-1, &dev, &fakedev_ops);
}

static int set(struct v4lconvert_data *cv, uint32_t id, int32_t v)
{
	struct v4l2_control c = { .id = id, .value = v };

	return v4lconvert_vidioc_s_ctrl(cv, &c);
}

static struct v4l2_format fmt(uint32_t fourcc, uint32_t bpl)
{
	struct v4l2_format f;

	memset(&f, 0, sizeof(f));
	f.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	f.fmt.pix.pixelformat = fourcc;
	f.fmt.pix.width = W;
	f.fmt.pix.height = H;
	f.fmt.pix.bytesperline = bpl;
	f.fmt.pix.sizeimage = bpl * H;
	return f;
}

static int conv(struct v4lconvert_data *cv, uint32_t sf, uint32_t sbpl,
		uint8_t *src, uint32_t df, uint32_t dbpl, uint8_t *dst,
		size_t dsize)
{
	struct v4l2_format s = fmt(sf, sbpl), d = fmt(df, dbpl);

	return v4lconvert_convert(cv, &s, &d, src, (int)(sbpl * H), dst,
				  (int)dsize);
}

static int ref_gamma(int i, int gamma)
{
	return (int)lround(255.0 * pow(i / 255.0, 1000.0 / gamma));
}

/* Every value 0..255 in each channel; gamma tables exact, both orders. */
static void test_gamma(void)
{
	static const int gammas[] = { 500, 700, 1500, 2200, 3000 };
	uint8_t src[W * H * 3], out[W * H * 3];
	struct v4lconvert_data *cv = open_cam(V4L2_PIX_FMT_RGB24);

	for (int i = 0; i < W * H * 3; i++)
		src[i] = (uint8_t)(i * 7 / 3);
	CHECK(set(cv, V4L2_CID_AUTOGAIN, 0) == 0, "autogain off");
	for (int g = 0; g < 5; g++) {
		for (int order = 0; order < 2; order++) {
			uint32_t f =
				order ? V4L2_PIX_FMT_BGR24 : V4L2_PIX_FMT_RGB24;
			int bad = 0;

			CHECK(set(cv, V4L2_CID_GAMMA, gammas[g]) == 0,
			      "set gamma");
			CHECK(conv(cv, f, W * 3, src, f, W * 3, out,
				   sizeof(out)) == W * H * 3,
			      "convert");
			for (int i = 0; i < W * H * 3; i++)
				bad += out[i] != ref_gamma(src[i], gammas[g]);
			CHECK(!bad, "gamma %d: %d bytes differ", gammas[g],
			      bad);
			/* RGB24 from BGR24: gamma and the swap */
			if (order) {
				CHECK(conv(cv, V4L2_PIX_FMT_BGR24, W * 3, src,
					   V4L2_PIX_FMT_RGB24, W * 3, out,
					   sizeof(out)) == W * H * 3,
				      "convert");
				bad = 0;
				for (int i = 0; i < W * H * 3; i++)
					bad += out[i] !=
					       ref_gamma(src[i - i % 3 + 2 -
							     i % 3],
							 gammas[g]);
				CHECK(!bad, "gamma %d BGR->RGB: %d differ",
				      gammas[g], bad);
			}
		}
	}
	/* 1000 is no processing: the frame comes through untouched */
	CHECK(set(cv, V4L2_CID_GAMMA, 1000) == 0, "gamma 1000");
	CHECK(conv(cv, V4L2_PIX_FMT_RGB24, W * 3, src, V4L2_PIX_FMT_RGB24,
		   W * 3, out, sizeof(out)) == W * H * 3 &&
		      !memcmp(src, out, sizeof(out)),
	      "gamma 1000 is identity");
	errno = 0;
	CHECK(set(cv, V4L2_CID_GAMMA, 499) == -1 && errno == EINVAL &&
		      set(cv, V4L2_CID_GAMMA, 3001) == -1,
	      "gamma range 500..3000");
	v4lconvert_destroy(cv);
}

/* A textured frame with channel levels base[c] (same in every row). */
static void cast_frame(uint8_t *p, const int base[3])
{
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			for (int c = 0; c < 3; c++) {
				int v = base[c] + ((x * 5 + c * 3) % 21) - 10;

				p[(y * W + x) * 3 + c] = (uint8_t)v;
			}
}

static void means(const uint8_t *p, double m[3])
{
	for (int c = 0; c < 3; c++) {
		double s = 0;

		for (int i = 0; i < W * H; i++)
			s += p[i * 3 + c];
		m[c] = s / (W * H);
	}
}

static void test_white_balance(void)
{
	static const int cast[3] = { 150, 100, 60 },
			 cast2[3] = { 60, 110, 170 };
	uint8_t src[W * H * 3], out[W * H * 3];
	struct v4lconvert_data *cv = open_cam(V4L2_PIX_FMT_RGB24);
	double m[3], g[3], all;
	int worst = 0, frame;

	CHECK(set(cv, V4L2_CID_AUTOGAIN, 0) == 0 &&
		      set(cv, V4L2_CID_AUTO_WHITE_BALANCE, 1) == 0,
	      "white balance on");
	cast_frame(src, cast);
	CHECK(conv(cv, V4L2_PIX_FMT_RGB24, W * 3, src, V4L2_PIX_FMT_RGB24,
		   W * 3, out, sizeof(out)) == W * H * 3,
	      "convert");
	/* reference: grey-world gains in double precision */
	means(src, m);
	all = (m[0] + m[1] + m[2]) / 3;
	for (int c = 0; c < 3; c++)
		g[c] = all / m[c];
	for (int i = 0; i < W * H * 3; i++) {
		double r = src[i] * g[i % 3];
		int e = (int)lround(r > 255 ? 255 : r), d = abs(out[i] - e);

		worst = d > worst ? d : worst;
	}
	CHECK(worst <= 1, "white balance off by %d from the reference", worst);
	means(out, m);
	CHECK(fabs(m[0] - m[1]) < 1.5 && fabs(m[2] - m[1]) < 1.5,
	      "first frame grey: %.1f %.1f %.1f", m[0], m[1], m[2]);

	/* scene change to the opposite cast: grey again within N frames */
	cast_frame(src, cast2);
	for (frame = 0; frame < 40; frame++) {
		conv(cv, V4L2_PIX_FMT_RGB24, W * 3, src, V4L2_PIX_FMT_RGB24,
		     W * 3, out, sizeof(out));
		means(out, m);
		if (fabs(m[0] - m[1]) < 1.5 && fabs(m[2] - m[1]) < 1.5)
			break;
	}
	/* 10 frames to the next update, then at most 2560/128 moving steps */
	CHECK(frame <= 10 + 20, "grey after %d frames (%.1f %.1f %.1f)", frame,
	      m[0], m[1], m[2]);
	CHECK(frame >= 1, "the change is smoothed (grey at once)");
	/* off: the frame comes through untouched */
	CHECK(set(cv, V4L2_CID_AUTO_WHITE_BALANCE, 0) == 0 &&
		      conv(cv, V4L2_PIX_FMT_RGB24, W * 3, src,
			   V4L2_PIX_FMT_RGB24, W * 3, out,
			   sizeof(out)) == W * H * 3 &&
		      !memcmp(src, out, sizeof(out)),
	      "white balance off is identity");
	v4lconvert_destroy(cv);
}

/*
 * Bayer: processed before demosaic. Reference: gamma applied here to the
 * raw frame, then converted without processing; must be identical.
 */
static void test_bayer(void)
{
	static const uint32_t orders[] = { V4L2_PIX_FMT_SBGGR8,
					   V4L2_PIX_FMT_SGBRG8,
					   V4L2_PIX_FMT_SGRBG8,
					   V4L2_PIX_FMT_SRGGB8 };
	uint8_t raw[W * H], mapped[W * H], out[W * H * 3], ref[W * H * 3];

	for (int i = 0; i < W * H; i++)
		raw[i] = (uint8_t)((i * 37 + (i / W) * 11) & 255);
	for (int o = 0; o < 4; o++) {
		struct v4lconvert_data *cv = open_cam(orders[o]);

		set(cv, V4L2_CID_AUTOGAIN, 0);
		for (int i = 0; i < W * H; i++)
			mapped[i] = (uint8_t)ref_gamma(raw[i], 1800);
		CHECK(conv(cv, orders[o], W, mapped, V4L2_PIX_FMT_RGB24, W * 3,
			   ref, sizeof(ref)) == W * H * 3,
		      "reference convert");
		CHECK(set(cv, V4L2_CID_GAMMA, 1800) == 0, "gamma");
		CHECK(conv(cv, orders[o], W, raw, V4L2_PIX_FMT_RGB24, W * 3,
			   out, sizeof(out)) == W * H * 3,
		      "convert");
		CHECK(!memcmp(out, ref, sizeof(out)),
		      "%.4s: gamma before demosaic", (const char *)&orders[o]);
		v4lconvert_destroy(cv);
	}

	/* white balance on a cast Bayer frame: the RGB output comes out grey */
	{
		struct v4lconvert_data *cv = open_cam(V4L2_PIX_FMT_SBGGR8);
		double m[3];

		set(cv, V4L2_CID_AUTOGAIN, 0);
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++) /* B G / G R */
				raw[y * W + x] =
					(uint8_t)(((y & 1) && (x & 1))
							  ? 170 + (x % 7)
						  : (!(y & 1) && !(x & 1))
							  ? 50 + (x % 5)
							  : 100 + (x % 3));
		CHECK(set(cv, V4L2_CID_AUTO_WHITE_BALANCE, 1) == 0, "wb on");
		CHECK(conv(cv, V4L2_PIX_FMT_SBGGR8, W, raw, V4L2_PIX_FMT_RGB24,
			   W * 3, out, sizeof(out)) == W * H * 3,
		      "convert");
		means(out, m);
		CHECK(fabs(m[0] - m[1]) < 2 && fabs(m[2] - m[1]) < 2,
		      "Bayer white balance: %.1f %.1f %.1f", m[0], m[1], m[2]);
		v4lconvert_destroy(cv);
	}
}

/* YUYV to YUYV (beyond the original): luma gamma, chroma balance. */
static void test_yuv(void)
{
	uint8_t src[W * H * 2], out[W * H * 2], yu12[W * H * 3 / 2];
	struct v4lconvert_data *cv = open_cam(V4L2_PIX_FMT_YUYV);
	double su = 0, sv = 0;
	int bad = 0;

	for (int i = 0; i < W * H * 2; i += 4) {
		src[i] = (uint8_t)(i * 3);
		src[i + 1] = (uint8_t)(100 + (i / 4) % 9); /* U: mean 104 */
		src[i + 2] = (uint8_t)(i * 3 + 1);
		src[i + 3] = (uint8_t)(150 + (i / 4) % 5); /* V: mean 152 */
	}
	set(cv, V4L2_CID_AUTOGAIN, 0);
	CHECK(set(cv, V4L2_CID_GAMMA, 2000) == 0, "gamma");
	CHECK(conv(cv, V4L2_PIX_FMT_YUYV, W * 2, src, V4L2_PIX_FMT_YUYV, W * 2,
		   out, sizeof(out)) == W * H * 2,
	      "YUYV to YUYV");
	for (int i = 0; i < W * H * 2; i++)
		bad += (i & 1) ? out[i] != src[i]
			       : out[i] != ref_gamma(src[i], 2000);
	CHECK(!bad, "YUYV luma gamma: %d bytes differ", bad);

	CHECK(set(cv, V4L2_CID_AUTO_WHITE_BALANCE, 1) == 0, "wb on");
	CHECK(conv(cv, V4L2_PIX_FMT_YUYV, W * 2, src, V4L2_PIX_FMT_YUYV, W * 2,
		   out, sizeof(out)) == W * H * 2,
	      "YUYV to YUYV");
	for (int i = 0; i < W * H * 2; i += 4) {
		su += out[i + 1];
		sv += out[i + 3];
	}
	su /= W * H / 2;
	sv /= W * H / 2;
	CHECK(fabs(su - 128) <= 1 && fabs(sv - 128) <= 1,
	      "chroma balanced: U %.2f V %.2f", su, sv);

	/* YUYV to UYVY, mirrored, with luma gamma: reorder, flip, gamma */
	{
		uint8_t uyvy[W * H * 2];
		int bad2 = 0;

		CHECK(set(cv, V4L2_CID_AUTO_WHITE_BALANCE, 0) == 0 &&
			      set(cv, V4L2_CID_HFLIP, 1) == 0,
		      "mirror, no white balance");
		CHECK(conv(cv, V4L2_PIX_FMT_YUYV, W * 2, src, V4L2_PIX_FMT_UYVY,
			   W * 2, uyvy, sizeof(uyvy)) == W * H * 2,
		      "YUYV to UYVY");
		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x += 2) {
				const uint8_t *s =
					src + y * W * 2 + (W - 2 - x) * 2;
				const uint8_t *d = uyvy + y * W * 2 + x * 2;

				/* pair reversed: Y1 first; U, V stay */
				bad2 += d[0] != s[1] || d[2] != s[3] ||
					d[1] != ref_gamma(s[2], 2000) ||
					d[3] != ref_gamma(s[0], 2000);
			}
		CHECK(!bad2,
		      "YUYV -> UYVY mirrored with gamma: %d pairs differ",
		      bad2);
		set(cv, V4L2_CID_HFLIP, 0);
		set(cv, V4L2_CID_AUTO_WHITE_BALANCE, 1);
	}

	/* YUYV to YU12: one conversion, processed in the planar output */
	CHECK(conv(cv, V4L2_PIX_FMT_YUYV, W * 2, src, V4L2_PIX_FMT_YUV420, W,
		   yu12, sizeof(yu12)) == W * H * 3 / 2,
	      "YUYV to YU12");
	su = sv = 0;
	for (int i = 0; i < W * H / 4; i++) {
		su += yu12[W * H + i];
		sv += yu12[W * H * 5 / 4 + i];
	}
	su /= W * H / 4;
	sv /= W * H / 4;
	CHECK(fabs(su - 128) <= 1 && fabs(sv - 128) <= 1,
	      "YU12 chroma balanced: U %.2f V %.2f", su, sv);
	v4lconvert_destroy(cv);
}

/* With processing controls, native formats hide, packed 4:2:2 stays. */
static void test_formats(void)
{
	struct v4lconvert_data *cv = open_cam(V4L2_PIX_FMT_YUYV);
	struct v4l2_fmtdesc d;
	int yuyv = 0, n = 0;

	CHECK(v4lconvert_supported_dst_fmt_only(cv),
	      "dst-only with processing");
	for (uint32_t i = 0;; i++) {
		memset(&d, 0, sizeof(d));
		d.index = i;
		d.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		if (v4lconvert_enum_fmt(cv, &d))
			break;
		yuyv |= d.pixelformat == V4L2_PIX_FMT_YUYV;
		n++;
	}
	CHECK(yuyv && n == 5, "YUYV and the four destinations (%d formats)", n);
	v4lconvert_destroy(cv);
}

/*
 * Odd sizes and padded strides, every processed format, white balance and
 * gamma on (for AddressSanitizer: nothing read or written out of bounds;
 * the byte after each row and the frame stays as it was).
 */
static void test_odd_sizes(void)
{
	static const struct {
		uint32_t sf, df;
	} pairs[] = {
		{ V4L2_PIX_FMT_RGB24, V4L2_PIX_FMT_RGB24 },
		{ V4L2_PIX_FMT_BGR24, V4L2_PIX_FMT_YUV420 },
		{ V4L2_PIX_FMT_YUYV, V4L2_PIX_FMT_YUYV },
		{ V4L2_PIX_FMT_YUYV, V4L2_PIX_FMT_UYVY },
		{ V4L2_PIX_FMT_UYVY, V4L2_PIX_FMT_YVU420 },
		{ V4L2_PIX_FMT_YUYV, V4L2_PIX_FMT_RGB24 },
		{ V4L2_PIX_FMT_SGRBG8, V4L2_PIX_FMT_BGR24 },
		{ V4L2_PIX_FMT_SRGGB8, V4L2_PIX_FMT_YUV420 },
		{ V4L2_PIX_FMT_YUV420, V4L2_PIX_FMT_YUV420 },
	};
	static const int ws[] = { 1, 2, 3, 5, 17, 34 }, hs[] = { 1, 2, 3, 7 };
	int bad = 0;

	for (size_t p = 0; p < sizeof(pairs) / sizeof(pairs[0]); p++) {
		struct v4lconvert_data *cv = open_cam(pairs[p].sf);

		set(cv, V4L2_CID_AUTOGAIN, 0);
		set(cv, V4L2_CID_AUTO_WHITE_BALANCE, 1);
		set(cv, V4L2_CID_GAMMA, 1700);
		for (int flip = 0; flip < 2; flip++) {
			set(cv, V4L2_CID_HFLIP, flip);
			for (int a = 0; a < 6; a++)
				for (int b = 0; b < 4; b++) {
					struct v4l2_format s, d;
					int w = ws[a], h = hs[b], n;
					size_t ssize, dsize;
					uint8_t *src, *dst;

					memset(&s, 0, sizeof(s));
					s.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
					s.fmt.pix.pixelformat = pairs[p].sf;
					s.fmt.pix.width = (uint32_t)w;
					s.fmt.pix.height = (uint32_t)h;
					d = s;
					d.fmt.pix.pixelformat = pairs[p].df;
					/* generous, and exact sizes from the library */
					v4lconvert_fixup_fmt(&d);
					if (!d.fmt.pix.sizeimage)
						d.fmt.pix.sizeimage =
							(uint32_t)(4 *
								   ((w + 1) /
								    2) *
								   h);
					s.fmt.pix.bytesperline = 0;
					ssize = (size_t)(4 * (w + 1) * (h + 1));
					dsize = d.fmt.pix.sizeimage;
					src = malloc(ssize);
					dst = malloc(dsize + 1);
					for (size_t i = 0; i < ssize; i++)
						src[i] = (uint8_t)(i * 29 + 7);
					dst[dsize] = 0x5a;
					n = v4lconvert_convert(cv, &s, &d, src,
							       (int)ssize, dst,
							       (int)dsize);
					if (n <= 0 || dst[dsize] != 0x5a) {
						bad++;
						printf("  %.4s->%.4s %dx%d flip %d: %d (%s)\n",
						       (const char *)&pairs[p]
							       .sf,
						       (const char *)&pairs[p]
							       .df,
						       w, h, flip, n,
						       v4lconvert_get_error_message(
							       cv));
					}
					free(src);
					free(dst);
				}
		}
		v4lconvert_destroy(cv);
	}
	CHECK(!bad, "%d odd-size conversions failed", bad);
}

int main(void)
{
	test_gamma();
	test_white_balance();
	test_bayer();
	test_yuv();
	test_formats();
	test_odd_sizes();
	printf("proc-filters: %d failures\n", failures);
	return failures != 0;
}
