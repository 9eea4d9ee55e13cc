/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A UVC 1.1 camera: the video probe and commit controls (a commit starts
 * the stream afresh), the camera terminal and processing unit controls of
 * the description (GET_CUR/MIN/MAX/RES/DEF/INFO/LEN, SET_CUR, out-of-range
 * values stalled with the request error code set), and the payloads: a
 * 2-byte header (FID, EOF) and frame data, one per isochronous packet or
 * bulk reply.
 */
#include "usbcam.h"

#include <linux/videodev2.h>
#include <string.h>

#define UVC_SET_CUR 0x01
#define UVC_GET_CUR 0x81
#define UVC_GET_MIN 0x82
#define UVC_GET_MAX 0x83
#define UVC_GET_RES 0x84
#define UVC_GET_LEN 0x85
#define UVC_GET_INFO 0x86
#define UVC_GET_DEF 0x87

/* Request error codes (VC_REQUEST_ERROR_CODE_CONTROL). */
enum { ERR_NONE = 0, ERR_RANGE = 4, ERR_CONTROL = 6, ERR_REQUEST = 7 };

#define PROBE_LEN 34

static void put_le(uint8_t *p, int size, uint32_t v)
{
	for (int i = 0; i < size; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get_le(const uint8_t *p, int size)
{
	uint32_t v = 0;

	for (int i = 0; i < size; i++)
		v |= (uint32_t)p[i] << (8 * i);
	return v;
}

/* The format and size a probe names, clamped to what exists. */
static void probe_fix(const struct usbcam *c, uint8_t *p)
{
	const struct usbcam_desc *d = c->d;
	int fi = p[2], si = p[3];
	const struct usbcam_format *f;
	const struct usbcam_size *sz;
	uint32_t want = get_le(p + 4, 4), best;

	if (fi < 1 || fi > d->nformats)
		fi = 1;
	f = &d->formats[fi - 1];
	if (si < 1 || si > f->nsizes)
		si = 1;
	sz = &f->sizes[si - 1];
	best = sz->interval[0];
	for (int k = 0; k < sz->nint; k++) {
		uint32_t a = sz->interval[k];

		if ((a > want ? a - want : want - a) <
		    (best > want ? best - want : want - best))
			best = a;
	}
	p[2] = (uint8_t)fi;
	p[3] = (uint8_t)si;
	put_le(p + 4, 4, best);
	put_le(p + 18, 4, (uint32_t)sz->w * sz->h * 2);
	/* isochronous: the largest setting; bulk: one 16 KiB payload per
	 * URB of uvcvideo (32 packets of 512 bytes) */
	put_le(p + 22, 4, d->xfer == USBCAM_BULK ? 16384 : 3072);
	put_le(p + 26, 4, 48000000);
	p[30] = 3;
	p[31] = 1;
	p[32] = 1;
	p[33] = 1;
}

static void probe_default(const struct usbcam *c, uint8_t *p)
{
	memset(p, 0, PROBE_LEN);
	p[0] = 1;
	p[2] = 1;
	p[3] = 1;
	put_le(p + 4, 4, c->d->formats[0].sizes[0].interval[0]);
	probe_fix(c, p);
}

void usbcam_uvc_reset(struct usbcam *c)
{
	probe_default(c, c->probe);
	memcpy(c->commit, c->probe, PROBE_LEN);
	for (int i = 0; i < c->d->nctrls && i < USBCAM_MAX_CTRLS; i++)
		c->ctrl_cur[i] = c->d->ctrls[i].def;
	c->error_code = ERR_NONE;
	c->lens_pos = usbcam_uvc_ctrl_value(c, UVC_ID_CT, 0x06, c->d->lens);
}

static void commit(struct usbcam *c)
{
	const struct usbcam_format *f = &c->d->formats[c->commit[2] - 1];
	const struct usbcam_size *sz = &f->sizes[c->commit[3] - 1];

	usbcam_stream_start(c, f->fourcc, sz->w, sz->h,
			    (uint64_t)get_le(c->commit + 4, 4) * 100);
}

static int streaming_request(struct usbcam *c, int cs, int req, uint8_t *data,
			     int len)
{
	uint8_t *ctl = cs == 1 ? c->probe : c->commit;

	if (cs != 1 && cs != 2)
		return -1;
	switch (req) {
	case UVC_SET_CUR:
		if (len < 26)
			return -1;
		memcpy(ctl, data, (size_t)(len < PROBE_LEN ? len : PROBE_LEN));
		probe_fix(c, ctl);
		if (cs == 2)
			commit(c);
		return 0;
	case UVC_GET_CUR:
	case UVC_GET_MIN:
	case UVC_GET_MAX:
	case UVC_GET_DEF: {
		uint8_t tmp[PROBE_LEN];

		if (req == UVC_GET_CUR)
			memcpy(tmp, ctl, PROBE_LEN);
		else
			probe_default(c, tmp);
		if (req != UVC_GET_CUR && cs == 1)
			memcpy(tmp + 2, ctl + 2, 6); /* the asked format */
		probe_fix(c, tmp);
		memcpy(data, tmp, (size_t)(len < PROBE_LEN ? len : PROBE_LEN));
		return len < PROBE_LEN ? len : PROBE_LEN;
	}
	case UVC_GET_LEN:
		put_le(data, 2, PROBE_LEN);
		return 2;
	case UVC_GET_INFO:
		data[0] = 3;
		return 1;
	}
	return -1;
}

static int find_ctrl(const struct usbcam *c, int unit, int cs)
{
	for (int i = 0; i < c->d->nctrls; i++)
		if (c->d->ctrls[i].unit == unit &&
		    c->d->ctrls[i].selector == cs)
			return i;
	return -1;
}

int32_t usbcam_uvc_ctrl_value(const struct usbcam *c, uint8_t unit,
			      uint8_t selector, int32_t fallback)
{
	int i = find_ctrl(c, unit, selector);

	return i < 0 ? fallback : c->ctrl_cur[i];
}

static int32_t sign_extend(uint32_t v, int size)
{
	if (size < 4 && (v & (1u << (8 * size - 1))))
		v |= ~0u << (8 * size);
	return (int32_t)v;
}

static int set_ctrl(struct usbcam *c, int i, const uint8_t *data, int len)
{
	const struct usbcam_uvc_ctrl *k = &c->d->ctrls[i];
	int32_t v;
	int ae = k->unit == UVC_ID_CT && k->selector == 0x02;

	if (len < k->size)
		return -1;
	v = sign_extend(get_le(data, k->size), k->size);
	/* the AE mode is a single bit of the supported-modes mask */
	if (ae ? !v || (v & (v - 1)) || (v & ~k->res)
	       : v < k->min || v > k->max) {
		c->error_code = ERR_RANGE;
		usbcam_log(c, "set %s = %d: out of range", k->name, v);
		return -1;
	}
	c->ctrl_cur[i] = v;
	usbcam_log(c, "set %s = %d", k->name, v);
	return 0;
}

static int unit_request(struct usbcam *c, int unit, int cs, int req,
			uint8_t *data, int len)
{
	int i = find_ctrl(c, unit, cs);
	const struct usbcam_uvc_ctrl *k;
	int32_t v;

	if (i < 0) {
		c->error_code = ERR_CONTROL;
		return -1;
	}
	k = &c->d->ctrls[i];
	switch (req) {
	case UVC_SET_CUR:
		return set_ctrl(c, i, data, len);
	case UVC_GET_INFO:
		data[0] = 3; /* GET and SET */
		return 1;
	case UVC_GET_LEN:
		put_le(data, 2, k->size);
		return 2;
	case UVC_GET_CUR:
		v = c->ctrl_cur[i];
		break;
	case UVC_GET_MIN:
		v = k->min;
		break;
	case UVC_GET_MAX:
		v = k->max;
		break;
	case UVC_GET_RES:
		v = k->res;
		break;
	case UVC_GET_DEF:
		v = k->def;
		break;
	default:
		c->error_code = ERR_REQUEST;
		return -1;
	}
	if (len < k->size)
		return -1;
	put_le(data, k->size, (uint32_t)v);
	return k->size;
}

int usbcam_uvc_control(struct usbcam *c,
		       const struct usb_redir_control_packet_header *h,
		       uint8_t *data, int len)
{
	int iface = h->index & 0xff, entity = h->index >> 8;
	int cs = h->value >> 8, ret;

	if ((h->requesttype & 0x1f) != 1) /* to an interface */
		return -1;
	if (iface == 1 && entity == 0)
		return streaming_request(c, cs, h->request, data, len);
	if (iface != 0)
		return -1;
	if (entity == 0) {
		/* VC_REQUEST_ERROR_CODE_CONTROL */
		if (cs != 2 || len < 1)
			return -1;
		data[0] = h->request == UVC_GET_INFO ? 1 : c->error_code;
		return 1;
	}
	ret = unit_request(c, entity, cs, h->request, data, len);
	if (ret >= 0)
		c->error_code = ERR_NONE;
	return ret;
}

int usbcam_uvc_payload(struct usbcam *c, uint8_t *out, int max)
{
	struct usbcam_stream *s = &c->s;
	size_t n;

	if (max <= 2 || !usbcam_stream_next(c))
		return 0;
	n = s->len - s->off;
	if (n > (size_t)max - 2)
		n = (size_t)max - 2;
	out[0] = 2;
	out[1] = (uint8_t)(0x80 | s->fid);
	memcpy(out + 2, s->buf + s->off, n);
	s->off += n;
	if (s->off >= s->len) {
		out[1] |= 0x02; /* end of frame */
		usbcam_stream_done(c);
	}
	return (int)n + 2;
}
