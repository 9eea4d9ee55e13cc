/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The Pixart (PJPG) frame encoder (chipenc_jpeg.h): a SOF0/SOS header
 * without DQT/DHT, then the entropy data with an 8-bit marker in front of
 * every MCU (Y0 Y1 Cb Cr, 4:2:2), cut into the chunks the camera sends.
 */
#include "vcam/chipenc_jpeg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vcam/chipenc_jpeg_coder.h"

size_t v4lc_chipenc_pjpg_header(uint8_t *p, int w, int h)
{
	static const uint8_t tail[] = { 0x03, 0x01, 0x21, 0x00, 0x02, 0x11,
					0x01, 0x03, 0x11, 0x01, 0xff, 0xda,
					0x00, 0x0c, 0x03, 0x01, 0x00, 0x02,
					0x11, 0x03, 0x11, 0x00, 0x3f, 0x00 };
	size_t n = 0;

	p[n++] = 0xff, p[n++] = 0xd8, p[n++] = 0xff, p[n++] = 0xc0;
	p[n++] = 0x00, p[n++] = 0x11, p[n++] = 0x08;
	p[n++] = (uint8_t)(h >> 8), p[n++] = (uint8_t)h;
	p[n++] = (uint8_t)(w >> 8), p[n++] = (uint8_t)w;
	memcpy(p + n, tail, sizeof(tail));
	return n + sizeof(tail);
}

/*
 * Quantization steps (zigzag order) of the original for MCU marker 0x44
 * (bit 7 clear) and 0xc4 (bit 7 set), measured black-box through the
 * distribution's libv4lconvert: luma 8 (DC and zigzag 1-5), 16 (6-27),
 * 32 (28-42), 64 (43-63); chroma without bit 7: 16 (0-5), 32 (6-14), 99
 * (15-63); with bit 7 chroma = luma.
 */
static int pjpg_q(int marker, int chroma, int k)
{
	if (chroma && !(marker & 0x80))
		return k < 6 ? 16 : k < 15 ? 32 : 99;
	return k < 6 ? 8 : k < 28 ? 16 : k < 43 ? 32 : 64;
}

/* Cut entropy data into the Pixart chunk layout: size byte, then a first
 * chunk of 1018 bytes, then (ff ff ff code, 2048 >> code bytes)... with the
 * codes taken in turn from `codes` (ncodes > 0, codes 1-6), and a last
 * header with code 0 (the rest of the frame) unless a chunk ends exactly
 * at the end; then ff d9. (The original's chunk rule, found black-box: a
 * chunk of code 1-6 must be complete, code 0 takes the rest.) */
static size_t pjpg_chunk(const uint8_t *d, size_t n, uint8_t size_code,
			 const int *codes, int ncodes, uint8_t *out)
{
	size_t o = 0, chunk = 1018;
	int ci = 0;

	out[o++] = size_code;
	if (size_code == 0x60) {
		memcpy(out + o, d, n);
		o += n;
		out[o++] = 0xff;
		out[o++] = 0xd9;
		return o;
	}
	for (int rest = 0;;) {
		size_t t = n < chunk ? n : chunk;

		memcpy(out + o, d, t);
		o += t;
		d += t;
		n -= t;
		if (rest || (!n && t < chunk))
			break;
		/* A chunk must be complete; code 0 takes the rest (here
		 * perhaps nothing but the end marker). */
		chunk = (size_t)2048 >> codes[ci];
		rest = n < chunk;
		out[o++] = 0xff;
		out[o++] = 0xff;
		out[o++] = 0xff;
		out[o++] = (uint8_t)(rest ? 0 : codes[ci]);
		ci = (ci + 1) % ncodes;
	}
	/* The end of frame the kernel driver appends. */
	out[o++] = 0xff;
	out[o++] = 0xd9;
	return o;
}

