/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Software processing driven by the emulated controls: grey-world white
 * balance, gamma, and automatic gain/exposure of the sensor.
 *
 * The pixels go through per-channel 256-entry lookup tables (proc kernel
 * family). Tables are rebuilt from frame statistics on a schedule: on the
 * first frame, when a control changes, every V4LC_PROC_UPDATE frames, and
 * sooner when a filter asks (white balance still moving, auto gain waiting
 * for the sensor to settle). Statistics are only gathered on those frames.
 *
 * Domains:
 * - RGB (RGB24, BGR24, and 8-bit Bayer before demosaic, as the original):
 *   tables per colour, white balance as per-colour gains, then gamma.
 * - YUV (YU12, YV12, packed 4:2:2; beyond the original, which converts such
 *   frames to RGB24 and back): gamma on luma, white balance as a chroma
 *   offset that moves the mean of U and V to neutral (128).
 *
 * White balance (grey-world): channel means in 1/16 units, clipped to
 * [V4LC_WB_MIN, V4LC_WB_MAX]. The first measurement is taken as is; later
 * ones move each mean by at most V4LC_WB_STEP per update (then the next
 * update is on the next frame). Gain of channel c: mean of the means / mean
 * of c, in 1/4096 units. Gamma: 255 * (v / 255) ^ (1000 / gamma), rounded.
 *
 * Auto gain: the mean luma of the centre quarter of the picture against
 * the target. Inside a dead zone of V4LC_AG_DEADZONE nothing happens; once
 * inside, the zone widens to twice that (hysteresis) until the picture
 * leaves it. Otherwise the brightness is taken as proportional to the
 * control above its minimum, and one control moves by target / mean
 * (limited to 1/4..4, damped by half more on each change of direction,
 * undamped again inside the dead zone or at the end of the ranges):
 * exposure first when too dark (gain when exposure is at its maximum), gain
 * first when too bright (exposure when gain is at its minimum). The device's
 * EXPOSURE and GAIN are written through the instance's device operations;
 * after a change the next V4LC_AG_SETTLE - 1 frames are not measured.
 * Both controls are looked up again on every update, and only a control
 * that is enabled, writable, active (not V4L2_CTRL_FLAG_INACTIVE, as a gain
 * is while the driver's own auto gain runs) and not grabbed is driven:
 * without such an exposure the same controller drives the gain alone
 * (gain-only mode); without such a gain nothing is written. The exposure
 * is V4L2_CID_EXPOSURE, else V4L2_CID_EXPOSURE_ABSOLUTE (UVC cameras,
 * active only while their auto exposure is in manual mode).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "priv.h"

#define V4LC_PROC_UPDATE 10 /* frames between table updates */
#define V4LC_WB_MIN 512
#define V4LC_WB_MAX 3072
#define V4LC_WB_STEP 128
#define V4LC_AG_DEADZONE 6
#define V4LC_AG_SETTLE 3

enum { DOM_NONE, DOM_RGB, DOM_YUV };

struct ag_ctrl {
	uint32_t id;
	int32_t min, max, step;
};

struct v4lc_proc {
	uint8_t lut[4][256];
	int domain;   /* of the tables (DOM_*), DOM_NONE: rebuild */
	int identity; /* every table maps v to v: nothing to apply */
	int32_t seen[V4LC_FAKE_CONTROLS];
	unsigned frame, next_update;

	int wb_valid, wb[3]; /* RGB domain: R, G, B means x16 */
	int cb_valid, cb[2]; /* YUV domain: U, V means x16 */

	struct ag_ctrl exp, gain;
	int ag_in_zone, ag_dir, ag_damp;

	uint8_t *bayer; /* processed copy of a Bayer source */
	size_t bayer_size;
};

/* Measurements of one frame: means x16 (RGB: R G B, YUV: Y U V), and the
 * centre's luma x16. */
struct stats {
	int mean[3];
	int centre_luma;
};

int v4lc_proc_possible(const struct v4lconvert_data *data)
{
	return !!(data->fake_enabled &
		  ((1u << V4LC_FAKE_AWB) | (1u << V4LC_FAKE_GAMMA) |
		   (1u << V4LC_FAKE_AUTOGAIN)));
}

static int on(struct v4lconvert_data *data, int i)
{
	return (data->fake_enabled & (1u << i)) != 0;
}

int v4lc_proc_active(struct v4lconvert_data *data)
{
	return (on(data, V4LC_FAKE_AWB) &&
		v4lc_fake_get(data, V4LC_FAKE_AWB)) ||
	       (on(data, V4LC_FAKE_GAMMA) &&
		v4lc_fake_get(data, V4LC_FAKE_GAMMA) != 1000) ||
	       (on(data, V4LC_FAKE_AUTOGAIN) &&
		v4lc_fake_get(data, V4LC_FAKE_AUTOGAIN));
}

int v4lc_proc_bayer8(uint32_t fourcc)
{
	const struct v4lc_format *f = v4lc_format_find(fourcc);

	return f && f->layout == V4LC_L_BAYER8;
}

void v4lc_proc_free(struct v4lconvert_data *data)
{
	if (data->proc)
		free(data->proc->bayer);
	free(data->proc);
	data->proc = NULL;
}

/*
 * Colour (0 R, 1 G, 2 B) at row parity y, column parity x of a Bayer
 * format (its CFA order, enum v4lc_bayer_order).
 */
static int bayer_colour(const struct v4lc_format *f, int y, int x)
{
	static const uint8_t tab[V4LC_BAYER_ORDERS][2][2] = {
		{ { 2, 1 }, { 1, 0 } }, /* BGGR */
		{ { 1, 2 }, { 0, 1 } }, /* GBRG */
		{ { 1, 0 }, { 2, 1 } }, /* GRBG */
		{ { 0, 1 }, { 1, 2 } }, /* RGGB */
	};

	return tab[f->order][y & 1][x & 1];
}

/* Byte offsets of Y0, U, Y1, V in a pair of a packed 4:2:2 format. */
static void packed_pos(const struct v4lc_format *f, int pos[4])
{
	for (int i = 0; i < 4; i++)
		pos[i] = v4lc_yuv422_offsets[f->order][i];
}

static int domain_of(const struct v4lc_format *f)
{
	switch (f ? f->layout : V4LC_L_NONE) {
	case V4LC_L_RGB24:
	case V4LC_L_BAYER8:
		return DOM_RGB;
	case V4LC_L_PLANAR420:
	case V4LC_L_PACKED422:
		return DOM_YUV;
	default:
		return DOM_NONE;
	}
}

static int stride_or_min(const struct v4lc_format *fmt,
			 const struct v4lc_frame *f)
{
	return f->stride ? f->stride
			 : (int)v4lc_format_min_stride(fmt, f->width);
}

static int mean16(uint64_t sum, uint64_t count)
{
	return count ? (int)((sum * 16 + count / 2) / count) : 0;
}

/* Sums of a frame's samples, per channel, and of its centre's luma. */
struct acc {
	uint64_t sum[3], cnt[3];
	uint64_t csum, ccnt;
};

/* One measured row; the centre's columns x0 .. x1 - 1 when `centre`. */
struct mrow {
	const uint8_t *row;
	int y, w, x0, x1, centre;
};

static void measure_bayer(const struct v4lc_proc_dsp *k,
			  const struct v4lc_format *fmt, const struct mrow *m,
			  struct acc *a)
{
	uint32_t s[4];
	int c0 = bayer_colour(fmt, m->y, 0), c1 = bayer_colour(fmt, m->y, 1);

	k->sum4(m->row, m->w, s);
	a->sum[c0] += s[0] + s[2];
	a->cnt[c0] += (m->w + 1) / 2;
	a->sum[c1] += s[1] + s[3];
	a->cnt[c1] += m->w / 2;
	if (m->centre) {
		/* luma ~ (R + 2G + B) / 4 over a 2x2 cell: the mean of the raw
		 * samples */
		k->sum4(m->row + m->x0, m->x1 - m->x0, s);
		a->csum += (uint64_t)s[0] + s[1] + s[2] + s[3];
		a->ccnt += (uint64_t)(m->x1 - m->x0);
	}
}

static void measure_rgb(const struct v4lc_proc_dsp *k,
			const struct v4lc_format *fmt, const struct mrow *m,
			struct acc *a)
{
	uint32_t s[4];
	int r = fmt->order == V4LC_RGB24 ? 0 : 2;

	k->sum3(m->row, m->w, s);
	a->sum[0] += s[r];
	a->sum[1] += s[1];
	a->sum[2] += s[2 - r];
	for (int c = 0; c < 3; c++)
		a->cnt[c] += (uint64_t)m->w;
	if (m->centre) {
		k->sum3(m->row + 3 * m->x0, m->x1 - m->x0, s);
		a->csum += (uint64_t)s[0] + 2 * (uint64_t)s[1] + s[2];
		a->ccnt += 4 * (uint64_t)(m->x1 - m->x0);
	}
}

static void measure_packed(const struct v4lc_proc_dsp *k,
			   const struct v4lc_format *fmt, const struct mrow *m,
			   struct acc *a)
{
	uint32_t s[4];
	int pos[4], pairs = (m->w + 1) / 2, c0 = m->x0 / 2,
		    c1 = (m->x1 + 1) / 2;

	packed_pos(fmt, pos);
	k->sum4(m->row, 4 * pairs, s);
	a->sum[0] += (uint64_t)s[pos[0]] + s[pos[2]];
	a->sum[1] += s[pos[1]];
	a->sum[2] += s[pos[3]];
	a->cnt[0] += 2 * (uint64_t)pairs;
	a->cnt[1] += (uint64_t)pairs;
	a->cnt[2] += (uint64_t)pairs;
	if (m->centre && c1 > c0) {
		k->sum4(m->row + 4 * c0, 4 * (c1 - c0), s);
		a->csum += (uint64_t)s[pos[0]] + s[pos[2]];
		a->ccnt += 2 * (uint64_t)(c1 - c0);
	}
}

/* Planar 4:2:0: the luma rows here, the chroma planes by measure_chroma. */
static void measure_luma(const struct v4lc_proc_dsp *k, const struct mrow *m,
			 struct acc *a)
{
	uint32_t s[4];

	k->sum4(m->row, m->w, s);
	a->sum[0] += (uint64_t)s[0] + s[1] + s[2] + s[3];
	a->cnt[0] += (uint64_t)m->w;
	if (m->centre) {
		k->sum4(m->row + m->x0, m->x1 - m->x0, s);
		a->csum += (uint64_t)s[0] + s[1] + s[2] + s[3];
		a->ccnt += (uint64_t)(m->x1 - m->x0);
	}
}

static void measure_chroma(const struct v4lc_proc_dsp *k,
			   const struct v4lc_format *fmt,
			   const struct v4lc_frame *f, int stride,
			   struct acc *a)
{
	int w = f->width, h = f->height;
	int cs = (stride + 1) / 2, cw = (w + 1) / 2, ch = (h + 1) / 2;
	const uint8_t *p = f->data + (size_t)stride * h;
	int u = fmt->swap_uv ? 2 : 1;
	uint32_t s[4];

	for (int plane = 0; plane < 2; plane++) {
		int c = plane == 0 ? u : 3 - u;

		for (int y = 0; y < ch; y += 2) {
			k->sum4(p + (size_t)y * cs, cw, s);
			a->sum[c] += (uint64_t)s[0] + s[1] + s[2] + s[3];
			a->cnt[c] += (uint64_t)cw;
		}
		p += (size_t)cs * ch;
	}
}

/*
 * Statistics from rows y with y % 4 < 2 (half the rows, both Bayer row
 * parities). Centre: rows and columns from 1/4 to 3/4.
 */
static void measure(struct v4lconvert_data *data, const struct v4lc_format *fmt,
		    const struct v4lc_frame *f, struct stats *st)
{
	const struct v4lc_proc_dsp *k = &data->dsp->proc;
	struct acc a = { { 0, 0, 0 }, { 0, 0, 0 }, 0, 0 };
	int w = f->width, h = f->height, stride = stride_or_min(fmt, f);
	struct mrow m = { NULL, 0, w, w / 4, w - w / 4, 0 };

	for (int y = 0; y < h; y++) {
		if ((y & 3) >= 2)
			continue;
		m.row = f->data + (size_t)y * stride;
		m.y = y;
		m.centre = y >= h / 4 && y < h - h / 4;
		switch (fmt->layout) {
		case V4LC_L_BAYER8:
			measure_bayer(k, fmt, &m, &a);
			break;
		case V4LC_L_RGB24:
			measure_rgb(k, fmt, &m, &a);
			break;
		case V4LC_L_PACKED422:
			measure_packed(k, fmt, &m, &a);
			break;
		default:
			measure_luma(k, &m, &a);
			break;
		}
	}
	if (fmt->layout == V4LC_L_PLANAR420)
		measure_chroma(k, fmt, f, stride, &a);
	for (int c = 0; c < 3; c++)
		st->mean[c] = mean16(a.sum[c], a.cnt[c]);
	st->centre_luma = mean16(a.csum, a.ccnt);
}

/* Move a smoothed mean towards a measurement; 1 while still moving. */
static int approach(int *avg, int measured, int lo, int hi)
{
	int d;

	measured = measured < lo ? lo : measured > hi ? hi : measured;
	d = measured - *avg;
	if (d > V4LC_WB_STEP || d < -V4LC_WB_STEP) {
		*avg += d > 0 ? V4LC_WB_STEP : -V4LC_WB_STEP;
		return 1;
	}
	*avg = measured;
	return 0;
}

/* Gamma table: 255 * (i / 255) ^ (1000 / gamma), rounded. */
static void gamma_table(uint8_t g[256], int gamma)
{
	for (int i = 0; i < 256; i++) {
		double v = gamma == 1000
				   ? i
				   : 255.0 * pow(i / 255.0, 1000.0 / gamma);

		g[i] = (uint8_t)(v + 0.5 > 255 ? 255 : v + 0.5);
	}
}

static int build_tables(struct v4lconvert_data *data, int domain,
			const struct stats *st)
{
	struct v4lc_proc *p = data->proc;
	int awb = on(data, V4LC_FAKE_AWB) && v4lc_fake_get(data, V4LC_FAKE_AWB);
	int gamma = on(data, V4LC_FAKE_GAMMA)
			    ? v4lc_fake_get(data, V4LC_FAKE_GAMMA)
			    : 1000;
	int moving = 0;
	uint8_t g[256];

	gamma_table(g, gamma);
	if (domain == DOM_RGB) {
		int gain[3] = { 4096, 4096, 4096 };

		if (awb) {
			int all;

			for (int c = 0; c < 3; c++) {
				if (!p->wb_valid)
					p->wb[c] = st->mean[c] < V4LC_WB_MIN
							   ? V4LC_WB_MIN
						   : st->mean[c] > V4LC_WB_MAX
							   ? V4LC_WB_MAX
							   : st->mean[c];
				else
					moving |=
						approach(&p->wb[c], st->mean[c],
							 V4LC_WB_MIN,
							 V4LC_WB_MAX);
			}
			p->wb_valid = 1;
			all = (p->wb[0] + p->wb[1] + p->wb[2]) / 3;
			for (int c = 0; c < 3; c++)
				gain[c] =
					(all * 4096 + p->wb[c] / 2) / p->wb[c];
		} else {
			p->wb_valid = 0;
		}
		for (int c = 0; c < 3; c++)
			for (int i = 0; i < 256; i++) {
				int v = (i * gain[c] + 2048) >> 12;

				p->lut[c][i] = g[v > 255 ? 255 : v];
			}
		memcpy(p->lut[3], p->lut[1], 256);
	} else {
		int off[2] = { 0, 0 };

		if (awb) {
			for (int c = 0; c < 2; c++) {
				if (!p->cb_valid)
					p->cb[c] = st->mean[c + 1];
				else
					moving |= approach(&p->cb[c],
							   st->mean[c + 1], 0,
							   255 * 16);
				/* rounded (mean - 128), in whole levels */
				off[c] = (p->cb[c] - 128 * 16 +
					  (p->cb[c] >= 128 * 16 ? 8 : -8)) /
					 16;
			}
			p->cb_valid = 1;
		} else {
			p->cb_valid = 0;
		}
		memcpy(p->lut[0], g, 256);
		for (int c = 0; c < 2; c++)
			for (int i = 0; i < 256; i++) {
				int v = i - off[c];

				p->lut[1 + c][i] = (uint8_t)(v < 0     ? 0
							     : v > 255 ? 255
								       : v);
			}
		memcpy(p->lut[3], p->lut[0], 256);
	}
	p->domain = domain;
	p->identity = 1;
	for (int c = 0; c < 4; c++)
		for (int i = 0; i < 256; i++)
			p->identity &= p->lut[c][i] == i;
	return moving ? 1 : V4LC_PROC_UPDATE;
}

/* ---- auto gain -------------------------------------------------------- */

static int ag_query(struct v4lconvert_data *data, uint32_t id,
		    struct ag_ctrl *c)
{
	struct v4l2_queryctrl q;

	memset(&q, 0, sizeof(q));
	q.id = id;
	if (v4lc_dev_ioctl(data, VIDIOC_QUERYCTRL, &q) ||
	    (q.flags & (V4L2_CTRL_FLAG_DISABLED | V4L2_CTRL_FLAG_READ_ONLY |
			V4L2_CTRL_FLAG_INACTIVE | V4L2_CTRL_FLAG_GRABBED)) ||
	    q.maximum <= q.minimum)
		return 0;
	c->id = id;
	c->min = q.minimum;
	c->max = q.maximum;
	c->step = q.step > 0 ? q.step : 1;
	return 1;
}

static int ag_get(struct v4lconvert_data *data, const struct ag_ctrl *c,
		  int32_t *v)
{
	struct v4l2_control ctl = { .id = c->id };

	if (v4lc_dev_ioctl(data, VIDIOC_G_CTRL, &ctl))
		return -1;
	*v = ctl.value < c->min   ? c->min
	     : ctl.value > c->max ? c->max
				  : ctl.value;
	return 0;
}

/*
 * New value of control c for a brightness factor f (x 4096), assuming
 * brightness proportional to (value - min + 1); at least one step of
 * movement in the factor's direction, within the range.
 */
static int32_t ag_scale(const struct ag_ctrl *c, int32_t v, int64_t f)
{
	int64_t lin = (int64_t)v - c->min + 1;
	int64_t nv = c->min - 1 + (lin * f + 2048) / 4096;

	nv = c->min + (nv - c->min) / c->step * c->step;
	if (f > 4096 && nv <= v)
		nv = (int64_t)v + c->step;
	if (f < 4096 && nv >= v)
		nv = (int64_t)v - c->step;
	return (int32_t)(nv < c->min ? c->min : nv > c->max ? c->max : nv);
}

/* One auto-gain update; returns frames until the next one. */
static int autogain(struct v4lconvert_data *data, int luma16)
{
	struct v4lc_proc *p = data->proc;
	int target = v4lc_fake_get(data, V4LC_FAKE_AG_TARGET) * 16;
	int err = target - luma16, zone, dir, has_exp;
	int32_t e = 0, gv;
	int64_t f;
	struct v4l2_control set;

	/* a gain to drive, and an exposure if the device has a usable one */
	if (!ag_query(data, V4L2_CID_GAIN, &p->gain) ||
	    ag_get(data, &p->gain, &gv))
		return V4LC_PROC_UPDATE;
	has_exp = (ag_query(data, V4L2_CID_EXPOSURE, &p->exp) ||
		   ag_query(data, V4L2_CID_EXPOSURE_ABSOLUTE, &p->exp)) &&
		  !ag_get(data, &p->exp, &e);
	zone = (p->ag_in_zone ? 2 : 1) * V4LC_AG_DEADZONE * 16;
	if (err <= zone && err >= -zone) {
		p->ag_in_zone = 1;
		p->ag_dir = 0;
		p->ag_damp = 0;
		return V4LC_PROC_UPDATE;
	}
	p->ag_in_zone = 0;
	dir = err > 0 ? 1 : -1;
	if (p->ag_dir && dir != p->ag_dir && p->ag_damp < 6)
		p->ag_damp++;
	p->ag_dir = dir;

	/* brightness factor target / mean, 1/4..4, damped towards 1 */
	f = ((int64_t)target * 4096 + (luma16 > 16 ? luma16 : 16) / 2) /
	    (luma16 > 16 ? luma16 : 16);
	if (f > 4 * 4096)
		f = 4 * 4096;
	if (f < 4096 / 4)
		f = 4096 / 4;
	f = 4096 + (f - 4096) / (1 << p->ag_damp);

	memset(&set, 0, sizeof(set));
	if (dir > 0) {
		if (has_exp && e < p->exp.max) {
			set.id = p->exp.id;
			set.value = ag_scale(&p->exp, e, f);
		} else if (gv < p->gain.max) {
			set.id = p->gain.id;
			set.value = ag_scale(&p->gain, gv, f);
		}
	} else {
		if (gv > p->gain.min) {
			set.id = p->gain.id;
			set.value = ag_scale(&p->gain, gv, f);
		} else if (has_exp && e > p->exp.min) {
			set.id = p->exp.id;
			set.value = ag_scale(&p->exp, e, f);
		}
	}
	if (!set.id) {
		/* at the end of the range(s): nothing overshot, so the next
		 * change of direction is the scene's, not to be damped */
		p->ag_dir = 0;
		p->ag_damp = 0;
		return V4LC_PROC_UPDATE;
	}
	if (v4lc_dev_ioctl(data, VIDIOC_S_CTRL, &set))
		return V4LC_PROC_UPDATE;
	return V4LC_AG_SETTLE;
}

/* ---- applying the tables ---------------------------------------------- */

/* Rows of bytes of each plane of a frame (same format and size). */
static void copy_frame(const struct v4lc_format *fmt,
		       const struct v4lc_frame *in, struct v4lc_frame *out)
{
	int ss = stride_or_min(fmt, in), ds = stride_or_min(fmt, out);
	int w = in->width, h = in->height;
	size_t row = v4lc_format_min_stride(fmt, w);

	for (int y = 0; y < h; y++)
		memcpy(out->data + (size_t)y * ds, in->data + (size_t)y * ss,
		       row);
	if (fmt->layout == V4LC_L_PLANAR420) {
		int scs = (ss + 1) / 2, dcs = (ds + 1) / 2;
		int cw = (w + 1) / 2, ch = (h + 1) / 2;

		for (int y = 0; y < 2 * ch; y++)
			memcpy(out->data + (size_t)ds * h + (size_t)y * dcs,
			       in->data + (size_t)ss * h + (size_t)y * scs,
			       (size_t)cw);
	}
}

static void apply(struct v4lconvert_data *data, const struct v4lc_format *fmt,
		  const struct v4lc_frame *in, struct v4lc_frame *out)
{
	const struct v4lc_proc_dsp *k = &data->dsp->proc;
	struct v4lc_proc *p = data->proc;
	int w = in->width, h = in->height;
	int ss = stride_or_min(fmt, in), ds = stride_or_min(fmt, out);
	uint8_t t[4][256];

	if (p->identity) {
		/* e.g. a balanced picture without gamma: a copy at most */
		if (in->data != out->data)
			copy_frame(fmt, in, out);
		return;
	}
	if (fmt->layout == V4LC_L_BAYER8) {
		uint8_t rows[2][4][256];

		for (int y = 0; y < 2; y++)
			for (int x = 0; x < 4; x++)
				memcpy(rows[y][x],
				       p->lut[bayer_colour(fmt, y, x)], 256);
		for (int y = 0; y < h; y++)
			k->lut4(in->data + (size_t)y * ss,
				out->data + (size_t)y * ds, w,
				(const uint8_t(*)[256])rows[y & 1]);
	} else if (fmt->layout == V4LC_L_RGB24) {
		int r = fmt->order == V4LC_RGB24 ? 0 : 2;

		memcpy(t[0], p->lut[r], 256);
		memcpy(t[1], p->lut[1], 256);
		memcpy(t[2], p->lut[2 - r], 256);
		for (int y = 0; y < h; y++)
			k->lut3(in->data + (size_t)y * ss,
				out->data + (size_t)y * ds, w,
				(const uint8_t(*)[256])t);
	} else if (fmt->layout == V4LC_L_PACKED422) {
		int pos[4];

		packed_pos(fmt, pos);
		memcpy(t[pos[0]], p->lut[0], 256);
		memcpy(t[pos[1]], p->lut[1], 256);
		memcpy(t[pos[2]], p->lut[0], 256);
		memcpy(t[pos[3]], p->lut[2], 256);
		for (int y = 0; y < h; y++)
			k->lut4(in->data + (size_t)y * ss,
				out->data + (size_t)y * ds, 4 * ((w + 1) / 2),
				(const uint8_t(*)[256])t);
	} else { /* YU12 / YV12 */
		int u = fmt->swap_uv ? 2 : 1;
		int scs = (ss + 1) / 2, dcs = (ds + 1) / 2;
		int cw = (w + 1) / 2, ch = (h + 1) / 2;
		const uint8_t *sp = in->data + (size_t)ss * h;
		uint8_t *dp = out->data + (size_t)ds * h;

		for (int x = 0; x < 4; x++)
			memcpy(t[x], p->lut[0], 256);
		for (int y = 0; y < h; y++)
			k->lut4(in->data + (size_t)y * ss,
				out->data + (size_t)y * ds, w,
				(const uint8_t(*)[256])t);
		for (int plane = 0; plane < 2; plane++) {
			int c = plane == 0 ? u : 3 - u;

			for (int x = 0; x < 4; x++)
				memcpy(t[x], p->lut[c], 256);
			for (int y = 0; y < ch; y++)
				k->lut4(sp + (size_t)y * scs,
					dp + (size_t)y * dcs, cw,
					(const uint8_t(*)[256])t);
			sp += (size_t)scs * ch;
			dp += (size_t)dcs * ch;
		}
	}
}

int v4lc_proc_frame(struct v4lconvert_data *data, const struct v4lc_frame *in,
		    struct v4lc_frame *out)
{
	const struct v4lc_format *fmt = v4lc_format_find(in->fourcc);
	struct v4lc_proc *p = data->proc;
	int domain = domain_of(fmt), changed = 0;
	size_t need_in, need_out;

	if (domain == DOM_NONE || in->fourcc != out->fourcc ||
	    in->width != out->width || in->height != out->height ||
	    in->width <= 0 || in->height <= 0)
		return -EINVAL;
	/* Bayer: the last row need not be padded to the stride. */
	need_in = fmt->layout == V4LC_L_BAYER8
			  ? (size_t)stride_or_min(fmt, in) * (in->height - 1) +
				    in->width
			  : v4lc_frame_bytes(in->fourcc, in->width, in->height,
					     in->stride);
	need_out =
		fmt->layout == V4LC_L_BAYER8
			? (size_t)stride_or_min(fmt, out) * (out->height - 1) +
				  out->width
			: v4lc_frame_bytes(out->fourcc, out->width, out->height,
					   out->stride);
	if (!need_in || !need_out || need_in > in->size || need_out > out->size)
		return -EFAULT;
	if (!p) {
		p = data->proc = calloc(1, sizeof(*p));
		if (!p)
			return -ENOMEM;
	}
	for (int i = 0; i < V4LC_FAKE_CONTROLS; i++) {
		int32_t v = v4lc_fake_get(data, i);

		changed |= v != p->seen[i];
		p->seen[i] = v;
	}
	if (changed || p->domain != domain ||
	    (int)(p->frame - p->next_update) >= 0) {
		struct stats st;
		int next;

		measure(data, fmt, in, &st);
		next = build_tables(data, domain, &st);
		if (on(data, V4LC_FAKE_AUTOGAIN) &&
		    v4lc_fake_get(data, V4LC_FAKE_AUTOGAIN)) {
			int a = autogain(data, st.centre_luma);

			next = a < next ? a : next;
		} else {
			p->ag_in_zone = p->ag_dir = p->ag_damp = 0;
		}
		p->next_update = p->frame + (unsigned)next;
	}
	p->frame++;
	apply(data, fmt, in, out);
	return 0;
}

/* A processed copy of a Bayer source, for the demosaic to read. */
uint8_t *v4lc_proc_bayer_buffer(struct v4lconvert_data *data, size_t size)
{
	struct v4lc_proc *p = data->proc;

	if (!p && !(p = data->proc = calloc(1, sizeof(*p))))
		return NULL;
	if (size > p->bayer_size) {
		uint8_t *b = realloc(p->bayer, size);

		if (!b)
			return NULL;
		p->bayer = b;
		p->bayer_size = size;
	}
	return p->bayer;
}
