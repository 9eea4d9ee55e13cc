/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Security properties of the libraries, each checked in a fresh process
 * (the libraries read their environment once):
 *   - LIBV4L2_LOG_FILENAME: the log is opened O_CLOEXEC, 0600, and never
 *     through a symbolic link (the link's target stays untouched);
 *   - a setuid program ignores every variable (secure_getenv): the log
 *     file, LIBV4LCONTROL_CONTROLS / LIBV4LCONTROL_FLAGS (emulated flip
 *     controls), LIBV4LCONTROL_SYSFS_PREFIX (a fake sysfs saying the
 *     camera is on a 12 Mb/s bus: MJPEG chosen over YUYV), LIBV4L2_SHARE with
 *     LIBV4L2_FRAMESERVER (a program to start as the frame server: here a
 *     script leaving a mark) and XDG_RUNTIME_DIR (where its socket
 *     directory is made), LIBV4LCONVERT_SIMD (an invalid value is
 *     reported when read), LIBV4LCONVERT_THREADS (1: the MJPEG decoder
 *     keeps no worker thread, counted by name in /proc/self/task after a
 *     640x480 frame; on one CPU there is never one, and that check is
 *     skipped) and LIBV4L2_AUTOFOCUS (see autofocus_mark); checked by
 *     running a setuid copy of this program (owner nobody) when we are
 *     root on a mount that honours setuid, against the same copy without
 *     the bit (the variables take effect there, so the check can fail).
 *     Skipped (77) otherwise.
 * Usage: robust-security            (the checks)
 *        robust-security child DIR  (one child run: reports on stdout)
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/videodev2.h>

#include <libv4l2.h>
#include <libv4lconvert.h>

#include "v4l2/testhook.h"

#include "../common/fakedev.h"
#include "../common/check.h"
#include "../common/setuid.h"
#include "../jpeg/jpegtest.h"

/* The MJPEG decoder's worker (src/jpeg/mjpeg_split.c) by its name, and
 * the smallest frame it is made for (V4LC_SPLIT_MIN_PIXELS there). */
#define WORKER_NAME "v4lc-mjpeg"
#define SPLIT_W 640
#define SPLIT_H 480

/* How many threads of this process are named WORKER_NAME. */
static int count_workers(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d))) {
		char path[300], comm[32] = "";
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm",
			 e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f))
			n += !strcmp(comm, WORKER_NAME "\n");
		fclose(f);
	}
	if (d)
		closedir(d);
	return n;
}

/*
 * The source format try_format picks for RGB24 640x480 from YUYV or MJPEG
 * on /dev/null (any character device: the library looks its bus up in
 * sysfs). MJPEG only when the fake sysfs says 12 Mb/s.
 */
static void report_sysfs(void)
{
	static struct fakedev cam = {
		.driver = "seccam",
		.n_formats = 2,
		.formats = { { V4L2_PIX_FMT_YUYV, 1, { { 640, 480 } } },
			     { V4L2_PIX_FMT_MJPEG, 1, { { 640, 480 } } } },
	};
	struct v4l2_format dst = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE }, src;
	int fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	struct v4lconvert_data *c =
		fd < 0 ? NULL
		       : v4lconvert_create_with_dev_ops(fd, &cam, &fakedev_ops);

	dst.fmt.pix.pixelformat = V4L2_PIX_FMT_RGB24;
	dst.fmt.pix.width = 640;
	dst.fmt.pix.height = 480;
	printf("sysfs-mjpeg %d\n",
	       c && v4lconvert_try_format(c, &dst, &src) == 0 &&
		       src.fmt.pix.pixelformat == V4L2_PIX_FMT_MJPEG);
	if (c)
		v4lconvert_destroy(c);
	if (fd >= 0)
		close(fd);
}

