/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The backends libv4l2 talks to below its device table. Each device is
 * served by one set of device operations of the plugin ABI
 * (<libv4l-plugin.h>), chosen when it is opened (plugin.c):
 *   plugins         the .so files of LIBV4L2_PLUGIN_DIR (the virtual
 *                   camera, src/vcam, is one: libv4l-vcam.so);
 *   lv2_sys_ops     the system calls, when no plugin claimed the fd;
 *   lv2_share_ops   the frame server's client (src/v4l2/share/client.c):
 *                   it takes over from either when the node, asked
 *                   through it, captures video and is shared through
 *                   v4l2-frameserver (LIBV4L2_SHARE).
 * The share client keeps a shared device's buffers in a memfd of its own
 * (the application's fd is its frame socket, which cannot be mapped), so
 * mappings of such a device go through lv2_share_mmap.
 */
#ifndef LV2_BACKEND_H
#define LV2_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include <linux/videodev2.h>

#include <libv4l-plugin.h>

/* What the node itself can do: its device_caps where the driver reports
 * them (a driver of several nodes gives the union in capabilities). */
static inline uint32_t lv2_node_caps(const struct v4l2_capability *cap)
{
	return (cap->capabilities & V4L2_CAP_DEVICE_CAPS) ? cap->device_caps
							  : cap->capabilities;
}

/* sys.c: the plain system calls, never through libc (a preload shim wraps
 * libc's and forwards them to us). */
extern const struct libv4l_dev_ops lv2_sys_ops;
long lv2_sys_ioctl(int fd, unsigned long request, void *arg);
void *lv2_sys_mmap(void *start, size_t length, int prot, int flags, int fd,
		   int64_t offset);
int lv2_sys_munmap(void *start, size_t length);

/* src/v4l2/share/client.c: the frame server's client. */
extern const struct libv4l_dev_ops lv2_share_ops;
/* mmap of a shared device's buffers (m.offset from QUERYBUF). */
void *lv2_share_mmap(void *priv, void *start, size_t length, int prot,
		     int flags, int64_t offset);
/*
 * DQBUF of a shared device (arguments as VIDIOC_DQBUF) for libv4l2's
 * conversion: when the frame needs no copying into the buffer (the
 * server's frame in our format and layout, uncompressed), *frame points at
 * it in the server's read-only slot, which the server does not reuse until
 * lv2_share_frame_done; the buffer's memory is then left as it was. *frame
 * NULL: the frame was copied into the buffer, as by VIDIOC_DQBUF.
 */
int lv2_share_dqbuf(void *priv, struct v4l2_buffer *b, const uint8_t **frame);
void lv2_share_frame_done(void *priv);
/*
 * The device a share serves ("/dev/videoN" or "libv4l-vcam:SPEC"): what
 * another client (the autofocus daemon, autofocus.c) opens to join the
 * same server. 0, or -1 when it does not fit in size bytes.
 */
int lv2_share_device(void *priv, char *buf, size_t size);

/* log.c: a note for who asked: to the log file (LIBV4L2_LOG_FILENAME, or
 * the application's v4l2_log_file) when there is one, else to stderr when
 * to_stderr (a verbosity variable is set), else nowhere. */
void lv2_log_note(int to_stderr, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
