/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * MJPEG/JPEG decoder through libjpeg-turbo: the entry points (mjpeg.h), the
 * checks every frame passes, and which path decodes it (mjpeg_priv.h lists
 * the files).
 *
 * Missing Huffman tables: webcam MJPEG frames usually carry no DHT segment
 * and rely on the standard tables of ITU-T T.81 Annex K.3. libjpeg-turbo
 * (every version that ships TurboJPEG, including Debian 12's 2.1.5) loads
 * those tables itself for any table slot that is still empty, so frames are
 * passed through untouched; tests/jpeg/decode.c checks that frames with
 * their DHT stripped decode exactly like the originals. But libjpeg keeps
 * the tables of one image for the next, so a DHT-less frame decoded after a
 * frame with its own (e.g. optimised) tables would use those: the decoder
 * notes when its handle has seen a DHT and starts from a fresh handle for
 * the next DHT-less frame (a stream that always or never carries DHT never
 * pays for this).
 *
 * Large frames may be split between the calling thread and a worker
 * thread (mjpeg_split.c/.h): the worker decodes the top rows, this thread
 * entropy-decodes them without the transform and decodes the rest; the
 * bytes and return codes are those of one thread.
 *
 * RGB24/BGR24 is tjDecompress2() straight into dst (mjpeg_turbo.c; a split
 * frame: the libjpeg API with tjDecompress2's settings). YUV420/YVU420 goes
 * through the libjpeg API (mjpeg_libjpeg.c), scaled ones through
 * TurboJPEG's YUV decoder (mjpeg_scaled.c).
 */
#include "jpeg/mjpeg.h"
#include "jpeg/mjpeg_priv.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include <linux/videodev2.h>

/* JPEG frames are at most 65535 x 65535 (16-bit SOF fields). */
#define V4LC_JPEG_MAX_DIM 65535

struct v4lc_jpeg *v4lc_jpeg_new(void)
{
	return calloc(1, sizeof(struct v4lc_jpeg));
}

void v4lc_jpeg_free(struct v4lc_jpeg *j)
{
	if (!j)
		return;
	if (j->tj)
		tjDestroy(j->tj);
	v4lc_jpeg_split_free(j->split);
	v4lc_jpeg_dec_release(&j->dec);
	free(j);
}

size_t v4lc_jpeg_dst_bytes(uint32_t dst_fourcc, int width, int height)
{
	uint64_t w = (uint64_t)width, h = (uint64_t)height, n;

	if (width <= 0 || height <= 0)
		return 0;
	switch (dst_fourcc) {
	case V4L2_PIX_FMT_RGB24:
	case V4L2_PIX_FMT_BGR24:
		n = 3 * w * h;
		break;
	case V4L2_PIX_FMT_YUV420:
	case V4L2_PIX_FMT_YVU420:
		n = w * h + 2 * ((w + 1) / 2) * ((h + 1) / 2);
		break;
	default:
		return 0;
	}
	/* Both factors are below 2^31: n cannot wrap in 64 bits. */
	if (n > SIZE_MAX)
		return 0;
	return (size_t)n;
}

unsigned long v4lc_jpeg_split_frames(const struct v4lc_jpeg *j)
{
	return j ? v4lc_jpeg_split_count(j->split) : 0;
}

int v4lc_jpeg_scratch_reserve(struct v4lc_jpeg_dec *j, size_t size)
{
	uint8_t *p;

	if (size <= j->scratch_size)
		return 0;
	p = malloc(size);
	if (!p)
		return -ENOMEM;
	free(j->scratch);
	j->scratch = p;
	j->scratch_size = size;
	return 0;
}

/*
 * Walk the marker segments before the first SOS: may this frame load
 * Huffman tables? Returns 1 if it has a DHT segment, or if it has more than
 * one scan (progressive or non-interleaved frames may define tables between
 * scans; we do not search the entropy-coded data for them), else 0; -1 when
 * the data does not start like a JPEG (no SOI). Segments cut short or
 * malformed stop the walk (libjpeg-turbo then reports the real error).
 */
static int scan_has_dht(const uint8_t *p, size_t n)
{
	size_t i = 2;
	int nf = -1, sequential = 0;

	if (n < 2 || p[0] != 0xff || p[1] != 0xd8)
		return -1;
	while (i + 2 <= n) {
		uint8_t m;
		size_t len;

		if (p[i] != 0xff)
			return 0;
		m = p[i + 1];
		if (m == 0xff) { /* fill byte */
			i++;
			continue;
		}
		if (m == 0xc4)
			return 1;
		if (m == 0xd8 || m == 0x01 || (m >= 0xd0 && m <= 0xd7)) {
			i += 2; /* no length field */
			continue;
		}
		if (m == 0xd9 || i + 4 > n)
			return 0;
		len = ((size_t)p[i + 2] << 8) | p[i + 3];
		if (len < 2)
			return 0;
		if (m >= 0xc0 && m <= 0xcf && m != 0xc4 && m != 0xc8 &&
		    m != 0xcc) { /* SOFn */
			sequential = m == 0xc0 || m == 0xc1;
			if (i + 10 <= n)
				nf = p[i + 9];
		}
		if (m == 0xda) /* SOS: one scan with every component? */
			return !(sequential && i + 5 <= n && p[i + 4] == nf);
		i += 2 + len;
	}
	return 0;
}

/*
 * The destination of a decode: 0 for RGB24/BGR24, 1 for YUV420/YVU420, or
 * a negative errno (another format, bad geometry, dst too small).
 */
static int check_dst(uint32_t dst_fourcc, const uint8_t *dst, size_t dst_size,
		     int width, int height, char *err, size_t err_len)
{
	size_t need;
	int yuv;

	switch (dst_fourcc) {
	case V4L2_PIX_FMT_RGB24:
	case V4L2_PIX_FMT_BGR24:
		yuv = 0;
		break;
	case V4L2_PIX_FMT_YUV420:
	case V4L2_PIX_FMT_YVU420:
		yuv = 1;
		break;
	default:
		return v4lc_jpeg_fail(
			err, err_len, -EINVAL,
			"unsupported JPEG destination format 0x%08x",
			(unsigned)dst_fourcc);
	}
	if (width <= 0 || height <= 0 || width > V4LC_JPEG_MAX_DIM ||
	    height > V4LC_JPEG_MAX_DIM)
		return v4lc_jpeg_fail(err, err_len, -EINVAL,
				      "invalid frame size %dx%d", width,
				      height);
	need = v4lc_jpeg_dst_bytes(dst_fourcc, width, height);
	if (!need || !dst || dst_size < need)
		return v4lc_jpeg_fail(
			err, err_len, -EFAULT,
			"destination buffer too small (%zu < %zu)", dst_size,
			need);
	return yuv;
}

int v4lc_jpeg_decode_scaled(struct v4lc_jpeg *j, const uint8_t *src,
			    size_t src_size, uint32_t dst_fourcc, uint8_t *dst,
			    size_t dst_size, int width, int height, int denom,
			    char *err, size_t err_len)
{
	int yuv, r, dht;

	if (!j)
		return v4lc_jpeg_fail(err, err_len, -EINVAL, "no JPEG decoder");
	if (denom != 1 && denom != 2 && denom != 4 && denom != 8)
		return v4lc_jpeg_fail(err, err_len, -EINVAL,
				      "bad JPEG scale 1/%d", denom);
	if (denom > 1 && width < V4LC_JPEG_MIN_SCALED_W)
		return v4lc_jpeg_fail(
			err, err_len, -EINVAL,
			"frame %dx%d too narrow for a scaled decode", width,
			height);
	yuv = check_dst(dst_fourcc, dst, dst_size, width, height, err, err_len);
	if (yuv < 0)
		return yuv;
	/* An empty frame, or one whose length TurboJPEG's unsigned long
	 * cannot hold (32-bit systems). */
	if (!src || src_size < 2 || src_size > ULONG_MAX)
		return v4lc_jpeg_fail(err, err_len, -EAGAIN,
				      "JPEG frame too short (%zu bytes)",
				      src_size);

	dht = scan_has_dht(src, src_size);
	if (dht < 0)
		return v4lc_jpeg_fail(err, err_len, -EAGAIN,
				      "not a JPEG frame (no SOI marker)");
	if (yuv && denom > 1)
		return v4lc_jpeg_tj_yuv_scaled(j, src, src_size, dht,
					       dst_fourcc ==
						       V4L2_PIX_FMT_YVU420,
					       dst, width, height, denom, err,
					       err_len);
	if (yuv)
		return v4lc_jpeg_yuv(&j->dec, src, src_size, dht,
				     dst_fourcc == V4L2_PIX_FMT_YVU420, dst,
				     width, height, &j->split, 0, err, err_len);
	/* A large frame may be split with a worker thread. */
	if (denom == 1 && v4lc_jpeg_split_may(j->split, width, height)) {
		r = v4lc_jpeg_rgb(&j->dec, src, src_size, dht,
				  dst_fourcc == V4L2_PIX_FMT_RGB24
					  ? V4LC_JPEG_RGB
					  : V4LC_JPEG_BGR,
				  dst, width, height, &j->split, 0, err,
				  err_len);
		if (r != 1)
			return r;
	}
	return v4lc_jpeg_tj_rgb(j, src, src_size, dht, dst_fourcc, dst, width,
				height, denom, err, err_len);
}

int v4lc_jpeg_decode(struct v4lc_jpeg *j, const uint8_t *src, size_t src_size,
		     uint32_t dst_fourcc, uint8_t *dst, size_t dst_size,
		     int width, int height, char *err, size_t err_len)
{
	return v4lc_jpeg_decode_scaled(j, src, src_size, dst_fourcc, dst,
				       dst_size, width, height, 1, err,
				       err_len);
}
