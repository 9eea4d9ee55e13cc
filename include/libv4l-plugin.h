/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Device operations through which libv4l2 and libv4lconvert reach a device.
 * The defaults are the plain system calls; a plugin (a shared object in the
 * libv4l plugin directory exporting `libv4l2_plugin`) may replace them.
 * The layout is ABI: it matches the original libv4l plugin interface.
 */
#ifndef __LIBV4L_PLUGIN_H
#define __LIBV4L_PLUGIN_H

#include <sys/types.h>

struct libv4l_dev_ops {
	/* Claim fd: return private data, or NULL to decline the device. */
	void *(*init)(int fd);
	void (*close)(void *dev_ops_priv);
	int (*ioctl)(void *dev_ops_priv, int fd, unsigned long int request,
		     void *arg);
	ssize_t (*read)(void *dev_ops_priv, int fd, void *buffer, size_t n);
	ssize_t (*write)(void *dev_ops_priv, int fd, const void *buffer,
			 size_t n);
	/* Reserved for later extensions: plugins must leave them NULL. */
	void (*reserved1)(void);
	void (*reserved2)(void);
	void (*reserved3)(void);
	void (*reserved4)(void);
	void (*reserved5)(void);
	void (*reserved6)(void);
	void (*reserved7)(void);
};

#endif
