/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A minimal PNG writer on zlib, for the tools' output images. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "png.h"

/* PNG: signature, IHDR, one IDAT (zlib stream), IEND. */

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static int png_chunk(FILE *f, const char type[4], const uint8_t *data,
		     size_t len)
{
	uint8_t hdr[8], tail[4];
	uLong crc;

	if (len > 0x7fffffffu)
		return -1;
	put_be32(hdr, (uint32_t)len);
	memcpy(hdr + 4, type, 4);
	crc = crc32(0L, Z_NULL, 0);
	crc = crc32(crc, hdr + 4, 4);
	/* crc32 takes a uInt length: feed large chunks in pieces. */
	for (size_t off = 0; off < len;) {
		size_t n = len - off > 0x40000000u ? 0x40000000u : len - off;

		crc = crc32(crc, data + off, (uInt)n);
		off += n;
	}
	put_be32(tail, (uint32_t)crc);
	if (fwrite(hdr, 1, 8, f) != 8 ||
	    (len && fwrite(data, 1, len, f) != len) ||
	    fwrite(tail, 1, 4, f) != 4)
		return -1;
	return 0;
}

/*
 * Write an 8-bit RGB PNG from rows of 3 * width bytes (`bgr`: the rows are
 * B,G,R and are swapped on the way). Every row uses PNG filter 1 (Sub).
 */
int png_write(const char *path, const uint8_t *rgb, int width, int height,
	      size_t stride, int bgr)
{
	static const uint8_t sig[8] = { 0x89, 'P',  'N',  'G',
					'\r', '\n', 0x1a, '\n' };
	size_t row = 3 * (size_t)width + 1, rawlen = row * (size_t)height;
	uint8_t ihdr[13], *raw, *z = NULL;
	uLongf zlen;
	FILE *f;
	int ret = -1;

	raw = malloc(rawlen);
	if (!raw)
		return -1;
	for (int y = 0; y < height; y++) {
		const uint8_t *s = rgb + (size_t)y * stride;
		uint8_t *d = raw + (size_t)y * row;
		uint8_t prev[3] = { 0, 0, 0 };

		d[0] = 1; /* Sub: each byte minus the one a pixel earlier */
		for (int x = 0; x < width; x++) {
			uint8_t px[3];

			px[0] = s[3 * x + (bgr ? 2 : 0)];
			px[1] = s[3 * x + 1];
			px[2] = s[3 * x + (bgr ? 0 : 2)];
			for (int c = 0; c < 3; c++) {
				d[1 + 3 * x + c] = (uint8_t)(px[c] - prev[c]);
				prev[c] = px[c];
			}
		}
	}
	zlen = compressBound((uLong)rawlen);
	z = malloc(zlen);
	if (!z || compress2(z, &zlen, raw, (uLong)rawlen, 6) != Z_OK)
		goto out;

	put_be32(ihdr, (uint32_t)width);
	put_be32(ihdr + 4, (uint32_t)height);
	ihdr[8] = 8;  /* bit depth */
	ihdr[9] = 2;  /* colour type: truecolour */
	ihdr[10] = 0; /* deflate */
	ihdr[11] = 0; /* adaptive filtering */
	ihdr[12] = 0; /* no interlace */

	f = fopen(path, "wb");
	if (!f)
		goto out;
	if (fwrite(sig, 1, 8, f) == 8 && !png_chunk(f, "IHDR", ihdr, 13) &&
	    !png_chunk(f, "IDAT", z, zlen) && !png_chunk(f, "IEND", NULL, 0))
		ret = 0;
	if (fclose(f))
		ret = -1;
out:
	free(raw);
	free(z);
	return ret;
}
