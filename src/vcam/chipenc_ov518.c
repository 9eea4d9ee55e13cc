/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The OV518 frame encoder (chipenc_ov51x.h), written from the clean-room
 * specification's frame description: 8x4 blocks entropy-coded with the
 * JPEG example tables (src/jpeg/ov518_tables.h), and an image encoder by
 * a float forward transform matched to the decoder's integer inverse.
 */
#include "vcam/chipenc_ov51x.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "jpeg/ov518_tables.h"

struct co_bits {
	uint8_t *p;
	size_t n, cap;
	uint64_t acc;
	int nacc;
	int oom;
};

static void co_put(struct co_bits *b, uint32_t v, int len)
{
	for (int i = len - 1; i >= 0; i--) {
		b->acc = b->acc << 1 | ((v >> i) & 1);
		if (++b->nacc == 8) {
			if (b->n == b->cap) {
				size_t nc = b->cap ? 2 * b->cap : 4096;
				uint8_t *np = (uint8_t *)realloc(b->p, nc);

				if (!np) {
					b->oom = 1;
					b->nacc = 0;
					continue;
				}
				b->p = np;
				b->cap = nc;
			}
			b->p[b->n++] = (uint8_t)b->acc;
			b->nacc = 0;
		}
	}
}

static void co_byte(struct co_bits *b, uint8_t v)
{
	co_put(b, v, 8);
}

static int co_size(int32_t v)
{
	int s = 0;
	uint32_t a = (uint32_t)(v < 0 ? -v : v);

	while (a) {
		s++;
		a >>= 1;
	}
	return s;
}

static void co_value(struct co_bits *b, int32_t v, int s)
{
	if (s)
		co_put(b, (uint32_t)(v > 0 ? v : v + (1 << s) - 1), s);
}

static void co518_code(struct co_bits *b, const struct ov518_ac_code *t,
		       int run, int size)
{
	for (int i = 0; i < 163; i++)
		if (t[i].run == run && t[i].size == size) {
			co_put(b, t[i].code, t[i].len);
			return;
		}
}

static void co518_put_block(struct co_bits *b, int chroma, const int32_t c[32])
{
	const struct ov518_dc_code *dc = chroma ? ov518_cdc : ov518_ydc;
	const struct ov518_ac_code *ac = chroma ? ov518_cac : ov518_yac;
	int32_t d = c[0] < -2047 ? -2047 : c[0] > 2047 ? 2047 : c[0];
	int s = co_size(d), run = 0;

	co_put(b, dc[s].code, dc[s].len);
	co_value(b, d, s);
	for (int i = 1; i < 32; i++) {
		int32_t v = c[i] < -1023 ? -1023 : c[i] > 1023 ? 1023 : c[i];

		if (!v) {
			run++;
			continue;
		}
		while (run >= 16) {
			co518_code(b, ac, 16, 0);
			run -= 16;
		}
		s = co_size(v);
		co518_code(b, ac, run, s);
		co_value(b, v, s);
		run = 0;
	}
	co518_code(b, ac, -1, 0); /* EOB, also after a full block */
}

/*
 * A whole frame: header, coded blocks, padding, quantisation bytes (qy,
 * qc: 32 each, non-zero so that no unit is all zero). Returns the frame
 * (malloc) or NULL; *len its size. *zero_unit is set when some 8-byte unit
 * came out all zero (the decoder would drop it: re-encode differently).
 */
