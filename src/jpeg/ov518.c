/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * OV518 decoder (see ov51x.h). Frame: 8-byte units, all-zero ones removed
 * first (L = the length after that); an 8-byte header, a Huffman-coded
 * stream of 8x4 blocks (JPEG example tables, DC predicted per component),
 * and the quantisation bytes at the end (32 luma, 32 chroma). The bit
 * reader and its quirks (zero bytes only from 8 bytes after the end, an
 * invalid AC code stepping one bit back) are those of doc/formats/ov518.md,
 * so that corrupt and truncated frames give what the original gives.
 */
#include "jpeg/ov51x.h"

#include <errno.h>
#include <pthread.h>
#include <string.h>

#include "jpeg/ov518_tables.h"

size_t v4lc_ov51x_out_size(int w, int h)
{
	size_t n;

	if (w <= 0 || w > 32767 || h <= 0 || h > 32767)
		return 0;
	n = (size_t)w * (size_t)h * 3 / 2;
	return n > V4LC_OV51X_MAX_OUT ? 0 : n;
}

/*
 * VLC tables: the first level is indexed by the next 10 bits; codes longer
 * than that go through a 64-entry second level (the next 6 bits). Entry:
 * bits 0-7 code length, 8-15 run, 16-23 size, 24-31 kind.
 */
enum { K_VAL, K_EOB, K_INV, K_SUB, K_FAST };
#define L1_BITS 10
#define L2_BITS 6
#define MAX_SUB 16

struct vlc {
	uint32_t l1[1 << L1_BITS];
	uint32_t l2[MAX_SUB][1 << L2_BITS];
	/*
	 * K_FAST (AC): code and value bits within the first level; the
	 * entry's length is both, the value is fval[index].
	 */
	int16_t fval[1 << L1_BITS];
};

static struct vlc vlc_tab[4]; /* Y DC, chroma DC, Y AC, chroma AC */

/*
 * The weights split into 16-bit halves for the common case of 16-bit
 * coefficients: W = wa + wb, wa = W clamped to +-32767 (wb is non-zero in
 * the rows with larger weights only, wide[k] says which).
 */
static int16_t wa[32][32], wb[32][32];
static uint8_t wide[32];
static pthread_once_t vlc_once = PTHREAD_ONCE_INIT;

static uint32_t entry(int len, int run, int size, int kind)
{
	return (uint32_t)len | (uint32_t)run << 8 | (uint32_t)size << 16 |
	       (uint32_t)kind << 24;
}

static void vlc_add(struct vlc *v, int *nsub, unsigned code, int len,
		    uint32_t e)
{
	unsigned code16 = code << (16 - len);
	unsigned top = code16 >> L2_BITS;

	if (len <= L1_BITS) {
		unsigned first = code << (L1_BITS - len);

		for (unsigned i = 0; i < 1u << (L1_BITS - len); i++)
			v->l1[first + i] = e;
		return;
	}
	if (v->l1[top] >> 24 != K_SUB)
		v->l1[top] = entry(0, (*nsub)++, 0, K_SUB);
	{
		uint32_t *sub = v->l2[(v->l1[top] >> 8) & 0xff];
		unsigned first = code16 & ((1u << L2_BITS) - 1);

		for (unsigned i = 0; i < 1u << (16 - len); i++)
			sub[first + i] = e;
	}
}

