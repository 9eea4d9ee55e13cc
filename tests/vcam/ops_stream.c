/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * vcam-ops: buffers and streaming through mmap of the memfd (and user
 * pointers): the frames in order and equal to the renderer's, the error
 * codes at each step, flips, orphaned mappings, pacing and the scene.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/videodev2.h>

#include "ops.h"
#include "../common/check.h"

/* A buffer of index i, to queue or query (MMAP). */
static struct v4l2_buffer mmap_buf(unsigned i)
{
	struct v4l2_buffer b;

	memset(&b, 0, sizeof(b));
	b.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	b.memory = V4L2_MEMORY_MMAP;
	b.index = i;
	return b;
}

/* A camera streaming fe at w x h, and what the steps below share. */
struct stream {
	struct cam c;
	struct v4l2_format f;
	struct v4l2_requestbuffers rb;
	uint8_t *maps[4];
	int w, h; /* the size asked for */
};

/* Before REQBUFS: QUERYBUF, QBUF and STREAMON are EINVAL; DMABUF is
 * refused, 4 MMAP buffers granted. */
static void stream_request(struct stream *s)
{
	uint32_t type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	struct v4l2_buffer b = mmap_buf(0);

	CHECK(xio(&s->c, VIDIOC_QUERYBUF, &b) == EINVAL);
	CHECK(xio(&s->c, VIDIOC_QBUF, &b) == EINVAL);
	CHECK(xio(&s->c, VIDIOC_STREAMON, &type) == EINVAL);

	memset(&s->rb, 0, sizeof(s->rb));
	s->rb.type = type;
	s->rb.memory = V4L2_MEMORY_DMABUF;
	s->rb.count = 4;
	CHECK(xio(&s->c, VIDIOC_REQBUFS, &s->rb) == EINVAL);
	s->rb.memory = V4L2_MEMORY_MMAP;
	CHECK(xio(&s->c, VIDIOC_REQBUFS, &s->rb) == 0);
	CHECK(s->rb.count == 4);
	CHECK(s->rb.capabilities & V4L2_BUF_CAP_SUPPORTS_MMAP);
}

/* The 4 buffers: page-aligned offsets one stride apart in the memfd,
 * which holds exactly 4 strides; each mapped. */
static void stream_map(struct stream *s)
{
	long page = sysconf(_SC_PAGESIZE);
	uint32_t sizeimage = s->f.fmt.pix.sizeimage;
	size_t stride = 0;
	struct v4l2_buffer b;
	struct stat st;

	for (unsigned i = 0; i < 4; i++) {
		b = mmap_buf(i);
		CHECK(xio(&s->c, VIDIOC_QUERYBUF, &b) == 0);
		CHECK(b.length == sizeimage);
		CHECK(!(b.flags & (V4L2_BUF_FLAG_QUEUED | V4L2_BUF_FLAG_DONE)));
		if (i == 1)
			stride = b.m.offset;
		CHECK(b.m.offset % (uint32_t)page == 0);
		CHECK(b.m.offset == i * stride || i == 0);
		s->maps[i] = mmap(NULL, b.length, PROT_READ | PROT_WRITE,
				  MAP_SHARED, s->c.fd, b.m.offset);
		CHECK(s->maps[i] != MAP_FAILED);
		if (s->maps[i] == MAP_FAILED)
			s->maps[i] = NULL;
	}
	CHECK(stride >= sizeimage && stride - sizeimage < (size_t)page);
	CHECK(fstat(s->c.fd, &st) == 0 && (size_t)st.st_size == 4 * stride);
	b.index = 4;
	CHECK(xio(&s->c, VIDIOC_QUERYBUF, &b) == EINVAL);
}

/* Changing the format with buffers allocated: EBUSY; the same is fine. */
static void stream_format_busy(struct stream *s)
{
	int w = s->w;

	struct v4l2_format g = s->f;

	g.fmt.pix.width = w == 320 ? 640 : 320;
	g.fmt.pix.height = w == 320 ? 480 : 240;
	CHECK(xio(&s->c, VIDIOC_S_FMT, &g) == EBUSY);
	g = s->f;
	CHECK(xio(&s->c, VIDIOC_S_FMT, &g) == 0);
}

