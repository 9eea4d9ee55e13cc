/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * An MJPEG camera shared by the frame server (src/server/server_decode.c):
 * client processes asking RGB24, YUV420 and YUV420 again, beside one asking
 * MJPEG, stream at once through libv4l2 with LIBV4L2_SHARE=1.
 *   - MJPEG: every frame is the camera's JPEG, byte for byte;
 *   - YUV420: every frame is what a lone client decoding the camera's JPEG
 *     itself gets (an independent libv4lconvert, MJPEG -> YUV420), byte for
 *     byte;
 *   - RGB24: every frame is that lone decode to YU12 (BT.601 full range,
 *     as JPEG has it) then converted to RGB24, byte for byte, and on
 *     average within RGB_BOUND of the lone client's direct MJPEG -> RGB24
 *     (that path upsamples the camera's 4:2:2 chroma straight to RGB: at
 *     the colour bars' edges single bytes differ much, the mean by ~1);
 *   - the server decoded each frame at most once: its log (--verbose, on
 *     this test's stderr, redirected to a file) counts the frames dequeued
 *     and decoded, decoded <= dequeued, and at least as many as any one
 *     decoded client received.
 * With "corrupt" (the hostile camera, LV2_HOSTILE=corrupt_jpeg: every
 * frame whose sequence is 2 mod 5 is no JPEG), the decoded clients never
 * get such a frame and go on with the next ones; the MJPEG client gets the
 * broken bytes as the camera sent them; the server counts them undecodable.
 *
 *   server-mjpeg SERVER_BINARY [corrupt]
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <signal.h>
#include <unistd.h>

#include <libv4l2.h>
#include <libv4lconvert.h>

#include "vcam/vcam.h"
#include "../common/check.h"
#include "clientenv.h"
#include "pixfmt.h"

#define W 352
#define H 288
#define FRAMES 20
#define NJOBS 4
#define RGB_BOUND 2.0 /* mean |difference| per byte */

static int corrupt;
static struct v4lconvert_data *ref;

static void pix(struct v4l2_format *f, uint32_t fourcc)
{
	test_pix_fmt(f, fourcc, W, H);
}

/* src (len bytes, in sf) converted by the reference into a new buffer. */
static uint8_t *conv(const struct v4l2_format *sf, const uint8_t *src, int len,
		     uint32_t fourcc, int *out_len)
{
	struct v4l2_format s = *sf, d;
	uint8_t *out;

	pix(&d, fourcc);
	out = malloc(d.fmt.pix.sizeimage);
	*out_len = v4lconvert_convert(ref, &s, &d, (uint8_t *)src, len, out,
				      (int)d.fmt.pix.sizeimage);
	CHECK(*out_len == (int)d.fmt.pix.sizeimage, "%s",
	      v4lconvert_get_error_message(ref));
	return out;
}

/* The camera's JPEG for seq (the corrupt camera's when corrupt). */
static uint8_t *camera_jpeg(uint32_t seq, int *len)
{
	size_t size = (size_t)W * H * 3;
	uint8_t *jpg = malloc(size);

	*len = v4lc_vcam_render(V4L2_PIX_FMT_MJPEG, W, H, seq, jpg, size);
	CHECK(*len > 0);
	if (corrupt && seq % 5 == 2)
		jpg[0] = jpg[1] = 0;
	return jpg;
}

/* Checks one frame a client asking fourcc got; returns the mean |diff|
 * from the direct decode (RGB24). */
static double check_frame(uint32_t fourcc, uint32_t seq, const uint8_t *data,
			  size_t used)
{
	struct v4l2_format mj, yu;
	int jlen, n, n2;
	double mean = 0;
	uint8_t *jpg = camera_jpeg(seq, &jlen), *a, *b;

	if (fourcc == V4L2_PIX_FMT_MJPEG) {
		CHECK(used == (size_t)jlen && !memcmp(data, jpg, used),
		      "MJPEG frame %u is not the camera's", seq);
		free(jpg);
		return 0;
	}
	CHECK(!(corrupt && seq % 5 == 2), "corrupt frame %u delivered", seq);
	pix(&mj, V4L2_PIX_FMT_MJPEG);
	mj.fmt.pix.sizeimage = (uint32_t)jlen;
	a = conv(&mj, jpg, jlen, V4L2_PIX_FMT_YUV420, &n);
	if (fourcc == V4L2_PIX_FMT_RGB24) {
		pix(&yu, V4L2_PIX_FMT_YUV420);
		yu.fmt.pix.quantization = V4L2_QUANTIZATION_FULL_RANGE;
		b = conv(&yu, a, n, V4L2_PIX_FMT_RGB24, &n2);
		CHECK(used == (size_t)n2 && !memcmp(data, b, used),
		      "RGB24 frame %u is not YU12 -> RGB24", seq);
		free(b);
		free(a);
		a = conv(&mj, jpg, jlen, V4L2_PIX_FMT_RGB24, &n);
		CHECK(used == (size_t)n);
		for (size_t i = 0; i < used && i < (size_t)n; i++)
			mean += abs((int)data[i] - (int)a[i]);
		mean /= used ? (double)used : 1;
		CHECK(mean <= RGB_BOUND,
		      "frame %u: %.2f from the direct decode", seq, mean);
	} else {
		CHECK(used == (size_t)n && !memcmp(data, a, used),
		      "YUV420 frame %u is not the lone client's", seq);
	}
	free(a);
	free(jpg);
	return mean;
}

static int open_cam(void)
{
	char name[64], path[64], link[128];
	int fd;
	ssize_t n;

	snprintf(name, sizeof(name), "libv4l-vcam:MJPG:%dx%d", W, H);
	fd = memfd_create(name, MFD_CLOEXEC);
	CHECK(fd >= 0 && v4l2_fd_open(fd, 0) == fd);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, link, sizeof(link) - 1);
	link[n > 0 ? n : 0] = '\0';
	CHECK(!strncmp(link, "socket:", 7), "not shared: %s", link);
	return fd;
}

/* A client: streams fourcc, says 'r', waits for 'g', checks FRAMES. */
static int client(uint32_t fourcc, int ready, int go)
{
	struct v4l2_format f;
	struct v4l2_requestbuffers req = {
		.count = 4,
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_MMAP,
	};
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE, fd = open_cam();
	double worst = 0;
	void *maps[4];
	char c = 'r';

	ref = v4lconvert_create(-1);
	pix(&f, fourcc);
	CHECK(v4l2_ioctl(fd, VIDIOC_S_FMT, &f) == 0);
	CHECK(f.fmt.pix.pixelformat == fourcc && f.fmt.pix.width == W &&
	      f.fmt.pix.height == H);
	CHECK(v4l2_ioctl(fd, VIDIOC_REQBUFS, &req) == 0 && req.count == 4);
	for (unsigned i = 0; i < 4; i++) {
		struct v4l2_buffer b = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
					 .memory = V4L2_MEMORY_MMAP,
					 .index = i };

		CHECK(v4l2_ioctl(fd, VIDIOC_QUERYBUF, &b) == 0);
		maps[i] = v4l2_mmap(NULL, b.length, PROT_READ | PROT_WRITE,
				    MAP_SHARED, fd, b.m.offset);
		CHECK(maps[i] != MAP_FAILED);
		CHECK(v4l2_ioctl(fd, VIDIOC_QBUF, &b) == 0);
	}
	CHECK(v4l2_ioctl(fd, VIDIOC_STREAMON, &type) == 0);
	CHECK(write(ready, &c, 1) == 1);
	CHECK(read(go, &c, 1) == 1);
	for (int got = 0; got < FRAMES && !failures; got++) {
		struct v4l2_buffer b = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
					 .memory = V4L2_MEMORY_MMAP };
		double d;

		CHECK(v4l2_ioctl(fd, VIDIOC_DQBUF, &b) == 0, "%s",
		      strerror(errno));
		if (failures)
			break;
		d = check_frame(fourcc, b.sequence, maps[b.index], b.bytesused);
		worst = d > worst ? d : worst;
		CHECK(v4l2_ioctl(fd, VIDIOC_QBUF, &b) == 0);
	}
	CHECK(v4l2_ioctl(fd, VIDIOC_STREAMOFF, &type) == 0);
	printf("%.4s: %d frames checked (mean |diff| from the direct "
	       "decode %.3f at worst)\n",
	       (char *)&fourcc, FRAMES, worst);
	v4l2_close(fd);
	fflush(stdout); /* the child leaves by _exit */
	return failures ? 1 : 0;
}

