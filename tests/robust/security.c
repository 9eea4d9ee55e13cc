/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Security properties of the libraries, each checked in a fresh process
 * (the libraries read their environment once):
 *   - LIBV4L2_LOG_FILENAME: the log is opened O_CLOEXEC, 0600, and never
 *     through a symbolic link (the link's target stays untouched);
 *   - a setuid program ignores every variable (secure_getenv): the log
 *     file, LIBV4LCONTROL_CONTROLS / LIBV4LCONTROL_FLAGS (emulated flip
 *     controls), LIBV4LCONTROL_SYSFS_PREFIX, LIBV4L2_SHARE with
 *     LIBV4L2_FRAMESERVER (a program to start as the frame server: here a
 *     script leaving a mark) and XDG_RUNTIME_DIR (where its socket
 *     directory is made), LIBV4LCONVERT_SIMD (an invalid value is
 *     reported when read); checked by running a setuid
 *     copy of this program (owner nobody) when we are root on a mount that
 *     honours setuid, against the same copy without the bit (the variables
 *     take effect there, so the check can fail). Skipped (77) otherwise.
 * Usage: robust-security            (the checks)
 *        robust-security child DIR  (one child run: reports on stdout)
 */
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/videodev2.h>

#include <libv4l2.h>
#include <libv4lconvert.h>

#include "../common/fakedev.h"
#include "../common/check.h"

/* In the child: touch libv4l2 and libv4lconvert, report what they did. */
static int child(const char *dir)
{
	static struct fakedev dev = {
		.driver = "secdev",
		.n_formats = 1,
		.formats = { { V4L2_PIX_FMT_YUYV, 1, { { 64, 48 } } } },
	};
	struct v4lconvert_data *c;
	struct v4l2_queryctrl q = { .id = V4L2_CID_HFLIP };
	int fd = memfd_create("libv4l-vcam:YUYV:nopace", MFD_CLOEXEC);
	struct v4l2_capability cap;

	(void)dir;
	/* the first libv4l2 call opens the log */
	if (fd >= 0 && v4l2_fd_open(fd, 0) == fd) {
		v4l2_ioctl(fd, VIDIOC_QUERYCAP, &cap);
		v4l2_close(fd);
	}
	printf("secure %lu\n", getauxval(AT_SECURE));
	printf("log %d\n", v4l2_log_file != NULL);
	if (v4l2_log_file) {
		int flags = fcntl(fileno(v4l2_log_file), F_GETFD);

		printf("cloexec %d\n", flags >= 0 && (flags & FD_CLOEXEC));
	}
	/* LIBV4LCONTROL_CONTROLS=2 makes a fake HFLIP on a plain camera */
	c = v4lconvert_create_with_dev_ops(-1, &dev, &fakedev_ops);
	printf("hflip %d\n", c && v4lconvert_vidioc_queryctrl(c, &q) == 0);
	if (c) {
		/* a conversion reads LIBV4LCONVERT_SIMD */
		static uint8_t src[64 * 48 * 2], dst[64 * 48 * 3];
		struct v4l2_format sf = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
		struct v4l2_format df;

		sf.fmt.pix = (struct v4l2_pix_format){
			.width = 64,
			.height = 48,
			.pixelformat = V4L2_PIX_FMT_YUYV,
			.bytesperline = 128,
			.sizeimage = sizeof(src),
		};
		df = sf;
		df.fmt.pix.pixelformat = V4L2_PIX_FMT_RGB24;
		df.fmt.pix.bytesperline = 192;
		df.fmt.pix.sizeimage = sizeof(dst);
		printf("converted %d\n",
		       v4lconvert_convert(c, &sf, &df, src, sizeof(src), dst,
					  sizeof(dst)) > 0);
		v4lconvert_destroy(c);
	}
	fflush(stdout);
	/* no exit handlers: LeakSanitizer cannot inspect a setuid process */
	_exit(0);
}

/* Run `exe child DIR` with the hostile environment; its report in buf. */
static int run_child_env(const char *exe, const char *dir, const char *log,
			 char *buf, size_t size, int share)
{
	int p[2], status;
	pid_t pid;
	ssize_t n, got = 0;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid == 0) {
		dup2(p[1], 1);
		dup2(p[1], 2);
		close(p[0]);
		setenv("LIBV4LCONVERT_SIMD", "bogus", 1);
		if (share) {
			char v[512];

			setenv("LIBV4L2_SHARE", "1", 1);
			snprintf(v, sizeof(v), "%s/evil-server", dir);
			setenv("LIBV4L2_FRAMESERVER", v, 1);
			snprintf(v, sizeof(v), "%s/xdg", dir);
			setenv("XDG_RUNTIME_DIR", v, 1);
		} else {
			unsetenv("LIBV4L2_SHARE");
		}
		setenv("LIBV4L2_LOG_FILENAME", log, 1);
		setenv("LIBV4LCONTROL_CONTROLS", "2", 1);
		setenv("LIBV4LCONTROL_FLAGS", "3", 1);
		/* LeakSanitizer cannot inspect a setuid process */
		setenv("ASAN_OPTIONS", "detect_leaks=0", 1);
		execl(exe, exe, "child", dir, (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	while (got < (ssize_t)size - 1 &&
	       (n = read(p[0], buf + got, size - 1 - (size_t)got)) > 0)
		got += n;
	buf[got] = '\0';
	close(p[0]);
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static int run_child(const char *exe, const char *dir, const char *log,
		     char *buf, size_t size)
{
	return run_child_env(exe, dir, log, buf, size, 0);
}

/* The frame server a variable names: a script that leaves a mark. */
static void plant_server(const char *dir)
{
	char path[512], script[1200];
	int fd;

	snprintf(path, sizeof(path), "%s/evil-server", dir);
	snprintf(script, sizeof(script), "#!/bin/sh\ntouch '%s/evil-ran'\n",
		 dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	CHECK(fd >= 0 &&
	      write(fd, script, strlen(script)) == (ssize_t)strlen(script));
	close(fd);
	chmod(path, 0755);
	snprintf(path, sizeof(path), "%s/xdg", dir);
	mkdir(path, 0777);
	chmod(path, 0777);
}

/* What the share variables did: 2 marks (server run, socket dir made). */
static int share_marks(const char *dir)
{
	char path[512];
	int n = 0;

	snprintf(path, sizeof(path), "%s/evil-ran", dir);
	n += access(path, F_OK) == 0;
	unlink(path);
	snprintf(path, sizeof(path), "%s/xdg/libv4l", dir);
	n += access(path, F_OK) == 0;
	rmdir(path);
	return n;
}

static int has(const char *report, const char *line)
{
	return strstr(report, line) != NULL;
}

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

int main(int argc, char **argv)
{
	char dir[] = "/tmp/libv4l-security-XXXXXX", path[512], link[512];
	char exe[512], target[512], report[1024];
	struct stat st;
	struct passwd *nobody;
	int skipped_setuid = 0;

	if (argc > 2 && !strcmp(argv[1], "child"))
		return child(argv[2]);
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	chmod(dir, 0755);

	/* 1. the log: created 0600, close-on-exec */
	snprintf(path, sizeof(path), "%s/log", dir);
	CHECK(run_child("/proc/self/exe", dir, path, report, sizeof(report)) ==
	      0);
	CHECK(has(report, "log 1") && has(report, "cloexec 1"));
	CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0600);
	CHECK(has(report, "hflip 1")); /* the variables work here */
	CHECK(has(report, "converted 1") &&
	      has(report, "ignoring LIBV4LCONVERT_SIMD=bogus"));

	/* 2. never through a symbolic link */
	snprintf(target, sizeof(target), "%s/target", dir);
	snprintf(link, sizeof(link), "%s/link", dir);
	CHECK(symlink(target, link) == 0);
	CHECK(run_child("/proc/self/exe", dir, link, report, sizeof(report)) ==
	      0);
	CHECK(has(report, "log 0"));
	errno = 0;
	CHECK(stat(target, &st) == -1 && errno == ENOENT);
	/* an existing target is not written either */
	{
		int t = open(target, O_WRONLY | O_CREAT, 0600);

		CHECK(t >= 0);
		close(t);
	}
	CHECK(run_child("/proc/self/exe", dir, link, report, sizeof(report)) ==
	      0);
	CHECK(stat(target, &st) == 0 && st.st_size == 0);

	/* 3. setuid: every variable ignored */
	nobody = getpwnam("nobody");
	snprintf(exe, sizeof(exe), "%s/robust-security", dir);
	snprintf(path, sizeof(path), "%s/setuid-log", dir);
	if (geteuid() != 0 || !nobody ||
	    copy_file("/proc/self/exe", exe) != 0 ||
	    chown(exe, nobody->pw_uid, nobody->pw_gid) != 0 ||
	    chmod(exe, 04755) != 0) {
		skipped_setuid = 1;
	} else {
		/* the directory must let nobody create the log, to be fair */
		chmod(dir, 0777);
		plant_server(dir);
		CHECK(run_child_env(exe, dir, path, report, sizeof(report),
				    1) == 0);
		if (!has(report, "secure 1")) {
			skipped_setuid = 1; /* nosuid mount */
		} else {
			CHECK(has(report, "log 0"));
			CHECK(has(report, "hflip 0"));
			CHECK(has(report, "converted 1") &&
			      !has(report, "LIBV4LCONVERT_SIMD"));
			CHECK(stat(path, &st) == -1);
			CHECK(share_marks(dir) == 0,
			      "setuid: a share variable was used");
		}
		/* control: the same copy without the bit honours them */
		CHECK(chmod(exe, 0755) == 0);
		CHECK(run_child(exe, dir, path, report, sizeof(report)) == 0);
		CHECK(has(report, "secure 0") && has(report, "log 1") &&
		      has(report, "hflip 1") &&
		      has(report, "ignoring LIBV4LCONVERT_SIMD"));
		unlink(path);
		/* the share variables too (the client gives up on the
		 * planted server after its 10 s) */
		CHECK(run_child_env(exe, dir, path, report, sizeof(report),
				    1) == 0);
		CHECK(share_marks(dir) == 2, "the share variables work here");
		unlink(path);
	}

	unlink(exe);
	snprintf(path, sizeof(path), "%s/evil-server", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/xdg", dir);
	rmdir(path);
	unlink(link);
	unlink(target);
	snprintf(path, sizeof(path), "%s/log", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/setuid-log", dir);
	unlink(path);
	rmdir(dir);
	if (failures) {
		printf("FAILED\n");
		return 1;
	}
	if (skipped_setuid) {
		printf("ok, setuid check skipped (not root, or nosuid)\n");
		return 77;
	}
	printf("ok\n");
	return 0;
}
