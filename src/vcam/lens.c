/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The virtual camera's simulated lens (lens.h). */
#include "vcam/lens.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int v4lc_vcam_lens_frame(struct v4lc_vcam_lens *l, int target, int width)
{
	int d;

	if (target > l->pos)
		l->pos += target - l->pos < V4LC_VCAM_LENS_SLEW
				  ? target - l->pos
				  : V4LC_VCAM_LENS_SLEW;
	else
		l->pos -= l->pos - target < V4LC_VCAM_LENS_SLEW
				  ? l->pos - target
				  : V4LC_VCAM_LENS_SLEW;
	d = abs(l->pos - l->infocus);
	/* In 1/16 pixel: width / 8 pixels at the far end of the range. */
	return (int)(((long)d * width * 16) / (8L * (V4LC_VCAM_LENS_MAX + 1)));
}

/*
 * A fixed pseudo-random grey texture over the centre half: 2x2-pixel cells
 * from a hash of their position, so every frame carries the same detail.
 */
void v4lc_vcam_lens_texture(uint8_t *rgb, int w, int h)
{
	for (int y = h / 4; y < h * 3 / 4; y++) {
		uint8_t *p =
			rgb + ((size_t)y * (size_t)w + (size_t)(w / 4)) * 3;

		for (int x = w / 4; x < w * 3 / 4; x++, p += 3) {
			uint32_t k = (uint32_t)(x / 2) * 2654435761u ^
				     (uint32_t)(y / 2) * 2246822519u;

			k ^= k >> 15;
			k *= 2654435761u;
			memset(p, 48 + (int)((k >> 24) % 160), 3);
		}
	}
}

/*
 * One pass of a box filter of fractional radius r16 / 16 along a line of n
 * pixels, `step` bytes apart (3 channels each), edges clamped; `line` is
 * the source copy. Taps within the integer radius weigh 16, the two next
 * ones the fraction, so the blur grows smoothly with the distance.
 */
static void box_line(uint8_t *dst, const uint8_t *line, int n, size_t step,
		     int r16)
{
	int r = r16 / 16, f = r16 % 16;
	int total = 16 * (2 * r + 1) + 2 * f;

	for (int ch = 0; ch < 3; ch++) {
		int sum = 0;

		for (int i = -r; i <= r; i++) {
			int k = i < 0 ? 0 : i >= n ? n - 1 : i;

			sum += line[3 * k + ch];
		}
		for (int i = 0; i < n; i++) {
			int out = i - r < 0 ? 0 : i - r;
			int in = i + r + 1 >= n ? n - 1 : i + r + 1;
			int left = i - r - 1 < 0 ? 0 : i - r - 1;
			int edge =
				f * (line[3 * left + ch] + line[3 * in + ch]);

			dst[(size_t)i * step + (size_t)ch] =
				(uint8_t)((16 * sum + edge + total / 2) /
					  total);
			sum += line[3 * in + ch] - line[3 * out + ch];
		}
	}
}

int v4lc_vcam_lens_blur(uint8_t *rgb, int w, int h, int r16)
{
	int n = w > h ? w : h;
	uint8_t *line;

	if (r16 <= 0)
		return 0;
	line = malloc(3 * (size_t)n);
	if (!line)
		return -ENOMEM;
	/*
	 * Three box passes per direction approach a Gaussian, whose response
	 * falls steadily with the radius (one box has side lobes: the
	 * sharpness of a fine texture would rise again at some radii).
	 */
	for (int pass = 0; pass < 3; pass++) {
		for (int y = 0; y < h; y++) {
			uint8_t *row = rgb + (size_t)y * 3 * (size_t)w;

			memcpy(line, row, 3 * (size_t)w);
			box_line(row, line, w, 3, r16 / 2);
		}
		for (int x = 0; x < w; x++) {
			uint8_t *col = rgb + 3 * (size_t)x;

			for (int y = 0; y < h; y++)
				memcpy(line + 3 * (size_t)y,
				       col + (size_t)y * 3 * (size_t)w, 3);
			box_line(col, line, h, 3 * (size_t)w, r16 / 2);
		}
	}
	free(line);
	return 0;
}
