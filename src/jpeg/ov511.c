/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * OV511 decoder (see ov51x.h). Frame: an 11-byte footer cut, all-zero
 * 32-byte chunks removed; byte 8 is the flag byte (bit 6: compressed), the
 * data follows at offset 9. Compressed: steps of six 8x8 blocks (U, V and
 * four Y), each a byte record (header, optional zero table, 12-bit DC,
 * 8- or 12-bit AC values), of which a 4x4 corner of the spectrum is used,
 * scaled by fixed powers of two, through an integer 8-point transform.
 * Raw: 384-byte segments of U, V and four Y blocks.
 */
#include "jpeg/ov51x.h"

#include <errno.h>
#include <string.h>

/* The slack after the frame copy: one block record reads <= 108 bytes. */
#define SLACK 128

struct src {
	const uint8_t *m; /* the compacted frame, then its tail, then zero */
	size_t len;       /* bytes of m readable (zero padding included) */
	size_t pos;       /* the next byte, from compacted offset 0 */
	unsigned notes;
};

struct out {
	uint8_t *buf;
	size_t size;
	int clip;
};

size_t v4lc_ov51x_work_size(size_t n)
{
	if (n > V4LC_OV511_MAX_IN)
		n = V4LC_OV511_MAX_IN; /* larger frames are refused first */
	/* OV511's copy is the larger: n rounded up to 32, and SLACK; OV518's
	 * is 8 + n rounded up to 8 + 40. */
	return ((n + 31) & ~(size_t)31) + SLACK;
}

static void put8x8(const struct out *o, size_t off, size_t stride,
		   const uint8_t *px, size_t pxstride)
{
	for (int r = 0; r < 8; r++, off += stride, px += pxstride) {
		if (!o->clip || off + 8 <= o->size)
			memcpy(o->buf + off, px, 8);
		else if (off < o->size)
			memcpy(o->buf + off, px, o->size - off);
	}
}

static inline int32_t sext12(uint32_t v)
{
	return v >= 2048 ? (int32_t)v - 4096 : (int32_t)v;
}

static inline uint8_t clamp8(int32_t v)
{
	return v < 0 ? 0 : v > 255 ? 255 : (uint8_t)v;
}

/* Used scan index -> (u, v) cell (4 * u + v) and its shifts (Y, chroma). */
static const struct {
	uint8_t i, cell, sy, sc;
} used[16] = {
	{ 0, 0, 0, 0 },  { 1, 1, 1, 2 },   { 5, 2, 1, 2 },   { 6, 3, 2, 3 },
	{ 2, 4, 1, 2 },  { 4, 5, 1, 2 },   { 7, 6, 1, 2 },   { 13, 7, 2, 4 },
	{ 3, 8, 1, 2 },  { 8, 9, 1, 2 },   { 12, 10, 2, 3 }, { 17, 11, 2, 4 },
	{ 9, 12, 2, 3 }, { 11, 13, 2, 4 }, { 18, 14, 2, 4 }, { 24, 15, 3, 4 },
};

#define KA 11584
#define KB 16068
#define KC 15136
#define KD 13624
#define KE 9104
#define KF 6270
#define KG 3196
static const int32_t kern[8][4] = {
	{ KA, KB, KC, KD },   { KA, KD, KF, -KG },  { KA, KE, -KF, -KB },
	{ KA, KG, -KC, -KE }, { KA, -KG, -KC, KE }, { KA, -KE, -KF, KB },
	{ KA, -KD, KF, KG },  { KA, -KB, KC, -KD },
};

