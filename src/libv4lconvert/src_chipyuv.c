/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * YUV 4:2:0 formats of old webcam chips, to RGB24, BGR24, YU12, YV12: six
 * fixed layouts (below) and CPiA1's compressed format (see convert_cpia).
 * For the six layouts, width and height must be even (else -EINVAL);
 * bytesperline is ignored (these drivers report bytesperline = width); a
 * frame holds width * height * 3 / 2 bytes, fewer is a short frame
 * (-EPIPE). Layouts
 * (w = width, c = w / 2; "signed" samples are stored as value - 128, i.e.
 * with the top bit flipped):
 *   S501 (SPCA501), S505 (SPCA505), S508 (SPCA508): signed samples, in
 *     groups of two pixel rows, 3 * w bytes each:
 *       S501: Y row 0 (w), U (c), Y row 1 (w), V (c)
 *       S505: Y row 0 (w), Y row 1 (w), U (c), V (c)
 *       S508: Y row 0 (w), U (c), V (c), Y row 1 (w)
 *   CITV (Xirlink C-It, CIT_YYVYUY): groups of two pixel rows: Y row 0 (w
 *     bytes), then row 1 packed as V Y U Y (2 * w bytes); the chroma
 *     serves both rows.
 *   KONI (Konica): the Y, U and V planes as raster streams cut into pieces
 *     of 256 Y, 64 U and 64 V samples, stored as blocks of 384 bytes
 *     (256 Y, then 64 U, then 64 V); when w * h is not a multiple of 256
 *     the last block holds the n remaining Y samples, then n / 4 U and
 *     n / 4 V.
 *   S920 (SN9C20X_I420): blocks of 16 x 8 pixels, left to right then top
 *     to bottom, 192 bytes each: the left 8 x 8 luma, the right 8 x 8 luma,
 *     then U 8 x 4 and V 8 x 4, each row by row. Width must be a multiple
 *     of 16 and height of 8 (else -EINVAL).
 * YU12/YV12 output copies the samples; RGB output converts them with the
 * colour matrix of the frame's colorimetry, 16 rows at a time through a
 * row buffer.
 *
 * Compared with the original library: for widths that are multiples of 16
 * (all these cameras' modes) the decoded samples are identical. The
 * original checks no frame size for these formats (it reads past a short
 * buffer); it steps its chroma rows by (w + 15) / 16 * 8 bytes, so other
 * widths decode differently there, and for S920 and KONI sizes that are not
 * whole blocks it leaves part of the image unwritten.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "priv.h"

/* Destination planes of a band of rows (u, v in YUV order). */
struct planes {
	uint8_t *y, *u, *v;
	size_t ys, cs;
};

/* dst[i] = src[i] ^ 0x80: signed samples to offset binary. */
static void copy_signed(const uint8_t *src, uint8_t *dst, int n)
{
	int i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t q;

		memcpy(&q, src + i, 8);
		q ^= 0x8080808080808080ull;
		memcpy(dst + i, &q, 8);
	}
	for (; i < n; i++)
		dst[i] = src[i] ^ 0x80;
}

/*
 * Element k of a stream stored in pieces of `piece` elements, piece b at
 * b * period + off (the last, partial piece of a KONI frame at
 * b * period + off_last).
 */
struct stream {
	const uint8_t *base;
	size_t piece, period, off, off_last, full; /* full: whole pieces */
};

static void stream_copy(const struct stream *s, size_t k, uint8_t *dst,
			size_t n)
{
	size_t b = k / s->piece, o = k % s->piece;

	while (n) {
		size_t m = s->piece - o < n ? s->piece - o : n;
		const uint8_t *p = s->base + b * s->period +
				   (b < s->full ? s->off : s->off_last) + o;

		memcpy(dst, p, m);
		dst += m;
		n -= m;
		b++;
		o = 0;
	}
}

