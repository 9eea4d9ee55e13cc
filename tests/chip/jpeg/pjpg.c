/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Pixart PJPG decoder (src/jpeg/pixart.c) against the distribution's
 * libv4lconvert (exit 77 = skip when it cannot be loaded).
 *
 * The original decodes PJPG with its built-in tinyjpeg. Our decoder
 * reproduces its arithmetic as measured black-box (per-marker quantization,
 * its IDCT rounding, its 10-bit YCbCr->RGB), so RGB24/BGR24 must be
 * identical apart from the rare +-1 where two float IDCTs round a value
 * on the boundary differently (>= 90 dB; most frames are byte-identical).
 * YUV420: the luma is the same, but the original keeps the even chroma
 * row of each 4:2:2 pair where we average the two (>= 50 dB).
 * Damaged frames (cuts, flips, garbage, broken chunk headers) must never
 * crash us, and every frame the original rejects we must reject as well.
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
#include "jpeg/pixart.h"
#include "../../common/check.h"

#ifndef V4L2_PIX_FMT_PJPG
#define V4L2_PIX_FMT_PJPG v4l2_fourcc('P', 'J', 'P', 'G')
#endif

static struct origlib olib;
static struct v4lconvert_data *cv;

static size_t dst_bytes(uint32_t f, int w, int h)
{
	return f == V4L2_PIX_FMT_RGB24 || f == V4L2_PIX_FMT_BGR24
		       ? (size_t)w * h * 3
		       : (size_t)w * h * 3 / 2;
}

