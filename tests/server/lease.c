/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A frame libv4l2 converts from in the frame server's slot
 * (lv2_share_dqbuf, src/v4l2/backend.h) is the client's until it says it
 * is done (lv2_share_frame_done):
 *   - a decoded YU12 frame of an MJPEG camera, at the client's size, is
 *     given in the slot (no copy), and is what a lone client decoding the
 *     camera's JPEG itself gets, byte for byte;
 *   - while the client holds it, another client of the same server goes on
 *     streaming: more frames than the server has slots (a held slot would
 *     be the first reused if the server ignored the hold; a server waiting
 *     for the holder would hang this test), and the held frame's bytes have
 *     not changed meanwhile;
 *   - once done, the holder's next frame is a later one, in the slot too.
 * Both clients live in this process, on libv4l2's test build (for the
 * share backend's entry points).
 *
 *   server-lease SERVER_BINARY
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <libv4l2.h>
#include <libv4lconvert.h>

#include "protocol/proto.h"
#include "v4l2/priv.h"
#include "vcam/vcam.h"
#include "../common/check.h"
#include "clientenv.h"
#include "pixfmt.h"

#define W 352
#define H 288
#define OTHER_FRAMES (2 * FS_MAX_SLOTS)

static void pix(struct v4l2_format *f, uint32_t fourcc)
{
	test_pix_fmt(f, fourcc, W, H);
}

/* What a lone client decoding the camera's frame seq to YU12 gets. */
static uint8_t *lone_decode(uint32_t seq, int *n)
{
	struct v4lconvert_data *cv = v4lconvert_create(-1);
	struct v4l2_format mj, yu;
	size_t size = (size_t)W * H * 3;
	uint8_t *jpg = malloc(size), *out;
	int len = v4lc_vcam_render(V4L2_PIX_FMT_MJPEG, W, H, seq, jpg, size);

	CHECK(len > 0);
	pix(&mj, V4L2_PIX_FMT_MJPEG);
	mj.fmt.pix.sizeimage = (uint32_t)len;
	pix(&yu, V4L2_PIX_FMT_YUV420);
	out = malloc(yu.fmt.pix.sizeimage);
	*n = v4lconvert_convert(cv, &mj, &yu, jpg, len, out,
				(int)yu.fmt.pix.sizeimage);
	CHECK(*n == (int)yu.fmt.pix.sizeimage, "%s",
	      v4lconvert_get_error_message(cv));
	v4lconvert_destroy(cv);
	free(jpg);
	return out;
}

/* A shared camera streaming fourcc into 4 MMAP buffers (maps, lens). */
static int open_streaming(uint32_t fourcc, void **maps, size_t *lens)
{
	char name[64];
	struct v4l2_format f;
	struct v4l2_requestbuffers req = {
		.count = 4,
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_MMAP,
	};
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE, fd;

	snprintf(name, sizeof(name), "libv4l-vcam:MJPG:%dx%d", W, H);
	fd = memfd_create(name, MFD_CLOEXEC);
	CHECK(fd >= 0 && v4l2_fd_open(fd, 0) == fd);
	pix(&f, fourcc);
	CHECK(v4l2_ioctl(fd, VIDIOC_S_FMT, &f) == 0 &&
	      f.fmt.pix.pixelformat == fourcc);
	CHECK(v4l2_ioctl(fd, VIDIOC_REQBUFS, &req) == 0 && req.count == 4);
	for (unsigned i = 0; i < 4; i++) {
		struct v4l2_buffer b = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
					 .memory = V4L2_MEMORY_MMAP,
					 .index = i };

		CHECK(v4l2_ioctl(fd, VIDIOC_QUERYBUF, &b) == 0);
		lens[i] = b.length;
		maps[i] = v4l2_mmap(NULL, b.length, PROT_READ | PROT_WRITE,
				    MAP_SHARED, fd, b.m.offset);
		CHECK(maps[i] != MAP_FAILED);
		CHECK(v4l2_ioctl(fd, VIDIOC_QBUF, &b) == 0);
	}
	CHECK(v4l2_ioctl(fd, VIDIOC_STREAMON, &type) == 0);
	return fd;
}