static void vlc_init(void)
{
	for (int k = 0; k < 32; k++)
		for (int p = 0; p < 32; p++) {
			int32_t v = ov518_weight[k][p];
			int32_t a = v > 32767 ? 32767 : v < -32767 ? -32767 : v;

			wa[k][p] = (int16_t)a;
			wb[k][p] = (int16_t)(v - a);
			wide[k] |= v != a;
		}
	for (int t = 0; t < 2; t++) {
		const struct ov518_dc_code *c = t ? ov518_cdc : ov518_ydc;
		int nsub = 0;

		for (int i = 0; i < 13; i++)
			vlc_add(&vlc_tab[t], &nsub, c[i].code, c[i].len,
				c[i].size < 0
					? entry(c[i].len, 0, 0, K_INV)
					: entry(c[i].len, 0, c[i].size, K_VAL));
	}
	for (int t = 0; t < 2; t++) {
		const struct ov518_ac_code *c = t ? ov518_cac : ov518_yac;
		int nsub = 0;

		for (int i = 0; i < 163; i++) {
			uint32_t e;

			if (c[i].run == -1)
				e = entry(c[i].len, 0, 0, K_EOB);
			else if (c[i].run == -2)
				e = entry(c[i].len, 0, 0, K_INV);
			else
				e = entry(c[i].len, c[i].run, c[i].size, K_VAL);
			vlc_add(&vlc_tab[2 + t], &nsub, c[i].code, c[i].len, e);
		}
		for (unsigned x = 0; x < 1u << L1_BITS; x++) {
			struct vlc *v = &vlc_tab[2 + t];
			uint32_t e = v->l1[x];
			int len = e & 0xff, size = (e >> 16) & 0xff;
			int32_t bits;

			if (e >> 24 != K_VAL || !size || len + size > L1_BITS)
				continue;
			bits = (int32_t)((x >> (L1_BITS - len - size)) &
					 ((1u << size) - 1));
			v->fval[x] =
				(int16_t)((bits >> (size - 1))
						  ? bits
						  : bits - ((1 << size) - 1));
			v->l1[x] = entry(len + size, (e >> 8) & 0xff, size,
					 K_FAST);
		}
	}
}

/*
 * The stream: s[0] is stream offset 0 (compacted offset 8). Offsets
 * -8..L-1 hold memory, L.. zero (at least 16 bytes); `edge` is the memory
 * byte at offset L, read only as the first byte of a window at B == L.
 */
struct reader {
	const uint8_t *s;
	long len; /* L */
	uint8_t edge;
	unsigned notes;
};

static inline uint64_t load_be64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return v;
#else
	return __builtin_bswap64(v);
#endif
}

/* The bits from position p on, first bit in bit 63 (at least 57 valid). */
static uint64_t window_slow(struct reader *r, long p)
{
	long b = p >> 3; /* floor */
	uint64_t v = 0;

	for (int k = 0; k < 5; k++) {
		long off = b + k;
		uint8_t byte = 0;

		if (k == 0 ? off <= r->len : off < r->len) {
			if (off == r->len)
				byte = r->edge;
			else if (off >= -8)
				byte = r->s[off];
			else
				r->notes |= V4LC_OV51X_UNDEFINED;
		}
		v |= (uint64_t)byte << (56 - 8 * k);
	}
	return v << (p & 7);
}

static inline uint64_t window(struct reader *r, long p)
{
	long b = p >> 3;

	if (__builtin_expect(b >= 0 && b < r->len, 1))
		return load_be64(r->s + b) << (p & 7);
	return window_slow(r, p);
}

static inline uint32_t lookup(const struct vlc *v, uint64_t win)
{
	uint32_t e = v->l1[win >> (64 - L1_BITS)];

	if (__builtin_expect(e >> 24 == K_SUB, 0))
		e = v->l2[(e >> 8) & 0xff][(win >> (64 - L1_BITS - L2_BITS)) &
					   ((1u << L2_BITS) - 1)];
	return e;
}

/* The s value bits after a code of len bits, JPEG-extended. */
static inline int32_t value_bits(uint64_t win, int len, int s)
{
	int32_t v;

	if (!s)
		return 0;
	v = (int32_t)((win << len) >> (64 - s));
	return (v >> (s - 1)) ? v : v - ((1 << s) - 1);
}

/*
 * One block's coefficients (C[0] = the DC difference) from position *p.
 * Returns a bit mask of the non-zero C[j].
 */
