/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The frames: the virtual camera's picture for a sequence number, in the
 * camera's raw format (src/vcam: the renderer, the lens and the chip
 * encoders). This file is the emulator's only user of src/vcam.
 *
 * A camera with a lens (focus absolute) blurs the picture with the
 * distance between its focus motor, driven by the focus control, and the
 * in-focus position, and carries the lens texture over the centre. A
 * camera with exposure time and gain controls makes its YUYV frames
 * brighter or darker in proportion to exposure x gain against their
 * defaults (luma only, around black; MJPEG frames are left as rendered):
 * at the defaults the frame is exactly the rendered one. JPEG frames
 * carry their sequence number in a comment segment (frameid.h).
 */
#include "usbcam.h"

#include <linux/videodev2.h>

#include "frameid.h"

#include "vcam/lens.h"
#include "vcam/vcam.h"

size_t usbcam_frame_bound(uint32_t fourcc, int w, int h)
{
	return v4lc_vcam_sizeimage(fourcc, w, h) + USBCAM_FRAMEID_LEN;
}

/* Brightness of the exposure and gain against their defaults, x 256. */
static int32_t exposure_factor(const struct usbcam *c)
{
	const struct usbcam_desc *d = c->d;
	int64_t def = 1, cur = 1;
	int n = 0;

	for (int i = 0; i < d->nctrls; i++) {
		const struct usbcam_uvc_ctrl *k = &d->ctrls[i];

		if ((k->unit == UVC_ID_CT && k->selector == 0x04) ||
		    (k->unit == UVC_ID_PU && k->selector == 0x04)) {
			def *= k->def > 0 ? k->def : 1;
			cur *= c->ctrl_cur[i] > 0 ? c->ctrl_cur[i] : 0;
			n++;
		}
	}
	if (n < 2)
		return 256;
	return (int32_t)(cur * 256 / def);
}

static void scale_luma(uint8_t *yuyv, size_t n, int32_t f)
{
	for (size_t i = 0; i < n; i += 2) {
		int32_t y = 16 + (((int32_t)yuyv[i] - 16) * f + 128) / 256;

		yuyv[i] = (uint8_t)(y < 0 ? 0 : y > 255 ? 255 : y);
	}
}

int usbcam_render(struct usbcam *c, uint32_t fourcc, int w, int h, uint32_t seq,
		  uint8_t *dst, size_t size)
{
	struct v4lc_vcam_optics o = { 0, 0 };
	int n;
	int32_t f;

	if (c->d->lens) {
		struct v4lc_vcam_lens lens = { 1, c->d->lens, c->lens_pos };
		int target =
			usbcam_uvc_ctrl_value(c, UVC_ID_CT, 0x06, c->d->lens);

		o.texture = 1;
		o.blur = v4lc_vcam_lens_frame(&lens, target, w);
		c->lens_pos = lens.pos;
	}
	n = v4lc_vcam_render_optics(fourcc, w, h, seq, c->d->flip, &o, dst,
				    size);
	if (n > 0 && fourcc == V4L2_PIX_FMT_MJPEG)
		return (int)usbcam_frameid_put(dst, (size_t)n, size, seq);
	if (n < 0 || fourcc != V4L2_PIX_FMT_YUYV)
		return n;
	f = exposure_factor(c);
	if (f != 256)
		scale_luma(dst, (size_t)n, f);
	return n;
}
