/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Encoders of the JPEG-family chip formats with every choice the tests of
 * tests/chip/jpeg make (chipenc_pjpg.c, chipenc_jl20.c, chipenc_se401.c,
 * over the baseline coder of chipenc_jpeg.c); the virtual camera reaches
 * them through chipenc.h. Each returns the frame (malloc'd; the caller
 * frees it) and its size in *len, or NULL when out of memory.
 */
#ifndef V4LC_VCAM_CHIPENC_JPEG_H
#define V4LC_VCAM_CHIPENC_JPEG_H

#include <stddef.h>
#include <stdint.h>

/*
 * A PJPG frame of an RGB24 image (w % 16 == 0, h % 8 == 0): JFIF
 * full-range YCbCr, chroma averaged to 4:2:2, float DCT, quantized with
 * the original's steps for MCU marker markers[mcu % nmarkers] (0x44 or
 * 0xc4: bit 7 gives chroma the luma steps); the entropy data cut into
 * chunks of codes taken in turn from codes[] (1-6: 2048 >> code bytes;
 * a last chunk of code 0 takes the rest).
 */
uint8_t *v4lc_chipenc_pjpg_encode(const uint8_t *rgb, int w, int h,
				  const int *markers, int nmarkers,
				  const int *codes, int ncodes, size_t *len);

/* The SOF0/SOS header of a PJPG frame: Y 2x1 (table 0), Cb and Cr 1x1
 * (table 1); no DQT, no DHT. Returns its length (at most 64 bytes). */
size_t v4lc_chipenc_pjpg_header(uint8_t *p, int w, int h);

/*
 * A JL20 frame of an RGGB mosaic (w, h multiples of 16) at a quality of
 * 1-100: the 16-byte header (height / 8 at byte 4, width / 8 at 5,
 * quality at 13), then per 16-pixel strip the MCUs top to bottom (greens
 * of rows 0-7, greens of rows 8-15, reds, blues), ff d9, zero padding to
 * 16 bytes; then filler to a multiple of 0x200 bytes.
 */
uint8_t *v4lc_chipenc_jl20_encode(const uint8_t *bay, int w, int h, int quality,
				  size_t *len);

/*
 * An SE401 frame from the coded values (3 per pixel, stream order), `pp`
 * pixels a packet: each packet a 4-byte header (byte 0 bits 7-6: 0x80
 * first packet, 0x40 last, 0 otherwise; bits 5-0 and byte 1: pixels;
 * bytes 2-3: bits of data, big-endian), the bits, zero padding to
 * ((bits + 47) >> 4) << 1 bytes in all.
 */
uint8_t *v4lc_chipenc_se401_packets(const int *vals, int npix, int pp,
				    size_t *len);

/* An SE401 frame of an RGB24 picture (even sizes), one packet a row:
 * each value the nearest step of 8 from the previous pixel of the row. */
uint8_t *v4lc_chipenc_se401_rgb(const uint8_t *rgb, int w, int h, size_t *len);

#endif