/* S501, S505, S508, CITV: groups of two pixel rows, 3 * w bytes each. */
static void decode_groups(const struct v4lc_dsp *dsp, int l, const uint8_t *s,
			  int w, int r0, int r1, const struct planes *p)
{
	size_t W = (size_t)w, c = W / 2;
	/* offsets of Y1, U, V in a group (Y0 at 0) */
	size_t oy1 = l == V4LC_S501 ? W + c : l == V4LC_S505 ? W : 2 * W;
	size_t ou = l == V4LC_S505 ? 2 * W : W;
	size_t ov = l == V4LC_S508 ? W + c : 2 * W + c;

	for (int r = r0; r < r1; r += 2) {
		const uint8_t *g = s + (size_t)(r / 2) * 3 * W;
		uint8_t *y0 = p->y + (size_t)(r - r0) * p->ys;
		uint8_t *y1 = y0 + p->ys;
		uint8_t *u = p->u + (size_t)((r - r0) / 2) * p->cs;
		uint8_t *v = p->v + (size_t)((r - r0) / 2) * p->cs;

		if (l == V4LC_CITV) {
			memcpy(y0, g, W);
			dsp->yuv422.to_yuv420[V4LC_VYUY](g + W, g + W, y1, y1,
							 u, v, w);
			continue;
		}
		copy_signed(g, y0, w);
		copy_signed(g + oy1, y1, w);
		copy_signed(g + ou, u, (int)c);
		copy_signed(g + ov, v, (int)c);
	}
}

/* KONI: the three planes as streams of 384-byte blocks. */
static void decode_koni(const uint8_t *s, int w, int h, int r0, int r1,
			const struct planes *p)
{
	size_t W = (size_t)w, c = W / 2;
	size_t total = W * (size_t)h, full = total / 256;
	size_t rest = total - full * 256;
	struct stream ys = { s, 256, 384, 0, 0, full };
	struct stream us = { s, 64, 384, 256, rest, full };
	struct stream vs = { s, 64, 384, 320, rest + rest / 4, full };

	if (p->ys == W && p->cs == c && r0 == 0 && r1 == h) {
		/* the whole frame into contiguous planes */
		for (size_t b = 0; b < full; b++) {
			memcpy(p->y + 256 * b, s + 384 * b, 256);
			memcpy(p->u + 64 * b, s + 384 * b + 256, 64);
			memcpy(p->v + 64 * b, s + 384 * b + 320, 64);
		}
		memcpy(p->y + 256 * full, s + 384 * full, rest);
		memcpy(p->u + 64 * full, s + 384 * full + rest, rest / 4);
		memcpy(p->v + 64 * full, s + 384 * full + rest + rest / 4,
		       rest / 4);
		return;
	}
	if (p->ys == W && p->cs == c) { /* contiguous planes: one run each */
		size_t n = (size_t)(r1 - r0) * W;

		stream_copy(&ys, (size_t)r0 * W, p->y, n);
		stream_copy(&us, (size_t)r0 / 2 * c, p->u, n / 4);
		stream_copy(&vs, (size_t)r0 / 2 * c, p->v, n / 4);
		return;
	}
	for (int r = r0; r < r1; r++)
		stream_copy(&ys, (size_t)r * W, p->y + (size_t)(r - r0) * p->ys,
			    W);
	for (int r = r0 / 2; r < r1 / 2; r++) {
		stream_copy(&us, (size_t)r * c,
			    p->u + (size_t)(r - r0 / 2) * p->cs, c);
		stream_copy(&vs, (size_t)r * c,
			    p->v + (size_t)(r - r0 / 2) * p->cs, c);
	}
}

/* S920: blocks of 16 x 8 pixels, 192 bytes each. */
static void decode_s920(const uint8_t *s, int w, int r0, int r1,
			const struct planes *p)
{
	size_t bw = (size_t)w / 16;

	for (int r = r0; r < r1; r += 8) {
		const uint8_t *b = s + (size_t)(r / 8) * bw * 192;
		uint8_t *yo = p->y + (size_t)(r - r0) * p->ys;
		uint8_t *uo = p->u + (size_t)((r - r0) / 2) * p->cs;
		uint8_t *vo = p->v + (size_t)((r - r0) / 2) * p->cs;

		for (size_t x = 0; x < bw; x++, b += 192) {
			for (int k = 0; k < 8; k++) {
				uint8_t *d = yo + (size_t)k * p->ys + 16 * x;

				memcpy(d, b + 8 * k, 8);
				memcpy(d + 8, b + 64 + 8 * k, 8);
			}
			for (int k = 0; k < 4; k++) {
				memcpy(uo + (size_t)k * p->cs + 8 * x,
				       b + 128 + 8 * k, 8);
				memcpy(vo + (size_t)k * p->cs + 8 * x,
				       b + 160 + 8 * k, 8);
			}
		}
	}
}

