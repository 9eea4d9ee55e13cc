/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The distribution's libv4lconvert (Debian libv4lconvert0), loaded by
 * absolute path so that it never clashes with ours (same SONAME, same symbol
 * names): the peer of every differential test and benchmark.
 */
#ifndef V4LC_TEST_ORIGLIB_H
#define V4LC_TEST_ORIGLIB_H

#include <linux/videodev2.h>

/* Ours, with the original's layout; quoted so that no include path is needed. */
#include "../../include/libv4l-plugin.h"

struct v4lconvert_data;

struct origlib {
	void *handle;
	const char *path; /* the file loaded (or tried) */
	struct v4lconvert_data *(*create)(int fd);
	struct v4lconvert_data *(*create_with_dev_ops)(
		int fd, void *priv, const struct libv4l_dev_ops *ops);
	void (*destroy)(struct v4lconvert_data *data);
	int (*try_format)(struct v4lconvert_data *data,
			  struct v4l2_format *dest, struct v4l2_format *src);
	int (*enum_fmt)(struct v4lconvert_data *data, struct v4l2_fmtdesc *f);
	int (*convert)(struct v4lconvert_data *data,
		       const struct v4l2_format *src_fmt,
		       const struct v4l2_format *dest_fmt, unsigned char *src,
		       int src_size, unsigned char *dest, int dest_size);
	const char *(*get_error_message)(struct v4lconvert_data *data);
	int (*s_ctrl)(struct v4lconvert_data *data, void *arg);
	int (*g_ctrl)(struct v4lconvert_data *data, void *arg);
	/* The fake device of origlib_create_flip (its V4L2 bus_info). */
	char fake_bus[32];
};

/* The default path: /usr/lib/<multiarch>/libv4lconvert.so.0. */
extern const char origlib_default_path[];

/* Flags of origlib_open_path. */
enum {
	/*
	 * This process also has our libv4lconvert: only RTLD_DEEPBIND keeps
	 * the original's internal calls inside it, and AddressSanitizer
	 * refuses that flag, so a sanitized build then skips. Without this
	 * flag a sanitized build loads the original without RTLD_DEEPBIND.
	 */
	ORIGLIB_LINKED_WITH_OURS = 1,
	/* Print no reason on failure (benchmarks just say "n/a"). */
	ORIGLIB_QUIET = 2,
};

/*
 * Load the original from `path` (NULL: origlib_default_path). Returns 0;
 * -1 with a reason printed when it is not installed or cannot be isolated
 * from ours (tests then exit 77: skipped); -2 when it loaded but lacks one
 * of the functions above (a test may call that a failure).
 */
int origlib_open_path(struct origlib *o, const char *path, int flags);

/* origlib_open_path(o, NULL, linked_with_ours ? ORIGLIB_LINKED_WITH_OURS : 0) */
int origlib_open(struct origlib *o, int linked_with_ours);

/*
 * An instance of the original that needs no device: emulated controls are
 * switched off (LIBV4LCONTROL_CONTROLS=0), as on a plain capture device.
 */
struct v4lconvert_data *origlib_create_plain(struct origlib *o);

/*
 * origlib_open_path(o, NULL, flags), then origlib_create_plain: the
 * instance, or NULL with a reason printed (unless ORIGLIB_QUIET) and the
 * original unloaded.
 */
struct v4lconvert_data *origlib_open_plain(struct origlib *o, int flags);

/*
 * An instance whose only emulated controls are HFLIP and VFLIP (the only
 * way the original flips), with no quirk flags, on a fake capture device
 * that answers VIDIOC_QUERYCAP alone (bus_info unique to this process).
 * The original keeps the control values in a POSIX shm object named after
 * the device, shared by every such instance of this process; origlib_close
 * removes it. NULL on failure.
 */
struct v4lconvert_data *origlib_create_flip(struct origlib *o);

/*
 * Set both emulated flips of an origlib_create_flip instance and read them
 * back: 0, or -1 when a control cannot be set or does not hold its value.
 */
int origlib_set_flip(struct origlib *o, struct v4lconvert_data *data, int hflip,
		     int vflip);

/*
 * Unload (destroy the instances first) and remove the shm object of the
 * fake device when origlib_create_flip made one.
 */
void origlib_close(struct origlib *o);

#endif