/* A large MJPEG frame converted (LIBV4LCONVERT_THREADS is read then). */
static void report_mjpeg(struct v4lconvert_data *c)
{
	struct v4l2_format sf = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_format df;
	uint8_t *rgb = jt_make_image(SPLIT_W, SPLIT_H, 1), *dst;
	size_t n, dst_size = SPLIT_W * SPLIT_H * 3 / 2;
	uint8_t *jpg =
		jt_compress(rgb, SPLIT_W, SPLIT_H, TJSAMP_422, 85, 0, &n);

	sf.fmt.pix = (struct v4l2_pix_format){
		.width = SPLIT_W,
		.height = SPLIT_H,
		.pixelformat = V4L2_PIX_FMT_MJPEG,
		.sizeimage = (uint32_t)n,
	};
	df = sf;
	df.fmt.pix.pixelformat = V4L2_PIX_FMT_YUV420;
	df.fmt.pix.bytesperline = SPLIT_W;
	df.fmt.pix.sizeimage = (uint32_t)dst_size;
	dst = jt_xmalloc(dst_size);
	printf("mjpeg %d\n",
	       v4lconvert_convert(c, &sf, &df, jpg, (int)n, dst,
				  (int)dst_size) == (int)dst_size);
	printf("mjpeg-threads %d\n", count_workers());
	free(dst);
	free(jpg);
	free(rgb);
}

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
	/* The virtual camera from the directory compiled in, as a setuid
	 * program loads plugins: a capture node, which the share variables
	 * would share (only such a node is). */
	lv2_test_set_plugin_dir(VCAM_PLUGIN_DIR);
	memset(&cap, 0, sizeof(cap));
	/* the first libv4l2 call opens the log */
	if (fd >= 0 && v4l2_fd_open(fd, 0) == fd) {
		struct v4l2_control af = { V4L2_CID_FOCUS_AUTO, 1 };

		v4l2_ioctl(fd, VIDIOC_QUERYCAP, &cap);
		/* would run the LIBV4L2_AUTOFOCUS daemon where offered */
		v4l2_ioctl(fd, VIDIOC_S_CTRL, &af);
		v4l2_close(fd);
	}
	printf("capture %d\n", (cap.device_caps & V4L2_CAP_VIDEO_CAPTURE) != 0);
	printf("secure %lu\n", getauxval(AT_SECURE));
	printf("log %d\n", v4l2_log_file != NULL);
	if (v4l2_log_file) {
		int flags = fcntl(fileno(v4l2_log_file), F_GETFD);

		printf("cloexec %d\n", flags >= 0 && (flags & FD_CLOEXEC));
	}
	/* LIBV4LCONTROL_CONTROLS=2 makes a fake HFLIP on a plain camera */
	c = v4lconvert_create_with_dev_ops(-1, &dev, &fakedev_ops);
	printf("hflip %d\n", c && v4lconvert_vidioc_queryctrl(c, &q) == 0);
	report_sysfs();
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
		report_mjpeg(c);
		v4lconvert_destroy(c);
	}
	fflush(stdout);
	/* no exit handlers: LeakSanitizer cannot inspect a setuid process */
	_exit(0);
}

/* The hostile environment of one child run. */
struct child_env {
	const char *dir, *log;
	int share;           /* the share variables too */
	const char *threads; /* LIBV4LCONVERT_THREADS, NULL: unset */
};

static void set_child_env(void *arg)
{
	const struct child_env *ce = arg;
	char v[512];

	setenv("LIBV4LCONVERT_SIMD", "bogus", 1);
	if (ce->threads)
		setenv("LIBV4LCONVERT_THREADS", ce->threads, 1);
	else
		unsetenv("LIBV4LCONVERT_THREADS");
	if (ce->share) {
		setenv("LIBV4L2_SHARE", "1", 1);
		snprintf(v, sizeof(v), "%s/evil-server", ce->dir);
		setenv("LIBV4L2_FRAMESERVER", v, 1);
		snprintf(v, sizeof(v), "%s/xdg", ce->dir);
		setenv("XDG_RUNTIME_DIR", v, 1);
		snprintf(v, sizeof(v), "%s/evil-af", ce->dir);
		setenv("LIBV4L2_AUTOFOCUS", v, 1);
	} else {
		unsetenv("LIBV4L2_SHARE");
	}
	setenv("LIBV4L2_LOG_FILENAME", ce->log, 1);
	setenv("LIBV4LCONTROL_CONTROLS", "2", 1);
	setenv("LIBV4LCONTROL_FLAGS", "3", 1);
	snprintf(v, sizeof(v), "%s/sysfs", ce->dir);
	setenv("LIBV4LCONTROL_SYSFS_PREFIX", v, 1);
	/* LeakSanitizer cannot inspect a setuid process */
	setenv("ASAN_OPTIONS", "detect_leaks=0", 1);
}

/* Run `exe child DIR` with the hostile environment; its report in buf. */
static int run_child_env(const char *exe, const char *dir, const char *log,
			 char *buf, size_t size, int share, const char *threads)
{
	struct child_env ce = { dir, log, share, threads };
	char *argv[] = { (char *)exe, "child", (char *)dir, NULL };

	return setuid_run_report(argv, set_child_env, &ce, 1, buf, size);
}

