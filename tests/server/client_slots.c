/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The share client's frames in the server's slots (src/v4l2/share/client_io.c,
 * client_stream.c), against a scripted server on two socket pairs:
 *   - a frame in the client's format and layout is given in its slot (no
 *     copy) and stays held, unreleased, until share_view_done releases it;
 *   - a server that sends a new memfd for the slot held meanwhile (which
 *     the server's contract forbids) gets that frame released unread, and
 *     the held mapping stays as it was (unmapping it would pull the memory
 *     from under the conversion reading it);
 *   - frames that need copying (another size: resampled; a compressed
 *     format) are copied into the buffer and released at once.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "v4l2/share/client.h"
#include "protocol/scale.h"
#include "../common/check.h"

#define W 64
#define H 32

static int srv_frames, srv_requests; /* the server's ends */

static struct v4l2_pix_format layout(uint32_t fourcc, unsigned w, unsigned h)
{
	struct v4l2_pix_format p = { .width = w, .height = h };

	p.pixelformat = fourcc;
	p.field = V4L2_FIELD_NONE;
	if (fourcc == V4L2_PIX_FMT_MJPEG)
		p.sizeimage = w * h;
	fs_normalise_format(&p);
	return p;
}

/* A memfd slot of size bytes filled with byte. */
static int slot_fd(size_t size, uint8_t byte)
{
	int fd = memfd_create("test-slot", MFD_CLOEXEC);
	uint8_t *m;

	CHECK(fd >= 0 && ftruncate(fd, (off_t)size) == 0);
	m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	CHECK(m != MAP_FAILED);
	memset(m, byte, size);
	munmap(m, size);
	return fd;
}

/* The server sends frame seq in slot/gen, laid out as pix, with fd. */
static void send_frame(unsigned slot, uint32_t gen, uint32_t seq,
		       const struct v4l2_pix_format *pix, int fd)
{
	struct fs_frame f = { .h.type = FS_FRAME };

	f.slot = slot;
	f.gen = gen;
	f.sequence = seq;
	f.bytesused = pix->sizeimage;
	f.has_fd = fd >= 0;
	f.map_size = 16384;
	f.pix = *pix;
	CHECK(fs_send(srv_frames, &f, sizeof(f), fd, 0) == 0);
	if (fd >= 0)
		close(fd);
}

/* The next FS_RELEASE the server got: its slot and gen, or -1 none. */
static int released(uint32_t *gen)
{
	struct fs_release r;
	int fd;
	ssize_t n = fs_recv(srv_requests, &r, sizeof(r), &fd, MSG_DONTWAIT);

	if (n != (ssize_t)sizeof(r) || r.h.type != FS_RELEASE)
		return -1;
	*gen = r.gen;
	return (int)r.slot;
}

/* A share of format pix, streaming, one MMAP buffer queued. */
static void share_setup(struct share *sh, const struct v4l2_pix_format *pix,
			uint8_t *buf)
{
	int fv[2], rv[2];

	memset(sh, 0, sizeof(*sh));
	CHECK(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, fv) == 0);
	CHECK(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, rv) == 0);
	sh->fd = fv[0];
	sh->sock = rv[0];
	sh->mfd = -1;
	srv_frames = fv[1];
	srv_requests = rv[1];
	pthread_mutex_init(&sh->lock, NULL);
	sh->fmt = *pix;
	sh->fmt_valid = 1;
	sh->memory = V4L2_MEMORY_MMAP;
	sh->nbufs = 1;
	sh->stride = 16384;
	sh->map = buf;
	sh->info[0].type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	sh->info[0].memory = V4L2_MEMORY_MMAP;
	sh->info[0].length = pix->sizeimage;
	sh->streaming = 1;
}

static const uint8_t *dqbuf(struct share *sh, struct v4l2_buffer *b)
{
	const uint8_t *view = NULL;

	memset(b, 0, sizeof(*b));
	b->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	b->memory = V4L2_MEMORY_MMAP;
	CHECK(share_qbuf(sh, b) == 0);
	CHECK(share_dqbuf(sh, b, &view) == 0);
	return view;
}

static void share_teardown(struct share *sh)
{
	for (unsigned i = 0; i < FS_MAX_SLOTS; i++)
		share_slot_unmap(sh, i);
	close(sh->fd);
	close(sh->sock);
	close(srv_frames);
	close(srv_requests);
	pthread_mutex_destroy(&sh->lock);
}

static int all(const uint8_t *p, size_t n, uint8_t byte)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != byte)
			return 0;
	return 1;
}

static void test_held(void)
{
	static uint8_t buf[16384];
	struct v4l2_pix_format yu = layout(V4L2_PIX_FMT_YUV420, W, H);
	struct share sh;
	struct v4l2_buffer b;
	const uint8_t *view;
	uint32_t gen;

	share_setup(&sh, &yu, buf);
	send_frame(0, 1, 7, &yu, slot_fd(16384, 0xaa));
	view = dqbuf(&sh, &b);
	CHECK(view != NULL, "a frame in our layout was copied");
	CHECK(b.sequence == 7 && b.bytesused == yu.sizeimage &&
	      !(b.flags & V4L2_BUF_FLAG_ERROR));
	CHECK(all(buf, sizeof(buf), 0), "the buffer was written");
	CHECK(released(&gen) < 0, "released while held");
	if (!view)
		return;
	CHECK(all(view, yu.sizeimage, 0xaa));

	/* The slot replaced while held: that frame refused, ours kept. */
	send_frame(0, 2, 8, &yu, slot_fd(16384, 0xbb));
	share_drain(&sh);
	CHECK(released(&gen) == 0 && gen == 2, "the refused frame");
	CHECK(!sh.have_pending);
	CHECK(all(view, yu.sizeimage, 0xaa), "the held frame changed");

	share_view_done(&sh);
	CHECK(released(&gen) == 0 && gen == 1, "the held frame, once done");
	CHECK(released(&gen) < 0);
	share_view_done(&sh); /* twice: nothing more */
	CHECK(released(&gen) < 0);
	share_teardown(&sh);
}

/* A frame needing a copy: copied into the buffer, released at once. */
static void test_copied(const struct v4l2_pix_format *ours,
			const struct v4l2_pix_format *sent, const char *what)
{
	static uint8_t buf[16384];
	struct share sh;
	struct v4l2_buffer b;
	uint32_t gen;

	memset(buf, 0, sizeof(buf));
	share_setup(&sh, ours, buf);
	send_frame(3, 5, 1, sent, slot_fd(16384, 0xcc));
	CHECK(dqbuf(&sh, &b) == NULL, "%s: given in its slot", what);
	CHECK(!(b.flags & V4L2_BUF_FLAG_ERROR) && b.bytesused > 0 &&
		      all(buf, b.bytesused, 0xcc),
	      "%s: not copied", what);
	CHECK(released(&gen) == 3 && gen == 5, "%s: not released", what);
	share_view_done(&sh);
	CHECK(released(&gen) < 0, "%s: released twice", what);
	share_teardown(&sh);
}

int main(void)
{
	struct v4l2_pix_format yu = layout(V4L2_PIX_FMT_YUV420, W, H);
	struct v4l2_pix_format big = layout(V4L2_PIX_FMT_YUV420, 2 * W, H);
	struct v4l2_pix_format mj = layout(V4L2_PIX_FMT_MJPEG, W, H);

	test_held();
	test_copied(&yu, &big, "a larger frame");
	test_copied(&mj, &mj, "MJPEG");
	printf("%d checks\n", (int)check_count);
	return failures ? 1 : 0;
}
