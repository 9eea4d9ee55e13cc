/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The frame server end to end on the virtual camera (YUYV 640x480, 30 fps):
 * several client processes capture at once through libv4l2 with
 * LIBV4L2_SHARE=1, in different formats, sizes and I/O methods. Every
 * frame is compared with the camera's own renderer (src/vcam) scaled by
 * this file's own nearest-neighbour code and converted by an independent
 * libv4lconvert; the first frames are also compared with a direct capture
 * (LIBV4L2_SHARE=0). Then: a stalled and a killed client do not slow the
 * others; controls are shared; another uid is refused; the server exits
 * when idle.
 *
 *   server-share SERVER_BINARY
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/securebits.h>

#include <libv4l2.h>
#include <libv4lconvert.h>

#include "vcam/vcam.h"
#include "protocol/proto.h"
#include "../common/check.h"

#define SPEC "YUYV:640x480"
#define SW 640 /* the size the server streams */
#define SH 480

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* YUYV at SW x SH, nearest neighbour (by pixel pair) down to w x h. */
static void nn_yuyv(const uint8_t *src, uint8_t *dst, int w, int h)
{
	for (int y = 0; y < h; y++) {
		int sy = y * SH / h;

		for (int x = 0; x < w / 2; x++) {
			int sx = x * (SW / 2) / (w / 2);

			memcpy(dst + (size_t)y * w * 2 + x * 4,
			       src + (size_t)sy * SW * 2 + sx * 4, 4);
		}
	}
}

static struct v4lconvert_data *ref;

/* The frame a client asking fourcc at w x h must get for seq. */
static uint8_t *expected(uint32_t fourcc, int w, int h, uint32_t seq,
			 size_t *len)
{
	size_t big = (size_t)SW * SH * 2, small = (size_t)w * h * 2;
	uint8_t *raw = malloc(big), *yuyv = malloc(small), *out;
	struct v4l2_format s = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE }, d;

	CHECK(v4lc_vcam_render(V4L2_PIX_FMT_YUYV, SW, SH, seq, raw, big) ==
	      (int)big);
	nn_yuyv(raw, yuyv, w, h);
	free(raw);
	if (fourcc == V4L2_PIX_FMT_YUYV) {
		*len = small;
		return yuyv;
	}
	s.fmt.pix.width = (uint32_t)w;
	s.fmt.pix.height = (uint32_t)h;
	s.fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
	s.fmt.pix.field = V4L2_FIELD_NONE;
	s.fmt.pix.bytesperline = (uint32_t)w * 2;
	s.fmt.pix.sizeimage = (uint32_t)small;
	s.fmt.pix.colorspace = V4L2_COLORSPACE_SMPTE170M;
	d = s;
	d.fmt.pix.pixelformat = fourcc;
	v4lconvert_fixup_fmt(&d);
	*len = d.fmt.pix.sizeimage;
	out = malloc(*len);
	CHECK(v4lconvert_convert(ref, &s, &d, yuyv, (int)small, out,
				 (int)*len) == (int)*len);
	free(yuyv);
	return out;
}

struct job {
	const char *name;
	uint32_t fourcc;
	int w, h;
	int use_read;
	int frames;          /* stop after this many frames... */
	double seconds;      /* ...or after this long (if > 0) */
	int stall_after;     /* stop dequeuing after N frames (0: never) */
	int direct;          /* LIBV4L2_SHARE=0 */
	int save;            /* write frames to <dir>/<name>-<seq> */
	int ctrl_set;        /* S_CTRL brightness to this value first */
	int ready_fd;        /* write 'r' after the first frame */
	int want_brightness; /* expected at the end (0: not checked) */
	int expect_end;      /* the stream must end with an error */
};

static char tmpdir[64];
static double direct_fps = 30;

