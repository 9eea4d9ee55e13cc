/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * SE401 decoder (src/jpeg/se401.c) against the distribution's
 * libv4lconvert (exit 77 = skip when it cannot be loaded): frames from a
 * test encoder (random values and coded images, several packet sizes) must
 * decode to the same RGB24 bytes as the original's; damaged frames must
 * never crash us, and we must reject every frame the original rejects.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/videodev2.h>

#include "../../common/origlib.h"
#include "../../jpeg/jpegtest.h"
#include "vcam/chipenc_jpeg.h"
#include "jpeg/se401.h"
#include "../../common/check.h"

#ifndef V4L2_PIX_FMT_SE401
#define V4L2_PIX_FMT_SE401 v4l2_fourcc('S', '4', '0', '1')
#endif

static struct origlib olib;
static struct v4lconvert_data *cv;

static int orig_decode(const uint8_t *frm, size_t n, uint8_t *dst, int w, int h)
{
	struct v4l2_format sf, df;
	uint8_t *src = jt_xmalloc(n + 65536);
	int r;

	memcpy(src, frm, n);
	memset(src + n, 0, 65536);
	memset(&sf, 0, sizeof(sf));
	memset(&df, 0, sizeof(df));
	sf.type = df.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	sf.fmt.pix.width = df.fmt.pix.width = (uint32_t)w;
	sf.fmt.pix.height = df.fmt.pix.height = (uint32_t)h;
	sf.fmt.pix.pixelformat = V4L2_PIX_FMT_SE401;
	sf.fmt.pix.field = df.fmt.pix.field = V4L2_FIELD_NONE;
	sf.fmt.pix.bytesperline = (uint32_t)w * 3;
	sf.fmt.pix.sizeimage = (uint32_t)n;
	df.fmt.pix.pixelformat = V4L2_PIX_FMT_RGB24;
	df.fmt.pix.bytesperline = (uint32_t)w * 3;
	df.fmt.pix.sizeimage = (uint32_t)(w * h * 3);
	errno = 0;
	r = olib.convert(cv, &sf, &df, src, (int)n, dst, w * h * 3);
	free(src);
	return r < 0 ? (errno ? -errno : -1000) : 0;
}

/* Closed-loop coding of an RGB image: the values that come closest. */
static int *code_image(const uint8_t *rgb, int w, int h)
{
	int *v = jt_xmalloc(sizeof(int) * 3 * (size_t)w * h);

	for (int y = 0; y < h; y++) {
		int prev[3] = { 0, 0, 0 };

		for (int x = 0; x < w; x++)
			for (int c = 0; c < 3; c++) {
				size_t i = ((size_t)y * w + x) * 3 + c;
				int d = ((rgb[i] - prev[c]) + 256 + 128) % 256 -
					128;
				int q = d >= 0 ? (d + 4) / 8 : -((-d + 4) / 8);

				v[i] = q;
				prev[c] = (prev[c] + 8 * q) & 255;
			}
	}
	return v;
}

