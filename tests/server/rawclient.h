/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A client of a camera's frame server that speaks the protocol by hand
 * (src/protocol/proto.h), for the tests that need a request to reach the
 * server as it is sent (flood.c, slow.c): a libv4l2 client reads the
 * server's events while it waits, and answers some requests itself.
 */
#ifndef V4L_TEST_RAWCLIENT_H
#define V4L_TEST_RAWCLIENT_H

/*
 * Connect to the server of the virtual camera `name` (it must run: in
 * the test's runtime directory, clientenv.h) and exchange the HELLO,
 * waiting 60 s at most (a hung server, not a rate). Returns the request
 * socket, *frames the client's end of its frame socket; or -1.
 */
int rawclient_open(const char *name, int *frames);

#endif
