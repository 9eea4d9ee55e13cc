/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Decode once for every client: when the device streams MJPEG (or JPEG),
 * the server also offers planar YUV 4:2:0 (YU12) at the same sizes. The
 * clients that set it get each frame decoded once here, in a slot of its
 * own, instead of decoding the JPEG themselves: YU12 is what their
 * libv4lconvert turns into YUV420 by a copy, YVU420 by a plane swap and
 * RGB24/BGR24 by one cheap kernel. Clients that set MJPEG keep getting the
 * camera's bytes. Nothing is decoded while no decoded client streams.
 */
#include <errno.h>
#include <string.h>

#include <libv4lconvert.h>

#include "core/format.h"
#include "protocol/scale.h"
#include "server.h"

uint32_t srv_decoded_fmt_for(uint32_t share_fmt)
{
	const struct v4lc_format *f = v4lc_format_row(share_fmt);

	/* The JPEG layout of the format table: MJPEG, JPEG. */
	if (f && f->layout == V4LC_L_JPEG)
		return V4L2_PIX_FMT_YUV420;
	return 0;
}

void srv_decoded_pix(const struct v4l2_pix_format *dev,
		     struct v4l2_pix_format *out)
{
	*out = *dev;
	out->pixelformat = srv.dec_fmt;
	out->bytesperline = 0;
	out->sizeimage = 0;
	out->field = V4L2_FIELD_NONE;
	/* A JPEG's YCbCr is BT.601 at full range (JFIF), and the decoder
	 * gives its planes as they are: the clients' conversion to RGB must
	 * know, or the picture comes out washed out. */
	if (!out->colorspace)
		out->colorspace = V4L2_COLORSPACE_JPEG;
	out->ycbcr_enc = V4L2_YCBCR_ENC_601;
	out->quantization = V4L2_QUANTIZATION_FULL_RANGE;
	fs_normalise_format(out);
}

int srv_decoding_clients(void)
{
	int n = 0;

	for (int i = 0; i < MAX_CLIENTS; i++) {
		const struct client *c = &srv.clients[i];

		n += c->sock >= 0 && c->streaming && c->decoded && !c->dead;
	}
	return n;
}

/*
 * The frame at src (len bytes, in srv.cur) decoded into a fresh slot; its
 * size in *bytes. NULL when the frame is corrupt (the decoded clients skip
 * it, as libv4l2 skips a frame its own decoder refuses) or no slot is free.
 * The lock is dropped while decoding: the slot is held meanwhile and the
 * device's buffer stays dequeued (the capture thread is not parked).
 */
struct slot *srv_decode(const uint8_t *src, size_t len, uint32_t *bytes)
{
	struct v4l2_format sf = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_format df = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct slot *s;
	int r;

	if (!srv.conv) {
		srv.conv = v4lconvert_create(-1);
		if (!srv.conv)
			return NULL;
	}
	sf.fmt.pix = srv.cur;
	srv_decoded_pix(&srv.cur, &df.fmt.pix);
	if (len > INT32_MAX || df.fmt.pix.sizeimage > INT32_MAX)
		return NULL;
	s = srv_slot_get(df.fmt.pix.sizeimage);
	if (!s)
		return NULL;
	s->refs++;
	pthread_mutex_unlock(&srv.lock);
	r = v4lconvert_convert(srv.conv, &sf, &df, (unsigned char *)src,
			       (int)len, s->map, (int)df.fmt.pix.sizeimage);
	pthread_mutex_lock(&srv.lock);
	s->refs--;
	if (r < 0) {
		srv.decode_errors++;
		return NULL;
	}
	if (srv.seal_write && srv_slot_seal_write(s) < 0) {
		srv_slot_free(s);
		return NULL;
	}
	srv.decodes++;
	*bytes = (uint32_t)r;
	return s;
}

void srv_decode_done(void)
{
	if (srv.conv)
		v4lconvert_destroy(srv.conv);
	srv.conv = NULL;
}
