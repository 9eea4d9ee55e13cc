/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Malformed frames through v4lconvert_convert (public API, fake device):
 * for every source fourcc the original knows (tests/fuzz/fourccs.h) and
 * every destination, zero-length, truncated, oversized and garbage frames;
 * absurd widths, heights and bytesperline values (overflow in the size
 * computations); destinations we cannot make; a destination buffer too
 * small. Each call gives the bytes written or -1 with a documented errno
 * and a message, nothing else; after each batch of bad frames a good frame
 * still converts right (the stream goes on), checked against an
 * independent RGB24 -> BGR24 swap.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/videodev2.h>

#include <libv4lconvert.h>

#include "../common/fakedev.h"
#include "../fuzz/fourccs.h"
#include "../common/check.h"
#include "../common/fourcc.h"

#define W 64
#define H 48

static const uint32_t dsts[] = {
	V4L2_PIX_FMT_RGB24,
	V4L2_PIX_FMT_BGR24,
	V4L2_PIX_FMT_YUV420,
	V4L2_PIX_FMT_YVU420,
};

/*
 * Formats with a fixed frame size: bytes of a W x H frame at the minimal
 * stride, in eighths of a byte per pixel (the rest are compressed or
 * chip-specific: any size may decode).
 */
static const struct {
	uint32_t fourcc;
	unsigned eighths;
} raw[] = {
	{ FZ_FCC('R', 'G', 'B', '3'), 24 },
	{ FZ_FCC('B', 'G', 'R', '3'), 24 },
	{ FZ_FCC('Y', 'U', '1', '2'), 12 },
	{ FZ_FCC('Y', 'V', '1', '2'), 12 },
	{ FZ_FCC('N', 'V', '1', '2'), 12 },
	{ FZ_FCC('N', 'V', '2', '1'), 12 },
	{ FZ_FCC('Y', 'U', 'Y', 'V'), 16 },
	{ FZ_FCC('Y', 'V', 'Y', 'U'), 16 },
	{ FZ_FCC('U', 'Y', 'V', 'Y'), 16 },
	{ FZ_FCC('V', 'Y', 'U', 'Y'), 16 },
	{ FZ_FCC('N', 'V', '1', '6'), 16 },
	{ FZ_FCC('N', 'V', '6', '1'), 16 },
	{ FZ_FCC('R', 'G', 'B', 'P'), 16 },
	{ FZ_FCC('B', 'G', 'R', '4'), 32 },
	{ FZ_FCC('R', 'G', 'B', '4'), 32 },
	{ FZ_FCC('X', 'R', '2', '4'), 32 },
	{ FZ_FCC('B', 'X', '2', '4'), 32 },
	{ FZ_FCC('A', 'R', '2', '4'), 32 },
	{ FZ_FCC('B', 'A', '2', '4'), 32 },
	{ FZ_FCC('G', 'R', 'E', 'Y'), 8 },
	{ FZ_FCC('B', 'A', '8', '1'), 8 },
	{ FZ_FCC('G', 'B', 'R', 'G'), 8 },
	{ FZ_FCC('G', 'R', 'B', 'G'), 8 },
	{ FZ_FCC('R', 'G', 'G', 'B'), 8 },
	{ FZ_FCC('Y', '1', '6', ' '), 16 },
	{ FZ_FCC_BE('Y', '1', '6', ' '), 16 },
	{ FZ_FCC('B', 'G', '1', '0'), 16 },
	{ FZ_FCC('G', 'B', '1', '0'), 16 },
	{ FZ_FCC('B', 'A', '1', '0'), 16 },
	{ FZ_FCC('R', 'G', '1', '0'), 16 },
	{ FZ_FCC('B', 'Y', 'R', '2'), 16 },
	{ FZ_FCC('G', 'B', '1', '6'), 16 },
	{ FZ_FCC('G', 'R', '1', '6'), 16 },
	{ FZ_FCC('R', 'G', '1', '6'), 16 },
	{ FZ_FCC('p', 'B', 'A', 'A'), 10 },
	{ FZ_FCC('p', 'G', 'A', 'A'), 10 },
	{ FZ_FCC('p', 'g', 'A', 'A'), 10 },
	{ FZ_FCC('p', 'R', 'A', 'A'), 10 },
	{ FZ_FCC('H', 'S', 'V', '4'), 32 },
	{ FZ_FCC('H', 'S', 'V', '3'), 24 },
};