/* JFIF full-range YCbCr planes (Y, Cb, Cr) of an RGB24 picture. */
static void rgb_to_ycc(const uint8_t *rgb, size_t np, uint8_t *ycc)
{
	for (size_t i = 0; i < np; i++) {
		double r = rgb[3 * i], g = rgb[3 * i + 1], bl = rgb[3 * i + 2];
		double y = 0.299 * r + 0.587 * g + 0.114 * bl;
		double cb = 128 - 0.168736 * r - 0.331264 * g + 0.5 * bl;
		double cr = 128 + 0.5 * r - 0.418688 * g - 0.081312 * bl;

		ycc[i] = (uint8_t)lround(y < 0 ? 0 : y > 255 ? 255 : y);
		ycc[np + i] = (uint8_t)lround(cb < 0 ? 0 : cb > 255 ? 255 : cb);
		ycc[2 * np + i] = (uint8_t)lround(cr < 0     ? 0
						  : cr > 255 ? 255
							     : cr);
	}
}

/*
 * Block k (Y0 Y1 Cb Cr) of the MCU at (mx, my): luma as it is, chroma
 * averaged over pixel pairs (4:2:2).
 */
static void mcu_block(const uint8_t *ycc, int w, int h, int mx, int my, int k,
		      uint8_t blk[64])
{
	size_t np = (size_t)w * (size_t)h;
	int c = k < 2 ? 0 : k - 1;

	for (int y = 0; y < 8; y++) {
		const uint8_t *row =
			ycc + (size_t)c * np + (size_t)(my + y) * w;

		for (int x = 0; x < 8; x++)
			blk[y * 8 + x] =
				!c ? row[mx + 8 * k + x]
				   : (uint8_t)((row[mx + 2 * x] +
						row[mx + 2 * x + 1] + 1) /
					       2);
	}
}

/* One MCU: its marker, then Y0 Y1 Cb Cr quantized for that marker. */
static void put_mcu(struct v4lc_jenc_bits *b, const uint8_t *ycc, int w, int h,
		    int mx, int my, int marker, int pred[3])
{
	v4lc_jenc_put(b, (uint32_t)marker, 8);
	for (int k = 0; k < 4; k++) {
		int c = k < 2 ? 0 : k - 1, q[64];
		uint8_t blk[64];
		double f[64];

		mcu_block(ycc, w, h, mx, my, k, blk);
		v4lc_jenc_fdct(blk, 8, f);
		for (int z = 0; z < 64; z++) {
			int nat = v4lc_jenc_zigzag[z];

			q[nat] = (int)lround(f[nat] / pjpg_q(marker, c > 0, z));
		}
		v4lc_jenc_block(b, q, &pred[c], c > 0);
	}
}

uint8_t *v4lc_chipenc_pjpg_encode(const uint8_t *rgb, int w, int h,
				  const int *markers, int nmarkers,
				  const int *codes, int ncodes, size_t *len)
{
	size_t np = (size_t)w * h, hl;
	uint8_t *ycc = malloc(np * 3), *out = NULL;
	struct v4lc_jenc_bits b = { 0 };
	int pred[3] = { 0, 0, 0 }, m = 0;
	uint8_t size_code = w <= 160 ? 0x60 : w <= 320 ? 0x61 : 0x62;

	if (!ycc)
		return NULL;
	rgb_to_ycc(rgb, np, ycc);
	b.stuff = 1;
	for (int my = 0; my < h; my += 8)
		for (int mx = 0; mx < w; mx += 16, m++)
			put_mcu(&b, ycc, w, h, mx, my, markers[m % nmarkers],
				pred);
	v4lc_jenc_flush(&b);
	if (!b.oom)
		out = malloc(64 + b.n + (b.n / 32 + 2) * 4 + 4);
	if (out) {
		hl = v4lc_chipenc_pjpg_header(out, w, h);
		hl += pjpg_chunk(b.buf, b.n, size_code, codes, ncodes,
				 out + hl);
		*len = hl;
	}
	free(b.buf);
	free(ycc);
	return out;
}