static int open_cam(int direct)
{
	int fd;
	char link[256], path[64];
	ssize_t n;

	setenv("LIBV4L2_SHARE", direct ? "0" : "1", 1);
	fd = v4lc_vcam_create(SPEC);
	CHECK(fd >= 0);
	CHECK(v4l2_fd_open(fd, 0) == fd);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, link, sizeof(link) - 1);
	link[n > 0 ? n : 0] = '\0';
	/* Shared: the fd is now the client's frame socket. */
	if (direct)
		CHECK(strstr(link, "libv4l-vcam") != NULL);
	else
		CHECK(!strncmp(link, "socket:", 7));
	return fd;
}

/* One client's open stream: its fd and buffers (or its read() buffer). */
struct capture {
	int fd;
	size_t size;
	void *maps[4];
	size_t lens[4];
	uint8_t *rbuf;
};

/* Open the camera, set the job's control and format, map and queue the
 * buffers (or allocate the read() buffer) and start streaming. */
static void capture_start(const struct job *j, struct capture *c)
{
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_requestbuffers req = {
		.count = 4,
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_MMAP,
	};
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE, fd;

	c->fd = fd = open_cam(j->direct);
	if (j->ctrl_set) {
		struct v4l2_control ctl = { .id = V4L2_CID_BRIGHTNESS,
					    .value = j->ctrl_set };

		CHECK(v4l2_ioctl(fd, VIDIOC_S_CTRL, &ctl) == 0);
	}
	f.fmt.pix.width = (uint32_t)j->w;
	f.fmt.pix.height = (uint32_t)j->h;
	f.fmt.pix.pixelformat = j->fourcc;
	f.fmt.pix.field = V4L2_FIELD_NONE;
	CHECK(v4l2_ioctl(fd, VIDIOC_S_FMT, &f) == 0);
	CHECK(f.fmt.pix.pixelformat == j->fourcc);
	CHECK(f.fmt.pix.width == (uint32_t)j->w &&
	      f.fmt.pix.height == (uint32_t)j->h);
	c->size = f.fmt.pix.sizeimage;
	if (j->use_read) {
		c->rbuf = malloc(c->size);
		return;
	}
	CHECK(v4l2_ioctl(fd, VIDIOC_REQBUFS, &req) == 0);
	CHECK(req.count == 4);
	for (unsigned i = 0; i < 4; i++) {
		struct v4l2_buffer b = {
			.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
			.memory = V4L2_MEMORY_MMAP,
			.index = i,
		};

		CHECK(v4l2_ioctl(fd, VIDIOC_QUERYBUF, &b) == 0);
		c->lens[i] = b.length;
		c->maps[i] = v4l2_mmap(NULL, b.length, PROT_READ | PROT_WRITE,
				       MAP_SHARED, fd, b.m.offset);
		CHECK(c->maps[i] != MAP_FAILED);
		CHECK(v4l2_ioctl(fd, VIDIOC_QBUF, &b) == 0);
	}
	CHECK(v4l2_ioctl(fd, VIDIOC_STREAMON, &type) == 0);
}

/* One frame into *data, *used, *seq (0 for read(), which has none).
 * 0, -1 to stop, 1 when the stream ended as the job expects. */
static int capture_next(const struct job *j, const struct capture *c,
			struct v4l2_buffer *b, const uint8_t **data,
			ssize_t *used, uint32_t *seq, int got)
{
	if (j->use_read) {
		*used = v4l2_read(c->fd, c->rbuf, c->size);
		CHECK(*used == (ssize_t)c->size);
		if (*used != (ssize_t)c->size)
			return -1;
		*data = c->rbuf;
		*seq = 0;
		return 0;
	}
	if (v4l2_ioctl(c->fd, VIDIOC_DQBUF, b) < 0) {
		if (j->expect_end) {
			printf("%s: DQBUF ended with %s after %d frames\n",
			       j->name, strerror(errno), got);
			CHECK(errno == EIO || errno == ENODEV);
			return 1;
		}
		CHECK(!"DQBUF");
		return -1;
	}
	CHECK(b->bytesused == c->size);
	*data = c->maps[b->index];
	*seq = b->sequence;
	*used = b->bytesused;
	return 0;
}