static struct fakedev dev = {
	.driver = "robust",
	.n_formats = 1,
	.formats = { { V4L2_PIX_FMT_YUYV, 1, { { W, H } } } },
};
static struct v4lconvert_data *conv;
static uint32_t seed = 12345;

static uint8_t rnd(void)
{
	seed = seed * 1103515245u + 12345u;
	return (uint8_t)(seed >> 16);
}

static long raw_size(uint32_t f)
{
	for (size_t i = 0; i < sizeof(raw) / sizeof(raw[0]); i++)
		if (raw[i].fourcc == f)
			return (long)W * H * raw[i].eighths / 8;
	return -1;
}

static void fmt(struct v4l2_format *f, uint32_t fourcc, uint32_t w, uint32_t h,
		uint32_t bpl)
{
	memset(f, 0, sizeof(*f));
	f->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	f->fmt.pix.pixelformat = fourcc;
	f->fmt.pix.width = w;
	f->fmt.pix.height = h;
	f->fmt.pix.bytesperline = bpl;
	f->fmt.pix.field = V4L2_FIELD_NONE;
	f->fmt.pix.colorspace = V4L2_COLORSPACE_SRGB;
}

/*
 * One conversion of `n` bytes (exact-size copies: a sanitizer sees any
 * byte touched outside). Returns the result, errno in *err.
 */
static int run(const struct v4l2_format *src, const struct v4l2_format *dst,
	       const uint8_t *frame, size_t n, size_t dest_size, int *err,
	       uint8_t **out)
{
	uint8_t *s = malloc(n ? n : 1), *d = malloc(dest_size ? dest_size : 1);
	int ret;

	memcpy(s, frame, n);
	errno = 0;
	ret = v4lconvert_convert(conv, src, dst, s, (int)n, d, (int)dest_size);
	*err = errno;
	if (ret < 0) {
		const char *msg = v4lconvert_get_error_message(conv);

		CHECK(ret == -1, "%d", ret);
		CHECK(msg && msg[0], "%s -> %s: no message",
		      FOURCC_STR(src->fmt.pix.pixelformat),
		      FOURCC_STR(dst->fmt.pix.pixelformat));
	} else {
		CHECK((size_t)ret <= dest_size, "%s: %d > %zu",
		      FOURCC_STR(src->fmt.pix.pixelformat), ret, dest_size);
	}
	free(s);
	if (out)
		*out = d;
	else
		free(d);
	return ret;
}

static int is(int e, int a, int b, int c)
{
	return e == a || e == b || e == c;
}

/* A good frame after bad ones: RGB24 -> BGR24, checked by hand. */
static void stream_goes_on(const char *after)
{
	struct v4l2_format s, d;
	uint8_t frame[W * H * 3], *out;
	int err, ret, bad = 0;

	for (size_t i = 0; i < sizeof(frame); i++)
		frame[i] = rnd();
	fmt(&s, V4L2_PIX_FMT_RGB24, W, H, 0);
	fmt(&d, V4L2_PIX_FMT_BGR24, W, H, 0);
	v4lconvert_fixup_fmt(&d);
	ret = run(&s, &d, frame, sizeof(frame), d.fmt.pix.sizeimage, &err,
		  &out);
	CHECK(ret == W * H * 3, "after %s: %d (errno %d)", after, ret, err);
	for (int i = 0; ret > 0 && i < W * H; i++)
		bad += out[3 * i] != frame[3 * i + 2] ||
		       out[3 * i + 1] != frame[3 * i + 1] ||
		       out[3 * i + 2] != frame[3 * i];
	CHECK(!bad, "after %s: %d pixels wrong", after, bad);
	free(out);
}

