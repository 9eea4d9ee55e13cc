/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * JL2005B/C/D decoder (src/jpeg/jl2005.c) against the distribution's
 * libv4lconvert (exit 77 = skip when it cannot be loaded).
 *
 * Exactness: the original decodes JL20 to an RGGB mosaic (through libjpeg)
 * and demosaics it. Our mosaic fed to the original's SRGGB8 path must give
 * the same bytes as the original's JL20 path on the same frame, for all
 * four destinations: that proves our mosaic identical to the original's.
 * Frames come from a test encoder (src/vcam/chipenc_jpeg.h) at several
 * sizes and qualities. Damaged frames must never crash us, and we must
 * reject every frame the original rejects.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/videodev2.h>

#include "../../common/origlib.h"
#include "../../jpeg/jpegtest.h"
#include "vcam/chipenc_jpeg.h"
#include "jpeg/jl2005.h"
#include "../../common/check.h"

#ifndef V4L2_PIX_FMT_JL2005BCD
#define V4L2_PIX_FMT_JL2005BCD v4l2_fourcc('J', 'L', '2', '0')
#endif

static struct origlib olib;
static struct v4lconvert_data *cv;

static const uint32_t fmts[] = { V4L2_PIX_FMT_RGB24, V4L2_PIX_FMT_BGR24,
				 V4L2_PIX_FMT_YUV420, V4L2_PIX_FMT_YVU420 };
static const char *const fnames[] = { "RGB24", "BGR24", "YUV420", "YVU420" };

static size_t dst_bytes(uint32_t f, int w, int h)
{
	return f == V4L2_PIX_FMT_RGB24 || f == V4L2_PIX_FMT_BGR24
		       ? (size_t)w * h * 3
		       : (size_t)w * h * 3 / 2;
}

/* The original's conversion of src (fourcc sf); 0 or -errno. */
static int orig_conv(uint32_t sfcc, const uint8_t *frm, size_t n, uint32_t f,
		     uint8_t *dst, int w, int h)
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
	sf.fmt.pix.pixelformat = sfcc;
	sf.fmt.pix.field = df.fmt.pix.field = V4L2_FIELD_NONE;
	sf.fmt.pix.bytesperline = (uint32_t)w;
	sf.fmt.pix.sizeimage = (uint32_t)n;
	df.fmt.pix.pixelformat = f;
	df.fmt.pix.bytesperline =
		(uint32_t)(dst_bytes(f, w, 1) == (size_t)w * 3 ? 3 * w : w);
	df.fmt.pix.sizeimage = (uint32_t)dst_bytes(f, w, h);
	errno = 0;
	r = olib.convert(cv, &sf, &df, src, (int)n, dst,
			 (int)dst_bytes(f, w, h));
	free(src);
	return r < 0 ? (errno ? -errno : -1000) : 0;
}

/* RGGB mosaic sampled from the RGB test image. */
static uint8_t *mosaic(const uint8_t *rgb, int w, int h)
{
	uint8_t *m = jt_xmalloc((size_t)w * h);

	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			int c = (y % 2 == 0 && x % 2 == 0)   ? 0
				: (y % 2 == 1 && x % 2 == 1) ? 2
							     : 1;

			m[(size_t)y * w + x] = rgb[((size_t)y * w + x) * 3 + c];
		}
	return m;
}

