/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Plugins: built-in ones first (the virtual camera when linked in), then
 * every .so file in LIBV4L2_PLUGIN_DIR (a compiled-in directory, never
 * from the environment) exporting the data symbol `libv4l2_plugin`. The first whose
 * init(fd) returns non-NULL claims the device; otherwise the plain system
 * calls are used.
 */
#include <dlfcn.h>
#include <glob.h>
#include <stddef.h>

#include "priv.h"

#ifndef LIBV4L2_PLUGIN_DIR
#define LIBV4L2_PLUGIN_DIR "/usr/lib/libv4l/plugins"
#endif

/* The virtual camera (src/vcam), when it is linked into this library. */
extern const struct libv4l_dev_ops v4lc_vcam_ops __attribute__((weak));
/* The frame server's client (src/server/client.c): claims capture devices,
 * before any other plugin, with LIBV4L2_SHARE=1 or, by default, when a
 * server already runs for the device. */
extern const struct libv4l_dev_ops v4lc_share_ops __attribute__((weak));

#ifdef V4L2_TEST_HOOKS
static const struct libv4l_dev_ops *test_ops;

void v4l2_test_set_plugin(const struct libv4l_dev_ops *ops)
{
	test_ops = ops;
}
#endif

static int usable(const struct libv4l_dev_ops *ops)
{
	return ops && ops->init && ops->close && ops->ioctl;
}

static int try_builtin(struct v4l2_dev *dev, const struct libv4l_dev_ops *ops)
{
	void *priv;

	if (!usable(ops))
		return 0;
	priv = ops->init(dev->fd);
	if (!priv)
		return 0;
	dev->ops = ops;
	dev->priv = priv;
	dev->plugin_handle = NULL;
	return 1;
}

void v4l2_plugin_attach(struct v4l2_dev *dev)
{
	glob_t g;

	dev->ops = &v4l2_sys_ops;
	dev->priv = NULL;
	dev->plugin_handle = NULL;
#ifdef V4L2_TEST_HOOKS
	if (try_builtin(dev, test_ops))
		return;
#endif
	if (&v4lc_share_ops && try_builtin(dev, &v4lc_share_ops))
		return;
	if (&v4lc_vcam_ops && try_builtin(dev, &v4lc_vcam_ops))
		return;

	if (glob(LIBV4L2_PLUGIN_DIR "/*.so", 0, NULL, &g) != 0)
		return;
	for (size_t i = 0; i < g.gl_pathc; i++) {
		void *h = dlopen(g.gl_pathv[i], RTLD_LAZY | RTLD_LOCAL);
		const struct libv4l_dev_ops *ops;

		if (!h)
			continue;
		ops = dlsym(h, "libv4l2_plugin");
		if (try_builtin(dev, ops)) {
			dev->plugin_handle = h;
			break;
		}
		dlclose(h);
	}
	globfree(&g);
}

void v4l2_plugin_detach(struct v4l2_dev *dev)
{
	if (dev->ops != &v4l2_sys_ops && dev->ops->close)
		dev->ops->close(dev->priv);
	if (dev->plugin_handle)
		dlclose(dev->plugin_handle);
	dev->ops = &v4l2_sys_ops;
	dev->priv = NULL;
	dev->plugin_handle = NULL;
}
