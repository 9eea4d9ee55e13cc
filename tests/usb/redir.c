/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The usbredir side of a camera: libusbredirparser in the "usb-host" role
 * (the end that owns the device) over the socket QEMU's usb-redir chardev
 * connects to. QEMU answers SET_ADDRESS itself and sends configuration and
 * alternate-setting changes as their own packets (each answered after the
 * new endpoint table); everything else on endpoint 0 is a control packet
 * answered here. Isochronous IN has no flow control: packets are pushed at
 * the bus rate (8000/s at high speed, 1000/s at full speed) by the clock.
 * Bulk IN is request and reply: requests wait until the stream has data.
 */
#include "usbcam.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int rd(void *priv, uint8_t *data, int count)
{
	struct usbcam *c = priv;
	ssize_t n = read(c->fd, data, (size_t)count);

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (n <= 0)
		return -1;
	return (int)n;
}

static int wr(void *priv, uint8_t *data, int count)
{
	struct usbcam *c = priv;
	ssize_t n = write(c->fd, data, (size_t)count);

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (n < 0)
		return -1;
	return (int)n;
}

static void plog(void *priv, int level, const char *msg)
{
	if (level <= usbredirparser_warning)
		usbcam_log(priv, "usbredir: %s", msg);
}

/* Walk the configuration descriptor: call fn for each interface
 * descriptor (at its offset) whose alternate setting is the current one. */
static int cur_alt_of(const struct usbcam *c, int iface)
{
	return iface < 4 ? c->alt[iface] : 0;
}

void usbcam_send_ep_info(struct usbcam *c)
{
	struct usb_redir_ep_info_header ep;
	int iface = -1, take = 0;

	memset(&ep, 0, sizeof(ep));
	memset(ep.type, usb_redir_type_invalid, sizeof(ep.type));
	ep.type[0] = ep.type[16] = usb_redir_type_control;
	ep.max_packet_size[0] = ep.max_packet_size[16] = 64;
	for (size_t i = 9; c->config && i + 2 <= c->cfg_len; i += c->cfg[i]) {
		const uint8_t *dsc = c->cfg + i;

		if (!dsc[0])
			break;
		if (dsc[1] == 4) {
			iface = dsc[2];
			take = dsc[3] == cur_alt_of(c, iface);
		} else if (dsc[1] == 5 && take) {
			int slot = ((dsc[2] & 0x80) >> 3) | (dsc[2] & 0x0f);

			ep.type[slot] = dsc[3] & 3;
			ep.interval[slot] = dsc[6];
			ep.interface[slot] = (uint8_t)iface;
			ep.max_packet_size[slot] =
				(uint16_t)(dsc[4] | dsc[5] << 8);
		}
	}
	usbredirparser_send_ep_info(c->p, &ep);
}

static void send_interface_info(struct usbcam *c)
{
	struct usb_redir_interface_info_header ii;

	memset(&ii, 0, sizeof(ii));
	for (size_t i = 9; i + 9 <= c->cfg_len; i += c->cfg[i]) {
		const uint8_t *dsc = c->cfg + i;

		if (!dsc[0])
			break;
		if (dsc[1] != 4 || dsc[3] != 0 || ii.interface_count >= 32)
			continue;
		ii.interface[ii.interface_count] = dsc[2];
		ii.interface_class[ii.interface_count] = dsc[5];
		ii.interface_subclass[ii.interface_count] = dsc[6];
		ii.interface_protocol[ii.interface_count] = dsc[7];
		ii.interface_count++;
	}
	usbredirparser_send_interface_info(c->p, &ii);
}

static void reset_state(struct usbcam *c)
{
	usbcam_stream_stop(c);
	c->config = 0;
	memset(c->alt, 0, sizeof(c->alt));
	if (!c->d->chip)
		usbcam_uvc_reset(c);
}

void usbcam_plug(struct usbcam *c)
{
	struct usb_redir_device_connect_header dc;

	if (!c->p || !c->hello || c->attached)
		return;
	reset_state(c);
	/* QEMU takes the device configured: endpoints of configuration 1 */
	c->config = 1;
	send_interface_info(c);
	usbcam_send_ep_info(c);
	memset(&dc, 0, sizeof(dc));
	dc.speed = c->d->speed;
	dc.device_class = c->d->chip ? 0x00 : 0xef;
	dc.device_subclass = c->d->chip ? 0x00 : 0x02;
	dc.device_protocol = c->d->chip ? 0x00 : 0x01;
	dc.vendor_id = c->d->vid;
	dc.product_id = c->d->pid;
	dc.device_version_bcd = c->d->bcd;
	usbredirparser_send_device_connect(c->p, &dc);
	c->attached = 1;
	usbcam_log(c, "plugged in");
}

