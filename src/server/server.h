/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * v4l2-frameserver's parts (what the server does: server.c):
 *   server.c           options, the device, the listening socket, the
 *                      main loop;
 *   server_slots.c     the sealed memfd slots frames are copied into;
 *   server_capture.c   the device's stream and the capture thread, which
 *                      hands every frame to the streaming clients;
 *   server_decode.c    MJPEG decoded once for the clients that want YU12;
 *   server_clients.c   client connections and what each one holds;
 *   server_requests.c  a client's requests; server_calls.c the thread
 *                      that serves those that wait for the device;
 *   server_events.c    control changes announced to the other clients;
 *   server_replug.c    carrying the clients that ask across a replug of
 *                      the camera; server_ident.c which camera it is;
 *                      server_ctrls.c the controls set again after it.
 * Everything below is guarded by srv.lock, held by the main loop between
 * polls, by the capture thread outside DQBUF and by the call thread
 * outside the device's calls.
 */
#ifndef V4L2_FRAMESERVER_SERVER_H
#define V4L2_FRAMESERVER_SERVER_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/videodev2.h>

#include "protocol/proto.h"

struct v4lconvert_data;

#define MAX_CLIENTS 15 /* 15 * FS_MAX_INFLIGHT + 1 < FS_MAX_SLOTS */
#define DEV_BUFFERS 4
/* The formats of a device looked at (its list may never end). */
#define SRV_MAX_FORMATS 64
/* Controls whose change a client was not told yet (server_events.c). */
#define SRV_MAX_EVENTS 32

struct slot {
	int fd;
	uint8_t *map; /* server's read-write mapping (future mode) */
	size_t size;
	uint32_t gen;
	int refs;
};

struct client {
	int sock;  /* -1: free */
	pid_t pid; /* the peer's, at connection time */
	int data;  /* the client's frame socket (FS_HELLO), or -1 */
	int streaming;
	int dead;
	struct v4l2_pix_format want;
	int want_set;
	int decoded; /* wants srv.dec_fmt; want is the device's format */
	uint32_t known_gen[FS_MAX_SLOTS]; /* 0: slot fd not sent yet */
	uint8_t held[FS_MAX_SLOTS];
	int inflight;
	uint64_t sent, dropped;
	/* FS_CTRL_EVENTs waiting for room in sock, oldest first, one per
	 * control (server_events.c) */
	struct {
		uint32_t id;
		int32_t value;
	} events[SRV_MAX_EVENTS];
	unsigned nevents;
	uint32_t replug_ms; /* FS_REPLUG: wait for the camera; 0: not asked */
	int ended;          /* sent FS_END: its device is gone for it */
	/* A request waiting for the device (server_calls.c): the call
	 * thread answers it, and the next one is read after that. */
	int busy;
	union {
		struct fs_hdr h;
		struct fs_ioctl io;
		struct fs_setfmt fmt;
	} call;
};

/* A camera in words that survive a replug (server_ident.c). */
struct srv_ident {
	int valid, usb;
	char index[8];     /* the node's index in its device */
	char ids[16];      /* USB: "vvvv:pppp" */
	char port[32];     /* USB: the bus and port path, "1-1.2" */
	char iface[16];    /* USB: "config.interface", "1.0" */
	char serial[64];   /* USB: "" when the camera has none */
	char syspath[256]; /* not USB: the device's sysfs path */
};

struct server {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int dev;     /* libv4l2 fd */
	int gone;    /* ENODEV */
	int running; /* device streaming */
	int stop_req, parked, quit;
	struct v4l2_pix_format cur;
	void *bufmap[DEV_BUFFERS];
	size_t buflen[DEV_BUFFERS];
	unsigned nbufs;
	struct slot slots[FS_MAX_SLOTS];
	unsigned nslots;
	uint32_t next_gen;
	struct client clients[MAX_CLIENTS];
	int seal_write;     /* "write" mode */
	uint32_t share_fmt; /* the one native format offered to clients */
	uint32_t dec_fmt;   /* also offered, decoded from share_fmt (or 0) */
	struct v4lconvert_data *conv;
	uint64_t dequeued, decodes, decode_errors;
	int wake[2]; /* capture thread -> main: a client died */
	uint64_t frames, copy_ns;
	int verbose;
	int activated; /* the listening socket is systemd's (fd 3) */
	/* server_replug.c */
	const char *device; /* as the server was started on it */
	struct srv_ident ident;
	int replugging; /* the camera went away; clients wait for it */
	uint64_t replug_deadline_ns, replug_tried_ns, last_frame_ns;
	uint32_t last_seq, seq_offset, seq_resume;
	int reseq; /* the next frame is the first after a replug */
	int calls; /* busy clients (server_calls.c) */
};

