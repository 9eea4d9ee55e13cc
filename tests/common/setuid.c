/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A setuid copy of a test program and its child runs (setuid.h). */
#include "setuid.h"

#include <fcntl.h>
#include <pwd.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static int copy_file(const char *from, const char *to)
{
	char buf[65536];
	int in = open(from, O_RDONLY), out;
	ssize_t n;

	if (in < 0)
		return -1;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	if (out < 0) {
		close(in);
		return -1;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			break;
	close(in);
	close(out);
	return n == 0 ? 0 : -1;
}

int setuid_copy_self(const char *path)
{
	struct passwd *nobody = getpwnam("nobody");

	if (geteuid() != 0 || !nobody ||
	    copy_file("/proc/self/exe", path) != 0 ||
	    chown(path, nobody->pw_uid, nobody->pw_gid) != 0 ||
	    chmod(path, 04755) != 0)
		return -1;
	return 0;
}

int setuid_run_report(char *const argv[], void (*setup)(void *), void *arg,
		      int with_stderr, char *buf, size_t size)
{
	int p[2], status;
	ssize_t n, got = 0;
	pid_t pid;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid == 0) {
		dup2(p[1], 1);
		if (with_stderr)
			dup2(p[1], 2);
		close(p[0]);
		if (setup)
			setup(arg);
		execv(argv[0], argv);
		_exit(127);
	}
	close(p[1]);
	while (got < (ssize_t)size - 1 &&
	       (n = read(p[0], buf + got, size - 1 - (size_t)got)) > 0)
		got += n;
	buf[got] = '\0';
	close(p[0]);
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
