/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * MSB-first bit reader for the chip decoders: a 64-bit buffer refilled by
 * one unaligned big-endian load while at least 8 bytes remain, and byte by
 * byte near the end, where bytes past the input read as zero (never
 * touched in memory). `over` tells whether more bits were consumed than the
 * input holds.
 */
#ifndef V4LC_LIBV4LCONVERT_CHIPBAYER_BITS_H
#define V4LC_LIBV4LCONVERT_CHIPBAYER_BITS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct v4lc_bits {
	const uint8_t *src;
	size_t size;
	size_t pos;   /* next byte to load */
	uint64_t buf; /* the next bits, MSB first */
	unsigned cnt; /* valid bits in buf */
};

static inline void v4lc_bits_init(struct v4lc_bits *b, const uint8_t *src,
				  size_t size)
{
	b->src = src;
	b->size = size;
	b->pos = 0;
	b->buf = 0;
	b->cnt = 0;
}

/* Make at least 56 bits valid. */
static inline void v4lc_bits_refill(struct v4lc_bits *b)
{
	if (b->cnt >= 56)
		return;
	if (b->pos <= b->size && b->size - b->pos >= 8) {
		uint64_t v;

		memcpy(&v, b->src + b->pos, 8);
		v = __builtin_bswap64(v);
		b->buf |= v >> b->cnt;
		b->pos += (63 - b->cnt) >> 3;
		b->cnt |= 56;
		return;
	}
	while (b->cnt <= 56) {
		uint64_t byte = b->pos < b->size ? b->src[b->pos] : 0;

		b->pos++;
		b->buf |= byte << (56 - b->cnt);
		b->cnt += 8;
	}
}

/* The next n (1 .. 32) bits without consuming them; needs cnt >= n. */
static inline uint32_t v4lc_bits_peek(const struct v4lc_bits *b, unsigned n)
{
	return (uint32_t)(b->buf >> (64 - n));
}

static inline void v4lc_bits_skip(struct v4lc_bits *b, unsigned n)
{
	b->buf <<= n;
	b->cnt -= n;
}

/* Bits consumed so far. */
static inline uint64_t v4lc_bits_used(const struct v4lc_bits *b)
{
	return (uint64_t)b->pos * 8 - b->cnt;
}

/* More bits consumed than the input holds. */
static inline int v4lc_bits_over(const struct v4lc_bits *b)
{
	return v4lc_bits_used(b) > (uint64_t)b->size * 8;
}

static inline uint8_t v4lc_clamp255(int v)
{
	return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
}

#endif