extern struct server srv;

/* server.c */
uint64_t srv_now_ns(void);
/* With --verbose: "what arg" on stderr. */
void srv_log(const char *what, const char *arg);

/* The device opened as the server uses it (libv4l2, no conversion), or
 * -1 with errno (server.c; a stub in the in-process tests). */
int srv_open_device(const char *dev);

/* server_slots.c */
void srv_slot_free(struct slot *s);
/* A slot no client holds with room for size bytes, or NULL. */
struct slot *srv_slot_get(size_t size);
/* write mode: the frame is in s->map; drop the mapping and seal. */
int srv_slot_seal_write(struct slot *s);

/* server_clients.c */
void srv_accept_client(int listening);
void srv_client_release(struct client *c, uint32_t slot);
void srv_client_drop(struct client *c);
int srv_streaming_clients(void);
int srv_nclients(void);
/* Who is connected besides `asker` (FS_CLIENTS). */
void srv_list_clients(const struct client *asker, struct fs_clients *m);

/* server_capture.c */
/* (Re)start streaming in pix (format and size). */
int srv_device_start(const struct v4l2_pix_format *pix);
void srv_device_stop(void);
void *srv_capture_thread(void *arg);
/* FS_END(err) to the clients, but those waiting for a replug when
 * spare_replug, and their frame sockets closed (lock held). */
void srv_broadcast_end(int err, int spare_replug);

/* server_replug.c */
/* Whether a connected client asked to wait for the camera. */
int srv_replug_wanted(void);
/* The device is gone (capture thread, lock held): wait for it. */
void srv_replug_begin(void);
/* Main loop, lock held: look for the camera, resume, or give up. */
void srv_replug_tick(void);
/* The sequence number a client sees for the device's dev_seq. */
uint32_t srv_replug_sequence(uint32_t dev_seq);
/* The stream started (lock held): its frame rate is remembered. */
void srv_replug_started(void);
/* FS_REPLUG, and the requests of a client whose device is not there
 * (ended, or waited for): -1 the client is gone, 0 answered, 1 not
 * ours (srv_handle answers). */
int srv_replug_handle(struct client *c, void *msg, ssize_t n);

/* server_ctrls.c */
/* A client set control id; the camera kept value. */
void srv_ctrls_remember(uint32_t id, int32_t value);
/* Set the remembered controls on the reopened camera (srv.dev). */
void srv_ctrls_restore(void);

/* server_ident.c: name is a node's name, "video0". */
int srv_ident_of(const char *name, struct srv_ident *id);
int srv_ident_same(const struct srv_ident *a, const struct srv_ident *b);
/* The node ("/dev/videoN") of the camera id is, if it is there. */
int srv_ident_find(const struct srv_ident *id, char *node, size_t size);

/* server_decode.c */
/* The decoded format offered beside share_fmt, or 0. */
uint32_t srv_decoded_fmt_for(uint32_t share_fmt);
/* The layout of a frame decoded from a device frame laid out as dev. */
void srv_decoded_pix(const struct v4l2_pix_format *dev,
		     struct v4l2_pix_format *out);
int srv_decoding_clients(void);
/* Capture thread, lock held (dropped while decoding). */
struct slot *srv_decode(const uint8_t *src, size_t len, uint32_t *bytes);
void srv_decode_done(void);

/* server_events.c */
/* A control `from` set: told to every other client, as room allows. */
void srv_events_announce(const struct client *from, uint32_t id, int32_t value);
/* Send what waits for c while its socket has room (main loop). */
void srv_events_flush(struct client *c);

/* server_requests.c: one request from client c; -1 when it is gone. */
int srv_handle(struct client *c);
/* c->call, which waits for the device, answered (lock held; dropped
 * during the device's calls); -1 when the client is gone. */
int srv_serve_call(struct client *c);

/* server_calls.c */
/* The call thread (server.c starts it; the in-process tests do not, and
 * their calls are answered at once). */
int srv_calls_start(void);
void srv_calls_stop(void);
/* c->call to the call thread: c is busy until it is answered. -1 when
 * answered at once and the client is gone. */
int srv_call_queue(struct client *c);
/* Until every busy client's request is answered (lock held): before the
 * device is closed. */
void srv_calls_wait(void);
/* A device call of a request c->call holds, the lock dropped meanwhile. */
int srv_dev_ioctl(unsigned long req, void *arg);

#endif
