/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Pieces shared by the gspca chips (chips.h). */
#include "chips.h"

#include <string.h>

/* The chips' cameras run at 30 frames a second where the bus lets them. */
#define CHIP_INTERVAL_NS (1000000000ull / 30)

void usbcam_chip_stream(struct usbcam *c, uint32_t fourcc, int w, int h)
{
	usbcam_stream_start(c, fourcc, w, h, CHIP_INTERVAL_NS);
	c->pkt = 0;
}

int usbcam_chip_raw(struct usbcam *c, uint8_t *out, int max)
{
	struct usbcam_stream *s = &c->s;
	size_t n;

	if (max <= 0 || !usbcam_stream_next(c))
		return 0;
	n = s->len - s->off;
	if (n > (size_t)max)
		n = (size_t)max;
	memcpy(out, s->buf + s->off, n);
	s->off += n;
	if (s->off >= s->len)
		usbcam_stream_done(c);
	return (int)n;
}

size_t usbcam_chip_prepend(uint8_t *buf, size_t len, size_t cap,
			   const uint8_t *head, size_t n)
{
	if (len + n > cap)
		return len;
	memmove(buf + n, buf, len);
	memcpy(buf, head, n);
	return len + n;
}

int usbcam_chip_response(struct usbcam *c, uint8_t *out, int max)
{
	int n = max < (int)sizeof(c->resp) ? max : (int)sizeof(c->resp);

	memset(out, 0, (size_t)n);
	memcpy(out, c->resp, (size_t)(c->resp_len < n ? c->resp_len : n));
	c->resp_len = 0;
	return n;
}