/* All 4 queued (twice or out of range: EINVAL), then STREAMON; REQBUFS
 * while streaming is EBUSY. */
static void stream_queue_and_start(struct stream *s)
{
	uint32_t type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	struct v4l2_buffer b;

	for (unsigned i = 0; i < 4; i++) {
		b = mmap_buf(i);
		CHECK(xio(&s->c, VIDIOC_QBUF, &b) == 0);
		CHECK(b.flags & V4L2_BUF_FLAG_QUEUED);
	}
	b.index = 2;
	CHECK(xio(&s->c, VIDIOC_QBUF, &b) == EINVAL); /* already queued */
	b.index = 9;
	CHECK(xio(&s->c, VIDIOC_QBUF, &b) == EINVAL);
	b.index = 0;
	CHECK(xio(&s->c, VIDIOC_QUERYBUF, &b) == 0 &&
	      (b.flags & V4L2_BUF_FLAG_QUEUED));
	CHECK(xio(&s->c, VIDIOC_DQBUF, &b) == EINVAL); /* not streaming */
	CHECK(xio(&s->c, VIDIOC_STREAMON, &type) == 0);
	s->rb.count = 2;
	CHECK(xio(&s->c, VIDIOC_REQBUFS, &s->rb) == EBUSY);
}

/* One dequeued frame: its flags, its timestamp after *last, its bytes
 * equal to the renderer's frame seq (ref: sizeimage bytes). */
static void stream_check_frame(struct stream *s, const struct v4l2_buffer *b,
			       uint32_t seq, struct timeval *last, uint8_t *ref,
			       uint32_t fourcc)
{
	uint32_t sizeimage = s->f.fmt.pix.sizeimage;
	int w = s->w, h = s->h;

	CHECK(b->index == seq % 4);
	CHECK(b->sequence == seq);
	CHECK(b->field == V4L2_FIELD_NONE);
	CHECK((b->flags & V4L2_BUF_FLAG_DONE) &&
	      !(b->flags & (V4L2_BUF_FLAG_QUEUED | V4L2_BUF_FLAG_ERROR)));
	CHECK((b->flags & V4L2_BUF_FLAG_TIMESTAMP_MASK) ==
	      V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC);
	CHECK(b->timestamp.tv_sec > last->tv_sec ||
	      (b->timestamp.tv_sec == last->tv_sec &&
	       b->timestamp.tv_usec >= last->tv_usec));
	*last = b->timestamp;
	CHECK(b->bytesused > 0 && b->bytesused <= sizeimage);
	if (!is_jpeg(fourcc))
		CHECK(b->bytesused == sizeimage);
	if (b->index < 4 && s->maps[b->index]) {
		int n = v4lc_vcam_render(fourcc, w, h, seq, ref, sizeimage);

		CHECK(n == (int)b->bytesused);
		CHECK(n > 0 && !memcmp(s->maps[b->index], ref, (size_t)n));
		if (is_jpeg(fourcc) && seq == 3)
			check_jpeg(s->maps[b->index], b->bytesused, w, h, seq);
	}
}

/* Ten frames, each checked and queued again. */
static void stream_frames(struct stream *s, uint32_t fourcc)
{
	struct timeval last = { 0, 0 };
	uint8_t *ref = malloc(s->f.fmt.pix.sizeimage);

	for (uint32_t seq = 0; seq < 10 && ref; seq++) {
		struct v4l2_buffer b = mmap_buf(0);

		CHECK(xio(&s->c, VIDIOC_DQBUF, &b) == 0);
		stream_check_frame(s, &b, seq, &last, ref, fourcc);
		CHECK(xio(&s->c, VIDIOC_QBUF, &b) == 0);
	}
	free(ref);
}