void usbcam_unplug(struct usbcam *c)
{
	if (!c->p || !c->attached)
		return;
	usbcam_stream_stop(c);
	usbredirparser_send_device_disconnect(c->p);
	c->attached = 0;
	usbcam_log(c, "unplugged");
}

static void on_hello(void *priv, struct usb_redir_hello_header *h)
{
	struct usbcam *c = priv;

	(void)h;
	c->hello = 1;
	usbcam_plug(c);
}

static void on_reset(void *priv)
{
	reset_state(priv);
	((struct usbcam *)priv)->config = 1;
}

static void on_set_config(void *priv, uint64_t id,
			  struct usb_redir_set_configuration_header *h)
{
	struct usbcam *c = priv;
	struct usb_redir_configuration_status_header st = { usb_redir_success,
							    h->configuration };

	usbcam_stream_stop(c);
	c->config = h->configuration;
	memset(c->alt, 0, sizeof(c->alt));
	usbcam_send_ep_info(c);
	usbredirparser_send_configuration_status(c->p, id, &st);
}

static void on_get_config(void *priv, uint64_t id)
{
	struct usbcam *c = priv;
	struct usb_redir_configuration_status_header st = { usb_redir_success,
							    c->config };

	usbredirparser_send_configuration_status(c->p, id, &st);
}

static int alt_exists(const struct usbcam *c, int iface, int alt)
{
	for (size_t i = 9; i + 9 <= c->cfg_len && c->cfg[i]; i += c->cfg[i])
		if (c->cfg[i + 1] == 4 && c->cfg[i + 2] == iface &&
		    c->cfg[i + 3] == alt)
			return 1;
	return 0;
}

static void on_set_alt(void *priv, uint64_t id,
		       struct usb_redir_set_alt_setting_header *h)
{
	struct usbcam *c = priv;
	struct usb_redir_alt_setting_status_header st = { usb_redir_success,
							  h->interface,
							  h->alt };

	if (h->interface >= 4 || !alt_exists(c, h->interface, h->alt)) {
		st.status = usb_redir_inval;
	} else {
		c->alt[h->interface] = h->alt;
		/* back to the zero-bandwidth setting: the stream stops */
		if (h->alt == 0 && c->s.iso)
			usbcam_stream_stop(c);
		usbcam_send_ep_info(c);
	}
	usbredirparser_send_alt_setting_status(c->p, id, &st);
}

static void on_get_alt(void *priv, uint64_t id,
		       struct usb_redir_get_alt_setting_header *h)
{
	struct usbcam *c = priv;
	struct usb_redir_alt_setting_status_header st = {
		usb_redir_success, h->interface, cur_alt_of(c, h->interface)
	};

	usbredirparser_send_alt_setting_status(c->p, id, &st);
}

static void on_start_iso(void *priv, uint64_t id,
			 struct usb_redir_start_iso_stream_header *h)
{
	struct usbcam *c = priv;
	struct usb_redir_iso_stream_status_header st = { usb_redir_success,
							 h->endpoint };

	c->s.iso_running = 1;
	c->s.iso_ep = h->endpoint;
	c->s.uframes = 0;
	c->s.iso_t0 = usbcam_now();
	usbredirparser_send_iso_stream_status(c->p, id, &st);
}

static void on_stop_iso(void *priv, uint64_t id,
			struct usb_redir_stop_iso_stream_header *h)
{
	struct usbcam *c = priv;
	struct usb_redir_iso_stream_status_header st = { usb_redir_success,
							 h->endpoint };

	c->s.iso_running = 0;
	usbredirparser_send_iso_stream_status(c->p, id, &st);
}

static void on_start_int(void *priv, uint64_t id,
			 struct usb_redir_start_interrupt_receiving_header *h)
{
	struct usbcam *c = priv;
	struct usb_redir_interrupt_receiving_status_header st = {
		usb_redir_success, h->endpoint
	};

