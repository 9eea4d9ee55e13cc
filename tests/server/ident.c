/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Which camera a node is, for the frame server's replug
 * (src/server/server_ident.c), on a fake sysfs
 * (LIBV4LCONTROL_SYSFS_PREFIX): a USB camera is found again under another
 * node name on the same port, or on another port by its serial number;
 * not on another port without a serial, not with another USB id, never
 * its metadata node (another index); a platform device by its path.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "server/server.h"
#include "../common/check.h"

static char root[] = "/tmp/v4l-ident-XXXXXX";

static void put(const char *rel, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "w");
	CHECK(f != NULL, "%s", path);
	if (f) {
		fprintf(f, "%s\n", text);
		fclose(f);
	}
}

static void run(const char *cmd)
{
	char line[1024];

	snprintf(line, sizeof(line), "cd %s && %s", root, cmd);
	CHECK(system(line) == 0, "%s", cmd);
}

/* A USB device at port (bus 1) with an interface 1.0, maybe a serial. */
static void usb_device(const char *port, const char *pid, const char *serial)
{
	char cmd[256], rel[128];

	snprintf(cmd, sizeof(cmd), "mkdir -p sys/devices/usb1/%s/%s:1.0", port,
		 port);
	run(cmd);
	snprintf(rel, sizeof(rel), "sys/devices/usb1/%s/idVendor", port);
	put(rel, "1209");
	snprintf(rel, sizeof(rel), "sys/devices/usb1/%s/idProduct", port);
	put(rel, pid);
	if (serial) {
		snprintf(rel, sizeof(rel), "sys/devices/usb1/%s/serial", port);
		put(rel, serial);
	}
}

/* Node name -> the device's directory (relative to sys/devices). */
static void node(const char *name, const char *dev, const char *index)
{
	char cmd[256], rel[128];

	snprintf(cmd, sizeof(cmd),
		 "rm -rf sys/class/video4linux/%s && "
		 "mkdir -p sys/class/video4linux/%s && "
		 "ln -s ../../../devices/%s sys/class/video4linux/%s/device",
		 name, name, dev, name);
	run(cmd);
	snprintf(rel, sizeof(rel), "sys/class/video4linux/%s/index", name);
	put(rel, index);
}

static void unplug(void)
{
	run("rm -rf sys/class/video4linux/* sys/devices/usb1/*");
}

static int found(const struct srv_ident *id, const char *want)
{
	char n[64] = "";
	int r = srv_ident_find(id, n, sizeof(n));

	return want ? r == 0 && !strcmp(n, want) : r < 0 && errno == ENODEV;
}

int main(void)
{
	struct srv_ident cam, meta, serial, plat;

	CHECK(mkdtemp(root) != NULL);
	setenv("LIBV4LCONTROL_SYSFS_PREFIX", root, 1);
	usb_device("1-1", "7601", NULL);
	node("video0", "usb1/1-1/1-1:1.0", "0");
	node("video1", "usb1/1-1/1-1:1.0", "1");
	CHECK(srv_ident_of("video0", &cam) == 0 && cam.usb &&
		      !strcmp(cam.ids, "1209:7601") &&
		      !strcmp(cam.port, "1-1") && !strcmp(cam.iface, "1.0") &&
		      !strcmp(cam.index, "0") && !cam.serial[0],
	      "ids %s port %s iface %s index %s", cam.ids, cam.port, cam.iface,
	      cam.index);
	CHECK(srv_ident_of("video1", &meta) == 0 &&
		      !srv_ident_same(&cam, &meta),
	      "the metadata node is another");
	CHECK(srv_ident_of("video9", &meta) < 0, "no such node");
	CHECK(found(&cam, "/dev/video0"), "found where it is");

	unplug(); /* back on the same port, as video2 and video3 */
	usb_device("1-1", "7601", NULL);
	node("video3", "usb1/1-1/1-1:1.0", "1");
	node("video2", "usb1/1-1/1-1:1.0", "0");
	CHECK(found(&cam, "/dev/video2"), "same port, another node");

	unplug(); /* another port, no serial: another camera maybe */
	usb_device("1-2", "7601", NULL);
	node("video0", "usb1/1-2/1-2:1.0", "0");
	CHECK(found(&cam, NULL), "another port without a serial");

	unplug(); /* another product on the same port */
	usb_device("1-1", "7602", NULL);
	node("video0", "usb1/1-1/1-1:1.0", "0");
	CHECK(found(&cam, NULL), "another USB id");

	unplug(); /* a serial number follows the camera to another port */
	usb_device("1-1", "7601", "SN42");
	node("video0", "usb1/1-1/1-1:1.0", "0");
	CHECK(srv_ident_of("video0", &serial) == 0 &&
	      !strcmp(serial.serial, "SN42"));
	unplug();
	usb_device("1-3", "7601", "SN42");
	node("video4", "usb1/1-3/1-3:1.0", "0");
	CHECK(found(&serial, "/dev/video4"), "same serial, another port");

	unplug();
	run("mkdir -p sys/devices/platform/vivid.0");
	node("video0", "platform/vivid.0", "0");
	CHECK(srv_ident_of("video0", &plat) == 0 && !plat.usb &&
	      strstr(plat.syspath, "platform/vivid.0"));
	CHECK(found(&plat, "/dev/video0"), "a platform device by its path");
	CHECK(!srv_ident_same(&plat, &cam), "USB and platform differ");

	run("cd / && rm -rf \"$LIBV4LCONTROL_SYSFS_PREFIX\"");
	printf("server-ident: %d checks, %d failures\n", check_count, failures);
	return failures != 0;
}
