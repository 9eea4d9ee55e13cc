/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * SPCA561 (S561) frames: adaptive compressed GBRG Bayer; the format is
 * described in doc/formats/s561.md.
 *
 * Layout: a 20-byte header (ignored), rows 0 and 1 as plain bytes, then one
 * MSB-first bit stream for rows 2 .. height-1 in raster order, in blocks
 * of 32 pixels (which may span rows). Each block starts with a mode:
 * 0 -> 0, 10 -> 1, 11 -> 2. Each pixel is predicted from pixels of its own
 * colour (distance 2): P = trunc((3 (U + L) - 2 UL) / 4) (L = UL = U in
 * the first two columns), and its code gives a symbol v; the pixel is
 * clamp(P - trunc(curve(v) m / 2)), m = 1, 2, 4 or 8 from the gradients,
 * the block mode and the position. The code table (six of them, A .. F)
 * follows per-context statistics (context: the classes of UL-L, U-UL,
 * UR-U) of the recent symbol magnitudes.
 *
 * Each table is a 256-entry array over the next 8 bits (every code but the
 * escapes is at most 8 bits long); an entry gives the code length, the
 * symbol's magnitude for the statistics and its curve value. The escapes
 * (longer codes, rare) and the invalid codes take a slow path.
 *
 * Behaviour where the format leaves things open (ours, documented):
 *  - an invalid code: the frame is corrupt, -EAGAIN (the original keeps
 *    its output untouched and reports nothing);
 *  - data running out: bytes past the end read as zero; -EPIPE when the
 *    bit stream went past the end, or when an invalid code needed bits
 *    past the end (then the rest of the picture is filled as below);
 *  - P - Q outside -256 .. 511 (possible with extreme pixels) clamps to
 *    0 .. 255 like the rest (the original reads neighbouring tables);
 *  - the last ((height - 2) * width) % 32 pixels, which the stream does not
 *    code (no real mode has any), and pixels after a premature end are
 *    copies of the pixel two rows above (same colour);
 *  - width < 4: the missing up-right neighbour of the first two columns is
 *    taken equal to the one above (its gradient class is 0).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "chipbayer.h"
#include "chipbayer_bits.h"

/*
 * Flags of v4lc_s561_decode: a value P - Q outside -256 .. 511 was
 * clamped; decoding stopped at an invalid code.
 */
#define V4LC_S561_CLAMPED 1u
#define V4LC_S561_STOPPED 2u

/*
 * Code entry: bits 0-3 code length (0: an escape or an invalid code),
 * bits 4-7 magnitude for the statistics, bits 16-31 curve(v) (signed).
 */
static uint32_t s561_code[6][256];
/* Gradient class of d + 255. */
static uint8_t s561_class[511];
/* Table of a context's statistics (H << 8 | A). */
static uint8_t s561_select[16 << 8];

static const uint8_t s561_curve[20] = { 0,  2,  5,   8,   12,  18, 24,
					32, 40, 48,  56,  64,  72, 80,
					88, 98, 112, 128, 144, 160 };

/* v = 237 stands for the original's special symbol: curve 0, magnitude 0. */
#define S561_V237 237

static uint32_t s561_entry(int v, unsigned len)
{
	int k, mag;

	if (v == S561_V237) {
		k = 0;
		mag = 0;
	} else {
		int a = v < 0 ? -v : v;

		k = v < 0 ? -s561_curve[a] : s561_curve[a];
		mag = v == 19 ? 0 : a > 15 ? 15 : a;
	}
	return (uint32_t)(uint16_t)(int16_t)k << 16 | (uint32_t)mag << 4 | len;
}

/* Fill the entries of code word `code` (len bits) in table t. */
static void s561_put(int t, unsigned code, unsigned len, int v)
{
	unsigned first = code << (8 - len), n = 1u << (8 - len);

	for (unsigned i = 0; i < n; i++)
		s561_code[t][first + i] = s561_entry(v, len);
}

