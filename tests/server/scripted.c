/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A scripted server against the share client (scripted.h). */
#include "scripted.h"

#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "protocol/scale.h"
#include "../common/check.h"

int scripted_frames, scripted_requests;

struct v4l2_pix_format scripted_layout(uint32_t fourcc, unsigned w, unsigned h)
{
	struct v4l2_pix_format p = { .width = w, .height = h };

	p.pixelformat = fourcc;
	p.field = V4L2_FIELD_NONE;
	if (fourcc == V4L2_PIX_FMT_MJPEG)
		p.sizeimage = w * h;
	fs_normalise_format(&p);
	return p;
}

int scripted_memfd(size_t size, uint8_t byte, int seals)
{
	int fd = memfd_create("test-slot", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	uint8_t *m;

	CHECK(fd >= 0 && ftruncate(fd, (off_t)size) == 0);
	m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	CHECK(m != MAP_FAILED);
	memset(m, byte, size);
	munmap(m, size);
	CHECK(!seals || fcntl(fd, F_ADD_SEALS, seals) == 0);
	return fd;
}

int scripted_slot_fd(size_t size, uint8_t byte)
{
	return scripted_memfd(size, byte,
			      F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE);
}

void scripted_send_frame(unsigned slot, uint32_t gen, uint32_t seq,
			 const struct v4l2_pix_format *pix, int fd,
			 uint64_t map_size)
{
	struct fs_frame f = { .h.type = FS_FRAME };

	f.slot = slot;
	f.gen = gen;
	f.sequence = seq;
	f.bytesused = pix->sizeimage;
	f.has_fd = fd >= 0;
	f.map_size = map_size;
	f.pix = *pix;
	CHECK(fs_send(scripted_frames, &f, sizeof(f), fd, 0) == 0);
	if (fd >= 0)
		close(fd);
}

int scripted_released(uint32_t *gen)
{
	struct fs_release r;
	int fd;
	ssize_t n =
		fs_recv(scripted_requests, &r, sizeof(r), &fd, MSG_DONTWAIT);

	if (fd >= 0)
		close(fd);
	if (n != (ssize_t)sizeof(r) || r.h.type != FS_RELEASE)
		return -1;
	*gen = r.gen;
	return (int)r.slot;
}

void scripted_setup(struct share *sh, const struct v4l2_pix_format *pix,
		    uint8_t *buf)
{
	int fv[2], rv[2];

	memset(sh, 0, sizeof(*sh));
	CHECK(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, fv) == 0);
	CHECK(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, rv) == 0);
	sh->fd = fv[0];
	sh->sock = rv[0];
	sh->mfd = -1;
	scripted_frames = fv[1];
	scripted_requests = rv[1];
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

int scripted_dqbuf(struct share *sh, struct v4l2_buffer *b,
		   const uint8_t **view)
{
	memset(b, 0, sizeof(*b));
	b->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	b->memory = V4L2_MEMORY_MMAP;
	CHECK(share_qbuf(sh, b) == 0);
	return share_dqbuf(sh, b, view);
}

void scripted_teardown(struct share *sh)
{
	for (unsigned i = 0; i < FS_MAX_SLOTS; i++)
		share_slot_unmap(sh, i);
	close(sh->fd);
	close(sh->sock);
	close(scripted_frames);
	close(scripted_requests);
	pthread_mutex_destroy(&sh->lock);
}
