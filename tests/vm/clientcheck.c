/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * clientcheck FMT W H ROT RAW OUT: do the frames a program wrote (OUT)
 * show the driver's own frame (the first frame of RAW, FMT at W x H,
 * captured without libv4l), turned 180 degrees when ROT is 1?
 *
 * FMT is RGB3, BGR3, YU12 or YUYV. OUT is what the program wrote: raw
 * frames in FMT (compared byte for byte: every frame must be exact), or a
 * container it converted to, compared in RGB with a small mean difference
 * allowed (colour conversion and chroma subsampling of the program's own):
 * binary PPM (P6, one or more images), YUV4MPEG2 (4:2:0 frames) or JPEG.
 * The verdict line says which orientation the frames show when they are
 * wrong ("uncorrected" = the raw frame as the driver delivered it).
 * Exit 0 on a match, 1 otherwise.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <turbojpeg.h>

/* Mean absolute difference per RGB sample allowed after a conversion. */
#define CLOSE_MEAN 6.0

struct pic {
	int w, h;
	unsigned char *rgb; /* w * h * 3 */
};

static unsigned char *slurp(const char *path, long *n)
{
	FILE *f = fopen(path, "rb");
	unsigned char *b = NULL;

	if (!f || fseek(f, 0, SEEK_END) || (*n = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) || !(b = malloc((size_t)*n + 1)) ||
	    fread(b, 1, (size_t)*n, f) != (size_t)*n) {
		printf("FAIL cannot read %s\n", path);
		exit(1);
	}
	fclose(f);
	return b;
}

static long frame_size(const char *fmt, long w, long h)
{
	if (!strcmp(fmt, "RGB3") || !strcmp(fmt, "BGR3"))
		return w * h * 3;
	if (!strcmp(fmt, "YUYV"))
		return w * h * 2;
	if (!strcmp(fmt, "YU12"))
		return w * h * 3 / 2;
	return 0;
}

/* The 180-degree rotation of one frame, in its own format. */
static void rotate(const char *fmt, const unsigned char *s, unsigned char *d,
		   long w, long h)
{
	if (!strcmp(fmt, "YUYV")) {
		for (long y = 0; y < h; y++) {
			const unsigned char *sr = s + (h - 1 - y) * w * 2;
			unsigned char *dr = d + y * w * 2;

			for (long p = 0; p < w / 2; p++) {
				const unsigned char *m =
					sr + (w / 2 - 1 - p) * 4;

				dr[p * 4] = m[2];
				dr[p * 4 + 1] = m[1];
				dr[p * 4 + 2] = m[0];
				dr[p * 4 + 3] = m[3];
			}
		}
	} else if (!strcmp(fmt, "YU12")) {
		long pw[3] = { w, w / 2, w / 2 }, ph[3] = { h, h / 2, h / 2 };

		for (int i = 0; i < 3; i++) {
			long n = pw[i] * ph[i];

			for (long k = 0; k < n; k++)
				d[k] = s[n - 1 - k];
			s += n;
			d += n;
		}
	} else {
		long n = w * h;

		for (long k = 0; k < n; k++)
			memcpy(d + k * 3, s + (n - 1 - k) * 3, 3);
	}
}

static unsigned char clamp(int v)
{
	return v < 0 ? 0 : v > 255 ? 255 : (unsigned char)v;
}

/*
 * BT.601 limited range, as vivid draws its YUV test pattern; full range
 * (JFIF) when a program put the driver's YUV samples into a JPEG as they
 * are.
 */
static int full_range;

static void yuv_px(unsigned char *o, int y, int u, int v)
{
	int c = 298 * (y - 16), d = u - 128, e = v - 128;

	if (full_range) {
		c = 256 * y;
		o[0] = clamp((c + 359 * e + 128) >> 8);
		o[1] = clamp((c - 88 * d - 183 * e + 128) >> 8);
		o[2] = clamp((c + 454 * d + 128) >> 8);
		return;
	}
	o[0] = clamp((c + 409 * e + 128) >> 8);
	o[1] = clamp((c - 100 * d - 208 * e + 128) >> 8);
	o[2] = clamp((c + 516 * d + 128) >> 8);
}

static void to_rgb(const char *fmt, const unsigned char *s, unsigned char *o,
		   long w, long h)
{
	for (long y = 0; y < h; y++)
		for (long x = 0; x < w; x++) {
			unsigned char *p = o + (y * w + x) * 3;

			if (!strcmp(fmt, "RGB3")) {
				memcpy(p, s + (y * w + x) * 3, 3);
			} else if (!strcmp(fmt, "BGR3")) {
				const unsigned char *q = s + (y * w + x) * 3;

				p[0] = q[2], p[1] = q[1], p[2] = q[0];
			} else if (!strcmp(fmt, "YUYV")) {
				const unsigned char *m =
					s + y * w * 2 + (x / 2) * 4;

				yuv_px(p, m[(x & 1) * 2], m[1], m[3]);
			} else {
				const unsigned char *u = s + w * h;
				long c = (y / 2) * (w / 2) + x / 2;

				yuv_px(p, s[y * w + x], u[c], u[w * h / 4 + c]);
			}
		}
}

/* Parses the pictures of OUT when it is a container; returns their count. */
static int parse_container(const unsigned char *b, long n, long w, long h,
			   struct pic *pics, int max)
{
	int k = 0;
	long at = 0;

	if (n > 2 && b[0] == 0xff && b[1] == 0xd8) {
		tjhandle tj = tjInitDecompress();
		int jw, jh, sub, cs;

		pics[0].rgb = malloc((size_t)(w * h * 3));
		if (!tj ||
		    tjDecompressHeader3(tj, b, (unsigned long)n, &jw, &jh, &sub,
					&cs) ||
		    jw != w || jh != h ||
		    tjDecompress2(tj, b, (unsigned long)n, pics[0].rgb, jw, 0,
				  jh, TJPF_RGB, 0))
			return -1;
		tjDestroy(tj);
		full_range = 1;
		return 1;
	}
	if (n > 9 && !memcmp(b, "YUV4MPEG2", 9)) {
		const unsigned char *e = memchr(b, '\n', (size_t)n);

		at = e ? e - b + 1 : n;
		while (k < max && at + 6 + w * h * 3 / 2 <= n &&
		       !memcmp(b + at, "FRAME", 5)) {
			e = memchr(b + at, '\n', (size_t)(n - at));
			at = e - b + 1;
			pics[k].rgb = malloc((size_t)(w * h * 3));
			to_rgb("YU12", b + at, pics[k++].rgb, w, h);
			at += w * h * 3 / 2;
		}
		return k;
	}
	while (k < max && at + 2 < n && b[at] == 'P' && b[at + 1] == '6') {
		long pw, ph, mx;
		int used;

		if (sscanf((const char *)b + at, "P6 %ld %ld %ld%n", &pw, &ph,
			   &mx, &used) != 3 ||
		    pw != w || ph != h || mx != 255)
			return -1;
		at += used + 1;
		if (at + w * h * 3 > n)
			return -1;
		pics[k].rgb = malloc((size_t)(w * h * 3));
		memcpy(pics[k++].rgb, b + at, (size_t)(w * h * 3));
		at += w * h * 3;
	}
	return k;
}

static double mean_diff(const unsigned char *a, const unsigned char *b, long n)
{
	double sum = 0;

	for (long i = 0; i < n; i++)
		sum += abs(a[i] - b[i]);
	return sum / (double)n;
}

static long bytes_differ(const unsigned char *a, const unsigned char *b, long n)
{
	long d = 0;

	for (long i = 0; i < n; i++)
		d += a[i] != b[i];
	return d;
}

static const char *orient(int rot, int as_want)
{
	if (as_want)
		return rot ? "corrected" : "as the driver's";
	return rot ? "uncorrected" : "turned";
}

int main(int argc, char **argv)
{
	long w, h, fs, nraw, nout;
	unsigned char *raw, *out, *want, *other;
	struct pic pics[16];
	int rot, k;

	if (argc != 7)
		return 2;
	w = atol(argv[2]);
	h = atol(argv[3]);
	rot = atoi(argv[4]);
	fs = frame_size(argv[1], w, h);
	if (fs <= 0 || w % 2 || h % 2)
		return 2;
	raw = slurp(argv[5], &nraw);
	out = slurp(argv[6], &nout);
	if (nraw < fs) {
		printf("FAIL the driver's frame: %ld bytes, want %ld\n", nraw,
		       fs);
		return 1;
	}
	want = malloc((size_t)fs);
	other = malloc((size_t)fs);
	if (rot) {
		rotate(argv[1], raw, want, w, h);
		memcpy(other, raw, (size_t)fs);
	} else {
		memcpy(want, raw, (size_t)fs);
		rotate(argv[1], raw, other, w, h);
	}

	k = parse_container(out, nout, w, h, pics, 16);
	if (k == 0 && nout > 0 && nout % fs == 0) {
		long bad = 0, alt = 0;

		for (long f = 0; f < nout / fs; f++) {
			bad += bytes_differ(out + f * fs, want, fs);
			alt += bytes_differ(out + f * fs, other, fs);
		}
		printf("%s %ld %s frames, %s: %ld bytes differ (%ld the other "
		       "way)\n",
		       bad ? "FAIL" : "PASS", nout / fs, argv[1],
		       !bad   ? orient(rot, 1)
		       : !alt ? orient(rot, 0)
			      : "wrong",
		       bad, alt);
		return bad != 0;
	}
	if (k <= 0) {
		printf("FAIL %ld bytes: neither whole %s frames nor a picture\n",
		       nout, argv[1]);
		return 1;
	}
	{
		unsigned char *rw = malloc((size_t)(w * h * 3));
		unsigned char *ro = malloc((size_t)(w * h * 3));
		double worst = 0, alt = 1e9;

		to_rgb(argv[1], want, rw, w, h);
		to_rgb(argv[1], other, ro, w, h);
		for (int i = 0; i < k; i++) {
			double d = mean_diff(pics[i].rgb, rw, w * h * 3);
			double a = mean_diff(pics[i].rgb, ro, w * h * 3);

			worst = d > worst ? d : worst;
			alt = a < alt ? a : alt;
		}
		printf("%s %d pictures, %s: mean difference %.2f (%.2f %s)\n",
		       worst <= CLOSE_MEAN ? "PASS" : "FAIL", k,
		       worst <= CLOSE_MEAN ? orient(rot, 1)
		       : alt <= CLOSE_MEAN ? orient(rot, 0)
					   : "wrong",
		       worst, alt, "the other way");
		return worst > CLOSE_MEAN;
	}
}
