/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Frame server unit tests: the peer check (SO_PEERCRED decision and the
 * real check on a socketpair), the socket directory's safety checks, the
 * device keys, fd passing, and the client's nearest-neighbour resampler
 * against hand-computed pixels.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "protocol/proto.h"
#include "protocol/scale.h"
#include "../common/check.h"

static void test_peer(void)
{
	int sv[2];

	CHECK(fs_peer_allowed(1000, 1000));
	CHECK(!fs_peer_allowed(1001, 1000));
	CHECK(!fs_peer_allowed(0, 1000)); /* not even root */
	CHECK(!fs_peer_allowed(1000, 0));
	CHECK(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv) == 0);
	CHECK(fs_check_peer(sv[0]) == 0);
	close(sv[0]);
	close(sv[1]);
	/* Not a socket: an error, never "allowed". */
	{
		int fd = open("/dev/null", O_RDONLY);

		CHECK(fs_check_peer(fd) < 0);
		close(fd);
	}
}

static void test_dir(void)
{
	char tmp[] = "/tmp/fsunitXXXXXX", dir[256], path[256], sub[300];
	struct stat st;

	CHECK(mkdtemp(tmp) != NULL);
	unsetenv("XDG_RUNTIME_DIR");
	CHECK(fs_socket_dir(dir, sizeof(dir), 1) == -ENOENT);
	setenv("XDG_RUNTIME_DIR", "relative", 1);
	CHECK(fs_socket_dir(dir, sizeof(dir), 1) == -ENOENT);
	setenv("XDG_RUNTIME_DIR", tmp, 1);
	CHECK(fs_socket_dir(dir, sizeof(dir), 0) == -ENOENT);
	CHECK(fs_socket_dir(dir, sizeof(dir), 1) == 0);
	CHECK(stat(dir, &st) == 0 && (st.st_mode & 0777) == 0700);
	/* A directory someone else could enter is refused. */
	CHECK(chmod(dir, 0755) == 0);
	CHECK(fs_socket_dir(dir, sizeof(dir), 1) == -EPERM);
	CHECK(fs_socket_path("video0", path, sizeof(path)) == -EPERM);
	CHECK(rmdir(dir) == 0);
	/* A symlink planted in its place is refused, not followed. */
	snprintf(sub, sizeof(sub), "%s/elsewhere", tmp);
	CHECK(mkdir(sub, 0700) == 0);
	CHECK(symlink(sub, dir) == 0);
	CHECK(fs_socket_dir(dir, sizeof(dir), 1) == -EPERM);
	CHECK(unlink(dir) == 0);
	/* A file in its place too. */
	CHECK(close(open(dir, O_CREAT | O_WRONLY, 0600)) == 0);
	CHECK(fs_socket_dir(dir, sizeof(dir), 1) == -EPERM);
	CHECK(unlink(dir) == 0);
	CHECK(fs_socket_path("video0", path, sizeof(path)) == 0);
	snprintf(sub, sizeof(sub), "%s/libv4l/video0.sock", tmp);
	CHECK(!strcmp(path, sub));
	snprintf(sub, sizeof(sub), "rm -rf %s", tmp);
	CHECK(system(sub) == 0);
}

static void test_keys(void)
{
	char a[80], b[80];

	CHECK(fs_device_key("libv4l-vcam:YUYV:640x480", a, sizeof(a)) == 0);
	CHECK(!strncmp(a, "vcam-_YUYV_640x480-", 19));
	CHECK(fs_device_key("libv4l-vcam:YUYV_640x480", b, sizeof(b)) == 0);
	CHECK(strcmp(a, b) != 0); /* the hash keeps them apart */
	CHECK(!strchr(a, '/'));
	CHECK(fs_device_key("libv4l-vcam:../../x", a, sizeof(a)) == 0);
	CHECK(!strchr(a, '/') && !strstr(a, ".."));
	CHECK(fs_device_key("/dev/null", a, sizeof(a)) == 0); /* char dev */
	CHECK(!strcmp(a, "null")); /* plain node names: the name itself */
	{
		/* A node name with other characters: sanitized and hashed. */
		char dir[] = "/tmp/fskeyXXXXXX", link[64];

		CHECK(mkdtemp(dir) != NULL);
		snprintf(link, sizeof(link), "%s/my.cam", dir);
		CHECK(symlink("/dev/null", link) == 0);
		CHECK(fs_device_key(link, a, sizeof(a)) == 0);
		CHECK(!strcmp(a, "null")); /* the link is resolved */
		unlink(link);
		rmdir(dir);
	}
	CHECK(fs_device_key("/etc/passwd", a, sizeof(a)) == -ENODEV);
	CHECK(fs_device_key("video0", a, sizeof(a)) == -EINVAL);
}

