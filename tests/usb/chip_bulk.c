/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Chips whose frames come by bulk transfer, read by their drivers in
 * pieces of their own choosing; every reply is the next piece of the
 * frame, never a piece of the next one.
 *
 * SQ905C (gspca_sq905c): commands are vendor requests 0x0c to the device
 * with the command in wValue: 0x14f4 asks for the id (then a 20-byte read
 * of command 0xf5; byte 15 non-zero: 640x480 exists too), 0x1440 and
 * 0x2840 start 320x240 and 640x480 frames, 0xa0 clears (stops). The driver
 * reads the 80-byte header, whose bytes 0x40-0x43 give the size of the
 * rest, then the rest; all of it is the frame.
 *
 * JL2005B/C/D (gspca_jl2005bcd): 2-byte commands on bulk endpoint 3,
 * register reads (95 REG) answered by one byte on endpoint 0x84: 0x57 the
 * firmware id (not 0x4x: a VGA camera), 0x7e the frame brightness
 * (non-zero: a frame is ready). 05 or 06 then 04 52 start 640x480 or
 * 320x240, 07 stops. Frames on endpoint 0x82 in 0x200-byte blocks: the
 * first begins "JL", byte 7 the number of blocks.
 *
 * SE401 (gspca_se401): vendor requests to the device: 0x06 the camera
 * descriptor (41, Bayer 40, the sizes), 0x4d and 0x4f the sensor window,
 * 0x53 features (0x2000: the operating mode, whose scaling makes
 * 320x240 and 160x120 compressed frames of the 640x480 sensor), 0x41 and
 * 0x42 start and stop. Frames are the chip's packets, 4 KiB a transfer.
 */
#include "chips.h"

#include <linux/videodev2.h>
#include <string.h>

/* ---- SQ905C ------------------------------------------------------------ */

static int sq905c_control(struct usbcam *c,
			  const struct usb_redir_control_packet_header *h,
			  uint8_t *data, int len)
{
	if (h->request != 0x0c)
		return -1;
	if (h->endpoint & 0x80) {
		memset(data, 0, (size_t)len);
		if (len > 15)
			data[15] = 1; /* 640x480 too */
		return len;
	}
	switch (h->value) {
	case 0x1440:
		usbcam_chip_stream(c, V4L2_PIX_FMT_SQ905C, 320, 240);
		break;
	case 0x2840:
		usbcam_chip_stream(c, V4L2_PIX_FMT_SQ905C, 640, 480);
		break;
	case 0xa0:
		usbcam_stream_stop(c);
		break;
	}
	return 0;
}

static size_t sq905c_frame(struct usbcam *c, uint8_t *buf, size_t len,
			   size_t cap)
{
	uint32_t rest = len > 0x50 ? (uint32_t)(len - 0x50) : 0;

	(void)c;
	(void)cap;
	for (int i = 0; i < 4 && len >= 0x44; i++)
		buf[0x40 + i] = (uint8_t)(rest >> (8 * i));
	return len;
}

const struct usbcam_chip usbcam_chip_sq905c = {
	.name = "sq905c",
	.nalts = 1,
	.alts = { { 1, { { 0x81, usb_redir_type_bulk, 64, 0 } } } },
	.control = sq905c_control,
	.payload = usbcam_chip_raw,
	.frame = sq905c_frame,
};

/* ---- JL2005B/C/D ------------------------------------------------------- */

static int jl_bulk_out(struct usbcam *c, uint8_t ep, const uint8_t *data,
		       int len)
{
	(void)ep;
	if (len < 2)
		return 0;
	switch (data[0]) {
	case 0x95: /* register read: one byte on 0x84 */
		c->resp[0] = data[1] == 0x57   ? 0x16
			     : data[1] == 0x7e ? 0x80
					       : 0;
		c->resp_len = 1;
		break;
	case 0x05:
	case 0x06:
		c->mode = data[0];
		break;
	case 0x04:
		usbcam_chip_stream(c, V4L2_PIX_FMT_JL2005BCD,
				   c->mode == 0x05 ? 640 : 320,
				   c->mode == 0x05 ? 480 : 240);
		break;
	case 0x07:
		usbcam_stream_stop(c);
		break;
	}
	return 0;
}

static int jl_payload(struct usbcam *c, uint8_t *out, int max)
{
	if (c->s.ep == 0x84)
		return usbcam_chip_response(c, out, max);
	return usbcam_chip_raw(c, out, max);
}

static size_t jl_frame(struct usbcam *c, uint8_t *buf, size_t len, size_t cap)
{
	(void)c;
	(void)cap;
	if (len >= 16) {
		buf[0] = 'J';
		buf[1] = 'L';
		buf[7] = (uint8_t)(len / 0x200 < 255 ? len / 0x200 : 255);
	}
	return len;
}

const struct usbcam_chip usbcam_chip_jl2005bcd = {
	.name = "jl2005bcd",
	.nalts = 1,
	.alts = { { 3,
		    { { 0x82, usb_redir_type_bulk, 64, 0 },
		      { 0x03, usb_redir_type_bulk, 64, 0 },
		      { 0x84, usb_redir_type_bulk, 64, 0 } } } },
	.payload = jl_payload,
	.bulk_out = jl_bulk_out,
	.frame = jl_frame,
};

/* ---- SE401 ------------------------------------------------------------- */

static int se401_control(struct usbcam *c,
			 const struct usb_redir_control_packet_header *h,
			 uint8_t *data, int len)
{
	/* smallest first: the driver takes the last size that fits */
	static const uint16_t sizes[3][2] = { { 160, 120 },
					      { 320, 240 },
					      { 640, 480 } };

	if (h->endpoint & 0x80) {
		memset(data, 0, (size_t)len);
		if (h->request == 0x06 && len >= 6 + 12) {
			data[1] = 0x41;
			data[2] = 0x40; /* Bayer */
			data[4] = 3;
			for (int i = 0; i < 3; i++) {
				data[6 + 4 * i] = sizes[i][0] & 0xff;
				data[7 + 4 * i] = sizes[i][0] >> 8;
				data[8 + 4 * i] = sizes[i][1] & 0xff;
				data[9 + 4 * i] = sizes[i][1] >> 8;
			}
		}
		return len;
	}
	switch (h->request) {
	case 0x4d:
		c->regs[0] = (uint8_t)(h->value / 8);
		break;
	case 0x4f:
		c->regs[1] = (uint8_t)(h->value / 8);
		break;
	case 0x53: /* a feature; the operating mode gives the scaling */
		if (h->index == 0x2000)
			c->mode = (h->value & 0x0f) == 0x03 ? 1
				  : h->value & 0x02         ? 4
							    : 2;
		break;
	case 0x41:
		if (c->mode > 1)
			usbcam_chip_stream(c, V4L2_PIX_FMT_SE401,
					   c->regs[0] * 8 / c->mode,
					   c->regs[1] * 8 / c->mode);
		break;
	case 0x42:
		usbcam_stream_stop(c);
		break;
	}
	return 0;
}

const struct usbcam_chip usbcam_chip_se401 = {
	.name = "se401",
	.nalts = 1,
	.alts = { { 1, { { 0x82, usb_redir_type_bulk, 64, 0 } } } },
	.control = se401_control,
	.payload = usbcam_chip_raw,
};
