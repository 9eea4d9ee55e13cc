/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Emulated autofocus controls: on a camera shared through the frame server
 * that has V4L2_CID_FOCUS_ABSOLUTE and no autofocus of its own, libv4l2
 * offers V4L2_CID_FOCUS_AUTO, V4L2_CID_AUTO_FOCUS_START/STOP and
 * V4L2_CID_AUTO_FOCUS_STATUS, and runs the v4l2-autofocus daemon beside the
 * application (another client of the same server) while they ask for it:
 *   FOCUS_AUTO 1       the daemon focuses continuously; 0 stops it, and
 *                      FOCUS_ABSOLUTE is the application's again;
 *   AUTO_FOCUS_START   one focusing run (FOCUS_AUTO 0), then the daemon
 *                      exits; AUTO_FOCUS_STOP ends a run;
 *   AUTO_FOCUS_STATUS  BUSY while scanning, REACHED once locked, FAILED
 *                      when the daemon could not run, IDLE otherwise.
 * The daemon reports its state on a pipe (--status-fd); LIBV4L2_AUTOFOCUS
 * (secure_getenv) names another daemon binary, for tests.
 */
#ifndef LV2_AUTOFOCUS_H
#define LV2_AUTOFOCUS_H

#include <sys/types.h>

struct lv2_dev;

struct lv2_af {
	int offered;      /* the controls exist on this device */
	char device[300]; /* what the daemon opens (path or virtual camera) */
	int on;           /* FOCUS_AUTO */
	pid_t pid;        /* the daemon, 0 when none */
	int status_fd;    /* read end of its status pipe, -1 when none */
	int status;       /* V4L2_AUTO_FOCUS_STATUS_* */
};

/* At open, after the plugin and converter: decide whether to offer. */
void lv2_af_probe(struct lv2_dev *dev);
/* Whether the request is for the emulated controls (or merges them). */
int lv2_af_claims(struct lv2_dev *dev, unsigned long request, void *arg);
/* Serve a claimed request (dev->lock held). */
int lv2_af_ioctl(struct lv2_dev *dev, unsigned long request, void *arg);
/* At close: stop the daemon. */
void lv2_af_close(struct lv2_dev *dev);

#endif
