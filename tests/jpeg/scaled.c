/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The scaled JPEG decode (v4lc_jpeg_decode_scaled) against libjpeg-turbo's
 * own scaled decode of the same frames:
 *  - RGB24/BGR24 byte-identical to tjDecompress2() at the scaled size;
 *  - YUV420/YVU420 byte-identical to jt_reference_yuv420() at the scaled
 *    size (tjDecompressToYUVPlanes, chroma averaged by the test's own code);
 * for every subsampling, 1/2, 1/4 and 1/8, sizes that divide and sizes that
 * round up, frames with and without DHT (a scaled width below 4 is
 * refused with -EINVAL). Then bad input at the scaled
 * sizes: every cut of a frame gives 0, -EPIPE or -EAGAIN (a cut inside the
 * headers: -EAGAIN), random byte flips those or (a flip in the frame
 * header) -EIO for another size and -EINVAL for sampling factors the YUV
 * path cannot take; nothing writes past dst (run under ASan too); a size
 * that is no 1/n of the JPEG gives -EIO.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/videodev2.h>

#include "jpeg/mjpeg.h"
#include "jpegtest.h"
#include "../common/check.h"

#define GUARD 64

static const uint32_t fourccs[] = { V4L2_PIX_FMT_RGB24, V4L2_PIX_FMT_BGR24,
				    V4L2_PIX_FMT_YUV420, V4L2_PIX_FMT_YVU420 };

/* One frame, every destination and scale, against the reference. */
static void check_frame(struct v4lc_jpeg *j, const uint8_t *jpg, size_t n,
			int sw, int sh, int subsamp, const char *what)
{
	for (int denom = 2; denom <= 8; denom *= 2) {
		int w = (sw + denom - 1) / denom, h = (sh + denom - 1) / denom;

		if (w < 4) { /* refused: see V4LC_JPEG_MIN_SCALED_W */
			uint8_t dst[64];
			char err[200];

			CHECK(!v4lc_jpeg_scale_denom(sw, sh, w, h) &&
				      v4lc_jpeg_decode_scaled(
					      j, jpg, n, V4L2_PIX_FMT_YUV420,
					      dst, sizeof(dst), w, h, denom,
					      err, sizeof(err)) == -EINVAL,
			      "%s: %dx%d at 1/%d not refused", what, w, h,
			      denom);
			continue;
		}
		CHECK(v4lc_jpeg_scale_denom(sw, sh, w, h) == denom,
		      "%s: %dx%d is 1/%d", what, w, h, denom);
		for (size_t f = 0; f < JT_ARRAY_SIZE(fourccs); f++) {
			size_t need = jt_dst_bytes(fourccs[f], w, h);
			uint8_t *ref = jt_reference_decode(jpg, n, fourccs[f],
							   w, h, subsamp);
			uint8_t *dst = jt_xmalloc(need + GUARD);
			char err[200] = "";
			int r;

			memset(dst, 0xa5, need + GUARD);
			r = v4lc_jpeg_decode_scaled(j, jpg, n, fourccs[f], dst,
						    need + GUARD, w, h, denom,
						    err, sizeof(err));
			CHECK(r == 0 && ref && !memcmp(dst, ref, need),
			      "%s 1/%d %.4s: r %d %s, differs from "
			      "libjpeg-turbo",
			      what, denom, (const char *)&fourccs[f], r, err);
			for (int g = 0; g < GUARD; g++)
				if (dst[need + g] != 0xa5) {
					CHECK(0, "%s 1/%d: wrote past dst",
					      what, denom);
					break;
				}
			free(ref);
			free(dst);
		}
	}
}

static void differential(struct v4lc_jpeg *j)
{
	static const int sizes[][2] = { { 1920, 1080 }, { 640, 480 },
					{ 1000, 750 },  { 333, 217 },
					{ 64, 8 },      { 7, 5 } };
	static const int samps[] = { TJSAMP_444,  TJSAMP_422, TJSAMP_420,
				     TJSAMP_GRAY, TJSAMP_440, TJSAMP_411 };

	for (size_t s = 0; s < JT_ARRAY_SIZE(sizes); s++)
		for (size_t k = 0; k < JT_ARRAY_SIZE(samps); k++) {
			int w = sizes[s][0], h = sizes[s][1], removed;
			uint8_t *img = jt_make_image(w, h, (unsigned)(s + k));
			size_t n, m;
			uint8_t *jpg =
				jt_compress(img, w, h, samps[k], 85, 0, &n);
			uint8_t *bare = jt_xmalloc(n);
			char what[80];

			snprintf(what, sizeof(what), "%dx%d %s", w, h,
				 jt_samp_name[samps[k]]);
			check_frame(j, jpg, n, w, h, samps[k], what);
			m = jt_strip_dht(jpg, n, bare, &removed);
			strncat(what, " no-DHT",
				sizeof(what) - strlen(what) - 1);
			check_frame(j, bare, m, w, h, samps[k], what);
			free(img);
			free(jpg);
			free(bare);
		}
}

/*
 * A damaged frame: one of the codes for bad input, nothing past dst.
 * header_cut: 1 a frame cut inside its headers, 0 cut later, -1 flipped.
 */
static void bad_frame(struct v4lc_jpeg *j, const uint8_t *buf, size_t n,
		      uint32_t fcc, int w, int h, int denom, int header_cut,
		      const char *what)
{
	size_t need = jt_dst_bytes(fcc, w, h);
	uint8_t *dst = jt_xmalloc(need + GUARD);
	char err[200] = "";
	int r;

	memset(dst, 0x5a, need + GUARD);
	r = v4lc_jpeg_decode_scaled(j, buf, n, fcc, dst, need, w, h, denom, err,
				    sizeof(err));
	if (header_cut > 0)
		CHECK(r == -EAGAIN, "%s: header cut gave %d (%s)", what, r,
		      err);
	else if (header_cut < 0) /* flips: the header may change too */
		CHECK(r == 0 || r == -EPIPE || r == -EAGAIN || r == -EIO ||
			      r == -EINVAL,
		      "%s: returned %d (%s)", what, r, err);
	else
		CHECK(r == 0 || r == -EPIPE || r == -EAGAIN,
		      "%s: returned %d (%s)", what, r, err);
	CHECK(r == 0 || err[0], "%s: error %d without a message", what, r);
	for (int g = 0; g < GUARD; g++)
		if (dst[need + g] != 0x5a) {
			CHECK(0, "%s: wrote past dst", what);
			break;
		}
	free(dst);
}

static void corrupt(struct v4lc_jpeg *j)
{
	const int w = 320, h = 240;
	uint8_t *img = jt_make_image(w, h, 9);
	size_t n, m;
	uint8_t *full = jt_compress(img, w, h, TJSAMP_422, 80, 0, &n);
	uint8_t *jpg = jt_xmalloc(n), *buf = jt_xmalloc(n);
	size_t sos;
	int removed;
	char what[80];

	m = jt_strip_dht(full, n, jpg, &removed); /* webcam-style */
	sos = jt_find_marker(jpg, m, 0xda);
	CHECK(sos != 0, "no SOS in the test frame");
	for (int denom = 2; denom <= 8; denom *= 2)
		for (size_t f = 0; f < JT_ARRAY_SIZE(fourccs); f++) {
			int sw = w / denom, sh = h / denom;

			/* every cut in the headers, then every 7th byte */
			for (size_t cut = 0; cut < m;
			     cut += cut < sos + 16 ? 1 : 7) {
				uint8_t *c = jt_xmalloc(cut ? cut : 1);

				memcpy(c, jpg, cut);
				snprintf(what, sizeof(what),
					 "cut at %zu of %zu, 1/%d %.4s", cut, m,
					 denom, (const char *)&fourccs[f]);
				bad_frame(j, c, cut, fourccs[f], sw, sh, denom,
					  cut < sos, what);
				free(c);
			}
			for (int k = 0; k < 300; k++) {
				memcpy(buf, jpg, m);
				for (int b = 0; b < 1 + k % 4; b++)
					buf[jt_rand() % m] ^=
						(uint8_t)(1u
							  << (jt_rand() % 8));
				snprintf(what, sizeof(what),
					 "flips #%d, 1/%d %.4s", k, denom,
					 (const char *)&fourccs[f]);
				bad_frame(j, buf, m, fourccs[f], sw, sh, denom,
					  -1, what);
			}
		}
	/* and the decoder still decodes a good frame exactly */
	check_frame(j, jpg, m, w, h, TJSAMP_422, "after the bad frames");
	free(img);
	free(full);
	free(jpg);
	free(buf);
}

static void wrong_sizes(struct v4lc_jpeg *j)
{
	const int w = 1920, h = 1080;
	uint8_t *img = jt_make_image(w, h, 3);
	size_t n;
	uint8_t *jpg = jt_compress(img, w, h, TJSAMP_422, 80, 0, &n);
	uint8_t *dst = jt_xmalloc((size_t)w * h * 3);
	char err[200];
	int r;

	r = v4lc_jpeg_decode_scaled(j, jpg, n, V4L2_PIX_FMT_RGB24, dst,
				    (size_t)w * h * 3, 962, 540, 2, err,
				    sizeof(err));
	CHECK(r == -EIO, "962x540 at 1/2 of 1920x1080 gave %d", r);
	r = v4lc_jpeg_decode_scaled(j, jpg, n, V4L2_PIX_FMT_YUV420, dst,
				    (size_t)w * h * 3, 480, 270, 2, err,
				    sizeof(err));
	CHECK(r == -EIO, "480x270 at 1/2 of 1920x1080 gave %d", r);
	r = v4lc_jpeg_decode_scaled(j, jpg, n, V4L2_PIX_FMT_RGB24, dst,
				    (size_t)w * h * 3, 640, 360, 3, err,
				    sizeof(err));
	CHECK(r == -EINVAL, "scale 1/3 gave %d", r);
	CHECK(v4lc_jpeg_scale_denom(1920, 1080, 960, 540) == 2 &&
		      v4lc_jpeg_scale_denom(1920, 1080, 480, 270) == 4 &&
		      v4lc_jpeg_scale_denom(1920, 1080, 240, 135) == 8 &&
		      v4lc_jpeg_scale_denom(1920, 1080, 1920, 1080) == 0 &&
		      v4lc_jpeg_scale_denom(1920, 1080, 640, 360) == 0 &&
		      v4lc_jpeg_scale_denom(1000, 750, 125, 94) == 8 &&
		      v4lc_jpeg_scale_denom(1000, 750, 125, 93) == 0,
	      "v4lc_jpeg_scale_denom");
	free(img);
	free(jpg);
	free(dst);
}

int main(void)
{
	struct v4lc_jpeg *j = v4lc_jpeg_new();

	differential(j);
	wrong_sizes(j);
	corrupt(j);
	v4lc_jpeg_free(j);
	printf("%d checks, %d failures\n", (int)check_count, (int)failures);
	return failures ? 1 : 0;
}