static void test_fd_passing(void)
{
	int sv[2], mfd = memfd_create("t", MFD_ALLOW_SEALING), fd = -1;
	struct fs_hdr h = { .type = FS_FRAME }, r;
	void *w;

	CHECK(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv) == 0);
	CHECK(ftruncate(mfd, 4096) == 0);
	w = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);
	CHECK(w != MAP_FAILED);
	memset(w, 0x5a, 4096);
	CHECK(fcntl(mfd, F_ADD_SEALS,
		    F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_FUTURE_WRITE |
			    F_SEAL_SEAL) == 0);
	CHECK(fs_send(sv[0], &h, sizeof(h), mfd, 0) == 0);
	CHECK(fs_recv(sv[1], &r, sizeof(r), &fd, 0) == (ssize_t)sizeof(r));
	CHECK(fd >= 0 && r.type == FS_FRAME);
	/* The receiver can read but never write the sealed frame. */
	{
		uint8_t *ro = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);

		CHECK(ro != MAP_FAILED && ro[100] == 0x5a);
		errno = 0;
		CHECK(mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
			   0) == MAP_FAILED &&
		      errno == EPERM);
		CHECK(mprotect(ro, 4096, PROT_READ | PROT_WRITE) < 0);
		CHECK(pwrite(fd, "x", 1, 0) < 0);
		CHECK(ftruncate(fd, 0) < 0);
		CHECK(fcntl(fd, F_ADD_SEALS, 0) < 0 || 1);
		/* The server's own mapping still writes (slot reuse). */
		memset(w, 0x33, 4096);
		CHECK(ro[100] == 0x33);
		munmap(ro, 4096);
	}
	/* Too small a receive buffer: an error, and no fd leaks. */
	CHECK(fs_send(sv[0], &h, sizeof(h), mfd, 0) == 0);
	{
		char small[4];

		errno = 0;
		CHECK(fs_recv(sv[1], small, sizeof(small), &fd, 0) < 0 &&
		      errno == EMSGSIZE && fd == -1);
	}
	munmap(w, 4096);
	close(mfd);
	close(sv[0]);
	close(sv[1]);
}