	usbredirparser_send_interrupt_receiving_status(c->p, id, &st);
}

static void on_stop_int(void *priv, uint64_t id,
			struct usb_redir_stop_interrupt_receiving_header *h)
{
	struct usbcam *c = priv;
	struct usb_redir_interrupt_receiving_status_header st = {
		usb_redir_success, h->endpoint
	};

	usbredirparser_send_interrupt_receiving_status(c->p, id, &st);
}

static void on_alloc_streams(void *priv, uint64_t id,
			     struct usb_redir_alloc_bulk_streams_header *h)
{
	struct usbcam *c = priv;
	struct usb_redir_bulk_streams_status_header st = { h->endpoints, 0,
							   usb_redir_inval };

	usbredirparser_send_bulk_streams_status(c->p, id, &st);
}

static void on_free_streams(void *priv, uint64_t id,
			    struct usb_redir_free_bulk_streams_header *h)
{
	struct usbcam *c = priv;
	struct usb_redir_bulk_streams_status_header st = { h->endpoints, 0,
							   usb_redir_success };

	usbredirparser_send_bulk_streams_status(c->p, id, &st);
}

static void bulk_reply(struct usbcam *c, uint64_t id, uint8_t ep,
		       uint8_t status, uint8_t *data, int len)
{
	struct usb_redir_bulk_packet_header bh;

	memset(&bh, 0, sizeof(bh));
	bh.endpoint = ep;
	bh.status = status;
	bh.length = (uint16_t)(len & 0xffff);
	bh.length_high = (uint16_t)(len >> 16);
	usbredirparser_send_bulk_packet(c->p, id, &bh, data, len);
}

static void drop_pending(struct usbcam_stream *s, int i);

static void on_cancel(void *priv, uint64_t id)
{
	struct usbcam *c = priv;
	struct usbcam_stream *s = &c->s;

	for (int i = 0; i < s->npending; i++) {
		if (s->pending_id[i] != id)
			continue;
		bulk_reply(c, id, s->pending_ep[i], usb_redir_cancelled, NULL,
			   0);
		drop_pending(s, i);
		return;
	}
}

/* Standard requests QEMU leaves to the device. */
static int standard_request(struct usbcam *c,
			    const struct usb_redir_control_packet_header *h,
			    uint8_t *data, int len)
{
	switch (h->request) {
	case 0x06: /* GET_DESCRIPTOR */
		return usbcam_get_descriptor(c, h->value >> 8, h->value & 0xff,
					     data, len);
	case 0x00: /* GET_STATUS */
		if (len < 2)
			return -1;
		data[0] = data[1] = 0;
		return 2;
	case 0x01: /* CLEAR_FEATURE: ENDPOINT_HALT ends a bulk stream */
		if ((h->requesttype & 0x1f) == 2 && h->value == 0) {
			c->f.stall_active = 0;
			if (!c->s.iso && c->s.on && !c->d->chip)
				usbcam_stream_stop(c);
		}
		return 0;
	case 0x03: /* SET_FEATURE */
		return 0;
	}
	return -1;
}

static void on_control(void *priv, uint64_t id,
		       struct usb_redir_control_packet_header *h, uint8_t *data,
		       int data_len)
{
	struct usbcam *c = priv;
	uint8_t buf[4096];
	int in = h->endpoint & 0x80, n;
	int len = h->length < sizeof(buf) ? h->length : (int)sizeof(buf);

	memset(buf, 0, sizeof(buf));
	if (!in && data_len > 0)
		memcpy(buf, data, (size_t)(data_len < len ? data_len : len));
	if (data)
		usbredirparser_free_packet_data(c->p, data);
	switch (h->requesttype & 0x60) {
	case 0x00:
		n = standard_request(c, h, buf, len);
		break;
	case 0x20:
		n = c->d->chip ? -1 : usbcam_uvc_control(c, h, buf, len);
		break;
	default:
		n = c->d->chip && c->d->chip->control
			    ? c->d->chip->control(c, h, buf, len)
			    : -1;
		break;
	}
	if (n < 0) {
		h->status = usb_redir_stall;
		h->length = 0;
		usbredirparser_send_control_packet(c->p, id, h, NULL, 0);
		return;
	}
	h->status = usb_redir_success;
	if (in) {
		h->length = (uint16_t)n;
		usbredirparser_send_control_packet(c->p, id, h, buf, n);
	} else {
		usbredirparser_send_control_packet(c->p, id, h, NULL, 0);
	}
}

