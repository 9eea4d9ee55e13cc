/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "checkasm.h"

static const char *const order_names[V4LC_RGB_ORDERS] = { "rgb24", "bgr24" };
static const char *const layout_names[V4LC_RGB32_LAYOUTS] = {
	"bgrx32", "xrgb32", "xbgr32", "rgbx32"
};

/* One row kernel reading `in_bpp` bytes and writing 3 bytes per pixel. */
static void check_row(v4lc_row_copy_fn *fn, v4lc_row_copy_fn *ref_fn,
		      int in_bpp, const char *name)
{
	for (int w = 0; w < checkasm_nwidths; w++) {
		int width = checkasm_widths[w];
		size_t in_size = (size_t)width * in_bpp;
		size_t size = (size_t)width * 3;
		uint8_t *src = checkasm_in_alloc(in_size);
		uint8_t *ref = checkasm_out_alloc(size, 0x5a);
		uint8_t *out = checkasm_out_alloc(size, 0x5a);

		for (int kind = 0; kind < CHECKASM_PATTERNS; kind++) {
			checkasm_pattern(src, in_size, kind);
			ref_fn(src, ref, width);
			fn(src, out, width);
			if (!checkasm_check_bytes(ref, out, size, name, width))
				break;
		}
		checkasm_in_free(src);
		checkasm_out_free(ref);
		checkasm_out_free(out);
	}
	checkasm_report();
}

void checkasm_check_rgbpack(void)
{
	for (int o = 0; o < V4LC_RGB_ORDERS; o++) {
		if (checkasm_func(checkasm_new->rgbpack.rgb565[o],
				  checkasm_ref->rgbpack.rgb565[o],
				  "rgbpack_rgb565_%s", order_names[o]))
			check_row(checkasm_new->rgbpack.rgb565[o],
				  checkasm_ref->rgbpack.rgb565[o], 2,
				  order_names[o]);
	}
	for (int l = 0; l < V4LC_RGB32_LAYOUTS; l++) {
		for (int o = 0; o < V4LC_RGB_ORDERS; o++) {
			if (checkasm_func(checkasm_new->rgbpack.rgb32[l][o],
					  checkasm_ref->rgbpack.rgb32[l][o],
					  "rgbpack_%s_%s", layout_names[l],
					  order_names[o]))
				check_row(checkasm_new->rgbpack.rgb32[l][o],
					  checkasm_ref->rgbpack.rgb32[l][o], 4,
					  order_names[o]);
		}
	}
}