/* Nothing queued: EAGAIN non-blocking, EINVAL blocking. Then STREAMOFF,
 * requeue, STREAMON: the sequence restarts at 0. */
static void stream_drain_and_restart(struct stream *s)
{
	uint32_t type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	struct v4l2_buffer b;
	int fd = s->c.fd;

	for (int i = 0; i < 4; i++) {
		b = mmap_buf(0);
		CHECK(xio(&s->c, VIDIOC_DQBUF, &b) == 0);
	}
	CHECK(xio(&s->c, VIDIOC_DQBUF, &b) == EINVAL);
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	CHECK(xio(&s->c, VIDIOC_DQBUF, &b) == EAGAIN);
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);

	CHECK(xio(&s->c, VIDIOC_STREAMOFF, &type) == 0);
	b.index = 1;
	CHECK(xio(&s->c, VIDIOC_QBUF, &b) == 0);
	CHECK(xio(&s->c, VIDIOC_STREAMOFF, &type) == 0);
	b.index = 1;
	CHECK(xio(&s->c, VIDIOC_QUERYBUF, &b) == 0 &&
	      !(b.flags & V4L2_BUF_FLAG_QUEUED));
	CHECK(xio(&s->c, VIDIOC_QBUF, &b) == 0);
	CHECK(xio(&s->c, VIDIOC_STREAMON, &type) == 0);
	CHECK(xio(&s->c, VIDIOC_DQBUF, &b) == 0 && b.sequence == 0 &&
	      b.index == 1);
	CHECK(xio(&s->c, VIDIOC_STREAMOFF, &type) == 0);
}

void test_streaming(const struct fmt_expect *fe, int w, int h)
{
	struct stream s = { .w = w, .h = h };
	struct stat st;
	char spec[64];

	snprintf(spec, sizeof(spec), "%s:%dx%d:nopace", fe->name, w, h);
	if (open_cam(&s.c, spec)) {
		CHECK(!"open");
		return;
	}
	s.f.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	CHECK(xio(&s.c, VIDIOC_G_FMT, &s.f) == 0);
	CHECK(s.f.fmt.pix.width == (uint32_t)w &&
	      s.f.fmt.pix.height == (uint32_t)h);
	stream_request(&s);
	stream_map(&s);
	stream_format_busy(&s);
	stream_queue_and_start(&s);
	stream_frames(&s, fe->fourcc);
	stream_drain_and_restart(&s);
	for (int i = 0; i < 4; i++)
		if (s.maps[i])
			munmap(s.maps[i], s.f.fmt.pix.sizeimage);
	s.rb.count = 0;
	CHECK(xio(&s.c, VIDIOC_REQBUFS, &s.rb) == 0);
	CHECK(fstat(s.c.fd, &st) == 0 && st.st_size == 0);
	close_cam(&s.c);
}