static void on_bulk(void *priv, uint64_t id,
		    struct usb_redir_bulk_packet_header *h, uint8_t *data,
		    int data_len)
{
	struct usbcam *c = priv;
	struct usbcam_stream *s = &c->s;
	uint32_t len = h->length | (uint32_t)h->length_high << 16;

	if (!(h->endpoint & 0x80)) {
		int st = c->d->chip && c->d->chip->bulk_out
				 ? c->d->chip->bulk_out(c, h->endpoint, data,
							data_len)
				 : -1;

		if (data)
			usbredirparser_free_packet_data(c->p, data);
		bulk_reply(c, id, h->endpoint,
			   st < 0 ? usb_redir_stall : usb_redir_success, NULL,
			   0);
		return;
	}
	if (data)
		usbredirparser_free_packet_data(c->p, data);
	if (s->npending >=
	    (int)(sizeof(s->pending_id) / sizeof(s->pending_id[0]))) {
		bulk_reply(c, id, h->endpoint, usb_redir_ioerror, NULL, 0);
		return;
	}
	s->pending_id[s->npending] = id;
	s->pending_len[s->npending] = len;
	s->pending_ep[s->npending] = h->endpoint;
	s->npending++;
	usbcam_tick(c);
}

static void on_disconnect_ack(void *priv)
{
	(void)priv;
}

static void on_filter_reject(void *priv)
{
	(void)priv;
}

static void on_filter(void *priv, struct usbredirfilter_rule *rules, int count)
{
	(void)priv;
	(void)count;
	free(rules);
}

int usbcam_redir_open(struct usbcam *c, int fd)
{
	uint32_t caps[USB_REDIR_CAPS_SIZE] = { 0 };
	struct usbredirparser *p = usbredirparser_create();

	if (!p)
		return -ENOMEM;
	c->fd = fd;
	c->p = p;
	c->hello = c->attached = 0;
	p->priv = c;
	p->log_func = plog;
	p->read_func = rd;
	p->write_func = wr;
	p->hello_func = on_hello;
	p->reset_func = on_reset;
	p->set_configuration_func = on_set_config;
	p->get_configuration_func = on_get_config;
	p->set_alt_setting_func = on_set_alt;
	p->get_alt_setting_func = on_get_alt;
	p->start_iso_stream_func = on_start_iso;
	p->stop_iso_stream_func = on_stop_iso;
	p->start_interrupt_receiving_func = on_start_int;
	p->stop_interrupt_receiving_func = on_stop_int;
	p->alloc_bulk_streams_func = on_alloc_streams;
	p->free_bulk_streams_func = on_free_streams;
	p->cancel_data_packet_func = on_cancel;
	p->control_packet_func = on_control;
	p->bulk_packet_func = on_bulk;
	p->device_disconnect_ack_func = on_disconnect_ack;
	p->filter_reject_func = on_filter_reject;
	p->filter_filter_func = on_filter;
	usbredirparser_caps_set_cap(caps, usb_redir_cap_connect_device_version);
	usbredirparser_caps_set_cap(caps, usb_redir_cap_filter);
	usbredirparser_caps_set_cap(caps, usb_redir_cap_device_disconnect_ack);
	usbredirparser_caps_set_cap(caps,
				    usb_redir_cap_ep_info_max_packet_size);
	usbredirparser_caps_set_cap(caps, usb_redir_cap_64bits_ids);
	usbredirparser_caps_set_cap(caps, usb_redir_cap_32bits_bulk_length);
	usbredirparser_init(p, "libv4l usbcam", caps, USB_REDIR_CAPS_SIZE,
			    usbredirparser_fl_usb_host);
	return 0;
}

void usbcam_redir_close(struct usbcam *c)
{
	usbcam_stream_stop(c);
	if (c->p)
		usbredirparser_destroy(c->p);
	c->p = NULL;
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	c->hello = c->attached = 0;
	c->s.npending = 0;
}

/* ---- the clock: isochronous packets and bulk replies ------------------ */

static int payload(struct usbcam *c, uint8_t *out, int max)
{
	return c->d->chip ? c->d->chip->payload(c, out, max)
			  : usbcam_uvc_payload(c, out, max);
}

