/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The multi-planar adapter plugin (mplane.c). */
#ifndef V4LC_PLUGINS_MPLANE_H
#define V4LC_PLUGINS_MPLANE_H

#include <libv4l-plugin.h>

#define V4LC_MPLANE_EXPORT __attribute__((visibility("default")))

/* The plugin's operations (the ABI symbol of libv4l-mplane.so). */
extern const struct libv4l_dev_ops libv4l2_plugin;

/*
 * Tests: the device operations below the adapter (init/close/ioctl
 * required). NULL, the default, means the plain system calls. Hidden in
 * the installed module.
 */
void v4lc_mplane_set_lower(const struct libv4l_dev_ops *ops);

#endif
