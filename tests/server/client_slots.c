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
#include <stdio.h>
#include <string.h>

#include "scripted.h"
#include "../common/check.h"

#define W 64
#define H 32

static void send_frame(unsigned slot, uint32_t gen, uint32_t seq,
		       const struct v4l2_pix_format *pix, int fd)
{
	scripted_send_frame(slot, gen, seq, pix, fd, 16384);
}

static const uint8_t *dqbuf(struct share *sh, struct v4l2_buffer *b)
{
	const uint8_t *view = NULL;

	CHECK(scripted_dqbuf(sh, b, &view) == 0);
	return view;
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
	struct v4l2_pix_format yu = scripted_layout(V4L2_PIX_FMT_YUV420, W, H);
	struct share sh;
	struct v4l2_buffer b;
	const uint8_t *view;
	uint32_t gen;

	scripted_setup(&sh, &yu, buf);
	send_frame(0, 1, 7, &yu, scripted_slot_fd(16384, 0xaa));
	view = dqbuf(&sh, &b);
	CHECK(view != NULL, "a frame in our layout was copied");
	CHECK(b.sequence == 7 && b.bytesused == yu.sizeimage &&
	      !(b.flags & V4L2_BUF_FLAG_ERROR));
	CHECK(all(buf, sizeof(buf), 0), "the buffer was written");
	CHECK(scripted_released(&gen) < 0, "released while held");
	if (!view)
		return;
	CHECK(all(view, yu.sizeimage, 0xaa));

	/* The slot replaced while held: that frame refused, ours kept. */
	send_frame(0, 2, 8, &yu, scripted_slot_fd(16384, 0xbb));
	share_drain(&sh);
	CHECK(scripted_released(&gen) == 0 && gen == 2, "the refused frame");
	CHECK(!sh.have_pending);
	CHECK(all(view, yu.sizeimage, 0xaa), "the held frame changed");

	share_view_done(&sh);
	CHECK(scripted_released(&gen) == 0 && gen == 1,
	      "the held frame, once done");
	CHECK(scripted_released(&gen) < 0);
	share_view_done(&sh); /* twice: nothing more */
	CHECK(scripted_released(&gen) < 0);
	scripted_teardown(&sh);
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
	scripted_setup(&sh, ours, buf);
	send_frame(3, 5, 1, sent, scripted_slot_fd(16384, 0xcc));
	CHECK(dqbuf(&sh, &b) == NULL, "%s: given in its slot", what);
	CHECK(!(b.flags & V4L2_BUF_FLAG_ERROR) && b.bytesused > 0 &&
		      all(buf, b.bytesused, 0xcc),
	      "%s: not copied", what);
	CHECK(scripted_released(&gen) == 3 && gen == 5, "%s: not released",
	      what);
	share_view_done(&sh);
	CHECK(scripted_released(&gen) < 0, "%s: released twice", what);
	scripted_teardown(&sh);
}

int main(void)
{
	struct v4l2_pix_format yu = scripted_layout(V4L2_PIX_FMT_YUV420, W, H);
	struct v4l2_pix_format big =
		scripted_layout(V4L2_PIX_FMT_YUV420, 2 * W, H);
	struct v4l2_pix_format mj = scripted_layout(V4L2_PIX_FMT_MJPEG, W, H);

	test_held();
	test_copied(&yu, &big, "a larger frame");
	test_copied(&mj, &mj, "MJPEG");
	printf("%d checks\n", (int)check_count);
	return failures ? 1 : 0;
}
