/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * RGB24/BGR24 -> YUV420 with SSE2 or AVX2 (no byte shuffle), VEC_BYTES
 * pixels per step, each 128-bit half of a vector holding 16 of them.
 *
 * Deinterleave: 48 bytes a[0..47] hold a[3p + c] for pixel p and channel c.
 * One "riffle" interleaves the first 24 bytes with the last 24
 * (n[2j] = a[j], n[2j + 1] = a[24 + j]): the byte at position i < 47 moves
 * to 2i mod 47. The wanted position of a[3p + c] is 16c + p, and
 * 3 * (16c + p) = 47c + i, so it is 16i = 2^4 i mod 47: four riffles leave
 * R, G and B in three registers, in pixel order. With registers v0, v1, v2
 * a riffle interleaves v0.lo with v1.hi, v0.hi with v2.lo and v1.lo with
 * v2.hi: two pshufd (v1.hi moved down; v2's halves swapped, which serves
 * both of its pairings, one through punpckhbw) and three punpck, all
 * within 128-bit halves.
 *
 * The fourth riffle is not done: its two inputs per channel are exactly
 * the even and the odd pixels, which are unpacked against zero (as the high
 * byte) to c << 8 in 16-bit lanes: the operands of v4lc_rgb_to_y, pmulhuw
 * by the Q16 weights. Even-pixel luma lands in the low byte (>> 8), odd
 * pixels in the high byte (& 0xff00) of each output lane.
 *
 * Chroma sums: with e = c_even << 8 and o = c_odd << 8, pavgw(e, o) is
 * (e + o + 1) >> 1 = (c_even + c_odd) << 7 exactly (e + o is even), and
 * pavgw of the two rows' results is the 2x2 sum << 6, again exactly: a sum,
 * not a rounded average. Then pmulhuw and wrapping 16-bit adds as in
 * v4lc_rgb_to_uv.
 *
 * The end of a row is one overlapped step ending at the last even pixel
 * (recomputing identical values), then the scalar kernel for an odd last
 * pixel or rows shorter than a step.
 *
 * Memory order: the two rows are not walked side by side (two interleaved
 * source streams restart the hardware prefetchers at every row pair and
 * lagged far behind memcpy on frames fresh from memory) but one after
 * the other within chunks of up to CHUNK pixels: the first row's luma and
 * pair sums (kept in a stack buffer, in L1), then the second row's luma
 * and the chroma. A software prefetch PF bytes ahead of each source row
 * (a hint: it cannot fault, and whatever lies there is never read) crosses
 * the 4 KiB pages the hardware prefetchers stop at: it brought frames
 * fresh from memory close to the in-cache rate, and 2048 bytes ahead beat
 * 1024 and 4096 (bench/results/choices.md).
 *
 * The entry file defines, then includes this one:
 *   load3(s, v): the 3 * VEC_BYTES bytes at s as three vectors, 48 bytes
 *     (16 pixels) per 128-bit half;
 *   store_uv(uv, u, v): VEC_BYTES / 2 U and V bytes, per 128-bit half 8 U
 *     bytes then 8 V bytes, to u and v;
 *   or, instead of load3 and the riffles, RGB2YUV_LOAD_PIXELS and
 *     load_pixels(s, e, o): VEC_BYTES pixels at s to the even and odd
 *     pixels of channel 0, 1, 2 (memory order), each as c << 8 in 16-bit
 *     lanes.
 */
#include "scalar/rgb2yuv.h"
#include "simd/row_any.h"
#include "x86/prefetch.h"
#include "x86/rgb2yuv.h"

#ifndef RGB2YUV_LOAD_PIXELS
static inline void riffle(vec *v0, vec *v1, vec *v2)
{
	vec h1 = V(shuffle_epi32)(*v1, 0xee); /* v1.hi in the low half */
	vec s2 = V(shuffle_epi32)(*v2, 0x4e); /* v2's halves swapped */
	vec a = V(unpacklo_epi8)(*v0, h1);
	vec b = V(unpackhi_epi8)(*v0, s2);
	vec c = V(unpacklo_epi8)(*v1, s2);

	*v0 = a;
	*v1 = b;
	*v2 = c;
}

/*
 * VEC_BYTES pixels at s: even and odd pixels of channel 0, 1, 2 (memory
 * order), each as c << 8 in 16-bit lanes.
 */
static inline void load_pixels(const uint8_t *s, vec e[3], vec o[3])
{
	const vec z = VSI(setzero)();
	vec v[3];

	load3(s, v);
	riffle(&v[0], &v[1], &v[2]);
	riffle(&v[0], &v[1], &v[2]);
	riffle(&v[0], &v[1], &v[2]);
	/* The fourth riffle would interleave v0.lo|v1.hi, v0.hi|v2.lo and
	 * v1.lo|v2.hi: even|odd pixels of each channel. */
	e[0] = V(unpacklo_epi8)(z, v[0]);
	o[0] = V(unpackhi_epi8)(z, v[1]);
	e[1] = V(unpackhi_epi8)(z, v[0]);
	o[1] = V(unpacklo_epi8)(z, v[2]);
	e[2] = V(unpacklo_epi8)(z, v[1]);
	o[2] = V(unpackhi_epi8)(z, v[2]);
}
#endif