/* 8x8 pixels from D[u][v] (d[4 * u + v]). */
static void idct(const int32_t d[16], uint8_t px[64])
{
	int32_t t[8][4];

	if (!(d[1] | d[2] | d[3] | d[4] | d[5] | d[6] | d[7] | d[8] | d[9] |
	      d[10] | d[11] | d[12] | d[13] | d[14] | d[15])) {
		int32_t a = (KA * d[0]) >> 15;
		uint32_t s = (uint32_t)KA * (uint32_t)a;

		memset(px, clamp8(((int32_t)s >> 15) + 128), 64);
		return;
	}
	/*
	 * Even/odd halves: K[7 - n][t] = (-1)^t K[n][t]. Pass 1 has no
	 * overflow; pass 2 wraps at 32 bits (unsigned), as the sums do.
	 */
	for (int u = 0; u < 4; u++) {
		const int32_t *du = d + 4 * u;

		if (!(du[0] | du[1] | du[2] | du[3])) {
			for (int y = 0; y < 8; y++)
				t[y][u] = 0;
			continue;
		}
		for (int y = 0; y < 4; y++) {
			int32_t e = kern[y][0] * du[0] + kern[y][2] * du[2];
			int32_t o = kern[y][1] * du[1] + kern[y][3] * du[3];

			t[y][u] = (e + o) >> 15;
			t[7 - y][u] = (e - o) >> 15;
		}
	}
	for (int y = 0; y < 8; y++) {
		uint8_t *row = px + 8 * y;
		uint32_t t0 = (uint32_t)t[y][0], t1 = (uint32_t)t[y][1];
		uint32_t t2 = (uint32_t)t[y][2], t3 = (uint32_t)t[y][3];

		if (!(t1 | t2 | t3)) {
			memset(row, clamp8(((int32_t)(KA * t0) >> 15) + 128),
			       8);
			continue;
		}
		for (int x = 0; x < 4; x++) {
			uint32_t e = (uint32_t)kern[x][0] * t0 +
				     (uint32_t)kern[x][2] * t2;
			uint32_t o = (uint32_t)kern[x][1] * t1 +
				     (uint32_t)kern[x][3] * t3;

			row[x] = clamp8(((int32_t)(e + o) >> 15) + 128);
			row[7 - x] = clamp8(((int32_t)(e - o) >> 15) + 128);
		}
	}
}

static inline int popcount64(uint64_t x)
{
	x -= (x >> 1) & 0x5555555555555555ull;
	x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
	return (int)((x * 0x0101010101010101ull) >> 56);
}

/* One block record at s->pos; the 16 used values into d, scaled. */
static void record(struct src *s, const uint8_t *p, int chroma, int32_t d[16])
{
	unsigned hdr = p[0];
	int n = (hdr & 0x3f) + 1, wide = !(hdr & 0x40);
	int nz = (hdr & 0x80) ? (n + 7) / 8 : 0;
	uint64_t mask = 0; /* bit 63 - i: coefficient i present */
	const uint8_t *v;
	int32_t z[25];
	int m, r = 0, lim = n < 25 ? n : 25;

	if (nz) {
		for (int k = 0; k < nz; k++)
			mask |= (uint64_t)p[1 + k] << (56 - 8 * k);
	} else {
		mask = ~0ull;
	}
	mask &= ~(1ull << 63);
	if (n < 64)
		mask &= ~(~0ull >> n); /* keep bits 63 .. 64 - n */
	v = p + 1 + nz + 2;
	memset(z, 0, sizeof(z));
	z[0] = sext12(p[1 + nz] | (uint32_t)(p[2 + nz] & 15) << 8);
	/* values in order of the present coefficients, r of them so far */
	for (int i = 1; i < lim; i++) {
		if (!(mask >> (63 - i) & 1))
			continue;
		if (!wide) {
			z[i] = (int8_t)v[r];
		} else {
			const uint8_t *q = v + 3 * (r >> 1);

			z[i] = (r & 1) ? sext12((uint32_t)q[2] << 4 | q[1] >> 4)
				       : sext12(q[0] | (uint32_t)(q[1] & 15)
							       << 8);
		}
		r++;
	}
	for (int k = 0; k < 16; k++)
		d[used[k].cell] = z[used[k].i] *
				  (1 << (chroma ? used[k].sc : used[k].sy));
	m = popcount64(mask);
	s->pos += (size_t)(1 + nz + 2) +
		  (size_t)(wide ? 3 * (m / 2) + 2 * (m % 2) : m);
}

static void block(struct src *s, int chroma, const struct out *o, size_t off,
		  size_t stride)
{
	uint8_t tmp[SLACK];
	const uint8_t *p;
	int32_t d[16];
	uint8_t px[64];

	if (__builtin_expect(s->pos + SLACK <= s->len, 1)) {
		p = s->m + s->pos;
	} else {
		/* Near the end: the rest, then zero. */
		size_t k = s->pos < s->len ? s->len - s->pos : 0;

		memset(tmp, 0, sizeof(tmp));
		if (k)
			memcpy(tmp, s->m + s->pos, k);
		p = tmp;
		if (s->pos + SLACK > V4LC_OV511_MAX_IN)
			s->notes |= V4LC_OV51X_UNDEFINED;
	}
	record(s, p, chroma, d);
	idct(d, px);
	put8x8(o, off, stride, px, 8);
}