/*
 * Whether data is the frame of sequence *seq (a dequeued frame), or of
 * one of the 200 after last (read(), which has no sequence: *seq is set
 * to the one found). The search renders every candidate, which is slow on
 * a loaded machine under sanitizers, and the slower the reader the further
 * the sequence has moved on: candidates are kept (a read's window overlaps
 * the last one's) and the window is wide.
 */
static int frame_matches(const struct job *j, const uint8_t *data, ssize_t used,
			 uint32_t *seq, int64_t last)
{
	static uint8_t *cache[256];
	static size_t cache_len[256];
	static int64_t cache_seq[256];
	uint32_t from = j->use_read ? (uint32_t)(last + 1) : *seq;
	uint32_t to = j->use_read ? from + 200 : *seq;
	int ok = 0;

	for (uint32_t s = from; s <= to && !ok; s++) {
		unsigned k = s % 256;

		if (!cache[k] || cache_seq[k] != s) {
			free(cache[k]);
			cache[k] = expected(j->fourcc, j->w, j->h, s,
					    &cache_len[k]);
			cache_seq[k] = s;
		}
		if (cache_len[k] == (size_t)used &&
		    !memcmp(cache[k], data, cache_len[k])) {
			ok = 1;
			*seq = s;
		}
		if (!j->use_read) {
			free(cache[k]);
			cache[k] = NULL;
		}
	}
	return ok;
}

/* The file <tmpdir>/<tail>, opened with fopen's mode. */
static FILE *open_in_tmpdir(const char *tail, const char *mode)
{
	char p[sizeof(tmpdir) + 100];

	snprintf(p, sizeof(p), "%s/%s", tmpdir, tail);
	return fopen(p, mode);
}

static void save_frame(const struct job *j, uint32_t seq, const uint8_t *data,
		       ssize_t used)
{
	char tail[99];
	FILE *o;

	snprintf(tail, sizeof(tail), "%s-%u", j->name, seq);
	o = open_in_tmpdir(tail, "wb");
	if (o) {
		fwrite(data, 1, (size_t)used, o);
		fclose(o);
	}
}

/* The brightness at the end, checked when the job expects one. */
static void check_brightness(const struct job *j, int fd)
{
	struct v4l2_control c = { .id = V4L2_CID_BRIGHTNESS };

	CHECK(v4l2_ioctl(fd, VIDIOC_G_CTRL, &c) == 0);
	printf("%s: brightness %d\n", j->name, c.value);
	if (j->want_brightness)
		CHECK(c.value == j->want_brightness);
}

