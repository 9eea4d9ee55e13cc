/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One shared stream of the virtual camera as server-seq (seq.c) watches it:
 * every buffer dequeued is checked against what came before on the same
 * fd (seqstream.c).
 */
#ifndef V4L_TEST_SEQSTREAM_H
#define V4L_TEST_SEQSTREAM_H

#include <stddef.h>
#include <stdint.h>

#include <linux/videodev2.h>

#define SEQ_W 320
#define SEQ_H 240
#define SEQ_NBUFS 4

struct seqstream {
	const char *what; /* named in failures */
	uint32_t camera;  /* the camera's format (YUYV or MJPG) */
	uint32_t fourcc;  /* the format asked */
	int nonblock;     /* O_NONBLOCK: poll, and DQBUF until EAGAIN */
	int fd;
	struct v4l2_pix_format pix; /* as S_FMT answered */
	void *maps[SEQ_NBUFS];
	size_t lens[SEQ_NBUFS];
	int held[SEQ_NBUFS]; /* dequeued and not queued again */
	int since_on;        /* a frame came since the last STREAMON */
	uint32_t last_seq;   /* of that frame */
	/* The last timestamp on this fd, across STREAMOFF/STREAMON too. */
	uint64_t last_us;
	uint64_t off_us; /* CLOCK_MONOTONIC before the last STREAMOFF */
	int base;        /* failures before this stream opened */
	int frames;      /* checked, since the open */
};

/* Opens the shared camera, sets the format, maps and queues every buffer. */
void seq_open(struct seqstream *s);

/* Queues the buffers the program holds, then STREAMON. */
void seq_streamon(struct seqstream *s);
/* STREAMOFF; the buffers are the program's again (none held). */
void seq_streamoff(struct seqstream *s);
void seq_close(struct seqstream *s);

/* No failure since the stream opened (then it is worth going on). */
int seq_ok(const struct seqstream *s);

/*
 * One buffer dequeued (blocking, or polled for when non-blocking) and
 * checked: its index, sequence, timestamp, bytesused and, where the test
 * can compute it independently, its bytes. Left held: 1, or 0 when none
 * came before a generous deadline (a failure already counted).
 */
int seq_dequeue(struct seqstream *s, struct v4l2_buffer *b);
void seq_requeue(struct seqstream *s, struct v4l2_buffer *b);

/* Microseconds of a buffer's timestamp. */
uint64_t seq_ts_us(const struct v4l2_buffer *b);

/*
 * The camera's picture for seq in fourcc (from a YUYV camera: YUYV, or
 * RGB24 by an independent libv4lconvert); NULL where the test has no
 * independent reference (RGB24 decoded from MJPG). *len its bytes.
 */
uint8_t *seq_expected(const struct seqstream *s, uint32_t seq, size_t *len);

#endif