static void s561_init(void)
{
	static const struct {
		uint8_t code, len;
		int8_t v;
	} a[] = { { 0x0, 1, 0 },   { 0x7, 3, 1 },   { 0x5, 3, -1 },
		  { 0x18, 5, 2 },  { 0x19, 5, 3 },  { 0x1a, 5, -2 },
		  { 0x1b, 5, -3 }, { 0x80, 8, 11 }, { 0x81, 8, -11 } };

	memset(s561_code, 0, sizeof(s561_code));
	/* A */
	for (size_t i = 0; i < sizeof(a) / sizeof(a[0]); i++)
		s561_put(0, a[i].code, a[i].len, a[i].v);
	for (int j = 1; j <= 7; j++) {
		s561_put(0, 0x40 | (unsigned)j, 7, 3 + j);    /* 1000jjj */
		s561_put(0, 0x48 | (unsigned)j, 7, -(3 + j)); /* 1001jjj */
	}
	/* B: n zeros and a one, n = 0 .. 7 */
	for (int n = 0; n < 8; n++)
		s561_put(1, 1, (unsigned)n + 1, n & 1 ? -((n + 1) / 2) : n / 2);
	/* C: 1s -> 0, -1; then n zeros, 1, s: +n, -(n + 1) (n = 1 .. 6) */
	s561_put(2, 2, 2, 0);
	s561_put(2, 3, 2, -1);
	for (int n = 1; n <= 6; n++) {
		s561_put(2, 2, (unsigned)n + 2, n);
		s561_put(2, 3, (unsigned)n + 2, -(n + 1));
	}
	/* D: 1ss -> 0 -1 +1 -2; then n zeros, 1, ss (n = 1 .. 5) */
	for (int n = 0; n <= 5; n++)
		for (int s = 0; s < 4; s++) {
			int base = n == 0 ? 0 : 2 * n;
			int v = s & 1 ? -(base + 1 + (s >> 1))
				      : base + (s >> 1);

			s561_put(3, 4 | (unsigned)s, (unsigned)n + 3, v);
		}
	/* E: n zeros, 1, jjj (n = 0 .. 4) */
	for (int n = 0; n <= 4; n++)
		for (int j = 0; j < 8; j++) {
			int v = j & 1 ? -(4 * n + (j + 1) / 2) : 4 * n + j / 2;

			if (n == 4 && j == 7)
				v = -19;
			s561_put(4, 8 | (unsigned)j, (unsigned)n + 4, v);
		}
	/* F: 1jjjj, 01jjjj, 0010jjj (j < 7) */
	for (int j = 0; j < 16; j++) {
		int v = j & 1 ? -((j + 1) / 2) : j / 2;

		s561_put(5, 16 | (unsigned)j, 5, v);
		s561_put(5, 16 | (unsigned)j, 6, v < 0 ? v - 8 : v + 8);
		if (j < 7)
			s561_put(5, 16 | (unsigned)j, 7,
				 v < 0 ? v - 16 : v + 16);
	}

	for (int d = -255; d <= 255; d++)
		s561_class[d + 255] = d <= -21  ? 7
				      : d <= -7 ? 5
				      : d <= -3 ? 3
				      : d <= -1 ? 1
				      : d == 0  ? 0
				      : d <= 2  ? 2
				      : d <= 6  ? 4
						: 6;
	for (int h = 0; h < 16; h++)
		for (int a2 = 0; a2 < 256; a2++)
			s561_select[h << 8 | a2] =
				(uint8_t)(h < 7 ? 0
						: 1 + (a2 > h) + (a2 > 2 * h) +
							  (a2 > 4 * h) +
							  (a2 > 8 * h));
}

/*
 * The escape or invalid code at the start of w16 (the next 16 bits) in
 * table t, whose 8-bit entry has length 0: its entry with its length
 * (9 .. 15), or for an invalid code length 0 and in bits 4-7 the number
 * of bits that make it invalid.
 */