/* Runs in a child: capture, check every frame; prints a summary line. */
static int run_job(const struct job *j)
{
	struct capture c = { 0 };
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE, got = 0, bad = 0, gaps = 0;
	int64_t last = -1;
	double t0;

	ref = v4lconvert_create(-1);
	capture_start(j, &c);
	t0 = now_s();
	while (failures < 5) {
		const uint8_t *data;
		uint32_t seq;
		ssize_t used;
		struct v4l2_buffer b = {
			.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
			.memory = V4L2_MEMORY_MMAP,
		};
		int r;

		if (j->seconds > 0 ? now_s() - t0 >= j->seconds
				   : got >= j->frames)
			break;
		if (j->stall_after && got >= j->stall_after) {
			sleep_ms(50); /* stalled: never dequeues again */
			continue;
		}
		r = capture_next(j, &c, &b, &data, &used, &seq, got);
		if (r > 0) {
			v4l2_close(c.fd);
			return failures ? 1 : 3;
		}
		if (r < 0)
			break;
		if (!frame_matches(j, data, used, &seq, last)) {
			bad++;
			printf("%s: frame seq %u differs\n", j->name, seq);
		}
		if (last >= 0 && seq > last + 1)
			gaps += (int)(seq - last - 1);
		last = seq;
		if (j->save)
			save_frame(j, seq, data, used);
		got++;
		if (got == 1 && j->ready_fd >= 0)
			CHECK(write(j->ready_fd, "r", 1) == 1);
		if (!j->use_read)
			CHECK(v4l2_ioctl(c.fd, VIDIOC_QBUF, &b) == 0);
	}
	if (!j->use_read) {
		CHECK(v4l2_ioctl(c.fd, VIDIOC_STREAMOFF, &type) == 0);
		for (unsigned i = 0; i < 4; i++)
			v4l2_munmap(c.maps[i], c.lens[i]);
	}
	if (j->ctrl_set == 0)
		check_brightness(j, c.fd);
	CHECK(v4l2_close(c.fd) == 0);
	CHECK(bad == 0);
	/*
	 * Timed clients keep streaming beside a stalled one: a server that
	 * waited for the stalled client would stop after its two frames in
	 * flight. The pace itself is reported, not asserted (no timing
	 * thresholds in tests: the machine may be loaded, or under ASan);
	 * tests/server/bench.c measures it.
	 */
	if (j->seconds > 0 && !j->stall_after) {
		printf("%s: %.1f fps, direct capture %.1f fps\n", j->name,
		       got / j->seconds, direct_fps);
		CHECK(got >= 10);
	}
	if (!strcmp(j->name, "direct")) {
		FILE *o = open_in_tmpdir("direct-fps", "w");

		if (o) {
			fprintf(o, "%f\n", got / (now_s() - t0));
			fclose(o);
		}
	}
	printf("%s: %d frames in %.2f s, %d missing sequence numbers, %d bad\n",
	       j->name, got, now_s() - t0, gaps, bad);
	fflush(stdout);
	v4lconvert_destroy(ref);
	free(c.rbuf);
	return failures ? 1 : 0;
}

static pid_t start(const struct job *j)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		failures = 0; /* the child's own */
		_exit(run_job(j));
	}
	return pid;
}

static int finish(pid_t pid)
{
	int st = 0;

	CHECK(waitpid(pid, &st, 0) == pid);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void wait_ready(int fd)
{
	char c;

	CHECK(read(fd, &c, 1) == 1);
}

static char sock_path[200];

/* Connect to the server and ask its pid; -1 if refused/absent. */
static int server_pid(void)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	struct fs_hello h = { .h.type = FS_HELLO, .version = FS_PROTO_VERSION };
	int s = socket(AF_UNIX, SOCK_SEQPACKET, 0), fd, pid = -1;

	strcpy(a.sun_path, sock_path);
	if (connect(s, (struct sockaddr *)&a, sizeof(a)) == 0 &&
	    fs_send(s, &h, sizeof(h), -1, 0) == 0 &&
	    fs_recv(s, &h, sizeof(h), &fd, 0) == (ssize_t)sizeof(h))
		pid = (int)h.pid;
	close(s);
	return pid;
}

static int alive(int pid)
{
	char p[64], st[256];
	FILE *f;
	int ok = 0;

	snprintf(p, sizeof(p), "/proc/%d/stat", pid);
	f = fopen(p, "r");
	if (f) {
		char *r = fgets(st, sizeof(st), f),
		     *c = r ? strrchr(st, ')') : 0;

		ok = c && c[2] != 'Z' && c[2] != 'X';
		fclose(f);
	}
	return ok;
}

static int cmp_files(const char *a, const char *b)
{
	FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
	int same = fa && fb, ca, cb;

	while (same) {
		ca = getc(fa);
		cb = getc(fb);
		if (ca != cb)
			same = 0;
		if (ca == EOF || cb == EOF)
			break;
	}
	if (fa)
		fclose(fa);
	if (fb)
		fclose(fb);
	return same;
}

