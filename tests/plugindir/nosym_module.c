/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A shared object in the plugin directory that is no plugin: skipped. */
__attribute__((visibility("default"))) int libv4l_test_not_a_plugin = 1;
