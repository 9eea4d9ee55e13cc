/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Shared helpers of the JPEG decoder tests: synthetic test images, JPEG
 * frames made with tjCompress2, DHT stripping (webcam-style frames), an
 * independent 4:2:0 reference built from tjDecompressToYUVPlanes output, and
 * PSNR. Everything here is written for the tests; none of it calls the code
 * under test.
 */
#ifndef V4LC_TESTS_JPEGTEST_H
#define V4LC_TESTS_JPEGTEST_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/videodev2.h>
#include <turbojpeg.h>

#include "../common/rng.h"

#define JT_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static uint64_t jt_rng = 0x9e3779b97f4a7c15ull;

static inline uint32_t jt_rand(void)
{
	return xorshift64star(&jt_rng);
}

static inline void *jt_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p) {
		fprintf(stderr, "out of memory (%zu bytes)\n", n);
		exit(99);
	}
	return p;
}

static const char *const jt_samp_name[] = {
	[TJSAMP_444] = "444",   [TJSAMP_422] = "422", [TJSAMP_420] = "420",
	[TJSAMP_GRAY] = "grey", [TJSAMP_440] = "440", [TJSAMP_411] = "411",
};

/*
 * A smooth, colourful RGB test image with some texture and a few sharp
 * edges (so every subsampling matters), w x h, stride 3w. `seed` varies it.
 */
static inline uint8_t *jt_make_image(int w, int h, unsigned seed)
{
	uint8_t *img = jt_xmalloc((size_t)w * h * 3);

	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			uint8_t *p = img + ((size_t)y * w + x) * 3;
			double fx = (double)x / (w > 1 ? w - 1 : 1);
			double fy = (double)y / (h > 1 ? h - 1 : 1);
			int edge = ((x / 24 + y / 16 + seed) & 3) == 0 ? 40 : 0;
			int n = (int)((x * 7u + y * 13u + seed * 31u) % 9) - 4;
			int r = (int)(255 * fx) - edge + n;
			int g = (int)(255 * fy * (1 - fx / 2)) + edge + n;
			int b = (int)(128 + 100 * sin((x + seed) * 0.07) *
						    cos(y * 0.05)) +
				n;

			p[0] = (uint8_t)(r < 0 ? 0 : r > 255 ? 255 : r);
			p[1] = (uint8_t)(g < 0 ? 0 : g > 255 ? 255 : g);
			p[2] = (uint8_t)(b < 0 ? 0 : b > 255 ? 255 : b);
		}
	return img;
}

/* Compress an RGB image; returns a malloc'd JPEG (free with free()). */
static inline uint8_t *jt_compress(const uint8_t *rgb, int w, int h,
				   int subsamp, int quality, int flags,
				   size_t *size)
{
	tjhandle c = tjInitCompress();
	unsigned char *buf = NULL;
	unsigned long len = 0;
	uint8_t *out;

	if (!c || tjCompress2(c, rgb, w, 3 * w, h, TJPF_RGB, &buf, &len,
			      subsamp, quality, flags)) {
		fprintf(stderr, "tjCompress2 %dx%d samp %d: %s\n", w, h,
			subsamp, tjGetErrorStr2(c));
		exit(99);
	}
	out = jt_xmalloc(len);
	memcpy(out, buf, len);
	tjFree(buf);
	tjDestroy(c);
	*size = len;
	return out;
}

/*
 * Copy a JPEG without its DHT segments (as webcams send MJPEG). Walks the
 * marker segments up to SOS; the entropy-coded data is copied unchanged.
 * Returns the new size and the number of DHT segments removed in *removed.
 */
static inline size_t jt_strip_dht(const uint8_t *in, size_t n, uint8_t *out,
				  int *removed)
{
	size_t i = 2, o = 2;

	*removed = 0;
	memcpy(out, in, 2); /* SOI */
	while (i + 4 <= n) {
		size_t len = ((size_t)in[i + 2] << 8) | in[i + 3];

		if (in[i] != 0xff) {
			fprintf(stderr, "strip_dht: bad marker at %zu\n", i);
			exit(99);
		}
		if (in[i + 1] == 0xda)
			break;
		if (in[i + 1] == 0xc4) {
			(*removed)++;
		} else {
			memcpy(out + o, in + i, 2 + len);
			o += 2 + len;
		}
		i += 2 + len;
	}
	memcpy(out + o, in + i, n - i);
	return o + n - i;
}

