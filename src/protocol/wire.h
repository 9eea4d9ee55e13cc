/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Forwarded ioctls on the wire (FS_IOCTL, proto.h): a 32-bit client talks
 * to a 64-bit server, so neither the request number (it encodes the
 * argument's size, which differs between ABIs) nor the argument's bytes
 * travel as the client's ABI lays them out. The client names each request
 * by a wire code of its own (enum fs_wire_req) and packs the argument
 * into its canonical layout: the x86-64 one, spelt out in fixed-width
 * fields with 64-bit ones at 8-byte offsets and explicit padding; the
 * server unpacks it into its own ABI's struct, and back for the reply.
 *
 * Most arguments are laid out the same on every ABI (fixed-width fields
 * only): they travel as they are, and wire.c asserts their size and
 * offsets at compile time in every build (each cross build checks its
 * own ABI). Two differ:
 *   struct v4l2_format  the union at offset 8 (4 on i386 and armhf: the
 *                       overlay window's pointers set its alignment);
 *   struct v4l2_input   80 bytes (76 on i386: v4l2_std_id aligned to 4).
 * No pointer ever travels: a format of an overlay type (struct
 * v4l2_window: clip list and bitmap pointers) is refused with EINVAL,
 * and the extended controls (a pointer to their array) are not forwarded
 * at all: the client sends them one by one as G_CTRL / S_CTRL
 * (client.c), each by value. Nor are buffers (struct v4l2_buffer: a
 * pointer, a timeval): the client keeps its own (client_stream.c), and
 * frames come as FS_FRAME, fixed-width like every message of proto.h.
 */
#ifndef V4L2_FRAMESERVER_WIRE_H
#define V4L2_FRAMESERVER_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "api.h"

enum fs_wire_req {
	FS_REQ_QUERYCAP = 1,
	FS_REQ_ENUM_FMT,
	FS_REQ_ENUM_FRAMESIZES,
	FS_REQ_ENUM_FRAMEINTERVALS,
	FS_REQ_ENUMINPUT,
	FS_REQ_G_INPUT,
	FS_REQ_QUERYCTRL,
	FS_REQ_QUERY_EXT_CTRL,
	FS_REQ_QUERYMENU,
	FS_REQ_G_CTRL,
	FS_REQ_S_CTRL,
	FS_REQ_TRY_FMT,
	FS_REQ_G_FMT,
	FS_REQ_G_PARM,
	FS_REQ_S_PARM,
	FS_REQ_LIMIT /* not a request: one above the last */
};

/* struct v4l2_format on the wire (208 bytes). */
struct fs_wire_format {
	uint32_t type;
	uint32_t pad;
	uint8_t fmt[200]; /* the union's bytes: pix, pix_mp, vbi, ... */
};

/* struct v4l2_input on the wire (80 bytes). */
struct fs_wire_input {
	uint32_t index;
	uint8_t name[32];
	uint32_t type;
	uint32_t audioset;
	uint32_t tuner;
	uint64_t std; /* offset 48 */
	uint32_t status;
	uint32_t capabilities;
	uint32_t reserved[3];
	uint32_t pad;
};

/* The wire code of a native request, or 0 when it is not forwarded. */
FS_API uint32_t fs_wire_code(unsigned long req);
/* The native request of a wire code, or 0 when there is none. */
FS_API unsigned long fs_wire_native(uint32_t code);
/* The size of a wire code's argument on the wire (0: unknown code). */
FS_API size_t fs_wire_size(uint32_t code);
/*
 * Between the native argument of a known wire code and its wire form
 * (fs_wire_size bytes). 0, or -1 with errno EINVAL when the argument
 * cannot travel (an overlay format: pointers); nothing is written then.
 */
FS_API int fs_wire_pack(uint32_t code, const void *native, void *wire);
FS_API int fs_wire_unpack(uint32_t code, const void *wire, void *native);

#endif
