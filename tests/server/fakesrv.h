/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The frame server's request handling in process (tests/server/requests.c,
 * tests/fuzz/server.c): src/server's request, client, slot and capture
 * files linked with this file instead of server.c and libv4l2. The
 * "device" is a fake that answers every ioctl the server makes.
 */
#ifndef V4L_TEST_FAKESRV_H
#define V4L_TEST_FAKESRV_H

/* ENUM_FMT of the fake device: 1 never ends (a new format every call). */
extern int fakesrv_endless_enum;

/* A server with no client, not streaming, its device the fake. */
void fakesrv_reset(void);

/* Client slot 0 on one end of a SEQPACKET pair; returns the other end. */
int fakesrv_connect(void);

/* srv_handle() of client 0 with the server's lock held (as its main
 * loop does); -1 when the client is dropped (then dropped). */
int fakesrv_handle(void);

#endif
