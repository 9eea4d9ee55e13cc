/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The frame server's client in libv4l2 (what it does: client.c):
 *   client.c          the device operations (plugin ABI) and controls;
 *   client_connect.c  finding or starting the device's server, HELLO;
 *   client_io.c       requests, replies and asynchronous messages;
 *   client_stream.c   format, buffers and frames;
 *   client_replug.c   asking to be carried across a replug.
 * A share's fields are guarded by its lock, held by every operation.
 */
#ifndef V4L2_FRAMESERVER_CLIENT_H
#define V4L2_FRAMESERVER_CLIENT_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/videodev2.h>

#include "protocol/proto.h"

#define MAX_BUFS 32

struct share {
	int fd;   /* the application's fd: the frame socket now */
	int sock; /* requests and replies */
	int mfd;  /* memfd holding this client's buffers */
	pthread_mutex_t lock;
	struct v4l2_pix_format fmt;
	int fmt_valid;
	/* buffers */
	unsigned nbufs;
	size_t stride;
	uint8_t *map; /* our mapping of the whole memfd */
	size_t map_size;
	int queued[MAX_BUFS];
	unsigned q[MAX_BUFS], qhead, qlen;
	struct v4l2_buffer info[MAX_BUFS];
	int streaming;
	uint32_t memory; /* V4L2_MEMORY_MMAP or _USERPTR (REQBUFS) */
	/* server slots */
	struct slot_map {
		const uint8_t *map;
		size_t size;
		uint32_t gen;
	} slot[FS_MAX_SLOTS];
	struct fs_frame pending;
	int have_pending;
	/* The frame libv4l2 converts from in its slot (lv2_share_dqbuf),
	 * held until it is done. */
	struct fs_frame lease;
	int leased;
	int ended, end_err;
	char dev[300]; /* the device reference the server serves */
};

/*
 * client_connect.c: when the device on fd is to be shared (LIBV4L2_SHARE),
 * connect to its server, starting one if asked to. dev receives the
 * device's reference, key its key (proto.h), *fsock our end of the frame
 * socket. Returns the request socket, or -1 (not shared).
 */
int share_connect(int fd, char *dev, size_t dev_size, char *key,
		  size_t key_size, int *fsock);

/* client_backoff.c: whether starting key's server failed in this process
 * within the last minute; noting such a failure. */
int share_start_failed_lately(const char *key);
void share_note_failed_start(const char *key);

/* client_io.c */
/* CLOCK_MONOTONIC in milliseconds. */
uint64_t share_mono_ms(void);
/* dflt ms, or less as LIBV4L2_SHARE_TIMEOUT_MS asks (tests). */
int share_timeout_ms(int dflt);
/* Send a request and wait for its reply, of rlen bytes, into msg. */
int share_request(struct share *sh, void *msg, size_t len, size_t rlen);
/* An ioctl forwarded to the device through the server. */
int share_fwd_ioctl(struct share *sh, unsigned long req, void *arg);
/* A request without arguments (FS_STREAMON, FS_STREAMOFF). */
int share_simple(struct share *sh, uint32_t type);
/* Give a frame's slot back to the server. */
void share_release(struct share *sh, const struct fs_frame *f);
void share_slot_unmap(struct share *sh, unsigned i);
/* Take the frames, events and end of stream that have arrived. */
void share_drain(struct share *sh);

/* client_replug.c: FS_REPLUG when the environment asks for it; 0, or -1
 * when the server refused. */
int share_ask_replug(struct share *sh);

/* client_stream.c */
int share_get_fmt(struct share *sh);
int share_s_fmt(struct share *sh, struct v4l2_format *f);
int share_reqbufs(struct share *sh, struct v4l2_requestbuffers *r);
int share_querybuf(struct share *sh, struct v4l2_buffer *b);
int share_qbuf(struct share *sh, struct v4l2_buffer *b);
/*
 * view NULL: the frame is copied into the dequeued buffer. Otherwise, when
 * the frame needs no copying (same format and layout, uncompressed), *view
 * points at it in the server's slot, held until share_view_done, and the
 * buffer is left as it was; else *view is left as it is and the frame
 * copied.
 */
int share_dqbuf(struct share *sh, struct v4l2_buffer *b, const uint8_t **view);
void share_view_done(struct share *sh);
int share_streamon(struct share *sh, const int *type);
int share_streamoff(struct share *sh, const int *type);

#endif
