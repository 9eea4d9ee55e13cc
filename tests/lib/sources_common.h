/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Shared helpers of the tests/lib/sources_<group>.c programs
 * (sources_common.c, built once into a static library with the fake device
 * and origlib): an instance of OUR libv4lconvert on a fake device,
 * conversions through the public v4lconvert_convert, the double-precision
 * BT.601 check of YUV output, the distribution's libv4lconvert loaded by
 * absolute path for differential checks, and a small timing loop (--bench).
 */
#ifndef V4LC_TEST_SOURCES_COMMON_H
#define V4LC_TEST_SOURCES_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include <libv4lconvert.h>

#include "../common/origlib.h"

/* The programs' random numbers (xorshift32 from a fixed seed). */
uint32_t rnd(void);
void fill_random(uint8_t *p, size_t n);

/* The four destinations, RGB ones first. */
extern const uint32_t dst_fmts[4];

/* Our instance, on a fake device offering `fourccs`. */
struct v4lconvert_data *make_ours(const uint32_t *fourccs, int n);

/* Source and destination formats; bytesperline `bpl` and `dst_bpl`. */
void set_fmts(struct v4l2_format *sf, struct v4l2_format *df,
	      uint32_t src_fourcc, int w, int h, int bpl, uint32_t hsv_enc,
	      uint32_t dst_fourcc, int dst_bpl);

/* Destination bytes for a width, height and luma/RGB stride. */
size_t dst_bytes(uint32_t f, int w, int h, int stride);

/*
 * Check an RGB24/BGR24 output (stride `ds`) against reference RGB (w*h*3,
 * R G B order), exactly or within `tol`. Returns the largest difference.
 */
int check_rgb(const uint8_t *out, int ds, uint32_t dst, const uint8_t *ref,
	      int w, int h, int tol, const char *what);

/*
 * Check YU12/YV12 output against reference RGB by the double-precision
 * BT.601 limited-range formulas: Y per pixel, chroma of each 2x2 block
 * from the mean of its pixels (edge blocks: the pixels that exist).
 */
void check_yuv(const uint8_t *out, int ds, uint32_t dst, const uint8_t *ref,
	       int w, int h, double tol, const char *what);

/* v4lconvert_convert: ours, or the original's through struct orig. */
typedef int convert_fn(void *, const struct v4l2_format *,
		       const struct v4l2_format *, unsigned char *, int,
		       unsigned char *, int);

/* The distribution's library, by absolute path (data NULL when absent). */
struct orig {
	struct origlib lib;
	convert_fn *convert;
	struct v4lconvert_data *data;
};

/* Load the original (1), or print "SKIP differential" (0). */
int orig_open(struct orig *o);
void orig_close(struct orig *o);

/* Reference RGB of pixel x of a source row, written by each test. */
typedef void ref_fn(uint32_t fourcc, uint32_t hsv_enc, const uint8_t *row,
		    int x, uint8_t rgb[3]);
/* Minimal bytes per line of a source format. */
typedef size_t rowbytes_fn(uint32_t fourcc, int w);

/*
 * Every size, with and without source/destination padding, into all four
 * destinations: RGB exactly (within rgb_tol), YUV per BT.601 within 1
 * level (grey: Y = grey exactly, chroma 128); guard bytes untouched; a
 * short frame fails with EPIPE.
 */
void test_format(struct v4lconvert_data *cv, uint32_t fourcc, uint32_t hsv_enc,
		 ref_fn *ref, rowbytes_fn *rb, int grey, int rgb_tol);

/* Our and the original's output for the same frame (minimal strides). */
int run_both(struct v4lconvert_data *cv, struct orig *o, uint32_t fourcc,
	     uint32_t hsv_enc, int w, int h, size_t sstride, uint8_t *src,
	     uint32_t dst_cc, uint8_t *ours, uint8_t *theirs);

/* --bench: median MPix/s of ours and the original at 1280x720. */
void bench_format(struct v4lconvert_data *cv, struct orig *o, uint32_t fourcc,
		  size_t sstride, uint32_t dst_cc);

#endif
