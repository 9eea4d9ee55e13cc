/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The OV511 frame encoder (chipenc_ov51x.h), written from the clean-room
 * specification's frame description: 8x8 block records in steps of U, V
 * and four Y, and an image encoder by a float forward transform matched to
 * the decoder's integer inverse.
 */
#include "vcam/chipenc_ov51x.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
 * A record from values z[0..n-1] (scan order; z[0] the DC, -2048..2047):
 * eight: 8-bit AC values (else 12-bit), table: a zero table listing the
 * non-zero AC values only (else all n - 1 are written).
 */
int v4lc_chipenc_ov511_record(const int32_t *z, int n, int eight, int table,
			      uint8_t *out)
{
	int k = 1, m = 0;
	int32_t vals[64];

	out[0] = (uint8_t)((n - 1) | (eight ? 0x40 : 0) | (table ? 0x80 : 0));
	if (table) {
		int nz = (n + 7) / 8;

		memset(out + 1, 0, (size_t)nz);
		for (int i = 1; i < n; i++)
			if (z[i])
				out[1 + i / 8] |= (uint8_t)(0x80 >> (i % 8));
		k += nz;
	}
	out[k++] = (uint8_t)(z[0] & 0xff);
	out[k++] = (uint8_t)((z[0] >> 8) & 0x0f);
	for (int i = 1; i < n; i++)
		if (!table || z[i])
			vals[m++] = z[i];
	for (int i = 0; i < m; i++) {
		if (eight) {
			out[k++] = (uint8_t)(vals[i] & 0xff);
		} else if (!(i & 1)) {
			uint32_t a = (uint32_t)vals[i] & 0xfff;
			uint32_t b =
				i + 1 < m ? (uint32_t)vals[i + 1] & 0xfff : 0;

			out[k++] = (uint8_t)(a & 0xff);
			out[k++] = (uint8_t)((a >> 8) | (b & 15) << 4);
			if (i + 1 < m)
				out[k++] = (uint8_t)(b >> 4);
		}
	}
	return k;
}

/*
 * A whole compressed frame (flag 0x48): 8 zero bytes, the flag, the
 * records, zero padding to 32 bytes, the 11-byte footer. NULL on failure.
 */
uint8_t *v4lc_chipenc_ov511_frame(int w, int h, v4lc_chipenc_ov511_block_fn *cb,
				  void *ctx, size_t *len)
{
	size_t wh = (size_t)w * (size_t)h, steps = wh / 256;
	size_t cap = 9 + steps * 6 * 112 + 32 + 11, n = 9;
	uint8_t *f = (uint8_t *)malloc(cap);
	int cbw = w / 16 > 0 ? w / 16 : 1, ybw = w / 8 > 0 ? w / 8 : 1;

	if (!f)
		return NULL;
	memset(f, 0, 9);
	f[8] = 0x48;
	for (size_t s = 0; s < steps; s++) {
		int cx = (int)(s % (size_t)cbw) * 8,
		    cy = (int)(s / (size_t)cbw) * 8;

		n += (size_t)cb(ctx, 1, cx, cy, f + n);
		n += (size_t)cb(ctx, 2, cx, cy, f + n);
		for (int k = 0; k < 4; k++) {
			size_t yb = 4 * s + (size_t)k;

			n += (size_t)cb(ctx, 0, (int)(yb % (size_t)ybw) * 8,
					(int)(yb / (size_t)ybw) * 8, f + n);
		}
	}
	while (n % 32)
		f[n++] = 0;
	memset(f + n, 0, 8);
	f[n + 8] = 0x88;
	f[n + 9] = (uint8_t)(w / 8 - 1);
	f[n + 10] = (uint8_t)(h / 8 - 1);
	*len = n + 11;
	return f;
}

struct co511_img {
	const uint8_t *pl[3];
	int stride[3];
	int h[3];
};

