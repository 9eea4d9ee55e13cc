/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A program that mixes plain ioctl() with v4l2_ioctl() on a shared camera:
 * the fd is the frame server's socket, so the plain call fails (ENOTTY)
 * and the program streams the format libv4l2 chose. That must be said:
 * libv4l2 writes a note naming the plain ioctls and LIBV4L2_SHARE to the
 * log file when one is asked for (LIBV4L2_LOG_FILENAME), to stderr with
 * LIBV4L2_FRAMESERVER_VERBOSE, and nothing at all otherwise (the library
 * prints only errors unless asked).
 *
 *   server-plain SERVER_BINARY
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libv4l2.h>
#include <linux/videodev2.h>

#include "../common/check.h"
#include "clientenv.h"

#define NAME "libv4l-vcam:YUYV:320x240"

/* The file's text (at most size - 1 bytes), "" when absent. */
static const char *slurp(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, size - 1, f) : 0;

	if (f)
		fclose(f);
	buf[n] = '\0';
	return buf;
}

/*
 * In a child with stderr to err_path: open the camera shared, try a plain
 * VIDIOC_G_FMT (it must fail with ENOTTY while v4l2_ioctl's succeeds).
 * Returns the fd number used, or -1.
 */
static int child_shares(const char *err_path)
{
	int status, fds[2], fdnum = -1;
	pid_t pid;

	if (pipe(fds))
		return -1;
	pid = fork();
	if (pid == 0) {
		struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
		int err = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		int fd = memfd_create(NAME, MFD_CLOEXEC), ok;

		dup2(err, 2);
		ok = fd >= 0 && v4l2_fd_open(fd, 0) == fd &&
		     clientenv_is_socket(fd) &&
		     ioctl(fd, VIDIOC_G_FMT, &f) < 0 && errno == ENOTTY &&
		     v4l2_ioctl(fd, VIDIOC_G_FMT, &f) == 0 &&
		     f.fmt.pix.pixelformat == V4L2_PIX_FMT_YUYV;
		if (write(fds[1], &fd, sizeof(fd)) != sizeof(fd))
			_exit(1);
		v4l2_close(fd);
		_exit(ok ? 0 : 1);
	}
	close(fds[1]);
	if (read(fds[0], &fdnum, sizeof(fdnum)) != sizeof(fdnum))
		fdnum = -1;
	close(fds[0]);
	waitpid(pid, &status, 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "shared; plain G_FMT: ENOTTY; v4l2_ioctl G_FMT: YUYV");
	return fdnum;
}

int main(int argc, char **argv)
{
	char dir[] = "/tmp/v4l-plain-XXXXXX", log[96], err[96], want[32];
	static char text[1 << 16];
	int fd;

	if (argc != 2)
		return 2;
	CHECK(clientenv_setup(dir, argv[1], "200") == 0, "runtime dir");
	unsetenv("LIBV4L2_LOG_FILENAME");
	snprintf(log, sizeof(log), "%s/log", dir);
	snprintf(err, sizeof(err), "%s/stderr", dir);

	/* Not asked: not a byte on stderr. */
	child_shares(err);
	CHECK(!*slurp(err, text, sizeof(text)), "quiet: stderr \"%s\"", text);

	/* The log file asked for: the note, naming the fd. */
	setenv("LIBV4L2_LOG_FILENAME", log, 1);
	fd = child_shares(err);
	slurp(log, text, sizeof(text));
	snprintf(want, sizeof(want), "libv4l2: fd %d (", fd);
	CHECK(strstr(text, want) && strstr(text, "LIBV4L2_SHARE=1") &&
		      strstr(text, "plain ioctl()") &&
		      strstr(text, "VIDIOC_S_FMT") && strstr(text, "ENOTTY"),
	      "log names the fd, the plain ioctls, LIBV4L2_SHARE: \"%s\"",
	      text);
	CHECK(!*slurp(err, text, sizeof(text)), "log only: stderr \"%s\"",
	      text);
	unsetenv("LIBV4L2_LOG_FILENAME");

	/* Verbose sharing: the note on stderr. */
	setenv("LIBV4L2_FRAMESERVER_VERBOSE", "1", 1);
	child_shares(err);
	slurp(err, text, sizeof(text));
	CHECK(strstr(text, "plain ioctl()") && strstr(text, "LIBV4L2_SHARE"),
	      "verbose: the note on stderr: \"%s\"", text);

	printf("server-plain: %d failures\n", failures);
	return failures != 0;
}
