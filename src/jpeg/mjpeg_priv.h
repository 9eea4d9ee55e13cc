/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Internal to the MJPEG decoder: what its files share. mjpeg.c holds the
 * entry points and picks the path a frame takes; mjpeg_turbo.c is the
 * TurboJPEG path (RGB, and the scaled decodes' header), mjpeg_libjpeg.c the
 * libjpeg API path (YUV, and split RGB frames), mjpeg_scaled.c the YUV
 * decode scaled by the IDCT, mjpeg_chroma.c the chroma resampling to 4:2:0
 * that the YUV paths share. mjpeg_split.h: the libjpeg decompressor and the
 * two-thread split.
 */
#ifndef V4LC_JPEG_MJPEG_PRIV_H
#define V4LC_JPEG_MJPEG_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include <turbojpeg.h>

#include "dispatch/dsp.h"
#include "jpeg/fail.h"
#include "jpeg/mjpeg_split.h"

/* Bounds progressive frames to 500 scans so crafted input cannot stall us;
 * it does not change the output of baseline or ordinary progressive
 * frames. */
#define V4LC_JPEG_TJFLAGS TJFLAG_LIMITSCANS
#define V4LC_JPEG_MAX_SCANS 500 /* the same bound on the YUV path */

/* Narrower scaled frames are not decoded scaled: libjpeg-turbo 2.1.5's
 * tjDecompressToYUVPlanes() reads past a buffer of its own for 4:1:1
 * frames scaled to 1 pixel wide (found by tests/jpeg/scaled.c under ASan). */
#define V4LC_JPEG_MIN_SCALED_W 4

struct v4lc_jpeg {
	tjhandle tj;
	/* The handle has seen a DHT segment: its Huffman table slots may hold
	 * non-standard tables, which libjpeg keeps across images. */
	int tables_dirty;
	/* The YUV path's libjpeg decompressor, created lazily like tj, with
	 * the same flag for it. */
	struct v4lc_jpeg_dec dec;
	/* The worker thread that decodes the top of large YUV frames
	 * (mjpeg_split.c), created on the first one. */
	struct v4lc_jpeg_split *split;
};

/* Grow dec's scratch buffer (never shrinks; contents are not kept). 0 or
 * -ENOMEM. */
int v4lc_jpeg_scratch_reserve(struct v4lc_jpeg_dec *dec, size_t size);

/*
 * The chroma layout of a frame relative to luma: rh luma columns and rv
 * luma rows per native chroma sample (rh 1, 2 or 4; rv 1 or 2), native
 * chroma width sw, 4:2:0 width cw.
 */
struct v4lc_chroma_geom {
	int rh, rv, sw, cw;
	v4lc_row_avg_fn *avg;
};

/*
 * Resample `valid` native chroma rows of one band (stride ss) to 4:2:0 rows
 * at dst (stride cw). A band starts on an even luma row, so row pairs never
 * straddle two bands; an odd last row (valid odd) averages with itself.
 */
void v4lc_jpeg_chroma_band(const struct v4lc_chroma_geom *g, const uint8_t *src,
			   size_t ss, uint8_t *dst, int valid);

/*
 * The TurboJPEG handle ready for this frame, its header read: 0 when the
 * JPEG, scaled by 1/denom (rounded up), is width x height, else a negative
 * errno. *subsamp gets TurboJPEG's subsampling (-1: none it can name).
 * dht: the frame may load Huffman tables.
 */
int v4lc_jpeg_tj_header(struct v4lc_jpeg *j, const uint8_t *src,
			size_t src_size, int dht, int width, int height,
			int denom, int *subsamp, char *err, size_t err_len);

/* A failed TurboJPEG decode call's result: 0 (a benign warning), -EPIPE
 * or -EAGAIN (mjpeg_turbo.c). */
int v4lc_jpeg_tj_error(struct v4lc_jpeg *j, char *err, size_t err_len);

/* RGB24/BGR24 through tjDecompress2(), scaled by 1/denom. */
int v4lc_jpeg_tj_rgb(struct v4lc_jpeg *j, const uint8_t *src, size_t src_size,
		     int dht, uint32_t dst_fourcc, uint8_t *dst, int width,
		     int height, int denom, char *err, size_t err_len);

/* YUV420/YVU420 (yvu) scaled by 1/denom through TurboJPEG
 * (mjpeg_scaled.c). */
int v4lc_jpeg_tj_yuv_scaled(struct v4lc_jpeg *j, const uint8_t *src,
			    size_t src_size, int dht, int yvu, uint8_t *dst,
			    int w, int h, int denom, char *err, size_t err_len);

#endif
