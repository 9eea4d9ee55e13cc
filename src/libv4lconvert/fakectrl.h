/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Between libv4l2 and libv4lconvert (no exported symbol for it): a
 * VIDIOC_QUERYCTRL through v4lconvert_vidioc_queryctrl with reserved[0] set
 * to this value asks about the emulated controls only: an exact id answers
 * only when it is emulated (EINVAL otherwise), V4L2_CTRL_FLAG_NEXT_CTRL gives
 * the next emulated control (EINVAL after the last). libv4l2 builds
 * VIDIOC_QUERY_EXT_CTRL and VIDIOC_QUERYMENU on it. Applications zero the
 * reserved fields, so they never send it.
 */
#ifndef V4LC_LIBV4LCONVERT_FAKECTRL_H
#define V4LC_LIBV4LCONVERT_FAKECTRL_H

#define V4LC_QUERYCTRL_FAKE_ONLY 0x4b41464bu /* "KFAK" */

#endif
