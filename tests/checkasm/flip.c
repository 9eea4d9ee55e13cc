/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * flip family: mirrors (8-bit, 24-bit, packed 4:2:2 with luma at even or
 * odd bytes) on every checkasm width (also from misaligned pointers),
 * rotations on widths x heights with strides wider than the rows. Sources end exactly at their last pixel (ASan catches over-reads),
 * the destination's stride padding must keep its fill byte, and a guard
 * follows each output buffer.
 */
#include "checkasm.h"

#include <stddef.h>
#include <string.h>

#define PAD_FILL 0x5a

/* Row bytes: bpp 2 is packed 4:2:2, whole pixel pairs (odd widths too). */
static size_t mirror_bytes(int width, int bpp)
{
	if (bpp == 2)
		return 4 * (size_t)((width + 1) / 2);
	return (size_t)width * bpp;
}

static void check_mirror(v4lc_row_copy_fn *ref_fn, v4lc_row_copy_fn *new_fn,
			 const char *name, int bpp)
{
	if (!checkasm_func(new_fn, ref_fn, "%s", name))
		return;
	for (int w = 0; w < checkasm_nwidths; w++) {
		int width = checkasm_widths[w];
		size_t size = mirror_bytes(width, bpp);

		/* source misaligned by 0..3 bytes, destination by 3..0 */
		for (int mis = 0; mis < 4; mis++) {
			size_t dmis = (size_t)((4 - mis) % 4);
			uint8_t *sbuf = checkasm_in_alloc(size + mis);
			uint8_t *ref = checkasm_out_alloc(size + dmis, 0);
			uint8_t *out = checkasm_out_alloc(size + dmis, 0);
			uint8_t *src = sbuf + mis;

			for (int kind = 0; kind < CHECKASM_PATTERNS; kind++) {
				if (mis && kind > 2)
					break;
				checkasm_pattern(src, size, kind);
				memset(ref, PAD_FILL, size + dmis);
				memset(out, PAD_FILL, size + dmis);
				ref_fn(src, ref + dmis, width);
				new_fn(src, out + dmis, width);
				if (!checkasm_check_bytes(ref, out, size + dmis,
							  name, width))
					break;
			}
			if (!mis)
				checkasm_bench(width, width,
					       ref_fn(src, ref, width),
					       new_fn(src, out, width));
			checkasm_in_free(sbuf);
			checkasm_out_free(ref);
			checkasm_out_free(out);
		}
	}
	checkasm_report();
}

static const int rot_heights[] = { 1,  2,  3,  4,  5,  6,  7,  8,  9,  10,
				   11, 12, 13, 14, 15, 16, 17, 31, 64, 127 };
#define NHEIGHTS (int)(sizeof(rot_heights) / sizeof(rot_heights[0]))

/*
 * One rotation case: source width x height (stride sstride), destination
 * height x width (stride dstride). Returns 0 on a reported failure.
 */
static int rot_case(v4lc_rotate_fn *ref_fn, v4lc_rotate_fn *new_fn, int bpp,
		    int width, int height, int sextra, int dextra, int kind)
{
	int srow = width * bpp, drow = height * bpp;
	int sstride = srow + sextra, dstride = drow + dextra;
	size_t ssize = (size_t)(height - 1) * sstride + srow;
	size_t dsize = (size_t)(width - 1) * dstride + drow;
	uint8_t *src = checkasm_in_alloc(ssize);
	uint8_t *ref = checkasm_out_alloc(dsize, PAD_FILL);
	uint8_t *out = checkasm_out_alloc(dsize, PAD_FILL);
	int ok = 1;

	checkasm_pattern(src, ssize, kind);
	/* padding of the source is random: copying it out is an error */
	for (int r = 0; r + 1 < height; r++)
		checkasm_randomise(src + (size_t)r * sstride + srow,
				   (size_t)sextra);
	ref_fn(src, sstride, ref, dstride, width, height);
	new_fn(src, sstride, out, dstride, width, height);
	for (int r = 0; r < width && ok; r++) {
		const uint8_t *a = ref + (size_t)r * dstride;
		const uint8_t *b = out + (size_t)r * dstride;

		for (int i = 0; i < drow; i++) {
			if (a[i] != b[i]) {
				checkasm_fail("%dx%d strides %d/%d pattern %d: "
					      "dst row %d byte %d is %u, "
					      "scalar %u",
					      width, height, sstride, dstride,
					      kind, r, i, b[i], a[i]);
				ok = 0;
				break;
			}
		}
		if (r + 1 < width) {
			for (int i = drow; i < dstride && ok; i++) {
				if (b[i] != PAD_FILL) {
					checkasm_fail("%dx%d strides %d/%d: "
						      "wrote stride padding of "
						      "dst row %d (byte %d)",
						      width, height, sstride,
						      dstride, r, i);
					ok = 0;
				}
			}
		}
	}
	if (ok && !checkasm_out_guard_ok(out, dsize)) {
		checkasm_fail("%dx%d strides %d/%d: wrote past the end", width,
			      height, sstride, dstride);
		ok = 0;
	}
	checkasm_in_free(src);
	checkasm_out_free(ref);
	checkasm_out_free(out);
	return ok;
}

