/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* libv4l2 internals: the device table entry and the helpers between files. */
#ifndef V4L2_PRIV_H
#define V4L2_PRIV_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/videodev2.h>

#include <libv4l-plugin.h>
#include <libv4l2.h>
#include <libv4lconvert.h>

#include "autofocus.h"

#define V4L2_MAX_DEVICES 16
#define V4L2_MAX_BUFFERS 32
#define V4L2_READ_BUFFERS 4
#define V4L2_FRAME_TRIES 4
#define V4L2_FAKE_MAGIC 0xABCDEF00u

/* Who owns the driver's buffers. */
enum v4l2_bufmode {
	BUFS_NONE,	/* no buffers requested (through us) */
	BUFS_DIRECT,	/* the application's, passed straight through */
	BUFS_CONVERT,	/* mapped here, fake buffers shown to the application */
	BUFS_READ,	/* mapped here for read() emulation */
};

struct v4l2_dev {
	int fd;			/* -1: free slot */
	int open_count;
	int flags;		/* v4l2_fd_open flags */
	int passthrough;	/* not a capture device: nothing intercepted */
	int gone;		/* ENODEV seen */
	uint32_t caps;		/* device capabilities */
	pthread_mutex_t lock;
	/* DQBUFs inside the driver without `lock`; close waits for them */
	int busy;
	pthread_cond_t idle;

	const struct libv4l_dev_ops *ops;
	void *priv;
	void *plugin_handle;	/* dlopen handle, NULL for built-in ops */

	struct v4lconvert_data *conv;	/* NULL with V4L2_DISABLE_CONVERSION */
	struct v4l2_format src;	/* what the driver delivers */
	struct v4l2_format dst;	/* what the application sees */

	/* buffers */
	enum v4l2_bufmode mode;
	int streaming;		/* the driver is streaming */
	unsigned int nbufs;
	void *map[V4L2_MAX_BUFFERS];	/* driver buffers mapped here */
	size_t map_len[V4L2_MAX_BUFFERS];
	uint32_t queued;	/* bitmask of buffers queued to the driver */

	/* fake buffers (BUFS_CONVERT) */
	uint8_t *fake;		/* one anonymous region, lazily */
	size_t fake_len;	/* per buffer, page-rounded */
	size_t fake_size;	/* whole region */
	int fake_maps[V4L2_MAX_BUFFERS];
	uint32_t fake_valid;	/* bitmask: fake buffer holds a good frame */
	int last_good;		/* index of the last good frame, -1 none */
	uint32_t last_good_bytes;

	/* emulated autofocus controls (autofocus.h) */
	struct v4l2_af af;

	/* read() emulation fallback through the driver's read() */
	uint8_t *read_buf;
	size_t read_buf_size;
	uint8_t *read_scratch;	/* for reads shorter than a frame */
	size_t read_scratch_size;
};

/* devices.c */
struct v4l2_dev *v4l2_dev_find(int fd);	/* no lock taken */
/*
 * Around a driver call made without dev->lock (a DQBUF that may block):
 * unlock and mark the device busy, then relock and unmark. v4l2_close
 * waits until no such call is in flight before it frees the driver's
 * state.
 */
void v4l2_dev_unlock_busy(struct v4l2_dev *dev);
void v4l2_dev_relock_busy(struct v4l2_dev *dev);
int v4l2_dev_needs_conversion(struct v4l2_dev *dev);
int v4l2_dev_nonblocking(struct v4l2_dev *dev);
/* Iterate over live devices (for munmap). */
struct v4l2_dev *v4l2_dev_at(int i);

/* sys.c: raw system calls and device operations */
extern const struct libv4l_dev_ops v4l2_sys_ops;
long v4l2_sys_ioctl(int fd, unsigned long request, void *arg);
void *v4l2_sys_mmap(void *start, size_t length, int prot, int flags, int fd,
		    int64_t offset);
int v4l2_sys_munmap(void *start, size_t length);
int v4l2_dev_ioctl(struct v4l2_dev *dev, unsigned long request, void *arg);
ssize_t v4l2_dev_read(struct v4l2_dev *dev, void *buf, size_t n);
ssize_t v4l2_dev_write(struct v4l2_dev *dev, const void *buf, size_t n);
size_t v4l2_page_align(size_t n);

/* log.c */
void v4l2_log_init(void);
void v4l2_log_err(struct v4l2_dev *dev, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void v4l2_log_ioctl(struct v4l2_dev *dev, unsigned long request, int result,
		    int err);

/* plugin.c */
void v4l2_plugin_attach(struct v4l2_dev *dev);
void v4l2_plugin_detach(struct v4l2_dev *dev);
#ifdef V4L2_TEST_HOOKS
/* Test builds only: ops tried before every other plugin. */
void v4l2_test_set_plugin(const struct libv4l_dev_ops *ops);
#endif

/* buffers.c (called with dev->lock held) */
int v4l2_bufs_release(struct v4l2_dev *dev);	/* unmap + REQBUFS 0 */
int v4l2_bufs_busy(struct v4l2_dev *dev);
int v4l2_bufs_reqbufs(struct v4l2_dev *dev, struct v4l2_requestbuffers *req);
int v4l2_bufs_querybuf(struct v4l2_dev *dev, struct v4l2_buffer *buf);
int v4l2_bufs_qbuf(struct v4l2_dev *dev, struct v4l2_buffer *buf);
int v4l2_bufs_dqbuf(struct v4l2_dev *dev, struct v4l2_buffer *buf);
int v4l2_bufs_stream(struct v4l2_dev *dev, unsigned long request, void *arg);
/* Map the driver's nbufs buffers here (QUERYBUF + mmap). */
int v4l2_bufs_map_driver(struct v4l2_dev *dev);
/*
 * Dequeue a frame and convert it (or copy it) into dest. Tries up to
 * V4L2_FRAME_TRIES frames. Returns the bytes written or -1; *buf receives
 * the driver buffer (still dequeued) on success.
 */
int v4l2_bufs_get_frame(struct v4l2_dev *dev, struct v4l2_buffer *buf,
			uint8_t *dest, size_t dest_size, int requeue);
void v4l2_bufs_free_fake(struct v4l2_dev *dev);

/* read.c (dev->lock held) */
void v4l2_read_stop(struct v4l2_dev *dev);

/* controls.c: the emulated controls merged in (dev->conv set) */
int v4l2_query_ext_ctrl(struct v4l2_dev *dev, struct v4l2_query_ext_ctrl *q);
int v4l2_querymenu(struct v4l2_dev *dev, struct v4l2_querymenu *m);

/* ioctl.c */
int v4l2_fmt_apply(struct v4l2_dev *dev, struct v4l2_format *fmt);
/* An ioctl as libv4l2 serves it below the emulated autofocus controls. */
int v4l2_dispatch_lower(struct v4l2_dev *dev, unsigned long request,
			void *arg);

#endif