void test_userptr(void)
{
	struct cam c;
	struct v4l2_requestbuffers rb;
	struct v4l2_buffer b;
	uint32_t type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	size_t size = 320 * 240 * 2;
	uint8_t *mem[2], *ref = malloc(size);

	mem[0] = malloc(size);
	mem[1] = malloc(size);
	if (!ref || !mem[0] || !mem[1] || open_cam(&c, "UYVY:320x240:nopace")) {
		CHECK(!"setup");
		goto out;
	}
	memset(&rb, 0, sizeof(rb));
	rb.type = type;
	rb.memory = V4L2_MEMORY_USERPTR;
	rb.count = 2;
	CHECK(xio(&c, VIDIOC_REQBUFS, &rb) == 0 && rb.count == 2);
	for (unsigned i = 0; i < 2; i++) {
		memset(&b, 0, sizeof(b));
		b.type = type;
		b.memory = V4L2_MEMORY_USERPTR;
		b.index = i;
		b.m.userptr = (unsigned long)mem[i];
		b.length = (uint32_t)size - 1;
		CHECK(xio(&c, VIDIOC_QBUF, &b) == EINVAL); /* too short */
		b.length = (uint32_t)size;
		/* as vb2: QBUF checks memory, QUERYBUF and DQBUF do not */
		b.memory = V4L2_MEMORY_MMAP;
		CHECK(xio(&c, VIDIOC_QBUF, &b) == EINVAL);
		b.memory = 0;
		CHECK(xio(&c, VIDIOC_QUERYBUF, &b) == 0);
		CHECK(b.memory == V4L2_MEMORY_USERPTR);
		b.m.userptr = (unsigned long)mem[i];
		b.length = (uint32_t)size;
		CHECK(xio(&c, VIDIOC_QBUF, &b) == 0);
	}
	CHECK(xio(&c, VIDIOC_STREAMON, &type) == 0);
	for (uint32_t seq = 0; seq < 4; seq++) {
		memset(&b, 0, sizeof(b));
		b.type = type;
		/* qvidcap dequeues with memory 0 */
		b.memory = seq == 1 ? 0 : V4L2_MEMORY_USERPTR;
		CHECK(xio(&c, VIDIOC_DQBUF, &b) == 0);
		CHECK(b.memory == V4L2_MEMORY_USERPTR);
		CHECK(b.sequence == seq && b.index == seq % 2);
		CHECK(b.m.userptr == (unsigned long)mem[seq % 2]);
		CHECK(v4lc_vcam_render(V4L2_PIX_FMT_UYVY, 320, 240, seq, ref,
				       size) == (int)size);
		CHECK(!memcmp(mem[seq % 2], ref, size));
		CHECK(xio(&c, VIDIOC_QBUF, &b) == 0);
	}
	CHECK(xio(&c, VIDIOC_STREAMOFF, &type) == 0);
	close_cam(&c);
out:
	free(ref);
	free(mem[0]);
	free(mem[1]);
}

/* flip=hv: input status flags and upside-down frames. */
void test_flip(void)
{
	struct cam c;
	struct v4l2_input in;
	struct v4l2_requestbuffers rb;
	struct v4l2_buffer b;
	uint32_t type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	size_t size = 320 * 240 * 3;
	uint8_t *ref = malloc(size), *map;

	if (!ref || open_cam(&c, "RGB3:320x240:flip=hv:nopace")) {
		CHECK(!"setup");
		free(ref);
		return;
	}
	memset(&in, 0, sizeof(in));
	CHECK(xio(&c, VIDIOC_ENUMINPUT, &in) == 0);
	CHECK(in.status == (V4L2_IN_ST_HFLIP | V4L2_IN_ST_VFLIP));
	memset(&rb, 0, sizeof(rb));
	rb.type = type;
	rb.memory = V4L2_MEMORY_MMAP;
	rb.count = 1;
	CHECK(xio(&c, VIDIOC_REQBUFS, &rb) == 0);
	memset(&b, 0, sizeof(b));
	b.type = type;
	b.memory = V4L2_MEMORY_MMAP;
	CHECK(xio(&c, VIDIOC_QUERYBUF, &b) == 0);
	map = mmap(NULL, b.length, PROT_READ, MAP_SHARED, c.fd, b.m.offset);
	CHECK(map != MAP_FAILED);
	CHECK(xio(&c, VIDIOC_QBUF, &b) == 0);
	CHECK(xio(&c, VIDIOC_STREAMON, &type) == 0);
	CHECK(xio(&c, VIDIOC_DQBUF, &b) == 0);
	CHECK(v4lc_vcam_render(V4L2_PIX_FMT_RGB24, 320, 240, 0, ref, size) ==
	      (int)size);
	if (map != MAP_FAILED) {
		/* Upright black bar (last) is now at the left, bottom-up:
		 * the first pixel equals the upright last pixel. */
		int bad = 0;

		for (size_t p = 0; p < 320 * 240; p++)
			bad |= memcmp(map + 3 * p,
				      ref + 3 * (320 * 240 - 1 - p), 3) != 0;
		CHECK(!bad);
		munmap(map, b.length);
	}
	close_cam(&c);

	if (open_cam(&c, "GREY:flip=v") == 0) {
		memset(&in, 0, sizeof(in));
		CHECK(xio(&c, VIDIOC_ENUMINPUT, &in) == 0);
		CHECK(in.status == V4L2_IN_ST_VFLIP);
		close_cam(&c);
	}
	free(ref);
}

