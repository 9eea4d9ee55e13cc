/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "checkasm.h"

void checkasm_check_rgb(void)
{
	if (!checkasm_func(checkasm_new->rgb.swap_rb24,
			   checkasm_ref->rgb.swap_rb24, "rgb_swap_rb24"))
		return;
	for (int w = 0; w < checkasm_nwidths; w++) {
		int width = checkasm_widths[w];
		size_t size = (size_t)width * 3;
		uint8_t *src = checkasm_in_alloc(size);
		uint8_t *ref = checkasm_out_alloc(size, 0);
		uint8_t *out = checkasm_out_alloc(size, 0);

		for (int kind = 0; kind < CHECKASM_PATTERNS; kind++) {
			checkasm_pattern(src, size, kind);
			checkasm_ref->rgb.swap_rb24(src, ref, width);
			checkasm_new->rgb.swap_rb24(src, out, width);
			checkasm_check_bytes(ref, out, size, "rgb24", width);
		}
		checkasm_bench(width, width,
			       checkasm_ref->rgb.swap_rb24(src, ref, width),
			       checkasm_new->rgb.swap_rb24(src, out, width));
		checkasm_in_free(src);
		checkasm_out_free(ref);
		checkasm_out_free(out);
	}
	checkasm_report();
}
