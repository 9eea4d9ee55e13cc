/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Internal to the MJPEG decoder (src/jpeg/mjpeg_libjpeg.c, mjpeg_split.c):
 * the libjpeg decompressor of the YUV path, and the two-thread split of one
 * frame.
 *
 * The split: a frame without restart markers cannot be entropy-decoded from
 * the middle, but the inverse DCT and everything after it can be left out
 * for the rows one does not want. So a worker thread decodes the top rows
 * fully and stops there, while the calling thread entropy-decodes the top
 * rows without transforming them (libjpeg-turbo's own way of skipping whole
 * iMCU rows) and decodes the rest fully, then finishes the frame as the
 * single-thread path does. Both write disjoint rows of the destination with
 * the same code, so the output is the single-thread output byte for byte;
 * the calling thread sees every warning and error of the whole frame, in the
 * same order, so the return code and message are the single-thread ones too.
 */
#ifndef V4LC_JPEG_MJPEG_SPLIT_H
#define V4LC_JPEG_MJPEG_SPLIT_H

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jpeglib.h>

/* libjpeg error manager: fatal errors longjmp out; warnings are noted. */
struct v4lc_jpeg_err {
	struct jpeg_error_mgr pub;
	jmp_buf env;
	int data_warning;          /* damaged or missing picture data */
	int first_benign;          /* the first warning was a benign one */
	char msg[JMSG_LENGTH_MAX]; /* the error, or the first data warning */
};

/* One libjpeg decompressor of the YUV path, with its band buffer; one per
 * thread that decodes. */
struct v4lc_jpeg_dec {
	struct jpeg_decompress_struct d;
	struct v4lc_jpeg_err jerr;
	struct jpeg_progress_mgr progress;
	int live;         /* d is created */
	int tables_dirty; /* d has loaded a frame's own Huffman tables */
	uint8_t *scratch; /* the band buffer */
	size_t scratch_size;
};

struct v4lc_jpeg_split;

/* What a split frame is decoded to. */
enum { V4LC_JPEG_YUV, V4LC_JPEG_YVU, V4LC_JPEG_RGB, V4LC_JPEG_BGR };

/* Release what a decoder holds (not the struct itself). */
void v4lc_jpeg_dec_release(struct v4lc_jpeg_dec *dec);

/*
 * Decode a frame to YUV420/YVU420 with `dec` (mjpeg_libjpeg.c). dht: the
 * frame may load Huffman tables (see scan_has_dht in mjpeg.c). With split
 * non-NULL the frame may be shared with the worker of *split (created on
 * demand). stop_row > 0 (the worker's call): decode only the rows above
 * stop_row, a multiple of the iMCU row height, then abandon the frame.
 * Returns like v4lc_jpeg_decode().
 */
int v4lc_jpeg_yuv(struct v4lc_jpeg_dec *dec, const uint8_t *src,
		  size_t src_size, int dht, int yvu, uint8_t *dst, int w, int h,
		  struct v4lc_jpeg_split **split, int stop_row, char *err,
		  size_t err_len);

/*
 * The same for RGB24 (kind V4LC_JPEG_RGB) or BGR24 (V4LC_JPEG_BGR), packed
 * with stride 3 * w, byte-identical to tjDecompress2(). With split
 * non-NULL (the calling thread) it returns 1 without writing anything when
 * the frame is not split (its header does not parse, or it is not a
 * single-scan sequential Huffman YCbCr or grey frame of w x h): the caller
 * decodes it with TurboJPEG then.
 */
int v4lc_jpeg_rgb(struct v4lc_jpeg_dec *dec, const uint8_t *src,
		  size_t src_size, int dht, int kind, uint8_t *dst, int w,
		  int h, struct v4lc_jpeg_split **split, int stop_row,
		  char *err, size_t err_len);

/* Might a w x h frame be split now (before any header is parsed)? */
int v4lc_jpeg_split_may(const struct v4lc_jpeg_split *s, int w, int h);

/*
 * After jpeg_read_header() on the calling thread's decompressor, with the
 * frame found decodable (three YCbCr components or one; rgb: for RGB/BGR
 * output, else YUV): the number
 * of top rows the worker should take (a multiple of the iMCU row height), or
 * 0 to decode the frame on this thread alone. Creates the worker on first
 * use. Never fails: without a worker the answer is 0.
 */
int v4lc_jpeg_split_plan(struct v4lc_jpeg_split **split, j_decompress_ptr d,
			 int rgb);

/* Hand the top `rows` rows of the frame to the worker (after a non-zero
 * plan). The worker decodes them into dst with its own decompressor. */
void v4lc_jpeg_split_begin(struct v4lc_jpeg_split *s, const uint8_t *src,
			   size_t src_size, int dht, int kind, uint8_t *dst,
			   int w, int h, int rows);

/*
 * Wait for the worker's part. Returns the worker's result, with its
 * message in err when it is not 0. cpu_ns: the calling thread's CPU time
 * spent on the frame; wall_start: v4lc_jpeg_wall_ns() when the frame
 * began; to balance the next split and to tell whether splitting pays (0:
 * do not learn from this frame).
 */
int v4lc_jpeg_split_end(struct v4lc_jpeg_split *s, int64_t cpu_ns,
			int64_t wall_start, char *err, size_t err_len);

/* Monotonic wall-clock time, in ns. */
int64_t v4lc_jpeg_wall_ns(void);

/* Entropy-decode n whole iMCU rows of an interleaved sequential Huffman
 * scan, before any jpeg_read_raw_data(), and discard them. */
void v4lc_jpeg_skip_imcu_rows(j_decompress_ptr d, int n);

/* CPU time of the calling thread, in ns. */
int64_t v4lc_jpeg_thread_ns(void);

/* Frames begun on the worker so far. */
unsigned long v4lc_jpeg_split_count(const struct v4lc_jpeg_split *s);

/* Stop and join the worker, release everything (NULL is fine). */
void v4lc_jpeg_split_free(struct v4lc_jpeg_split *s);

#endif
