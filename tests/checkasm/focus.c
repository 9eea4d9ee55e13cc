/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <stdio.h>

#include "checkasm.h"

static int run(const uint8_t *a, const uint8_t *c, const uint8_t *b, int width)
{
	int64_t rs = 7, ns = 7; /* the kernels add to what is there */
	uint64_t rq = 11, nq = 11;

	checkasm_ref->focus.laplacian(a, c, b, width, &rs, &rq);
	checkasm_new->focus.laplacian(a, c, b, width, &ns, &nq);
	if (rs != ns || rq != nq) {
		checkasm_fail("width %d: sum %lld/%lld, sumsq %llu/%llu", width,
			      (long long)rs, (long long)ns,
			      (unsigned long long)rq, (unsigned long long)nq);
		return 0;
	}
	return 1;
}

/* |L| = 1020 at every pixel: the largest sums, across 32-bit folds. */
static int run_extreme(int width)
{
	uint8_t *a = checkasm_in_alloc((size_t)width);
	uint8_t *c = checkasm_in_alloc((size_t)width);
	uint8_t *b = checkasm_in_alloc((size_t)width);
	int ok;

	for (int x = 0; x < width; x++) {
		c[x] = x & 1 ? 255 : 0;
		a[x] = b[x] = x & 1 ? 0 : 255;
	}
	ok = run(a, c, b, width);
	checkasm_in_free(a);
	checkasm_in_free(c);
	checkasm_in_free(b);
	return ok;
}

static void check_laplacian(void)
{
	static const int wide[] = { 4095, 4096, 4097, 4098, 4113, 8193, 12345 };
	int ok = 1;

	if (!checkasm_func(checkasm_new->focus.laplacian,
			   checkasm_ref->focus.laplacian, "focus_laplacian"))
		return;
	for (int w = 0; w < checkasm_nwidths && ok; w++) {
		int width = checkasm_widths[w];
		uint8_t *a = checkasm_in_alloc((size_t)width);
		uint8_t *c = checkasm_in_alloc((size_t)width);
		uint8_t *b = checkasm_in_alloc((size_t)width);

		for (int kind = 0; kind < CHECKASM_PATTERNS && ok; kind++) {
			checkasm_pattern(a, (size_t)width, kind);
			checkasm_pattern(c, (size_t)width, (kind + 1) % 3);
			checkasm_pattern(b, (size_t)width, kind);
			ok = run(a, c, b, width);
		}
		{
			int64_t s = 0;
			uint64_t q = 0;

			checkasm_bench(width, width,
				       checkasm_ref->focus.laplacian(a, c, b,
								     width, &s,
								     &q),
				       checkasm_new->focus.laplacian(a, c, b,
								     width, &s,
								     &q));
		}
		checkasm_in_free(a);
		checkasm_in_free(c);
		checkasm_in_free(b);
		if (ok)
			ok = run_extreme(width);
	}
	for (size_t i = 0; i < sizeof(wide) / sizeof(wide[0]) && ok; i++)
		ok = run_extreme(wide[i]);
	checkasm_report();
}

void checkasm_check_focus(void)
{
	check_laplacian();
}
