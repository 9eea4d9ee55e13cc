/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Instance lifetime, device operations, errors and small accessors. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "jpeg/mjpeg.h"
#include "jpeg/pixart.h"
#include "priv.h"

/*
 * Raw system calls: when this library is loaded through an LD_PRELOAD shim
 * that wraps ioctl/read/write, going through libc would recurse into it.
 */
static int sys_ioctl(void *priv, int fd, unsigned long request, void *arg)
{
	(void)priv;
	return (int)syscall(SYS_ioctl, fd, request, arg);
}

static ssize_t sys_read(void *priv, int fd, void *buf, size_t n)
{
	(void)priv;
	return syscall(SYS_read, fd, buf, n);
}

static ssize_t sys_write(void *priv, int fd, const void *buf, size_t n)
{
	(void)priv;
	return syscall(SYS_write, fd, buf, n);
}

static const struct libv4l_dev_ops default_ops = {
	.ioctl = sys_ioctl,
	.read = sys_read,
	.write = sys_write,
};

LIBV4L_PUBLIC const struct libv4l_dev_ops *v4lconvert_get_default_dev_ops(void)
{
	return &default_ops;
}

int v4lc_dev_ioctl(struct v4lconvert_data *data, unsigned long request,
		   void *arg)
{
	return data->dev_ops->ioctl(data->dev_ops_priv, data->fd, request, arg);
}

int v4lc_error(struct v4lconvert_data *data, int err, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(data->error, sizeof(data->error), "v4l-convert: ");

	va_start(ap, fmt);
	vsnprintf(data->error + n, sizeof(data->error) - n, fmt, ap);
	va_end(ap);
	errno = err;
	return -1;
}

uint8_t *v4lc_scratch(struct v4lconvert_data *data, size_t size)
{
	if (size > data->scratch_size) {
		uint8_t *p = realloc(data->scratch, size);

		if (!p)
			return NULL;
		data->scratch = p;
		data->scratch_size = size;
	}
	return data->scratch;
}

uint8_t *v4lc_rows_scratch(struct v4lconvert_data *data, size_t size)
{
	if (size > data->rows_size) {
		uint8_t *p = realloc(data->rows, size);

		if (!p)
			return NULL;
		data->rows = p;
		data->rows_size = size;
	}
	return data->rows;
}

uint8_t *v4lc_decoded_scratch(struct v4lconvert_data *data, size_t size)
{
	if (size > data->decoded_size) {
		uint8_t *p = realloc(data->decoded, size);

		if (!p)
			return NULL;
		data->decoded = p;
		data->decoded_size = size;
	}
	return data->decoded;
}

LIBV4L_PUBLIC struct v4lconvert_data *
v4lconvert_create_with_dev_ops(int fd, void *dev_ops_priv,
			       const struct libv4l_dev_ops *dev_ops)
{
	struct v4lconvert_data *data = calloc(1, sizeof(*data));

	if (!data) {
		errno = ENOMEM;
		return NULL;
	}
	data->fd = fd;
	data->dev_ops = dev_ops ? dev_ops : &default_ops;
	data->dev_ops_priv = dev_ops_priv;
	data->dsp = v4lc_dsp_get();
	data->fps = V4LC_DEFAULT_FPS;
	v4lc_probe_device(data);
	v4lc_controls_init(data); /* needs the formats (all need conversion?) */
	return data;
}

LIBV4L_PUBLIC struct v4lconvert_data *v4lconvert_create(int fd)
{
	return v4lconvert_create_with_dev_ops(fd, NULL, &default_ops);
}

LIBV4L_PUBLIC void v4lconvert_destroy(struct v4lconvert_data *data)
{
	if (!data)
		return;
	v4lc_jpeg_free(data->jpeg);
	v4lc_pjpg_free(data->pjpg);
	v4lc_proc_free(data);
	v4lc_ctrlstore_close(data);
	free(data->scratch);
	free(data->rows);
	free(data->decoded);
	free(data->prev_frame);
	free(data);
}

LIBV4L_PUBLIC const char *
v4lconvert_get_error_message(struct v4lconvert_data *data)
{
	return data ? data->error : "";
}

LIBV4L_PUBLIC int v4lconvert_get_fps(struct v4lconvert_data *data)
{
	return data->fps;
}

LIBV4L_PUBLIC void v4lconvert_set_fps(struct v4lconvert_data *data, int fps)
{
	data->fps = fps > 0 ? fps : V4LC_DEFAULT_FPS;
}
