/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * MJPEG decoder against the distribution's libv4lconvert (loaded by absolute
 * path with dlopen; exit 77 = skip when it is not installed).
 *
 *  - MJPEG -> RGB24/BGR24: byte-identical to the original on 4:2:2 and 4:2:0
 *    frames with and without DHT (sizes multiple of 16).
 *  - MJPEG -> YUV420: luma identical; chroma measured against the exact
 *    rounded average of the JPEG's native chroma (the original keeps one
 *    row of each pair for 4:2:2): ours must be exact and never farther than
 *    the original, and strictly closer on 4:2:2.
 *  - Corrupt frames (cuts, flips, garbage, empty): the original's result and
 *    errno are tallied against ours; wherever the original rejects a frame
 *    we must reject it too, and where it calls a frame corrupt (EAGAIN) we
 *    must not report success.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/videodev2.h>

#include "../common/origlib.h"
#include "jpeg/mjpeg.h"
#include "jpegtest.h"
#include "../common/check.h"

/* The original; this test has no symbol it could bind to by mistake. */
static struct origlib olib;

static size_t dst_bytes(uint32_t fcc, int w, int h)
{
	/* Computed here, not by the code under test. */
	if (fcc == V4L2_PIX_FMT_RGB24 || fcc == V4L2_PIX_FMT_BGR24)
		return (size_t)w * h * 3;
	return (size_t)w * h + 2 * (size_t)((w + 1) / 2) * ((h + 1) / 2);
}

/* The original's conversion; returns 0 or -errno. */
static int orig_decode(struct v4lconvert_data *cv, const uint8_t *jpg, size_t n,
		       uint32_t fcc, uint8_t *dst, int w, int h)
{
	struct v4l2_format sf, df;
	/* The original's tinyjpeg fallback walks markers past the end of a
	 * corrupt frame: a tail of EOI markers stops it inside our block
	 * (otherwise it may run into unmapped memory, heap layout
	 * permitting). */
	uint8_t *src = jt_xmalloc(n + 4096);
	int r;

	memcpy(src, jpg, n);
	for (size_t i = 0; i < 4096; i += 2) {
		src[n + i] = 0xff;
		src[n + i + 1] = 0xd9;
	}
	memset(&sf, 0, sizeof(sf));
	memset(&df, 0, sizeof(df));
	sf.type = df.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	sf.fmt.pix.width = df.fmt.pix.width = (uint32_t)w;
	sf.fmt.pix.height = df.fmt.pix.height = (uint32_t)h;
	sf.fmt.pix.pixelformat = V4L2_PIX_FMT_MJPEG;
	sf.fmt.pix.field = df.fmt.pix.field = V4L2_FIELD_NONE;
	sf.fmt.pix.sizeimage = (uint32_t)n;
	df.fmt.pix.pixelformat = fcc;
	df.fmt.pix.bytesperline =
		(uint32_t)(fcc == V4L2_PIX_FMT_RGB24 ||
					   fcc == V4L2_PIX_FMT_BGR24
				   ? 3 * w
				   : w);
	df.fmt.pix.sizeimage = (uint32_t)dst_bytes(fcc, w, h);
	errno = 0;
	r = olib.convert(cv, &sf, &df, src, (int)n, dst,
			 (int)dst_bytes(fcc, w, h));
	free(src);
	if (r < 0)
		return errno ? -errno : -1000;
	return 0;
}

struct stats {
	double mean_abs;
	int max_abs;
};

static struct stats chroma_error(const uint8_t *a, const uint8_t *b, size_t n)
{
	struct stats s = { 0, 0 };
	double sum = 0;

	for (size_t i = 0; i < n; i++) {
		int d = abs((int)a[i] - (int)b[i]);

		sum += d;
		if (d > s.max_abs)
			s.max_abs = d;
	}
	s.mean_abs = n ? sum / n : 0;
	return s;
}

