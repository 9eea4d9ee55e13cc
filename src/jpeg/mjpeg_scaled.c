/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The MJPEG decoder's YUV420/YVU420 decode scaled by the IDCT (1/2, 1/4,
 * 1/8): TurboJPEG's own YUV decoder at the scaled size, its native planes
 * resampled to 4:2:0 as the full-size path (mjpeg_libjpeg.c) does. Scaled
 * RGB is tjDecompress2() (mjpeg_turbo.c).
 */
#include "jpeg/mjpeg_priv.h"

#include <errno.h>
#include <string.h>

/* Luma columns and rows per native chroma sample of a TurboJPEG
 * subsampling; 0 when the YUV path cannot take it. */
static int tj_geom(int subsamp, struct v4lc_chroma_geom *g)
{
	static const signed char rh[] = {
		[TJSAMP_444] = 1,  [TJSAMP_422] = 2, [TJSAMP_420] = 2,
		[TJSAMP_GRAY] = 0, [TJSAMP_440] = 1, [TJSAMP_411] = 4
	};
	static const signed char rv[] = {
		[TJSAMP_444] = 1,  [TJSAMP_422] = 1, [TJSAMP_420] = 2,
		[TJSAMP_GRAY] = 0, [TJSAMP_440] = 2, [TJSAMP_411] = 1
	};

	if (subsamp < 0 || subsamp >= (int)sizeof(rh) || !rh[subsamp])
		return 0;
	g->rh = rh[subsamp];
	g->rv = rv[subsamp];
	return 1;
}

/*
 * YUV420/YVU420 scaled by the IDCT: tjDecompressToYUVPlanes() at width x
 * height (TurboJPEG keeps every component's block size at 8 / denom, so
 * the native planes keep the JPEG's subsampling), luma straight into dst
 * when TurboJPEG's padded plane is exactly width x height, the rest through
 * the scratch buffer, chroma then resampled to 4:2:0 as the full-size path
 * does.
 */
int v4lc_jpeg_tj_yuv_scaled(struct v4lc_jpeg *j, const uint8_t *src,
			    size_t src_size, int dht, int yvu, uint8_t *dst,
			    int w, int h, int denom, char *err, size_t err_len)
{
	int cw = (w + 1) / 2, ch = (h + 1) / 2, subsamp, r, grey;
	struct v4lc_chroma_geom g = { 0, 0, 0, cw, NULL };
	unsigned char *pl[3];
	int pw[3] = { 0 }, ph[3] = { 0 }, ydirect;
	size_t need = 0;
	uint8_t *dplane[3];

	r = v4lc_jpeg_tj_header(j, src, src_size, dht, w, h, denom, &subsamp,
				err, err_len);
	if (r)
		return r;
	grey = subsamp == TJSAMP_GRAY;
	if (!grey && !tj_geom(subsamp, &g))
		return v4lc_jpeg_fail(
			err, err_len, -EINVAL,
			"JPEG subsampling %d cannot be decoded to YUV",
			subsamp);
	for (int i = 0; i < (grey ? 1 : 3); i++) {
		pw[i] = tjPlaneWidth(i, w, subsamp);
		ph[i] = tjPlaneHeight(i, h, subsamp);
		if (pw[i] <= 0 || ph[i] <= 0)
			return v4lc_jpeg_fail(err, err_len, -EINVAL,
					      "bad JPEG plane geometry");
	}
	ydirect = pw[0] == w && ph[0] == h;
	need = (ydirect ? 0 : (size_t)pw[0] * ph[0]) + (size_t)pw[1] * ph[1] +
	       (size_t)pw[2] * ph[2];
	if (need && v4lc_jpeg_scratch_reserve(&j->dec, need))
		return v4lc_jpeg_fail(err, err_len, -ENOMEM,
				      "out of memory for the JPEG planes");
	dplane[0] = dst;
	dplane[1] = dst + (size_t)w * h + (yvu ? (size_t)cw * ch : 0);
	dplane[2] = dst + (size_t)w * h + (yvu ? 0 : (size_t)cw * ch);
	pl[0] = ydirect ? dst : j->dec.scratch;
	pl[1] = j->dec.scratch + (ydirect ? 0 : (size_t)pw[0] * ph[0]);
	pl[2] = pl[1] + (size_t)pw[1] * ph[1];
	r = tjDecompressToYUVPlanes(j->tj, src, (unsigned long)src_size, pl, w,
				    pw, h, V4LC_JPEG_TJFLAGS);
	if (r) {
		r = v4lc_jpeg_tj_error(j, err, err_len);
		if (r && r != -EPIPE)
			return r;
	}
	if (!ydirect)
		for (int y = 0; y < h; y++)
			memcpy(dst + (size_t)y * w, pl[0] + (size_t)y * pw[0],
			       (size_t)w);
	if (grey) {
		memset(dst + (size_t)w * h, 128, 2 * (size_t)cw * ch);
		return r;
	}
	g.sw = pw[1];
	g.avg = v4lc_dsp_get()->yuvlayout.avg;
	for (int c = 1; c < 3; c++)
		v4lc_jpeg_chroma_band(&g, pl[c], (size_t)pw[c], dplane[c],
				      g.rv == 2 ? ch : h);
	return r;
}

int v4lc_jpeg_scale_denom(int sw, int sh, int dw, int dh)
{
	if (sw <= 0 || sh <= 0 || dw < V4LC_JPEG_MIN_SCALED_W || dh <= 0)
		return 0;
	for (int n = 2; n <= 8; n *= 2)
		if ((sw + n - 1) / n == dw && (sh + n - 1) / n == dh)
			return n;
	return 0;
}