static void good_frames(void)
{
	static const int sizes[][2] = {
		{ 640, 480 }, { 320, 240 }, { 352, 288 }, { 176, 144 }
	};
	static const int quals[] = { 75, 50, 95, 20, 100, 1 };

	for (size_t s = 0; s < JT_ARRAY_SIZE(sizes); s++)
		for (size_t qi = 0; qi < JT_ARRAY_SIZE(quals); qi++) {
			int w = sizes[s][0], h = sizes[s][1];
			uint8_t *img =
				jt_make_image(w, h, (unsigned)(s * 5 + qi));
			uint8_t *bay = mosaic(img, w, h);
			size_t n, same = 0;
			uint8_t *frm = v4lc_chipenc_jl20_encode(bay, w, h,
								quals[qi], &n);
			uint8_t *ours = jt_xmalloc((size_t)w * h);
			uint8_t *a = jt_xmalloc((size_t)w * h * 3);
			uint8_t *b = jt_xmalloc((size_t)w * h * 3);
			char err[200];
			int r;

			r = v4lc_jl2005_decode(frm, n, ours, w, h, err,
					       sizeof(err));
			CHECK(r == 0, "%dx%d q%d: ours %d (%s)", w, h,
			      quals[qi], r, err);
			for (size_t f = 0; f < JT_ARRAY_SIZE(fmts); f++) {
				size_t dn = dst_bytes(fmts[f], w, h);
				int ra, rb;

				memset(a, 1, dn);
				memset(b, 2, dn);
				if (getenv("JL_DEBUG"))
					fprintf(stderr, "%dx%d q%d %s\n", w, h,
						quals[qi], fnames[f]);
				ra = orig_conv(V4L2_PIX_FMT_JL2005BCD, frm, n,
					       fmts[f], a, w, h);
				rb = orig_conv(V4L2_PIX_FMT_SRGGB8, ours,
					       (size_t)w * h, fmts[f], b, w, h);
				CHECK(ra == 0 && rb == 0,
				      "%dx%d q%d %s: original %d (%s), "
				      "original from our mosaic %d",
				      w, h, quals[qi], fnames[f], ra,
				      olib.get_error_message(cv), rb);
				CHECK(!memcmp(a, b, dn),
				      "%dx%d q%d %s: our mosaic differs from "
				      "the original's",
				      w, h, quals[qi], fnames[f]);
				same += !memcmp(a, b, dn);
			}
			printf("  %4dx%-4d q%-3d %zu/4 destinations identical; "
			       "mosaic %.2f dB from the encoded one\n",
			       w, h, quals[qi], same,
			       jt_psnr(ours, bay, (size_t)w * h));
			free(img);
			free(bay);
			free(frm);
			free(ours);
			free(a);
			free(b);
		}
}

/*
 * The original on a damaged frame, in a child process: its JL20 decoder
 * leaves libjpeg's default error handler in place, whose fatal errors call
 * exit(), and it crashes on some frames. Returns 0 accepted, 1 rejected
 * (an error, or the process exited), 2 the process died.
 */
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
		_exit(orig_conv(V4L2_PIX_FMT_JL2005BCD, frm, n,
				V4L2_PIX_FMT_RGB24, o, w, h)
			      ? 3
			      : 0);
	}
	if (waitpid(pid, &st, 0) != pid)
		return 1;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return 0;
	/* 3: an error; 1: libjpeg's exit() on a fatal error */
	if (WIFEXITED(st) && (WEXITSTATUS(st) == 3 || WEXITSTATUS(st) == 1))
		return 1;
	return 2;
}

static void bad_frames(int rounds)
{
	int w = 320, h = 240;
	uint8_t *img = jt_make_image(w, h, 9);
	uint8_t *bay = mosaic(img, w, h);
	size_t n;
	uint8_t *frm = v4lc_chipenc_jl20_encode(bay, w, h, 80, &n);
	uint8_t *buf = jt_xmalloc(n), *ours = jt_xmalloc((size_t)w * h);
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
				buf[16 + jt_rand() % (n - 16)] ^=
					(uint8_t)(1u << (jt_rand() % 8));
			break;
		case 2:
			for (size_t k = 16 + jt_rand() % (n - 16); k < n; k++)
				buf[k] = (uint8_t)jt_rand();
			break;
		default:
			buf[jt_rand() % 16] = (uint8_t)jt_rand();
			break;
		}
		r = v4lc_jl2005_decode(buf, len, ours, w, h, err, sizeof(err));
		ro = orig_damaged(buf, len, w, h);
		died += ro == 2;
		tally[ro != 0][r != 0]++;
		/* A crash of the original (seen under ASan: reads past
		 * the frame) is its bug, not a verdict on the frame. */
		CHECK(!(ro == 1 && r == 0),
		      "damaged frame %d (kind %d, %zu bytes): the original "
		      "rejects it (%s), ours accepts",
		      i, kind, len, "an error or exit()");
	}
	printf("damaged frames: both accept %d, both reject %d (the "
	       "original's process died on %d), only ours rejects "
	       "%d, only the original rejects %d\n",
	       tally[0][0], tally[1][1], died, tally[0][1], tally[1][0]);
	free(img);
	free(bay);
	free(frm);
	free(buf);
	free(ours);
}