static void good_frames(struct v4lconvert_data *cv, struct v4lc_jpeg *j)
{
	static const int sizes[][2] = { { 640, 480 },
					{ 320, 240 },
					{ 1280, 720 },
					{ 176, 144 },
					{ 16, 16 } };
	static const int samps[] = { TJSAMP_422, TJSAMP_420 };
	static const uint32_t rgbf[] = { V4L2_PIX_FMT_RGB24,
					 V4L2_PIX_FMT_BGR24 };

	printf("YUV420 chroma vs the exact average (mean / max abs):\n");
	for (size_t s = 0; s < JT_ARRAY_SIZE(sizes); s++)
		for (size_t k = 0; k < JT_ARRAY_SIZE(samps); k++)
			for (int strip = 0; strip < 2; strip++) {
				int w = sizes[s][0], h = sizes[s][1];
				int ss = samps[k];
				uint8_t *img = jt_make_image(w, h, (unsigned)s);
				size_t n;
				uint8_t *jpg =
					jt_compress(img, w, h, ss, 85, 0, &n);
				size_t ny = (size_t)w * h;
				size_t nc = 2 * (size_t)((w + 1) / 2) *
					    ((h + 1) / 2);
				uint8_t *ours = jt_xmalloc(ny * 3);
				uint8_t *orig = jt_xmalloc(ny * 3);
				uint8_t *exact;
				struct stats eo, eg;
				char err[256], tag[64];
				int r, ro;

				snprintf(tag, sizeof(tag), "%dx%d %s%s", w, h,
					 jt_samp_name[ss],
					 strip ? " no-DHT" : "");
				exact = jt_reference_yuv420(jpg, n, w, h, ss);
				if (strip) {
					int removed;
					uint8_t *t = jt_xmalloc(n);

					n = jt_strip_dht(jpg, n, t, &removed);
					free(jpg);
					jpg = t;
				}
				for (size_t f = 0; f < 2; f++) {
					size_t dn = dst_bytes(rgbf[f], w, h);

					memset(ours, 1, dn);
					memset(orig, 2, dn);
					r = v4lc_jpeg_decode(j, jpg, n, rgbf[f],
							     ours, dn, w, h,
							     err, sizeof(err));
					ro = orig_decode(cv, jpg, n, rgbf[f],
							 orig, w, h);
					CHECK(r == 0 && ro == 0,
					      "%s %s: ours %d (%s), original %d (%s)",
					      tag, f ? "BGR24" : "RGB24", r,
					      r ? err : "", ro,
					      olib.get_error_message(cv));
					CHECK(!memcmp(ours, orig, dn),
					      "%s %s: differs from the original",
					      tag, f ? "BGR24" : "RGB24");
				}
				r = v4lc_jpeg_decode(j, jpg, n,
						     V4L2_PIX_FMT_YUV420, ours,
						     ny + nc, w, h, err,
						     sizeof(err));
				ro = orig_decode(cv, jpg, n,
						 V4L2_PIX_FMT_YUV420, orig, w,
						 h);
				CHECK(r == 0 && ro == 0,
				      "%s YUV420: ours %d (%s), original %d (%s)",
				      tag, r, r ? err : "", ro,
				      olib.get_error_message(cv));
				CHECK(!memcmp(ours, orig, ny),
				      "%s YUV420: luma differs from the original",
				      tag);
				eg = chroma_error(exact + ny, ours + ny, nc);
				eo = chroma_error(exact + ny, orig + ny, nc);
				printf("  %-22s ours %.3f / %d   original %.3f / %d\n",
				       tag, eg.mean_abs, eg.max_abs,
				       eo.mean_abs, eo.max_abs);
				CHECK(eg.max_abs == 0,
				      "%s: our chroma is not the exact average",
				      tag);
				CHECK(eg.mean_abs <= eo.mean_abs,
				      "%s: ours farther than the original",
				      tag);
				if (ss == TJSAMP_422)
					CHECK(eg.mean_abs < eo.mean_abs,
					      "%s: not closer than the original",
					      tag);
				free(img);
				free(jpg);
				free(ours);
				free(orig);
				free(exact);
			}
}