static uint32_t read_block(struct reader *r, long *p, const struct vlc *dc,
			   const struct vlc *ac, int32_t c[32])
{
	long pos = *p;
	uint64_t win = window(r, pos);
	uint32_t e = lookup(dc, win);
	uint32_t nz = 0;
	int32_t last = 0;
	int i = 1;

	if ((e >> 24) == K_INV) {
		c[0] = 0;
		pos += 1;
	} else {
		int len = e & 0xff, s = (e >> 16) & 0xff;

		c[0] = value_bits(win, len, s);
		pos += len + s;
	}
	nz |= c[0] != 0;
	for (;;) {
		int len, run, s;

		win = window(r, pos);
		e = ac->l1[win >> (64 - L1_BITS)];
		if (__builtin_expect(e >> 24 == K_FAST, 1)) {
			pos += e & 0xff;
			if (i > 31)
				break; /* the symbol after a full block */
			run = (e >> 8) & 0xff;
			i += run < 31 - i ? run : 31 - i;
			last = ac->fval[win >> (64 - L1_BITS)];
			c[i] = last;
			nz |= 1u << i;
			i++;
			continue;
		}
		if (e >> 24 == K_SUB)
			e = ac->l2[(e >> 8) & 0xff]
				  [(win >> (64 - L1_BITS - L2_BITS)) &
				   ((1u << L2_BITS) - 1)];
		len = e & 0xff;
		if (i > 31) {
			/* One more symbol, read and dropped. */
			if ((e >> 24) == K_INV)
				pos -= 1;
			else
				pos += len + ((e >> 16) & 0xff);
			break;
		}
		switch (e >> 24) {
		case K_EOB:
			pos += len;
			*p = pos;
			return nz;
		case K_INV:
			pos -= 1;
			c[i] = last;
			nz |= (uint32_t)(last != 0) << i;
			i++;
			continue;
		default:
			break;
		}
		run = (e >> 8) & 0xff;
		s = (e >> 16) & 0xff;
		pos += len + s;
		if (!s) { /* ZRL */
			i += 16 < 32 - i ? 16 : 32 - i;
			continue;
		}
		i += run < 31 - i ? run : 31 - i;
		last = value_bits(win, len, s);
		c[i] = last;
		nz |= 1u << i;
		i++;
	}
	*p = pos;
	return nz;
}

static inline uint8_t clamp8(int32_t v)
{
	return v < 0 ? 0 : v > 255 ? 255 : (uint8_t)v;
}

/*
 * The 8x4 pixels of one block from the dequantised coefficients: the sum
 * of W[k][p] * F (wrapping at 32 bits: the order does not matter).
 * small: every F fits in 16 bits (then 16x16-bit products).
 */
static void idct(const uint32_t *f, uint32_t nz, int small, uint8_t px[32])
{
	uint32_t acc[32];

	if (!(nz & ~1u)) {
		uint32_t v = (1u << 24) + 23168u * f[0];

		memset(px, clamp8((int32_t)v >> 17), 32);
		return;
	}
	for (int p = 0; p < 32; p++)
		acc[p] = 1u << 24;
	while (small && nz) {
		int j = __builtin_ctz(nz);
		int k = ov518_scan[j];
		int16_t g = (int16_t)f[j];
		const int16_t *a = wa[k], *b = wb[k];

		nz &= nz - 1;
		for (int p = 0; p < 32; p++)
			acc[p] += (uint32_t)(a[p] * g);
		if (wide[k])
			for (int p = 0; p < 32; p++)
				acc[p] += (uint32_t)(b[p] * g);
	}
	while (nz) {
		int j = __builtin_ctz(nz);
		const int32_t *w = ov518_weight[ov518_scan[j]];
		uint32_t g = f[j];

		nz &= nz - 1;
		for (int p = 0; p < 32; p++)
			acc[p] += (uint32_t)w[p] * g;
	}
	for (int p = 0; p < 32; p++)
		px[p] = clamp8((int32_t)acc[p] >> 17);
}

struct out {
	uint8_t *buf;
	size_t size;
	int clip; /* blocks may leave the buffer */
};

static void put(const struct out *o, size_t off, size_t stride,
		const uint8_t px[32])
{
	for (int r = 0; r < 4; r++, off += stride) {
		if (!o->clip || off + 8 <= o->size)
			memcpy(o->buf + off, px + 8 * r, 8);
		else if (off < o->size)
			memcpy(o->buf + off, px + 8 * r, o->size - off);
	}
}

struct comp {
	const struct vlc *dc, *ac;
	int32_t pred;
	uint32_t q[32]; /* quantiser + 1 */
	int luma;
};

