/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the frame server's client tests (stderr.c, plain.c, full.c,
 * hostile.c, mjpeg.c, lease.c, seq.c, flood.c, slow.c...) share: a runtime directory of their
 * own with sharing on, and opening the virtual camera through libv4l2
 * telling whether it was shared.
 */
#ifndef V4L_TEST_CLIENTENV_H
#define V4L_TEST_CLIENTENV_H

/*
 * mkdtemp(dir) as XDG_RUNTIME_DIR (the test's servers are its own),
 * LIBV4L2_FRAMESERVER=server, LIBV4L2_SHARE=1, the server's idle time
 * (LIBV4L2_FRAMESERVER_IDLE_MS) when idle_ms is not NULL, and no verbose
 * server. 0, or -1 when the directory cannot be made.
 */
int clientenv_setup(char *dir, const char *server, const char *idle_ms);

/* Whether fd is a socket (a shared camera's fd is the frame socket). */
int clientenv_is_socket(int fd);

/*
 * v4l2_fd_open() of a new memfd named `name` (a virtual camera): 1 shared
 * (the fd became a socket), 0 opened directly, -1 failed. *fdp is the fd
 * (left open in both first cases), or -1.
 */
int clientenv_open(const char *name, int *fdp);

/* The fd of `name` opened shared, or -1 (closed when it was direct). */
int clientenv_open_shared(const char *name);

/* `name` opened shared and streaming into 4 MMAP buffers, all queued (each
 * step a CHECK); its fd, or -1. */
int clientenv_open_streaming(const char *name);

#endif