static void good_frames(void)
{
	static const int sizes[][2] = { { 352, 288 },
					{ 320, 240 },
					{ 176, 144 },
					{ 160, 120 },
					{ 32, 4 } };
	static const int pps[] = { 64, 100, 17, 255, 1 };

	for (size_t s = 0; s < JT_ARRAY_SIZE(sizes); s++)
		for (int kind = 0; kind < 2; kind++) {
			int w = sizes[s][0], h = sizes[s][1], np = w * h;
			int pp = pps[(s + (size_t)kind) % JT_ARRAY_SIZE(pps)];
			uint8_t *img = jt_make_image(w, h, (unsigned)s);
			int *v;
			size_t n;
			uint8_t *frm, *ours = jt_xmalloc((size_t)np * 3);
			uint8_t *orig = jt_xmalloc((size_t)np * 3);
			char err[200];
			int r, ro;

			if (kind) {
				v = code_image(img, w, h);
			} else {
				v = jt_xmalloc(sizeof(int) * 3 * (size_t)np);
				for (int i = 0; i < 3 * np; i++) {
					int m = (int)(jt_rand() % 8);

					v[i] = (int)(jt_rand() % (2u << m)) -
					       (1 << m);
				}
			}
			frm = v4lc_chipenc_se401_packets(v, np, pp, &n);
			memset(ours, 1, (size_t)np * 3);
			memset(orig, 2, (size_t)np * 3);
			r = v4lc_se401_decode(frm, n, ours, w, h, err,
					      sizeof(err));
			ro = orig_decode(frm, n, orig, w, h);
			CHECK(r == 0 && ro == 0,
			      "%dx%d %s, %d px/packet: ours %d (%s), original "
			      "%d (%s)",
			      w, h, kind ? "image" : "random", pp, r,
			      r ? err : "", ro, olib.get_error_message(cv));
			CHECK(!memcmp(ours, orig, (size_t)np * 3),
			      "%dx%d %s: differs from the original", w, h,
			      kind ? "image" : "random");
			printf("  %4dx%-4d %-6s %3d px/packet: %s", w, h,
			       kind ? "image" : "random", pp,
			       !memcmp(ours, orig, (size_t)np * 3)
				       ? "identical"
				       : "DIFFERENT");
			if (kind)
				printf(" (%.2f dB from the image)",
				       jt_psnr(ours, img, (size_t)np * 3));
			printf("\n");
			free(img);
			free(v);
			free(frm);
			free(ours);
			free(orig);
		}
}

/* The original in a child process: 0 accepted, 1 rejected, 2 died. */
static int orig_damaged(const uint8_t *frm, size_t n, int w, int h)
{
	pid_t pid;
	int st;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return 1;
	if (!pid) {
		uint8_t *o = jt_xmalloc((size_t)w * h * 3);
		int fd = open("/dev/null", O_WRONLY);

		if (fd >= 0)
			dup2(fd, 2);
		_exit(orig_decode(frm, n, o, w, h) ? 3 : 0);
	}
	if (waitpid(pid, &st, 0) != pid)
		return 1;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return 0;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 3)
		return 1;
	return 2;
}

static void bad_frames(int rounds)
{
	int w = 176, h = 144, np = w * h;
	uint8_t *img = jt_make_image(w, h, 5);
	int *v = code_image(img, w, h);
	size_t n;
	uint8_t *frm = v4lc_chipenc_se401_packets(v, np, 64, &n);
	uint8_t *buf = jt_xmalloc(n), *ours = jt_xmalloc((size_t)np * 3);
	int tally[2][2] = { { 0, 0 }, { 0, 0 } }, died = 0;
	char err[200];

	for (int i = 0; i < rounds; i++) {
		size_t len = n;
		int kind = i % 4, r, ro;

		memcpy(buf, frm, n);
		switch (kind) {
		case 0:
			len = jt_rand() % n;
			break;
		case 1:
			for (int k = 0; k < 1 + (int)(jt_rand() % 8); k++)
				buf[jt_rand() % n] ^=
					(uint8_t)(1u << (jt_rand() % 8));
			break;
		case 2:
			for (size_t k = jt_rand() % n; k < n; k++)
				buf[k] = (uint8_t)jt_rand();
			break;
		default:
			len = n - jt_rand() % 16 + jt_rand() % 16;
			if (len > n)
				len = n;
			break;
		}
		r = v4lc_se401_decode(buf, len, ours, w, h, err, sizeof(err));
		ro = orig_damaged(buf, len, w, h);
		died += ro == 2;
		tally[ro != 0][r != 0]++;
		CHECK(!(ro == 1 && r == 0),
		      "damaged frame %d (kind %d, %zu bytes): the original "
		      "rejects it, ours accepts",
		      i, kind, len);
	}
	printf("damaged frames: both accept %d, both reject %d (the "
	       "original's process died on %d), only ours rejects %d, only "
	       "the original rejects %d\n",
	       tally[0][0], tally[1][1], died, tally[0][1], tally[1][0]);
	free(img);
	free(v);
	free(frm);
	free(buf);
	free(ours);
}