/* Bytes per (micro)frame of the streaming endpoint at its current setting
 * (wMaxPacketSize with the high-speed transactions-per-microframe bits). */
static int cur_maxp(const struct usbcam *c, uint8_t addr, int *type)
{
	int iface = -1, take = 0;

	for (size_t i = 9; i + 2 <= c->cfg_len && c->cfg[i]; i += c->cfg[i]) {
		const uint8_t *dsc = c->cfg + i;

		if (dsc[1] == 4) {
			iface = dsc[2];
			take = dsc[3] == cur_alt_of(c, iface);
		} else if (dsc[1] == 5 && take && dsc[2] == addr) {
			int mp = dsc[4] | dsc[5] << 8;

			*type = dsc[3] & 3;
			return (mp & 0x7ff) * (1 + ((mp >> 11) & 3));
		}
	}
	return 0;
}

static void tick_iso(struct usbcam *c, int64_t now)
{
	struct usbcam_stream *s = &c->s;
	int64_t period = c->d->speed == usb_redir_speed_high ? 125000 : 1000000;
	uint64_t due = (uint64_t)((now - s->iso_t0) / period);
	uint8_t pkt[3 * 1024];
	int type = 0, maxp = cur_maxp(c, s->iso_ep, &type);

	if (maxp <= 0 || type != usb_redir_type_iso)
		return;
	if (maxp > (int)sizeof(pkt))
		maxp = sizeof(pkt);
	/* A host that fell far behind skips, as a real bus would not wait. */
	if (due > s->uframes + 256)
		s->uframes = due - 256;
	while (s->uframes < due) {
		struct usb_redir_iso_packet_header ih;
		int n;

		/* QEMU is not reading: skip these (micro)frames before
		 * taking a packet of the frame, so that the camera only
		 * loses time (data lost here nobody would report). */
		if (usbredirparser_get_bufferered_output_size(c->p) >
		    (8u << 20)) {
			s->uframes = due;
			break;
		}
		s->ep = s->iso_ep;
		n = payload(c, pkt, maxp);
		ih.endpoint = s->iso_ep;
		ih.status = usb_redir_success;
		ih.length = (uint16_t)(n > 0 ? n : 0);
		usbredirparser_send_iso_packet(c->p, c->iso_id++, &ih, pkt,
					       ih.length);
		s->uframes++;
	}
}

static void drop_pending(struct usbcam_stream *s, int i)
{
	int rest = s->npending - i - 1;

	memmove(&s->pending_id[i], &s->pending_id[i + 1],
		(size_t)rest * sizeof(s->pending_id[0]));
	memmove(&s->pending_len[i], &s->pending_len[i + 1],
		(size_t)rest * sizeof(s->pending_len[0]));
	memmove(&s->pending_ep[i], &s->pending_ep[i + 1],
		(size_t)rest * sizeof(s->pending_ep[0]));
	s->npending--;
}

/* Bulk IN requests, in order per endpoint; an endpoint whose oldest
 * request has nothing yet holds its later ones, not the others'. */
static void tick_bulk(struct usbcam *c)
{
	struct usbcam_stream *s = &c->s;
	static uint8_t buf[1 << 20];
	uint32_t waiting = 0;

	for (int i = 0; i < s->npending;) {
		uint32_t want = s->pending_len[i];
		uint8_t ep = s->pending_ep[i];
		int n;

		if (waiting & (1u << (ep & 0x0f))) {
			i++;
			continue;
		}
		if (want > sizeof(buf))
			want = sizeof(buf);
		s->ep = ep;
		if (c->f.stall_active) {
			n = -1;
		} else {
			n = payload(c, buf, (int)want);
			if (n == 0) {
				waiting |= 1u << (ep & 0x0f);
				i++;
				continue;
			}
		}
		bulk_reply(c, s->pending_id[i], ep,
			   n < 0 ? usb_redir_stall : usb_redir_success, buf,
			   n < 0 ? 0 : n);
		drop_pending(s, i);
	}
}

void usbcam_tick(struct usbcam *c)
{
	int64_t now = usbcam_now();

	if (!c->p || !c->attached)
		return;
	if (c->s.iso_running)
		tick_iso(c, now);
	if (c->s.npending)
		tick_bulk(c);
}