/* A connection from another uid must be refused by SO_PEERCRED. */
static void test_other_uid(void)
{
	pid_t pid;

	if (geteuid() != 0) {
		printf("other uid: not root, only the unit test covers it\n");
		return;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct sockaddr_un a = { .sun_family = AF_UNIX };
		struct fs_hello h = { .h.type = FS_HELLO,
				      .version = FS_PROTO_VERSION };
		int s, fd;
		ssize_t n;

		/* Keep CAP_DAC_OVERRIDE to reach the 0700 directory, so the
		 * server's SO_PEERCRED check is what refuses us. */
		if (prctl(PR_SET_SECUREBITS, SECBIT_NO_SETUID_FIXUP) < 0 ||
		    setresgid(65534, 65534, 65534) < 0 ||
		    setresuid(65534, 65534, 65534) < 0)
			_exit(77);
		strcpy(a.sun_path, sock_path);
		s = socket(AF_UNIX, SOCK_SEQPACKET, 0);
		if (connect(s, (struct sockaddr *)&a, sizeof(a)) < 0)
			_exit(78);
		(void)fs_send(s, &h, sizeof(h), -1, 0);
		n = fs_recv(s, &h, sizeof(h), &fd, 0);
		_exit(n > 0 ? 1 : 0); /* any answer: not refused */
	}
	{
		int r = finish(pid);

		if (r == 77 || r == 78)
			printf("other uid: cannot switch uid here (%d), "
			       "skipped\n",
			       r);
		else
			CHECK(r == 0);
		if (r == 0)
			printf("other uid: connection refused\n");
	}
}

/* The pid of the server this process is connected to: the peer of one
 * of our AF_UNIX sockets that is another process; 0 if none. */
static int connected_server_pid(void)
{
	for (int fd = 3; fd < 1024; fd++) {
		struct ucred cr;
		socklen_t len = sizeof(cr);

		if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &len) == 0 &&
		    len == sizeof(cr) && cr.pid > 0 && cr.pid != getpid())
			return (int)cr.pid;
	}
	return 0;
}

/*
 * N clients open the camera at the same moment (they all wait on one
 * pipe and are released together by closing it), each after delay_ms
 * plus i * stagger_ms; all must end up on ONE server: each reports the
 * pid of the server it is connected to while every other client is
 * still connected. Returns that pid (or -1).
 */
#define NCONC 6
static int concurrent_round(const char *what, int delay_ms, int stagger_ms)
{
	int go[2], res[2], done[2], pids[NCONC], first = -1, same = 1;
	pid_t kids[NCONC];

	CHECK(pipe(go) == 0 && pipe(res) == 0 && pipe(done) == 0);
	fflush(stdout);
	for (int i = 0; i < NCONC; i++) {
		kids[i] = fork();
		if (kids[i] == 0) {
			char c;
			int fd, pid;

			close(go[1]);
			close(res[0]);
			close(done[1]);
			if (read(go[0], &c, 1) != 0)
				_exit(2);
			sleep_ms(delay_ms + i * stagger_ms);
			fd = open_cam(0);
			pid = connected_server_pid();
			if (write(res[1], &pid, sizeof(pid)) != sizeof(pid))
				_exit(3);
			if (read(done[0], &c, 1) != 0)
				_exit(4);
			v4l2_close(fd);
			_exit(failures ? 1 : 0);
		}
	}
	close(go[0]);
	close(res[1]);
	close(done[0]);
	close(go[1]); /* all start now */
	for (int i = 0; i < NCONC; i++) {
		pids[i] = -1;
		CHECK(read(res[0], &pids[i], sizeof(pids[i])) ==
		      sizeof(pids[i]));
		if (i == 0)
			first = pids[i];
		same &= pids[i] == first && pids[i] > 0;
	}
	close(done[1]); /* all close now */
	for (int i = 0; i < NCONC; i++)
		CHECK(finish(kids[i]) == 0);
	close(res[0]);
	printf("concurrent start (%s): %d clients on server", what, NCONC);
	for (int i = 0; i < NCONC; i++)
		printf(" %d", pids[i]);
	printf("\n");
	CHECK(same);
	return same ? first : -1;
}

static void wait_server_gone(int pid)
{
	double t0 = now_s();

	while (now_s() - t0 < 5 && (alive(pid) || !access(sock_path, F_OK)))
		sleep_ms(20);
	CHECK(!alive(pid));
	CHECK(access(sock_path, F_OK) < 0);
}

