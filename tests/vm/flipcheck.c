/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * flipcheck RAW OURS W H: every W x H RGB24 frame of OURS must be the 180
 * degree rotation of the first frame of RAW (vivid's deterministic picture
 * from a sensor mounted upside down, captured without libv4l2), and OURS
 * must hold at least one frame. Prints the verdict.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char *slurp(const char *path, long *n)
{
	FILE *f = fopen(path, "rb");
	unsigned char *b;

	if (!f || fseek(f, 0, SEEK_END) || (*n = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) || !(b = malloc((size_t)*n + 1)) ||
	    fread(b, 1, (size_t)*n, f) != (size_t)*n) {
		fprintf(stderr, "flipcheck: cannot read %s\n", path);
		exit(1);
	}
	fclose(f);
	return b;
}

int main(int argc, char **argv)
{
	long nraw, nours, w, h, frame;
	unsigned char *raw, *ours;
	long bad = 0;

	if (argc != 5)
		return 2;
	raw = slurp(argv[1], &nraw);
	ours = slurp(argv[2], &nours);
	w = atol(argv[3]);
	h = atol(argv[4]);
	frame = w * h * 3;
	if (frame <= 0 || nraw < frame || nours < frame || nours % frame) {
		printf("FAIL flip: sizes raw %ld ours %ld frame %ld\n", nraw,
		       nours, frame);
		return 1;
	}
	for (long f = 0; f < nours / frame; f++)
		for (long y = 0; y < h; y++)
			for (long x = 0; x < w; x++)
				bad += memcmp(ours + f * frame +
						      (y * w + x) * 3,
					      raw + ((h - 1 - y) * w +
						     (w - 1 - x)) *
							      3,
					      3) != 0;
	printf("%s flip: %ld frames, %ld pixels differ from the rotated raw frame\n",
	       bad ? "FAIL" : "PASS", nours / frame, bad);
	return bad != 0;
}
