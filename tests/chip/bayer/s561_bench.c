/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * S561 -> RGB24 at 352x288 (the SPCA561's largest mode), OUR public API
 * against the distribution's library, interleaved: each round times a
 * batch of conversions with ours, then with the original; the median of
 * the rounds is printed (MPix/s). Also our decoder alone. Times are the
 * thread's CPU time (the test machine is shared: wall time depends on the
 * load more than on the code).
 * Usage: chip-bayer-s561-bench [rounds] (default 9). Not a test.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libv4lconvert.h>

#include "../../common/fakedev.h"
#include "../../common/origlib.h"
#include "libv4lconvert/chipbayer.h"

#include "vcam/chipenc_bayer.h"

#define W 352
#define H 288
#define BATCH 50

typedef int convert_fn(struct v4lconvert_data *, const struct v4l2_format *,
		       const struct v4l2_format *, unsigned char *, int,
		       unsigned char *, int);

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int conv(struct v4lconvert_data *cv, convert_fn *fn, uint8_t *src,
		size_t n, uint8_t *dst)
{
	struct v4l2_format sf, df;

	memset(&sf, 0, sizeof(sf));
	memset(&df, 0, sizeof(df));
	sf.type = df.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	sf.fmt.pix.width = df.fmt.pix.width = W;
	sf.fmt.pix.height = df.fmt.pix.height = H;
	sf.fmt.pix.pixelformat = V4L2_PIX_FMT_SPCA561;
	sf.fmt.pix.bytesperline = W;
	sf.fmt.pix.sizeimage = (uint32_t)n;
	sf.fmt.pix.field = df.fmt.pix.field = V4L2_FIELD_NONE;
	df.fmt.pix.pixelformat = V4L2_PIX_FMT_RGB24;
	df.fmt.pix.bytesperline = 3 * W;
	df.fmt.pix.sizeimage = 3 * W * H;
	return fn(cv, &sf, &df, src, (int)n, dst, 3 * W * H);
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double batch(struct v4lconvert_data *cv, convert_fn *fn, uint8_t *src,
		    size_t n, uint8_t *dst)
{
	double t = now();

	for (int i = 0; i < BATCH; i++)
		conv(cv, fn, src, n, dst);
	return W * H * (double)BATCH / (now() - t) / 1e6;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 9;
	static struct fakedev fake = {
		.driver = "fakedev",
		.n_formats = 1,
		.formats = { { V4L2_PIX_FMT_SPCA561, 1, { { W, H } } } },
	};
	struct origlib o;
	struct v4lconvert_data *ours, *orig;
	uint8_t *img = malloc(W * H), *bay = malloc(W * H);
	size_t cap = 4 * W * H, n;
	uint8_t *frame = calloc(cap, 1), *out = malloc(3 * W * H);
	double *ro = malloc(sizeof(double) * (size_t)rounds);
	double *rt = malloc(sizeof(double) * (size_t)rounds);
	double *rd = malloc(sizeof(double) * (size_t)rounds);
	uint32_t s = 7;

	if (rounds < 1)
		return 2;
	/* smooth plus noise, like a real picture */
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			img[y * W + x] = (uint8_t)v4lc_chipenc_clamp(
				110 + (x - W / 2) / 3 + (y - H / 2) / 4 +
				((x & 1) ? 25 : 0) - ((y & 1) ? 15 : 0) +
				(int)(v4lc_chipenc_rng(&s) % 11) - 5);
	n = v4lc_chipenc_s561(img, W, H, frame, cap / 2, 1, NULL);
	ours = v4lconvert_create_with_dev_ops(3, &fake, &fakedev_ops);
	orig = origlib_open_plain(&o, ORIGLIB_LINKED_WITH_OURS | ORIGLIB_QUIET);
	if (!ours || conv(ours, v4lconvert_convert, frame, n, out) < 0) {
		printf("our conversion fails\n");
		return 1;
	}
	if (orig && conv(orig, o.convert, frame, n, out) < 0) {
		printf("the original's conversion fails\n");
		return 1;
	}
	for (int r = 0; r < rounds; r++) {
		double t;

		ro[r] = batch(ours, v4lconvert_convert, frame, n, out);
		rt[r] = orig ? batch(orig, o.convert, frame, n, out) : 0;
		t = now();
		for (int i = 0; i < BATCH; i++)
			v4lc_decode_s561(frame, n, bay, W, H, NULL, 0);
		rd[r] = W * H * (double)BATCH / (now() - t) / 1e6;
	}
	qsort(ro, (size_t)rounds, sizeof(double), cmp);
	qsort(rt, (size_t)rounds, sizeof(double), cmp);
	qsort(rd, (size_t)rounds, sizeof(double), cmp);
	printf("S561 %dx%d (%zu bytes, %.2f bits/pixel) -> RGB24, median of %d "
	       "rounds: ours %.1f MPix/s, original ",
	       W, H, n, 8.0 * (double)n / (W * H), rounds, ro[rounds / 2]);
	if (orig)
		printf("%.1f MPix/s (x%.2f)", rt[rounds / 2],
		       ro[rounds / 2] / rt[rounds / 2]);
	else
		printf("n/a");
	printf("; our decoder alone %.1f MPix/s\n", rd[rounds / 2]);
	v4lconvert_destroy(ours);
	if (orig) {
		o.destroy(orig);
		origlib_close(&o);
	}
	free(img);
	free(bay);
	free(frame);
	free(out);
	free(ro);
	free(rt);
	free(rd);
	return 0;
}