/* The share backend's state of libv4l2's device fd. */
static void *share_of(int fd)
{
	struct lv2_dev *dev = lv2_dev_get(fd);
	void *priv;

	CHECK(dev && dev->ops == &lv2_share_ops, "fd %d is not shared", fd);
	if (!dev)
		return NULL;
	priv = dev->priv;
	lv2_dev_put(dev);
	return priv;
}

/* A frame left in its slot by the holder's backend; NULL if copied. */
static const uint8_t *take(void *sh, struct v4l2_buffer *b)
{
	const uint8_t *view = NULL;

	memset(b, 0, sizeof(*b));
	b->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	b->memory = V4L2_MEMORY_MMAP;
	CHECK(lv2_share_dqbuf(sh, b, &view) == 0, "%s", strerror(errno));
	CHECK(view != NULL, "frame %u was copied, not left in its slot",
	      b->sequence);
	CHECK(!(b->flags & V4L2_BUF_FLAG_ERROR) &&
	      b->bytesused == W * H * 3 / 2);
	return view;
}

static void check_lone(const uint8_t *data, uint32_t seq)
{
	int n;
	uint8_t *ref = lone_decode(seq, &n);

	CHECK(!memcmp(data, ref, (size_t)n),
	      "frame %u is not the lone client's decode", seq);
	free(ref);
}

int main(int argc, char **argv)
{
	char dir[] = "/tmp/server-lease-XXXXXX";
	void *maps_a[4], *maps_o[4], *sh;
	size_t lens_a[4], lens_o[4];
	struct v4l2_buffer b, bo;
	const uint8_t *view;
	uint8_t *held;
	uint32_t seq, last = 0;
	int a, o;

	if (argc < 2) {
		fprintf(stderr, "usage: server-lease SERVER\n");
		return 2;
	}
	CHECK(clientenv_setup(dir, argv[1], "300") == 0);
	a = open_streaming(V4L2_PIX_FMT_YUV420, maps_a, lens_a);
	o = open_streaming(V4L2_PIX_FMT_RGB24, maps_o, lens_o);
	sh = share_of(a);
	if (failures || !sh)
		return 1;

	view = take(sh, &b);
	if (!view)
		return 1;
	seq = b.sequence;
	held = malloc(b.bytesused);
	memcpy(held, view, b.bytesused);
	check_lone(held, seq);

	/* The other client streams on past every slot while a holds one. */
	for (int i = 0; i < OTHER_FRAMES && !failures; i++) {
		bo = (struct v4l2_buffer){ .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
					   .memory = V4L2_MEMORY_MMAP };
		CHECK(v4l2_ioctl(o, VIDIOC_DQBUF, &bo) == 0, "%s",
		      strerror(errno));
		CHECK(i == 0 || bo.sequence > last);
		last = bo.sequence;
		CHECK(v4l2_ioctl(o, VIDIOC_QBUF, &bo) == 0);
	}
	CHECK(last > seq + FS_MAX_SLOTS, "other client at %u, held %u", last,
	      seq);
	CHECK(!memcmp(view, held, b.bytesused),
	      "held frame %u rewritten while held", seq);
	lv2_share_frame_done(sh);
	CHECK(v4l2_ioctl(a, VIDIOC_QBUF, &b) == 0);

	view = take(sh, &b);
	CHECK(b.sequence > seq, "after %u came %u", seq, b.sequence);
	if (view)
		check_lone(view, b.sequence);
	lv2_share_frame_done(sh);
	printf("held frame %u checked after the other client took %d frames "
	       "(to %u); next frame %u\n",
	       seq, OTHER_FRAMES, last, b.sequence);
	free(held);
	for (int i = 0; i < 4; i++) {
		v4l2_munmap(maps_a[i], lens_a[i]);
		v4l2_munmap(maps_o[i], lens_o[i]);
	}
	v4l2_close(o);
	v4l2_close(a);
	rmdir(dir);
	return failures ? 1 : 0;
}