static uint32_t s561_escape(int t, unsigned w16)
{
	unsigned w8 = w16 >> 8, p;
	int v;

	switch (t) {
	case 0: /* 10010001 tttt; 10010000 is invalid */
		if (w8 != 0x91)
			break;
		p = (w16 >> 4) & 15;
		v = p < 8 ? 12 + (int)p : -(4 + (int)p);
		return s561_entry(v, 12);
	case 1: /* 00000000 ttttttt, t = 68 .. 115 */
		p = (w16 >> 1) & 127;
		if (p < 68 || p > 115)
			return 15 << 4;
		p -= 68;
		v = p <= 15 ? 4 + (int)p : p <= 32 ? 0 : -((int)p - 28);
		return s561_entry(v, 15);
	case 2:
		if (w8 == 1) /* 00000001 b */
			return s561_entry((w16 >> 7) & 1 ? -8 : 7, 9);
		/* 00000000 ttttttt, t = 72 .. 115 */
		p = (w16 >> 1) & 127;
		if (p < 72 || p > 115)
			return 15 << 4;
		p -= 72;
		v = p <= 11 ? 8 + (int)p : p <= 32 ? 0 : -((int)p - 24);
		return s561_entry(v, 15);
	case 3:
		if (w8 == 2 || w8 == 3) { /* 0000001x b */
			int base = w8 == 2 ? 12 : 13;

			return s561_entry((w16 >> 7) & 1 ? -(base + 1) : base,
					  9);
		}
		if (w8 == 1) { /* 00000001 bb */
			static const int8_t vs[4] = { 14, -15, 15, -16 };

			return s561_entry(vs[(w16 >> 6) & 3], 10);
		}
		p = (w16 >> 5) & 7; /* 00000000 ppp */
		if (p >= 4) {
			static const int8_t vs[4] = { 16, -17, 17, -18 };

			return s561_entry(vs[p & 3], 11);
		}
		if (p >= 2) /* 010 x, 011 x */
			return s561_entry(p == 2 && (w16 & 16) ? S561_V237 : 18,
					  12);
		return 11 << 4;
	case 4: /* 00000xxx */
		return 5 << 4;
	default: /* 000xxxxx, 0011xxxx, 0010111x */
		return (w8 < 0x20 ? 3u : w8 >= 0x30 ? 4u : 7u) << 4;
	}
	return 8 << 4;
}

/*
 * The coded pixels: the first ndec pixels of rows 2 .. height - 1 from the
 * bit stream b. Returns ndec, or the index (from the start of row 2) of the
 * pixel where an invalid code stopped, with *bad the number of bits that
 * make it invalid. *oor: a value P - Q was outside -256 .. 511.
 */
static inline __attribute__((always_inline)) size_t
s561_pixels(struct v4lc_bits *bp, uint8_t *dst, size_t w, int height,
	    size_t ndec, unsigned *oor_out, unsigned *bad)
{
	struct v4lc_bits b = *bp;
	uint16_t st[512]; /* per context: statistics H << 8 | A */
	unsigned oor = 0, k = 0, mode, msh[2] = { 2, 3 };
	size_t done = 0, x = 0;

	memset(st, 0, sizeof(st));
	for (int y = 2; y < height && done < ndec; y++) {
		uint8_t *row = dst + (size_t)y * w;
		const uint8_t *up = row - 2 * w;
		size_t xend = ndec - done < w ? ndec - done : w;
		unsigned yeven = !(y & 1);
		int l0 = 0, l1 = 0; /* the pixels at x - 2 and x - 1 */

		for (x = 0; x < xend; x++) {
			int U = up[x], L, UL, dL, dC, dR, P, v, o, km;
			unsigned c, h, a, wrap, sh, st1;
			uint32_t e;

			if (b.cnt < 24)
				v4lc_bits_refill(&b);
			if (k == 0) { /* a block's mode: 0, 10, 11 */
				unsigned hd = v4lc_bits_peek(&b, 2);

				mode = hd >> 1 ? hd - 1 : 0;
				v4lc_bits_skip(&b, hd >> 1 ? 2 : 1);
				/* log2 of m from rules 3 to 5 (without, with
				 * dC + dL >= 11) */
				msh[0] = mode == 1 ? 1 : mode == 2 ? 3 : 2;
				msh[1] = mode == 1 ? 1 : 3;
			}
			if (x >= 2) {
				L = l0;
				UL = up[x - 2];
				dL = s561_class[UL - L + 255];
				dC = s561_class[U - UL + 255];
				dR = x + 2 < w ? s561_class[up[x + 2] - U + 255]
					       : 0;
			} else {
				L = UL = U;
				dL = dC = 0;
				dR = x + 2 < w ? s561_class[up[x + 2] - U + 255]
					       : 0;
			}
			c = (unsigned)(dL << 6 | dC << 3 | dR);

			/* the multiplier m = 1 << sh (rules 1 to 5) */
			if (yeven && !(k & 3) && L + 2 * U <= 144 && dR < 5 &&
			    dC < 5 && dL < 5)
				sh = 0;
			else if (L <= 48 && dL >= 1 && dL <= 4 && dC >= 1 &&
				 dC <= 4)
				sh = 1;
			else
				sh = msh[dC + dL >= 11];

			st1 = st[c];
			e = s561_code[s561_select[st1]][v4lc_bits_peek(&b, 8)];
			if (__builtin_expect(!(e & 15), 0)) {
				e = s561_escape(s561_select[st1],
						v4lc_bits_peek(&b, 16));
				if (!(e & 15)) {
					*bad = (e >> 4) & 15;
					done += x;
					goto out;
				}
			}
			v4lc_bits_skip(&b, e & 15);
			P = (3 * (U + L) - 2 * UL) / 4;
			km = (int)(int16_t)(e >> 16) * (1 << sh);
			v = P - ((km + (km < 0)) >> 1);
			oor |= (unsigned)(v + 256) > 767u;
			o = v < 0 ? 0 : v > 255 ? 255 : v;
			row[x] = (uint8_t)o;
			l0 = l1;
			l1 = o;

			h = st1 >> 8;
			a = (st1 & 255) + ((e >> 4) & 15);
			wrap = h == 15;
			st[c] = (uint16_t)((h + 1 - 8 * wrap) << 8 | a >> wrap);
			k = (k + 1) & 31;
		}
		done += xend;
	}
out:
	*bp = b;
	*oor_out = oor;
	return done;
}