static int orig_decode(const uint8_t *frm, size_t n, uint32_t f, uint8_t *dst,
		       int w, int h)
{
	struct v4l2_format sf, df;
	/* Room after the frame: the original may read past a damaged one. */
	uint8_t *src = jt_xmalloc(n + 65536);
	int r;

	memcpy(src, frm, n);
	memset(src + n, 0, 65536);
	memset(&sf, 0, sizeof(sf));
	memset(&df, 0, sizeof(df));
	sf.type = df.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	sf.fmt.pix.width = df.fmt.pix.width = (uint32_t)w;
	sf.fmt.pix.height = df.fmt.pix.height = (uint32_t)h;
	sf.fmt.pix.pixelformat = V4L2_PIX_FMT_PJPG;
	sf.fmt.pix.field = df.fmt.pix.field = V4L2_FIELD_NONE;
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

static const uint32_t fmts[] = { V4L2_PIX_FMT_RGB24, V4L2_PIX_FMT_BGR24,
				 V4L2_PIX_FMT_YUV420, V4L2_PIX_FMT_YVU420 };
static const char *const fnames[] = { "RGB24", "BGR24", "YUV420", "YVU420" };

static void good_frames(struct v4lc_pjpg *p)
{
	static const int sizes[][2] = {
		{ 640, 480 }, { 320, 240 }, { 160, 120 }, { 176, 144 }
	};
	static const int m44[] = { 0x44 }, mc4[] = { 0xc4 };
	static const int mmix[] = { 0x44, 0x48, 0x44, 0x50, 0x5c, 0x40 };
	static const int c1[] = { 1 }, cmix[] = { 1, 2, 3, 6, 1, 4, 5 };
	struct {
		const int *m, *c;
		int nm, nc;
		double min_psnr;
		const char *name;
	} cases[] = {
		{ m44, c1, 1, 1, 90, "marker 44" },
		{ mc4, cmix, 1, 7, 90, "marker c4, mixed chunks" },
		{ mmix, c1, 6, 1, 90, "mixed markers" },
	};

	int identical = 0, total = 0;

	printf("PSNR ours vs original (999: identical; and vs the encoded "
	       "image):\n");
	for (size_t s = 0; s < JT_ARRAY_SIZE(sizes); s++)
		for (size_t c = 0; c < JT_ARRAY_SIZE(cases); c++) {
			int w = sizes[s][0], h = sizes[s][1];
			uint8_t *img =
				jt_make_image(w, h, (unsigned)(s + 7 * c));
			size_t n;
			uint8_t *frm =
				v4lc_chipenc_pjpg_encode(img, w, h, cases[c].m,
							 cases[c].nm,
							 cases[c].c,
							 cases[c].nc, &n);
			uint8_t *ours = jt_xmalloc((size_t)w * h * 3);
			uint8_t *orig = jt_xmalloc((size_t)w * h * 3);
			char err[200];

			for (size_t f = 0; f < JT_ARRAY_SIZE(fmts); f++) {
				size_t dn = dst_bytes(fmts[f], w, h);
				int r, ro;
				double po, pi = 0, pio = 0;

				memset(ours, 1, dn);
				memset(orig, 2, dn);
				r = v4lc_pjpg_decode(p, frm, n, fmts[f], ours,
						     dn, w, h, err,
						     sizeof(err));
				ro = orig_decode(frm, n, fmts[f], orig, w, h);
				CHECK(r == 0 && ro == 0,
				      "%dx%d %s %s: ours %d (%s), original %d (%s)",
				      w, h, cases[c].name, fnames[f], r,
				      r ? err : "", ro,
				      olib.get_error_message(cv));
				po = jt_psnr(ours, orig, dn);
				if (f == 0) {
					pi = jt_psnr(ours, img, dn);
					pio = jt_psnr(orig, img, dn);
				}
				printf("  %4dx%-4d %-24s %-6s %6.2f dB", w, h,
				       cases[c].name, fnames[f], po);
				if (f == 0)
					printf("  (image: ours %.2f, original %.2f)",
					       pi, pio);
				printf("\n");
				CHECK(po >= (f < 2 ? cases[c].min_psnr : 50),
				      "%dx%d %s %s: %.2f dB from the original",
				      w, h, cases[c].name, fnames[f], po);
				if (f < 2)
					identical += !memcmp(ours, orig, dn);
				else
					CHECK(!memcmp(ours, orig,
						      (size_t)w * h),
					      "%dx%d %s %s: luma differs", w, h,
					      cases[c].name, fnames[f]);
				if (f == 0)
					CHECK(pi >= pio - 1.0,
					      "%dx%d %s: ours farther from the "
					      "image (%.2f < %.2f dB)",
					      w, h, cases[c].name, pi, pio);
			}
			total += 2;
			free(img);
			free(frm);
			free(ours);
			free(orig);
		}
	printf("RGB24/BGR24 byte-identical with the original: %d of %d\n",
	       identical, total);
}

/* Every MCU marker (0x04-0xfc; 0 is never sent by the hardware): a frame
 * coded with it must decode like the original's (RGB24). */
static void all_markers(struct v4lc_pjpg *p)
{
	int w = 160, h = 120, same = 0, total = 0;
	uint8_t *img = jt_make_image(w, h, 7);
	uint8_t *a = jt_xmalloc((size_t)w * h * 3),
		*b = jt_xmalloc((size_t)w * h * 3);
	static const int c[] = { 1 };
	char err[200];

	for (int mk = 4; mk < 256; mk += 4) {
		int m[1] = { mk }, r, ro;
		size_t n;
		uint8_t *frm =
			v4lc_chipenc_pjpg_encode(img, w, h, m, 1, c, 1, &n);
		double ps;

		r = v4lc_pjpg_decode(p, frm, n, V4L2_PIX_FMT_RGB24, a,
				     (size_t)w * h * 3, w, h, err, sizeof(err));
		ro = orig_decode(frm, n, V4L2_PIX_FMT_RGB24, b, w, h);
		ps = jt_psnr(a, b, (size_t)w * h * 3);
		CHECK(r == 0 && ro == 0 && ps >= 80,
		      "marker 0x%02x: ours %d, original %d, %.2f dB", mk, r, ro,
		      ps);
		same += !memcmp(a, b, (size_t)w * h * 3);
		total++;
		free(frm);
	}
	printf("markers 0x04-0xfc: RGB24 byte-identical with the original for "
	       "%d of %d\n",
	       same, total);
	free(img);
	free(a);
	free(b);
}

/*
 * The original on a damaged frame, in a child process (its tinyjpeg reads
 * past the end of some damaged frames and may crash). Returns 0 accepted,
 * 1 rejected, 2 the process died.
 */
static int orig_damaged(const uint8_t *frm, size_t n, uint32_t f, int w, int h)
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
		_exit(orig_decode(frm, n, f, o, w, h) ? 3 : 0);
	}
	if (waitpid(pid, &st, 0) != pid)
		return 1;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return 0;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 3)
		return 1;
	return 2;
}