static int run_child(const char *exe, const char *dir, const char *log,
		     char *buf, size_t size, const char *threads)
{
	return run_child_env(exe, dir, log, buf, size, 0, threads);
}

/* A program at path that touches path-ran when run. */
static void plant_script(const char *path)
{
	char script[1200];
	int fd;

	snprintf(script, sizeof(script), "#!/bin/sh\ntouch '%s-ran'\n", path);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	CHECK(fd >= 0 &&
	      write(fd, script, strlen(script)) == (ssize_t)strlen(script));
	close(fd);
	chmod(path, 0755);
}

/* The frame server and the autofocus daemon the variables name: scripts
 * that leave a mark. */
static void plant_server(const char *dir)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/evil-server", dir);
	plant_script(path);
	snprintf(path, sizeof(path), "%s/evil-af", dir);
	plant_script(path);
	snprintf(path, sizeof(path), "%s/xdg", dir);
	mkdir(path, 0777);
	chmod(path, 0777);
}

/* What the share variables did: 2 marks (server run, socket dir made). */
static int share_marks(const char *dir)
{
	char path[512];
	int n = 0;

	snprintf(path, sizeof(path), "%s/evil-server-ran", dir);
	n += access(path, F_OK) == 0;
	unlink(path);
	snprintf(path, sizeof(path), "%s/xdg/libv4l", dir);
	n += access(path, F_OK) == 0;
	rmdir(path);
	return n;
}

/*
 * Whether the LIBV4L2_AUTOFOCUS program ran (its mark, removed).
 *
 * Only a guard of the chain, not of the variable alone: libv4l2 reads
 * LIBV4L2_AUTOFOCUS (secure_getenv, src/v4l2/autofocus.c) only for a
 * device attached to the frame server's backend (lv2_af_probe returns
 * before that otherwise), and a setuid process never shares: the socket
 * directory is $XDG_RUNTIME_DIR/libv4l (src/protocol/proto.c) with no
 * fallback, and secure_getenv hides XDG_RUNTIME_DIR from it. So a
 * plain getenv of LIBV4L2_AUTOFOCUS alone would not change what a setuid
 * program does, and no test can see it; this mark stays 0 as long as the
 * chain holds. That the variable is obeyed where it may be, the
 * focus-auto test (tests/focus/auto.c) shows.
 */
static int autofocus_mark(const char *dir)
{
	char path[512];
	int n;

	snprintf(path, sizeof(path), "%s/evil-af-ran", dir);
	n = access(path, F_OK) == 0;
	unlink(path);
	return n;
}

/* Whether the MJPEG worker check can tell: it needs two CPUs. */
static int two_cpus(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	return !sched_getaffinity(0, sizeof(set), &set) && CPU_COUNT(&set) >= 2;
}

/* Under dir/sysfs: /dev/null's device on a 12 Mb/s USB bus. */
static void plant_sysfs(const char *dir)
{
	char path[512];
	struct stat st;
	FILE *f;

	CHECK(stat("/dev/null", &st) == 0);
	snprintf(path, sizeof(path),
		 "mkdir -p %s/sysfs/sys/dev/char/%u:%u/device", dir,
		 major(st.st_rdev), minor(st.st_rdev));
	CHECK(system(path) == 0);
	snprintf(path, sizeof(path), "%s/sysfs/sys/dev/char/%u:%u/speed", dir,
		 major(st.st_rdev), minor(st.st_rdev));
	f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		fputs("12\n", f);
		fclose(f);
	}
}

static int has(const char *report, const char *line)
{
	return strstr(report, line) != NULL;
}

