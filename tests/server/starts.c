/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Which opens start a frame server, with LIBV4L2_SHARE=1. Programs that
 * list cameras (browsers do, again and again while a call starts) open
 * every /dev/video*, also the nodes that cannot capture (a UVC camera's
 * metadata node, an output node): each such open must not start a server,
 * whose start takes seconds on a slow machine, for a node it cannot serve.
 * And when starting the server of a node failed, opening that node again
 * soon after must not wait for another start.
 *
 * The server is run through a script that writes one line a start.
 *
 *   server-starts SERVER_BINARY
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libv4l2.h>
#include <linux/videodev2.h>

#include "../common/check.h"
#include "clientenv.h"

static char starts[300];

/* A server program that notes each start in `starts`, then runs `real`
 * (or fails at once when real is NULL). Its path, in dir. */
static const char *recording_server(const char *dir, const char *name,
				    const char *real)
{
	static char path[2][300];
	static int n;
	char *p = path[n++ & 1];
	FILE *f;

	snprintf(p, sizeof(path[0]), "%s/%s", dir, name);
	f = fopen(p, "w");
	if (!f)
		return NULL;
	fprintf(f, "#!/bin/sh\necho \"$*\" >> '%s'\n", starts);
	if (real)
		fprintf(f, "exec '%s' \"$@\"\n", real);
	else
		fprintf(f, "exit 1\n");
	fclose(f);
	return chmod(p, 0755) == 0 ? p : NULL;
}

static int count_starts(void)
{
	FILE *f = fopen(starts, "r");
	int n = 0, c;

	if (!f)
		return 0;
	while ((c = fgetc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

/* Opening a metadata node three times: direct, its own capabilities, no
 * server started. */
static void metadata_node(void)
{
	int before = count_starts();

	for (int i = 0; i < 3; i++) {
		struct v4l2_capability cap;
		int fd, r = clientenv_open("libv4l-vcam:YUYV:320x240:meta",
					   &fd);

		memset(&cap, 0, sizeof(cap));
		CHECK(r == 0, "open %d of the metadata node: direct (%d)", i,
		      r);
		CHECK(fd >= 0 && v4l2_ioctl(fd, VIDIOC_QUERYCAP, &cap) == 0 &&
			      (cap.device_caps & V4L2_CAP_META_CAPTURE) &&
			      !(cap.device_caps & V4L2_CAP_VIDEO_CAPTURE),
		      "open %d: the node's own QUERYCAP (caps %#x)", i,
		      cap.device_caps);
		if (fd >= 0)
			v4l2_close(fd);
	}
	CHECK(count_starts() == before,
	      "no server started for the metadata node (%d starts)",
	      count_starts() - before);
}

/* A server that cannot start: the first open tries, and opens directly;
 * the next open of the node does not try again. */
static void failed_start(const char *dir)
{
	const char *broken = recording_server(dir, "broken", NULL);
	const char *name = "libv4l-vcam:YUYV:160x120";
	int fd, r, first, before = count_starts();

	CHECK(broken != NULL, "broken server script");
	setenv("LIBV4L2_FRAMESERVER", broken ? broken : "/bin/false", 1);
	setenv("LIBV4L2_SHARE_TIMEOUT_MS", "1500", 1);
	r = clientenv_open(name, &fd);
	CHECK(r == 0, "first open with a broken server: direct (%d)", r);
	if (fd >= 0)
		v4l2_close(fd);
	first = count_starts() - before;
	CHECK(first >= 1, "the first open tried to start it (%d)", first);
	r = clientenv_open(name, &fd);
	CHECK(r == 0, "second open: direct (%d)", r);
	if (fd >= 0)
		v4l2_close(fd);
	CHECK(count_starts() - before == first,
	      "the second open started no server (%d starts more)",
	      count_starts() - before - first);
}

int main(int argc, char **argv)
{
	char dir[] = "/tmp/v4l-starts-XXXXXX";
	const char *server;
	int shared;

	if (argc != 2)
		return 2;
	CHECK(clientenv_setup(dir, argv[1], "2000") == 0, "runtime dir");
	snprintf(starts, sizeof(starts), "%s/starts", dir);
	server = recording_server(dir, "server", argv[1]);
	CHECK(server != NULL, "server script");
	setenv("LIBV4L2_FRAMESERVER", server ? server : argv[1], 1);

	/* The script counts: a capture node is shared, by one start. */
	shared = clientenv_open_shared("libv4l-vcam:YUYV:320x240");
	CHECK(shared >= 0 && count_starts() == 1,
	      "a capture node is shared, its server started once (%d)",
	      count_starts());
	metadata_node();
	if (shared >= 0)
		v4l2_close(shared);
	failed_start(dir);
	printf("server-starts: %d failures\n", failures);
	return failures != 0;
}
