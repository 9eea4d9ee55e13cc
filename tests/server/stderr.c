/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The server a client starts must not keep that program's stdout/stderr:
 * with `prog 2>&1 | cat`, the pipe has to reach EOF when prog ends, even
 * while other clients keep the server alive. A child with stdout and
 * stderr on a pipe opens the virtual camera shared (starting the server,
 * in a runtime directory of this test's own), this process joins the same
 * server and holds it, the child ends: the pipe must then read EOF.
 *
 *   server-stderr SERVER_BINARY
 */
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libv4l2.h>

#include "../common/check.h"
#include "clientenv.h"

#define NAME "libv4l-vcam:YUYV:320x240"

int main(int argc, char **argv)
{
	char dir[] = "/tmp/v4l-stderr-XXXXXX", c;
	int out[2], go[2], ready[2], holder, status = -1;
	struct pollfd p;
	pid_t pid;
	ssize_t n;

	if (argc != 2)
		return 2;
	CHECK(clientenv_setup(dir, argv[1], NULL) == 0, "runtime dir");
	CHECK(pipe(out) == 0 && pipe(go) == 0 && pipe(ready) == 0, "pipes");

	pid = fork();
	if (pid == 0) {
		int fd;

		dup2(out[1], 1);
		dup2(out[1], 2);
		close(out[0]);
		close(out[1]);
		fd = clientenv_open_shared(NAME);
		c = fd >= 0 ? 'r' : 'x';
		if (write(ready[1], &c, 1) != 1 || read(go[0], &c, 1) < 0)
			_exit(1);
		v4l2_close(fd);
		_exit(fd >= 0 ? 0 : 1);
	}
	close(out[1]);
	CHECK(read(ready[0], &c, 1) == 1 && c == 'r',
	      "the child shares the camera (started the server)");
	holder = clientenv_open_shared(NAME);
	CHECK(holder >= 0, "this process joins the server");
	CHECK(write(go[1], "g", 1) == 1, "go");
	waitpid(pid, &status, 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child ended");

	/* The server lives on (holder); the child's pipe must still end. */
	p.fd = out[0];
	p.events = POLLIN;
	n = -1;
	if (poll(&p, 1, 20000) == 1)
		while ((n = read(out[0], &c, 1)) > 0)
			;
	CHECK(n == 0, "the pipe reached EOF while the server lives on");
	if (holder >= 0)
		v4l2_close(holder);
	printf("server-stderr: %d failures\n", failures);
	return failures != 0;
}
