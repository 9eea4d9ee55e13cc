/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A plugin that declines every device. Its other operations must then never
 * run: they abort, so a library that used a declining plugin fails the test.
 */
#include <stdlib.h>

#include "libv4l-plugin.h"

static void *decline(int fd)
{
	(void)fd;
	return NULL;
}

static void never_close(void *priv)
{
	(void)priv;
	abort();
}

static int never_ioctl(void *priv, int fd, unsigned long request, void *arg)
{
	(void)priv, (void)fd, (void)request, (void)arg;
	abort();
}

__attribute__((visibility("default")))
const struct libv4l_dev_ops libv4l2_plugin = {
	.init = decline,
	.close = never_close,
	.ioctl = never_ioctl,
};
