/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * focus-sharpness W H FILE: prints the focus measure of the luma plane of
 * a raw YU12 frame (for shared.sh: is the application's picture in focus?).
 */
#include <stdio.h>
#include <stdlib.h>

#include "focus/measure.h"

int main(int argc, char **argv)
{
	int w, h;
	size_t n;
	uint8_t *y;
	FILE *f;

	if (argc != 4 || (w = atoi(argv[1])) < 16 || (h = atoi(argv[2])) < 16)
		return 2;
	n = (size_t)w * (size_t)h;
	y = malloc(n);
	f = fopen(argv[3], "rb");
	if (!y || !f || fread(y, 1, n, f) != n)
		return 2;
	fclose(f);
	printf("%.1f\n",
	       v4lc_focus_measure(v4lc_dsp_get(), y, (size_t)w, w, h));
	free(y);
	return 0;
}
