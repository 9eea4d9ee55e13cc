/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The stream of a camera: frames made on time from the picture of their
 * sequence number (0 at each stream start), handed to the framer of the
 * camera (UVC payloads, or the chip's packets) one packet at a time.
 * A frame is due one frame interval after the previous one began; a frame
 * that takes longer to send (bandwidth) delays the next, as on a camera
 * whose sensor waits for the bus.
 */
#include "usbcam.h"

#include <stdlib.h>

static const char *fourcc_str(uint32_t f, char *buf)
{
	for (int i = 0; i < 4; i++)
		buf[i] = (char)((f >> (8 * i)) & 0xff);
	buf[4] = 0;
	return buf;
}

void usbcam_stream_start(struct usbcam *c, uint32_t fourcc, int w, int h,
			 uint64_t interval_ns)
{
	struct usbcam_stream *s = &c->s;
	size_t need = usbcam_frame_bound(fourcc, w, h) + USBCAM_CHIP_HEADROOM;
	char fc[5];

	usbcam_stream_stop(c);
	if (need > s->cap) {
		uint8_t *nb = realloc(s->buf, need);

		if (!nb) {
			usbcam_log(c, "no memory for %zu-byte frames", need);
			return;
		}
		s->buf = nb;
		s->cap = need;
	}
	s->fourcc = fourcc;
	s->w = w;
	s->h = h;
	s->interval_ns = interval_ns;
	s->seq = 0;
	s->in_frame = 0;
	s->frames = 0;
	s->t0 = usbcam_now();
	s->next_frame = s->t0;
	s->iso = c->d->xfer == USBCAM_ISO;
	s->on = 1;
	usbcam_log(c, "stream start %s %dx%d interval %llu us",
		   fourcc_str(fourcc, fc), w, h,
		   (unsigned long long)(interval_ns / 1000));
}

void usbcam_stream_stop(struct usbcam *c)
{
	struct usbcam_stream *s = &c->s;
	double secs;

	if (!s->on)
		return;
	secs = (double)(usbcam_now() - s->t0) / 1e9;
	usbcam_log(c, "stream stop: %llu frames in %.2f s (%.1f fps)",
		   (unsigned long long)s->frames, secs,
		   secs > 0 ? (double)s->frames / secs : 0.0);
	s->on = 0;
	s->in_frame = 0;
}

int usbcam_stream_next(struct usbcam *c)
{
	struct usbcam_stream *s = &c->s;
	int n;

	if (!s->on)
		return 0;
	if (s->in_frame)
		return 1;
	if (usbcam_now() < s->next_frame)
		return 0;
	n = usbcam_render(c, s->fourcc, s->w, s->h, s->seq, s->buf, s->cap);
	if (n < 0) {
		usbcam_log(c, "frame %u: render error %d", s->seq, n);
		s->seq++;
		s->next_frame += (int64_t)s->interval_ns;
		return 0;
	}
	if (c->d->chip && c->d->chip->frame)
		n = (int)c->d->chip->frame(c, s->buf, (size_t)n, s->cap);
	s->len = usbcam_fault_frame(c, s->buf, (size_t)n);
	s->frame_cut = s->len < (size_t)n;
	s->off = 0;
	s->in_frame = 1;
	s->fid ^= 1;
	return 1;
}

void usbcam_stream_done(struct usbcam *c)
{
	struct usbcam_stream *s = &c->s;
	int64_t now = usbcam_now();

	s->frames++;
	s->total++;
	s->seq++;
	s->in_frame = 0;
	s->next_frame += (int64_t)s->interval_ns;
	if (s->next_frame < now - (int64_t)s->interval_ns)
		s->next_frame = now;
	if (c->f.unplug_after >= 0 && (int64_t)s->total >= c->f.unplug_after)
		c->f.unplug_now = 1;
}
