/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* USB id and DMI strings of a camera, from sysfs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "quirks.h"

static int read_attr(const char *path, char *buf, size_t len)
{
	const char *prefix = secure_getenv("LIBV4LCONTROL_SYSFS_PREFIX");
	char full[512];
	FILE *f;
	size_t n;
	char *s;

	snprintf(full, sizeof(full), "%s%s", prefix ? prefix : "", path);
	f = fopen(full, "re");
	if (!f)
		return -1;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* BIOS strings come padded with spaces: trim both ends. */
	for (s = buf; *s == ' ' || *s == '\t'; s++)
		;
	memmove(buf, s, strlen(s) + 1);
	for (n = strlen(buf); n && strchr(" \t\r\n", buf[n - 1]); n--)
		buf[n - 1] = '\0';
	return 0;
}

/* The USB interface's modalias ("usb:vXXXXpXXXX..."), else old-style ids. */
static void read_usb_id(const char *dev, struct v4lc_hwinfo *hw)
{
	char path[160], buf[128];
	unsigned v, p;

	snprintf(path, sizeof(path), "%s/modalias", dev);
	if (!read_attr(path, buf, sizeof(buf)) &&
	    sscanf(buf, "usb:v%4xp%4x", &v, &p) == 2) {
		hw->vendor = v;
		hw->product = p;
		return;
	}
	snprintf(path, sizeof(path), "%s/../idVendor", dev);
	if (read_attr(path, buf, sizeof(buf)) || sscanf(buf, "%x", &v) != 1)
		return;
	snprintf(path, sizeof(path), "%s/../idProduct", dev);
	if (read_attr(path, buf, sizeof(buf)) || sscanf(buf, "%x", &p) != 1)
		return;
	hw->vendor = v;
	hw->product = p;
}

void v4lc_hwinfo_read(int fd, struct v4lc_hwinfo *hw)
{
	struct stat st;
	char dev[96], path[160];

	memset(hw, 0, sizeof(*hw));
	if (fd >= 0 && !fstat(fd, &st) && S_ISCHR(st.st_mode)) {
		snprintf(dev, sizeof(dev), "/sys/dev/char/%u:%u/device",
			 major(st.st_rdev), minor(st.st_rdev));
		read_usb_id(dev, hw);
	}
	for (int k = 0; k < V4LC_DMI_KEYS; k++) {
		snprintf(path, sizeof(path), "/sys/class/dmi/id/%s",
			 v4lc_dmi_names[k]);
		if (read_attr(path, hw->dmi[k], sizeof(hw->dmi[k]))) {
			snprintf(path, sizeof(path),
				 "/sys/devices/virtual/dmi/id/%s",
				 v4lc_dmi_names[k]);
			if (read_attr(path, hw->dmi[k], sizeof(hw->dmi[k])))
				hw->dmi[k][0] = '\0';
		}
	}
}
