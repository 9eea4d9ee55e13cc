/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Sunplus SPCA505 and SPCA508 (gspca_spca505, gspca_spca508): registers
 * written by vendor requests to the device, a few read back; every
 * isochronous packet starts with a sequence byte: 0 opens a frame (then a
 * header the driver skips: 9 more bytes on the 505, 36 on the 508), 0xff
 * is padding, anything else continues the frame. A frame ends where the
 * next begins.
 *
 * SPCA505: request 4 (compression registers), index 0, gives the mode
 * (0 640x480, 1 352x288, 2 320x240, 4 176x144, 5 160x120); request 2,
 * index 0, value 1 starts the stream; request 6 index 0x16 reads 0x0101.
 * SPCA508: requests 0 (write: wIndex the register, wValue the value; read:
 * one byte); register 0x8500 the mode (0 352x288, 1 320x240, 2 176x144,
 * 3 160x120), 0x8112 with bit 4 starts the stream; the serial-interface
 * busy flag (0x8803) reads 0.
 */
#include "chips.h"

#include <linux/videodev2.h>
#include <string.h>

/* One isochronous packet: the sequence byte, the frame header (first
 * packet of a frame: `head` bytes, zeros), then frame data. */
static int spca_payload(struct usbcam *c, uint8_t *out, int max, int head)
{
	struct usbcam_stream *s = &c->s;
	int start, n;

	if (max <= head + 1 || !usbcam_stream_next(c))
		return 0;
	start = s->off == 0;
	if (start) {
		out[0] = 0;
		memset(out + 1, 0, (size_t)head);
		c->pkt = 0;
	} else {
		c->pkt = c->pkt % 254 + 1;
		out[0] = (uint8_t)c->pkt;
	}
	n = usbcam_chip_raw(c, out + 1 + (start ? head : 0),
			    max - 1 - (start ? head : 0));
	return n + 1 + (start ? head : 0);
}

static int spca505_control(struct usbcam *c,
			   const struct usb_redir_control_packet_header *h,
			   uint8_t *data, int len)
{
	static const int modes[6][2] = { { 640, 480 }, { 352, 288 },
					 { 320, 240 }, { 0, 0 },
					 { 176, 144 }, { 160, 120 } };

	if (h->endpoint & 0x80) {
		if (len < 2)
			return -1;
		data[0] = data[1] = h->request == 0x06 && h->index == 0x16;
		return 2;
	}
	if (h->request == 0x04 && h->index == 0x00)
		c->mode = h->value < 6 ? h->value : 0;
	if (h->request == 0x02 && h->index == 0x00) {
		if (h->value & 1 && modes[c->mode][0])
			usbcam_chip_stream(c, V4L2_PIX_FMT_SPCA505,
					   modes[c->mode][0],
					   modes[c->mode][1]);
		else
			usbcam_stream_stop(c);
	}
	return 0;
}

static int spca505_payload(struct usbcam *c, uint8_t *out, int max)
{
	return spca_payload(c, out, max, 9);
}

const struct usbcam_chip usbcam_chip_spca505 = {
	.name = "spca505",
	.nalts = 5,
	.alts = { { 0, { { 0 } } }, USBCAM_FS_ISO(0x81) },
	.control = spca505_control,
	.payload = spca505_payload,
};

static int spca508_control(struct usbcam *c,
			   const struct usb_redir_control_packet_header *h,
			   uint8_t *data, int len)
{
	static const int modes[4][2] = {
		{ 352, 288 }, { 320, 240 }, { 176, 144 }, { 160, 120 }
	};

	if (h->endpoint & 0x80) {
		if (len < 1)
			return -1;
		switch (h->index) {
		case 0x8104:
			data[0] = 0x33;
			break; /* vendor 0733 */
		case 0x8105:
			data[0] = 0x07;
			break;
		case 0x8106:
			data[0] = 0x10;
			break; /* product 0110 */
		case 0x8107:
			data[0] = 0x01;
			break;
		default:
			data[0] = 0;
			break;
		}
		return 1;
	}
	if (h->index == 0x8500)
		c->mode = h->value & 3;
	if (h->index == 0x8112) {
		if (h->value & 0x10)
			usbcam_chip_stream(c, V4L2_PIX_FMT_SPCA508,
					   modes[c->mode][0],
					   modes[c->mode][1]);
		else
			usbcam_stream_stop(c);
	}
	return 0;
}

static int spca508_payload(struct usbcam *c, uint8_t *out, int max)
{
	return spca_payload(c, out, max, 36);
}

const struct usbcam_chip usbcam_chip_spca508 = {
	.name = "spca508",
	.nalts = 5,
	.alts = { { 0, { { 0 } } }, USBCAM_FS_ISO(0x81) },
	.control = spca508_control,
	.payload = spca508_payload,
};