/* Offset of the first marker `m` (0xFF m) among the header segments, or 0. */
static inline size_t jt_find_marker(const uint8_t *in, size_t n, uint8_t m)
{
	size_t i = 2;

	while (i + 4 <= n && in[i] == 0xff) {
		if (in[i + 1] == m)
			return i;
		if (in[i + 1] == 0xda)
			return 0;
		i += 2 + (((size_t)in[i + 2] << 8) | in[i + 3]);
	}
	return 0;
}

/* Chroma subsampling factors (luma samples per chroma sample). */
static inline void jt_factors(int subsamp, int *hf, int *vf)
{
	static const int f[][2] = {
		[TJSAMP_444] = { 1, 1 }, [TJSAMP_422] = { 2, 1 },
		[TJSAMP_420] = { 2, 2 }, [TJSAMP_440] = { 1, 2 },
		[TJSAMP_411] = { 4, 1 }, [TJSAMP_GRAY] = { 1, 1 },
	};
	*hf = f[subsamp][0];
	*vf = f[subsamp][1];
}

/*
 * The reference YU12 frame: the JPEG's native planes from
 * tjDecompressToYUVPlanes (tight planes), luma cropped, and every 4:2:0
 * chroma sample the rounded mean of the native chroma samples under the
 * (up to) 2x2 luma pixels it covers, each luma pixel (x, y) taking the
 * native sample (x / hf, y / vf). Grey frames get chroma 128. Returns a
 * malloc'd w*h + 2*cw*ch buffer, or NULL if the reference decode fails.
 */
static inline uint8_t *jt_reference_yuv420(const uint8_t *jpg, size_t n, int w,
					   int h, int subsamp)
{
	tjhandle d = tjInitDecompress();
	int cw = (w + 1) / 2, ch = (h + 1) / 2, hf, vf, ncomp;
	unsigned char *pl[3] = { NULL, NULL, NULL };
	int pw[3] = { 0 }, ph[3] = { 0 };
	uint8_t *out = jt_xmalloc((size_t)w * h + 2 * (size_t)cw * ch);

	ncomp = subsamp == TJSAMP_GRAY ? 1 : 3;
	for (int i = 0; i < ncomp; i++) {
		pw[i] = tjPlaneWidth(i, w, subsamp);
		ph[i] = tjPlaneHeight(i, h, subsamp);
		pl[i] = jt_xmalloc((size_t)pw[i] * ph[i]);
	}
	if (tjDecompressToYUVPlanes(d, jpg, n, pl, w, NULL, h, 0)) {
		fprintf(stderr, "reference decode: %s\n", tjGetErrorStr2(d));
		free(out);
		out = NULL;
		goto done;
	}
	for (int y = 0; y < h; y++)
		memcpy(out + (size_t)y * w, pl[0] + (size_t)y * pw[0], w);
	jt_factors(subsamp, &hf, &vf);
	for (int c = 1; c < 3; c++) {
		uint8_t *dp = out + (size_t)w * h + (size_t)(c - 1) * cw * ch;

		for (int cy = 0; cy < ch; cy++)
			for (int cx = 0; cx < cw; cx++) {
				unsigned sum = 0, cnt = 0;

				if (ncomp == 1) {
					dp[cy * cw + cx] = 128;
					continue;
				}
				for (int y = 2 * cy; y < 2 * cy + 2 && y < h;
				     y++)
					for (int x = 2 * cx;
					     x < 2 * cx + 2 && x < w; x++) {
						sum += pl[c][(size_t)(y / vf) *
								     pw[c] +
							     x / hf];
						cnt++;
					}
				dp[cy * cw + cx] =
					(uint8_t)((sum + cnt / 2) / cnt);
			}
	}
done:
	for (int i = 0; i < 3; i++)
		free(pl[i]);
	tjDestroy(d);
	return out;
}

