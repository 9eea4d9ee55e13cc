/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Emulated control values shared per user and device in POSIX shared
 * memory (src/libv4lconvert/ctrlstore.c documents the name and layout: a
 * 16-byte header, then 32-bit values in the order of the emulated controls:
 * white balance, hflip, vflip, gamma, auto gain, target):
 * - shared live between two processes, persisting after both instances end;
 * - mode 0600, owned by us, 4096 bytes;
 * - out-of-range values written by anyone read back as the default, never
 *   out of range; a garbage header or a wrong size is replaced; a segment
 *   with group/other permissions is not used;
 * - concurrent first opens agree on one segment;
 * - a segment truncated behind a running instance (by another process of
 *   the user) reads as the defaults and takes writes, never a signal;
 * - a frame with flips and processing on costs at most one read system call
 *   (counted by the kernel: /proc/self/io's syscr), and so does a
 *   G_EXT_CTRLS of every control; a flip set by another instance shows on
 *   the very next frame, one set by the instance itself too.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libv4lconvert.h>

#include "../common/fakedev.h"
#include "../common/check.h"

#define W 16
#define H 8
#define SHM_SIZE 4096
#define VALUES 16 /* byte offset of the first value */

static struct fakedev dev;
static char bus[32];
static char name[128];

static int ioctl_with_bus(void *priv, int fd, unsigned long req, void *arg)
{
	int r = fakedev_ops.ioctl(priv, fd, req, arg);

	if (req == VIDIOC_QUERYCAP && r == 0)
		snprintf((char *)((struct v4l2_capability *)arg)->bus_info,
			 sizeof(((struct v4l2_capability *)arg)->bus_info),
			 "%s", bus);
	return r;
}

static struct libv4l_dev_ops ops;

/* A device named by `tag` (distinct per test, per run). */
static void use_device(const char *tag)
{
	snprintf(bus, sizeof(bus), "test:%d:%s", (int)getpid(), tag);
	/* the documented name, built independently (fakedev's card) */
	snprintf(name, sizeof(name), "/libv4lc-%u:%s:Fake camera",
		 (unsigned)geteuid(), bus);
	shm_unlink(name);
}

static struct v4lconvert_data *open_cam(void)
{
	memset(&dev, 0, sizeof(dev));
	dev.driver = "shmcam";
	dev.n_formats = 1;
	dev.formats[0].fourcc = V4L2_PIX_FMT_RGB24;
	dev.formats[0].n_sizes = 1;
	dev.formats[0].sizes[0][0] = W;
	dev.formats[0].sizes[0][1] = H;
	ops = fakedev_ops;
	ops.ioctl = ioctl_with_bus;
	return v4lconvert_create_with_dev_ops(-1, &dev, &ops);
}

static int32_t get(struct v4lconvert_data *cv, uint32_t id)
{
	struct v4l2_control c = { .id = id };

	if (v4lconvert_vidioc_g_ctrl(cv, &c))
		return -12345;
	return c.value;
}

static int set(struct v4lconvert_data *cv, uint32_t id, int32_t v)
{
	struct v4l2_control c = { .id = id, .value = v };

	return v4lconvert_vidioc_s_ctrl(cv, &c);
}

/* The segment mapped by the test, or NULL. */
static int32_t *map_segment(void)
{
	int fd = shm_open(name, O_RDWR, 0);
	void *p;

	if (fd < 0)
		return NULL;
	p = mmap(NULL, SHM_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	return p == MAP_FAILED ? NULL : (int32_t *)((uint8_t *)p + VALUES);
}

static void unmap_segment(int32_t *v)
{
	if (v)
		munmap((uint8_t *)v - VALUES, SHM_SIZE);
}

static int in_range(struct v4lconvert_data *cv)
{
	int32_t awb = get(cv, V4L2_CID_AUTO_WHITE_BALANCE),
		h = get(cv, V4L2_CID_HFLIP), v = get(cv, V4L2_CID_VFLIP),
		g = get(cv, V4L2_CID_GAMMA);

	return awb >= 0 && awb <= 1 && h >= 0 && h <= 1 && v >= 0 && v <= 1 &&
	       g >= 500 && g <= 3000;
}

/* The camera's frame format, RGB24 W x H. */
static void rgb_format(struct v4l2_format *f)
{
	memset(f, 0, sizeof(*f));
	f->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	f->fmt.pix.pixelformat = V4L2_PIX_FMT_RGB24;
	f->fmt.pix.width = W;
	f->fmt.pix.height = H;
	f->fmt.pix.bytesperline = W * 3;
}

static int convert_ok(struct v4lconvert_data *cv)
{
	uint8_t src[W * H * 3], out[W * H * 3];
	struct v4l2_format f;

	rgb_format(&f);
	memset(src, 77, sizeof(src));
	return v4lconvert_convert(cv, &f, &f, src, sizeof(src), out,
				  sizeof(out)) == (int)sizeof(out);
}

/* Read-type system calls of this process so far (pread included), or -1. */
static long syscalls_read(void)
{
	char buf[1024], *p;
	int fd = open("/proc/self/io", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	p = strstr(buf, "syscr:");
	return p ? strtol(p + 6, NULL, 10) : -1;
}

/*
 * Reads that `frames` conversions of a frame whose pixels all differ cost,
 * less the counter's own; -1 when not countable.
 */
static long reads_per_frames(struct v4lconvert_data *cv, int frames,
			     uint8_t *out)
{
	uint8_t src[W * H * 3];
	struct v4l2_format f;
	long a = syscalls_read(), b = syscalls_read(), c, d;
	int ok = 1;

	rgb_format(&f);
	/* grey, so that white balance leaves it alone */
	for (size_t k = 0; k < sizeof(src); k++)
		src[k] = (uint8_t)(k / 3 * 2);
	c = syscalls_read();
	for (int k = 0; k < frames; k++)
		ok &= v4lconvert_convert(cv, &f, &f, src, sizeof(src), out,
					 sizeof(src)) == (int)sizeof(src);
	d = syscalls_read();
	if (a < 0 || b < 0 || c < 0 || d < 0 || !ok)
		return -1;
	/* b - a: what one sample itself adds to the next */
	return d - c - (b - a);
}

/* out is src (pixel k grey 2k) mirrored (hflip) and/or upside down. */
static int flipped(const uint8_t *out, int hflip, int vflip)
{
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			for (int c = 0; c < 3; c++) {
				int sy = vflip ? H - 1 - y : y,
				    sx = hflip ? W - 1 - x : x;

				if (out[(y * W + x) * 3 + c] !=
				    (uint8_t)((sy * W + sx) * 2))
					return 0;
			}
	return 1;
}

static void test_reads_per_frame(void)
{
	enum { FRAMES = 50 };
	struct v4lconvert_data *a, *b;
	struct v4l2_ext_control ctl[6];
	struct v4l2_ext_controls ec;
	static const uint32_t ids[6] = {
		V4L2_CID_AUTO_WHITE_BALANCE,
		V4L2_CID_HFLIP,
		V4L2_CID_VFLIP,
		V4L2_CID_GAMMA,
		V4L2_CID_AUTOGAIN,
		V4L2_CTRL_CLASS_USER + 0x2000,
	};
	uint8_t out[W * H * 3];
	long n, base;

	if (syscalls_read() < 0) {
		printf("proc-shm: no /proc/self/io, reads not counted\n");
		return;
	}
	use_device("reads");
	a = open_cam();
	b = open_cam();
	/* white balance (and the default auto gain): processing every frame */
	CHECK(a && b && set(a, V4L2_CID_HFLIP, 1) == 0 &&
		      set(a, V4L2_CID_VFLIP, 1) == 0 &&
		      set(a, V4L2_CID_AUTO_WHITE_BALANCE, 1) == 0,
	      "flips and white balance on");
	if (!a || !b)
		return;
	/* the first frame fixes the kernels' tier (may read /proc) */
	reads_per_frames(a, 1, out);
	n = reads_per_frames(a, FRAMES, out);
	CHECK(n >= 0 && n <= FRAMES,
	      "%d frames with flips and processing: %ld reads (at most %d)",
	      FRAMES, n, FRAMES);
	CHECK(flipped(out, 1, 1), "both flips applied");

	/* another instance's setting, this instance's own, next frame */
	CHECK(set(b, V4L2_CID_HFLIP, 0) == 0 &&
		      reads_per_frames(a, 1, out) >= 0 && flipped(out, 0, 1),
	      "hflip cleared by the other instance: seen on the next frame");
	CHECK(set(a, V4L2_CID_VFLIP, 0) == 0 &&
		      set(a, V4L2_CID_HFLIP, 1) == 0 &&
		      reads_per_frames(a, 1, out) >= 0 && flipped(out, 1, 0),
	      "its own settings: seen on the next frame");
	CHECK(get(b, V4L2_CID_HFLIP) == 1 && get(b, V4L2_CID_VFLIP) == 0,
	      "and by the other instance");

	memset(&ec, 0, sizeof(ec));
	memset(ctl, 0, sizeof(ctl));
	for (int i = 0; i < 6; i++)
		ctl[i].id = ids[i];
	ec.count = 6;
	ec.controls = ctl;
	base = syscalls_read();
	n = syscalls_read();
	n = v4lconvert_vidioc_g_ext_ctrls(a, &ec) == 0
		    ? syscalls_read() - n - (n - base)
		    : -1;
	CHECK(n >= 0 && n <= 1, "G_EXT_CTRLS of six controls: %ld reads", n);
	CHECK(ctl[1].value == 1 && ctl[2].value == 0 && ctl[0].value == 1,
	      "G_EXT_CTRLS values (%d %d %d)", ctl[0].value, ctl[1].value,
	      ctl[2].value);
	v4lconvert_destroy(b);
	v4lconvert_destroy(a);
	shm_unlink(name);
}

static void test_sharing(void)
{
	struct v4lconvert_data *a, *c;
	struct stat st;
	char path[160];
	pid_t pid;
	int status = -1, fd;

	use_device("share");
	a = open_cam();
	snprintf(path, sizeof(path), "/dev/shm%s", name);
	fd = shm_open(name, O_RDONLY, 0);
	CHECK(fd >= 0 && !fstat(fd, &st) && (st.st_mode & 0777) == 0600 &&
		      st.st_uid == geteuid() && st.st_size == SHM_SIZE,
	      "segment %s: 0600, ours, %d bytes", name, SHM_SIZE);
	if (fd >= 0)
		close(fd);
	CHECK(get(a, V4L2_CID_HFLIP) == 0 && get(a, V4L2_CID_GAMMA) == 1000,
	      "defaults");

	/* another process changes the settings */
	pid = fork();
	if (pid == 0) {
		struct v4lconvert_data *b = open_cam();
		int ok = b && set(b, V4L2_CID_HFLIP, 1) == 0 &&
			 set(b, V4L2_CID_GAMMA, 2000) == 0;

		v4lconvert_destroy(b);
		_exit(ok ? 0 : 1);
	}
	waitpid(pid, &status, 0);
	CHECK(status == 0, "child set the controls");
	CHECK(get(a, V4L2_CID_HFLIP) == 1 && get(a, V4L2_CID_GAMMA) == 2000,
	      "seen live by the first instance (%d, %d)",
	      get(a, V4L2_CID_HFLIP), get(a, V4L2_CID_GAMMA));
	v4lconvert_destroy(a);
	c = open_cam();
	CHECK(get(c, V4L2_CID_HFLIP) == 1 && get(c, V4L2_CID_GAMMA) == 2000,
	      "persist after both instances ended");
	v4lconvert_destroy(c);
	shm_unlink(name);
}

static void test_corrupt_values(void)
{
	struct v4lconvert_data *cv;
	int32_t *v;
	int bad = 0;

	use_device("values");
	cv = open_cam();
	v = map_segment();
	CHECK(v != NULL, "segment mapped");
	if (!v)
		return;
	CHECK(v[3] == 1000, "layout as documented: gamma at slot 3 (%d)", v[3]);
	for (int i = 0; i < 6; i++)
		v[i] = 0x7fffffff;
	CHECK(get(cv, V4L2_CID_GAMMA) == 1000 && get(cv, V4L2_CID_HFLIP) == 0,
	      "out-of-range values read as the defaults");
	v[3] = -5;
	CHECK(get(cv, V4L2_CID_GAMMA) == 1000, "negative gamma: default");
	v[3] = 2500;
	CHECK(get(cv, V4L2_CID_GAMMA) == 2500, "a valid value is taken");
	/* a hostile writer while frames are converted */
	srand(7);
	for (int k = 0; k < 500; k++) {
		for (int i = 0; i < 16; i++)
			v[i] = (int32_t)((unsigned)rand() * 2654435761u);
		bad += !convert_ok(cv) || !in_range(cv);
	}
	CHECK(!bad, "%d frames failed or gave out-of-range values", bad);
	unmap_segment(v);
	v4lconvert_destroy(cv);
	shm_unlink(name);
}

static void test_corrupt_segment(void)
{
	struct v4lconvert_data *cv;
	struct stat st;
	int32_t *v;
	int fd;

	/* garbage everywhere, header included */
	use_device("header");
	cv = open_cam();
	set(cv, V4L2_CID_GAMMA, 2222);
	v4lconvert_destroy(cv);
	v = map_segment();
	if (v) {
		memset((uint8_t *)v - VALUES, 0xa5, SHM_SIZE);
		unmap_segment(v);
	}
	cv = open_cam();
	CHECK(cv && in_range(cv) && get(cv, V4L2_CID_GAMMA) == 1000 &&
		      convert_ok(cv),
	      "garbage header: fresh defaults");
	CHECK(set(cv, V4L2_CID_GAMMA, 1700) == 0 && (v = map_segment()) &&
		      v[3] == 1700,
	      "garbage header: replaced by a fresh segment");
	unmap_segment(v);
	v4lconvert_destroy(cv);

	/* wrong size */
	fd = shm_open(name, O_RDWR, 0);
	CHECK(fd >= 0 && ftruncate(fd, 100) == 0, "shrink");
	if (fd >= 0)
		close(fd);
	cv = open_cam();
	CHECK(cv && in_range(cv) && convert_ok(cv), "short segment survived");
	v4lconvert_destroy(cv);
	shm_unlink(name);

	/* open to others: not used */
	use_device("mode");
	fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
	CHECK(fd >= 0 && fchmod(fd, 0666) == 0 && ftruncate(fd, SHM_SIZE) == 0,
	      "world-writable segment");
	if (fd >= 0)
		close(fd);
	v = map_segment();
	cv = open_cam();
	CHECK(cv && set(cv, V4L2_CID_GAMMA, 2900) == 0 &&
		      get(cv, V4L2_CID_GAMMA) == 2900,
	      "private values work");
	CHECK(v && v[3] == 0, "world-writable segment left alone (%d)",
	      v ? v[3] : -1);
	if (v)
		v[3] = 600;
	CHECK(get(cv, V4L2_CID_GAMMA) == 2900, "and not read");
	unmap_segment(v);
	if (stat("/dev/shm", &st) == 0) {
		char path[200];

		snprintf(path, sizeof(path), "/dev/shm%s", name);
		CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0666,
		      "its mode untouched");
	}
	v4lconvert_destroy(cv);
	shm_unlink(name);
}

/* In a child: a running instance's segment cut to `size` bytes. */
static int survives_truncate(off_t size)
{
	struct v4lconvert_data *cv = open_cam();
	int fd, ok;

	ok = cv && set(cv, V4L2_CID_GAMMA, 2000) == 0 &&
	     set(cv, V4L2_CID_HFLIP, 1) == 0 && get(cv, V4L2_CID_GAMMA) == 2000;
	fd = shm_open(name, O_RDWR, 0);
	if (fd < 0 || ftruncate(fd, size) != 0)
		return 0;
	close(fd);
	/* gamma (slot 3) is beyond every size cut here: the default */
	ok = ok && get(cv, V4L2_CID_GAMMA) == 1000 && in_range(cv);
	ok = ok && convert_ok(cv);
	ok = ok && set(cv, V4L2_CID_GAMMA, 1500) == 0 && in_range(cv) &&
	     convert_ok(cv);
	v4lconvert_destroy(cv);
	return ok;
}

static void test_truncated_live(void)
{
	static const off_t sizes[] = { 0, 8, 20 };

	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		int status = -1;
		pid_t pid;

		use_device("truncate");
		pid = fork();
		if (pid == 0)
			_exit(survives_truncate(sizes[k]) ? 0 : 1);
		waitpid(pid, &status, 0);
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "cut to %d bytes behind a running instance: %s %d",
		      (int)sizes[k],
		      WIFSIGNALED(status) ? "signal" : "exit status",
		      WIFSIGNALED(status) ? WTERMSIG(status)
					  : WEXITSTATUS(status));
		shm_unlink(name);
	}
}