/* Rows 0 and 1, plain bytes after the header. 1 when the frame ends
 * before them (the rest is zero). */
static int s561_raw_rows(const uint8_t *src, size_t size, uint8_t *dst,
			 size_t w, int height)
{
	int over = 0;

	for (int r = 0; r < 2 && r < height; r++) {
		size_t at = 20 + (size_t)r * w, n = 0;

		if (at < size)
			n = size - at < w ? size - at : w;
		memcpy(dst + (size_t)r * w, src + at, n);
		if (n < w) {
			memset(dst + (size_t)r * w + n, 0, w - n);
			over = 1;
		}
	}
	return over;
}

/* Pixels from i on: copies of the pixel two rows above (same colour). */
static void s561_fill(uint8_t *dst, size_t w, int height, size_t i)
{
	for (; i < (size_t)height * w; i++)
		dst[i] = dst[i - 2 * w];
}

/* Decode into dst (width x height); *flags (may be NULL): V4LC_S561_*. */
static int v4lc_s561_decode(const uint8_t *src, size_t size, uint8_t *dst,
			    int width, int height, unsigned *flags, char *err,
			    size_t errlen)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	size_t w = (size_t)width, ndec, start, stop;
	struct v4lc_bits b;
	unsigned oor = 0, bad = 0;
	int over;

	pthread_once(&once, s561_init);
	if (flags)
		*flags = 0;
	if (width <= 0 || height <= 0) {
		if (err)
			snprintf(err, errlen, "bad SPCA561 frame size");
		return -EINVAL;
	}
	over = s561_raw_rows(src, size, dst, w, height);
	if (height <= 2)
		goto end;

	ndec = (size_t)(height - 2) * w / 32 * 32;
	start = 20 + 2 * w;
	v4lc_bits_init(&b, start < size ? src + start : src,
		       start < size ? size - start : 0);
	stop = s561_pixels(&b, dst, w, height, ndec, &oor, &bad);
	if (stop == ndec) {
		over |= v4lc_bits_over(&b);
		/* the pixels the stream does not code */
		s561_fill(dst, w, height, 2 * w + ndec);
		goto end;
	}
	if (flags)
		*flags |= V4LC_S561_STOPPED;
	if (v4lc_bits_used(&b) + bad <= (uint64_t)b.size * 8) {
		if (flags && oor)
			*flags |= V4LC_S561_CLAMPED;
		if (err)
			snprintf(err, errlen,
				 "invalid code in SPCA561 frame at row %d",
				 2 + (int)(stop / w));
		return -EAGAIN;
	}
	/* the zeros past the end made it invalid: a short frame; the pixel
	 * being decoded and every later one are filled */
	over = 1;
	s561_fill(dst, w, height, 2 * w + stop);
end:
	if (flags && oor)
		*flags |= V4LC_S561_CLAMPED;
	if (over) {
		if (err)
			snprintf(err, errlen, "short SPCA561 frame: %zu bytes",
				 size);
		return -EPIPE;
	}
	return 0;
}

int v4lc_decode_s561(const uint8_t *src, size_t size, uint8_t *dst, int width,
		     int height, char *err, size_t errlen)
{
	return v4lc_s561_decode(src, size, dst, width, height, NULL, err,
				errlen);
}
