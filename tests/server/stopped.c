/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A stopped server (issue 28, defect 4): the camera's frame server is
 * stopped (SIGSTOP, as a wedged one would be) and its listen backlog
 * filled, so that it accepts no connection. The next program opening the
 * camera must not hang in connect(): in the default join mode and with
 * LIBV4L2_SHARE=1 it uses the device directly once the deadline
 * (LIBV4L2_SHARE_TIMEOUT_MS, set low here) has passed, saying why; and
 * v4l2-doctor reports the server as not answering. Each runs in a child
 * given 15 s (a hang fails, not a slow machine).
 *
 *   server-stopped SERVER_BINARY DOCTOR_BINARY
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libv4l2.h>

#include "../common/check.h"
#include "clientenv.h"
#include "protocol/proto.h"

#define SPEC "YUYV:160x120"
#define NAME "libv4l-vcam:" SPEC
#define MAX_FILL 512

/* The server's socket path, and its pid (a HELLO's answer), or -1. */
static pid_t server_pid(char *path, size_t size)
{
	char key[80];
	struct fs_hello h = { .h.type = FS_HELLO, .version = FS_PROTO_VERSION };
	struct pollfd p;
	int s, fd;

	if (fs_device_key(NAME, key, sizeof(key)) < 0 ||
	    fs_socket_path(key, path, size) < 0)
		return -1;
	s = fs_connect(path, 10000);
	if (s < 0 || fs_send(s, &h, sizeof(h), -1, 0) < 0)
		return -1;
	p = (struct pollfd){ .fd = s, .events = POLLIN };
	if (poll(&p, 1, 10000) != 1 ||
	    fs_recv(s, &h, sizeof(h), &fd, 0) != (ssize_t)sizeof(h) ||
	    h.h.type != FS_HELLO || h.h.ret)
		h.pid = 0;
	close(s);
	return h.pid ? (pid_t)h.pid : -1;
}

/* Connections the stopped server never accepts, until its backlog is
 * full (a non-blocking connect then fails with EAGAIN): their count. */
static int fill_backlog(const char *path, int *socks)
{
	int n = 0;

	while (n < MAX_FILL) {
		int s = fs_connect(path, 0);

		if (s < 0)
			break;
		socks[n++] = s;
	}
	return n;
}

/* The stopped server, continued however the test ends (meson's SIGTERM
 * at its timeout included): it then exits once idle. */
static volatile pid_t stopped;

static void on_term(int sig)
{
	if (stopped > 0)
		kill(stopped, SIGCONT);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* What a child wrote on stdout (and whether it ended well) within 15 s
 * (three of them fit in meson's timeout); the child is killed past that. */
static int child_output(pid_t pid, int out, char *buf, size_t size)
{
	struct pollfd p = { .fd = out, .events = POLLIN };
	size_t len = 0;
	int status = -1;

	for (;;) {
		ssize_t n;

		if (poll(&p, 1, 15000) != 1) {
			kill(pid, SIGKILL);
			break;
		}
		n = read(out, buf + len, size - 1 - len);
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	close(out);
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* A program opening the camera with LIBV4L2_SHARE as share (NULL:
 * unset): it returns, opened directly, telling why on stderr. */
static void check_open(const char *share)
{
	char err[1024];
	int pipefd[2];
	pid_t pid;

	CHECK(pipe(pipefd) == 0);
	pid = fork();
	if (pid == 0) {
		int fd, r;

		dup2(pipefd[1], 2);
		close(pipefd[0]);
		close(pipefd[1]);
		if (share)
			setenv("LIBV4L2_SHARE", share, 1);
		else
			unsetenv("LIBV4L2_SHARE");
		r = clientenv_open(NAME, &fd);
		_exit(r == 0 ? 0 : 10 + r);
	}
	close(pipefd[1]);
	CHECK(child_output(pid, pipefd[0], err, sizeof(err)) == 0,
	      "LIBV4L2_SHARE=%s: the open did not return directly",
	      share ? share : "(unset)");
	CHECK(strstr(err, "accepts no connection") != NULL,
	      "LIBV4L2_SHARE=%s: not told why: \"%s\"",
	      share ? share : "(unset)", err);
}

/* v4l2-doctor on the camera: returns, and says the server is stopped. */
static void check_doctor(const char *doctor)
{
	char out[16384];
	int pipefd[2];
	pid_t pid;

	CHECK(pipe(pipefd) == 0);
	pid = fork();
	if (pid == 0) {
		dup2(pipefd[1], 1);
		close(pipefd[0]);
		close(pipefd[1]);
		execl(doctor, doctor, "--json", "--camera", SPEC, (char *)NULL);
		_exit(127);
	}
	close(pipefd[1]);
	CHECK(child_output(pid, pipefd[0], out, sizeof(out)) == 0,
	      "v4l2-doctor did not return");
	CHECK(strstr(out, "\"answering\":false") != NULL,
	      "v4l2-doctor does not say the server accepts nothing: %s", out);
}

int main(int argc, char **argv)
{
	char dir[] = "/tmp/server-stopped-XXXXXX", path[200];
	int socks[MAX_FILL], n, fd;
	pid_t srv;

	if (argc != 3)
		return 2;
	setvbuf(stdout, NULL, _IOLBF, 0);
	CHECK(clientenv_setup(dir, argv[1], "300") == 0);
	setenv("LIBV4L2_SHARE_TIMEOUT_MS", "500", 1);
	fd = clientenv_open_shared(NAME); /* keeps the server up */
	srv = server_pid(path, sizeof(path));
	CHECK(fd >= 0 && srv > 0, "a server for %s", NAME);
	if (failures)
		return 1;
	stopped = srv;
	signal(SIGTERM, on_term);
	signal(SIGINT, on_term);
	CHECK(kill(srv, SIGSTOP) == 0);
	n = fill_backlog(path, socks);
	CHECK(n > 0 && n < MAX_FILL, "%d connections filled the backlog", n);

	check_open(NULL);
	check_open("1");
	check_doctor(argv[2]);

	kill(srv, SIGCONT);
	stopped = 0;
	while (n > 0)
		close(socks[--n]);
	v4l2_close(fd);
	printf("server-stopped: %d checks, %d failures\n", (int)check_count,
	       failures);
	return failures != 0;
}