static void test_scale(void)
{
	/* YUYV 8x2 -> 4x1: macropixels 0 and 2 of row 0. */
	uint8_t src[8 * 2 * 2], dst[4 * 2 + 8];
	struct v4l2_pix_format sp = {
		.width = 8, .height = 2, .pixelformat = V4L2_PIX_FMT_YUYV,
		.bytesperline = 16, .sizeimage = 32,
	}, dp = {
		.width = 4, .height = 1, .pixelformat = V4L2_PIX_FMT_YUYV,
		.bytesperline = 8, .sizeimage = 8,
	};

	for (int i = 0; i < 32; i++)
		src[i] = (uint8_t)i;
	CHECK(fs_scale_frame(src, &sp, 32, dst, &dp, sizeof(dst)) == 8);
	CHECK(!memcmp(dst, "\x00\x01\x02\x03\x08\x09\x0a\x0b", 8));
	/* Bayer 4x4 -> 2x2: the 2x2 phase is kept (pixels (0,0),(1,0),(0,1),(1,1)). */
	{
		uint8_t b[16], o[4];
		struct v4l2_pix_format s2 = {
			.width = 4, .height = 4,
			.pixelformat = V4L2_PIX_FMT_SBGGR8,
			.bytesperline = 4, .sizeimage = 16,
		}, d2 = {
			.width = 2, .height = 2,
			.pixelformat = V4L2_PIX_FMT_SBGGR8,
			.bytesperline = 2, .sizeimage = 4,
		};

		for (int i = 0; i < 16; i++)
			b[i] = (uint8_t)i;
		CHECK(fs_scale_frame(b, &s2, 16, o, &d2, 4) == 4);
		CHECK(o[0] == 0 && o[1] == 1 && o[2] == 4 && o[3] == 5);
	}
	/* RGB24 2x1 -> 4x1 (up): each pixel doubled. */
	{
		uint8_t s3[6] = { 1, 2, 3, 4, 5, 6 }, o[12];
		struct v4l2_pix_format a = {
			.width = 2, .height = 1,
			.pixelformat = V4L2_PIX_FMT_RGB24,
			.bytesperline = 6, .sizeimage = 6,
		}, d3 = {
			.width = 4, .height = 1,
			.pixelformat = V4L2_PIX_FMT_RGB24,
			.bytesperline = 12, .sizeimage = 12,
		};

		CHECK(fs_scale_frame(s3, &a, 6, o, &d3, 12) == 12);
		CHECK(!memcmp(o, "\1\2\3\1\2\3\4\5\6\4\5\6", 12));
		/* Destination too small, format mismatch: refused. */
		CHECK(fs_scale_frame(s3, &a, 6, o, &d3, 11) == -1);
		d3.pixelformat = V4L2_PIX_FMT_BGR24;
		CHECK(fs_scale_frame(s3, &a, 6, o, &d3, 12) == -1);
	}
	/* NV12 4x2 -> 2x2: Y by column 0,2; UV pair 0 only. */
	{
		uint8_t s4[12] = { 10, 11, 12, 13, 20, 21,
				   22, 23, 50, 51, 52, 53 },
			o[6];
		struct v4l2_pix_format a = {
			.width = 4, .height = 2,
			.pixelformat = V4L2_PIX_FMT_NV12,
			.bytesperline = 4, .sizeimage = 12,
		}, d4 = {
			.width = 2, .height = 2,
			.pixelformat = V4L2_PIX_FMT_NV12,
			.bytesperline = 2, .sizeimage = 6,
		};

		CHECK(fs_scale_frame(s4, &a, 12, o, &d4, 6) == 6);
		CHECK(!memcmp(o, "\x0a\x0c\x14\x16\x32\x33", 6));
	}
	/* MJPG: copied only at the same size. */
	{
		uint8_t j[5] = { 0xff, 0xd8, 1, 2, 3 }, o[16];
		struct v4l2_pix_format a = {
			.width = 16, .height = 16,
			.pixelformat = V4L2_PIX_FMT_MJPEG, .sizeimage = 16,
		}, d = a;

		CHECK(fs_scale_frame(j, &a, 5, o, &d, 16) == 5);
		d.width = 8;
		CHECK(fs_scale_frame(j, &a, 5, o, &d, 16) == -1);
	}
}

/*
 * A driver's padded stride with a sizeimage too short for it: the frame's
 * bytes end at a guard page, and neither the source rows beyond them nor
 * destination rows beyond dst_size may be touched (a refusal, -1).
 */