/* Bytes of a w x h frame of RGB24/BGR24 or YU12/YV12 (minimal strides). */
static inline size_t jt_dst_bytes(uint32_t fcc, int w, int h)
{
	if (fcc == V4L2_PIX_FMT_RGB24 || fcc == V4L2_PIX_FMT_BGR24)
		return (size_t)w * h * 3;
	return (size_t)w * h + 2 * (size_t)((w + 1) / 2) * ((h + 1) / 2);
}

/*
 * libjpeg-turbo's decode of jpg at w x h in fcc (RGB24, BGR24, YU12,
 * YV12), scaled by its IDCT when w x h is a fraction of the JPEG:
 * tjDecompress2 for RGB, jt_reference_yuv420 for YUV. malloc'd, or NULL
 * when the YUV reference decode fails.
 */
static inline uint8_t *jt_reference_decode(const uint8_t *jpg, size_t n,
					   uint32_t fcc, int w, int h,
					   int subsamp)
{
	size_t ys = (size_t)w * h, cs = (size_t)((w + 1) / 2) * ((h + 1) / 2);
	tjhandle d;
	uint8_t *out;

	if (fcc == V4L2_PIX_FMT_YUV420 || fcc == V4L2_PIX_FMT_YVU420) {
		out = jt_reference_yuv420(jpg, n, w, h, subsamp);
		if (out && fcc == V4L2_PIX_FMT_YVU420) {
			uint8_t *tmp = jt_xmalloc(cs);

			memcpy(tmp, out + ys, cs);
			memmove(out + ys, out + ys + cs, cs);
			memcpy(out + ys + cs, tmp, cs);
			free(tmp);
		}
		return out;
	}
	d = tjInitDecompress();
	out = jt_xmalloc(ys * 3);
	if (tjDecompress2(d, jpg, n, out, w, 3 * w, h,
			  fcc == V4L2_PIX_FMT_RGB24 ? TJPF_RGB : TJPF_BGR, 0)) {
		fprintf(stderr, "reference: %s\n", tjGetErrorStr2(d));
		exit(99);
	}
	tjDestroy(d);
	return out;
}

/*
 * The original image in YU12, exact JFIF (full-range BT.601) conversion in
 * double precision with 2x2 chroma means: what a perfect codec would give.
 */
static inline uint8_t *jt_image_yuv420(const uint8_t *rgb, int w, int h)
{
	int cw = (w + 1) / 2, ch = (h + 1) / 2;
	uint8_t *out = jt_xmalloc((size_t)w * h + 2 * (size_t)cw * ch);
	uint8_t *u = out + (size_t)w * h, *v = u + (size_t)cw * ch;

	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			const uint8_t *p = rgb + ((size_t)y * w + x) * 3;
			double yy = 0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2];

			out[(size_t)y * w + x] = (uint8_t)lround(yy);
		}
	for (int cy = 0; cy < ch; cy++)
		for (int cx = 0; cx < cw; cx++) {
			double su = 0, sv = 0;
			int cnt = 0;

			for (int y = 2 * cy; y < 2 * cy + 2 && y < h; y++)
				for (int x = 2 * cx; x < 2 * cx + 2 && x < w;
				     x++) {
					const uint8_t *p =
						rgb + ((size_t)y * w + x) * 3;

					su += -0.168736 * p[0] -
					      0.331264 * p[1] + 0.5 * p[2];
					sv += 0.5 * p[0] - 0.418688 * p[1] -
					      0.081312 * p[2];
					cnt++;
				}
			su = 128 + su / cnt;
			sv = 128 + sv / cnt;
			u[cy * cw + cx] = (uint8_t)lround(su < 0     ? 0
							  : su > 255 ? 255
								     : su);
			v[cy * cw + cx] = (uint8_t)lround(sv < 0     ? 0
							  : sv > 255 ? 255
								     : sv);
		}
	return out;
}

/* PSNR in dB of n bytes (999 when identical). */
static inline double jt_psnr(const uint8_t *a, const uint8_t *b, size_t n)
{
	double se = 0;

	for (size_t i = 0; i < n; i++) {
		double d = (double)a[i] - b[i];

		se += d * d;
	}
	if (se == 0)
		return 999;
	return 10 * log10(255.0 * 255.0 * n / se);
}

#endif
