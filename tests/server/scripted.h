/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A scripted server against libv4l2's share client (src/v4l2/share): the
 * client's struct share set up on two socket pairs whose other ends the
 * test speaks through (client_slots.c, lying.c).
 */
#ifndef V4L_TEST_SCRIPTED_H
#define V4L_TEST_SCRIPTED_H

#include <stddef.h>
#include <stdint.h>

#include "v4l2/share/client.h"

/* The server's ends: frames, and requests (replies, events). */
extern int scripted_frames, scripted_requests;

/* The layout of a w x h frame in fourcc, as the server describes it. */
struct v4l2_pix_format scripted_layout(uint32_t fourcc, unsigned w, unsigned h);

/* A memfd of size bytes filled with byte, sealed as the server seals its
 * slots (shrink, grow, write): the fd. */
/* A memfd of size bytes filled with byte, sealed with seals (0: none). */
int scripted_memfd(size_t size, uint8_t byte, int seals);
/* The same sealed as the server seals a slot. */
int scripted_slot_fd(size_t size, uint8_t byte);

/* The server sends frame seq in slot/gen, laid out as pix, with fd (then
 * closed; -1: none), announcing a memfd of map_size bytes. */
void scripted_send_frame(unsigned slot, uint32_t gen, uint32_t seq,
			 const struct v4l2_pix_format *pix, int fd,
			 uint64_t map_size);

/* The next FS_RELEASE the server got: its slot and *gen, or -1 none. */
int scripted_released(uint32_t *gen);

/* A share of format pix, streaming, one MMAP buffer (buf, 16384 bytes). */
void scripted_setup(struct share *sh, const struct v4l2_pix_format *pix,
		    uint8_t *buf);
void scripted_teardown(struct share *sh);

/* QBUF then DQBUF of the one buffer: DQBUF's result; *view as
 * share_dqbuf's (view NULL: copied). */
int scripted_dqbuf(struct share *sh, struct v4l2_buffer *b,
		   const uint8_t **view);

#endif