static void bad_frames(uint32_t f, int *supported)
{
	size_t big = (size_t)W * H * 4 + 8192;
	uint8_t *garbage = malloc(big);
	long need = raw_size(f);
	struct v4l2_format s, d;
	int err, ret;

	*supported = 0;
	for (size_t i = 0; i < big; i++)
		garbage[i] = rnd();
	fmt(&s, f, W, H, 0);
	for (size_t k = 0; k < sizeof(dsts) / sizeof(dsts[0]); k++) {
		size_t ds;

		/* the same format is a plain copy of what was given */
		if (dsts[k] == f)
			continue;
		fmt(&d, dsts[k], W, H, 0);
		v4lconvert_fixup_fmt(&d);
		ds = d.fmt.pix.sizeimage;
		/* garbage, plenty of it: tells whether the format is known */
		ret = run(&s, &d, garbage, big, ds, &err, NULL);
		if (ret < 0 && err == EINVAL && !*supported) {
			break;
		}
		*supported = 1;
		if (need > 0)
			CHECK(ret == (int)ds, "%s -> %s oversized: %d errno %d",
			      FOURCC_STR(f), FOURCC_STR(dsts[k]), ret, err);
		else
			CHECK(ret == (int)ds ||
				      (ret < 0 && is(err, EAGAIN, EPIPE, EIO)),
			      "%s -> %s garbage: %d errno %d", FOURCC_STR(f),
			      FOURCC_STR(dsts[k]), ret, err);
		/* zero-length */
		ret = run(&s, &d, garbage, 0, ds, &err, NULL);
		CHECK(ret < 0 && is(err, EPIPE, EAGAIN, EIO),
		      "%s -> %s empty: %d errno %d", FOURCC_STR(f),
		      FOURCC_STR(dsts[k]), ret, err);
		/* truncated: one byte short, half, 7 bytes */
		if (need > 0) {
			size_t cut[] = { (size_t)need - 1, (size_t)need / 2,
					 7 };

			for (int c = 0; c < 3; c++) {
				ret = run(&s, &d, garbage, cut[c], ds, &err,
					  NULL);
				CHECK(ret < 0 && err == EPIPE,
				      "%s -> %s %zu of %ld bytes: %d errno %d",
				      FOURCC_STR(f), FOURCC_STR(dsts[k]),
				      cut[c], need, ret, err);
			}
			/* exactly the size */
			ret = run(&s, &d, garbage, (size_t)need, ds, &err,
				  NULL);
			CHECK(ret == (int)ds, "%s -> %s exact: %d errno %d",
			      FOURCC_STR(f), FOURCC_STR(dsts[k]), ret, err);
		} else {
			for (size_t cut = 1; cut < 600; cut = cut * 3 + 1) {
				ret = run(&s, &d, garbage, cut, ds, &err, NULL);
				CHECK(ret == (int)ds ||
					      (ret < 0 &&
					       is(err, EAGAIN, EPIPE, EIO)),
				      "%s -> %s %zu bytes: %d errno %d",
				      FOURCC_STR(f), FOURCC_STR(dsts[k]), cut,
				      ret, err);
			}
		}
		/* destination buffer too small */
		ret = run(&s, &d, garbage, big, ds - 1, &err, NULL);
		CHECK(ret < 0 && err == EFAULT,
		      "%s -> %s dest short: %d errno %d", FOURCC_STR(f),
		      FOURCC_STR(dsts[k]), ret, err);
		/* a destination we cannot make from it: 17 px wider */
		fmt(&d, dsts[k], W + 18, H, 0);
		v4lconvert_fixup_fmt(&d);
		ret = run(&s, &d, garbage, big, d.fmt.pix.sizeimage, &err,
			  NULL);
		CHECK(ret < 0 && err == EINVAL, "%s -> %s wider: %d errno %d",
		      FOURCC_STR(f), FOURCC_STR(dsts[k]), ret, err);
	}
	free(garbage);
}