/* Damaged frames: never crash; reject wherever the original rejects. */
static void bad_frames(struct v4lc_pjpg *p, int rounds)
{
	int w = 320, h = 240;
	uint8_t *img = jt_make_image(w, h, 3);
	static const int m[] = { 0x44 }, cc[] = { 1, 2 };
	size_t n;
	uint8_t *frm = v4lc_chipenc_pjpg_encode(img, w, h, m, 1, cc, 2, &n);
	uint8_t *buf = jt_xmalloc(n + 4096);
	uint8_t *ours = jt_xmalloc((size_t)w * h * 3);
	int tally[2][2] = { { 0, 0 }, { 0, 0 } }; /* [orig rejects][ours] */
	int died = 0;
	char err[200];

	for (int i = 0; i < rounds; i++) {
		size_t len = n;
		int kind = i % 5, r, ro;
		uint32_t f = fmts[i % 4];

		memcpy(buf, frm, n);
		switch (kind) {
		case 0: /* cut */
			len = jt_rand() % n;
			break;
		case 1: /* bit flips */
			for (int k = 0; k < 1 + (int)(jt_rand() % 8); k++)
				buf[36 + jt_rand() % (n - 36)] ^=
					(uint8_t)(1u << (jt_rand() % 8));
			break;
		case 2: /* garbage after the header */
			for (size_t k = 36 + jt_rand() % (n - 36); k < n; k++)
				buf[k] = (uint8_t)jt_rand();
			break;
		case 3: /* a broken chunk header or size code */
			buf[35 + 1 + 1018 + (jt_rand() % 4)] =
				(uint8_t)jt_rand();
			break;
		default: /* header bytes */
			buf[jt_rand() % 36] = (uint8_t)jt_rand();
			break;
		}
		r = v4lc_pjpg_decode(p, buf, len, f, ours, dst_bytes(f, w, h),
				     w, h, err, sizeof(err));
		ro = orig_damaged(buf, len, f, w, h);
		died += ro == 2;
		tally[ro != 0][r != 0]++;
		/* A crash of the original (seen under ASan: reads past
		 * the frame) is its bug, not a verdict on the frame. */
		CHECK(!(ro == 1 && r == 0),
		      "damaged frame %d (kind %d, %zu bytes): the original "
		      "rejects it%s, ours accepts",
		      i, kind, len, ro == 2 ? " (its process died)" : "");
	}
	printf("damaged frames: both accept %d, both reject %d (the "
	       "original's process died on %d), only ours rejects %d, only "
	       "the original rejects %d\n",
	       tally[0][0], tally[1][1], died, tally[0][1], tally[1][0]);
	free(img);
	free(frm);
	free(buf);
	free(ours);
}

/* Random bytes with a valid header: must not crash (ASan build). */
static void fuzz(struct v4lc_pjpg *p, int rounds)
{
	uint8_t *buf = jt_xmalloc(200000), *dst = jt_xmalloc(640 * 480 * 3);
	char err[200];

	for (int i = 0; i < rounds; i++) {
		size_t n = jt_rand() % 200000, hl;
		int w = i % 2 ? 640 : 160, h = i % 2 ? 480 : 120;

		hl = v4lc_chipenc_pjpg_header(buf, w, h);
		for (size_t k = hl; k < n; k++)
			buf[k] = (uint8_t)jt_rand();
		if (n > hl && i % 3 == 0)
			buf[hl] = 0x60;
		(void)v4lc_pjpg_decode(p, buf, n < hl ? hl : n, fmts[i % 4],
				       dst, 640 * 480 * 3, w, h, err,
				       sizeof(err));
	}
	free(buf);
	free(dst);
}

