/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The backend of a device being opened (backend.h): every .so file in the
 * plugin directory exporting the data symbol `libv4l2_plugin` (the virtual
 * camera, src/vcam, is one: libv4l-vcam.so), in name order; the first
 * whose init(fd) returns non-NULL claims the device; otherwise the plain
 * system calls are used. Then, when the node so reached captures video,
 * the frame server's client takes it over if the node is shared.
 *
 * The plugin directory is compiled in (LIBV4L2_PLUGIN_DIR, under the
 * installation's libdir). The environment variable of the same name
 * replaces it (it is not searched in addition: a program run from the
 * build tree then sees exactly the build's plugins, and an empty
 * directory turns plugins off). A setuid or otherwise secure program
 * ignores the variable (secure_getenv): code is loaded only from the
 * compiled-in directory there.
 */
#include <dlfcn.h>
#include <glob.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "priv.h"

#ifndef LIBV4L2_PLUGIN_DIR
#define LIBV4L2_PLUGIN_DIR "/usr/lib/libv4l/plugins"
#endif

#include "private_api.h"
#include "testhook.h"

static const struct libv4l_dev_ops *test_ops;
static const char *builtin_dir = LIBV4L2_PLUGIN_DIR;

void lv2_test_set_plugin(const struct libv4l_dev_ops *ops)
{
	test_ops = ops;
}

void lv2_test_set_plugin_dir(const char *dir)
{
	builtin_dir = dir;
}

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

/*
 * The .so files of the plugin directory (its name's glob characters
 * escaped). 0, or glob's error.
 */
static int plugin_glob(glob_t *g)
{
	const char *dir = secure_getenv("LIBV4L2_PLUGIN_DIR");
	char pattern[4096];
	size_t n = 0;

	if (!dir || !*dir)
		dir = builtin_dir;
	for (; *dir && n + 2 < sizeof(pattern) - 5; dir++) {
		if (strchr("*?[\\", *dir))
			pattern[n++] = '\\';
		pattern[n++] = *dir;
	}
	if (*dir)
		return GLOB_NOMATCH; /* longer than any path */
	memcpy(pattern + n, "/*.so", 6);
	return glob(pattern, 0, NULL, g);
}

/* The first plugin module of the directory that claims the device. */
static void attach_module(struct lv2_dev *dev)
{
	glob_t g;

	if (plugin_glob(&g) != 0)
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

/*
 * Whether the node, asked through its own backend, captures video by
 * streaming: only such a node is shared. Programs that list cameras open
 * every node, metadata and output nodes too, and each would otherwise
 * start a server (seconds on a slow machine) that cannot serve it.
 */
static int streams_capture(struct lv2_dev *dev)
{
	struct v4l2_capability cap;
	uint32_t caps;

	memset(&cap, 0, sizeof(cap));
	if (dev->ops->ioctl(dev->priv, dev->fd, VIDIOC_QUERYCAP, &cap) < 0)
		return 0;
	caps = lv2_node_caps(&cap);
	return (caps & V4L2_CAP_VIDEO_CAPTURE) && (caps & V4L2_CAP_STREAMING);
}

/* The frame server's client in place of the backend found, when the node
 * is shared (its server runs, or LIBV4L2_SHARE=1 starts one). */
static void attach_share(struct lv2_dev *dev)
{
	void *priv;

	if ((dev->flags & LV2_OPEN_DIRECT) || !streams_capture(dev))
		return;
	priv = lv2_share_ops.init(dev->fd);
	if (!priv)
		return;
	lv2_plugin_detach(dev);
	dev->ops = &lv2_share_ops;
	dev->priv = priv;
}

void lv2_plugin_attach(struct lv2_dev *dev)
{
	dev->ops = &lv2_sys_ops;
	dev->priv = NULL;
	dev->plugin_handle = NULL;
	if (try_builtin(dev, test_ops))
		return;
	attach_module(dev);
	attach_share(dev);
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
