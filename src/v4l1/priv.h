/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libv4l1: the Video4Linux 1 API emulated on V4L2 devices, on top of
 * libv4l2 (which does every format conversion and the read() emulation).
 *
 * A device is managed when libv4l2 accepts it (it answers VIDIOC_QUERYCAP:
 * a V4L2 device, or one of libv4l2's plugin devices); everything else,
 * real V4L1 drivers included, goes to the plain system calls through
 * libv4l2's pass-through.
 *
 * State kept here per device: the V4L1 palette the program chose (V4L1 has
 * two names for YUYV and for YUV420, so the V4L2 format alone cannot tell
 * which one to report), the size limits found at open, and the
 * VIDIOCGMBUF frame area (frames.c). Formats and sizes are always read
 * back from libv4l2 (G_FMT is answered from its cache), so V4L2 ioctls
 * mixed in by the program (S_FMT, S_INPUT, S_STD) never leave a stale
 * copy here.
 *
 * The parts: the device table and the entry points other than ioctl
 * (device.c), formats and palettes (format.c), the frame area (frames.c),
 * the ioctl translations (inputs.c, picture.c, audio.c, overlay.c) and
 * their dispatch (ioctl.c), the log (log.c). A translation returns 0 or -1
 * with errno; those taking the device run with dev->lock held.
 */
#ifndef LV1_PRIV_H
#define LV1_PRIV_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <linux/videodev2.h>

#include "libv4l1.h"
#include "libv4l1-videodev.h"
#include "libv4l2.h"

#define LV1_MAX_DEVICES 16
#define VIDEO_FRAMES 4
#define FRAME_MIN_STRIDE (16u << 20)
#define FRAME_MAX_STRIDE (256u << 20)

struct lv1_dev {
	int fd; /* -1: free slot */
	int open_count;
	pthread_mutex_t lock;
	int palette;    /* VIDEO_PALETTE_* last chosen through V4L1, 0 none */
	int fmt_chosen; /* the program chose a format (V4L1 or S_FMT) */
	uint32_t caps;  /* V4L2 device capabilities */
	int min_w, min_h, max_w, max_h;
	/* VIDIOCGMBUF frame area */
	int mbuf_given; /* VIDIOCGMBUF answered: mmap recognised */
	uint8_t *mbuf;
	size_t mbuf_size, frame_stride;
	int mbuf_maps;
	struct video_mmap pending[VIDEO_FRAMES];
	unsigned int pending_mask;
};

/* device.c */
extern struct lv1_dev lv1_devices[LV1_MAX_DEVICES];
/* The managed device of fd, or NULL. */
struct lv1_dev *lv1_dev_find(int fd);

/* log.c */
void lv1_log_init(void);
void lv1_log_ioctl(int fd, unsigned int request, int result, int err);

/* format.c */
/* The V4L2 format of a palette, the palette's depth (0: unknown), the
 * first (preferred) palette of a V4L2 format (0: none). */
uint32_t lv1_palette_fourcc(int palette);
int lv1_palette_depth(int palette);
int lv1_fourcc_palette(uint32_t fourcc);
int lv1_get_fmt(int fd, struct v4l2_format *f);
/*
 * Make the capture format fourcc at w x h (through libv4l2's emulation).
 * Nothing is changed unless TRY_FMT promises exactly that pixel format;
 * with exact, the size must come out exactly too. The resulting format is
 * left in *out (when not NULL).
 */
int lv1_set_fmt(int fd, uint32_t fourcc, uint32_t w, uint32_t h, int exact,
		struct v4l2_format *out);
/* Smallest and largest capture sizes over every format (emulated too). */
void lv1_probe_sizes(struct lv1_dev *dev, int fd);
/* The palette shown for the current format; with switch_unknown, a
 * format V4L1 has no name for that the program did not choose becomes
 * RGB24 (BGR24). */
int lv1_current_palette(struct lv1_dev *dev, int fd, int switch_unknown);

/* frames.c */
int lv1_mbuf_alloc(struct lv1_dev *dev);
int lv1_gmbuf(struct lv1_dev *dev, struct video_mbuf *m);
int lv1_mcapture(struct lv1_dev *dev, int fd, const struct video_mmap *vm);
/* Drops dev->lock while reading. */
int lv1_vsync(struct lv1_dev *dev, int fd, const int *framep);

/* inputs.c */
/* A NUL-terminated copy of a fixed-size name, the rest zeroed. */
void lv1_copy_name(char *dst, size_t size, const void *src, size_t srcsize);
int lv1_count_inputs(int fd);
int lv1_count_audios(int fd);
int lv1_gcap(struct lv1_dev *dev, int fd, struct video_capability *c);
int lv1_gchan(int fd, struct video_channel *ch);
int lv1_schan(int fd, const struct video_channel *ch);
int lv1_gtuner(int fd, struct video_tuner *vt);
int lv1_stuner(int fd, const struct video_tuner *vt);
int lv1_gfreq(int fd, unsigned long *freq);
int lv1_sfreq(int fd, const unsigned long *freq);

/* picture.c */
int lv1_gpict(struct lv1_dev *dev, int fd, struct video_picture *p);
int lv1_spict(struct lv1_dev *dev, int fd, const struct video_picture *p);
int lv1_capture(int fd, const int *on);
int lv1_gwin(int fd, struct video_window *w);
int lv1_swin(int fd, const struct video_window *w);

/* audio.c */
int lv1_gaudio(int fd, struct video_audio *va);
int lv1_saudio(int fd, const struct video_audio *va);

/* overlay.c */
int lv1_gfbuf(int fd, struct video_buffer *b);
int lv1_sfbuf(int fd, const struct video_buffer *b);
int lv1_gvbifmt(int fd, struct vbi_format *v);
int lv1_svbifmt(int fd, const struct vbi_format *v);

#endif