/* Absurd geometry from a driver: no crash, a clear errno. */
static void absurd(uint32_t f)
{
	static const uint32_t geo[][3] = {
		{ 0xffffffffu, 1, 0 },
		{ 1, 0xffffffffu, 0 },
		{ 65536, 65537, 0 },
		{ 0x80000000u, 2, 0 },
		{ 1u << 30, 4, 0 },
		{ W, H, 0xffffffffu },
		{ W, H, 0x80000000u },
		{ W, H, 0x7fffffffu },
		{ 0, 0, 0 },
		{ 0, H, 0 },
		{ W, 0, 0 },
		{ 46341, 46341, 0 },
		{ 0x10000, 0x10000, 0x40000 },
		{ 2, 0x7fffffff, 0 },
	};
	uint8_t frame[4096];

	for (size_t i = 0; i < sizeof(frame); i++)
		frame[i] = rnd();
	for (size_t g = 0; g < sizeof(geo) / sizeof(geo[0]); g++) {
		for (int same = 0; same < 2; same++) {
			struct v4l2_format s, d;
			int err, ret;
			size_t ds;

			fmt(&s, f, geo[g][0], geo[g][1], geo[g][2]);
			/* the same absurd size asked for, or a sane one */
			if (same)
				fmt(&d, V4L2_PIX_FMT_RGB24, geo[g][0],
				    geo[g][1], 0);
			else
				fmt(&d, V4L2_PIX_FMT_YUV420, W, H, 0);
			v4lconvert_fixup_fmt(&d);
			ds = d.fmt.pix.sizeimage &&
					     d.fmt.pix.sizeimage < (1u << 24)
				     ? d.fmt.pix.sizeimage
				     : 65536;
			ret = run(&s, &d, frame, sizeof(frame), ds, &err, NULL);
			if (same && f == V4L2_PIX_FMT_RGB24)
				continue; /* a plain copy */
			if (geo[g][0] == W && geo[g][1] == H && ret >= 0)
				continue; /* a stride the frame may well hold */
			CHECK(ret < 0 && (err == EINVAL || err == EFAULT ||
					  err == EPIPE || err == ENOMEM ||
					  err == EAGAIN || err == EIO),
			      "%s %ux%u bpl %u -> %s %ux%u: %d errno %d",
			      FOURCC_STR(f), geo[g][0], geo[g][1], geo[g][2],
			      FOURCC_STR(d.fmt.pix.pixelformat),
			      d.fmt.pix.width, d.fmt.pix.height, ret, err);
		}
	}
}

int main(int argc, char **argv)
{
	int verbose = argc > 1 && !strcmp(argv[1], "-v");
	int n_supported = 0, n_unknown = 0;

	conv = v4lconvert_create_with_dev_ops(-1, &dev, &fakedev_ops);
	if (!conv) {
		printf("FAIL: create\n");
		return 1;
	}
	for (size_t i = 0; i < FUZZ_N_FOURCCS; i++) {
		uint32_t f = fuzz_fourccs[i];
		int supported = 0;

		bad_frames(f, &supported);
		if (!supported) {
			n_unknown++;
			if (verbose)
				printf("%s: unknown (EINVAL)\n", FOURCC_STR(f));
			continue;
		}
		n_supported++;
		absurd(f);
		stream_goes_on(FOURCC_STR(f));
		if (verbose)
			printf("%s: checked\n", FOURCC_STR(f));
	}
	v4lconvert_destroy(conv);
	printf("%d formats checked, %d unknown; %d checks, %d failed\n",
	       n_supported, n_unknown, check_count, failures);
	return failures != 0;
}
