/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Frame slots: each frame is copied into a memfd that clients map
 * read-only, sealed so that nobody but the server can write it (the
 * --seal modes, server.c). A slot is reused once no client holds it.
 */
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "server.h"

void srv_slot_free(struct slot *s)
{
	if (s->map)
		munmap(s->map, s->size);
	if (s->fd >= 0)
		close(s->fd);
	s->map = NULL;
	s->fd = -1;
	s->size = 0;
}

/* A fresh sealed-later memfd of size bytes, mapped read-write in s->map. */
static int slot_create(struct slot *s, size_t size)
{
	int fd = memfd_create("libv4l-frame", MFD_CLOEXEC | MFD_ALLOW_SEALING);

	if (fd < 0)
		return -1;
	if (ftruncate(fd, (off_t)size) < 0)
		goto fail;
	s->map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (s->map == MAP_FAILED) {
		s->map = NULL;
		goto fail;
	}
	s->fd = fd;
	s->size = size;
	s->gen = ++srv.next_gen;
	if (!srv.next_gen)
		s->gen = ++srv.next_gen;
	if (!srv.seal_write &&
	    fcntl(fd, F_ADD_SEALS,
		  F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_FUTURE_WRITE |
			  F_SEAL_SEAL) < 0) {
		srv_slot_free(s);
		return -1;
	}
	return 0;
fail:
	close(fd);
	return -1;
}

int srv_slot_seal_write(struct slot *s)
{
	munmap(s->map, s->size);
	s->map = NULL;
	return fcntl(s->fd, F_ADD_SEALS,
		     F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL);
}

struct slot *srv_slot_get(size_t size)
{
	struct slot *s = NULL;

	for (unsigned i = 0; i < srv.nslots; i++)
		if (!srv.slots[i].refs) {
			s = &srv.slots[i];
			break;
		}
	if (!s) {
		if (srv.nslots == FS_MAX_SLOTS)
			return NULL;
		s = &srv.slots[srv.nslots++];
		s->fd = -1;
	}
	if (srv.seal_write || s->fd < 0 || s->size < size) {
		srv_slot_free(s);
		if (slot_create(s, size) < 0)
			return NULL;
	}
	return s;
}