static void block(struct reader *r, long *p, struct comp *c,
		  const struct out *o, size_t off, size_t stride)
{
	int32_t coef[32];
	uint32_t f[32];
	uint8_t px[32];
	uint32_t nz = read_block(r, p, c->dc, c->ac, coef), m;
	int small;

	c->pred += coef[0];
	f[0] = (uint32_t)c->pred * c->q[0];
	nz = (nz & ~1u) | (c->pred != 0);
	m = nz & ~1u;
	small = (uint32_t)c->pred * c->q[0] + 32767u <= 65534u;
	while (m) {
		int j = __builtin_ctz(m);

		m &= m - 1;
		f[j] = (uint32_t)coef[j] * c->q[j];
		if (c->luma && j == 1)
			f[1] = (uint32_t)((int32_t)f[1] >> 1);
		small &= f[j] + 32767u <= 65534u;
	}
	idct(f, nz, small, px);
	put(o, off, stride, px);
}

/*
 * The frame into w (8 + n8 + 40 bytes, n8 = n rounded up to 8): 8 zero
 * bytes, the frame without its all-zero units, zero padding.
 */
static void prepare(const uint8_t *src, size_t n, uint8_t *w, long *len,
		    uint8_t *edge)
{
	size_t n8 = (n + 7) & ~(size_t)7, out = 0;
	uint8_t *m = w + 8;

	memset(w, 0, 8);
	if (n)
		memcpy(m, src, n);
	memset(m + n, 0, n8 + 40 - n);
	for (size_t c = 0; c < n8; c += 8) {
		if (!load_be64(m + c))
			continue;
		if (out != c)
			memcpy(m + out, m + c, 8);
		out += 8;
	}
	*len = (long)n - (long)(n8 - out);
	if (*len >= 72) {
		*edge = m[*len + 8];
		memset(m + *len + 8, 0, 24);
	}
}

int v4lc_ov518_decode(const uint8_t *src, size_t n, uint8_t *out, int w, int h,
		      int yvu, uint8_t *work, unsigned *notes)
{
	size_t size = v4lc_ov51x_out_size(w, h);
	size_t wh = (size_t)w * (size_t)h;
	size_t cstride = (size_t)w / 2;
	struct out o = { out, size, w % 16 || h % 8 };
	struct comp cy = { &vlc_tab[0], &vlc_tab[2], 0, { 0 }, 1 };
	struct comp cu = { &vlc_tab[1], &vlc_tab[3], 0, { 0 }, 0 };
	struct comp cv = cu;
	struct reader r = { NULL, 0, 0, 0 };
	size_t ubase = wh, vbase = wh + wh / 4;
	const uint8_t *m;
	long pos = 0, b;

	if (notes)
		*notes = 0;
	if (!size)
		return -EINVAL;
	if (n > V4LC_OV518_MAX_IN)
		return -EAGAIN;
	pthread_once(&vlc_once, vlc_init);
	prepare(src, n, work, &r.len, &r.edge);
	if (r.len < 72)
		return -EAGAIN;
	m = work + 8;
	r.s = m + 8;
	for (int j = 0; j < 32; j++) {
		cy.q[j] = m[r.len - 64 + j] + 1u;
		cu.q[j] = cv.q[j] = m[r.len - 32 + j] + 1u;
	}
	if (yvu) {
		ubase = wh + wh / 4;
		vbase = wh;
	}
	if (o.clip)
		memset(out, 0, size);
	for (long y = 0; y == 0 || y < h; y += 8) {
		size_t yoff = (size_t)w * (size_t)y;
		size_t coff = (size_t)w * (size_t)y / 4;

		for (long x = 0; x == 0 || x < w; x += 8, yoff += 8)
			block(&r, &pos, &cy, &o, yoff, (size_t)w);
		yoff = (size_t)w * (size_t)(y + 4);
		for (long x = 0; x == 0 || x < w; x += 16, coff += 8) {
			block(&r, &pos, &cu, &o, ubase + coff, cstride);
			block(&r, &pos, &cv, &o, vbase + coff, cstride);
			block(&r, &pos, &cy, &o, yoff, (size_t)w);
			block(&r, &pos, &cy, &o, yoff + 8, (size_t)w);
			yoff += 16;
		}
		/* Past the zero tail the reader only moves forward. */
		if ((pos >> 3) > r.len + 897)
			break;
	}
	if (notes)
		*notes = r.notes;
	b = pos >> 3;
	return b >= r.len - 961 && b <= r.len + 897 ? 0 : -EAGAIN;
}
