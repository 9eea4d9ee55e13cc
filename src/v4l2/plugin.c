/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The backend of a device being opened (backend.h): the frame server's
 * client first, then the virtual camera when linked in, then every .so
 * file in LIBV4L2_PLUGIN_DIR (a compiled-in directory, never from the
 * environment) exporting the data symbol `libv4l2_plugin`. The first whose
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

#ifdef LV2_TEST_HOOKS
#include "testhook.h"

static const struct libv4l_dev_ops *test_ops;

void lv2_test_set_plugin(const struct libv4l_dev_ops *ops)
{
	test_ops = ops;
}
#endif

static int usable(const struct libv4l_dev_ops *ops)
{
	return ops && ops->init && ops->close && ops->ioctl;
}

static int try_builtin(struct lv2_dev *dev, const struct libv4l_dev_ops *ops)
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

void lv2_plugin_attach(struct lv2_dev *dev)
{
	glob_t g;

	dev->ops = &lv2_sys_ops;
	dev->priv = NULL;
	dev->plugin_handle = NULL;
#ifdef LV2_TEST_HOOKS
	if (try_builtin(dev, test_ops))
		return;
#endif
	if (try_builtin(dev, &lv2_share_ops))
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

void lv2_plugin_detach(struct lv2_dev *dev)
{
	if (dev->ops != &lv2_sys_ops && dev->ops->close)
		dev->ops->close(dev->priv);
	if (dev->plugin_handle)
		dlclose(dev->plugin_handle);
	dev->ops = &lv2_sys_ops;
	dev->priv = NULL;
	dev->plugin_handle = NULL;
}