static void fuzz(int rounds)
{
	uint8_t *buf = jt_xmalloc(100000), *dst = jt_xmalloc(640 * 480);
	char err[200];

	for (int i = 0; i < rounds; i++) {
		size_t n = jt_rand() % 100000;
		int w = i % 2 ? 640 : 176, h = i % 2 ? 480 : 144;

		for (size_t k = 0; k < n; k++)
			buf[k] = (uint8_t)(i % 3 ? jt_rand()
						 : (jt_rand() % 4 ? 0 : 0xff));
		if (n >= 16) {
			buf[4] = (uint8_t)(h / 8);
			buf[5] = (uint8_t)(w / 8);
		}
		(void)v4lc_jl2005_decode(buf, n, dst, w, h, err, sizeof(err));
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
	int w = 640, h = 480;
	uint8_t *img = jt_make_image(w, h, 4), *bay = mosaic(img, w, h);
	size_t n;
	uint8_t *frm = v4lc_chipenc_jl20_encode(bay, w, h, 75, &n);
	uint8_t *dst = jt_xmalloc((size_t)w * h * 3);
	double best[3] = { 1e9, 1e9, 1e9 };
	char err[200];

	for (int k = 0; k < 30; k++) {
		double t0 = now(), t1, t2, t3;

		v4lc_jl2005_decode(frm, n, bay, w, h, err, sizeof(err));
		t1 = now();
		orig_conv(V4L2_PIX_FMT_SRGGB8, bay, (size_t)w * h,
			  V4L2_PIX_FMT_RGB24, dst, w, h);
		t2 = now();
		orig_conv(V4L2_PIX_FMT_JL2005BCD, frm, n, V4L2_PIX_FMT_RGB24,
			  dst, w, h);
		t3 = now();
		if (t1 - t0 < best[0])
			best[0] = t1 - t0;
		if (t2 - t1 < best[1])
			best[1] = t2 - t1;
		if (t3 - t2 < best[2])
			best[2] = t3 - t2;
	}
	printf("640x480 JL20: our decoder (to the mosaic) %.1f MPix/s; "
	       "original JL20 -> RGB24 %.1f MPix/s (its SRGGB8 -> RGB24 "
	       "alone %.1f MPix/s)\n",
	       w * h / best[0] / 1e6, w * h / best[2] / 1e6,
	       w * h / best[1] / 1e6);
	free(img);
	free(bay);
	free(frm);
	free(dst);
}

/*
 * Without the original (e.g. on ARM): our mosaic of encoded frames must be
 * close to the encoded one, and random frames must not crash us; then the
 * test still reports a skip (77) for the differential part.
 */
static int self_check(void)
{
	static const int sizes[][2] = { { 640, 480 }, { 176, 144 } };

	for (size_t s = 0; s < JT_ARRAY_SIZE(sizes); s++) {
		int w = sizes[s][0], h = sizes[s][1];
		uint8_t *img = jt_make_image(w, h, (unsigned)s);
		uint8_t *bay = mosaic(img, w, h),
			*ours = jt_xmalloc((size_t)w * h);
		size_t n;
		uint8_t *frm = v4lc_chipenc_jl20_encode(bay, w, h, 75, &n);
		char err[200];
		int r = v4lc_jl2005_decode(frm, n, ours, w, h, err,
					   sizeof(err));
		double ps = jt_psnr(ours, bay, (size_t)w * h);

		CHECK(r == 0 && ps >= 35,
		      "%dx%d: %d (%s), %.2f dB from the mosaic", w, h, r,
		      r ? err : "", ps);
		free(img);
		free(bay);
		free(ours);
		free(frm);
	}
	fuzz(200);
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
	fuzz(rounds / 2);
	if (getenv("CHIPJPEG_BENCH"))
		bench();
	olib.destroy(cv);
	origlib_close(&olib);
	if (failures)
		fprintf(stderr, "%d failure(s)\n", failures);
	return failures ? 1 : 0;
}
