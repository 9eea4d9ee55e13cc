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
 * Large frames may be split between the calling thread and a worker
 * thread (mjpeg_split.c/.h): the worker decodes the top rows, this thread
 * entropy-decodes them without the transform and decodes the rest; the
 * bytes and return codes are those of one thread.
 *
 * RGB24/BGR24 is tjDecompress2() straight into dst (a split frame: the
 * libjpeg API with tjDecompress2's settings). YUV420/YVU420 goes
 * through the libjpeg API of the same library (one decompress struct kept
 * across frames), as TurboJPEG's own YUV decoder does: raw (not upsampled,
 * not colour-converted) output, accurate integer IDCT, so the native planes
 * are the ones tjDecompressToYUVPlanes() gives. The frame is read one
 * iMCU row (8 or 16 luma rows) at a time: luma straight into dst when its
 * rows are whole blocks wide, chroma into a small band buffer that stays in
 * the cache and is averaged (or cropped) down to 4:2:0 right away.
 * libjpeg's Huffman tables persist across images in that struct too, so it
 * gets the same DHT treatment as the TurboJPEG handle.
 */
#include "jpeg/mjpeg.h"
#include "jpeg/mjpeg_split.h"

#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>
#include <linux/videodev2.h>
#include <turbojpeg.h>

#include "dispatch/dsp.h"

/* JPEG frames are at most 65535 x 65535 (16-bit SOF fields). */
#define V4LC_JPEG_MAX_DIM 65535

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

unsigned long v4lc_jpeg_split_frames(const struct v4lc_jpeg *j)
{
	return j ? v4lc_jpeg_split_count(j->split) : 0;
}

/* Grow the scratch buffer (never shrinks; contents are not kept). */
static int scratch_reserve(struct v4lc_jpeg_dec *j, size_t size)
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

	if (warning &&
	    has_prefix(msg, benign_warnings,
		       sizeof(benign_warnings) / sizeof(benign_warnings[0])))
		return 0; /* the handle finished the frame normally */
	if (warning &&
	    has_prefix(msg, data_warnings,
		       sizeof(data_warnings) / sizeof(data_warnings[0])))
		ret = fail(err, err_len, -EPIPE,
			   "JPEG frame decoded with errors: %s", msg);
	else
		ret = fail(err, err_len, -EAGAIN,
			   "error decompressing JPEG: %s", msg);
	tj_reset(j);
	return ret;
}

/* ---- chroma resampling to 4:2:0 (rounded averages) ---- */

/* 2x2 blocks of a full-width pair of rows; n output samples from sw input
 * samples (sw == 2n or 2n - 1). */