/* A 1280x720 plane, with minimal strides. */
static void bench_rotate(v4lc_rotate_fn *ref_fn, v4lc_rotate_fn *new_fn,
			 int bpp)
{
	const int w = 1280, h = 720;
	size_t size = (size_t)w * h * bpp;
	uint8_t *src = checkasm_in_alloc(size);
	uint8_t *ref = checkasm_out_alloc(size, PAD_FILL);
	uint8_t *out = checkasm_out_alloc(size, PAD_FILL);

	checkasm_randomise(src, size);
	checkasm_bench_run((double)w * h,
			   ref_fn(src, w * bpp, ref, h * bpp, w, h),
			   new_fn(src, w * bpp, out, h * bpp, w, h));
	checkasm_in_free(src);
	checkasm_out_free(ref);
	checkasm_out_free(out);
}

static void check_rotate(v4lc_rotate_fn *ref_fn, v4lc_rotate_fn *new_fn,
			 const char *name, int bpp)
{
	if (!checkasm_func(new_fn, ref_fn, "%s", name))
		return;
	for (int w = 0; w < checkasm_nwidths; w++) {
		int width = checkasm_widths[w];

		for (int h = 0; h < NHEIGHTS; h++) {
			int height = rot_heights[h];
			int big = width > 129 && height > 17;

			for (int kind = 0; kind < CHECKASM_PATTERNS; kind++) {
				/* minimal strides, then padded ones */
				int sextra =
					kind == 0 ? 0
						  : (int)(checkasm_rand() % 37);
				int dextra =
					kind == 0 ? 0
						  : (int)(checkasm_rand() % 37);

				/* large planes: random patterns and one extreme */
				if (big && kind > 1 && kind != 4)
					continue;
				if (!rot_case(ref_fn, new_fn, bpp, width,
					      height, sextra, dextra, kind))
					goto done;
			}
		}
	}
	/* a few tall, narrow and large planes with unusual strides */
	{
		static const int sizes[][2] = { { 16, 1000 },  { 17, 333 },
						{ 1000, 16 },  { 333, 17 },
						{ 1280, 720 }, { 641, 361 } };

		for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
			if (!rot_case(ref_fn, new_fn, bpp, sizes[i][0],
				      sizes[i][1], 1 + (int)i * 5, 64 + (int)i,
				      (int)i % 3))
				break;
	}
done:
	bench_rotate(ref_fn, new_fn, bpp);
	checkasm_report();
}

void checkasm_check_flip(void)
{
	const struct v4lc_flip_dsp *r = &checkasm_ref->flip;
	const struct v4lc_flip_dsp *n = &checkasm_new->flip;

	check_mirror(r->mirror8, n->mirror8, "flip_mirror8", 1);
	check_mirror(r->mirror24, n->mirror24, "flip_mirror24", 3);
	check_mirror(r->mirror_yuyv, n->mirror_yuyv, "flip_mirror_yuyv", 2);
	check_mirror(r->mirror_uyvy, n->mirror_uyvy, "flip_mirror_uyvy", 2);
	check_rotate(r->rot90cw8, n->rot90cw8, "flip_rot90cw8", 1);
	check_rotate(r->rot90ccw8, n->rot90ccw8, "flip_rot90ccw8", 1);
	check_rotate(r->rot90cw24, n->rot90cw24, "flip_rot90cw24", 3);
	check_rotate(r->rot90ccw24, n->rot90ccw24, "flip_rot90ccw24", 3);
}
