/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * USB descriptors of an emulated camera, built from its description: the
 * device descriptor, the configuration (a UVC 1.1 function: control
 * interface with camera terminal, processing unit and output terminal, a
 * streaming interface with one format descriptor per format; or a vendor
 * interface with the chip's alternate settings) and the strings.
 */
#include "usbcam.h"

#include <errno.h>
#include <linux/videodev2.h>
#include <stdlib.h>
#include <string.h>

struct buf {
	uint8_t *d;
	size_t n, cap;
};

/* Past the capacity only the length grows (checked at the end). */
static void put8(struct buf *b, unsigned v)
{
	if (b->n < b->cap)
		b->d[b->n] = (uint8_t)v;
	b->n++;
}

static void put16(struct buf *b, unsigned v)
{
	put8(b, v & 0xff);
	put8(b, v >> 8);
}

static void put32(struct buf *b, uint32_t v)
{
	put16(b, v & 0xffff);
	put16(b, v >> 16);
}

static void set16(struct buf *b, size_t at, unsigned v)
{
	b->d[at] = (uint8_t)(v & 0xff);
	b->d[at + 1] = (uint8_t)(v >> 8);
}

static void interface(struct buf *b, int num, int alt, int neps, int cls,
		      int sub, int str)
{
	put8(b, 9);
	put8(b, 4);
	put8(b, num);
	put8(b, alt);
	put8(b, neps);
	put8(b, cls);
	put8(b, sub);
	put8(b, 0);
	put8(b, str);
}

static void endpoint(struct buf *b, uint8_t addr, uint8_t type, uint16_t maxp,
		     uint8_t interval)
{
	put8(b, 7);
	put8(b, 5);
	put8(b, addr);
	/* isochronous endpoints asynchronous, as cameras' are */
	put8(b, type == usb_redir_type_iso ? 0x05 : type);
	put16(b, maxp);
	put8(b, interval);
}

/* Per bmControls bit of a unit, the controls the camera has. */
static uint32_t unit_controls(const struct usbcam_desc *d, uint8_t unit)
{
	uint32_t m = 0;

	for (int i = 0; i < d->nctrls; i++)
		if (d->ctrls[i].unit == unit)
			m |= 1u << d->ctrls[i].bit;
	return m;
}

static void uvc_control_interface(struct buf *b, const struct usbcam_desc *d)
{
	uint32_t ct = unit_controls(d, UVC_ID_CT);
	uint32_t pu = unit_controls(d, UVC_ID_PU);
	size_t hdr;

	interface(b, 0, 0, 0, 0x0e, 0x01, 2);
	hdr = b->n;
	put8(b, 13); /* VC_HEADER, one streaming interface */
	put8(b, 0x24);
	put8(b, 0x01);
	put16(b, 0x0110);
	put16(b, 0); /* wTotalLength, below */
	put32(b, 48000000);
	put8(b, 1);
	put8(b, 1);
	put8(b, 18); /* camera terminal, 3 bytes of controls */
	put8(b, 0x24);
	put8(b, 0x02);
	put8(b, UVC_ID_CT);
	put16(b, 0x0201);
	put8(b, 0);
	put8(b, 0);
	put16(b, 0);
	put16(b, 0);
	put16(b, 0);
	put8(b, 3);
	put8(b, ct & 0xff);
	put8(b, (ct >> 8) & 0xff);
	put8(b, (ct >> 16) & 0xff);
	put8(b, 12); /* processing unit (UVC 1.1), 2 bytes of controls */
	put8(b, 0x24);
	put8(b, 0x05);
	put8(b, UVC_ID_PU);
	put8(b, UVC_ID_CT);
	put16(b, 0);
	put8(b, 2);
	put8(b, pu & 0xff);
	put8(b, (pu >> 8) & 0xff);
	put8(b, 0);
	put8(b, 0);
	put8(b, 9); /* output terminal: USB streaming */
	put8(b, 0x24);
	put8(b, 0x03);
	put8(b, UVC_ID_OT);
	put16(b, 0x0101);
	put8(b, 0);
	put8(b, UVC_ID_PU);
	put8(b, 0);
	set16(b, hdr + 5, (unsigned)(b->n - hdr));
}

static const uint8_t guid_yuy2[16] = {
	'Y',  'U',  'Y',  '2',  0x00, 0x00, 0x10, 0x00,
	0x80, 0x00, 0x00, 0xaa, 0x00, 0x38, 0x9b, 0x71,
};

static void uvc_format(struct buf *b, const struct usbcam_format *f, int idx)
{
	int mjpeg = f->fourcc == V4L2_PIX_FMT_MJPEG;

	if (mjpeg) {
		put8(b, 11);
		put8(b, 0x24);
		put8(b, 0x06);
		put8(b, idx);
		put8(b, f->nsizes);
		put8(b, 1); /* bmFlags: fixed size samples */
		put8(b, 1);
		put8(b, 0);
		put8(b, 0);
		put8(b, 0);
		put8(b, 0);
	} else {
		put8(b, 27);
		put8(b, 0x24);
		put8(b, 0x04);
		put8(b, idx);
		put8(b, f->nsizes);
		for (int i = 0; i < 16; i++)
			put8(b, guid_yuy2[i]);
		put8(b, 16);
		put8(b, 1);
		put8(b, 0);
		put8(b, 0);
		put8(b, 0);
		put8(b, 0);
	}
	for (int i = 0; i < f->nsizes; i++) {
		const struct usbcam_size *s = &f->sizes[i];
		uint32_t fb = (uint32_t)s->w * s->h * 2;
		uint32_t fps = 10000000u / s->interval[0];

		put8(b, 26 + 4 * s->nint);
		put8(b, 0x24);
		put8(b, mjpeg ? 0x07 : 0x05);
		put8(b, i + 1);
		put8(b, 0);
		put16(b, s->w);
		put16(b, s->h);
		put32(b, fb * 8 * (10000000u / s->interval[s->nint - 1]));
		put32(b, fb * 8 * fps);
		put32(b, fb);
		put32(b, s->interval[0]);
		put8(b, s->nint);
		for (int k = 0; k < s->nint; k++)
			put32(b, s->interval[k]);
	}
	/* colour matching: BT.709 primaries and transfer, BT.601 matrix */
	put8(b, 6);
	put8(b, 0x24);
	put8(b, 0x0d);
	put8(b, 1);
	put8(b, 1);
	put8(b, 4);
}

/* Isochronous alternate settings: growing packet sizes, as cameras have. */
static const uint16_t uvc_iso_maxp[] = { 0x0080, 0x0200, 0x0400, 0x0b20,
					 0x1400 };

static void uvc_streaming_interface(struct buf *b, const struct usbcam_desc *d)
{
	int bulk = d->xfer == USBCAM_BULK;
	size_t hdr;

	interface(b, 1, 0, bulk, 0x0e, 0x02, 0);
	if (bulk)
		endpoint(b, 0x81, usb_redir_type_bulk,
			 d->speed == usb_redir_speed_high ? 512 : 64, 0);
	hdr = b->n;
	put8(b, 13 + d->nformats);
	put8(b, 0x24);
	put8(b, 0x01);
	put8(b, d->nformats);
	put16(b, 0);
	put8(b, 0x81);
	put8(b, 0);
	put8(b, UVC_ID_OT);
	put8(b, 0);
	put8(b, 0);
	put8(b, 0);
	put8(b, 1);
	for (int i = 0; i < d->nformats; i++)
		put8(b, 0);
	for (int i = 0; i < d->nformats; i++)
		uvc_format(b, &d->formats[i], i + 1);
	set16(b, hdr + 4, (unsigned)(b->n - hdr));
	if (bulk)
		return;
	for (size_t a = 0; a < sizeof(uvc_iso_maxp) / sizeof(uvc_iso_maxp[0]);
	     a++) {
		interface(b, 1, (int)a + 1, 1, 0x0e, 0x02, 0);
		endpoint(b, 0x81, usb_redir_type_iso, uvc_iso_maxp[a], 1);
	}
}

static void chip_interface(struct buf *b, const struct usbcam_chip *chip)
{
	for (int a = 0; a < chip->nalts; a++) {
		const struct usbcam_alt *alt = &chip->alts[a];

		interface(b, 0, a, alt->nep, 0xff, 0xff, 0);
		for (int e = 0; e < alt->nep; e++)
			endpoint(b, alt->ep[e].addr, alt->ep[e].type,
				 alt->ep[e].maxp, alt->ep[e].interval);
	}
}

int usbcam_build_config(struct usbcam *c)
{
	const struct usbcam_desc *d = c->d;
	struct buf bb = { calloc(1, 4096), 0, 4096 }, *b = &bb;

	if (!b->d)
		return -ENOMEM;
	put8(b, 9);
	put8(b, 2);
	put16(b, 0);
	put8(b, d->chip ? 1 : 2);
	put8(b, 1);
	put8(b, 0);
	put8(b, 0x80);
	put8(b, 250);
	if (d->chip) {
		chip_interface(b, d->chip);
	} else {
		put8(b, 8); /* interface association: the video function */
		put8(b, 0x0b);
		put8(b, 0);
		put8(b, 2);
		put8(b, 0x0e);
		put8(b, 0x03);
		put8(b, 0);
		put8(b, 2);
		uvc_control_interface(b, d);
		uvc_streaming_interface(b, d);
	}
	if (b->n > b->cap) {
		free(b->d);
		return -ENOSPC;
	}
	set16(b, 2, (unsigned)b->n);
	c->cfg = b->d;
	c->cfg_len = b->n;
	return 0;
}

static int string_desc(const char *s, uint8_t *out, int max)
{
	int n = 2;

	for (; *s && n + 2 <= max && n + 2 <= 254; s++, n += 2) {
		out[n] = (uint8_t)*s;
		out[n + 1] = 0;
	}
	out[0] = (uint8_t)n;
	out[1] = 3;
	return n;
}

static int copy_out(const uint8_t *src, size_t n, uint8_t *out, int max)
{
	if ((size_t)max < n)
		n = (size_t)max;
	memcpy(out, src, n);
	return (int)n;
}

/* GET_DESCRIPTOR; -1 (stall) for what the camera has not. */
int usbcam_get_descriptor(struct usbcam *c, uint8_t type, uint8_t index,
			  uint8_t *out, int max)
{
	const struct usbcam_desc *d = c->d;
	uint8_t dev[18] = {
		18,
		1,
		0x00,
		0x02,
		d->chip ? 0x00 : 0xef,
		d->chip ? 0x00 : 0x02,
		d->chip ? 0x00 : 0x01,
		64,
		d->vid & 0xff,
		d->vid >> 8,
		d->pid & 0xff,
		d->pid >> 8,
		d->bcd & 0xff,
		d->bcd >> 8,
		1,
		2,
		0,
		1,
	};
	uint8_t tmp[256];

	if (d->speed != usb_redir_speed_high)
		dev[2] = 0x10, dev[3] = 0x01;
	switch (type) {
	case 1:
		return copy_out(dev, sizeof(dev), out, max);
	case 2:
		return copy_out(c->cfg, c->cfg_len, out, max);
	case 3:
		if (index == 0) {
			const uint8_t lang[4] = { 4, 3, 0x09, 0x04 };

			return copy_out(lang, 4, out, max);
		}
		if (index > 2)
			return -1;
		return copy_out(tmp,
				(size_t)string_desc(index == 1 ? d->vendor
							       : d->product,
						    tmp, sizeof(tmp)),
				out, max);
	}
	return -1;
}
