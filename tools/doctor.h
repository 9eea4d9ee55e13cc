/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * v4l2-doctor: what libv4l makes of a camera (v4l2-doctor(1)). One
 * struct doc_dev per device, filled by doctor_probe.c and
 * doctor_server.c, written by doctor_print.c as text or JSON.
 */
#ifndef V4L2_DOCTOR_H
#define V4L2_DOCTOR_H

#include <stdint.h>
#include <stdio.h>

#include <linux/videodev2.h>

#include "libv4lconvert/private_api.h"
#include "protocol/proto.h"

#define DOC_MAX_FMTS 96
#define DOC_MAX_SIZES 16
#define DOC_MAX_CTRLS 16

struct doc_fmt {
	uint32_t fourcc;
	char desc[33]; /* ENUM_FMT's 32 bytes, which may have no NUL */
	int emulated;  /* offered by libv4l2 with V4L2_FMT_FLAG_EMULATED */
	int hidden;    /* native, not offered to applications as it is */
	/* native: its frame sizes (nsizes discrete ones, or a step range) */
	int nsizes, stepwise;
	struct v4l2_frmsize_discrete sizes[DOC_MAX_SIZES];
	struct v4l2_frmsize_stepwise step;
	/* emulated: made from src at src_w x src_h (src 0: unknown); a
	 * native format made from itself is processed (flipped...) */
	uint32_t src;
	uint32_t src_w, src_h;
};

struct doc_ctrl {
	uint32_t id;
	char name[33]; /* QUERYCTRL's 32 bytes and a NUL */
	int32_t min, max, def;
};

struct doc_server {
	char socket[256];
	/* 0: none runs; 1: runs, listed; -1: runs, no list; -2: its
	 * socket accepts no connection (stopped or wedged) */
	int state;
	struct fs_clients who;
};

struct doc_dev {
	char name[300]; /* the path, or "libv4l-vcam:SPEC" */
	int ok;
	char error[128];
	/* QUERYCAP's fields, whose full length may have no NUL, and one */
	char driver[17], card[33], bus[33];
	int capture; /* a video capture device (else libv4l2 passes it on) */
	uint32_t width, height; /* current format's size */
	int nfmts, nemu; /* the driver's formats; libv4l2's emulated ones */
	struct doc_fmt fmts[DOC_MAX_FMTS], emu[DOC_MAX_FMTS];
	struct v4lc_quirk_report quirks;
	int nctrls;
	struct doc_ctrl ctrls[DOC_MAX_CTRLS];
	struct doc_server server;
};

/* Open the device (a path, or "libv4l-vcam:SPEC") and fill d. */
void doc_probe(const char *name, struct doc_dev *d);
/* Is a frame server serving name, and who is connected to it? */
void doc_server_ask(const char *name, struct doc_server *s);

void doc_print_text(FILE *f, const struct doc_dev *devs, int n,
		    const char *simd);
void doc_print_json(FILE *f, const struct doc_dev *devs, int n,
		    const char *simd);

#endif