uint8_t *v4lc_chipenc_ov518_frame(int w, int h, const uint8_t qy[32],
				  const uint8_t qc[32],
				  v4lc_chipenc_ov518_block_fn *cb, void *ctx,
				  size_t *len, int *zero_unit)
{
	static const uint8_t hdr[8] = { 0, 0, 0, 0, 0x12, 0, 1, 0 };
	struct co_bits b = { NULL, 0, 0, 0, 0, 0 };
	int32_t c[32];

	for (int i = 0; i < 8; i++)
		co_byte(&b, hdr[i]);
	for (int y = 0; y == 0 || y < h; y += 8) {
		for (int x = 0; x == 0 || x < w; x += 8) {
			memset(c, 0, sizeof(c));
			cb(ctx, 0, x, y, c);
			co518_put_block(&b, 0, c);
		}
		for (int x = 0; x == 0 || x < w; x += 16) {
			for (int k = 1; k <= 2; k++) {
				memset(c, 0, sizeof(c));
				cb(ctx, k, x / 2, y / 2, c);
				co518_put_block(&b, 1, c);
			}
			for (int k = 0; k < 2; k++) {
				memset(c, 0, sizeof(c));
				cb(ctx, 0, x + 8 * k, y + 4, c);
				co518_put_block(&b, 0, c);
			}
		}
	}
	while (b.nacc)
		co_put(&b, 1, 1);
	while (b.n % 8)
		co_byte(&b, 0xff);
	for (int i = 0; i < 32; i++)
		co_byte(&b, qy[i]);
	for (int i = 0; i < 32; i++)
		co_byte(&b, qc[i]);
	if (b.oom) {
		free(b.p);
		return NULL;
	}
	*zero_unit = 0;
	for (size_t u = 0; u + 8 <= b.n; u += 8) {
		uint64_t v;

		memcpy(&v, b.p + u, 8);
		if (!v)
			*zero_unit = 1;
	}
	*len = b.n;
	return b.p;
}

/*
 * Image encoding: forward transform by projection on W's rows, the first
 * CO518_IMG_COEFS scan positions only (the rest stay zero: cheaper, and
 * enough for a test picture).
 */
#define CO518_IMG_COEFS 15
struct co518_img {
	const uint8_t *pl[3];
	int stride[3];
	uint8_t qy[32], qc[32];
	int32_t pred[3];
	double norm[32];
};

static void co518_img_block(void *ctx, int comp, int x, int y, int32_t c[32])
{
	struct co518_img *e = (struct co518_img *)ctx;
	const uint8_t *q = comp ? e->qc : e->qy;
	double px[32];

	for (int r = 0; r < 4; r++)
		for (int k = 0; k < 8; k++)
			px[8 * r + k] =
				e->pl[comp][(size_t)(y + r) * e->stride[comp] +
					    (size_t)(x + k)] -
				128.0;
	for (int j = 0; j < CO518_IMG_COEFS; j++) {
		int k = ov518_scan[j];
		double g = 0, div = q[j] + 1.0;

		for (int p = 0; p < 32; p++)
			g += px[p] * ov518_weight[k][p];
		g = g * 131072.0 / e->norm[k];
		if (j == 1 && !comp)
			div /= 2;
		c[j] = (int32_t)lrint(g / div);
	}
	c[0] -= e->pred[comp];
	if (c[0] > 2047)
		c[0] = 2047;
	if (c[0] < -2047)
		c[0] = -2047;
	e->pred[comp] += c[0];
}

/*
 * A frame from planar YUV420 (w % 16, h % 8); quality 0 (coarse) .. 3
 * (fine) picks the quantiser; re-encoded with the next coarser one when a
 * unit came out all zero. NULL on failure.
 */
uint8_t *v4lc_chipenc_ov518_image(const uint8_t *yuv, int w, int h, int quality,
				  size_t *len)
{
	struct co518_img e;
	size_t wh = (size_t)w * (size_t)h;

	memset(&e, 0, sizeof(e));
	e.pl[0] = yuv;
	e.pl[1] = yuv + wh;
	e.pl[2] = yuv + wh + wh / 4;
	e.stride[0] = w;
	e.stride[1] = e.stride[2] = w / 2;
	for (int k = 0; k < 32; k++) {
		e.norm[k] = 0;
		for (int p = 0; p < 32; p++)
			e.norm[k] +=
				(double)ov518_weight[k][p] * ov518_weight[k][p];
	}
	for (int t = 0; t < 8; t++) {
		int qv = (3 - quality) + t;
		int zu;
		uint8_t *f;

		for (int j = 0; j < 32; j++) {
			e.qy[j] = (uint8_t)(1 + qv + j / 3);
			e.qc[j] = (uint8_t)(2 + qv + j / 2);
		}
		e.pred[0] = e.pred[1] = e.pred[2] = 0;
		f = v4lc_chipenc_ov518_frame(w, h, e.qy, e.qc, co518_img_block,
					     &e, len, &zu);
		if (!f || !zu)
			return f;
		free(f);
	}
	return NULL;
}
