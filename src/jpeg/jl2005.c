/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * JL2005B/C/D decoder (see jl2005.h): each strip is wrapped into a small
 * baseline JPEG (8 x height samples of green, sampled 1x2, with red and
 * blue 1x1, all on table 0) and decoded by libjpeg into raw planes, which
 * are then scattered into the RGGB mosaic.
 */
#include "jpeg/jl2005.h"
#include "jpeg/fail.h"

#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

/* JPEG Annex K.1 luminance quantization table, natural order. */
static const uint8_t annex_k_luma[64] = {
	16, 11, 10, 16, 24,  40,  51,  61,  12, 12, 14, 19, 26,  58,  60,  55,
	14, 13, 16, 24, 40,  57,  69,  56,  14, 17, 22, 29, 51,  87,  80,  62,
	18, 22, 37, 56, 68,  109, 103, 77,  24, 35, 55, 64, 81,  104, 113, 92,
	49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
};

static const uint8_t zigzag[64] = {
	0,  1,  8,  16, 9,  2,  3,  10, 17, 24, 32, 25, 18, 11, 4,  5,
	12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6,  7,  14, 21, 28,
	35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51,
	58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
};

#define HDR_LEN (2 + 69 + 19 + 14)

struct jl_err {
	struct jpeg_error_mgr pub;
	jmp_buf env;
	char msg[JMSG_LENGTH_MAX];
};

static void jl_exit(j_common_ptr c)
{
	struct jl_err *e = (struct jl_err *)c->err;

	(*c->err->format_message)(c, e->msg);
	longjmp(e->env, 1);
}

static void jl_emit(j_common_ptr c, int level)
{
	(void)c;
	(void)level; /* warnings and traces are not reported */
}

/* The JPEG header of one strip (h rows of green samples). */
static void strip_header(uint8_t *p, int quality, int h)
{
	static const uint8_t sof_tail[] = {
		0x00, 0x08, 0x03, 0x01, 0x12, 0x00,
		0x02, 0x11, 0x00, 0x03, 0x11, 0x00
	};
	static const uint8_t sos[] = {
		0xff, 0xda, 0x00, 0x0c, 0x03, 0x01, 0x00,
		0x02, 0x00, 0x03, 0x00, 0x00, 0x3f, 0x00
	};
	int scale;

	/* libjpeg's quality scaling. */
	if (quality <= 0)
		quality = 1;
	if (quality > 100)
		quality = 100;
	scale = quality < 50 ? 5000 / quality : 200 - 2 * quality;
	*p++ = 0xff;
	*p++ = 0xd8;
	*p++ = 0xff;
	*p++ = 0xdb;
	*p++ = 0x00;
	*p++ = 0x43;
	*p++ = 0x00;
	for (int k = 0; k < 64; k++) {
		long v = ((long)annex_k_luma[zigzag[k]] * scale + 50) / 100;

		*p++ = (uint8_t)(v < 1 ? 1 : v > 255 ? 255 : v);
	}
	*p++ = 0xff;
	*p++ = 0xc0;
	*p++ = 0x00;
	*p++ = 0x11;
	*p++ = 0x08;
	*p++ = (uint8_t)(h >> 8);
	*p++ = (uint8_t)h;
	memcpy(p, sof_tail, sizeof(sof_tail));
	p += sizeof(sof_tail);
	memcpy(p, sos, sizeof(sos));
}

struct jl_state {
	struct jpeg_decompress_struct d;
	struct jl_err e;
	int live;
	/* Kept here, not in locals, across the longjmp of a libjpeg error. */
	uint8_t *jpg;
	size_t cap;
	int x0;
};

/* Decode one wrapped strip into bayer columns x0..x0+15. */
static int strip(struct jl_state *s, const uint8_t *jpg, size_t len,
		 uint8_t *bayer, int w, int h, int x0)
{
	JSAMPLE g[16][8], r[8][8], b[8][8];
	JSAMPROW gr[16], rr[8], br[8];
	JSAMPARRAY planes[3] = { gr, rr, br };

	for (int i = 0; i < 16; i++)
		gr[i] = g[i];
	for (int i = 0; i < 8; i++) {
		rr[i] = r[i];
		br[i] = b[i];
	}
	jpeg_mem_src(&s->d, (const unsigned char *)jpg, (unsigned long)len);
	jpeg_read_header(&s->d, TRUE);
	s->d.raw_data_out = TRUE;
	s->d.do_fancy_upsampling = FALSE;
	s->d.dct_method = JDCT_ISLOW;
	jpeg_start_decompress(&s->d);
	for (int y0 = 0; y0 < h; y0 += 16) {
		if (jpeg_read_raw_data(&s->d, planes, 16) != 16)
			return -1;
		for (int i = 0; i < 8; i++) {
			uint8_t *e = bayer + (size_t)(y0 + 2 * i) * w + x0;
			uint8_t *o = e + w;

			for (int k = 0; k < 8; k++) {
				e[2 * k] = r[i][k];
				e[2 * k + 1] = g[2 * i][k];
				o[2 * k] = g[2 * i + 1][k];
				o[2 * k + 1] = b[i][k];
			}
		}
	}
	/* Reads the markers after the data as the original does: a damaged
	 * strip may hold one that libjpeg refuses (a fatal error). */
	jpeg_finish_decompress(&s->d);
	return 0;
}

