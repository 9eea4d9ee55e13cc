/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Which camera a video node is, in words that survive a replug: a USB
 * camera comes back with another device number and perhaps another node
 * name (/dev/video2 when something still held video0), but on the same
 * port with the same USB id, or anywhere with the same serial number.
 * Read from sysfs (LIBV4LCONTROL_SYSFS_PREFIX is put before every path,
 * for tests, as libv4lconvert's quirk probe does):
 *   /sys/class/video4linux/videoN/index   the node's index in its
 *        interface (a UVC camera's metadata node is another index);
 *   /sys/class/video4linux/videoN/device  the USB interface ("1-1.2:1.0")
 *        whose parent ("1-1.2": bus and port path) has idVendor,
 *        idProduct and, on some cameras, serial.
 * Not a USB camera: its device's sysfs path and the index (a platform or
 * PCI device comes back where it was).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server.h"

static const char *sysfs_prefix(void)
{
	const char *p = secure_getenv("LIBV4LCONTROL_SYSFS_PREFIX");

	return p ? p : "";
}

/* The first line of a small file, without its newline ("" if absent). */
static void read_line(const char *dir, const char *name, char *buf, size_t size)
{
	char path[PATH_MAX];
	FILE *f;

	buf[0] = '\0';
	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	    (int)sizeof(path))
		return;
	f = fopen(path, "re");
	if (!f)
		return;
	if (!fgets(buf, (int)size, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
}

/* The USB camera's words, from its interface's directory (iface). */
static int usb_ident(const char *iface, struct srv_ident *id)
{
	char parent[PATH_MAX], vid[8], pid[8];
	const char *base = strrchr(iface, '/'), *colon;
	char *slash;

	base = base ? base + 1 : iface;
	colon = strchr(base, ':');
	if (!colon || strlen(iface) >= sizeof(parent))
		return -1; /* not an interface: no USB camera */
	strcpy(parent, iface);
	slash = strrchr(parent, '/');
	if (!slash)
		return -1;
	*slash = '\0';
	read_line(parent, "idVendor", vid, sizeof(vid));
	read_line(parent, "idProduct", pid, sizeof(pid));
	if (!vid[0] || !pid[0])
		return -1;
	snprintf(id->ids, sizeof(id->ids), "%.4s:%.4s", vid, pid);
	snprintf(id->port, sizeof(id->port), "%.*s", (int)(colon - base), base);
	snprintf(id->iface, sizeof(id->iface), "%s", colon + 1);
	read_line(parent, "serial", id->serial, sizeof(id->serial));
	id->usb = 1;
	return 0;
}

int srv_ident_of(const char *name, struct srv_ident *id)
{
	char node[PATH_MAX], link[PATH_MAX], dev[PATH_MAX];

	memset(id, 0, sizeof(*id));
	if (strchr(name, '/') ||
	    snprintf(node, sizeof(node), "%s/sys/class/video4linux/%s",
		     sysfs_prefix(), name) >= (int)sizeof(node) ||
	    snprintf(link, sizeof(link), "%s/device", node) >=
		    (int)sizeof(link) ||
	    !realpath(link, dev))
		return -1;
	read_line(node, "index", id->index, sizeof(id->index));
	if (usb_ident(dev, id) < 0)
		snprintf(id->syspath, sizeof(id->syspath), "%.*s",
			 (int)sizeof(id->syspath) - 1, dev);
	id->valid = 1;
	return 0;
}

int srv_ident_same(const struct srv_ident *a, const struct srv_ident *b)
{
	if (!a->valid || !b->valid || a->usb != b->usb ||
	    strcmp(a->index, b->index))
		return 0;
	if (!a->usb)
		return !strcmp(a->syspath, b->syspath);
	if (strcmp(a->ids, b->ids) || strcmp(a->iface, b->iface))
		return 0;
	return !strcmp(a->port, b->port) ||
	       (a->serial[0] && !strcmp(a->serial, b->serial));
}

int srv_ident_find(const struct srv_ident *want, char *node, size_t size)
{
	char dir[PATH_MAX];
	struct dirent *e;
	DIR *d;
	int found = -1;

	snprintf(dir, sizeof(dir), "%s/sys/class/video4linux", sysfs_prefix());
	d = opendir(dir);
	if (!d)
		return -1;
	while (found < 0 && (e = readdir(d))) {
		struct srv_ident id;

		if (strncmp(e->d_name, "video", 5) ||
		    srv_ident_of(e->d_name, &id) < 0 ||
		    !srv_ident_same(want, &id))
			continue;
		if (snprintf(node, size, "/dev/%s", e->d_name) < (int)size)
			found = 0;
	}
	closedir(d);
	if (found < 0)
		errno = ENODEV;
	return found;
}
