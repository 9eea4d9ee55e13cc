/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Frame server wire protocol (v4l2-frameserver <-> libv4l2 share backend).
 *
 * One AF_UNIX SOCK_SEQPACKET connection per opened device (the request
 * socket) plus the client's frame socket, passed with FS_HELLO; every
 * message is one packet starting with struct fs_hdr. The client sends
 * requests and waits for the reply of the same type (one request in
 * flight); in between, the server may send FS_CTRL_EVENT and FS_END at any
 * time. FS_FRAME goes on the frame socket only (the application polls it),
 * which the server closes when the stream ends for good.
 *
 * Frames live in memfd buffers owned by the server (a pool of "slots").
 * The first FS_FRAME naming a slot (or after the slot was re-created:
 * new generation) carries the memfd with SCM_RIGHTS; the memfd is sealed
 * (see server.c) so the client can map it read-only only. The client sends
 * FS_RELEASE for every FS_FRAME once it has copied (or converted) the frame
 * out, and the server rewrites no slot a client has not released; the
 * server never sends a client more than FS_MAX_INFLIGHT unreleased frames
 * and drops frames for it instead (it never blocks on a client).
 */
#ifndef V4L2_FRAMESERVER_PROTO_H
#define V4L2_FRAMESERVER_PROTO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/videodev2.h>

#include "api.h"

#define FS_PROTO_VERSION 4 /* 3: FS_IOCTL in wire form (wire.h); 4: FS_REPLUG */
#define FS_MAX_SLOTS 32
#define FS_MAX_INFLIGHT 2
#define FS_IOCTL_MAX 256 /* largest argument forwarded, either form */

enum fs_type {
	FS_HELLO = 1,  /* c->s {version} + the client's frame socket
				 * (SCM_RIGHTS); s->c {version, pid} */
	FS_IOCTL,      /* c->s {req, size, arg} in wire form (wire.h);
			 * s->c {ret, err, arg} */
	FS_SETFMT,     /* c->s {pix}; s->c {ret, err, pix} */
	FS_STREAMON,   /* c->s; s->c {ret, err} */
	FS_STREAMOFF,  /* c->s; s->c {ret, err} */
	FS_RELEASE,    /* c->s {slot}; no reply */
	FS_FRAME,      /* s->c on the frame socket, maybe with the
				 * slot's memfd */
	FS_CTRL_EVENT, /* s->c {id, value}: a control was changed */
	FS_END,        /* s->c {err}: the stream ended (ENODEV...) */
	FS_CLIENTS,    /* c->s; s->c {the other clients}: who is connected
				 * (v4l2-doctor asks, without FS_HELLO) */
	FS_REPLUG,     /* c->s {wait_ms}; s->c {ret, err}: carry this client
			 * across a replug of the camera (server_replug.c) */
	FS_TYPE_LIMIT  /* not a type: one above the last */
};

struct fs_hdr {
	uint32_t type;
	int32_t ret; /* replies: 0 or -1 */
	int32_t err; /* replies: errno when ret is -1 */
	uint32_t pad;
};

struct fs_hello {
	struct fs_hdr h;
	uint32_t version;
	uint32_t pid;
};

struct fs_ioctl {
	struct fs_hdr h;
	uint32_t req;  /* enum fs_wire_req, never an ioctl number */
	uint32_t size; /* fs_wire_size(req) */
	uint8_t arg[FS_IOCTL_MAX];
};

struct fs_setfmt {
	struct fs_hdr h;
	struct v4l2_pix_format pix;
};

struct fs_release {
	struct fs_hdr h;
	uint32_t slot;
	uint32_t gen;
};

struct fs_frame {
	struct fs_hdr h;
	uint32_t slot;
	uint32_t gen; /* changes when the slot's memfd is replaced */
	uint32_t sequence;
	uint32_t bytesused;
	uint32_t flags; /* V4L2_BUF_FLAG_* of the device's buffer */
	uint32_t has_fd;
	uint64_t map_size; /* size of the memfd */
	int64_t ts_sec;
	int64_t ts_usec;
	uint64_t server_ns;         /* CLOCK_MONOTONIC when sent (latency) */
	struct v4l2_pix_format pix; /* layout of the frame */
};

struct fs_ctrl_event {
	struct fs_hdr h;
	uint32_t id;
	int32_t value;
};

#define FS_CLIENTS_MAX 16
struct fs_clients {
	struct fs_hdr h;
	uint32_t count;   /* clients connected, the asker excluded */
	uint32_t running; /* the device streams, in format cur */
	uint32_t pid[FS_CLIENTS_MAX]; /* theirs (SO_PEERCRED), first count */
	uint32_t streaming[FS_CLIENTS_MAX]; /* 1: that client streams */
	struct v4l2_pix_format cur;
};

/*
 * FS_REPLUG: when the device goes away, wait up to wait_ms for the same
 * camera to come back instead of ending this client's stream; meanwhile
 * no frame comes (DQBUF blocks, or EAGAIN), afterwards the frames go on
 * in the same format, their sequence numbers jumping over the gap. 0:
 * today's ENODEV (the default).
 */
struct fs_replug {
	struct fs_hdr h;
	uint32_t wait_ms;
	uint32_t pad;
};

/* A layout fixed on every ABI, checked where it is defined. */
#define FS_LAYOUT(type, size) _Static_assert(sizeof(type) == (size), #type)
#define FS_AT(type, field, off)                                                \
	_Static_assert(offsetof(type, field) == (off), #type "." #field)

/* Both sides: send one packet, optionally with one fd (-1: none). */
FS_API int fs_send(int sock, const void *msg, size_t len, int fd, int flags);
/*
 * Receive one packet into buf (up to size); *fd receives a passed fd or -1.
 * Returns the length, 0 on EOF, -1 with errno.
 */
FS_API ssize_t fs_recv(int sock, void *buf, size_t size, int *fd, int flags);

/* The socket directory: $XDG_RUNTIME_DIR/libv4l, created 0700 if missing,
 * refused unless it is a directory owned by us with mode 0700 exactly.
 * Writes it to buf; 0 or -errno. */
FS_API int fs_socket_dir(char *buf, size_t size, int create);

/*
 * Device key and socket path for a device reference: "/dev/videoN" style
 * paths (resolved) give "videoN"; a virtual camera memfd name
 * "libv4l-vcam:SPEC" gives "vcam-<sanitized SPEC>". 0 or -errno.
 */
FS_API int fs_device_key(const char *device, char *key, size_t size);
FS_API int fs_socket_path(const char *key, char *buf, size_t size);

/*
 * connect.c: a connection to the server listening at path, waiting at
 * most timeout_ms when it accepts nothing (stopped, its backlog full).
 * The socket (blocking, close-on-exec), or -1 with errno: ENOENT (no
 * server), ECONNREFUSED (a dead one's socket), ETIMEDOUT...
 */
FS_API int fs_connect(const char *path, int timeout_ms);

/* The peer check: 0 if the peer's uid is ours, else -EPERM (or -errno). */
FS_API int fs_check_peer(int sock);
/* The decision itself (unit-tested): allowed only when peer uid == our uid. */
FS_API int fs_peer_allowed(uid_t peer_uid, uid_t self_uid);

#endif