/* Item: several programs opening the camera at once share one server,
 * from a cold start, around the idle exit of the previous server, and
 * over the stale socket of a killed one. */
static void test_concurrent_start(void)
{
	int spid = concurrent_round("cold", 0, 0);

	if (spid > 0)
		wait_server_gone(spid);
	/* Around the idle exit (500 ms after the last client left): one
	 * client comes and goes, the others arrive 400..650 ms later. */
	{
		pid_t one;

		fflush(stdout);
		one = fork();
		if (one == 0) {
			int fd = open_cam(0);

			v4l2_close(fd);
			_exit(failures ? 1 : 0);
		}
		CHECK(finish(one) == 0);
		spid = concurrent_round("during the idle exit", 400, 50);
	}
	/* A killed server leaves its socket behind. */
	{
		int p2 = -1;
		pid_t holder;
		int hp[2];

		CHECK(pipe(hp) == 0);
		fflush(stdout);
		holder = fork();
		if (holder == 0) {
			int fd = open_cam(0), pid = connected_server_pid();

			close(hp[0]);
			CHECK(write(hp[1], &pid, sizeof(pid)) == sizeof(pid));
			pause();
			v4l2_close(fd);
			_exit(0);
		}
		close(hp[1]);
		CHECK(read(hp[0], &p2, sizeof(p2)) == sizeof(p2));
		close(hp[0]);
		CHECK(p2 > 0);
		if (p2 > 0)
			kill(p2, SIGKILL);
		kill(holder, SIGKILL);
		finish(holder);
		sleep_ms(100);
		CHECK(access(sock_path, F_OK) == 0); /* stale socket */
		spid = concurrent_round("over a stale socket", 0, 0);
		if (spid > 0)
			wait_server_gone(spid);
	}
}

/*
 * The default (LIBV4L2_SHARE unset): a program joins a server that is
 * already running for the device, and never starts one (then it opens the
 * device directly).
 */
static void test_default_mode(void)
{
	int hp[2], go[2], spid = -1;
	pid_t holder, p;

	/* No server: direct, and none is started. */
	fflush(stdout);
	p = fork();
	if (p == 0) {
		char link[256], path[64];
		int fd = v4lc_vcam_create(SPEC);
		ssize_t n;

		unsetenv("LIBV4L2_SHARE");
		CHECK(v4l2_fd_open(fd, 0) == fd);
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		n = readlink(path, link, sizeof(link) - 1);
		link[n > 0 ? n : 0] = '\0';
		CHECK(strstr(link, "libv4l-vcam") != NULL);
		v4l2_close(fd);
		_exit(failures ? 1 : 0);
	}
	CHECK(finish(p) == 0);
	CHECK(access(sock_path, F_OK) < 0);
	printf("default, no server running: the device opened directly\n");

	/* A server started by a LIBV4L2_SHARE=1 program: joined. */
	CHECK(pipe(hp) == 0 && pipe(go) == 0);
	fflush(stdout);
	holder = fork();
	if (holder == 0) {
		int fd = open_cam(0), pid = connected_server_pid();
		char c;

		CHECK(write(hp[1], &pid, sizeof(pid)) == sizeof(pid));
		close(go[1]);
		if (read(go[0], &c, 1) < 0)
			_exit(2);
		v4l2_close(fd);
		_exit(failures ? 1 : 0);
	}
	close(hp[1]);
	CHECK(read(hp[0], &spid, sizeof(spid)) == sizeof(spid));
	close(hp[0]);
	fflush(stdout);
	p = fork();
	if (p == 0) {
		char link[256], path[64];
		int fd = v4lc_vcam_create(SPEC);
		ssize_t n;

		unsetenv("LIBV4L2_SHARE");
		CHECK(v4l2_fd_open(fd, 0) == fd);
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		n = readlink(path, link, sizeof(link) - 1);
		link[n > 0 ? n : 0] = '\0';
		CHECK(!strncmp(link, "socket:", 7));
		CHECK(connected_server_pid() == spid);
		v4l2_close(fd);
		_exit(failures ? 1 : 0);
	}
	CHECK(finish(p) == 0);
	close(go[0]);
	close(go[1]);
	CHECK(finish(holder) == 0);
	printf("default, a server running (pid %d): joined it\n", spid);
	if (spid > 0)
		wait_server_gone(spid);
}

