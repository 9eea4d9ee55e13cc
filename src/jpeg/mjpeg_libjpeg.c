/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The MJPEG decoder's libjpeg API path (the same libjpeg-turbo).
 *
 * YUV420/YVU420 goes through it (one decompress struct kept across frames),
 * as TurboJPEG's own YUV decoder does: raw (not upsampled, not
 * colour-converted) output, accurate integer IDCT, so the native planes are
 * the ones tjDecompressToYUVPlanes() gives. The frame is read one iMCU row
 * (8 or 16 luma rows) at a time: luma straight into dst when its rows are
 * whole blocks wide, chroma into a small band buffer that stays in the
 * cache and is averaged (or cropped) down to 4:2:0 right away. libjpeg's
 * Huffman tables persist across images in that struct too, so it gets the
 * same DHT treatment as the TurboJPEG handle (mjpeg.c).
 *
 * RGB24/BGR24 frames split with the worker thread (mjpeg_split.c) go
 * through it too, with tjDecompress2()'s settings.
 */
#include "jpeg/mjpeg_priv.h"

#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jerror.h>
#include <jpeglib.h>

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
		     struct v4lc_chroma_geom *g, char *err, size_t err_len)
{
	const jpeg_component_info *c = d->comp_info;
	int hm = d->max_h_samp_factor, vm = d->max_v_samp_factor;