/* The server's counts from its last "stream stopped" line in log. */
static void check_counts(const char *log)
{
	FILE *f = fopen(log, "r");
	char line[512];
	unsigned long long deq = 0, dec = 0, bad = 0;
	int found = 0;

	CHECK(f != NULL);
	while (f && fgets(line, sizeof(line), f)) {
		const char *p = strstr(line, "stream stopped: ");

		/* The server's own sanitizer reports land here too. */
		CHECK(!strstr(line, "Sanitizer") &&
			      !strstr(line, "runtime error"),
		      "server: %s", line);
		if (p && sscanf(p,
				"stream stopped: %llu frames dequeued, "
				"%llu decoded, %llu undecodable",
				&deq, &dec, &bad) == 3)
			found = 1;
	}
	if (f)
		fclose(f);
	CHECK(found, "no count from the server in %s", log);
	printf("server: %llu frames dequeued, %llu decoded, %llu "
	       "undecodable\n",
	       deq, dec, bad);
	/* Once per frame at most, for the three decoded clients. */
	CHECK(dec + bad <= deq);
	CHECK(dec >= FRAMES);
	CHECK(corrupt ? bad >= 1 : bad == 0);
}

int main(int argc, char **argv)
{
	static const uint32_t fmts[NJOBS] = {
		V4L2_PIX_FMT_MJPEG,
		V4L2_PIX_FMT_RGB24,
		V4L2_PIX_FMT_YUV420,
		V4L2_PIX_FMT_YUV420,
	};
	char dir[] = "/tmp/server-mjpeg-XXXXXX", log[96];
	int ready[2], go[2], status, fd;
	pid_t pid[NJOBS];

	if (argc < 2) {
		fprintf(stderr, "usage: server-mjpeg SERVER [corrupt]\n");
		return 2;
	}
	corrupt = argc > 2 && !strcmp(argv[2], "corrupt");
	CHECK(clientenv_setup(dir, argv[1], "300") == 0);
	setenv("LIBV4L2_FRAMESERVER_VERBOSE", "1", 1);
	if (corrupt)
		setenv("LV2_HOSTILE", "corrupt_jpeg", 1);
	/* The server a client starts writes its log to our stderr. */
	snprintf(log, sizeof(log), "%s/server.log", dir);
	fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	CHECK(fd >= 0 && dup2(fd, 2) == 2);
	CHECK(pipe(ready) == 0 && pipe(go) == 0);
	fflush(stdout);
	for (int i = 0; i < NJOBS; i++) {
		pid[i] = fork();
		if (pid[i] == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			_exit(client(fmts[i], ready[1], go[0]));
		}
	}
	for (int i = 0; i < NJOBS; i++) {
		char c;

		CHECK(read(ready[0], &c, 1) == 1);
	}
	for (int i = 0; i < NJOBS; i++)
		CHECK(write(go[1], "g", 1) == 1);
	for (int i = 0; i < NJOBS; i++) {
		CHECK(waitpid(pid[i], &status, 0) == pid[i]);
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "client %d (%.4s) failed", i, (const char *)&fmts[i]);
	}
	usleep(900 * 1000); /* the server idles out (its exit's reports) */
	check_counts(log);
	unlink(log);
	rmdir(dir);
	return failures ? 1 : 0;
}