/* Outcome classes for the corrupt-frame tally. */
enum { C_OK, C_EAGAIN, C_EPIPE, C_EIO, C_EINVAL, C_OTHER, C_N };
static const char *const cname[C_N] = { "ok",  "EAGAIN", "EPIPE",
					"EIO", "EINVAL", "other" };

static int cls(int r)
{
	switch (r) {
	case 0:
		return C_OK;
	case -EAGAIN:
		return C_EAGAIN;
	case -EPIPE:
		return C_EPIPE;
	case -EIO:
		return C_EIO;
	case -EINVAL:
		return C_EINVAL;
	default:
		return C_OTHER;
	}
}

static int tally[C_N][C_N]; /* [fresh original][ours] */
static int stale_disagree;  /* the reused original instance said otherwise */
static int other_errno[8], n_other;

/*
 * One corrupt frame through ours, the long-lived original instance (as an
 * application would use it) and a fresh original instance. The original
 * keeps state across frames (after some errors its libjpeg handle is left
 * mid-header, and after an unsupported sampling layout it falls back to
 * tinyjpeg for good), so the frame-level comparison uses the fresh one.
 */
static void one_corrupt(struct v4lconvert_data *cv, struct v4lc_jpeg *j,
			const uint8_t *buf, size_t n, uint32_t fcc, int w,
			int h, const char *what)
{
	size_t dn = dst_bytes(fcc, w, h);
	uint8_t *a = jt_xmalloc(dn), *b = jt_xmalloc(dn);
	struct v4lconvert_data *fresh = olib.create(-1);
	char err[256], omsg[256];
	int r = v4lc_jpeg_decode(j, buf, n, fcc, a, dn, w, h, err, sizeof(err));
	int ro = orig_decode(cv, buf, n, fcc, b, w, h);
	int rf = fresh ? orig_decode(fresh, buf, n, fcc, b, w, h) : ro;
	int cf = cls(rf), cg = cls(r);

	snprintf(omsg, sizeof(omsg), "%s",
		 fresh ? olib.get_error_message(fresh) : "");
	for (char *q = omsg; *q; q++)
		if (*q == '\n')
			*q = ' ';
	tally[cf][cg]++;
	stale_disagree += cls(ro) != cf;
	if (cf == C_OTHER && n_other < 8)
		other_errno[n_other++] = -rf;
	if (getenv("JPEG_DIFF_VERBOSE") && cf != cg)
		printf("  %s %s: original %s [%s], ours %s [%s]\n", what,
		       fcc == V4L2_PIX_FMT_RGB24 ? "RGB24" : "YUV420",
		       cname[cf], rf ? omsg : "", cname[cg], r ? err : "");
	/* Where the original rejects a frame, so do we; a size mismatch is
	 * EIO in both. */
	CHECK(!(rf < 0 && r == 0), "%s (%s): original %d (%s), ours succeeded",
	      what, fcc == V4L2_PIX_FMT_RGB24 ? "RGB24" : "YUV420", rf, omsg);
	CHECK((rf == -EIO) == (r == -EIO),
	      "%s: EIO mismatch: original %d (%s), ours %d (%s)", what, rf,
	      omsg, r, err);
	CHECK(r <= 0, "%s: positive return %d", what, r);
	if (fresh)
		olib.destroy(fresh);
	free(a);
	free(b);
}

