/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* libv4l2 internals: the device and the helpers between files. */
#ifndef LV2_PRIV_H
#define LV2_PRIV_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/videodev2.h>

#include <libv4l-plugin.h>
#include <libv4l2.h>
#include <libv4lconvert.h>

#include "autofocus.h"
#include "backend.h"

#define LV2_MAX_DEVICES 16
#define LV2_MAX_BUFFERS 32
#define LV2_READ_BUFFERS 4
#define LV2_FRAME_TRIES 4
#define LV2_FAKE_MAGIC 0xABCDEF00u

/* Who owns the driver's buffers. */
enum lv2_bufmode {
	BUFS_NONE,    /* no buffers requested (through us) */
	BUFS_DIRECT,  /* the application's, passed straight through */
	BUFS_CONVERT, /* mapped here, fake buffers shown to the application */
	BUFS_READ,    /* mapped here for read() emulation */
};

/*
 * A device, in a slot of the device table (devices.c), whose lock guards
 * every field: the entry points take it with lv2_dev_get.
 */
struct lv2_dev {
	int fd;
	int flags;       /* v4l2_fd_open flags */
	int passthrough; /* not a capture device: nothing intercepted */
	int gone;        /* ENODEV seen */
	int touched;     /* a format or buffer ioctl was made (ioctl.c) */
	uint32_t caps;   /* device capabilities */

	const struct libv4l_dev_ops *ops;
	void *priv;
	void *plugin_handle; /* dlopen handle, NULL for built-in ops */

	struct v4lconvert_data *conv; /* NULL with V4L2_DISABLE_CONVERSION */
	struct v4l2_format src;       /* what the driver delivers */
	struct v4l2_format dst;       /* what the application sees */

	/* buffers */
	enum lv2_bufmode mode;
	int streaming; /* the driver is streaming */
	unsigned int nbufs;
	void *map[LV2_MAX_BUFFERS]; /* driver buffers mapped here */
	size_t map_len[LV2_MAX_BUFFERS];
	uint32_t queued; /* bitmask of buffers queued to the driver */

	/* fake buffers (BUFS_CONVERT) */
	uint8_t *fake;    /* one anonymous region, lazily */
	size_t fake_len;  /* per buffer, page-rounded */
	size_t fake_size; /* whole region */
	int fake_maps[LV2_MAX_BUFFERS];
	/* once a buffer was exported (export.c): the memfd behind each of
	 * the first fake_nfd fake buffers */
	int fake_fd[LV2_MAX_BUFFERS];
	unsigned int fake_nfd;
	uint32_t fake_valid; /* bitmask: fake buffer holds a good frame */
	int last_good;       /* index of the last good frame, -1 none */
	uint32_t last_good_bytes;

	/* emulated autofocus controls (autofocus.h) */
	struct lv2_af af;

	/* read() emulation fallback through the driver's read() */
	uint8_t *read_buf;
	size_t read_buf_size;
	uint8_t *read_scratch; /* for reads shorter than a frame */
	size_t read_scratch_size;
};

/*
 * devices.c: the device table. An entry point finds its device with
 * lv2_dev_get: the slot holding fd, locked, and fd checked again under the
 * lock, since a close in another thread takes the device out of the table
 * under that lock. NULL: fd is not a device of ours (or no longer is), and
 * the plain system call applies. lv2_dev_put releases it.
 */
struct lv2_dev *lv2_dev_get(int fd);
void lv2_dev_put(struct lv2_dev *dev);
/* The live device of slot i, locked; NULL when the slot is free or its
 * lock is held by this thread (for v4l2_munmap). */
struct lv2_dev *lv2_dev_get_slot(int i);
/*
 * Around a driver call made without the lock (a DQBUF that may block):
 * unlock and mark the device busy, then relock and unmark. v4l2_close
 * waits until no such call is in flight before it frees the device.
 */
void lv2_dev_unlock_busy(struct lv2_dev *dev);
void lv2_dev_relock_busy(struct lv2_dev *dev);
int lv2_dev_needs_conversion(struct lv2_dev *dev);
int lv2_dev_nonblocking(struct lv2_dev *dev);

/* sys.c: device operations through dev->ops */
int lv2_dev_ioctl(struct lv2_dev *dev, unsigned long request, void *arg);
ssize_t lv2_dev_read(struct lv2_dev *dev, void *buf, size_t n);
size_t lv2_page_align(size_t n);

/* log.c */
void lv2_log_init(void);
void lv2_log_err(struct lv2_dev *dev, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void lv2_log_ioctl(int fd, unsigned long request, int result, int err);

/* plugin.c: the backend of a device being opened (backend.h) */
void lv2_plugin_attach(struct lv2_dev *dev);
void lv2_plugin_detach(struct lv2_dev *dev);

/* buffers.c (called with dev->lock held) */
int lv2_bufs_release(struct lv2_dev *dev); /* unmap + REQBUFS 0 */
int lv2_bufs_busy(struct lv2_dev *dev);
int lv2_bufs_reqbufs(struct lv2_dev *dev, struct v4l2_requestbuffers *req);
int lv2_bufs_create(struct lv2_dev *dev, struct v4l2_create_buffers *c);
int lv2_bufs_querybuf(struct lv2_dev *dev, struct v4l2_buffer *buf);
int lv2_bufs_qbuf(struct lv2_dev *dev, struct v4l2_buffer *buf);
int lv2_bufs_dqbuf(struct lv2_dev *dev, struct v4l2_buffer *buf);
int lv2_bufs_stream(struct lv2_dev *dev, unsigned long request, void *arg);
/* Map the driver's nbufs buffers here (QUERYBUF + mmap). */
int lv2_bufs_map_driver(struct lv2_dev *dev);
/*
 * Dequeue a frame and convert it (or copy it) into dest. Tries up to
 * LV2_FRAME_TRIES frames. Returns the bytes written or -1; *buf receives
 * the driver buffer (still dequeued) on success.
 */
int lv2_bufs_get_frame(struct lv2_dev *dev, struct v4l2_buffer *buf,
		       uint8_t *dest, size_t dest_size, int requeue);
void lv2_bufs_free_fake(struct lv2_dev *dev);
/* The fake buffers' region, allocated once (anonymous memory). */
int lv2_bufs_fake_alloc(struct lv2_dev *dev);

/* export.c: VIDIOC_EXPBUF of a fake buffer (BUFS_CONVERT; dev->lock
 * held): a memfd of that buffer. lv2_export_close closes the memfds when
 * the fake region goes. */
int lv2_export_buf(struct lv2_dev *dev, struct v4l2_exportbuffer *e);
void lv2_export_close(struct lv2_dev *dev);

/* read.c (dev->lock held) */
void lv2_read_stop(struct lv2_dev *dev);

/* controls.c: the emulated controls merged in (dev->conv set) */
int lv2_query_ext_ctrl(struct lv2_dev *dev, struct v4l2_query_ext_ctrl *q);
int lv2_querymenu(struct lv2_dev *dev, struct v4l2_querymenu *m);

/* intervals.c: ENUM_FRAMEINTERVALS, one interval made up for a size the
 * driver gives none for */
int lv2_enum_frameintervals(struct lv2_dev *dev, struct v4l2_frmivalenum *fi);

/* ioctl.c */
int lv2_fmt_apply(struct lv2_dev *dev, struct v4l2_format *fmt);
/* An ioctl as libv4l2 serves it below the emulated autofocus controls. */
int lv2_dispatch_lower(struct lv2_dev *dev, unsigned long request, void *arg);

#endif
