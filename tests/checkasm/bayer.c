/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "checkasm.h"

static const char *const order_names[V4LC_BAYER_ORDERS] = {
	"bggr", "gbrg", "grbg", "rggb"
};

/*
 * Every demosaic pointer, every width, every pattern; the three input rows
 * come from independent buffers that end exactly at the row end, with
 * different patterns in each row so that swapped rows show.
 */
static void check_demosaic(void)
{
	for (int o = 0; o < V4LC_BAYER_ORDERS; o++)
		for (int p = 0; p < 2; p++)
			for (int ro = 0; ro < V4LC_RGB_ORDERS; ro++) {
				v4lc_bayer_row_fn *fn =
					checkasm_new->bayer.demosaic[o][p][ro];
				v4lc_bayer_row_fn *ref_fn =
					checkasm_ref->bayer.demosaic[o][p][ro];

				if (!checkasm_func(fn, ref_fn,
						   "bayer_demosaic_%s_%d_%s",
						   order_names[o], p,
						   ro ? "bgr" : "rgb"))
					continue;
				for (int w = 0; w < checkasm_nwidths; w++) {
					int width = checkasm_widths[w];
					size_t size = (size_t)width * 3;
					uint8_t *a = checkasm_in_alloc((size_t)width);
					uint8_t *c = checkasm_in_alloc((size_t)width);
					uint8_t *b = checkasm_in_alloc((size_t)width);
					uint8_t *ref = checkasm_out_alloc(size, 0x5a);
					uint8_t *out = checkasm_out_alloc(size, 0x5a);
					int ok = 1;

					for (int kind = 0;
					     kind < CHECKASM_PATTERNS * 3 && ok; kind++) {
						checkasm_pattern(a, (size_t)width,
								 kind % CHECKASM_PATTERNS);
						checkasm_pattern(c, (size_t)width,
								 (kind / 3 + kind) %
									 CHECKASM_PATTERNS);
						checkasm_pattern(b, (size_t)width,
								 (kind * 5 + 1) %
									 CHECKASM_PATTERNS);
						ref_fn(a, c, b, ref, width);
						fn(a, c, b, out, width);
						ok = checkasm_check_bytes(ref, out, size,
									  "rgb", width);
					}
					checkasm_in_free(a);
					checkasm_in_free(c);
					checkasm_in_free(b);
					checkasm_out_free(ref);
					checkasm_out_free(out);
				}
				checkasm_report();
			}
}

static void check_unpack10p(void)
{
	if (!checkasm_func(checkasm_new->bayer.unpack10p,
			   checkasm_ref->bayer.unpack10p, "bayer_unpack10p"))
		return;
	for (int w = 0; w < checkasm_nwidths; w++) {
		int width = checkasm_widths[w];
		size_t in_size = ((size_t)width * 5 + 3) / 4;
		uint8_t *src = checkasm_in_alloc(in_size);
		uint8_t *ref = checkasm_out_alloc((size_t)width, 0x5a);
		uint8_t *out = checkasm_out_alloc((size_t)width, 0x5a);

		for (int kind = 0; kind < CHECKASM_PATTERNS; kind++) {
			checkasm_pattern(src, in_size, kind);
			checkasm_ref->bayer.unpack10p(src, ref, width);
			checkasm_new->bayer.unpack10p(src, out, width);
			if (!checkasm_check_bytes(ref, out, (size_t)width, "grey8",
						  width))
				break;
		}
		checkasm_in_free(src);
		checkasm_out_free(ref);
		checkasm_out_free(out);
	}
	checkasm_report();
}

void checkasm_check_bayer(void)
{
	check_demosaic();
	check_unpack10p();
}
