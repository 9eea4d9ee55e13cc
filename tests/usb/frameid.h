/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The frame counter in an emulated camera's JPEG frames: a COM segment
 * "usbcam seq=XXXXXXXX" (hex) right after SOI, which decoders skip. It
 * lets the guest find the picture a JPEG frame was made from without
 * rendering and compressing candidates; the rest of the frame is the
 * renderer's, byte for byte.
 */
#ifndef USBCAM_FRAMEID_H
#define USBCAM_FRAMEID_H

#include <stddef.h>
#include <stdint.h>

#define USBCAM_FRAMEID_LEN 23 /* FF FE, length, 19 bytes of text */

/* Insert the segment into the JPEG of n bytes in buf (size bytes of
 * room); returns the new length, or n unchanged when it is not a JPEG or
 * there is no room. */
size_t usbcam_frameid_put(uint8_t *buf, size_t n, size_t size, uint32_t seq);
/* The counter of a JPEG frame: 0 and *seq, or -1 when it has none. */
int usbcam_frameid_get(const uint8_t *buf, size_t n, uint32_t *seq);

#endif
