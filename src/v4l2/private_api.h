/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What libv4l2 gives the project's own programs beyond the public API.
 *
 * LV2_OPEN_DIRECT, a v4l2_fd_open flag: the device is used on this fd
 * itself, never through a frame server, whatever LIBV4L2_SHARE says and
 * whether or not a server runs for it. v4l2-frameserver opens the device
 * it serves so; without it the server's own libv4l2 would join the
 * server, that is itself. The original defines flags 0x01 and 0x02 and
 * ignores the others, so this bit stays far from them.
 *
 * The frame server's protocol (src/protocol) is exported in the version
 * node LIBV4L2_PRIVATE of libv4l2.map (api.h says why).
 */
#ifndef LV2_PRIVATE_API_H
#define LV2_PRIVATE_API_H

#define LV2_OPEN_DIRECT 0x40000000

#endif