static void avg_2x2(const uint8_t *restrict r0, const uint8_t *restrict r1,
		    uint8_t *restrict dst, int n, int sw)
{
	int full = sw / 2;

	for (int x = 0; x < full; x++)
		dst[x] = (uint8_t)((r0[2 * x] + r0[2 * x + 1] + r1[2 * x] +
				    r1[2 * x + 1] + 2) >>
				   2);
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
static void avg_rows_dup(const uint8_t *restrict r0, const uint8_t *restrict r1,
			 uint8_t *restrict dst, int n)
{
	for (int x = 0; x < n; x++)
		dst[x] = (uint8_t)((r0[x / 2] + r1[x / 2] + 1) >> 1);
}

/*
 * The chroma layout of a frame relative to luma: rh luma columns and rv
 * luma rows per native chroma sample (rh 1, 2 or 4; rv 1 or 2), native
 * chroma width sw, 4:2:0 width cw.
 */
struct chroma_geom {
	int rh, rv, sw, cw;
	v4lc_row_avg_fn *avg;
};

/*
 * Resample `valid` native chroma rows of one band (stride ss) to 4:2:0 rows
 * at dst (stride cw). A band starts on an even luma row, so row pairs never
 * straddle two bands; an odd last row (valid odd) averages with itself.
 */
static void chroma_band(const struct chroma_geom *g, const uint8_t *src,
			size_t ss, uint8_t *dst, int valid)
{
	int cw = g->cw;

	if (g->rv == 2) { /* rows already halved */
		for (int k = 0; k < valid; k++, src += ss, dst += cw) {
			if (g->rh == 2)
				memcpy(dst, src, (size_t)cw);
			else
				avg_cols(src, dst, cw, g->sw);
		}
		return;
	}
	for (int k = 0; 2 * k < valid; k++, dst += cw) {
		const uint8_t *r0 = src + 2 * (size_t)k * ss;
		const uint8_t *r1 = 2 * k + 1 < valid ? r0 + ss : r0;

		if (g->rh == 2)
			g->avg(r0, r1, dst, cw);
		else if (g->rh == 1)
			avg_2x2(r0, r1, dst, cw, g->sw);
		else
			avg_rows_dup(r0, r1, dst, cw);
	}
}

/* ---- the YUV path: libjpeg API, raw output in bands ---- */

static void jerr_exit(j_common_ptr c)
{
	struct v4lc_jpeg_err *e = (struct v4lc_jpeg_err *)c->err;

	(*c->err->format_message)(c, e->msg);
	longjmp(e->env, 1);
}

/*
 * Warnings: header oddities that libjpeg works around are ignored; every
 * other warning says the picture data is damaged or short (libjpeg then
 * fills in what is missing and goes on), which makes the frame -EPIPE.
 * Trace messages (level >= 0) are dropped.
 */
static void jerr_emit(j_common_ptr c, int level)
{
	struct v4lc_jpeg_err *e = (struct v4lc_jpeg_err *)c->err;

	if (level >= 0)
		return;
	switch (c->err->msg_code) {
	case JWRN_NOT_SEQUENTIAL:
	case JWRN_JFIF_MAJOR:
	case JWRN_ADOBE_XFORM:
	case JWRN_BOGUS_ICC:
		if (!c->err->num_warnings++)
			e->first_benign = 1;
		return;
	default:
		break;
	}
	c->err->num_warnings++;
	if (!e->data_warning) {
		e->data_warning = 1;
		(*c->err->format_message)(c, e->msg);
	}
}

/* The scan bound of TJFLAG_LIMITSCANS, for the YUV path. */
static void scan_limit(j_common_ptr c)
{
	j_decompress_ptr d = (j_decompress_ptr)c;
	struct v4lc_jpeg_err *e = (struct v4lc_jpeg_err *)c->err;

	if (d->input_scan_number > V4LC_JPEG_MAX_SCANS) {
		snprintf(e->msg, sizeof(e->msg),
			 "progressive JPEG has more than %d scans",
			 V4LC_JPEG_MAX_SCANS);
		longjmp(e->env, 1);
	}
}

static void d_close(struct v4lc_jpeg_dec *j)
{
	if (j->live)
		jpeg_destroy_decompress(&j->d);
	j->live = 0;
}

void v4lc_jpeg_dec_release(struct v4lc_jpeg_dec *dec)
{
	d_close(dec);
	free(dec->scratch);
	dec->scratch = NULL;
	dec->scratch_size = 0;
}

static int d_open(struct v4lc_jpeg_dec *j)
{
	memset(&j->d, 0, sizeof(j->d));
	j->d.err = jpeg_std_error(&j->jerr.pub);
	j->jerr.pub.error_exit = jerr_exit;
	j->jerr.pub.emit_message = jerr_emit;
	if (setjmp(j->jerr.env)) { /* out of memory */
		jpeg_destroy_decompress(&j->d);
		return -1;
	}
	jpeg_create_decompress(&j->d);
	j->progress.progress_monitor = scan_limit;
	j->d.progress = &j->progress;
	j->live = 1;
	j->tables_dirty = 0;
	return 0;
}

/*
 * Can the YUV path take this frame? Its size must be w x h, its colour
 * grey or YCbCr with chroma sampled by 1, 2 or 4 across and 1 or 2 down
 * (not both 4 and 2), which g records. 0 or a negative errno.
 */
static int yuv_check(const struct jpeg_decompress_struct *d, int w, int h,
		     struct chroma_geom *g, char *err, size_t err_len)
{
	const jpeg_component_info *c = d->comp_info;
	int hm = d->max_h_samp_factor, vm = d->max_v_samp_factor;

	if ((int)d->image_width != w || (int)d->image_height != h)
		return fail(err, err_len, -EIO,
			    "JPEG size %ux%u does not match the format %dx%d",
			    (unsigned)d->image_width, (unsigned)d->image_height,
			    w, h);
	if (!(d->num_components == 1 ||
	      (d->num_components == 3 && d->jpeg_color_space == JCS_YCbCr)))
		return fail(err, err_len, -EINVAL,
			    "JPEG colour space %d (%d components) cannot be "
			    "decoded to YUV",
			    (int)d->jpeg_color_space, d->num_components);
	if (d->num_components == 1)
		return 0;
	g->rh = g->rv = 0;
	if (c[0].h_samp_factor == hm && c[0].v_samp_factor == vm &&
	    c[1].h_samp_factor == c[2].h_samp_factor &&
	    c[1].v_samp_factor == c[2].v_samp_factor &&
	    !(hm % c[1].h_samp_factor) && !(vm % c[1].v_samp_factor)) {
		g->rh = hm / c[1].h_samp_factor;
		g->rv = vm / c[1].v_samp_factor;
	}
	if (!(g->rh == 1 || g->rh == 2 || g->rh == 4) ||
	    !(g->rv == 1 || g->rv == 2) || (g->rh == 4 && g->rv == 2))
		return fail(err, err_len, -EINVAL,
			    "unsupported JPEG chroma sampling (%dx%d, %dx%d, "
			    "%dx%d)",
			    c[0].h_samp_factor, c[0].v_samp_factor,
			    c[1].h_samp_factor, c[1].v_samp_factor,
			    c[2].h_samp_factor, c[2].v_samp_factor);
	return 0;
}

/* One iMCU row of raw samples, as jpeg_read_raw_data() fills it. */
struct band {
	int lines;       /* luma rows of an iMCU row */
	int ydirect;     /* luma rows go straight into dst */
	int cl;          /* chroma rows of an iMCU row */
	size_t yw8, cw8; /* the luma's and the chroma's padded block widths */
	uint8_t *cbuf[2];
	uint8_t *dump; /* luma rows below the picture */
	JSAMPROW rows[3][MAX_SAMP_FACTOR * DCTSIZE];
};

/*
 * The band buffer, after jpeg_start_decompress(): luma straight into dst
 * when its rows are whole blocks wide, else through the buffer; chroma
 * always through it. 0 or a negative errno.
 */
static int band_init(struct v4lc_jpeg_dec *j, int w, struct chroma_geom *g,
		     struct band *bd, char *err, size_t err_len)
{
	const struct jpeg_decompress_struct *d = &j->d;
	int ncomp = d->num_components;
	size_t need;
	uint8_t *ybuf;

	bd->lines = d->max_v_samp_factor * DCTSIZE;
	bd->yw8 = (size_t)d->comp_info[0].width_in_blocks * DCTSIZE;
	bd->ydirect = bd->yw8 == (size_t)w;
	need = (bd->ydirect ? 0 : (size_t)bd->lines * bd->yw8) + bd->yw8;
	if (ncomp == 3) {
		bd->cl = d->comp_info[1].v_samp_factor * DCTSIZE;
		bd->cw8 = (size_t)d->comp_info[1].width_in_blocks * DCTSIZE;
		if ((size_t)d->comp_info[2].width_in_blocks * DCTSIZE !=
		    bd->cw8)
			return fail(err, err_len, -EINVAL,
				    "bad JPEG chroma geometry");
		need += 2 * (size_t)bd->cl * bd->cw8;
		g->sw = (int)d->comp_info[1].downsampled_width;
		g->avg = v4lc_dsp_get()->yuvlayout.avg;
	}
	if (scratch_reserve(j, need))
		return fail(err, err_len, -ENOMEM,
			    "out of memory for the JPEG band buffer");
	bd->dump = j->scratch;
	ybuf = bd->dump + bd->yw8;
	if (ncomp == 3) {
		bd->cbuf[0] =
			ybuf + (bd->ydirect ? 0 : (size_t)bd->lines * bd->yw8);
		bd->cbuf[1] = bd->cbuf[0] + (size_t)bd->cl * bd->cw8;
		for (int i = 0; i < bd->cl; i++) {
			bd->rows[1][i] = bd->cbuf[0] + (size_t)i * bd->cw8;
			bd->rows[2][i] = bd->cbuf[1] + (size_t)i * bd->cw8;
		}
	}
	if (!bd->ydirect)
		for (int i = 0; i < bd->lines; i++)
			bd->rows[0][i] = ybuf + (size_t)i * bd->yw8;
	return 0;
}

/*
 * Luma rows y_first .. y_end - 1 (whole iMCU rows from y_first) into
 * dplane[0], their chroma resampled into dplane[1] and [2]. 0 or -EAGAIN.
 */
static int read_bands(struct jpeg_decompress_struct *d, struct band *bd,
		      const struct chroma_geom *g, uint8_t *const dplane[3],
		      int w, int h, int y_first, int y_end, char *err,
		      size_t err_len)
{
	JSAMPARRAY planes[3] = { bd->rows[0], bd->rows[1], bd->rows[2] };
	int lines = bd->lines, cw = (w + 1) / 2;

	for (int y0 = y_first; y0 < y_end; y0 += lines) {
		int yrows = h - y0 < lines ? h - y0 : lines;

		if (bd->ydirect)
			for (int i = 0; i < lines; i++)
				bd->rows[0][i] =
					i < yrows ? dplane[0] +
							    (size_t)(y0 + i) * w
						  : bd->dump;
		if (jpeg_read_raw_data(d, planes, (JDIMENSION)lines) !=
		    (JDIMENSION)lines)
			return fail(err, err_len, -EAGAIN,
				    "JPEG decoder stopped at row %d", y0);
		if (!bd->ydirect)
			for (int i = 0; i < yrows; i++)
				memcpy(dplane[0] + (size_t)(y0 + i) * w,
				       bd->rows[0][i], (size_t)w);
		if (d->num_components == 3) {
			/* Native chroma rows of this band that are in the
			 * picture, and the first 4:2:0 row they make. */
			int valid = g->rv == 2 ? (yrows + 1) / 2 : yrows;

			for (int c = 0; c < 2; c++)
				chroma_band(g, bd->cbuf[c], bd->cw8,
					    dplane[1 + c] +
						    (size_t)(y0 / 2) * cw,
					    valid);
		}
	}
	return 0;
}

/*
 * Everything between jpeg_read_header() and jpeg_finish_decompress(); a
 * fatal libjpeg error longjmps out of it to v4lc_jpeg_yuv(). Returns 0
 * after a finished decode, or a negative errno after aborting the
 * decompressor. split, stop_row: as v4lc_jpeg_yuv(); *top: the rows handed
 * to the worker (0: none).
 */
static int yuv_body(struct v4lc_jpeg_dec *j, const uint8_t *src,
		    size_t src_size, int dht, int yvu, uint8_t *dst, int w,
		    int h, struct v4lc_jpeg_split **split, int stop_row,
		    int *top, char *err, size_t err_len)
{
	struct jpeg_decompress_struct *d = &j->d;
	int cw = (w + 1) / 2, ch = (h + 1) / 2, r, y_first = 0;
	int y_end = stop_row > 0 ? stop_row : h;
	struct chroma_geom g = { 0, 0, 0, cw, NULL };
	uint8_t *dplane[3];
	struct band bd;

	jpeg_mem_src(d, (const unsigned char *)src, (unsigned long)src_size);
	jpeg_read_header(d, TRUE); /* no image: a fatal error */
	r = yuv_check(d, w, h, &g, err, err_len);
	if (r)
		goto abort;

	/* A large frame: the worker takes its top rows. */
	if (split) {
		y_first = v4lc_jpeg_split_plan(split, d, 0);
		if (y_first > 0) {
			v4lc_jpeg_split_begin(*split, src, src_size, dht,
					      yvu ? V4LC_JPEG_YVU
						  : V4LC_JPEG_YUV,
					      dst, w, h, y_first);
			*top = y_first;
		}
	}

	d->raw_data_out = TRUE;
	d->do_fancy_upsampling = FALSE;
	d->dct_method = JDCT_ISLOW;
	jpeg_start_decompress(d);
	r = band_init(j, w, &g, &bd, err, err_len);
	if (r)
		goto abort;

	/* Y, then U and V (V and U for YVU420) */
	dplane[0] = dst;
	dplane[1] = dst + (size_t)w * h + (yvu ? (size_t)cw * ch : 0);
	dplane[2] = dst + (size_t)w * h + (yvu ? 0 : (size_t)cw * ch);
	if (y_first > 0)
		v4lc_jpeg_skip_imcu_rows(d, y_first / bd.lines);
	r = read_bands(d, &bd, &g, dplane, w, h, y_first, y_end, err, err_len);
	if (r)
		goto abort;
	if (y_end < h) { /* the worker's part is done */
		jpeg_abort_decompress(d);
		return 0;
	}
	jpeg_finish_decompress(d);
	if (d->num_components == 1) {
		memset(dplane[1], 128, (size_t)cw * ch);
		memset(dplane[2], 128, (size_t)cw * ch);
	}
	return 0;

abort:
	jpeg_abort_decompress(d);
	return r;
}

/*
 * The whole frame's result from this thread's and the worker's (rw, its
 * message in werr). This thread decoded every row's entropy data and
 * finished the frame, so its result is the frame's; the worker can only
 * fail where this thread failed too, except when it runs out of memory.
 */
static int merge_results(int r, int rw, const char *werr, char *err,
			 size_t err_len)
{
	if ((r == 0 || r == -EPIPE) && rw && rw != -EPIPE)
		return fail(err, err_len, rw, "%s", werr);
	return r;
}

int v4lc_jpeg_yuv(struct v4lc_jpeg_dec *j, const uint8_t *src, size_t src_size,
		  int dht, int yvu, uint8_t *dst, int w, int h,
		  struct v4lc_jpeg_split **split, int stop_row, char *err,
		  size_t err_len)
{
	int r, rw;
	/* set inside yuv_body(), read after a longjmp out of it */
	volatile int top = 0;
	int64_t t0, w0;
	char werr[JMSG_LENGTH_MAX + 64];

	if (!dht && j->tables_dirty)
		d_close(j);
	if (!j->live && d_open(j))
		return fail(err, err_len, -ENOMEM,
			    "cannot create a JPEG decompressor");
	/* Its Huffman table slots may hold this frame's tables from now. */
	j->tables_dirty |= dht;
	j->jerr.data_warning = 0;
	j->jerr.first_benign = 0;
	j->jerr.pub.num_warnings = 0;
	t0 = split ? v4lc_jpeg_thread_ns() : 0;
	w0 = split ? v4lc_jpeg_wall_ns() : 0;
	if (setjmp(j->jerr.env)) {
		/*
		 * A fatal error: a corrupt frame. A fresh decompressor for the
		 * next frame, so that nothing this one loaded before failing
		 * (tables) outlives it.
		 */
		r = fail(err, err_len, -EAGAIN, "error decompressing JPEG: %s",
			 j->jerr.msg);
		d_close(j);
		if (top) /* the worker still writes into dst */
			v4lc_jpeg_split_end(*split, 0, 0, NULL, 0);
		return r;
	}
	r = yuv_body(j, src, src_size, dht, yvu, dst, w, h, split, stop_row,
		     (int *)&top, err, err_len);
	if (!r && j->jerr.data_warning)
		r = fail(err, err_len, -EPIPE,
			 "JPEG frame decoded with errors: %s", j->jerr.msg);
	if (top) {
		rw = v4lc_jpeg_split_end(*split,
					 r ? 0 : v4lc_jpeg_thread_ns() - t0,
					 r ? 0 : w0, werr, sizeof(werr));
		r = merge_results(r, rw, werr, err, err_len);
	}
	return r;
}

/*
 * The RGB path's split (large frames): the libjpeg API with TurboJPEG's
 * settings (RGB/BGR output, accurate integer IDCT, fancy upsampling), so
 * the output is tjDecompress2()'s byte for byte. The worker reads the top
 * rows; this thread skips them (jpeg_skip_scanlines: entropy decoding
 * only, for whole iMCU rows) and reads the rest. Warnings map to return
 * codes as decode_error() maps TurboJPEG's (it keeps the first warning: a
 * benign first warning means 0). Returns 1 when the frame is not one to
 * split (its header does not parse, another colour space, progressive,
 * ...; nothing written): the caller decodes it with TurboJPEG then.
 */
static int rgb_body(struct v4lc_jpeg_dec *j, const uint8_t *src,
		    size_t src_size, int dht, int kind, uint8_t *dst, int w,
		    int h, struct v4lc_jpeg_split **split, int stop_row,
		    int *top)
{
	struct jpeg_decompress_struct *d = &j->d;
	int y_first = 0, y_end = stop_row > 0 ? stop_row : h;
	size_t stride = 3 * (size_t)w;

	jpeg_mem_src(d, (const unsigned char *)src, (unsigned long)src_size);
	jpeg_read_header(d, TRUE);
	if ((int)d->image_width != w || (int)d->image_height != h ||
	    !((d->num_components == 3 && d->jpeg_color_space == JCS_YCbCr) ||
	      (d->num_components == 1 &&
	       d->jpeg_color_space == JCS_GRAYSCALE))) {
		jpeg_abort_decompress(d);
		return 1;
	}
	if (split) {
		y_first = v4lc_jpeg_split_plan(split, d, 1);
		if (y_first <= 0) {
			jpeg_abort_decompress(d);
			return 1;
		}
		v4lc_jpeg_split_begin(*split, src, src_size, dht, kind, dst, w,
				      h, y_first);
		*top = y_first;
	}
	d->out_color_space = kind == V4LC_JPEG_BGR ? JCS_EXT_BGR : JCS_EXT_RGB;
	d->raw_data_out = FALSE;
	d->do_fancy_upsampling = TRUE;
	d->dct_method = JDCT_ISLOW;
	jpeg_start_decompress(d);
	if (y_first > 0)
		jpeg_skip_scanlines(d, (JDIMENSION)y_first);
	while ((int)d->output_scanline < y_end) {
		JSAMPROW rows[4];
		int n = y_end - (int)d->output_scanline;

		n = n < 4 ? n : 4;
		for (int i = 0; i < n; i++)
			rows[i] =
				dst + (d->output_scanline + (size_t)i) * stride;
		if (!jpeg_read_scanlines(d, rows, (JDIMENSION)n))
			break; /* cannot happen with a memory source */
	}
	if (y_end < h) { /* the worker's part is done */
		jpeg_abort_decompress(d);
		return 0;
	}
	jpeg_finish_decompress(d);
	return 0;
}

int v4lc_jpeg_rgb(struct v4lc_jpeg_dec *j, const uint8_t *src, size_t src_size,
		  int dht, int kind, uint8_t *dst, int w, int h,
		  struct v4lc_jpeg_split **split, int stop_row, char *err,
		  size_t err_len)
{
	int r, rw;
	volatile int top = 0; /* read after a longjmp */
	int64_t t0, w0;
	char werr[JMSG_LENGTH_MAX + 64];

	if (!dht && j->tables_dirty)
		d_close(j);
	if (!j->live && d_open(j))
		return split ? 1
			     : fail(err, err_len, -ENOMEM,
				    "cannot create a JPEG decompressor");
	j->tables_dirty |= dht;
	j->jerr.data_warning = 0;
	j->jerr.first_benign = 0;
	j->jerr.pub.num_warnings = 0;
	t0 = split ? v4lc_jpeg_thread_ns() : 0;
	w0 = split ? v4lc_jpeg_wall_ns() : 0;
	if (setjmp(j->jerr.env)) {
		d_close(j);
		if (!top && split)
			return 1; /* not begun: TurboJPEG reports it */
		r = fail(err, err_len, -EAGAIN, "error decompressing JPEG: %s",
			 j->jerr.msg);
		if (top)
			v4lc_jpeg_split_end(*split, 0, 0, NULL, 0);
		return r;
	}
	r = rgb_body(j, src, src_size, dht, kind, dst, w, h, split, stop_row,
		     (int *)&top);
	if (r == 0 && j->jerr.data_warning && !j->jerr.first_benign)
		r = fail(err, err_len, -EPIPE,
			 "JPEG frame decoded with errors: %s", j->jerr.msg);
	if (top) {
		rw = v4lc_jpeg_split_end(*split,
					 r ? 0 : v4lc_jpeg_thread_ns() - t0,
					 r ? 0 : w0, werr, sizeof(werr));
		r = merge_results(r, rw, werr, err, err_len);
	}
	return r;
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
	return yuv;
}

/*
 * The TurboJPEG handle ready for this frame, its header read: 0 when the
 * JPEG, scaled by 1/denom (rounded up), is width x height, else a negative
 * errno. *subsamp gets TurboJPEG's subsampling (-1: none it can name).
 */
static int tj_header(struct v4lc_jpeg *j, const uint8_t *src, size_t src_size,
		     int dht, int width, int height, int denom, int *subsamp,
		     char *err, size_t err_len)
{
	int jw = 0, jh = 0, colorspace = -1, r;

	*subsamp = -1;
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
				subsamp, &colorspace) &&
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
	if ((jw + denom - 1) / denom != width ||
	    (jh + denom - 1) / denom != height)
		return fail(err, err_len, -EIO,
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
static int tj_rgb(struct v4lc_jpeg *j, const uint8_t *src, size_t src_size,
		  int dht, uint32_t dst_fourcc, uint8_t *dst, int width,
		  int height, int denom, char *err, size_t err_len)
{
	int subsamp, r;

	r = tj_header(j, src, src_size, dht, width, height, denom, &subsamp,
		      err, err_len);
	if (r)
		return r;
	r = tjDecompress2(j->tj, src, (unsigned long)src_size, dst, width,
			  3 * width, height,
			  dst_fourcc == V4L2_PIX_FMT_RGB24 ? TJPF_RGB
							   : TJPF_BGR,
			  V4LC_JPEG_TJFLAGS);
	return r ? decode_error(j, err, err_len) : 0;
}

/* Luma columns and rows per native chroma sample of a TurboJPEG
 * subsampling; 0 when the YUV path cannot take it. */
static int tj_geom(int subsamp, struct chroma_geom *g)
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
static int tj_yuv(struct v4lc_jpeg *j, const uint8_t *src, size_t src_size,
		  int dht, int yvu, uint8_t *dst, int w, int h, int denom,
		  char *err, size_t err_len)
{
	int cw = (w + 1) / 2, ch = (h + 1) / 2, subsamp, r, grey;
	struct chroma_geom g = { 0, 0, 0, cw, NULL };
	unsigned char *pl[3];
	int pw[3] = { 0 }, ph[3] = { 0 }, ydirect;
	size_t need = 0;
	uint8_t *dplane[3];

	r = tj_header(j, src, src_size, dht, w, h, denom, &subsamp, err,
		      err_len);
	if (r)
		return r;
	grey = subsamp == TJSAMP_GRAY;
	if (!grey && !tj_geom(subsamp, &g))
		return fail(err, err_len, -EINVAL,
			    "JPEG subsampling %d cannot be decoded to YUV",
			    subsamp);
	for (int i = 0; i < (grey ? 1 : 3); i++) {
		pw[i] = tjPlaneWidth(i, w, subsamp);
		ph[i] = tjPlaneHeight(i, h, subsamp);
		if (pw[i] <= 0 || ph[i] <= 0)
			return fail(err, err_len, -EINVAL,
				    "bad JPEG plane geometry");
	}
	ydirect = pw[0] == w && ph[0] == h;
	need = (ydirect ? 0 : (size_t)pw[0] * ph[0]) + (size_t)pw[1] * ph[1] +
	       (size_t)pw[2] * ph[2];
	if (need && scratch_reserve(&j->dec, need))
		return fail(err, err_len, -ENOMEM,
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
		r = decode_error(j, err, err_len);
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
		chroma_band(&g, pl[c], (size_t)pw[c], dplane[c],
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

int v4lc_jpeg_decode_scaled(struct v4lc_jpeg *j, const uint8_t *src,
			    size_t src_size, uint32_t dst_fourcc, uint8_t *dst,
			    size_t dst_size, int width, int height, int denom,
			    char *err, size_t err_len)
{
	int yuv, r, dht;

	if (!j)
		return fail(err, err_len, -EINVAL, "no JPEG decoder");
	if (denom != 1 && denom != 2 && denom != 4 && denom != 8)
		return fail(err, err_len, -EINVAL, "bad JPEG scale 1/%d",
			    denom);
	if (denom > 1 && width < V4LC_JPEG_MIN_SCALED_W)
		return fail(err, err_len, -EINVAL,
			    "frame %dx%d too narrow for a scaled decode", width,
			    height);
	yuv = check_dst(dst_fourcc, dst, dst_size, width, height, err, err_len);
	if (yuv < 0)
		return yuv;
	/* An empty frame, or one whose length TurboJPEG's unsigned long
	 * cannot hold (32-bit systems). */
	if (!src || src_size < 2 || src_size > ULONG_MAX)
		return fail(err, err_len, -EAGAIN,
			    "JPEG frame too short (%zu bytes)", src_size);

	dht = scan_has_dht(src, src_size);
	if (dht < 0)
		return fail(err, err_len, -EAGAIN,
			    "not a JPEG frame (no SOI marker)");
	if (yuv && denom > 1)
		return tj_yuv(j, src, src_size, dht,
			      dst_fourcc == V4L2_PIX_FMT_YVU420, dst, width,
			      height, denom, err, err_len);
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
	return tj_rgb(j, src, src_size, dht, dst_fourcc, dst, width, height,
		      denom, err, err_len);
}

int v4lc_jpeg_decode(struct v4lc_jpeg *j, const uint8_t *src, size_t src_size,
		     uint32_t dst_fourcc, uint8_t *dst, size_t dst_size,
		     int width, int height, char *err, size_t err_len)
{
	return v4lc_jpeg_decode_scaled(j, src, src_size, dst_fourcc, dst,
				       dst_size, width, height, 1, err,
				       err_len);
}