/*
 * One row of VEC_BYTES pixels: luma to dst, and per channel the pair sums
 * << 7 (pavgw of even and odd, exact: see the top of the file).
 */
static inline void row_step(const struct rgb2yuv_consts *k, const uint8_t *src,
			    int ri, int bi, uint8_t *dst, vec pair[3])
{
	vec e[3], o[3], se, so;

	load_pixels(src, e, o);
	se = luma_sum(k, e[ri], e[1], e[bi]);
	so = luma_sum(k, o[ri], o[1], o[bi]);
	v_store(dst, VSI(or)(V(srli_epi16)(se, 8),
			     VSI(and)(so, V(set1_epi16)((short)0xff00))));
	pair[0] = V(avg_epu16)(e[ri], o[ri]);
	pair[1] = V(avg_epu16)(e[1], o[1]);
	pair[2] = V(avg_epu16)(e[bi], o[bi]);
}

/* U and V of VEC_BYTES / 2 pixel pairs from both rows' pair sums. */
static inline void chroma_step(const struct rgb2yuv_consts *k, const vec p0[3],
			       const vec p1[3], uint8_t *u, uint8_t *v)
{
	/* 2x2 block sums << 6: pavgw of the pair sums << 7, exact. */
	store_uv(chroma_uv(k, V(avg_epu16)(p0[0], p1[0]),
			   V(avg_epu16)(p0[1], p1[1]),
			   V(avg_epu16)(p0[2], p1[2])),
		 u, v);
}

#define CHUNK 2048 /* pixels of one row per pass */
#define PF 2048    /* prefetch distance in source bytes */

/* One prefetch per 48 source bytes (a step reads 3 * VEC_BYTES). */
static inline void prefetch_step(const uint8_t *s)
{
	for (int b = 0; b < 3 * VEC_BYTES; b += 48)
		v_prefetch(s + PF + b);
}

static inline __attribute__((always_inline)) void
rows(const uint8_t *src0, const uint8_t *src1, uint8_t *y0, uint8_t *y1,
     uint8_t *u, uint8_t *v, int width, const struct v4lc_rgb2yuv *kp, int bgr)
{
	const int n = VEC_BYTES, ri = bgr ? 2 : 0, bi = bgr ? 0 : 2;
	struct rgb2yuv_consts k;
	int x = 0;

	rgb2yuv_consts_init(&k, kp);
	/* Row by row within a chunk: the first row's pair sums wait in buf,
	 * so the source is read in long runs, one row after the other. */
	while (x + n <= width) {
		vec buf[CHUNK / VEC_BYTES * 3];
		int end = width - x > CHUNK ? x + CHUNK : width, x0 = x;

		for (int i = 0; x + n <= end; x += n, i += 3) {
			prefetch_step(src0 + 3 * x);
			row_step(&k, src0 + 3 * x, ri, bi, y0 + x, buf + i);
		}
		for (int i = 0, xx = x0; xx + n <= end; xx += n, i += 3) {
			vec p1[3];

			prefetch_step(src1 + 3 * xx);
			row_step(&k, src1 + 3 * xx, ri, bi, y1 + xx, p1);
			chroma_step(&k, buf + i, p1, u + xx / 2, v + xx / 2);
		}
	}
	if (x > 0 && x < (width & ~1)) {
		/* Overlap: one step ending at the last even pixel. */
		vec p0[3], p1[3];

		x = (width & ~1) - n;
		row_step(&k, src0 + 3 * x, ri, bi, y0 + x, p0);
		row_step(&k, src1 + 3 * x, ri, bi, y1 + x, p1);
		chroma_step(&k, p0, p1, u + x / 2, v + x / 2);
		x = width & ~1;
	}
	if (x < width)
		(bgr ? v4lc_rgb2yuv_bgr24_to_yuv420_c
		     : v4lc_rgb2yuv_rgb24_to_yuv420_c)(src0 + 3 * x,
						       src1 + 3 * x, y0 + x,
						       y1 + x, u + x / 2,
						       v + x / 2, width - x,
						       kp);
}

/*
 * RGB2YUV_TO_YUV420(fn, bgr) defines the kernel `fn`, the to_yuv420[]
 * entry of RGB24 (BGR24 if bgr). The entry file names its kernels in it
 * and in its v4lc_rgb2yuv_init_<isa>.
 */
#define RGB2YUV_TO_YUV420(fn, bgr)                                             \
	static void fn(const uint8_t *src0, const uint8_t *src1, uint8_t *y0,  \
		       uint8_t *y1, uint8_t *u, uint8_t *v, int width,         \
		       const struct v4lc_rgb2yuv *k)                           \
	{                                                                      \
		rows(src0, src1, y0, y1, u, v, width, k, bgr);                 \
	}