/* 1. Direct capture (no server), kept for comparison. */
static void phase_direct(void)
{
	struct job d = { .name = "direct",
			 .fourcc = V4L2_PIX_FMT_RGB24,
			 .w = SW,
			 .h = SH,
			 .frames = 45,
			 .direct = 1,
			 .save = 1,
			 .ready_fd = -1 };
	FILE *f;

	CHECK(finish(start(&d)) == 0);
	CHECK(access(sock_path, F_OK) < 0); /* no server used */
	f = open_in_tmpdir("direct-fps", "r");
	CHECK(f && fscanf(f, "%lf", &direct_fps) == 1);
	if (f)
		fclose(f);
}

/* Same sequence number, same picture as the direct capture. */
static void compare_with_direct(void)
{
	int compared = 0;

	for (int s = 0; s < 45; s++) {
		char x[128], y[128];

		snprintf(x, sizeof(x), "%s/direct-%d", tmpdir, s);
		snprintf(y, sizeof(y), "%s/A-rgb24-640-%d", tmpdir, s);
		if (access(x, F_OK) || access(y, F_OK))
			continue;
		CHECK(cmp_files(x, y));
		compared++;
	}
	printf("compared with the direct capture: %d frames\n", compared);
	/* The server drops frames for a client that falls behind (more of
	 * them on a loaded machine), so how many sequence numbers both
	 * captures share varies: every shared one must match, and there is
	 * one. */
	CHECK(compared >= 1);
}

/* 2. Three clients at once: RGB24 640x480 mmap (first, so that the
 * server streams 640x480 from the start), YUYV 320x240 mmap (native,
 * scaled), BGR24 320x240 read(); the first also saves frames. */
static void phase_three_clients(void)
{
	struct job a = { .name = "A-rgb24-640",
			 .fourcc = V4L2_PIX_FMT_RGB24,
			 .w = 640,
			 .h = 480,
			 .frames = 45,
			 .save = 1 };
	struct job b = { .name = "B-yuyv-320",
			 .fourcc = V4L2_PIX_FMT_YUYV,
			 .w = 320,
			 .h = 240,
			 .frames = 30,
			 .ready_fd = -1 };
	struct job c = { .name = "C-bgr24-320-read",
			 .fourcc = V4L2_PIX_FMT_BGR24,
			 .w = 320,
			 .h = 240,
			 .use_read = 1,
			 .frames = 20,
			 .ready_fd = -1 };
	pid_t pa, pb, pc;
	int p[2];

	CHECK(pipe(p) == 0);
	a.ready_fd = p[1];
	pa = start(&a);
	wait_ready(p[0]);
	pb = start(&b);
	pc = start(&c);
	CHECK(finish(pa) == 0);
	CHECK(finish(pb) == 0);
	CHECK(finish(pc) == 0);
	close(p[0]);
	close(p[1]);
	compare_with_direct();
}

/* 3. A stalled client and a killed one do not slow the others; a
 * control set by one is seen by another. */
