/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The autofocus decisions against a simulated lens and scene, without
 * pictures: the measure is a peak around the in-focus position (with
 * deterministic noise), the lens moves at a limited speed and a measure
 * taken while it moves is of where it is. Checks: convergence within 2 %
 * of the range from several starts in a bounded number of frames, no
 * control write over 300 frames once locked on a static scene, a new scan
 * and convergence after the scene moves.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "focus/af.h"
#include "../common/check.h"

#define RANGE 1023
#define SLEW 40

struct sim {
	int infocus, lens, target;
	double noise;
	uint32_t rng;
};

static double rnd(struct sim *s)
{
	s->rng = s->rng * 1664525u + 1013904223u;
	return (double)(s->rng >> 8) / (double)(1u << 24) * 2 - 1;
}

/* Sharpness of the lens position: a peak of width ~10 % of the range. */
static double sharpness(struct sim *s)
{
	double d = (s->lens - s->infocus) / 100.0;

	return (1000.0 / (1 + d * d) + 20) * (1 + s->noise * rnd(s));
}

/*
 * Run `frames` frames measuring one in `every` when locked; returns the
 * number of control writes; *lock is the frame of the first lock, or -1.
 */
static int run(struct v4lc_af *af, struct sim *s, int frames, int every,
	       long *lock, int pending)
{
	int writes = 0;

	*lock = -1;
	if (pending >= 0) {
		s->target = pending;
		writes++;
	}
	for (long f = 0; f < frames; f++) {
		int pos;
		double m = -1;

		/* The motor moves, then the frame is exposed. */
		s->lens += s->target > s->lens ? (s->target - s->lens < SLEW
							  ? s->target - s->lens
							  : SLEW)
					       : -(s->lens - s->target < SLEW
							   ? s->lens - s->target
							   : SLEW);
		if (v4lc_af_need_measure(af, (unsigned long)f, every))
			m = sharpness(s);
		pos = v4lc_af_frame(af, m);
		if (pos >= 0) {
			s->target = pos;
			writes++;
		}
		if (*lock < 0 && af->state == V4LC_AF_LOCKED && af->wait == 0)
			*lock = f;
	}
	return writes;
}

static void test_converge(int start, int infocus, double noise)
{
	struct v4lc_af_params p;
	struct v4lc_af af;
	struct sim s = { infocus, start, start, noise,
			 12345u + (uint32_t)start };
	long lock;
	int first;

	v4lc_af_params_default(&p, 0, RANGE);
	first = v4lc_af_start(&af, &p, start);
	run(&af, &s, 400, 5, &lock, first);
	if (lock < 0 || abs(s.target - infocus) > RANGE / 50)
		printf("start %d, in focus at %d, noise %.2f: lens at %d, "
		       "lock at frame %ld\n",
		       start, infocus, noise, s.target, lock);
	CHECK(lock >= 0 && lock < 250);
	CHECK(abs(s.target - infocus) <= RANGE / 50);

	/* Static scene: the lens is left alone. */
	CHECK(run(&af, &s, 300, 5, &lock, -1) == 0);
	CHECK(af.state == V4LC_AF_LOCKED);

	/* The scene moves: a new scan finds it. */
	s.infocus = infocus < RANGE / 2 ? infocus + 400 : infocus - 400;
	{
		int scans = af.scans;

		run(&af, &s, 400, 5, &lock, -1);
		CHECK(af.scans == scans + 1);
		CHECK(af.state == V4LC_AF_LOCKED);
		CHECK(abs(s.target - s.infocus) <= RANGE / 50);
	}
}

int main(void)
{
	static const int starts[] = { 0, 300, 512, 900, 1023 };
	static const int targets[] = { 0, 150, 500, 777, 1023 };

	for (size_t i = 0; i < sizeof(starts) / sizeof(starts[0]); i++)
		for (size_t j = 0; j < sizeof(targets) / sizeof(targets[0]);
		     j++) {
			test_converge(starts[i], targets[j], 0);
			test_converge(starts[i], targets[j], 0.03);
		}
	printf("%s\n", failures ? "FAILED" : "ok");
	return failures != 0;
}
