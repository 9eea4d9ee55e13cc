/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The test variant of libv4l2 (meson: libv4l2_test, built with
 * LV2_TEST_HOOKS, never installed) takes device operations that are tried
 * before every other backend (backend.h), so a test can put a scripted or
 * wrapped device under the library. NULL removes them.
 */
#ifndef LV2_TESTHOOK_H
#define LV2_TESTHOOK_H

#include <libv4l-plugin.h>

void lv2_test_set_plugin(const struct libv4l_dev_ops *ops);

#endif
