/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One user's programs fill every client slot of a device's frame server
 * (15 processes sharing the virtual camera). The next program must not be
 * locked out silently: its libv4l2 says on stderr that the server is full
 * (and uses the device directly), at once rather than after retrying for
 * seconds. A client killed meanwhile frees its slot: the program after it
 * shares again.
 *
 *   server-full SERVER_BINARY
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libv4l2.h>

#include "../common/check.h"
#include "clientenv.h"

#define NAME "libv4l-vcam:YUYV:160x120"
#define SLOTS 15

/* A client holding its slot until killed; writes 's' once shared. */
static pid_t holder(int ready)
{
	pid_t pid = fork();

	if (pid == 0) {
		int fd, r;

		prctl(PR_SET_PDEATHSIG, SIGKILL); /* never outlive the test */
		r = clientenv_open(NAME, &fd);
		char c = r == 1 ? 's' : 'd';

		if (write(ready, &c, 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	return pid;
}

/* Opens the camera with stderr captured; returns what clientenv_open says. */
static int open_captured(char *err, size_t size, int *fd)
{
	int p[2], saved = dup(2), r;
	ssize_t n;

	CHECK(pipe(p) == 0);
	fcntl(p[0], F_SETFL, O_NONBLOCK);
	dup2(p[1], 2);
	close(p[1]);
	r = clientenv_open(NAME, fd);
	dup2(saved, 2);
	close(saved);
	n = read(p[0], err, size - 1);
	err[n > 0 ? n : 0] = '\0';
	close(p[0]);
	return r;
}

int main(int argc, char **argv)
{
	char dir[] = "/tmp/v4l-full-XXXXXX", err[512], c;
	pid_t pids[SLOTS];
	int ready[2], fd, r, shared = 0;

	if (argc != 2)
		return 2;
	setvbuf(stdout, NULL, _IOLBF, 0);
	CHECK(clientenv_setup(dir, argv[1], "300") == 0);
	CHECK(pipe(ready) == 0);
	for (int i = 0; i < SLOTS; i++) {
		pids[i] = holder(ready[1]);
		CHECK(read(ready[0], &c, 1) == 1);
		shared += c == 's';
	}
	CHECK(shared == SLOTS, "%d of %d holders shared", shared, SLOTS);

	/* The 16th: told, and still served (directly). */
	alarm(8); /* the old behaviour retried for 10 s: fail instead */
	r = open_captured(err, sizeof(err), &fd);
	alarm(0);
	CHECK(r == 0, "the 16th program uses the device directly (%d)", r);
	CHECK(strstr(err, "maximum of clients") != NULL,
	      "the 16th program is told why: \"%s\"", err);
	if (fd >= 0)
		v4l2_close(fd);

	/* A holder dies: its slot is free for the next program. */
	kill(pids[0], SIGKILL);
	waitpid(pids[0], NULL, 0);
	r = open_captured(err, sizeof(err), &fd);
	CHECK(r == 1, "after a holder died, the next program shares (%d)", r);
	CHECK(err[0] == '\0', "nothing said: \"%s\"", err);
	if (fd >= 0)
		v4l2_close(fd);

	for (int i = 1; i < SLOTS; i++) {
		kill(pids[i], SIGKILL);
		waitpid(pids[i], NULL, 0);
	}
	printf("server-full: %d failures\n", failures);
	return failures != 0;
}
