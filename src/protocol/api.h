/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The protocol's functions are compiled once (src/protocol/meson.build)
 * and exported by libv4l2.so in its private version node LIBV4L2_PRIVATE
 * (src/v4l2/libv4l2.map): v4l2-frameserver, v4l2-doctor and every program
 * of the tree that links libv4l2 call the one copy libv4l2 holds, so a
 * process never has two. Applications see these names in no installed
 * header.
 */
#ifndef V4L2_FRAMESERVER_API_H
#define V4L2_FRAMESERVER_API_H

#define FS_API __attribute__((visibility("default")))

#endif
