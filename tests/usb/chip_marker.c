/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Chips whose frames start with a marker in the isochronous stream, a
 * frame ending where the next begins: the Pixart marker ff ff 00 ff 96
 * (PAC207, MR97310A), the Sonix one ff ff 00 c4 c4 96 (SN9C10x).
 *
 * PAC207 (gspca_pac207): registers read and written one at a time by
 * vendor requests to the interface (request 0: wIndex the register, wValue
 * the value; request 1: a block from wIndex); the driver checks the chip
 * id in registers 0 and 1; register 0x40 starts (1) and stops (0) the
 * stream, bit 0 of register 0x41 selects 176x144 (else 352x288). After the
 * marker, 11 header bytes, the fifth the mean luma the driver's auto gain
 * reads; the driver passes what follows them.
 *
 * MR97310A (gspca_mr97310a, a VGA camera): commands written to bulk
 * endpoint 4; a one-byte command asks for a 16-byte reply on endpoint
 * 0x83 (register 0x21: the status the driver waits to read 0x0a; 0x07:
 * the sensor type, 03 00). An 11-byte command starting 00 sets the frame
 * (byte 3: width / 8, byte 4: height / 4, byte 9: scaling 2 or 4), and
 * 00 4d enables the stream. The driver keeps the marker in the frame (the
 * first 5 of the 12 header bytes).
 *
 * SN9C102 with an HV7131D sensor (gspca_sonixb, 0c45:602a): registers
 * written in blocks by vendor request 8 to the interface (wValue the first
 * register), read by request 0; register 0 reads 0x10 (the bridge), the
 * I2C status register 8 reads "done" (bit 2). The driver starts the
 * stream by writing registers 0x18-0x19, 0x18 giving the mode (bits 4-5:
 * 0 640x480, 1 320x240, 2 160x120) and compression (bit 7; without it
 * 160x120 raw BGGR). After the marker, 6 header bytes (bytes 4-5 of the
 * 12: the brightness sum the driver's auto exposure reads; a zero would
 * make it drop frames); the driver passes what follows them.
 */
#include "chips.h"

#include <linux/videodev2.h>
#include <string.h>

static const uint8_t sof[5] = { 0xff, 0xff, 0x00, 0xff, 0x96 };

static int pac207_control(struct usbcam *c,
			  const struct usb_redir_control_packet_header *h,
			  uint8_t *data, int len)
{
	uint8_t reg = (uint8_t)h->index;

	if (h->endpoint & 0x80) { /* read */
		if (len < 1)
			return -1;
		data[0] = reg == 0 ? 0x02 : reg == 1 ? 0x70 : c->regs[reg];
		return 1;
	}
	if (h->request == 0x01) { /* a block of registers */
		for (int i = 0; i < len && reg + i < 256; i++)
			c->regs[reg + i] = data[i];
		return 0;
	}
	c->regs[reg] = (uint8_t)h->value;
	if (reg == 0x40) {
		if (h->value & 1)
			usbcam_chip_stream(c, V4L2_PIX_FMT_PAC207,
					   c->regs[0x41] & 1 ? 176 : 352,
					   c->regs[0x41] & 1 ? 144 : 288);
		else
			usbcam_stream_stop(c);
	}
	return 0;
}

static size_t pac207_frame(struct usbcam *c, uint8_t *buf, size_t len,
			   size_t cap)
{
	uint8_t head[16] = { 0 };

	(void)c;
	memcpy(head, sof, sizeof(sof));
	head[5 + 4] = 0x60; /* mean luma, for the driver's auto gain */
	return usbcam_chip_prepend(buf, len, cap, head, sizeof(head));
}

const struct usbcam_chip usbcam_chip_pac207 = {
	.name = "pac207",
	.nalts = 5,
	.alts = { { 0, { { 0 } } }, USBCAM_FS_ISO(0x85) },
	.control = pac207_control,
	.payload = usbcam_chip_raw,
	.frame = pac207_frame,
};

/* ---- MR97310A ---------------------------------------------------------- */