/* REQBUFS while the application still maps buffers: no shrinking under it. */
void test_orphan(void)
{
	struct cam c;
	struct v4l2_requestbuffers rb;
	struct v4l2_buffer b;
	struct stat st;
	volatile uint8_t *map;
	size_t size;

	if (open_cam(&c, "YUYV:640x480:nopace")) {
		CHECK(!"open");
		return;
	}
	memset(&rb, 0, sizeof(rb));
	rb.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	rb.memory = V4L2_MEMORY_MMAP;
	rb.count = 3;
	CHECK(xio(&c, VIDIOC_REQBUFS, &rb) == 0);
	memset(&b, 0, sizeof(b));
	b.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	b.memory = V4L2_MEMORY_MMAP;
	b.index = 2;
	CHECK(xio(&c, VIDIOC_QUERYBUF, &b) == 0);
	map = mmap(NULL, b.length, PROT_READ | PROT_WRITE, MAP_SHARED, c.fd,
		   b.m.offset);
	CHECK(map != MAP_FAILED);
	if (map == MAP_FAILED) {
		close_cam(&c);
		return;
	}
	CHECK(fstat(c.fd, &st) == 0);
	size = (size_t)st.st_size;
	rb.count = 0;
	CHECK(xio(&c, VIDIOC_REQBUFS, &rb) == 0);
	CHECK(fstat(c.fd, &st) == 0 && (size_t)st.st_size == size);
	map[b.length - 1] = 1; /* would fault if the file had shrunk */
	rb.count = 1;
	CHECK(xio(&c, VIDIOC_REQBUFS, &rb) == 0 && rb.count == 1);
	CHECK(fstat(c.fd, &st) == 0 && (size_t)st.st_size == size);
	map[b.length - 1] = 2;
	munmap((void *)map, b.length);
	rb.count = 0;
	CHECK(xio(&c, VIDIOC_REQBUFS, &rb) == 0);
	CHECK(fstat(c.fd, &st) == 0 && st.st_size == 0);
	close_cam(&c);
}

/* Default pacing: frames one interval apart on a blocking fd. */
void test_pacing(void)
{
	struct cam c;
	struct v4l2_requestbuffers rb;
	struct v4l2_buffer b;
	uint32_t type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	struct timeval t0 = { 0, 0 };

	if (open_cam(&c, "GREY:320x240")) {
		CHECK(!"open");
		return;
	}
	memset(&rb, 0, sizeof(rb));
	rb.type = type;
	rb.memory = V4L2_MEMORY_MMAP;
	rb.count = 2;
	CHECK(xio(&c, VIDIOC_REQBUFS, &rb) == 0);
	for (unsigned i = 0; i < 2; i++) {
		memset(&b, 0, sizeof(b));
		b.type = type;
		b.memory = V4L2_MEMORY_MMAP;
		b.index = i;
		CHECK(xio(&c, VIDIOC_QBUF, &b) == 0);
	}
	CHECK(xio(&c, VIDIOC_STREAMON, &type) == 0);
	for (int i = 0; i < 4; i++) {
		CHECK(xio(&c, VIDIOC_DQBUF, &b) == 0);
		if (i == 0)
			t0 = b.timestamp;
		CHECK(xio(&c, VIDIOC_QBUF, &b) == 0);
	}
	{
		long long us = (b.timestamp.tv_sec - t0.tv_sec) * 1000000LL +
			       (b.timestamp.tv_usec - t0.tv_usec);

		/* Three intervals of 33.3 ms, with scheduler slack. */
		CHECK(us >= 95000);
	}
	close_cam(&c);
}

