/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The autofocus decision logic, free of I/O: fed one sharpness measure per
 * sampled frame, it says where the lens should go. Contrast-detect, as
 * cameras without phase detection do it:
 *   coarse scan of the whole range -> fine scan around the best coarse
 *   position -> lock on the best fine position -> watch: the lens is left
 *   alone while the measure stays within a band of its locked value; a
 *   lasting drop (the scene moved) starts a new scan.
 * After every move the caller waits for the lens to settle (settle_frames,
 * more for a longer move) before the next measure counts.
 */
#ifndef V4LC_FOCUS_AF_H
#define V4LC_FOCUS_AF_H

enum v4lc_af_state {
	V4LC_AF_COARSE,
	V4LC_AF_FINE,
	V4LC_AF_LOCKED,
};

/* Positions of one scan, at most. */
#define V4LC_AF_MAX_POINTS 33

struct v4lc_af_params {
	int min, max;      /* lens range (V4L2_CID_FOCUS_ABSOLUTE) */
	int coarse_points; /* positions of the coarse scan, ends included */
	int fine_points;   /* positions of the fine scan */
	/*
	 * Frames to wait after a move: settle_frames, plus one per
	 * settle_units of distance (a motor needs longer for a longer move).
	 */
	int settle_frames, settle_units;
	/* Locked: relative change of the measure that counts as a change. */
	double change_ratio;
	/* ... for this many consecutive samples before a rescan. */
	int change_samples;
};

/* Defaults for a lens range [min, max]. */
void v4lc_af_params_default(struct v4lc_af_params *p, int min, int max);

struct v4lc_af {
	struct v4lc_af_params p;
	enum v4lc_af_state state;
	int target; /* where the lens was sent */
	int wait;   /* frames still to skip before a measure counts */
	/* The scan in progress: positions lo + i * step, i < n. */
	int lo, step, n, i;
	double m[V4LC_AF_MAX_POINTS]; /* the scan's measures so far */
	double best_m;
	int best_i;
	double locked_m;
	int changed; /* consecutive samples away from locked_m */
	int scans;   /* scans started (coarse), for tests and logs */
};

/*
 * Start from the lens at `pos` with a coarse scan. Returns the first
 * position to move the lens to.
 */
int v4lc_af_start(struct v4lc_af *af, const struct v4lc_af_params *p, int pos);

/*
 * One frame went by. `measure` is its sharpness when the caller computed
 * one (need_measure said so), or negative. Returns the position to move
 * the lens to, or -1 to leave it where it is.
 */
int v4lc_af_frame(struct v4lc_af *af, double measure);

/* Whether the next frame's measure is wanted (else the caller skips it). */
int v4lc_af_need_measure(const struct v4lc_af *af, unsigned long frame,
			 int every);

#endif