static void bench(struct v4lc_pjpg *p)
{
	int w = 640, h = 480, reps = 30;
	uint8_t *img = jt_make_image(w, h, 11);
	static const int m[] = { 0x44 }, cc[] = { 1 };
	size_t n;
	uint8_t *frm = v4lc_chipenc_pjpg_encode(img, w, h, m, 1, cc, 1, &n);
	uint8_t *dst = jt_xmalloc((size_t)w * h * 3);
	char err[200];

	for (size_t f = 0; f < 3; f += 2) {
		double best[2] = { 1e9, 1e9 };

		for (int k = 0; k < reps; k++) {
			struct timespec a, b;

			clock_gettime(CLOCK_MONOTONIC, &a);
			v4lc_pjpg_decode(p, frm, n, fmts[f], dst,
					 dst_bytes(fmts[f], w, h), w, h, err,
					 sizeof(err));
			clock_gettime(CLOCK_MONOTONIC, &b);
			double t0 = (b.tv_sec - a.tv_sec) +
				    (b.tv_nsec - a.tv_nsec) * 1e-9;
			clock_gettime(CLOCK_MONOTONIC, &a);
			orig_decode(frm, n, fmts[f], dst, w, h);
			clock_gettime(CLOCK_MONOTONIC, &b);
			double t1 = (b.tv_sec - a.tv_sec) +
				    (b.tv_nsec - a.tv_nsec) * 1e-9;
			if (t0 < best[0])
				best[0] = t0;
			if (t1 < best[1])
				best[1] = t1;
		}
		printf("640x480 PJPG -> %s: ours %.1f MPix/s, original %.1f MPix/s\n",
		       fnames[f], w * h / best[0] / 1e6, w * h / best[1] / 1e6);
	}
	free(img);
	free(frm);
	free(dst);
}

/*
 * Without the original (e.g. on ARM): our decode of encoded images must be
 * close to the images, and random frames must not crash us; then the test
 * still reports a skip (77) for the differential part.
 */
static int self_check(struct v4lc_pjpg *p)
{
	static const int sizes[][2] = { { 640, 480 },
					{ 320, 240 },
					{ 160, 120 } };
	static const int m[] = { 0x44 }, c[] = { 1, 3 };

	for (size_t s = 0; s < JT_ARRAY_SIZE(sizes); s++) {
		int w = sizes[s][0], h = sizes[s][1];
		uint8_t *img = jt_make_image(w, h, (unsigned)s);
		size_t n;
		uint8_t *frm =
			v4lc_chipenc_pjpg_encode(img, w, h, m, 1, c, 2, &n);
		uint8_t *ours = jt_xmalloc((size_t)w * h * 3);
		char err[200];
		int r = v4lc_pjpg_decode(p, frm, n, V4L2_PIX_FMT_RGB24, ours,
					 (size_t)w * h * 3, w, h, err,
					 sizeof(err));
		double ps = jt_psnr(ours, img, (size_t)w * h * 3);

		CHECK(r == 0 && ps >= 30,
		      "%dx%d: %d (%s), %.2f dB from the image", w, h, r,
		      r ? err : "", ps);
		free(img);
		free(frm);
		free(ours);
	}
	fuzz(p, 300);
	return failures ? 1 : 77;
}

int main(int argc, char **argv)
{
	struct v4lc_pjpg *p;
	int rounds = argc > 1 ? atoi(argv[1]) : 1000;

	p = v4lc_pjpg_new();
	if (!p)
		return 99;
	cv = origlib_open_plain(&olib, 0);
	if (!cv)
		return self_check(p);
	good_frames(p);
	all_markers(p);
	bad_frames(p, rounds);
	fuzz(p, rounds / 4);
	if (getenv("CHIPJPEG_BENCH"))
		bench(p);
	v4lc_pjpg_free(p);
	olib.destroy(cv);
	origlib_close(&olib);
	if (failures)
		fprintf(stderr, "%d failure(s)\n", failures);
	return failures ? 1 : 0;
}