/* Frame number `frames` (1: the first) of spec, copied out; *len its
 * bytes. NULL on failure. */
static uint8_t *grab(const char *spec, int frames, size_t *len)
{
	struct cam c;
	struct v4l2_requestbuffers rb = { .count = 1 };
	struct v4l2_buffer b;
	uint32_t type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	uint8_t *map, *out = NULL;
	int ok;

	if (open_cam(&c, spec)) {
		CHECK(!"open", "%s", spec);
		return NULL;
	}
	rb.type = type;
	rb.memory = V4L2_MEMORY_MMAP;
	CHECK(xio(&c, VIDIOC_REQBUFS, &rb) == 0);
	memset(&b, 0, sizeof(b));
	b.type = type;
	b.memory = V4L2_MEMORY_MMAP;
	ok = xio(&c, VIDIOC_QUERYBUF, &b) == 0;
	map = mmap(NULL, b.length, PROT_READ, MAP_SHARED, c.fd, b.m.offset);
	ok = ok && map != MAP_FAILED && xio(&c, VIDIOC_QBUF, &b) == 0 &&
	     xio(&c, VIDIOC_STREAMON, &type) == 0;
	for (int i = 0; ok && i < frames; i++)
		ok = xio(&c, VIDIOC_DQBUF, &b) == 0 &&
		     (i + 1 == frames || xio(&c, VIDIOC_QBUF, &b) == 0);
	CHECK(ok, "%s: no frame %d", spec, frames);
	if (ok) {
		out = malloc(b.bytesused);
		memcpy(out, map, b.bytesused);
		*len = b.bytesused;
	}
	if (map != MAP_FAILED)
		munmap(map, b.length);
	close_cam(&c);
	return out;
}

/* "scene": a picture with a natural scene's detail, not the bars; it
 * moves, flips, and costs a JPEG coder what a natural scene does. */
void test_scene(void)
{
	const int w = 320, h = 240;
	size_t n, m, k, big_scene = 0, big_bars = 0;
	uint8_t *a = grab("RGB3:320x240:scene:nopace", 1, &n);
	uint8_t *fl = grab("RGB3:320x240:scene:flip=h:nopace", 1, &m);
	uint8_t *a2 = grab("RGB3:320x240:scene:nopace", 2, &k);
	uint8_t *bars = malloc(3 * (size_t)w * h), *j;
	long steps = 0;
	int bad = 0;

	CHECK(declines("libv4l-vcam:RGB3:scenery"));
	if (!a || !fl || !a2 || !bars) {
		CHECK(!"setup");
		goto out;
	}
	CHECK(n == 3 * (size_t)w * h && m == n && k == n);
	CHECK(v4lc_vcam_render(V4L2_PIX_FMT_RGB24, w, h, 0, bars, n) == (int)n);
	CHECK(memcmp(a, bars, n) != 0, "scene shows the bars");
	CHECK(memcmp(a, a2, n) != 0, "the scene does not move");
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			const uint8_t *p = a + 3 * ((size_t)y * w + x);

			bad |= memcmp(fl + 3 * ((size_t)y * w + (w - 1 - x)), p,
				      3) != 0;
			if (x + 1 < w)
				for (int ch = 0; ch < 3; ch++)
					steps += abs(p[3 + ch] - p[ch]);
		}
	CHECK(!bad, "flip=h is not the mirror image");
	/* Grain everywhere, but no bars' jumps: mean step 1..16. */
	steps /= 3L * (w - 1) * h;
	CHECK(steps >= 1 && steps <= 16, "mean step %ld", steps);
	j = grab("MJPG:1920x1080:scene:nopace", 1, &big_scene);
	free(j);
	j = grab("MJPG:1920x1080:nopace", 1, &big_bars);
	free(j);
	CHECK(big_scene > 3 * big_bars, "scene %zu bytes, bars %zu", big_scene,
	      big_bars);
out:
	free(a);
	free(fl);
	free(a2);
	free(bars);
}
