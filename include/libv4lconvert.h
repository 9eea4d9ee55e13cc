/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libv4lconvert: convert the pixel formats webcams produce into a few
 * formats every application understands (RGB24, BGR24, YUV420, YVU420),
 * with software flip, rotation, crop and image processing.
 *
 * Source and binary compatible with the original library of the same name.
 * One instance must not be used from several threads at once; distinct
 * instances are independent.
 */
#ifndef __LIBV4LCONVERT_H
#define __LIBV4LCONVERT_H

#include <sys/time.h>
#include <linux/ioctl.h>
#include <linux/types.h>
#include <linux/videodev2.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LIBV4L_PUBLIC __attribute__((visibility("default")))

struct libv4l_dev_ops;
struct v4lconvert_data;

/* The operations used when none are given: plain ioctl/read/write. */
LIBV4L_PUBLIC const struct libv4l_dev_ops *v4lconvert_get_default_dev_ops(void);

/* Create a converter for the device open at fd; NULL with errno on error. */
LIBV4L_PUBLIC struct v4lconvert_data *v4lconvert_create(int fd);
/* The same, reaching the device through dev_ops (a libv4l2 plugin). */
LIBV4L_PUBLIC struct v4lconvert_data *
v4lconvert_create_with_dev_ops(int fd, void *dev_ops_priv,
			       const struct libv4l_dev_ops *dev_ops);
LIBV4L_PUBLIC void v4lconvert_destroy(struct v4lconvert_data *data);

/*
 * Non-zero when only the destination formats may be offered to the
 * application, because flipping or processing is active for this device.
 */
LIBV4L_PUBLIC int
v4lconvert_supported_dst_fmt_only(struct v4lconvert_data *data);

/*
 * Like VIDIOC_TRY_FMT for dest_fmt, for native and emulated formats alike;
 * dest_fmt is adjusted to what can be delivered. When src_fmt is not NULL it
 * receives the format the device must be set to.
 */
LIBV4L_PUBLIC int v4lconvert_try_format(struct v4lconvert_data *data,
					struct v4l2_format *dest_fmt,
					struct v4l2_format *src_fmt);

/* Like VIDIOC_ENUM_FMT: native formats, then emulated ones (flagged). */
LIBV4L_PUBLIC int v4lconvert_enum_fmt(struct v4lconvert_data *data,
				      struct v4l2_fmtdesc *fmt);

/* Non-zero when frames in src_fmt must be converted to give dest_fmt. */
LIBV4L_PUBLIC int
v4lconvert_needs_conversion(struct v4lconvert_data *data,
			    const struct v4l2_format *src_fmt,
			    const struct v4l2_format *dest_fmt);

/*
 * Convert one frame: format conversion, then (when active) processing,
 * rotation, flip and crop. Call it once per frame: processing state advances
 * with every call. Returns the number of bytes written to dest, or -1 with
 * errno set (EAGAIN: corrupt frame, get the next one; EPIPE: short frame;
 * EINVAL: unsupported format; EFAULT: dest too small).
 */
LIBV4L_PUBLIC int v4lconvert_convert(struct v4lconvert_data *data,
				     const struct v4l2_format *src_fmt,
				     const struct v4l2_format *dest_fmt,
				     unsigned char *src, int src_size,
				     unsigned char *dest, int dest_size);

/* Text describing the last error of this instance. */
LIBV4L_PUBLIC const char *
v4lconvert_get_error_message(struct v4lconvert_data *data);

/* Like VIDIOC_ENUM_FRAMESIZES / ENUM_FRAMEINTERVALS, emulated formats too. */
LIBV4L_PUBLIC int v4lconvert_enum_framesizes(struct v4lconvert_data *data,
					     struct v4l2_frmsizeenum *frmsize);
LIBV4L_PUBLIC int
v4lconvert_enum_frameintervals(struct v4lconvert_data *data,
			       struct v4l2_frmivalenum *frmival);

/* Control ioctls, with the software-emulated controls merged in. */
LIBV4L_PUBLIC int v4lconvert_vidioc_queryctrl(struct v4lconvert_data *data,
					      void *arg);
LIBV4L_PUBLIC int v4lconvert_vidioc_g_ctrl(struct v4lconvert_data *data,
					   void *arg);
LIBV4L_PUBLIC int v4lconvert_vidioc_s_ctrl(struct v4lconvert_data *data,
					   void *arg);
LIBV4L_PUBLIC int v4lconvert_vidioc_g_ext_ctrls(struct v4lconvert_data *data,
						void *arg);
LIBV4L_PUBLIC int v4lconvert_vidioc_try_ext_ctrls(struct v4lconvert_data *data,
						  void *arg);
LIBV4L_PUBLIC int v4lconvert_vidioc_s_ext_ctrls(struct v4lconvert_data *data,
						void *arg);

/* Non-zero when pixelformat is one of the destination formats. */
LIBV4L_PUBLIC int v4lconvert_supported_dst_format(unsigned int pixelformat);

/* Frame rate used to choose a source format within the bus bandwidth. */
LIBV4L_PUBLIC int v4lconvert_get_fps(struct v4lconvert_data *data);
LIBV4L_PUBLIC void v4lconvert_set_fps(struct v4lconvert_data *data, int fps);

/* Set bytesperline and sizeimage of a destination format. */
LIBV4L_PUBLIC void v4lconvert_fixup_fmt(struct v4l2_format *fmt);

#ifdef __cplusplus
}
#endif

#endif
