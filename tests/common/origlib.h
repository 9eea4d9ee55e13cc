/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The distribution's libv4lconvert (Debian libv4lconvert0), loaded by
 * absolute path so that it never clashes with ours (same SONAME, same symbol
 * names): the peer of every differential test.
 */
#ifndef V4LC_TEST_ORIGLIB_H
#define V4LC_TEST_ORIGLIB_H

#include <libv4l-plugin.h>
#include <linux/videodev2.h>

struct v4lconvert_data;

struct origlib {
	void *handle;
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
};

/*
 * Load the original. Returns 0, or -1 with a reason printed when it is not
 * installed or cannot be isolated from ours (tests then exit 77: skipped).
 * `linked_with_ours` says whether this process also has our libv4lconvert:
 * then only RTLD_DEEPBIND keeps the original's internal calls inside it, and
 * AddressSanitizer refuses that flag.
 */
int origlib_open(struct origlib *o, int linked_with_ours);

/*
 * An instance of the original that needs no device: emulated controls are
 * switched off (LIBV4LCONTROL_CONTROLS=0), as on a plain capture device.
 */
struct v4lconvert_data *origlib_create_plain(struct origlib *o);

void origlib_close(struct origlib *o);

#endif
