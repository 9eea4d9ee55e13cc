/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <string.h>

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
		checkasm_bench(width, width, ref_fn(src, ref, width),
			       fn(src, out, width));
		checkasm_in_free(src);
		checkasm_out_free(ref);
		checkasm_out_free(out);
	}
	checkasm_report();
}

/*
 * Every RGB565 value once, in a row of 65536 pixels (and of 65535, for a
 * tail): the scalar kernel against the widening formula written out here,
 * and the kernel under test against the scalar one.
 */
static void check_565_all(v4lc_row_copy_fn *fn, v4lc_row_copy_fn *ref_fn,
			  int bgr, const char *name)
{
	const int n = 65536;
	uint8_t *src = checkasm_in_alloc(2 * (size_t)n);
	uint8_t *ref = checkasm_out_alloc(3 * (size_t)n, 0x5a);

	for (int i = 0; i < n; i++) {
		/* a scrambled order, so neighbours differ in every field */
		unsigned p = (unsigned)(i * 40503u) & 0xffff;

		src[2 * i] = (uint8_t)p;
		src[2 * i + 1] = (uint8_t)(p >> 8);
	}
	ref_fn(src, ref, n);
	for (int i = 0; i < n; i++) {
		unsigned p = src[2 * i] | (unsigned)src[2 * i + 1] << 8;
		unsigned r5 = p >> 11, g6 = (p >> 5) & 0x3f, b5 = p & 0x1f;
		/* bit replication: the top bits repeated below the field */
		uint8_t e[3] = { (uint8_t)((r5 << 3) + (r5 >> 2)),
				 (uint8_t)((g6 << 2) + (g6 >> 4)),
				 (uint8_t)((b5 << 3) + (b5 >> 2)) };

		if (bgr) {
			uint8_t t = e[0];

			e[0] = e[2];
			e[2] = t;
		}
		if (memcmp(e, ref + 3 * i, 3)) {
			checkasm_fail("scalar %s: value 0x%04x", name, p);
			break;
		}
	}
	for (int w = n - 1; w <= n; w++) {
		uint8_t *out = checkasm_out_alloc(3 * (size_t)w, 0x5a);
		int ok;

		fn(src, out, w);
		ok = checkasm_check_bytes(ref, out, 3 * (size_t)w, name, w);
		checkasm_out_free(out);
		if (!ok)
			break;
	}
	checkasm_in_free(src);
	checkasm_out_free(ref);
}

void checkasm_check_rgbpack(void)
{
	for (int o = 0; o < V4LC_RGB_ORDERS; o++) {
		if (checkasm_func(checkasm_new->rgbpack.rgb565[o],
				  checkasm_ref->rgbpack.rgb565[o],
				  "rgbpack_rgb565_%s", order_names[o])) {
			check_565_all(checkasm_new->rgbpack.rgb565[o],
				      checkasm_ref->rgbpack.rgb565[o], o,
				      order_names[o]);
			check_row(checkasm_new->rgbpack.rgb565[o],
				  checkasm_ref->rgbpack.rgb565[o], 2,
				  order_names[o]);
		}
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
