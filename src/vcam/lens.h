/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The virtual camera's simulated lens (spec token "lens" or "lens=POS"):
 * a focus motor driven by V4L2_CID_FOCUS_ABSOLUTE (0..1023) that moves at
 * a limited speed, and a picture blurred in proportion to the distance
 * between the lens and the in-focus position POS (default 300). The
 * in-focus position is the scene's distance: tests move it with the
 * camera's private control V4LC_VCAM_CID_INFOCUS (G/S_CTRL only, not
 * enumerated) to simulate a scene change. With the lens the centre of the
 * picture carries a fine texture, as a real scene has detail.
 */
#ifndef V4LC_VCAM_LENS_H
#define V4LC_VCAM_LENS_H

#include <stdint.h>

#include <linux/videodev2.h>

#define V4LC_VCAM_CID_INFOCUS (V4L2_CID_USER_BASE + 0x10f0)
#define V4LC_VCAM_LENS_MAX 1023
/* Focus units the motor travels per frame. */
#define V4LC_VCAM_LENS_SLEW 48
#define V4LC_VCAM_LENS_INFOCUS 300

struct v4lc_vcam_lens {
	int enabled;
	int infocus; /* where the scene is sharp */
	int pos;     /* where the motor is now */
};

/*
 * Move the motor one frame's way towards `target` and return the blur
 * radius of that frame in 1/16 pixel for a picture `width` wide: 0 only in
 * focus, growing linearly to width / 8 pixels at the far end.
 */
int v4lc_vcam_lens_frame(struct v4lc_vcam_lens *l, int target, int width);

/* Picture effects of the lens, applied to an RGB24 frame. */
void v4lc_vcam_lens_texture(uint8_t *rgb, int w, int h);
/* Blur of radius about r16 / 16 pixels (three box passes, lens.c). */
int v4lc_vcam_lens_blur(uint8_t *rgb, int w, int h, int r16);

#endif
