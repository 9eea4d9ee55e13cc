/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "checkasm.h"

static void check_to_rgb24(void)
{
	if (!checkasm_func(checkasm_new->grey.to_rgb24,
			   checkasm_ref->grey.to_rgb24, "grey_to_rgb24"))
		return;
	for (int w = 0; w < checkasm_nwidths; w++) {
		int width = checkasm_widths[w];
		size_t size = (size_t)width * 3;
		uint8_t *src = checkasm_in_alloc((size_t)width);
		uint8_t *ref = checkasm_out_alloc(size, 0x5a);
		uint8_t *out = checkasm_out_alloc(size, 0x5a);

		for (int kind = 0; kind < CHECKASM_PATTERNS; kind++) {
			checkasm_pattern(src, (size_t)width, kind);
			checkasm_ref->grey.to_rgb24(src, ref, width);
			checkasm_new->grey.to_rgb24(src, out, width);
			if (!checkasm_check_bytes(ref, out, size, "rgb24",
						  width))
				break;
		}
		checkasm_bench(width, width,
			       checkasm_ref->grey.to_rgb24(src, ref, width),
			       checkasm_new->grey.to_rgb24(src, out, width));
		checkasm_in_free(src);
		checkasm_out_free(ref);
		checkasm_out_free(out);
	}
	checkasm_report();
}

static void check_16(v4lc_grey16_fn *fn, v4lc_grey16_fn *ref_fn,
		     const char *name)
{
	if (!checkasm_func(fn, ref_fn, "%s", name))
		return;
	for (int w = 0; w < checkasm_nwidths; w++) {
		int width = checkasm_widths[w];
		size_t in_size = (size_t)width * 2;
		uint8_t *src = checkasm_in_alloc(in_size);
		uint8_t *ref = checkasm_out_alloc((size_t)width, 0x5a);
		uint8_t *out = checkasm_out_alloc((size_t)width, 0x5a);
		int ok = 1;

		for (int shift = 0; shift <= 8 && ok; shift++) {
			for (int kind = 0; kind < CHECKASM_PATTERNS && ok;
			     kind++) {
				checkasm_pattern(src, in_size, kind);
				ref_fn(src, ref, width, shift);
				fn(src, out, width, shift);
				ok = checkasm_check_bytes(ref, out,
							  (size_t)width,
							  "grey8", width);
			}
		}
		checkasm_bench(width, width, ref_fn(src, ref, width, 2),
			       fn(src, out, width, 2));
		checkasm_in_free(src);
		checkasm_out_free(ref);
		checkasm_out_free(out);
	}
	checkasm_report();
}

static void check_y10bpack(void)
{
	if (!checkasm_func(checkasm_new->grey.y10bpack,
			   checkasm_ref->grey.y10bpack, "grey_y10bpack"))
		return;
	for (int w = 0; w < checkasm_nwidths; w++) {
		int width = checkasm_widths[w];
		size_t in_size = ((size_t)width * 10 + 7) / 8;
		uint8_t *src = checkasm_in_alloc(in_size);
		uint8_t *ref = checkasm_out_alloc((size_t)width, 0x5a);
		uint8_t *out = checkasm_out_alloc((size_t)width, 0x5a);

		for (int kind = 0; kind < CHECKASM_PATTERNS; kind++) {
			checkasm_pattern(src, in_size, kind);
			checkasm_ref->grey.y10bpack(src, ref, width);
			checkasm_new->grey.y10bpack(src, out, width);
			if (!checkasm_check_bytes(ref, out, (size_t)width,
						  "grey8", width))
				break;
		}
		checkasm_bench(width, width,
			       checkasm_ref->grey.y10bpack(src, ref, width),
			       checkasm_new->grey.y10bpack(src, out, width));
		checkasm_in_free(src);
		checkasm_out_free(ref);
		checkasm_out_free(out);
	}
	checkasm_report();
}

void checkasm_check_grey(void)
{
	check_to_rgb24();
	check_16(checkasm_new->grey.le16, checkasm_ref->grey.le16, "grey_le16");
	check_16(checkasm_new->grey.be16, checkasm_ref->grey.be16, "grey_be16");
	check_y10bpack();
}