static int mr_bulk_out(struct usbcam *c, uint8_t ep, const uint8_t *data,
		       int len)
{
	(void)ep;
	if (len == 1) {
		/* a query: its 16-byte answer comes on endpoint 0x83 */
		memset(c->resp, 0, 16);
		if (data[0] == 0x21)
			c->resp[0] = 0x0a;
		else if (data[0] == 0x07)
			c->resp[0] = 0x03;
		c->resp_len = 16;
	} else if (len >= 11 && data[0] == 0x00) {
		int scale = (data[9] & 0x0c) == 0x0c ? 4
			    : data[9] & 0x04         ? 2
						     : 1;

		c->regs[0] = data[3];
		c->regs[1] = data[4];
		c->mode = scale;
	} else if (len == 2 && data[0] == 0x00 && data[1] == 0x4d) {
		int scale = c->mode ? c->mode : 1;

		usbcam_chip_stream(c, V4L2_PIX_FMT_MR97310A,
				   c->regs[0] * 8 / scale,
				   c->regs[1] * 4 / scale);
	} else if (len == 2 && data[0] == 0x01 && data[1] == 0x00) {
		usbcam_stream_stop(c);
	}
	return 0;
}

static int mr_payload(struct usbcam *c, uint8_t *out, int max)
{
	if (c->s.ep == 0x83)
		return usbcam_chip_response(c, out, max);
	return usbcam_chip_raw(c, out, max);
}

static size_t mr_frame(struct usbcam *c, uint8_t *buf, size_t len, size_t cap)
{
	(void)c;
	(void)cap;
	if (len >= sizeof(sof))
		memcpy(buf, sof, sizeof(sof));
	return len;
}

#define MR_BULK                                                                \
	{ 0x04, usb_redir_type_bulk, 64, 0 },                                  \
	{                                                                      \
		0x83, usb_redir_type_bulk, 64, 0                               \
	}

const struct usbcam_chip usbcam_chip_mr97310a = {
	.name = "mr97310a",
	.nalts = 5,
	.alts = {
		{ 2, { MR_BULK } },
		{ 3, { MR_BULK, { 0x81, usb_redir_type_iso, 256, 1 } } },
		{ 3, { MR_BULK, { 0x81, usb_redir_type_iso, 512, 1 } } },
		{ 3, { MR_BULK, { 0x81, usb_redir_type_iso, 768, 1 } } },
		{ 3, { MR_BULK, { 0x81, usb_redir_type_iso, 1023, 1 } } },
	},
	.payload = mr_payload,
	.bulk_out = mr_bulk_out,
	.frame = mr_frame,
};

/* ---- SN9C10x ----------------------------------------------------------- */

static int sonixb_control(struct usbcam *c,
			  const struct usb_redir_control_packet_header *h,
			  uint8_t *data, int len)
{
	int reg = h->value & 0xff;

	if (h->endpoint & 0x80) {
		if (len < 1)
			return -1;
		data[0] = reg == 0x00   ? 0x10
			  : reg == 0x08 ? 0x04
					: c->regs[reg];
		return 1;
	}
	for (int i = 0; i < len && reg + i < 256; i++)
		c->regs[reg + i] = data[i];
	if (reg == 0x18 && len == 2) {
		int mode = (c->regs[0x18] >> 4) & 3;

		usbcam_chip_stream(c,
				   c->regs[0x18] & 0x80 ? V4L2_PIX_FMT_SN9C10X
							: V4L2_PIX_FMT_SBGGR8,
				   640 >> mode, 480 >> mode);
	} else if (reg == 0x01 && len == 1 && !(data[0] & 0x04)) {
		usbcam_stream_stop(c);
	}
	return 0;
}

static size_t sonixb_frame(struct usbcam *c, uint8_t *buf, size_t len,
			   size_t cap)
{
	const uint8_t head[12] = { 0xff, 0xff, 0x00, 0xc4, 0xc4, 0x96,
				   0x00, 0x00, 0x00, 0x10, 0x00, 0x10 };

	(void)c;
	return usbcam_chip_prepend(buf, len, cap, head, sizeof(head));
}

const struct usbcam_chip usbcam_chip_sonixb = {
	.name = "sonixb",
	.nalts = 5,
	.alts = { { 0, { { 0 } } }, USBCAM_FS_ISO(0x81) },
	.control = sonixb_control,
	.payload = usbcam_chip_raw,
	.frame = sonixb_frame,
};