/* Scan index, (u, v) cell and shifts of the 16 coefficients used. */
static const struct {
	uint8_t i, u, v, sy, sc;
} co511_used[16] = {
	{ 0, 0, 0, 0, 0 },  { 1, 0, 1, 1, 2 },  { 5, 0, 2, 1, 2 },
	{ 6, 0, 3, 2, 3 },  { 2, 1, 0, 1, 2 },  { 4, 1, 1, 1, 2 },
	{ 7, 1, 2, 1, 2 },  { 13, 1, 3, 2, 4 }, { 3, 2, 0, 1, 2 },
	{ 8, 2, 1, 1, 2 },  { 12, 2, 2, 2, 3 }, { 17, 2, 3, 2, 4 },
	{ 9, 3, 0, 2, 3 },  { 11, 3, 1, 2, 4 }, { 18, 3, 2, 2, 4 },
	{ 24, 3, 3, 3, 4 },
};

static double co511_k(int n, int t)
{
	static const int k[8][4] = {
		{ 11584, 16068, 15136, 13624 },
		{ 11584, 13624, 6270, -3196 },
		{ 11584, 9104, -6270, -16068 },
		{ 11584, 3196, -15136, -9104 },
		{ 11584, -3196, -15136, 9104 },
		{ 11584, -9104, -6270, 16068 },
		{ 11584, -13624, 6270, 3196 },
		{ 11584, -16068, 15136, -13624 },
	};
	return k[n][t];
}

static int co511_img_block(void *ctx, int comp, int x, int y, uint8_t *out)
{
	struct co511_img *e = (struct co511_img *)ctx;
	double rows[8][4], nrm[4] = { 0, 0, 0, 0 };
	int32_t z[64];
	int n = 1, big = 0;

	for (int t = 0; t < 4; t++)
		for (int q = 0; q < 8; q++)
			nrm[t] += co511_k(q, t) * co511_k(q, t);
	/* pixel(row r, col q) ~ sum K[q][u] K[r][v] D[u][v] / 2^30: project
	 * each row on the K[.][u], then the columns on the K[.][v] */
	for (int r = 0; r < 8; r++) {
		int yy = y + r < e->h[comp] ? y + r : e->h[comp] - 1;
		const uint8_t *row =
			e->pl[comp] + (size_t)yy * e->stride[comp] + (size_t)x;

		for (int u = 0; u < 4; u++) {
			double s = 0;

			for (int q = 0; q < 8; q++)
				s += (row[q] - 128.0) * co511_k(q, u);
			rows[r][u] = s;
		}
	}
	memset(z, 0, sizeof(z));
	for (int c = 0; c < 16; c++) {
		int u = co511_used[c].u, v = co511_used[c].v,
		    i = co511_used[c].i;
		int sh = comp ? co511_used[c].sc : co511_used[c].sy;
		double s = 0, d;

		for (int r = 0; r < 8; r++)
			s += rows[r][u] * co511_k(r, v);
		d = s * 1073741824.0 / (nrm[u] * nrm[v]);
		z[i] = (int32_t)lrint(d / (1 << sh));
		if (z[i] > 2047)
			z[i] = 2047;
		if (z[i] < -2048)
			z[i] = -2048;
	}
	for (int i = 1; i < 64; i++)
		if (z[i]) {
			n = i + 1;
			if (z[i] > 127 || z[i] < -128)
				big = 1;
		}
	return v4lc_chipenc_ov511_record(z, n, !big, 1, out);
}

/* A compressed frame from planar YUV420 (w % 16, h % 16). */
uint8_t *v4lc_chipenc_ov511_image(const uint8_t *yuv, int w, int h, size_t *len)
{
	struct co511_img e;
	size_t wh = (size_t)w * (size_t)h;

	e.pl[0] = yuv;
	e.pl[1] = yuv + wh;
	e.pl[2] = yuv + wh + wh / 4;
	e.stride[0] = w;
	e.stride[1] = e.stride[2] = w / 2;
	e.h[0] = h;
	e.h[1] = e.h[2] = h / 2;
	return v4lc_chipenc_ov511_frame(w, h, co511_img_block, &e, len);
}