/* Free the state; returns ret. */
static int jl_done(struct jl_state *s, int ret)
{
	if (s->live)
		jpeg_destroy_decompress(&s->d);
	free(s->jpg);
	free(s);
	return ret;
}

/*
 * The strips of the frame (the data after its 16-byte header), each made
 * a JPEG of its own and decoded into its 16 columns of the mosaic. A fatal
 * libjpeg error longjmps out to v4lc_jl2005_decode(). 0 or a negative
 * errno.
 */
static int jl_strips(struct jl_state *s, const uint8_t *data,
		     const uint8_t *end, int quality, uint8_t *bayer, int w,
		     int h, char *err, size_t err_len)
{
	for (const uint8_t *p = data; s->x0 < w; s->x0 += 16) {
		const uint8_t *q = p;
		size_t len, off;

		/* The strip's end: ff d9 (ff in the data is stuffed). */
		while (q + 1 < end && !(q[0] == 0xff && q[1] == 0xd9))
			q++;
		if (q + 1 >= end)
			return v4lc_jpeg_fail(
				err, err_len, -EAGAIN,
				"incomplete JL2005 frame (strip at x %d)",
				s->x0);
		len = (size_t)(q - p);
		if (HDR_LEN + len + 2 > s->cap) {
			uint8_t *nj;

			s->cap = HDR_LEN + len + 2 + 4096;
			nj = realloc(s->jpg, s->cap);
			if (!nj)
				return v4lc_jpeg_fail(err, err_len, -ENOMEM,
						      "out of memory");
			s->jpg = nj;
		}
		strip_header(s->jpg, quality, h);
		memcpy(s->jpg + HDR_LEN, p, len);
		s->jpg[HDR_LEN + len] = 0xff;
		s->jpg[HDR_LEN + len + 1] = 0xd9;
		if (strip(s, s->jpg, HDR_LEN + len + 2, bayer, w, h, s->x0))
			return v4lc_jpeg_fail(
				err, err_len, -EAGAIN,
				"JL2005 strip at x %d ended early", s->x0);
		/* Next strip: 16-byte aligned from the start of the data. */
		off = (size_t)(q + 2 - data);
		off = (off + 15) & ~(size_t)15;
		p = off < (size_t)(end - data) ? data + off : end;
	}
	return 0;
}

int v4lc_jl2005_decode(const uint8_t *src, size_t n, uint8_t *bayer, int w,
		       int h, char *err, size_t err_len)
{
	struct jl_state *s;

	if (w <= 0 || h <= 0 || w % 16 || h % 16 || w > 2040 || h > 2040)
		return v4lc_jpeg_fail(
			err, err_len, -EINVAL,
			"JL2005 size %dx%d is not a multiple of 16", w, h);
	if (!src || n < 16)
		return v4lc_jpeg_fail(err, err_len, -EAGAIN,
				      "short JL2005 frame");
	if (src[4] * 8 != h || src[5] * 8 != w)
		return v4lc_jpeg_fail(err, err_len, -EAGAIN,
				      "JL2005 frame is %dx%d, not %dx%d",
				      src[5] * 8, src[4] * 8, w, h);

	s = calloc(1, sizeof(*s));
	if (!s)
		return v4lc_jpeg_fail(err, err_len, -ENOMEM, "out of memory");
	s->d.err = jpeg_std_error(&s->e.pub);
	s->e.pub.error_exit = jl_exit;
	s->e.pub.emit_message = jl_emit;
	if (setjmp(s->e.env))
		return jl_done(
			s, v4lc_jpeg_fail(err, err_len, -EAGAIN,
					  "corrupt JL2005 strip at x %d: %s",
					  s->x0, s->e.msg));
	jpeg_create_decompress(&s->d);
	s->live = 1;
	return jl_done(s, jl_strips(s, src + 16, src + n, src[13] & 0x7f, bayer,
				    w, h, err, err_len));
}