static void compressed(struct src *s, const struct out *o, int w, int h)
{
	size_t wh = (size_t)w * (size_t)h, cw = (size_t)w / 2;
	size_t n = wh / 256, ou = 0, ov = 0, oy = 0;
	size_t ubase = wh, vbase = wh + wh / 4;
	long xc = 0, xy = 0;

	s->pos = 9;
	for (size_t k = 0; k < n; k++) {
		block(s, 1, o, ubase + ou, cw);
		ou += 8;
		block(s, 1, o, vbase + ov, cw);
		ov += 8;
		xc += 16;
		if (xc >= w) {
			ou += 7 * (size_t)w / 2;
			ov += 7 * (size_t)w / 2;
			xc = 0;
		}
		for (int b = 0; b < 4; b++) {
			block(s, 0, o, oy, (size_t)w);
			oy += 8;
			xy += 8;
			if ((b & 1) && xy >= w) {
				oy += 7 * (size_t)w;
				xy = 0;
			}
		}
	}
}

/* Raw segments; p = compacted offset 9. */
static void raw(struct src *s, const struct out *o, int w, int h)
{
	size_t wh = (size_t)w * (size_t)h, cw = (size_t)w / 2;
	size_t seg = 0, k = 0;
	uint8_t blk[64];

	for (int by = 0; 16 * by < h - 1; by++)
		for (int bx = 0; 16 * bx < w - 1; bx++, seg++)
			for (int c = 0; c < 2; c++) {
				size_t at = 9 + 384 * seg + 64 * (size_t)c;

				for (int i = 0; i < 64; i++)
					blk[i] = at + i < s->len ? s->m[at + i]
								 : 0;
				if (at + 64 > V4LC_OV511_MAX_IN)
					s->notes |= V4LC_OV51X_UNDEFINED;
				put8x8(o,
				       wh + (c ? wh / 4 : 0) +
					       8 * (size_t)by * cw +
					       8 * (size_t)bx,
				       cw, blk, 8);
			}
	for (int row = 0; 8 * row < h - 1; row++)
		for (int col = 0; 8 * col < w - 1; col++, k++) {
			size_t at = 9 + 384 * (k / 4) + 128 + 64 * (k % 4);

			for (int i = 0; i < 64; i++)
				blk[i] = at + i < s->len ? s->m[at + i] : 0;
			if (at + 64 > V4LC_OV511_MAX_IN)
				s->notes |= V4LC_OV51X_UNDEFINED;
			put8x8(o, 8 * (size_t)row * (size_t)w + 8 * (size_t)col,
			       (size_t)w, blk, 8);
		}
}

static int all_zero32(const uint8_t *p)
{
	uint64_t a, b, c, d;

	memcpy(&a, p, 8);
	memcpy(&b, p + 8, 8);
	memcpy(&c, p + 16, 8);
	memcpy(&d, p + 24, 8);
	return !(a | b | c | d);
}

int v4lc_ov511_decode(const uint8_t *src, size_t n, uint8_t *out, int w, int h,
		      uint8_t *work, unsigned *notes)
{
	size_t size = v4lc_ov51x_out_size(w, h);
	struct out o = { out, size, w % 16 || h % 16 };
	struct src s = { NULL, 0, 0, 0 };
	size_t alloc = ((n + 31) & ~(size_t)31) + SLACK, kept = 0;
	long cut = (long)n - 11;
	uint8_t *m = work;

	if (notes)
		*notes = 0;
	if (!size)
		return -EINVAL;
	if (n > V4LC_OV511_MAX_IN)
		return -EAGAIN;
	if (n)
		memcpy(m, src, n);
	memset(m + n, 0, alloc - n);
	/* Drop the all-zero 32-byte chunks (the footer cut first). */
	for (long c = 0; c < cut; c += 32) {
		if (all_zero32(m + c))
			continue;
		if (kept != (size_t)c)
			memcpy(m + kept, m + c, 32);
		kept += 32;
	}
	s.m = m;
	s.len = alloc;
	if (o.clip)
		memset(out, 0, size);
	if (m[8] & 0x40)
		compressed(&s, &o, w, h);
	else
		raw(&s, &o, w, h);
	if (notes)
		*notes = s.notes;
	return 0;
}