int main(int argc, char **argv)
{
	char dir[] = "/tmp/libv4l-security-XXXXXX", path[512], link[512];
	char exe[512], target[512], report[1024];
	struct stat st;
	int skipped_setuid = 0, cpus2 = two_cpus();

	if (argc > 2 && !strcmp(argv[1], "child"))
		return child(argv[2]);
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	chmod(dir, 0755);
	plant_sysfs(dir);

	/* 1. the log: created 0600, close-on-exec */
	snprintf(path, sizeof(path), "%s/log", dir);
	CHECK(run_child("/proc/self/exe", dir, path, report, sizeof(report),
			NULL) == 0);
	CHECK(has(report, "log 1") && has(report, "cloexec 1"));
	/* the worker is there by default: the count below can see it */
	CHECK(has(report, "mjpeg 1"));
	if (cpus2)
		CHECK(has(report, "mjpeg-threads 1"), "%s", report);
	CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0600);
	/* the variables work here */
	CHECK(has(report, "hflip 1") && has(report, "sysfs-mjpeg 1"));
	CHECK(has(report, "converted 1") &&
	      has(report, "ignoring LIBV4LCONVERT_SIMD=bogus"));

	/* 2. never through a symbolic link */
	snprintf(target, sizeof(target), "%s/target", dir);
	snprintf(link, sizeof(link), "%s/link", dir);
	CHECK(symlink(target, link) == 0);
	CHECK(run_child("/proc/self/exe", dir, link, report, sizeof(report),
			"1") == 0);
	CHECK(has(report, "log 0"));
	CHECK(has(report, "mjpeg 1") && has(report, "mjpeg-threads 0"),
	      "LIBV4LCONVERT_THREADS=1 obeyed: %s", report);
	errno = 0;
	CHECK(stat(target, &st) == -1 && errno == ENOENT);
	/* an existing target is not written either */
	{
		int t = open(target, O_WRONLY | O_CREAT, 0600);

		CHECK(t >= 0);
		close(t);
	}
	CHECK(run_child("/proc/self/exe", dir, link, report, sizeof(report),
			NULL) == 0);
	CHECK(stat(target, &st) == 0 && st.st_size == 0);

	/* 3. setuid: every variable ignored */
	snprintf(exe, sizeof(exe), "%s/robust-security", dir);
	snprintf(path, sizeof(path), "%s/setuid-log", dir);
	if (setuid_copy_self(exe) != 0) {
		skipped_setuid = 1;
	} else {
		/* the directory must let nobody create the log, to be fair */
		chmod(dir, 0777);
		plant_server(dir);
		CHECK(run_child_env(exe, dir, path, report, sizeof(report), 1,
				    "1") == 0);
		if (!has(report, "secure 1")) {
			skipped_setuid = 1; /* nosuid mount */
		} else {
			CHECK(has(report, "log 0"));
			CHECK(has(report, "hflip 0"));
			CHECK(has(report, "sysfs-mjpeg 0"));
			CHECK(has(report, "converted 1") &&
			      !has(report, "LIBV4LCONVERT_SIMD"));
			CHECK(stat(path, &st) == -1);
			CHECK(has(report, "capture 1"),
			      "setuid: the camera is a capture node");
			CHECK(share_marks(dir) == 0,
			      "setuid: a share variable was used");
			CHECK(autofocus_mark(dir) == 0,
			      "setuid: LIBV4L2_AUTOFOCUS was run");
			/* LIBV4LCONVERT_THREADS=1 ignored: the worker runs */
			CHECK(has(report, "mjpeg 1"));
			if (cpus2)
				CHECK(has(report, "mjpeg-threads 1"),
				      "setuid: LIBV4LCONVERT_THREADS obeyed: %s",
				      report);
		}
		/* control: the same copy without the bit honours them */
		CHECK(chmod(exe, 0755) == 0);
		CHECK(run_child(exe, dir, path, report, sizeof(report), "1") ==
		      0);
		CHECK(has(report, "secure 0") && has(report, "log 1") &&
		      has(report, "hflip 1") && has(report, "sysfs-mjpeg 1") &&
		      has(report, "ignoring LIBV4LCONVERT_SIMD") &&
		      has(report, "mjpeg-threads 0"));
		unlink(path);
		/* the share variables too (the client gives up on the
		 * planted server after its 10 s) */
		CHECK(run_child_env(exe, dir, path, report, sizeof(report), 1,
				    NULL) == 0);
		CHECK(share_marks(dir) == 2, "the share variables work here");
		unlink(path);
	}

	unlink(exe);
	snprintf(path, sizeof(path), "%s/evil-server", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/evil-af", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/xdg", dir);
	rmdir(path);
	unlink(link);
	unlink(target);
	snprintf(path, sizeof(path), "%s/log", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/setuid-log", dir);
	unlink(path);
	snprintf(path, sizeof(path), "rm -rf %s/sysfs", dir);
	CHECK(system(path) == 0);
	rmdir(dir);
	if (failures) {
		printf("FAILED\n");
		return 1;
	}
	if (!cpus2)
		printf("the MJPEG worker checks skipped: one CPU, the decoder "
		       "never starts its worker there\n");
	if (skipped_setuid) {
		printf("ok, setuid check skipped (not root, or nosuid)\n");
		return 77;
	}
	printf("ok\n");
	return 0;
}