static void fuzz(int rounds)
{
	uint8_t *buf = jt_xmalloc(300000), *dst = jt_xmalloc(352 * 288 * 3);
	char err[200];

	for (int i = 0; i < rounds; i++) {
		size_t n = jt_rand() % 300000;

		for (size_t k = 0; k < n; k++)
			buf[k] = (uint8_t)jt_rand();
		if (n > 4)
			buf[0] = 0x80 | (buf[0] & 0x3f);
		(void)v4lc_se401_decode(buf, n, dst, 352, 288, err,
					sizeof(err));
	}
	free(buf);
	free(dst);
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

static void bench(void)
{
	int w = 640, h = 480, np = w * h;
	uint8_t *img = jt_make_image(w, h, 2);
	int *v = code_image(img, w, h);
	size_t n;
	uint8_t *frm = v4lc_chipenc_se401_packets(v, np, 200, &n);
	uint8_t *dst = jt_xmalloc((size_t)np * 3);
	double best[2] = { 1e9, 1e9 };
	char err[200];

	for (int k = 0; k < 20; k++) {
		double t0 = now(), t1, t2;

		v4lc_se401_decode(frm, n, dst, w, h, err, sizeof(err));
		t1 = now();
		orig_decode(frm, n, dst, w, h);
		t2 = now();
		if (t1 - t0 < best[0])
			best[0] = t1 - t0;
		if (t2 - t1 < best[1])
			best[1] = t2 - t1;
	}
	printf("640x480 S401 -> RGB24: ours %.1f MPix/s, original %.1f "
	       "MPix/s\n",
	       np / best[0] / 1e6, np / best[1] / 1e6);
	free(img);
	free(v);
	free(frm);
	free(dst);
}

/*
 * Without the original (e.g. on ARM): random values must decode to the
 * samples the format defines (computed here from the values), and random
 * frames must not crash us; then the test still reports a skip (77).
 */
static int self_check(void)
{
	int w = 176, h = 144, np = w * h;
	int *v = jt_xmalloc(sizeof(int) * 3 * (size_t)np);
	uint8_t *want = jt_xmalloc((size_t)np * 3),
		*ours = jt_xmalloc((size_t)np * 3);
	size_t n;
	uint8_t *frm;
	char err[200];
	int r;

	for (int i = 0; i < 3 * np; i++)
		v[i] = (int)(jt_rand() % 61) - 30;
	for (int y = 0; y < h; y++)
		for (int i = 0; i < 3 * w; i++) {
			size_t k = (size_t)y * 3 * w + (size_t)i;

			want[k] = (uint8_t)((i >= 3 ? want[k - 3] : 0) +
					    8 * v[k]);
		}
	frm = v4lc_chipenc_se401_packets(v, np, 100, &n);
	r = v4lc_se401_decode(frm, n, ours, w, h, err, sizeof(err));
	CHECK(r == 0 && !memcmp(ours, want, (size_t)np * 3),
	      "decoded samples differ from the format's (%d %s)", r,
	      r ? err : "");
	free(v);
	free(want);
	free(ours);
	free(frm);
	fuzz(100);
	return failures ? 1 : 77;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 400;

	cv = origlib_open_plain(&olib, 0);
	if (!cv)
		return self_check();
	good_frames();
	bad_frames(rounds);
	fuzz(rounds / 4);
	if (getenv("CHIPJPEG_BENCH"))
		bench();
	olib.destroy(cv);
	origlib_close(&olib);
	if (failures)
		fprintf(stderr, "%d failure(s)\n", failures);
	return failures ? 1 : 0;
}
