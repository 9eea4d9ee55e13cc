/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The virtual camera's state and the parts of its device operations (see
 * vcam.h for the behaviour): the spec it is created from (spec.c), format
 * negotiation (format.c), buffers and streaming (buffers.c), controls
 * (controls.c), and the entry points that dispatch to them (ops.c). Each
 * ioctl handler runs with the camera's lock held and returns 0 or -1 with
 * errno.
 */
#ifndef V4LC_VCAM_PRIV_H
#define V4LC_VCAM_PRIV_H

#include <pthread.h>
#include <stdint.h>
#include <sys/time.h>
#include <sys/types.h>
#include <time.h>

#include <linux/videodev2.h>

#include "vcam/formats.h"
#include "vcam/lens.h"
#include "vcam/vcam.h"

#define VCAM_MAX_FORMATS 48
#define VCAM_MAX_BUFFERS 32
#define VCAM_MAX_SIZES 8
#define VCAM_SPEC_MAX 256 /* a memfd name is at most 249 bytes */

struct vcam_buf {
	uint32_t flags; /* V4L2_BUF_FLAG_QUEUED / DONE */
	uint32_t bytesused, sequence;
	struct timeval timestamp;
	unsigned long userptr;
	uint32_t length;
	int still_n; /* "still": the frame's size once rendered, 0 before */
};

struct vcam {
	int fd;
	const struct vcam_format *formats[VCAM_MAX_FORMATS];
	int nformats;
	/* Frame sizes per offered format (same index as formats[]). */
	int sizes[VCAM_MAX_FORMATS][VCAM_MAX_SIZES][2];
	int nsizes[VCAM_MAX_FORMATS];
	unsigned flip;
	int pace;
	int still; /* render each MMAP buffer once, then serve it as it is */
	int scene; /* the "scene" picture (vcam.h) */
	int meta;  /* a metadata node: QUERYCAP only (vcam.h) */
	/* "unplug=N": the device disappears after N frames (then every
	 * call fails with ENODEV, as on a disconnected device) */
	uint32_t unplug_after, delivered;
	int gone;
	/* "replug=MS": it is back MS ms after (replug.c) */
	uint32_t replug_ms;
	int replug_set;
	/* "slow=MS": the calls a USB camera answers slowly take MS ms */
	uint32_t slow_ms;
	char spec[VCAM_SPEC_MAX]; /* as in the name: what comes back */

	struct v4l2_pix_format fmt;
	struct v4l2_fract interval;
	int brightness, focus;
	struct v4lc_vcam_lens lens;

	/* Buffers. */
	uint32_t memory; /* 0 when none */
	int nbufs;
	size_t stride; /* bytes per MMAP buffer in the memfd */
	uint8_t *map;  /* our MAP_SHARED view of the memfd */
	size_t map_size;
	struct vcam_buf bufs[VCAM_MAX_BUFFERS];
	int queue[VCAM_MAX_BUFFERS]; /* FIFO of queued indices */
	int qhead, qcount;
	int streaming;
	uint32_t sequence;
	struct timespec next_due;
	/*
	 * Calls may come from several threads, as on a real driver (libv4l2
	 * makes the blocking DQBUF without its own lock): one at a time here,
	 * except that DQBUF waits for its frame unlocked.
	 */
	pthread_mutex_t lock;
};

/* errno = err, -1. */
int v4lc_vcam_fail(int err);

/* ops.c: the device operations of v4lc_vcam_ops (and of the plugin
 * module's libv4l2_plugin, module.c). */
void *v4lc_vcam_init(int fd);
void v4lc_vcam_close(void *priv);
int v4lc_vcam_ioctl(void *priv, int fd, unsigned long request, void *arg);
ssize_t v4lc_vcam_read(void *priv, int fd, void *buffer, size_t n);
ssize_t v4lc_vcam_write(void *priv, int fd, const void *buffer, size_t n);

/* render.c: v4lc_vcam_render_optics (o may be NULL) of the bars, or of
 * the "scene" picture (vcam.h) when scene. */
int v4lc_vcam_render_picture(uint32_t fourcc, int w, int h, uint32_t seq,
			     unsigned flip, const struct v4lc_vcam_optics *o,
			     int scene, uint8_t *dst, size_t size);

/* spec.c: the formats, sizes and options of the memfd's name (the spec
 * is modified). 0, or -1 for a spec to decline. */
int v4lc_vcam_parse_spec(struct vcam *c, char *spec);

/* replug.c: c was just unplugged; whether the camera of spec is away. */
void v4lc_vcam_unplugged(const struct vcam *c);
int v4lc_vcam_absent(const char *spec);

/* format.c */
/* Index of an offered format in c->formats, or -1. */
int v4lc_vcam_format_index(const struct vcam *c, uint32_t fourcc);
/* Fill pix for the nearest offered size of an offered format. */
void v4lc_vcam_fix_format(const struct vcam *c, struct v4l2_pix_format *pix);
/* The frame intervals offered for every size: intervals[0] the default. */
extern const struct v4l2_fract v4lc_vcam_intervals[2];
int v4lc_vcam_enum_fmt(struct vcam *c, unsigned long req, void *arg);
int v4lc_vcam_enum_framesizes(struct vcam *c, unsigned long req, void *arg);
int v4lc_vcam_enum_frameintervals(struct vcam *c, unsigned long req, void *arg);
int v4lc_vcam_g_fmt(struct vcam *c, unsigned long req, void *arg);
int v4lc_vcam_try_s_fmt(struct vcam *c, unsigned long req, void *arg);
int v4lc_vcam_g_s_parm(struct vcam *c, unsigned long req, void *arg);

/* buffers.c */
int v4lc_vcam_reqbufs(struct vcam *c, unsigned long req, void *arg);
int v4lc_vcam_querybuf(struct vcam *c, unsigned long req, void *arg);
int v4lc_vcam_qbuf(struct vcam *c, unsigned long req, void *arg);
int v4lc_vcam_dqbuf(struct vcam *c, unsigned long req, void *arg);
int v4lc_vcam_streamon(struct vcam *c, unsigned long req, void *arg);
int v4lc_vcam_streamoff(struct vcam *c, unsigned long req, void *arg);
/* Our mapping of the memfd, at close. */
void v4lc_vcam_unmap(struct vcam *c);

/* controls.c */
int v4lc_vcam_queryctrl(struct vcam *c, unsigned long req, void *arg);
int v4lc_vcam_query_ext_ctrl(struct vcam *c, unsigned long req, void *arg);
int v4lc_vcam_ext_ctrls(struct vcam *c, unsigned long req, void *arg);
int v4lc_vcam_g_ctrl(struct vcam *c, unsigned long req, void *arg);
int v4lc_vcam_s_ctrl(struct vcam *c, unsigned long req, void *arg);

/* geometry.c: the chip formats' sizes and the colorspace reported. */
/* The frame sizes a chip format is offered in (count; 0: not a chip). */
int v4lc_vcam_chip_sizes(uint32_t fourcc, const int (**sizes)[2]);
/* Whether the renderer takes w x h for a format (any known or unknown
 * fourcc: even sizes 2..8192, and the chip encoder's constraints). */
int v4lc_vcam_size_ok(uint32_t fourcc, int w, int h);
uint32_t v4lc_vcam_colorspace(uint32_t fourcc);

#endif
