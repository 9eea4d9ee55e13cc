/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * MJPEG/JPEG decoder through libjpeg-turbo's TurboJPEG 2.x API.
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
 * RGB24/BGR24 is tjDecompress2() straight into dst. YUV420/YVU420 decodes to
 * the JPEG's native planes with tjDecompressToYUVPlanes() (no colour
 * conversion, no upsampling): planes whose geometry already matches the
 * destination (luma almost always, chroma of 4:2:0 frames) are written in
 * place; the others go to a scratch buffer kept in the decoder and are then
 * cropped or averaged down to 4:2:0.
 */
#include "jpeg/mjpeg.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/videodev2.h>
#include <turbojpeg.h>

/* JPEG frames are at most 65535 x 65535 (16-bit SOF fields). */
#define V4LC_JPEG_MAX_DIM 65535

/* Bounds progressive frames to 500 scans so crafted input cannot stall us;
 * it does not change the output of baseline or ordinary progressive
 * frames. */
#define V4LC_JPEG_TJFLAGS TJFLAG_LIMITSCANS

struct v4lc_jpeg {
	tjhandle tj;
	/* The handle has seen a DHT segment: its Huffman table slots may hold
	 * non-standard tables, which libjpeg keeps across images. */
	int tables_dirty;
	uint8_t *scratch;
	size_t scratch_size;
};

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
	free(j->scratch);
	free(j);
}

