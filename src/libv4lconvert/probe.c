/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the device offers: formats, frame sizes, driver and bus bandwidth. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "priv.h"

int v4lc_native_index(const struct v4lconvert_data *data, uint32_t fourcc)
{
	for (int i = 0; i < data->n_native; i++)
		if (data->native[i].pixelformat == fourcc)
			return i;
	return -1;
}

static void add_framesize(struct v4lconvert_data *data, int fmt_index,
			  uint32_t width, uint32_t height)
{
	for (int i = 0; i < data->n_sizes; i++) {
		if (data->sizes[i].width == width &&
		    data->sizes[i].height == height) {
			v4lc_fmtset_add(&data->sizes[i].formats, fmt_index);
			return;
		}
	}
	if (data->n_sizes == V4LC_MAX_FRAMESIZES)
		return;
	data->sizes[data->n_sizes].width = width;
	data->sizes[data->n_sizes].height = height;
	memset(&data->sizes[data->n_sizes].formats, 0,
	       sizeof(data->sizes[data->n_sizes].formats));
	v4lc_fmtset_add(&data->sizes[data->n_sizes].formats, fmt_index);
	data->n_sizes++;
}

static void probe_framesizes(struct v4lconvert_data *data, int fmt_index)
{
	for (uint32_t i = 0; i < 256; i++) {
		struct v4l2_frmsizeenum fs = {
			.index = i,
			.pixel_format = data->native[fmt_index].pixelformat,
		};

		if (v4lc_dev_ioctl(data, VIDIOC_ENUM_FRAMESIZES, &fs))
			break;
		if (fs.type != V4L2_FRMSIZE_TYPE_DISCRETE)
			break; /* stepwise sizes are found through TRY_FMT */
		add_framesize(data, fmt_index, fs.discrete.width,
			      fs.discrete.height);
	}
}

void v4lc_probe_device(struct v4lconvert_data *data)
{
	struct v4l2_capability cap;
	int needs = 0, known = 0;

	memset(&cap, 0, sizeof(cap));
	if (v4lc_dev_ioctl(data, VIDIOC_QUERYCAP, &cap) == 0)
		memcpy(data->driver, cap.driver, sizeof(data->driver) - 1);

	for (uint32_t i = 0; i < V4LC_MAX_NATIVE_FORMATS; i++) {
		struct v4l2_fmtdesc *d = &data->native[data->n_native];
		const struct v4lc_format *src;

		memset(d, 0, sizeof(*d));
		d->index = i;
		d->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		if (v4lc_dev_ioctl(data, VIDIOC_ENUM_FMT, d))
			break;
		src = v4lc_format_find(d->pixelformat);
		if (src) {
			v4lc_fmtset_add(&data->convertible, data->n_native);
			known++;
			needs += src->needs_conversion;
		}
		probe_framesizes(data, data->n_native);
		data->n_native++;
	}
	data->all_need_conversion = known > 0 && needs == data->n_native;
	data->bandwidth = v4lc_bus_bandwidth(data->fd);
}

/* Read a small sysfs file under LIBV4LCONTROL_SYSFS_PREFIX (for tests). */
static int read_sysfs(const char *path, char *buf, size_t len)
{
	const char *prefix = secure_getenv("LIBV4LCONTROL_SYSFS_PREFIX");
	char full[512];
	ssize_t n;
	int fd;

	snprintf(full, sizeof(full), "%s%s", prefix ? prefix : "", path);
	fd = (int)syscall(SYS_openat, AT_FDCWD, full, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = syscall(SYS_read, fd, buf, len - 1);
	syscall(SYS_close, fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

unsigned int v4lc_bus_bandwidth(int fd)
{
	struct stat st;
	char path[128], buf[32];
	double mbps;

	if (fd < 0 || fstat(fd, &st) || !S_ISCHR(st.st_mode))
		return 0;
	snprintf(path, sizeof(path), "/sys/dev/char/%u:%u/device/../speed",
		 major(st.st_rdev), minor(st.st_rdev));
	if (read_sysfs(path, buf, sizeof(buf)))
		return 0;
	mbps = strtod(buf, NULL);
	/* Usable isochronous payload of the USB speeds webcams use. */
	if (mbps == 12)
		return 1023000;
	if (mbps == 480)
		return 3 * 1024 * 8000;
	if (mbps == 5000)
		return 48 * 1024 * 8000;
	return (unsigned int)(mbps * 1000000.0 / 20.0);
}
