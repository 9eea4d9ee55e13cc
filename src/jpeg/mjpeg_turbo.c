/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The MJPEG decoder's TurboJPEG path: the handle kept across frames (with
 * the DHT treatment of mjpeg.c), its header, its errors, and RGB24/BGR24
 * through tjDecompress2() straight into dst, full size or scaled by the
 * IDCT.
 */
#include "jpeg/mjpeg_priv.h"

#include <errno.h>
#include <string.h>

#include <linux/videodev2.h>

/*
 * Drop the TurboJPEG handle after any failed call; the next frame creates a
 * fresh one. libjpeg-turbo 2.1's tjDecompressHeader3() leaves the handle
 * mid-header when it fails, and the next header call on that handle then
 * "succeeds" with stale or zero dimensions (seen with 2.1.5). Corrupt frames
 * are rare, so the re-creation cost does not matter.
 */
static void tj_reset(struct v4lc_jpeg *j)
{
	tjDestroy(j->tj);
	j->tj = NULL;
}

static int has_prefix(const char *msg, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strncmp(msg, list[i], strlen(list[i])))
			return 1;
	return 0;
}

/*
 * libjpeg warnings that say nothing about the picture data (header
 * oddities libjpeg works around).
 */
static const char *const benign_warnings[] = {
	"Invalid SOS parameters for sequential JPEG",
	"Warning: unknown JFIF revision number",
	"Unknown Adobe color transform code",
	"Corrupt JPEG data: bad ICC marker",
};

/* libjpeg warnings about damaged or missing picture data, after which
 * libjpeg still delivers the whole frame (filling in what is missing). */
static const char *const data_warnings[] = {
	"Corrupt JPEG data",
	"Premature end of JPEG file",
	"Inconsistent progression sequence",
};

/*
 * Map a failed TurboJPEG decode call to our error convention. TurboJPEG
 * keeps only the last message, and reports a fatal error that follows a
 * warning as a warning, so the message decides:
 *   - a data warning: the frame was decoded, damaged or short: -EPIPE;
 *   - a benign warning (these come from the headers, before any data
 *     warning): the frame is intact: 0;
 *   - anything else is a fatal error: a corrupt frame, -EAGAIN.
 */
int v4lc_jpeg_tj_error(struct v4lc_jpeg *j, char *err, size_t err_len)
{
	const char *msg = tjGetErrorStr2(j->tj);
	int warning = tjGetErrorCode(j->tj) == TJERR_WARNING, ret;

	if (warning &&
	    has_prefix(msg, benign_warnings,
		       sizeof(benign_warnings) / sizeof(benign_warnings[0])))
		return 0; /* the handle finished the frame normally */
	if (warning &&
	    has_prefix(msg, data_warnings,
		       sizeof(data_warnings) / sizeof(data_warnings[0])))
		ret = v4lc_jpeg_fail(err, err_len, -EPIPE,
				     "JPEG frame decoded with errors: %s", msg);
	else
		ret = v4lc_jpeg_fail(err, err_len, -EAGAIN,
				     "error decompressing JPEG: %s", msg);
	tj_reset(j);
	return ret;
}

/*
 * The TurboJPEG handle ready for this frame, its header read: 0 when the
 * JPEG, scaled by 1/denom (rounded up), is width x height, else a negative
 * errno. *subsamp gets TurboJPEG's subsampling (-1: none it can name).
 */
int v4lc_jpeg_tj_header(struct v4lc_jpeg *j, const uint8_t *src,
			size_t src_size, int dht, int width, int height,
			int denom, int *subsamp, char *err, size_t err_len)
{
	int jw = 0, jh = 0, colorspace = -1, r;

	*subsamp = -1;
	if (!dht && j->tables_dirty && j->tj)
		tj_reset(j);
	if (!j->tj) {
		j->tables_dirty = 0;
		j->tj = tjInitDecompress();
		if (!j->tj)
			return v4lc_jpeg_fail(
				err, err_len, -ENOMEM,
				"cannot create TurboJPEG decompressor: %s",
				tjGetErrorStr2(NULL));
	}

	/*
	 * tjDecompressHeader3() also fails after parsing the whole header
	 * when it met a warning (junk before a marker, say) or cannot name
	 * the subsampling (unusual sampling factors): then it has set all its
	 * outputs and left the handle idle, and the frame may well decode
	 * (the YUV path rejects unknown subsampling itself). After a real
	 * error the outputs keep our invalid initial values.
	 */
	if (tjDecompressHeader3(j->tj, src, (unsigned long)src_size, &jw, &jh,
				subsamp, &colorspace) &&
	    !(jw > 0 && jh > 0 && colorspace >= 0)) {
		r = v4lc_jpeg_fail(err, err_len, -EAGAIN,
				   "error parsing JPEG header: %s",
				   tjGetErrorStr2(j->tj));
		tj_reset(j);
		return r;
	}
	/* The header has loaded this frame's tables into the handle. */
	j->tables_dirty |= dht;
	/* A header that ends before any SOF/SOS (a frame cut short, or a
	 * tables-only stream) "succeeds" without setting the outputs. */
	if (jw <= 0 || jh <= 0) {
		tj_reset(j);
		return v4lc_jpeg_fail(
			err, err_len, -EAGAIN,
			"JPEG frame holds no image (header cut short?)");
	}
	if ((jw + denom - 1) / denom != width ||
	    (jh + denom - 1) / denom != height)
		return v4lc_jpeg_fail(
			err, err_len, -EIO,
			"JPEG size %dx%d (scaled 1/%d) does not match the "
			"format %dx%d",
			jw, jh, denom, width, height);
	return 0;
}

/*
 * RGB24/BGR24 through TurboJPEG: tjDecompress2() straight into dst, scaled
 * by its IDCT when width x height is 1/denom of the JPEG (TurboJPEG picks
 * the largest scaling factor that fits: exactly 1/denom for these sizes).
 */
int v4lc_jpeg_tj_rgb(struct v4lc_jpeg *j, const uint8_t *src, size_t src_size,
		     int dht, uint32_t dst_fourcc, uint8_t *dst, int width,
		     int height, int denom, char *err, size_t err_len)
{
	int subsamp, r;

	r = v4lc_jpeg_tj_header(j, src, src_size, dht, width, height, denom,
				&subsamp, err, err_len);
	if (r)
		return r;
	r = tjDecompress2(j->tj, src, (unsigned long)src_size, dst, width,
			  3 * width, height,
			  dst_fourcc == V4L2_PIX_FMT_RGB24 ? TJPF_RGB
							   : TJPF_BGR,
			  V4LC_JPEG_TJFLAGS);
	return r ? v4lc_jpeg_tj_error(j, err, err_len) : 0;
}