static int fail(char *err, size_t err_len, int ret, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(char *err, size_t err_len, int ret, const char *fmt, ...)
{
	if (err && err_len > 0) {
		va_list ap;

		va_start(ap, fmt);
		vsnprintf(err, err_len, fmt, ap);
		va_end(ap);
	}
	return ret;
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

/* Grow the scratch buffer (never shrinks; contents are not kept). */
static int scratch_reserve(struct v4lc_jpeg *j, size_t size)
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
static int decode_error(struct v4lc_jpeg *j, char *err, size_t err_len)
{
	const char *msg = tjGetErrorStr2(j->tj);
	int warning = tjGetErrorCode(j->tj) == TJERR_WARNING, ret;

	if (warning && has_prefix(msg, benign_warnings,
				  sizeof(benign_warnings) /
					  sizeof(benign_warnings[0])))
		return 0; /* the handle finished the frame normally */
	if (warning && has_prefix(msg, data_warnings,
				  sizeof(data_warnings) /
					  sizeof(data_warnings[0])))
		ret = fail(err, err_len, -EPIPE,
			   "JPEG frame decoded with errors: %s", msg);
	else
		ret = fail(err, err_len, -EAGAIN,
			   "error decompressing JPEG: %s", msg);
	tj_reset(j);
	return ret;
}

/* ---- chroma resampling to 4:2:0 (rounded averages) ---- */

/* Rows r0 and r1 (r1 == r0 for an odd last row), same width. */
static void avg_rows(const uint8_t *restrict r0, const uint8_t *restrict r1,
		     uint8_t *restrict dst, int n)
{
	for (int x = 0; x < n; x++)
		dst[x] = (uint8_t)((r0[x] + r1[x] + 1) >> 1);
}

/* 2x2 blocks of a full-width pair of rows; n output samples from sw input
 * samples (sw == 2n or 2n - 1). */
static void avg_2x2(const uint8_t *restrict r0, const uint8_t *restrict r1,
		    uint8_t *restrict dst, int n, int sw)
{
	int full = sw / 2;

	for (int x = 0; x < full; x++)
		dst[x] = (uint8_t)((r0[2 * x] + r0[2 * x + 1] + r1[2 * x] +
				    r1[2 * x + 1] + 2) >> 2);
	if (full < n)
		dst[full] = (uint8_t)((r0[2 * full] + r1[2 * full] + 1) >> 1);
}

/* Column pairs of one row. */
static void avg_cols(const uint8_t *restrict r0, uint8_t *restrict dst, int n,
		     int sw)
{
	int full = sw / 2;

	for (int x = 0; x < full; x++)
		dst[x] = (uint8_t)((r0[2 * x] + r0[2 * x + 1] + 1) >> 1);
	if (full < n)
		dst[full] = r0[2 * full];
}

/* 4:1:1: each source sample covers two output samples; average row pairs. */
static void avg_rows_dup(const uint8_t *restrict r0,
			 const uint8_t *restrict r1, uint8_t *restrict dst,
			 int n)
{
	for (int x = 0; x < n; x++)
		dst[x] = (uint8_t)((r0[x / 2] + r1[x / 2] + 1) >> 1);
}

/*
 * Resample one native chroma plane (sw x sh, stride ss) to a 4:2:0 plane
 * (cw x ch, stride cw) for the given TurboJPEG subsampling. The caller
 * guarantees the native plane's geometry for that subsampling.
 */
static void chroma_to_420(int subsamp, const uint8_t *src, int ss, int sw,
			  int sh, uint8_t *dst, int cw, int ch)
{
	for (int y = 0; y < ch; y++) {
		uint8_t *d = dst + (size_t)y * cw;
		const uint8_t *r0, *r1;

		if (subsamp == TJSAMP_440) {
			/* Rows already halved: pair up columns. */
			avg_cols(src + (size_t)y * ss, d, cw, sw);
			continue;
		}
		/* Full-height planes: rows 2y and 2y + 1 (if any). */
		r0 = src + (size_t)(2 * y) * ss;
		r1 = 2 * y + 1 < sh ? r0 + ss : r0;
		switch (subsamp) {
		case TJSAMP_422:
			avg_rows(r0, r1, d, cw);
			break;
		case TJSAMP_444:
			avg_2x2(r0, r1, d, cw, sw);
			break;
		case TJSAMP_411:
			avg_rows_dup(r0, r1, d, cw);
			break;
		}
	}
}

static int decode_yuv(struct v4lc_jpeg *j, const uint8_t *src,
		      size_t src_size, int yvu, uint8_t *dst, int w, int h,
		      int subsamp, int colorspace, char *err, size_t err_len)
{
	int cw = (w + 1) / 2, ch = (h + 1) / 2;
	uint8_t *dplane[3];
	unsigned char *planes[3] = { NULL, NULL, NULL };
	int strides[3] = { 0, 0, 0 };
	int pw[3] = { 0, 0, 0 }, ph[3] = { 0, 0, 0 };
	size_t offs[3] = { 0, 0, 0 }, need = 0;
	int ncomp, direct[3] = { 0, 0, 0 }, ret = 0, r;

	if (colorspace != TJCS_YCbCr && colorspace != TJCS_GRAY)
		return fail(err, err_len, -EINVAL,
			    "JPEG colour space %d cannot be decoded to YUV",
			    colorspace);
	switch (subsamp) {
	case TJSAMP_444:
	case TJSAMP_422:
	case TJSAMP_420:
	case TJSAMP_440:
	case TJSAMP_411:
		ncomp = 3;
		break;
	case TJSAMP_GRAY:
		ncomp = 1;
		break;
	default:
		return fail(err, err_len, -EINVAL,
			    "unsupported JPEG chroma subsampling (%d)", subsamp);
	}

	dplane[0] = dst;
	dplane[1] = dst + (size_t)w * h;
	dplane[2] = dplane[1] + (size_t)cw * ch;
	if (yvu) {
		uint8_t *t = dplane[1];

		dplane[1] = dplane[2];
		dplane[2] = t;
	}

	for (int i = 0; i < ncomp; i++) {
		pw[i] = tjPlaneWidth(i, w, subsamp);
		ph[i] = tjPlaneHeight(i, h, subsamp);
		if (pw[i] <= 0 || ph[i] <= 0)
			return fail(err, err_len, -EINVAL,
				    "bad JPEG plane geometry");
		if (i == 0)
			direct[i] = pw[i] == w && ph[i] == h;
		else
			direct[i] = subsamp == TJSAMP_420 && pw[i] == cw &&
				    ph[i] == ch;
		if (direct[i]) {
			planes[i] = dplane[i];
			strides[i] = i ? cw : w;
		} else {
			offs[i] = need;
			strides[i] = pw[i];
			need += (size_t)pw[i] * ph[i];
		}
	}
	if (need) {
		if (scratch_reserve(j, need))
			return fail(err, err_len, -ENOMEM,
				    "out of memory for JPEG scratch planes");
		for (int i = 0; i < ncomp; i++)
			if (!direct[i])
				planes[i] = j->scratch + offs[i];
	}

	r = tjDecompressToYUVPlanes(j->tj, src, (unsigned long)src_size, planes,
				    w, strides, h, V4LC_JPEG_TJFLAGS);
	if (r) {
		ret = decode_error(j, err, err_len);
		if (ret && ret != -EPIPE)
			return ret;
		/* A warning (typically a truncated frame, whose missing
		 * part libjpeg-turbo fills in): there is data, so finish
		 * the frame. */
	}

	if (!direct[0])
		for (int y = 0; y < h; y++)
			memcpy(dplane[0] + (size_t)y * w,
			       planes[0] + (size_t)y * strides[0], (size_t)w);
	if (ncomp == 1) {
		memset(dplane[1], 128, (size_t)cw * ch);
		memset(dplane[2], 128, (size_t)cw * ch);
		return ret;
	}
	for (int i = 1; i < 3; i++)
		if (!direct[i])
			chroma_to_420(subsamp, planes[i], strides[i], pw[i],
				      ph[i], dplane[i], cw, ch);
	return ret;
}

int v4lc_jpeg_decode(struct v4lc_jpeg *j, const uint8_t *src, size_t src_size,
		     uint32_t dst_fourcc, uint8_t *dst, size_t dst_size,
		     int width, int height, char *err, size_t err_len)
{
	int jw = 0, jh = 0, subsamp = -1, colorspace = -1, yuv, r, dht;
	size_t need;

	if (!j)
		return fail(err, err_len, -EINVAL, "no JPEG decoder");
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
		return fail(err, err_len, -EINVAL,
			    "unsupported JPEG destination format 0x%08x",
			    (unsigned)dst_fourcc);
	}
	if (width <= 0 || height <= 0 || width > V4LC_JPEG_MAX_DIM ||
	    height > V4LC_JPEG_MAX_DIM)
		return fail(err, err_len, -EINVAL, "invalid frame size %dx%d",
			    width, height);
	need = v4lc_jpeg_dst_bytes(dst_fourcc, width, height);
	if (!need || !dst || dst_size < need)
		return fail(err, err_len, -EFAULT,
			    "destination buffer too small (%zu < %zu)",
			    dst_size, need);
	/* An empty frame, or one whose length TurboJPEG's unsigned long
	 * cannot hold (32-bit systems). */
	if (!src || src_size < 2 || src_size > ULONG_MAX)
		return fail(err, err_len, -EAGAIN,
			    "JPEG frame too short (%zu bytes)", src_size);

	dht = scan_has_dht(src, src_size);
	if (dht < 0)
		return fail(err, err_len, -EAGAIN,
			    "not a JPEG frame (no SOI marker)");
	if (!dht && j->tables_dirty && j->tj)
		tj_reset(j);
	if (!j->tj) {
		j->tables_dirty = 0;
		j->tj = tjInitDecompress();
		if (!j->tj)
			return fail(err, err_len, -ENOMEM,
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
				&subsamp, &colorspace) &&
	    !(jw > 0 && jh > 0 && colorspace >= 0)) {
		r = fail(err, err_len, -EAGAIN, "error parsing JPEG header: %s",
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
		return fail(err, err_len, -EAGAIN,
			    "JPEG frame holds no image (header cut short?)");
	}
	if (jw != width || jh != height)
		return fail(err, err_len, -EIO,
			    "JPEG size %dx%d does not match the format %dx%d",
			    jw, jh, width, height);

	if (yuv)
		return decode_yuv(j, src, src_size,
				  dst_fourcc == V4L2_PIX_FMT_YVU420, dst, width,
				  height, subsamp, colorspace, err, err_len);

	r = tjDecompress2(j->tj, src, (unsigned long)src_size, dst, width,
			  3 * width, height,
			  dst_fourcc == V4L2_PIX_FMT_RGB24 ? TJPF_RGB : TJPF_BGR,
			  V4LC_JPEG_TJFLAGS);
	if (r)
		return decode_error(j, err, err_len);
	return 0;
}
