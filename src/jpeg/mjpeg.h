/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * MJPEG/JPEG decoding for libv4lconvert, through libjpeg-turbo (its
 * TurboJPEG API for RGB, its libjpeg API for YUV). One decoder per converter
 * instance; it keeps both decompressors and a small band buffer across
 * frames, so the steady state allocates nothing in this module
 * (libjpeg-turbo itself still uses its own per-frame pools).
 *
 * Not thread-safe: one decoder must not be used by two threads at once
 * (like the converter instance that owns it). A decoder may start a worker
 * thread of its own for large YUV frames (see v4lc_jpeg_split_frames());
 * v4lc_jpeg_free() joins it.
 */
#ifndef V4LC_JPEG_MJPEG_H
#define V4LC_JPEG_MJPEG_H

#include <stddef.h>
#include <stdint.h>

struct v4lc_jpeg;

/* A decoder, or NULL when out of memory. The decompressors are created
 * lazily by the first decode that needs them. */
struct v4lc_jpeg *v4lc_jpeg_new(void);
void v4lc_jpeg_free(struct v4lc_jpeg *j);

/*
 * Decode one JPEG/MJPEG frame (Huffman tables may be absent: the standard
 * tables of ITU-T T.81 Annex K.3 are used then) into dst, a width x height
 * frame of dst_fourcc:
 *   V4L2_PIX_FMT_RGB24 / BGR24: packed, stride 3 * width; byte-identical to
 *     tjDecompress2() with TJPF_RGB / TJPF_BGR (accurate IDCT, fancy
 *     upsampling).
 *   V4L2_PIX_FMT_YUV420 / YVU420: planar, the JPEG's own (full-range) YCbCr
 *     without any RGB round trip. Luma stride width; chroma planes of
 *     (width + 1) / 2 x (height + 1) / 2 follow it (U then V for YUV420, V then
 *     U for YVU420). Chroma resampled to 4:2:0 by rounded averaging:
 *     4:2:2 averages row pairs, 4:4:4 averages 2x2 blocks, 4:4:0 averages
 *     column pairs, 4:1:1 doubles columns and averages row pairs; an odd
 *     last row/column averages only the samples it has. Grey JPEGs get
 *     chroma 128.
 *
 * Returns 0, or a negative errno (the meaning libv4lconvert gives them):
 *   -EAGAIN  corrupt frame: no usable header, or a fatal decode error;
 *            dst may hold partial data. Get another frame.
 *   -EPIPE   libjpeg-turbo decoded the frame but warned (a short/truncated
 *            frame: the missing part is filled in by libjpeg-turbo, or
 *            corrupt entropy data): there is some data in dst.
 *   -EIO     the JPEG's size is not width x height.
 *   -EINVAL  unsupported destination fourcc, bad geometry, or a JPEG the
 *            YUV path cannot take (CMYK, unusual sampling factors).
 *   -EFAULT  dst_size too small for width x height of dst_fourcc.
 *   -ENOMEM  out of memory.
 * On error a human-readable message is stored in err (if err_len > 0);
 * err is left untouched on success.
 */
int v4lc_jpeg_decode(struct v4lc_jpeg *j, const uint8_t *src, size_t src_size,
		     uint32_t dst_fourcc, uint8_t *dst, size_t dst_size,
		     int width, int height, char *err, size_t err_len);

/*
 * The same, scaled down by libjpeg-turbo's IDCT: width x height is the
 * JPEG's size divided by denom (1, 2, 4 or 8) and rounded up, and the frame
 * is decoded straight to that size, never in full. RGB24/BGR24 are
 * byte-identical to tjDecompress2() at width x height; YUV420/YVU420 are
 * tjDecompressToYUVPlanes() at width x height (every component's block
 * size 8 / denom: the native planes keep the JPEG's subsampling) resampled
 * to 4:2:0 as above. denom 1 is v4lc_jpeg_decode(). -EIO when the scaled
 * JPEG is not width x height; -EINVAL for another denom, or a scaled width
 * below 4 (not decoded scaled: see mjpeg_priv.h).
 */
int v4lc_jpeg_decode_scaled(struct v4lc_jpeg *j, const uint8_t *src,
			    size_t src_size, uint32_t dst_fourcc, uint8_t *dst,
			    size_t dst_size, int width, int height, int denom,
			    char *err, size_t err_len);

/*
 * 2, 4 or 8 when a sw x sh JPEG scaled by 1/n (sizes rounded up) is
 * dw x dh, the smallest such n, and dw is at least 4; else 0.
 */
int v4lc_jpeg_scale_denom(int sw, int sh, int dw, int dh);

/*
 * Bytes of a width x height frame of dst_fourcc (one of the four above), or
 * 0 for another fourcc or an invalid/overflowing size.
 */
size_t v4lc_jpeg_dst_bytes(uint32_t dst_fourcc, int width, int height);

/*
 * How many frames this decoder has split between the calling thread and
 * its worker (mjpeg_split.c): single-scan sequential Huffman frames of at
 * least 640x480 (any of the four destinations), when the process may run on two CPUs (its affinity mask) and
 * the split pays (it is suspended for a while when the frames take no less
 * wall-clock time than one thread would: the other CPU is busy). The
 * environment variable LIBV4LCONVERT_THREADS, read when the worker would be
 * created (the first large frame): 1 keeps every frame on the calling
 * thread; 2 or more splits every large frame whether it pays or not. For
 * tests and benchmarks.
 */
unsigned long v4lc_jpeg_split_frames(const struct v4lc_jpeg *j);

#endif
