/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* proc kernels, the specification (see dispatch/dsp_proc.h). */
#include <string.h>

#include "scalar/proc.h"

void v4lc_proc_sum4_c(const uint8_t *src, int n, uint32_t sum[4])
{
	uint32_t s[4] = { 0, 0, 0, 0 };
	int i = 0;

	for (; i + 4 <= n; i += 4) {
		s[0] += src[i];
		s[1] += src[i + 1];
		s[2] += src[i + 2];
		s[3] += src[i + 3];
	}
	for (; i < n; i++)
		s[i & 3] += src[i];
	for (int k = 0; k < 4; k++)
		sum[k] = s[k];
}

void v4lc_proc_sum3_c(const uint8_t *src, int width, uint32_t sum[3])
{
	uint32_t s0 = 0, s1 = 0, s2 = 0;

	for (int j = 0; j < width; j++, src += 3) {
		s0 += src[0];
		s1 += src[1];
		s2 += src[2];
	}
	sum[0] = s0;
	sum[1] = s1;
	sum[2] = s2;
}

/*
 * The lookups read four source bytes as one word and write one word
 * (little-endian hosts): fewer loads and stores than byte by byte, and in
 * place still works (each word is read before it is written).
 */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define V4LC_PROC_WORDS 1
#else
#define V4LC_PROC_WORDS 0
#endif

static inline uint32_t look4(uint32_t s, const uint8_t *a, const uint8_t *b,
			     const uint8_t *c, const uint8_t *d)
{
	return (uint32_t)a[s & 255] | (uint32_t)b[(s >> 8) & 255] << 8 |
	       (uint32_t)c[(s >> 16) & 255] << 16 | (uint32_t)d[s >> 24] << 24;
}

void v4lc_proc_lut4_c(const uint8_t *src, uint8_t *dst, int n,
		      const uint8_t lut[4][256])
{
	int i = 0;

	if (V4LC_PROC_WORDS) {
		for (; i + 8 <= n; i += 8) {
			uint32_t s0, s1;

			memcpy(&s0, src + i, 4);
			memcpy(&s1, src + i + 4, 4);
			s0 = look4(s0, lut[0], lut[1], lut[2], lut[3]);
			s1 = look4(s1, lut[0], lut[1], lut[2], lut[3]);
			memcpy(dst + i, &s0, 4);
			memcpy(dst + i + 4, &s1, 4);
		}
	}
	for (; i + 4 <= n; i += 4) {
		uint8_t a = lut[0][src[i]], b = lut[1][src[i + 1]];
		uint8_t c = lut[2][src[i + 2]], d = lut[3][src[i + 3]];

		dst[i] = a;
		dst[i + 1] = b;
		dst[i + 2] = c;
		dst[i + 3] = d;
	}
	for (; i < n; i++)
		dst[i] = lut[i & 3][src[i]];
}

void v4lc_proc_lut3_c(const uint8_t *src, uint8_t *dst, int width,
		      const uint8_t lut[3][256])
{
	const uint8_t *l0 = lut[0], *l1 = lut[1], *l2 = lut[2];
	int j = 0;

	if (V4LC_PROC_WORDS) {
		/* four pixels: three words, the tables in turn */
		for (; j + 4 <= width; j += 4, src += 12, dst += 12) {
			uint32_t s0, s1, s2;

			memcpy(&s0, src, 4);
			memcpy(&s1, src + 4, 4);
			memcpy(&s2, src + 8, 4);
			s0 = look4(s0, l0, l1, l2, l0);
			s1 = look4(s1, l1, l2, l0, l1);
			s2 = look4(s2, l2, l0, l1, l2);
			memcpy(dst, &s0, 4);
			memcpy(dst + 4, &s1, 4);
			memcpy(dst + 8, &s2, 4);
		}
	}
	for (; j < width; j++, src += 3, dst += 3) {
		uint8_t a = l0[src[0]], b = l1[src[1]], c = l2[src[2]];

		dst[0] = a;
		dst[1] = b;
		dst[2] = c;
	}
}

void v4lc_proc_init_c(struct v4lc_proc_dsp *dsp)
{
	dsp->sum4 = v4lc_proc_sum4_c;
	dsp->sum3 = v4lc_proc_sum3_c;
	dsp->lut4 = v4lc_proc_lut4_c;
	dsp->lut3 = v4lc_proc_lut3_c;
}
