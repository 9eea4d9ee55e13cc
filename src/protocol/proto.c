/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Frame server protocol helpers shared by the server and the client. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "proto.h"

/*
 * The wire layout is the same on every ABI (a 32-bit client talks to a
 * 64-bit server): fixed-size fields only, 64-bit ones at 8-byte offsets
 * (i386 aligns them to 4 only), no pointers. Compiled into every build.
 */
FS_LAYOUT(struct v4l2_pix_format, 48);
FS_LAYOUT(struct fs_hdr, 16);
FS_LAYOUT(struct fs_hello, 24);
FS_AT(struct fs_hello, pid, 20);
FS_LAYOUT(struct fs_ioctl, 280);
FS_AT(struct fs_ioctl, arg, 24);
FS_LAYOUT(struct fs_setfmt, 64);
FS_LAYOUT(struct fs_release, 24);
FS_AT(struct fs_release, gen, 20);
FS_LAYOUT(struct fs_frame, 120);
FS_AT(struct fs_frame, has_fd, 36);
FS_AT(struct fs_frame, map_size, 40);
FS_AT(struct fs_frame, ts_sec, 48);
FS_AT(struct fs_frame, ts_usec, 56);
FS_AT(struct fs_frame, server_ns, 64);
FS_AT(struct fs_frame, pix, 72);
FS_LAYOUT(struct fs_ctrl_event, 24);
FS_LAYOUT(struct fs_replug, 24);
FS_AT(struct fs_ctrl_event, value, 20);
FS_LAYOUT(struct fs_clients, 200);
FS_AT(struct fs_clients, cur, 152);

int fs_send(int sock, const void *msg, size_t len, int fd, int flags)
{
	struct iovec iov = { .iov_base = (void *)msg, .iov_len = len };
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	ssize_t n;

	if (fd >= 0) {
		struct cmsghdr *c;

		memset(&u, 0, sizeof(u));
		mh.msg_control = u.buf;
		mh.msg_controllen = sizeof(u.buf);
		c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof(int));
	}
	do
		n = sendmsg(sock, &mh, flags | MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -1;
	if ((size_t)n != len) {
		errno = EMSGSIZE;
		return -1;
	}
	return 0;
}

ssize_t fs_recv(int sock, void *buf, size_t size, int *fd, int flags)
{
	struct iovec iov = { .iov_base = buf, .iov_len = size };
	union {
		char buf[CMSG_SPACE(sizeof(int) * 4)];
		struct cmsghdr align;
	} u;
	struct msghdr mh = {
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = u.buf,
		.msg_controllen = sizeof(u.buf),
	};
	ssize_t n;

	*fd = -1;
	do
		n = recvmsg(sock, &mh, flags | MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -1;
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); c;
	     c = CMSG_NXTHDR(&mh, c)) {
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		size_t nfd = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (size_t i = 0; i < nfd; i++) {
			int f;

			memcpy(&f, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
			if (*fd < 0)
				*fd = f;
			else
				close(f); /* never more than one expected */
		}
	}
	if (mh.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) {
		if (*fd >= 0)
			close(*fd);
		*fd = -1;
		errno = EMSGSIZE;
		return -1;
	}
	return n;
}

int fs_socket_dir(char *buf, size_t size, int create)
{
	const char *run = secure_getenv("XDG_RUNTIME_DIR");
	struct stat st;
	int n;

	if (!run || run[0] != '/')
		return -ENOENT;
	n = snprintf(buf, size, "%s/libv4l", run);
	if (n < 0 || (size_t)n >= size)
		return -ENAMETOOLONG;
	if (create && mkdir(buf, 0700) < 0 && errno != EEXIST)
		return -errno;
	/* lstat: a symlink planted there is refused, not followed. */
	if (lstat(buf, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & 0777) != 0700)
		return -EPERM;
	return 0;
}

static void put_sanitized(char *dst, size_t size, const char *prefix,
			  const char *s)
{
	size_t n = strlen(prefix), len = strlen(s);
	uint32_t h = 2166136261u;

	memcpy(dst, prefix, n);
	for (size_t i = 0; i < len; i++)
		h = (h ^ (uint8_t)s[i]) * 16777619u;
	for (size_t i = 0; i < len && n + 1 < size - 10; i++) {
		char c = s[i];

		dst[n++] = ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			    (c >= '0' && c <= '9') || c == '-')
				   ? c
				   : '_';
	}
	/* A hash of the full text keeps truncated or sanitized names apart. */
	snprintf(dst + n, size - n, "-%08x", h);
}

int fs_device_key(const char *device, char *key, size_t size)
{
	static const char vcam[] = "libv4l-vcam";

	if (size < 48)
		return -ENAMETOOLONG;
	if (!strncmp(device, vcam, sizeof(vcam) - 1)) {
		put_sanitized(key, size > 64 ? 64 : size, "vcam-",
			      device + sizeof(vcam) - 1);
		return 0;
	}
	if (device[0] == '/') {
		char real[PATH_MAX];
		struct stat st;
		const char *base;

		if (!realpath(device, real) || stat(real, &st) < 0)
			return -errno;
		if (!S_ISCHR(st.st_mode))
			return -ENODEV;
		base = strrchr(real, '/') + 1;
		/* A plain node name is the key itself ("video0"), as the
		 * systemd units name it (v4l2-frameserver@video0.socket
		 * listens on $XDG_RUNTIME_DIR/libv4l/video0.sock); anything
		 * else is sanitized and hashed. */
		if (strlen(base) < 32 &&
		    strspn(base, "abcdefghijklmnopqrstuvwxyz"
				 "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") ==
			    strlen(base) &&
		    base[0]) {
			strcpy(key, base);
			return 0;
		}
		put_sanitized(key, size > 64 ? 64 : size, "", base);
		return 0;
	}
	return -EINVAL;
}

int fs_socket_path(const char *key, char *buf, size_t size)
{
	char dir[200];
	int r = fs_socket_dir(dir, sizeof(dir), 1), n;

	if (r)
		return r;
	n = snprintf(buf, size, "%s/%s.sock", dir, key);
	if (n < 0 || (size_t)n >= size)
		return -ENAMETOOLONG;
	return 0;
}

int fs_peer_allowed(uid_t peer_uid, uid_t self_uid)
{
	return peer_uid == self_uid;
}

int fs_check_peer(int sock)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);

	if (getsockopt(sock, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0)
		return -errno;
	if (len != sizeof(cred))
		return -EPERM;
	return fs_peer_allowed(cred.uid, geteuid()) ? 0 : -EPERM;
}