static void phase_stalled_and_killed(void)
{
	struct job a = { .name = "A-timed",
			 .fourcc = V4L2_PIX_FMT_RGB24,
			 .w = 640,
			 .h = 480,
			 .seconds = 3.0,
			 .ready_fd = -1,
			 .want_brightness = 200 };
	struct job s = { .name = "S-stalled",
			 .fourcc = V4L2_PIX_FMT_YUYV,
			 .w = 640,
			 .h = 480,
			 .seconds = 3.5,
			 .stall_after = 3,
			 .ctrl_set = 200 };
	struct job k = { .name = "K-killed",
			 .fourcc = V4L2_PIX_FMT_RGB24,
			 .w = 320,
			 .h = 240,
			 .frames = 100000 };
	pid_t pa, ps, pk;
	int p[2], q[2];

	CHECK(pipe(p) == 0);
	CHECK(pipe(q) == 0);
	s.ready_fd = p[1];
	k.ready_fd = q[1];
	ps = start(&s);
	wait_ready(p[0]); /* brightness is 200 now */
	pk = start(&k);
	wait_ready(q[0]);
	pa = start(&a);
	sleep_ms(800);
	kill(pk, SIGKILL);
	CHECK(finish(pa) == 0);
	CHECK(finish(ps) == 0);
	finish(pk);
	close(p[0]);
	close(p[1]);
	close(q[0]);
	close(q[1]);
}

/* 4. Refusals, then idle exit. */
static void phase_refusal_and_idle_exit(void)
{
	int spid = server_pid();
	double t0;

	CHECK(spid > 0);
	printf("server pid %d\n", spid);
	test_other_uid();
	t0 = now_s();
	while (now_s() - t0 < 5 && (alive(spid) || !access(sock_path, F_OK)))
		sleep_ms(50);
	CHECK(!alive(spid));
	CHECK(access(sock_path, F_OK) < 0);
	printf("server exited %.2f s after its last client\n", now_s() - t0);
}

/* A client of 5 frames at 640x480 that must succeed. */
static void run_short_client(const char *name, uint32_t fourcc)
{
	struct job a = { .name = name,
			 .fourcc = fourcc,
			 .w = 640,
			 .h = 480,
			 .frames = 5,
			 .ready_fd = -1 };

	CHECK(finish(start(&a)) == 0);
}

/* 6. The server crashes: streaming clients get an error (no hang), and
 * the next open starts a new server. */
static void phase_server_crash(void)
{
	struct job x = { .name = "X-server-killed",
			 .fourcc = V4L2_PIX_FMT_RGB24,
			 .w = 640,
			 .h = 480,
			 .frames = 1000000,
			 .expect_end = 1 };
	pid_t px;
	double t0;
	int p[2], r, spid;

	CHECK(pipe(p) == 0);
	x.ready_fd = p[1];
	px = start(&x);
	wait_ready(p[0]);
	spid = server_pid();
	CHECK(spid > 0);
	CHECK(kill(spid, SIGKILL) == 0);
	t0 = now_s();
	r = finish(px);
	CHECK(r == 3); /* ended with EIO, not a hang */
	CHECK(now_s() - t0 < 3);
	close(p[0]);
	close(p[1]);
	run_short_client("A-after-crash", V4L2_PIX_FMT_YUYV);
}

int main(int argc, char **argv)
{
	char key[80];

	if (argc < 2) {
		fprintf(stderr, "usage: %s SERVER\n", argv[0]);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	strcpy(tmpdir, "/tmp/fsrvXXXXXX");
	CHECK(mkdtemp(tmpdir) != NULL);
	setenv("XDG_RUNTIME_DIR", tmpdir, 1);
	setenv("LIBV4L2_FRAMESERVER", argv[1], 1);
	setenv("LIBV4L2_FRAMESERVER_IDLE_MS", "500", 1);
	CHECK(fs_device_key(V4LC_VCAM_PREFIX ":" SPEC, key, sizeof(key)) == 0);
	CHECK(fs_socket_path(key, sock_path, sizeof(sock_path)) == 0);

	/* 0. Clients starting at the same moment share one server. */
	test_concurrent_start();
	test_default_mode();
	phase_direct();
	phase_three_clients();
	phase_stalled_and_killed();
	phase_refusal_and_idle_exit();
	/* 5. The next open starts a new server. */
	run_short_client("A-again", V4L2_PIX_FMT_RGB24);
	phase_server_crash();
	printf("%s\n", failures ? "FAILED" : "OK");
	return failures ? 1 : 0;
}