/* Rows r0 .. r1 - 1 (even bounds) of the frame into p (row r0 at p->y). */
static void decode_rows(const struct v4lc_dsp *dsp, int l, const uint8_t *s,
			int w, int h, int r0, int r1, const struct planes *p)
{
	if (l == V4LC_KONI)
		decode_koni(s, w, h, r0, r1, p);
	else if (l == V4LC_S920)
		decode_s920(s, w, r0, r1, p);
	else
		decode_groups(dsp, l, s, w, r0, r1, p);
}

/* Rows per band of the RGB path (a multiple of 8 for S920's blocks). */
#define BAND 16

/* RGB output: bands of rows decoded into row scratch, then converted. */
static int chipyuv_rgb(struct v4lconvert_data *data, int l,
		       const struct v4lc_frame *src, const struct v4lc_dst *d)
{
	int w = src->width, h = src->height;
	size_t W = (size_t)w, c = W / 2;
	uint8_t *buf = v4lc_rows_scratch(data, BAND * W + BAND * c);
	v4lc_planar_rgb_fn *fn = data->dsp->yuv420.planar[d->rgb_order];
	struct v4lc_yuv2rgb k;
	struct planes p;

	if (!buf)
		return -ENOMEM;
	v4lc_yuv2rgb_init(&k, &data->colorimetry);
	p.y = buf;
	p.ys = W;
	p.u = buf + BAND * W;
	p.v = p.u + BAND / 2 * c;
	p.cs = c;
	for (int r0 = 0; r0 < h; r0 += BAND) {
		int r1 = h - r0 < BAND ? h : r0 + BAND;

		decode_rows(data->dsp, l, src->data, w, h, r0, r1, &p);
		for (int r = r0; r < r1; r++) {
			size_t i = (size_t)(r - r0);

			fn(p.y + i * W, p.u + i / 2 * c, p.v + i / 2 * c,
			   d->y + (size_t)r * d->ys, w, &k);
		}
	}
	return 0;
}

int v4lc_conv_chipyuv(struct v4lconvert_data *data, const struct v4lc_format *f,
		      const struct v4lc_frame *src, struct v4lc_frame *dst)
{
	int w = src->width, h = src->height, l = f->order, ret;
	struct v4lc_dst d;
	size_t need;

	if (w <= 0 || h <= 0 || !src->data || dst->width != w ||
	    dst->height != h || !dst->data)
		return -EINVAL;
	if ((w | h) & 1 || (l == V4LC_S920 && (w % 16 || h % 8))) {
		v4lc_error(data, EINVAL, "%.4s: unsupported size %dx%d",
			   (const char *)&src->fourcc, w, h);
		return -EINVAL;
	}
	if (__builtin_mul_overflow((size_t)w, (size_t)h, &need) ||
	    __builtin_mul_overflow(need / 2, 3, &need))
		return -EINVAL;
	if (need > src->size) {
		v4lc_error(data, EPIPE, "short frame: %zu of %zu bytes",
			   src->size, need);
		return -EPIPE;
	}
	ret = v4lc_dst_init(dst, &d);
	if (ret < 0)
		return ret;
	if (d.yuv) {
		struct planes p = { d.y, d.u, d.v, d.ys, d.cs };

		decode_rows(data->dsp, l, src->data, w, h, 0, h, &p);
		return 0;
	}
	return chipyuv_rgb(data, l, src, &d);
}

