/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The autofocus decision logic (af.h). */
#include "focus/af.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void v4lc_af_params_default(struct v4lc_af_params *p, int min, int max)
{
	memset(p, 0, sizeof(*p));
	p->min = min;
	p->max = max > min ? max : min;
	p->coarse_points = 17;
	p->fine_points = 9;
	p->settle_frames = 3;
	p->settle_units =
		(p->max - p->min) / 32 > 0 ? (p->max - p->min) / 32 : 1;
	p->change_ratio = 0.3;
	p->change_samples = 3;
}

static int clampi(const struct v4lc_af *af, int v)
{
	return v < af->p.min ? af->p.min : v > af->p.max ? af->p.max : v;
}

static int move_to(struct v4lc_af *af, int pos)
{
	int d = abs(pos - af->target);

	af->wait = af->p.settle_frames +
		   (d + af->p.settle_units - 1) / af->p.settle_units;
	af->target = pos;
	return pos;
}

static int scan_pos(const struct v4lc_af *af, int i)
{
	return clampi(af, af->lo + i * af->step);
}

static int begin_scan(struct v4lc_af *af, enum v4lc_af_state state, int lo,
		      int hi, int points)
{
	if (points < 2)
		points = 2;
	af->state = state;
	af->step = (hi - lo) / (points - 1);
	if (af->step < 1)
		af->step = 1;
	af->n = (hi - lo) / af->step + 1;
	if (af->n > V4LC_AF_MAX_POINTS)
		af->n = V4LC_AF_MAX_POINTS;
	af->lo = lo;
	/* Sweep from the end nearer the lens: less travel. */
	if (abs(af->target - hi) < abs(af->target - lo)) {
		af->lo = lo + (af->n - 1) * af->step;
		af->step = -af->step;
	}
	af->i = 0;
	af->best_m = -1;
	af->best_i = 0;
	return move_to(af, scan_pos(af, 0));
}

static int begin_coarse(struct v4lc_af *af)
{
	af->scans++;
	af->changed = 0;
	return begin_scan(af, V4LC_AF_COARSE, af->p.min, af->p.max,
			  af->p.coarse_points);
}

int v4lc_af_start(struct v4lc_af *af, const struct v4lc_af_params *p, int pos)
{
	memset(af, 0, sizeof(*af));
	af->p = *p;
	af->target = clampi(af, pos);
	pos = begin_coarse(af);
	/*
	 * The lens may still be on its way from an earlier command: give the
	 * first measure the time of a move across the whole range.
	 */
	af->wait += af->p.settle_frames +
		    (af->p.max - af->p.min) / af->p.settle_units;
	return pos;
}

/*
 * The peak of the fine scan, refined by a parabola through the best
 * measure and its neighbours when both exist and bend downwards.
 */
static int fine_peak(const struct v4lc_af *af)
{
	int k = af->best_i;
	double peak = scan_pos(af, k);

	if (k > 0 && k + 1 < af->i) {
		double a = af->m[k - 1], b = af->m[k], c = af->m[k + 1];

		if (a - 2 * b + c < 0) {
			double off = 0.5 * (a - c) / (a - 2 * b + c);

			off = off > 0.5 ? 0.5 : off < -0.5 ? -0.5 : off;
			peak += off * af->step;
		}
	}
	return clampi(af, (int)lround(peak));
}

int v4lc_af_frame(struct v4lc_af *af, double m)
{
	if (af->wait > 0) {
		af->wait--;
		return -1;
	}
	if (m < 0)
		return -1;
	switch (af->state) {
	case V4LC_AF_COARSE:
	case V4LC_AF_FINE: {
		int past;

		af->m[af->i] = m;
		if (m > af->best_m) {
			af->best_m = m;
			af->best_i = af->i;
		}
		past = af->i - af->best_i;
		af->i++;
		/* Hill climbing: well past a clear peak, the rest is downhill. */
		if (af->i < af->n && !(past >= 2 && m < 0.5 * af->best_m))
			return move_to(af, scan_pos(af, af->i));
		if (af->state == V4LC_AF_COARSE) {
			int best = scan_pos(af, af->best_i);
			int span = abs(af->step);

			return begin_scan(af, V4LC_AF_FINE,
					  clampi(af, best - span),
					  clampi(af, best + span),
					  af->p.fine_points);
		}
		af->state = V4LC_AF_LOCKED;
		af->locked_m = -1;
		af->changed = 0;
		return move_to(af, fine_peak(af));
	}
	case V4LC_AF_LOCKED:
		if (af->locked_m < 0) {
			af->locked_m = m;
			return -1;
		}
		if (fabs(m - af->locked_m) >
		    af->p.change_ratio * af->locked_m) {
			if (++af->changed >= af->p.change_samples)
				return begin_coarse(af);
		} else {
			af->changed = 0;
		}
		return -1;
	}
	return -1;
}

int v4lc_af_need_measure(const struct v4lc_af *af, unsigned long frame,
			 int every)
{
	if (af->wait > 0)
		return 0;
	if (af->state != V4LC_AF_LOCKED || af->locked_m < 0 || every <= 1)
		return 1;
	return frame % (unsigned long)every == 0;
}
