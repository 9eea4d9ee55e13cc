/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "core/colour.h"

#include <linux/videodev2.h>
#include <math.h>

void v4lc_colorimetry_resolve(const struct v4lc_colorimetry *c, double *kr,
			      double *kb, int *full_range)
{
	uint32_t enc = c->ycbcr_enc;
	uint32_t quant = c->quantization;

	if (enc == V4L2_YCBCR_ENC_DEFAULT)
		enc = V4L2_MAP_YCBCR_ENC_DEFAULT(c->colorspace);
	if (quant == V4L2_QUANTIZATION_DEFAULT)
		quant = V4L2_MAP_QUANTIZATION_DEFAULT(0, c->colorspace, enc);

	switch (enc) {
	case V4L2_YCBCR_ENC_709:
	case V4L2_YCBCR_ENC_XV709:
		*kr = 0.2126;
		*kb = 0.0722;
		break;
	case V4L2_YCBCR_ENC_BT2020:
	case V4L2_YCBCR_ENC_BT2020_CONST_LUM:
		*kr = 0.2627;
		*kb = 0.0593;
		break;
	case V4L2_YCBCR_ENC_SMPTE240M:
		*kr = 0.212;
		*kb = 0.087;
		break;
	default: /* 601, XV601 and anything unknown */
		*kr = 0.299;
		*kb = 0.114;
		break;
	}
	*full_range = quant == V4L2_QUANTIZATION_FULL_RANGE;
}

static int16_t fixed(double v, int frac_bits)
{
	return (int16_t)lround(v * (1 << frac_bits));
}

void v4lc_yuv2rgb_init(struct v4lc_yuv2rgb *k, const struct v4lc_colorimetry *c)
{
	double kr, kb, kg, ys, cs;
	int full;

	v4lc_colorimetry_resolve(c, &kr, &kb, &full);
	kg = 1.0 - kr - kb;
	ys = full ? 1.0 : 255.0 / 219.0;
	cs = full ? 1.0 : 255.0 / 224.0;

	k->y_off = full ? 0 : 16;
	k->yk = fixed(ys, 14);
	k->vr = fixed(2.0 * (1.0 - kr) * cs, 13);
	k->ug = fixed(2.0 * kb * (1.0 - kb) / kg * cs, 13);
	k->vg = fixed(2.0 * kr * (1.0 - kr) / kg * cs, 13);
	k->ub = fixed(2.0 * (1.0 - kb) * cs, 13);
}

static uint16_t fixed_u16(double v)
{
	long q = lround(v * 65536.0);

	return (uint16_t)(q > 65535 ? 65535 : q);
}

void v4lc_rgb2yuv_init(struct v4lc_rgb2yuv *k, const struct v4lc_colorimetry *c)
{
	double kr, kb, kg, ys, cs;
	int full;

	v4lc_colorimetry_resolve(c, &kr, &kb, &full);
	kg = 1.0 - kr - kb;
	ys = full ? 1.0 : 219.0 / 255.0;
	cs = full ? 1.0 : 224.0 / 255.0;

	k->y_off = full ? 0 : 16;
	k->yr = fixed_u16(kr * ys);
	k->yg = fixed_u16(kg * ys);
	k->yb = fixed_u16(kb * ys);
	/* Rounding must not let a white pixel exceed 255 (sum > 1.0). */
	while ((unsigned)k->yr + k->yg + k->yb > 65536u * ys + 0.5)
		k->yg--;

	k->ub = fixed_u16(0.5 * cs);
	k->ur = fixed_u16(kr / (2.0 * (1.0 - kb)) * cs);
	k->ug = fixed_u16(kg / (2.0 * (1.0 - kb)) * cs);
	k->vr = fixed_u16(0.5 * cs);
	k->vg = fixed_u16(kg / (2.0 * (1.0 - kr)) * cs);
	k->vb = fixed_u16(kb / (2.0 * (1.0 - kr)) * cs);
	/* A full-scale positive term of 0.5 would wrap the 16-bit sum. */
	if (k->ub > 32767)
		k->ub = 32767;
	if (k->vr > 32767)
		k->vr = 32767;
}