/* Eight processes open the device for the first time at once. */
static void test_race(void)
{
	pid_t pids[8];
	int ok = 1, pipefd[2];
	struct v4lconvert_data *cv;

	use_device("race");
	CHECK(pipe(pipefd) == 0, "pipe");
	for (int k = 0; k < 8; k++) {
		pids[k] = fork();
		if (pids[k] == 0) {
			char c;
			struct v4lconvert_data *x;
			int r;

			close(pipefd[1]);
			r = (int)read(pipefd[0], &c, 1); /* start together */
			(void)r;
			x = open_cam();
			r = x && in_range(x);
			/* the last writer wins; all write in range */
			r = r && set(x, V4L2_CID_GAMMA, 1100 + 100 * k) == 0;
			v4lconvert_destroy(x);
			_exit(r ? 0 : 1);
		}
	}
	close(pipefd[0]);
	close(pipefd[1]); /* EOF releases them all */
	for (int k = 0; k < 8; k++) {
		int status = -1;

		waitpid(pids[k], &status, 0);
		ok &= status == 0;
	}
	CHECK(ok, "all eight opened and set");
	cv = open_cam();
	{
		int g = get(cv, V4L2_CID_GAMMA);

		CHECK(g >= 1100 && g <= 1800 && g % 100 == 0,
		      "one segment: the value is one child's (%d)", g);
	}
	v4lconvert_destroy(cv);
	shm_unlink(name);
}

int main(void)
{
	setenv("LIBV4LCONTROL_CONTROLS", "0x3f", 1);
	unsetenv("LIBV4LCONTROL_FLAGS");
	test_sharing();
	test_corrupt_values();
	test_corrupt_segment();
	test_race();
	test_truncated_live();
	test_reads_per_frame();
	printf("proc-shm: %d failures\n", failures);
	return failures != 0;
}
