/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* USB id and DMI strings of a camera, from sysfs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "priv.h"
#include "private_api.h"
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

/* The camera node's device number: the fd's own, or the one its backend
 * names (V4LC_IOCTL_DEVICE_RDEV). 0, or -1 when there is none. */
static int device_rdev(struct v4lconvert_data *data, dev_t *rdev)
{
	struct stat st;
	uint64_t n = 0;

	if (data->fd >= 0 && !fstat(data->fd, &st) && S_ISCHR(st.st_mode)) {
		*rdev = st.st_rdev;
		return 0;
	}
	if (v4lc_dev_ioctl(data, V4LC_IOCTL_DEVICE_RDEV, &n) || !n)
		return -1;
	*rdev = (dev_t)n;
	return 0;
}

void v4lc_hwinfo_read(struct v4lconvert_data *data, struct v4lc_hwinfo *hw)
{
	char dev[96], path[160];
	dev_t rdev;

	memset(hw, 0, sizeof(*hw));
	if (!device_rdev(data, &rdev)) {
		snprintf(dev, sizeof(dev), "/sys/dev/char/%u:%u/device",
			 major(rdev), minor(rdev));
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
