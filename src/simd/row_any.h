/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Any width from whole vector steps: the row loops SIMD kernels share.
 *
 * A SIMD kernel makes a row in steps of n pixels (a vector, or a few). When
 * the width is not a multiple of n, the row ends in one of two ways:
 *  - the scalar kernel makes the rest (V4LC_ANY_TAIL), or
 *  - the last step moves back to end exactly at the row end, rewriting
 *    pixels of the step before it with the same values (V4LC_STEPS,
 *    V4LC_ANY_BACK). That needs rows of at least n pixels, kernels that are
 *    out of place, and outputs that depend on the inputs only.
 *
 * The kernels are static functions named <kernel>_<isa>: each file of an
 * instruction set names its own, literally, where it defines them (often
 * through a definer macro of the family's shared rows, whose first
 * argument is the name) and where its v4lc_<family>_init_<isa> puts them
 * in the table, so that grep finds both.
 */
#ifndef V4LC_SIMD_ROW_ANY_H
#define V4LC_SIMD_ROW_ANY_H

/*
 * V4LC_STEPS(x, x0, n, end, step) runs the statement `step` at
 * x = x0, x0 + n, x0 + 2 n, ... while a whole step fits before `end`, then,
 * if pixels remain, once more at x = end - n: the last step moved back
 * (end - x0 >= n). `x + n == end` tells the last step, for kernels whose
 * other steps may write a little past their pixels. The loop counter is a
 * plain sum: no step waits for the one before it to find where it starts.
 */
#define V4LC_STEPS(x, x0, n, end, step)                                        \
	do {                                                                   \
		const int v4lc_last_ = (end) - (n);                            \
		int x = (x0);                                                  \
                                                                               \
		for (; x <= v4lc_last_; x += (n))                              \
			step;                                                  \
		if (x < v4lc_last_ + (n)) {                                    \
			x = v4lc_last_;                                        \
			step;                                                  \
		}                                                              \
	} while (0)

/*
 * The same, as a function, for loops whose body is more than one statement
 * (the tiles of the rotations): the start of the step counted at xs, which
 * is xs, or, for a last step that would not fit, end - n.
 *   for (xs = 0; xs < end; xs += n) { x = v4lc_step_at(xs, n, end); ... }
 */
static inline int v4lc_step_at(int xs, int n, int end)
{
	return xs + n > end ? end - n : xs;
}

/*
 * V4LC_ANY_TAIL(name, params, n, step, tail) defines the kernel
 *   static void name params
 * whose parameters include `width`: the statement `step` at
 * x = 0, n, 2 n, ... while a whole step fits, then the scalar call `tail`
 * for the pixels from x on, if any.
 */
#define V4LC_ANY_TAIL(name, params, n, step, tail)                             \
	static void name params                                                \
	{                                                                      \
		int x = 0;                                                     \
                                                                               \
		for (; x <= width - (n); x += (n))                             \
			step;                                                  \
		if (x < width)                                                 \
			tail;                                                  \
	}

/*
 * V4LC_ANY_BACK(name, params, n, step, small) defines the kernel
 *   static void name params
 * whose parameters include `width`: rows narrower than n by the scalar
 * call `small`, others by the statement `step` at x = 0, n, 2 n, ..., the
 * last step moved back to end at the row end.
 */
#define V4LC_ANY_BACK(name, params, n, step, small)                            \
	static void name params                                                \
	{                                                                      \
		if (width < (n)) {                                             \
			small;                                                 \
			return;                                                \
		}                                                              \
		V4LC_STEPS(x, 0, (n), width, step);                            \
	}

#endif
