/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Sequence numbers and timestamps of a shared camera (LIBV4L2_SHARE=1), as
 * programs that derive their clock from them (ffmpeg's dts) need them: on
 * every buffer dequeued through libv4l2 from the frame server, on the
 * virtual camera (YUYV, and MJPG which the server decodes),
 *   - the sequence is above the previous one since STREAMON,
 *   - the timestamp is not zero and above every earlier one on that fd,
 *     across STREAMOFF/STREAMON too (CLOCK_MONOTONIC),
 *   - no buffer index comes back without a QBUF between,
 *   - bytesused is the format's size, and (where this test computes the
 *     frame itself: from the YUYV camera, and MJPG as the camera sent it)
 *     the bytes are those of the frame the sequence names;
 * in the camera's format (libv4l2 passes the buffers through) and in RGB24
 * (libv4l2 converts, from the server's slot), blocking and non-blocking
 * (which asks DQBUF again before the next frame is there); one client, and
 * two at once of which one dequeues slowly (the server then replaces its
 * waiting frame by newer ones) and each stops and restarts while the other
 * streams. read() emulation: each frame is identified by its bytes and
 * must be a later one than the previous.
 *
 *   server-seq SERVER_BINARY
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libv4l2.h>

#include "../common/check.h"
#include "clientenv.h"
#include "pixfmt.h"
#include "seqstream.h"

#define FRAMES 24
#define READ_FRAMES 12
#define READ_WINDOW 200 /* sequences searched past the previous frame */

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* n frames, dequeued two at a time (DQBUF twice before a QBUF). */
static void take(struct seqstream *s, int n)
{
	for (int i = 0; i < n && seq_ok(s); i += 2) {
		struct v4l2_buffer a, b;

		if (!seq_dequeue(s, &a))
			return;
		if (!seq_dequeue(s, &b)) {
			seq_requeue(s, &a);
			return;
		}
		seq_requeue(s, &a);
		seq_requeue(s, &b);
	}
}

/*
 * STREAMOFF after frames had time to arrive unasked for: they wait in the
 * client's socket, and must not be what the next stream starts with.
 */
static void stop_late(struct seqstream *s)
{
	sleep_ms(150);
	seq_streamoff(s);
}

/* One client: frames, STREAMOFF, STREAMON, frames again. */
static void lone(uint32_t camera, uint32_t fourcc, int nonblock)
{
	char what[64];
	struct seqstream s = { .what = what,
			       .camera = camera,
			       .fourcc = fourcc,
			       .nonblock = nonblock };

	snprintf(what, sizeof(what), "%.4s camera, %.4s%s", (char *)&camera,
		 (char *)&fourcc, nonblock ? " non-blocking" : "");
	seq_open(&s);
	seq_streamon(&s);
	take(&s, FRAMES);
	stop_late(&s);
	seq_streamon(&s);
	take(&s, FRAMES);
	CHECK(s.frames >= 2 * FRAMES, "%s: %d frames", what, s.frames);
	printf("%s: %d frames checked\n", what, s.frames);
	seq_close(&s);
}

/* One frame from each, a dequeues as fast as it can, b slowly; a gap in
 * b's sequences shows frames were replaced while it slept. */
static int both(struct seqstream *a, struct seqstream *b, int n)
{
	int gaps = 0;

	for (int i = 0; i < n && seq_ok(a) && seq_ok(b); i++) {
		struct v4l2_buffer x, y;
		uint32_t before = b->last_seq;
		int had = b->since_on;

		if (!seq_dequeue(a, &x) || !seq_dequeue(b, &y))
			return gaps;
		gaps += had && y.sequence > before + 1;
		seq_requeue(a, &x);
		seq_requeue(b, &y);
		if (i % 4 == 3)
			sleep_ms(150);
	}
	return gaps;
}

/* Two clients at once, each restarting while the other streams. */
static void pair(uint32_t camera)
{
	char wa[64], wb[64];
	struct seqstream a = { .what = wa, .camera = camera, .fourcc = camera };
	struct seqstream b = { .what = wb,
			       .camera = camera,
			       .fourcc = V4L2_PIX_FMT_RGB24,
			       .nonblock = 1 };
	int gaps;

	snprintf(wa, sizeof(wa), "%.4s camera, %.4s beside RGB3",
		 (char *)&camera, (char *)&camera);
	snprintf(wb, sizeof(wb), "%.4s camera, RGB3 non-blocking beside %.4s",
		 (char *)&camera, (char *)&camera);
	seq_open(&a);
	seq_open(&b);
	seq_streamon(&a);
	seq_streamon(&b);
	gaps = both(&a, &b, FRAMES);
	stop_late(&a);
	take(&b, 4);
	seq_streamon(&a);
	gaps += both(&a, &b, FRAMES);
	stop_late(&b);
	take(&a, 4);
	seq_streamon(&b);
	gaps += both(&a, &b, FRAMES);
	CHECK(a.frames >= 3 * FRAMES + 4 && b.frames >= 3 * FRAMES + 4);
	printf("%s: %d frames, %s: %d frames (%d gaps) checked\n", wa, a.frames,
	       wb, b.frames, gaps);
	seq_close(&a);
	seq_close(&b);
}

/* The first sequence in (after, after + READ_WINDOW] whose frame data is. */
static long identify(const struct seqstream *s, const uint8_t *data, size_t n,
		     long after)
{
	for (long q = after + 1; q <= after + READ_WINDOW; q++) {
		size_t len;
		uint8_t *want = seq_expected(s, (uint32_t)q, &len);
		int same = want && len == n && !memcmp(want, data, n);

		free(want);
		if (same)
			return q;
	}
	return -1;
}

/* read() emulation from the YUYV camera: frames later and later. */
static void reads(uint32_t fourcc)
{
	char what[64];
	struct seqstream s = { .what = what,
			       .camera = V4L2_PIX_FMT_YUYV,
			       .fourcc = fourcc };
	struct v4l2_format f;
	long last = -1;
	uint8_t *buf;
	int base = failures;

	snprintf(what, sizeof(what), "YUYV camera, %.4s by read()",
		 (char *)&fourcc);
	s.fd = clientenv_open_shared("libv4l-vcam:YUYV:320x240");
	CHECK(s.fd >= 0, "%s: not shared", what);
	if (s.fd < 0)
		return;
	test_pix_fmt(&f, fourcc, SEQ_W, SEQ_H);
	CHECK(v4l2_ioctl(s.fd, VIDIOC_S_FMT, &f) == 0);
	buf = malloc(f.fmt.pix.sizeimage);
	for (int i = 0; i < READ_FRAMES && failures == base; i++) {
		ssize_t n = v4l2_read(s.fd, buf, f.fmt.pix.sizeimage);
		long q;

		CHECK(n == (ssize_t)f.fmt.pix.sizeimage, "%s: read %zd", what,
		      n);
		if (n <= 0)
			break;
		q = identify(&s, buf, (size_t)n, last);
		CHECK(q >= 0, "%s: frame %d is none of sequences %ld..%ld",
		      what, i, last + 1, last + READ_WINDOW);
		last = q;
	}
	printf("%s: %d frames, the last sequence %ld\n", what, READ_FRAMES,
	       last);
	free(buf);
	v4l2_close(s.fd);
}

int main(int argc, char **argv)
{
	static const uint32_t cameras[] = { V4L2_PIX_FMT_YUYV,
					    V4L2_PIX_FMT_MJPEG };
	char dir[] = "/tmp/server-seq-XXXXXX";

	if (argc < 2) {
		fprintf(stderr, "usage: server-seq SERVER\n");
		return 2;
	}
	CHECK(clientenv_setup(dir, argv[1], "300") == 0);
	for (unsigned i = 0; i < 2; i++) {
		lone(cameras[i], cameras[i], 0);
		lone(cameras[i], V4L2_PIX_FMT_RGB24, 0);
		lone(cameras[i], V4L2_PIX_FMT_RGB24, 1);
		pair(cameras[i]);
	}
	reads(V4L2_PIX_FMT_YUYV);
	reads(V4L2_PIX_FMT_RGB24);
	rmdir(dir);
	return failures ? 1 : 0;
}