/*
 * CPIA (CPiA1, Vision's "Colour Processor Interface ASIC"): a 64-byte
 * header, then one line record per pixel row, then an end-of-image mark.
 *   Header: bytes 0, 1 are 0x19 0x68; byte 17 the subsampling (only 0,
 *     4:2:0, is decoded), 18 the YUV order (only 0, YUYV), 24 and 25 the
 *     first and end column in units of 8 pixels, 26 and 27 the first and
 *     end row in units of 4 rows (their differences must give the frame's
 *     width and height), 28 compression (0 none, 1 compressed), 29
 *     decimation (must be 0).
 *   Line record: a 16-bit little-endian length n, then n bytes, the last
 *     of which is 0xFD. Even rows carry Y0 U Y1 V groups (two pixels and
 *     the chroma of their 2x2 block), odd rows Y0 Y1 pairs. Uncompressed,
 *     a row is exactly its groups (2 * w or w bytes) and the 0xFD. In a
 *     compressed frame, where a group or pair starts, an odd byte b means
 *     "skip b >> 1 pixels" (an even count): those pixels (and, on even
 *     rows, their chroma) keep the values of the previous picture. A row
 *     must end exactly at its 0xFD with w pixels.
 *   The frame ends with four 0xFF bytes (the last four bytes of the
 *     buffer); anything between the last line and them is ignored.
 * A frame that breaks any of these rules fails with EAGAIN (as in the
 * original, also when it is short); sizes that are not multiples of 8 x 4
 * or exceed 352 x 288 (CIF) fail with EINVAL. The previous picture is the
 * last frame decoded successfully, kept per instance as YU12 bytes (a
 * size change reinterprets them, as the original does; pixels skipped
 * before any picture was decoded are 0x80).
 */
#define CPIA_HEADER 64
#define CPIA_EOL 0xfd
#define CPIA_MAX_W 352
#define CPIA_MAX_H 288

struct cpia_prev {
	uint32_t tag;  /* V4L2_PIX_FMT_CPIA1 */
	int cur;       /* half of buf holding the previous picture */
	size_t cap;    /* bytes per half */
	uint8_t buf[]; /* two halves of cap bytes */
};

/* The work half, holding a copy of the previous picture of `need` bytes. */
static uint8_t *cpia_begin(struct v4lconvert_data *data, size_t need)
{
	struct cpia_prev *p = data->prev_frame;

	if (p && p->tag != V4L2_PIX_FMT_CPIA1) {
		free(p);
		p = data->prev_frame = NULL;
	}
	if (!p || p->cap < need) {
		struct cpia_prev *n = malloc(sizeof(*n) + 2 * need);

		if (!n)
			return NULL;
		n->tag = V4L2_PIX_FMT_CPIA1;
		n->cur = 0;
		n->cap = need;
		memset(n->buf, 0x80, need);
		if (p)
			memcpy(n->buf, p->buf + (size_t)p->cur * p->cap,
			       p->cap);
		free(p);
		data->prev_frame = p = n;
	}
	memcpy(p->buf + (size_t)!p->cur * p->cap,
	       p->buf + (size_t)p->cur * p->cap, need);
	return p->buf + (size_t)!p->cur * p->cap;
}

/* Decode the lines into YU12 planes pre-filled with the previous picture. */
static const char *cpia_lines(const struct v4lc_dsp *dsp, const uint8_t *s,
			      size_t size, int w, int h, int compressed,
			      uint8_t *py, uint8_t *pu, uint8_t *pv)
{
	size_t pos = CPIA_HEADER, W = (size_t)w;

	for (int y = 0; y < h; y++) {
		uint8_t *yr = py + (size_t)y * W;
		uint8_t *u = pu + (size_t)(y / 2) * (W / 2);
		uint8_t *v = pv + (size_t)(y / 2) * (W / 2);
		const uint8_t *l;
		size_t n, i = 0;
		int x = 0, even = !(y & 1);

		if (size - pos < 2)
			return "frame height mismatch";
		n = (size_t)s[pos] | (size_t)s[pos + 1] << 8;
		pos += 2;
		if (n > size - pos)
			return "short frame";
		l = s + pos;
		pos += n;
		if (!n || l[n - 1] != CPIA_EOL)
			return "line not terminated";
		n--; /* the bytes before the end-of-line mark */
		if (!compressed) {
			if (n != (even ? 2 * W : W))
				return "wrong uncompressed line length";
			if (even)
				dsp->yuv422.to_yuv420[V4LC_YUYV](l, l, yr, yr,
								 u, v, w);
			else
				memcpy(yr, l, W);
			continue;
		}
		while (x < w && i < n) {
			unsigned b = l[i];

			if (b & 1) {
				b >>= 1;
				if (b & 1)
					return "odd number of pixels to skip";
				x += (int)b;
				i++;
			} else if (even) {
				if (n - i < 4)
					break;
				yr[x] = (uint8_t)b;
				u[x / 2] = l[i + 1];
				yr[x + 1] = l[i + 2];
				v[x / 2] = l[i + 3];
				x += 2;
				i += 4;
			} else {
				if (n - i < 2)
					break;
				yr[x] = (uint8_t)b;
				yr[x + 1] = l[i + 1];
				x += 2;
				i += 2;
			}
		}
		if (x != w || i != n)
			return "line length mismatch";
	}
	if (size < CPIA_HEADER + 4 || s[size - 4] != 0xff ||
	    s[size - 3] != 0xff || s[size - 2] != 0xff || s[size - 1] != 0xff)
		return "no end-of-image mark";
	return NULL;
}

