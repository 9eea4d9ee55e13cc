/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The gspca chips the emulator plays (chip_*.c), each answering just
 * enough of its register dialogue for the kernel's driver to probe and
 * stream, and framing its frames as the driver parses them.
 */
#ifndef USBCAM_CHIPS_H
#define USBCAM_CHIPS_H

#include "usbcam.h"

extern const struct usbcam_chip usbcam_chip_pac207, usbcam_chip_mr97310a;
extern const struct usbcam_chip usbcam_chip_spca505, usbcam_chip_spca508;
extern const struct usbcam_chip usbcam_chip_sonixb, usbcam_chip_sq905c;
extern const struct usbcam_chip usbcam_chip_jl2005bcd, usbcam_chip_se401;

/* chip.c: shared pieces. */

/* Start (or restart) the stream of frames of `fourcc` at w x h. */
void usbcam_chip_stream(struct usbcam *c, uint32_t fourcc, int w, int h);

/* The next bytes of the frame, at most max, nothing of the next frame:
 * for chips whose packets and bulk replies are plain frame data. */
int usbcam_chip_raw(struct usbcam *c, uint8_t *out, int max);

/* Prepend n bytes to the frame in buf (len bytes, room for cap). */
size_t usbcam_chip_prepend(uint8_t *buf, size_t len, size_t cap,
			   const uint8_t *head, size_t n);

/* The reply to a bulk read of at most max bytes: c->resp, zero-filled
 * (then cleared). */
int usbcam_chip_response(struct usbcam *c, uint8_t *out, int max);

/* Full-speed isochronous alternate settings 1..4 on endpoint `ep`, growing
 * packet sizes (setting 0 has no bandwidth), as cameras have them. */
#define USBCAM_FS_ISO(ep)                                                      \
	{ 1, { { ep, usb_redir_type_iso, 256, 1 } } },                         \
		{ 1, { { ep, usb_redir_type_iso, 512, 1 } } },                 \
		{ 1, { { ep, usb_redir_type_iso, 768, 1 } } },                 \
	{                                                                      \
		1,                                                             \
		{                                                              \
			{                                                      \
				ep, usb_redir_type_iso, 1023, 1                \
			}                                                      \
		}                                                              \
	}

#endif
