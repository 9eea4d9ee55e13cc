/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <string.h>

#include "checkasm.h"

static void check_sums(void)
{
	if (checkasm_func(checkasm_new->proc.sum4, checkasm_ref->proc.sum4,
			  "proc_sum4")) {
		for (int w = 0; w < checkasm_nwidths; w++) {
			int n = checkasm_widths[w] * 2;
			uint8_t *src = checkasm_in_alloc((size_t)n);

			for (int kind = 0; kind < CHECKASM_PATTERNS; kind++) {
				uint32_t a[4], b[4];

				checkasm_pattern(src, (size_t)n, kind);
				checkasm_ref->proc.sum4(src, n, a);
				checkasm_new->proc.sum4(src, n, b);
				if (memcmp(a, b, sizeof(a)))
					checkasm_fail(
						"n %d pattern %d: %u %u %u %u"
						" vs %u %u %u %u",
						n, kind, a[0], a[1], a[2], a[3],
						b[0], b[1], b[2], b[3]);
			}
			{
				uint32_t a[4], b[4];

				checkasm_bench(n / 2, n,
					       checkasm_ref->proc.sum4(src, n,
								       a),
					       checkasm_new->proc.sum4(src, n,
								       b));
			}
			checkasm_in_free(src);
		}
		/* a long row of 255s: no lane overflows */
		{
			int n = 1 << 20;
			uint8_t *src = checkasm_in_alloc((size_t)n);
			uint32_t a[4], b[4];

			memset(src, 255, (size_t)n);
			checkasm_ref->proc.sum4(src, n, a);
			checkasm_new->proc.sum4(src, n, b);
			if (memcmp(a, b, sizeof(a)) || a[0] != 255u * (n / 4))
				checkasm_fail("long row: %u vs %u", a[0], b[0]);
			checkasm_in_free(src);
		}
		checkasm_report();
	}
	if (checkasm_func(checkasm_new->proc.sum3, checkasm_ref->proc.sum3,
			  "proc_sum3")) {
		for (int w = 0; w < checkasm_nwidths; w++) {
			int width = checkasm_widths[w];
			size_t size = (size_t)width * 3;
			uint8_t *src = checkasm_in_alloc(size);

			for (int kind = 0; kind < CHECKASM_PATTERNS; kind++) {
				uint32_t a[3], b[3];

				checkasm_pattern(src, size, kind);
				checkasm_ref->proc.sum3(src, width, a);
				checkasm_new->proc.sum3(src, width, b);
				if (memcmp(a, b, sizeof(a)))
					checkasm_fail(
						"width %d pattern %d: %u %u %u"
						" vs %u %u %u",
						width, kind, a[0], a[1], a[2],
						b[0], b[1], b[2]);
			}
			{
				uint32_t a[3], b[3];

				checkasm_bench(width, width,
					       checkasm_ref->proc.sum3(src,
								       width,
								       a),
					       checkasm_new->proc.sum3(src,
								       width,
								       b));
			}
			checkasm_in_free(src);
		}
		checkasm_report();
	}
}

static void random_luts(uint8_t lut[4][256])
{
	checkasm_randomise(&lut[0][0], 4 * 256);
}

static void check_luts(void)
{
	uint8_t lut[4][256];

	if (checkasm_func(checkasm_new->proc.lut4, checkasm_ref->proc.lut4,
			  "proc_lut4")) {
		for (int w = 0; w < checkasm_nwidths; w++) {
			int n = checkasm_widths[w] * 2;
			uint8_t *src = checkasm_in_alloc((size_t)n);
			uint8_t *ref = checkasm_out_alloc((size_t)n, 0);
			uint8_t *out = checkasm_out_alloc((size_t)n, 0);

			for (int kind = 0; kind < CHECKASM_PATTERNS; kind++) {
				random_luts(lut);
				checkasm_pattern(src, (size_t)n, kind);
				checkasm_ref->proc.lut4(src, ref, n,
							(const uint8_t(*)[256])
								lut);
				checkasm_new->proc.lut4(src, out, n,
							(const uint8_t(*)[256])
								lut);
				checkasm_check_bytes(ref, out, (size_t)n,
						     "lut4", n);
				/* in place */
				memcpy(out, src, (size_t)n);
				checkasm_new->proc.lut4(out, out, n,
							(const uint8_t(*)[256])
								lut);
				checkasm_check_bytes(ref, out, (size_t)n,
						     "lut4 in place", n);
			}
			checkasm_bench(
				n / 2, n,
				checkasm_ref->proc.lut4(src, ref, n,
							(const uint8_t(*)[256])
								lut),
				checkasm_new->proc.lut4(src, out, n,
							(const uint8_t(*)[256])
								lut));
			checkasm_in_free(src);
			checkasm_out_free(ref);
			checkasm_out_free(out);
		}
		checkasm_report();
	}
	if (checkasm_func(checkasm_new->proc.lut3, checkasm_ref->proc.lut3,
			  "proc_lut3")) {
		for (int w = 0; w < checkasm_nwidths; w++) {
			int width = checkasm_widths[w];
			size_t size = (size_t)width * 3;
			uint8_t *src = checkasm_in_alloc(size);
			uint8_t *ref = checkasm_out_alloc(size, 0);
			uint8_t *out = checkasm_out_alloc(size, 0);

			for (int kind = 0; kind < CHECKASM_PATTERNS; kind++) {
				random_luts(lut);
				checkasm_pattern(src, size, kind);
				checkasm_ref->proc.lut3(src, ref, width,
							(const uint8_t(*)[256])
								lut);
				checkasm_new->proc.lut3(src, out, width,
							(const uint8_t(*)[256])
								lut);
				checkasm_check_bytes(ref, out, size, "lut3",
						     width);
				memcpy(out, src, size);
				checkasm_new->proc.lut3(out, out, width,
							(const uint8_t(*)[256])
								lut);
				checkasm_check_bytes(ref, out, size,
						     "lut3 in place", width);
			}
			checkasm_bench(
				width, width,
				checkasm_ref->proc.lut3(src, ref, width,
							(const uint8_t(*)[256])
								lut),
				checkasm_new->proc.lut3(src, out, width,
							(const uint8_t(*)[256])
								lut));
			checkasm_in_free(src);
			checkasm_out_free(ref);
			checkasm_out_free(out);
		}
		checkasm_report();
	}
}

void checkasm_check_proc(void)
{
	check_sums();
	check_luts();
}