static void test_scale_extents(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	uint8_t *m = mmap(NULL, (size_t)pg * 4, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint8_t *src, *dst, *ok;
	struct v4l2_pix_format sp = {
		.width = 8, .height = 4, .pixelformat = V4L2_PIX_FMT_YUYV,
		.bytesperline = 64, .sizeimage = 64,
	}, dp = {
		.width = 4, .height = 2, .pixelformat = V4L2_PIX_FMT_YUYV,
		.bytesperline = 8, .sizeimage = 16,
	};

	CHECK(m != MAP_FAILED);
	if (m == MAP_FAILED)
		return;
	/* pages: [src] [guard] [dst] [guard] */
	mprotect(m + pg, (size_t)pg, PROT_NONE);
	mprotect(m + 3 * pg, (size_t)pg, PROT_NONE);
	src = m + pg - 64;
	dst = m + 3 * pg - 16;
	memset(src, 7, 64);
	/* 4 rows of 64 bytes said to fit in 64: refused. */
	CHECK(fs_scale_frame(src, &sp, 64, dst, &dp, 16) == -1);
	/* Same geometry: the shortcut copy is refused too. */
	dp = sp;
	CHECK(fs_scale_frame(src, &sp, 64, m + 2 * pg, &dp, (size_t)pg) == -1);
	/* A destination stride beyond dst_size, its sizeimage short. */
	sp.bytesperline = 16;
	dp.width = 4;
	dp.height = 2;
	dp.bytesperline = 64;
	dp.sizeimage = 16;
	CHECK(fs_scale_frame(src, &sp, 64, dst, &dp, 16) == -1);
	/* Planar 4:2:0: the chroma planes count (8x4: 32 + 2 * 8 bytes). */
	sp = (struct v4l2_pix_format){ .width = 8,
				       .height = 4,
				       .pixelformat = V4L2_PIX_FMT_YUV420,
				       .bytesperline = 8,
				       .sizeimage = 32 };
	dp = (struct v4l2_pix_format){ .width = 4,
				       .height = 2,
				       .pixelformat = V4L2_PIX_FMT_YUV420,
				       .bytesperline = 4,
				       .sizeimage = 12 };
	CHECK(fs_scale_frame(m + pg - 32, &sp, 32, dst, &dp, 16) == -1);
	/* Strides near 2^32 with a huge height: no wrap-around. */
	sp = (struct v4l2_pix_format){ .width = 8,
				       .height = 0x10000,
				       .pixelformat = V4L2_PIX_FMT_GREY,
				       .bytesperline = 0xffffffffu,
				       .sizeimage = 64 };
	dp = (struct v4l2_pix_format){ .width = 4,
				       .height = 2,
				       .pixelformat = V4L2_PIX_FMT_GREY,
				       .bytesperline = 4,
				       .sizeimage = 8 };
	CHECK(fs_scale_frame(src, &sp, 64, dst, &dp, 16) == -1);
	/* A correct padded frame still scales: 8x2 GREY, stride 32. */
	ok = m + pg - 64;
	for (int i = 0; i < 64; i++)
		ok[i] = (uint8_t)i;
	sp = (struct v4l2_pix_format){ .width = 8,
				       .height = 2,
				       .pixelformat = V4L2_PIX_FMT_GREY,
				       .bytesperline = 32,
				       .sizeimage = 64 };
	dp = (struct v4l2_pix_format){ .width = 4,
				       .height = 2,
				       .pixelformat = V4L2_PIX_FMT_GREY,
				       .bytesperline = 4,
				       .sizeimage = 8 };
	CHECK(fs_scale_frame(ok, &sp, 64, dst, &dp, 16) == 8);
	CHECK(!memcmp(dst, "\x00\x02\x04\x06\x20\x22\x24\x26", 8));
	/* The server's view of such a format: stride and size consistent. */
	sp = (struct v4l2_pix_format){ .width = 8,
				       .height = 4,
				       .pixelformat = V4L2_PIX_FMT_NV12,
				       .bytesperline = 2,
				       .sizeimage = 5 };
	fs_normalise_format(&sp);
	CHECK(sp.bytesperline == 8 && sp.sizeimage == 48);
	sp.bytesperline = 64;
	fs_normalise_format(&sp);
	CHECK(sp.bytesperline == 64 && sp.sizeimage == 64 * 6);
	munmap(m, (size_t)pg * 4);
}

int main(void)
{
	test_peer();
	test_dir();
	test_keys();
	test_fd_passing();
	test_scale();
	test_scale_extents();
	printf("%s\n", failures ? "FAILED" : "OK");
	return failures ? 1 : 0;
}
