/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The tests' random numbers: Marsaglia's xorshift generators, fast and
 * reproducible from their seed (every test keeps its own state and seed,
 * so that its data does not depend on what other code drew). The state
 * must not be 0.
 */
#ifndef V4LC_TEST_RNG_H
#define V4LC_TEST_RNG_H

#include <stdint.h>

/* xorshift32, shifts 13, 17, 5. */
static inline uint32_t xorshift32(uint32_t *state)
{
	uint32_t x = *state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *state = x;
}

/* xorshift64, shifts 13, 7, 17. */
static inline uint64_t xorshift64(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *state = x;
}

/* xorshift64*: shifts 12, 25, 27, then a multiply; the high half. */
static inline uint32_t xorshift64star(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return (uint32_t)((x * 0x2545f4914f6cdd1dull) >> 32);
}

#endif
