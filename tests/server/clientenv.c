/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The frame server's client tests' setup (clientenv.h). */
#include "clientenv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <libv4l2.h>

int clientenv_setup(char *dir, const char *server, const char *idle_ms)
{
	if (!mkdtemp(dir))
		return -1;
	setenv("XDG_RUNTIME_DIR", dir, 1);
	setenv("LIBV4L2_FRAMESERVER", server, 1);
	setenv("LIBV4L2_SHARE", "1", 1);
	if (idle_ms)
		setenv("LIBV4L2_FRAMESERVER_IDLE_MS", idle_ms, 1);
	unsetenv("LIBV4L2_FRAMESERVER_VERBOSE");
	return 0;
}

int clientenv_is_socket(int fd)
{
	char path[64], link[128];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, link, sizeof(link) - 1);
	link[n > 0 ? n : 0] = '\0';
	return !strncmp(link, "socket:", 7);
}

int clientenv_open(const char *name, int *fdp)
{
	int fd = memfd_create(name, MFD_CLOEXEC);

	*fdp = -1;
	if (fd < 0)
		return -1;
	if (v4l2_fd_open(fd, 0) != fd) {
		close(fd);
		return -1;
	}
	*fdp = fd;
	return clientenv_is_socket(fd);
}

int clientenv_open_shared(const char *name)
{
	int fd, r = clientenv_open(name, &fd);

	if (r == 0)
		v4l2_close(fd);
	return r == 1 ? fd : -1;
}