/* The decoded picture (YU12 at work, w x h) into the destination. */
static void cpia_output(struct v4lconvert_data *data, const uint8_t *work,
			int w, int h, const struct v4lc_dst *d)
{
	size_t W = (size_t)w, np = W * (size_t)h, c = W / 2;
	const uint8_t *wu = work + np, *wv = wu + np / 4;

	if (!d->yuv) {
		v4lc_planar_rgb_fn *fn = data->dsp->yuv420.planar[d->rgb_order];
		struct v4lc_yuv2rgb k;

		v4lc_yuv2rgb_init(&k, &data->colorimetry);
		for (int y = 0; y < h; y++)
			fn(work + (size_t)y * W, wu + (size_t)(y / 2) * c,
			   wv + (size_t)(y / 2) * c, d->y + (size_t)y * d->ys,
			   w, &k);
		return;
	}
	if (d->ys == W) {
		memcpy(d->y, work, np);
		memcpy(d->u, wu, np / 4);
		memcpy(d->v, wv, np / 4);
		return;
	}
	for (int y = 0; y < h; y++)
		memcpy(d->y + (size_t)y * d->ys, work + (size_t)y * W, W);
	for (int y = 0; y < h / 2; y++) {
		memcpy(d->u + (size_t)y * d->cs, wu + (size_t)y * c, c);
		memcpy(d->v + (size_t)y * d->cs, wv + (size_t)y * c, c);
	}
}

int v4lc_conv_cpia(struct v4lconvert_data *data, const struct v4lc_format *f,
		   const struct v4lc_frame *src, struct v4lc_frame *dst)
{
	const uint8_t *s = src->data;
	int w = src->width, h = src->height, ret;
	size_t np;
	uint8_t *work;
	struct v4lc_dst d;
	const char *err;

	(void)f;
	if (w <= 0 || h <= 0 || !s || dst->width != w || dst->height != h ||
	    !dst->data)
		return -EINVAL;
	if (w % 8 || h % 4 || w > CPIA_MAX_W || h > CPIA_MAX_H) {
		v4lc_error(data, EINVAL, "CPIA: unsupported size %dx%d", w, h);
		return -EINVAL;
	}
	ret = v4lc_dst_init(dst, &d);
	if (ret < 0)
		return ret;
	if (src->size < CPIA_HEADER || s[0] != 0x19 || s[1] != 0x68 ||
	    s[17] != 0 || s[18] != 0 || s[28] > 1 || s[29] != 0 ||
	    ((int)s[25] - (int)s[24]) * 8 != w ||
	    ((int)s[27] - (int)s[26]) * 4 != h) {
		v4lc_error(data, EAGAIN, "CPIA: invalid or unsupported header");
		return -EAGAIN;
	}
	np = (size_t)w * (size_t)h;
	work = cpia_begin(data, np + np / 2);
	if (!work)
		return -ENOMEM;
	err = cpia_lines(data->dsp, s, src->size, w, h, s[28], work, work + np,
			 work + np + np / 4);
	if (err) {
		v4lc_error(data, EAGAIN, "CPIA: %s", err);
		return -EAGAIN;
	}
	((struct cpia_prev *)data->prev_frame)->cur ^= 1;
	cpia_output(data, work, w, h, &d);
	return 0;
}