static void corrupt_frames(struct v4lconvert_data *cv, struct v4lc_jpeg *j)
{
	int w = 320, h = 240;
	uint8_t *img = jt_make_image(w, h, 3);
	size_t n, ns;
	uint8_t *jpg = jt_compress(img, w, h, TJSAMP_422, 85, 0, &n);
	uint8_t *buf = jt_xmalloc(n + 64);
	size_t sos = jt_find_marker(jpg, n, 0xda);
	char what[64];
	int removed, total = 0;

	ns = jt_strip_dht(jpg, n, buf, &removed);
	memcpy(jpg, buf, ns);
	n = ns;
	sos = jt_find_marker(jpg, n, 0xda);
	for (int yuv = 0; yuv < 2; yuv++) {
		uint32_t fcc = yuv ? V4L2_PIX_FMT_YUV420 : V4L2_PIX_FMT_RGB24;

		one_corrupt(cv, j, jpg, 0, fcc, w, h, "empty");
		total++;
		/* Cuts: inside the header, just after SOS, mid-data, and
		 * without the EOI marker. */
		for (size_t cut = 1; cut < n; cut += cut < sos + 20 ? 7 : 397) {
			snprintf(what, sizeof(what), "cut at %zu", cut);
			one_corrupt(cv, j, jpg, cut, fcc, w, h, what);
			total++;
		}
		one_corrupt(cv, j, jpg, n - 2, fcc, w, h, "no EOI");
		total++;
		for (int k = 0; k < 300; k++) {
			memcpy(buf, jpg, n);
			for (int f = 0; f < 3; f++) {
				size_t pos = (jt_rand() & 1)
						     ? jt_rand() % (sos + 14)
						     : jt_rand() % n;
				buf[pos < n ? pos : n - 1] = (uint8_t)jt_rand();
			}
			snprintf(what, sizeof(what), "flips %d", k);
			one_corrupt(cv, j, buf, n, fcc, w, h, what);
			total++;
		}
		for (int k = 0; k < 60; k++) {
			size_t gn = 16 + jt_rand() % n;

			for (size_t i = 0; i < gn; i++)
				buf[i] = (uint8_t)jt_rand();
			if (k & 1) {
				buf[0] = 0xff;
				buf[1] = 0xd8;
			}
			one_corrupt(cv, j, buf, gn, fcc, w, h, "garbage");
			total++;
		}
		/* Valid frame, wrong size (EIO in both). */
		one_corrupt(cv, j, jpg, n, fcc, w + 16, h, "size mismatch");
		total++;
	}
	printf("corrupt frames: %d calls; rows = original (fresh instance), "
	       "columns = ours\n",
	       total);
	printf("  %-8s", "");
	for (int c = 0; c < C_N; c++)
		printf(" %7s", cname[c]);
	printf("\n");
	for (int o = 0; o < C_N; o++) {
		int any = 0;

		for (int c = 0; c < C_N; c++)
			any |= tally[o][c];
		if (!any)
			continue;
		printf("  %-8s", cname[o]);
		for (int c = 0; c < C_N; c++)
			printf(" %7d", tally[o][c]);
		printf("\n");
	}
	printf("  the long-lived original instance answered differently from a "
	       "fresh one %d times\n",
	       stale_disagree);
	for (int i = 0; i < n_other; i++)
		printf("  original 'other' errno %d (%s)\n", other_errno[i],
		       strerror(other_errno[i]));
	free(img);
	free(jpg);
	free(buf);
}

int main(void)
{
	struct v4lconvert_data *cv;
	struct v4lc_jpeg *j;
	int ret = origlib_open(&olib, 0);

	if (ret == -1)
		return 77; /* the reason is printed */
	if (ret)
		return 99;
	cv = origlib_create_plain(&olib);
	if (!cv) {
		printf("v4lconvert_create(-1) failed: skip\n");
		return 77;
	}
	j = v4lc_jpeg_new();
	good_frames(cv, j);
	corrupt_frames(cv, j);
	v4lc_jpeg_free(j);
	olib.destroy(cv);
	/* The library stays loaded: its destructors may run at exit. */
	if (failures) {
		printf("%d failures\n", failures);
		return 1;
	}
	printf("all passed\n");
	return 0;
}