	if ((int)d->image_width != w || (int)d->image_height != h)
		return v4lc_jpeg_fail(
			err, err_len, -EIO,
			"JPEG size %ux%u does not match the format %dx%d",
			(unsigned)d->image_width, (unsigned)d->image_height, w,
			h);
	if (!(d->num_components == 1 ||
	      (d->num_components == 3 && d->jpeg_color_space == JCS_YCbCr)))
		return v4lc_jpeg_fail(
			err, err_len, -EINVAL,
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
		return v4lc_jpeg_fail(
			err, err_len, -EINVAL,
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
static int band_init(struct v4lc_jpeg_dec *j, int w, struct v4lc_chroma_geom *g,
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
			return v4lc_jpeg_fail(err, err_len, -EINVAL,
					      "bad JPEG chroma geometry");
		need += 2 * (size_t)bd->cl * bd->cw8;
		g->sw = (int)d->comp_info[1].downsampled_width;
		g->avg = v4lc_dsp_get()->yuvlayout.avg;
	}
	if (v4lc_jpeg_scratch_reserve(j, need))
		return v4lc_jpeg_fail(err, err_len, -ENOMEM,
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
		      const struct v4lc_chroma_geom *g,
		      uint8_t *const dplane[3], int w, int h, int y_first,
		      int y_end, char *err, size_t err_len)
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
			return v4lc_jpeg_fail(err, err_len, -EAGAIN,
					      "JPEG decoder stopped at row %d",
					      y0);
		if (!bd->ydirect)
			for (int i = 0; i < yrows; i++)
				memcpy(dplane[0] + (size_t)(y0 + i) * w,
				       bd->rows[0][i], (size_t)w);
		if (d->num_components == 3) {
			/* Native chroma rows of this band that are in the
			 * picture, and the first 4:2:0 row they make. */
			int valid = g->rv == 2 ? (yrows + 1) / 2 : yrows;

			for (int c = 0; c < 2; c++)
				v4lc_jpeg_chroma_band(g, bd->cbuf[c], bd->cw8,
						      dplane[1 + c] +
							      (size_t)(y0 / 2) *
								      cw,
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
	struct v4lc_chroma_geom g = { 0, 0, 0, cw, NULL };
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
 * Wait for the worker of s; the whole frame's result from this thread's (r)
 * and the worker's. This thread decoded every row's entropy data and
 * finished the frame, so its result is the frame's; the worker can only
 * fail where this thread failed too, except when it runs out of memory.
 * t0, w0: this thread's CPU and wall-clock time when the frame began.
 */
static int join_worker(struct v4lc_jpeg_split *s, int r, int64_t t0, int64_t w0,
		       char *err, size_t err_len)
{
	char werr[JMSG_LENGTH_MAX + 64];
	int rw = v4lc_jpeg_split_end(s, r ? 0 : v4lc_jpeg_thread_ns() - t0,
				     r ? 0 : w0, werr, sizeof(werr));

	if ((r == 0 || r == -EPIPE) && rw && rw != -EPIPE)
		return v4lc_jpeg_fail(err, err_len, rw, "%s", werr);
	return r;
}

/*
 * The decompressor ready for a frame (a fresh one when the frame has no
 * tables of its own but the last ones did: see mjpeg.c), its warnings
 * cleared. -1 when it cannot be created.
 */
static int dec_begin(struct v4lc_jpeg_dec *j, int dht)
{
	if (!dht && j->tables_dirty)
		d_close(j);
	if (!j->live && d_open(j))
		return -1;
	/* Its Huffman table slots may hold this frame's tables from now. */
	j->tables_dirty |= dht;
	j->jerr.data_warning = 0;
	j->jerr.first_benign = 0;
	j->jerr.pub.num_warnings = 0;
	return 0;
}

/*
 * A fatal error (longjmp from libjpeg): a corrupt frame. A fresh
 * decompressor for the next frame, so that nothing this one loaded before
 * failing (tables) outlives it; a worker that began (top) still writes
 * into dst and is waited for.
 */
static int fatal(struct v4lc_jpeg_dec *j, struct v4lc_jpeg_split **split,
		 int top, char *err, size_t err_len)
{
	int r = v4lc_jpeg_fail(err, err_len, -EAGAIN,
			       "error decompressing JPEG: %s", j->jerr.msg);

	d_close(j);
	if (top)
		v4lc_jpeg_split_end(*split, 0, 0, NULL, 0);
	return r;
}

int v4lc_jpeg_yuv(struct v4lc_jpeg_dec *j, const uint8_t *src, size_t src_size,
		  int dht, int yvu, uint8_t *dst, int w, int h,
		  struct v4lc_jpeg_split **split, int stop_row, char *err,
		  size_t err_len)
{
	int r;
	/* set inside yuv_body(), read after a longjmp out of it */
	volatile int top = 0;
	int64_t t0, w0;

	if (dec_begin(j, dht))
		return v4lc_jpeg_fail(err, err_len, -ENOMEM,
				      "cannot create a JPEG decompressor");
	t0 = split ? v4lc_jpeg_thread_ns() : 0;
	w0 = split ? v4lc_jpeg_wall_ns() : 0;
	if (setjmp(j->jerr.env))
		return fatal(j, split, top, err, err_len);
	r = yuv_body(j, src, src_size, dht, yvu, dst, w, h, split, stop_row,
		     (int *)&top, err, err_len);
	if (!r && j->jerr.data_warning)
		r = v4lc_jpeg_fail(err, err_len, -EPIPE,
				   "JPEG frame decoded with errors: %s",
				   j->jerr.msg);
	if (top)
		r = join_worker(*split, r, t0, w0, err, err_len);
	return r;
}

/*
 * The RGB path's split (large frames): the libjpeg API with TurboJPEG's
 * settings (RGB/BGR output, accurate integer IDCT, fancy upsampling), so
 * the output is tjDecompress2()'s byte for byte. The worker reads the top
 * rows; this thread skips them (jpeg_skip_scanlines: entropy decoding
 * only, for whole iMCU rows) and reads the rest. Warnings map to return
 * codes as v4lc_jpeg_tj_error() maps TurboJPEG's (it keeps the first
 * warning: a benign first warning means 0). Returns 1 when the frame is not
 * one to split (its header does not parse, another colour space,
 * progressive, ...; nothing written): the caller decodes it with TurboJPEG
 * then.
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
	int r;
	volatile int top = 0; /* read after a longjmp */
	int64_t t0, w0;

	if (dec_begin(j, dht))
		return split ? 1
			     : v4lc_jpeg_fail(
				       err, err_len, -ENOMEM,
				       "cannot create a JPEG decompressor");
	t0 = split ? v4lc_jpeg_thread_ns() : 0;
	w0 = split ? v4lc_jpeg_wall_ns() : 0;
	if (setjmp(j->jerr.env)) {
		if (!top && split) {
			d_close(j);
			return 1; /* not begun: TurboJPEG reports it */
		}
		return fatal(j, split, top, err, err_len);
	}
	r = rgb_body(j, src, src_size, dht, kind, dst, w, h, split, stop_row,
		     (int *)&top);
	if (r == 0 && j->jerr.data_warning && !j->jerr.first_benign)
		r = v4lc_jpeg_fail(err, err_len, -EPIPE,
				   "JPEG frame decoded with errors: %s",
				   j->jerr.msg);
	if (top)
		r = join_worker(*split, r, t0, w0, err, err_len);
	return r;
}
