/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Device operations tried before every other backend (backend.h), so a
 * test can put a scripted or wrapped device under the library. NULL (the
 * default) removes them. Hidden in libv4l2.so: only the tests, which link
 * libv4l2's objects statically (meson: libv4l2_test), can call it.
 */
#ifndef LV2_TESTHOOK_H
#define LV2_TESTHOOK_H

#include <libv4l-plugin.h>

void lv2_test_set_plugin(const struct libv4l_dev_ops *ops);

/* The plugin directory used when LIBV4L2_PLUGIN_DIR is not set, instead
 * of the one compiled in (a string that outlives every open). */
void lv2_test_set_plugin_dir(const char *dir);

#endif
