/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The virtual V4L2 capture camera: an in-process device for tests and for
 * the capture tool when no /dev/video* exists. It is a libv4l2 plugin in
 * the plugin ABI of <libv4l-plugin.h>: the module libv4l-vcam.so in
 * libv4l2's plugin directory (module.c exports `libv4l2_plugin`), which
 * reaches the kernels through libv4lconvert.so; tests also link the same
 * operations (`v4lc_vcam_ops`) into their program.
 *
 * Creating a camera:
 *     int fd = memfd_create("libv4l-vcam:MJPG:1280x720", MFD_CLOEXEC);
 *     v4l2_fd_open(fd, 0);
 * (or v4lc_vcam_name() to build the name). The ops' init(fd) claims the fd
 * only when readlink("/proc/self/fd/<fd>") is "/memfd:libv4l-vcam:..."
 * (a memfd of that name), else it returns NULL.
 *
 * The name after "libv4l-vcam:" is a colon-separated spec:
 *     FORMAT[,FORMAT...][:WxH][:flip=h|v|hv][:nopace][:still][:scene]
 *     [:lens[=POS]][:meta][:slow=MS]
 *   FORMAT  fourcc text, offered by ENUM_FMT in the order given; the first is
 *           the initial format. Known: YUYV YVYU UYVY VYUY YU12 YV12 NV12
 *           NV21 RGB3 BGR3 GREY BA81 (or BGGR) GBRG GRBG RGGB MJPG JPEG,
 *           and the chip formats (below): S501 S505 S508 CITV KONI S920
 *           CPIA O511 O518 (YUV 4:2:0), S910 P207 S680 SONX M310 905C
 *           S561 (Bayer), PJPG JL20 S401 JPGL (JPEG family). An empty
 *           spec ("libv4l-vcam:" or "libv4l-vcam") means YUYV 640x480.
 *   WxH     initial size (even, 16..4096 x 16..4096), also enumerated in
 *           addition to 320x240, 640x480 and 1280x720. Default 640x480.
 *           A chip format has its own sizes (its cameras' modes):
 *             S501 160x120 320x240 640x480;
 *             S505 160x120 176x144 320x240 352x288 640x480;
 *             S508, CITV, CPIA 160x120 176x144 320x240 352x288;
 *             KONI 160x120 320x240; S920 160x120 320x240 640x480 1280x1024;
 *             S910, SONX 160x120 320x240 640x480; P207 176x144 352x288;
 *             S680 160x120 176x144 320x240 352x288; M310 160x120 176x144
 *             320x240 352x288 640x480; 905C 320x240 640x480;
 *             S561 320x240 352x288;
 *             PJPG, S401 160x120 320x240 640x480; JL20 320x240 640x480;
 *             JPGL 320x240 352x288 640x480; O511 176x144 320x240
 *             352x288 640x480; O518 160x120 176x144 320x240 352x288
 *             640x480;
 *           a WxH given in the spec is added to them only where the
 *           chip's encoder takes it (S920: w % 16, h % 8; CPIA: w % 8,
 *           h % 4, at most 352x288; Bayer chips: w >= 8; PJPG: w % 16,
 *           h % 8; JL20: w % 16, h % 16; JPGL: w % 16, h % 4), and the
 *           initial size is the nearest offered one.
 *   flip=   the sensor is mounted mirrored (h), upside down (v) or rotated
 *           (hv): frames come out so transformed and ENUMINPUT reports
 *           V4L2_IN_ST_HFLIP / V4L2_IN_ST_VFLIP.
 *   nopace  never sleep in DQBUF (see below).
 *   still   each MMAP buffer is rendered the first time it is filled and
 *           then delivered as it is (for benchmarks of what runs on top
 *           of the camera: the camera then costs next to nothing).
 *   scene   the "scene" picture (below) instead of the bars, and MJPG/JPEG
 *           at quality 85: what a natural scene costs a JPEG decoder
 *           (for benchmarks: the bars' JPEG is unusually cheap).
 *   unplug=N the camera is unplugged after delivering N frames: every
 *           later call fails with ENODEV (fault injection), and opening
 *           the same spec again in this process finds no camera (the
 *           fd is declined, errno ENODEV), as an unplugged camera is
 *           not there for anyone.
 *   replug=MS with unplug=N: the camera is plugged back MS ms after its
 *           unplug: opening its spec then gives a new camera (sequence
 *           from 0, unplugged again after N frames) (src/vcam/replug.c).
 *   lens[=POS] a simulated focus lens (src/vcam/lens.h): FOCUS_ABSOLUTE
 *           moves a motor, frames blur with the distance from the
 *           in-focus position POS (default 300).
 *   meta    not a video capture node but the metadata node a UVC camera
 *           has beside it: QUERYCAP reports V4L2_CAP_META_CAPTURE |
 *           V4L2_CAP_STREAMING, and every other call fails with EINVAL
 *           (no video capture buffer type here), so that what opens
 *           every /dev/video* (browsers do) meets one.
 *   slow=MS S_CTRL, S_EXT_CTRLS, TRY_FMT and S_FMT take MS ms (0..60000)
 *           each, as a USB camera's control transfers can under load
 *           (fault injection). The wait comes before the call, outside
 *           the camera's lock: other threads' calls, DQBUF included,
 *           proceed meanwhile, as they do on a real driver.
 * An unknown token makes init() decline the fd.
 *
 * Buffers live in the memfd itself: REQBUFS (V4L2_MEMORY_MMAP) sizes it to
 * count * page-rounded sizeimage; QUERYBUF gives m.offset = index * that
 * stride, so mmap(fd, offset) maps a buffer. V4L2_MEMORY_USERPTR works too.
 * REQBUFS with count 0 empties the memfd, unless the process still maps it
 * (checked in /proc/self/maps): then, as the kernel orphans such buffers,
 * the file keeps its size so those mappings stay valid.
 * No READWRITE capability: read() and write() fail with EINVAL.
 *
 * Frames are made when DQBUF asks for one: the first queued buffer receives
 * the frame of the next sequence number (0 after each STREAMON). On a
 * blocking fd DQBUF sleeps until that frame is due by the frame interval
 * (unless "nopace"); on an O_NONBLOCK fd it never sleeps. DQBUF with no
 * buffer queued fails with EAGAIN on an O_NONBLOCK fd and EINVAL on a
 * blocking one (a real driver would block forever); when not streaming,
 * EINVAL. Other errors as vb2 drivers give them: EBUSY for REQBUFS while
 * streaming and for S_FMT changing format or size while buffers exist;
 * EINVAL for a wrong buffer type, memory type or index, a buffer queued
 * twice, a USERPTR buffer shorter than sizeimage, STREAMON without
 * buffers; ENOTTY for ioctls not served; EFAULT for a NULL argument.
 * Each DQBUF'd buffer has V4L2_BUF_FLAG_DONE, TIMESTAMP_MONOTONIC and
 * TSTAMP_SRC_EOF, field NONE, the sequence number and bytesused (the
 * JPEG size for MJPG/JPEG, sizeimage otherwise).
 *
 * Controls (QUERYCTRL, QUERY_EXT_CTRL, G/S_CTRL, G/S/TRY_EXT_CTRLS; values
 * are clamped to the range as the kernel does): V4L2_CID_BRIGHTNESS
 * (0..255, default 128) and
 * V4L2_CID_FOCUS_ABSOLUTE (0..1023, default 512); they are stored and
 * reported but do not change the picture, except focus with "lens".
 *
 * Picture: eight colour bars over the top three quarters, a grey ramp at
 * the bottom and a 1/8-height square whose position moves with the
 * sequence number (with "scene": smooth colour gradients with a fine grain
 * and sharp-edged patches, which move 4 pixels a frame); generated as RGB24 and converted per format (YUV with
 * BT.601 limited range, the V4L2 default; GREY full-range luma; Bayer by
 * sampling the RGB; MJPG/JPEG by libjpeg-turbo, 4:2:2, quality 80, with
 * the DHT segments removed as most webcams send them).
 *
 * Chip formats (pattern -> YU12 by the frame layer, or -> 8-bit Bayer by
 * sampling in the order the chip's decoder gives: BGGR for S910 P207 SONX
 * M310, GBRG for S561, RGGB for S680 905C JL20, or the RGB24 pattern
 * itself for PJPG S401 JPGL -> the chip's encoder, src/vcam/chipenc.h):
 * ENUM_FMT gives the
 * kernel's description and flags (V4L2_FMT_FLAG_COMPRESSED for all but
 * S501 S505 S508 CITV KONI S920 S680); G/S/TRY_FMT give bytesperline =
 * width as gspca does, and sizeimage w * h * 3 / 2 for the fixed layouts
 * S501 S505 S508 CITV KONI S920, the size of a CPIA frame without skips
 * (its largest) for CPIA, w * h for S680, the encoder's worst case (2
 * bytes a pixel and headers) for the other Bayer chips, 5 bytes a pixel
 * for S401 (13 bits a value at most), 3 bytes a pixel + 4096 for PJPG and
 * JL20 (far above what their quantizers give; a larger frame would be
 * delivered with V4L2_BUF_FLAG_ERROR), 3 bytes a pixel + 64 for JPGL (no
 * block codes to more than 253 bits). The Bayer encoders' free choices
 * are seeded by the sequence number; PJPG uses MCU marker 0x44 and chunk
 * code 1, JL20 quality 80, S401 one packet a row. CPIA frames never skip
 * pixels (so each frame decodes on its own); even sequence numbers are sent
 * uncompressed, odd ones in compressed mode; bytesused is the frame's size.
 */
#ifndef V4LC_VCAM_VCAM_H
#define V4LC_VCAM_VCAM_H

#include <stddef.h>
#include <stdint.h>

#include "libv4l-plugin.h"

#define V4LC_VCAM_PREFIX "libv4l-vcam"

/* The camera's device operations (ops.c). */
extern const struct libv4l_dev_ops v4lc_vcam_ops;

/* Flip flags of v4lc_vcam_render_flip (and of the "flip=" spec option). */
#define V4LC_VCAM_HFLIP 1u
#define V4LC_VCAM_VFLIP 2u

/*
 * Write the memfd name for a spec ("MJPG:1280x720", NULL or "" for the
 * default) into buf: "libv4l-vcam:<spec>". Returns 0, or -ENAMETOOLONG.
 */
int v4lc_vcam_name(char *buf, size_t size, const char *spec);

/* memfd_create() of that name with MFD_CLOEXEC; -1 and errno on failure. */
int v4lc_vcam_create(const char *spec);

/*
 * The exact raw frame the camera delivers for sequence number `seq` in
 * format `fourcc` at w x h (minimal bytesperline): writes it to dst and
 * returns the bytes used (for MJPG/JPEG/CPIA the compressed size), or -EINVAL
 * (unknown format or size), -ENOSPC (size too small), -ENOMEM, -EIO.
 */
int v4lc_vcam_render(uint32_t fourcc, int w, int h, uint32_t seq, uint8_t *dst,
		     size_t size);
/* The same for a camera created with flip= (V4LC_VCAM_HFLIP | VFLIP). */
int v4lc_vcam_render_flip(uint32_t fourcc, int w, int h, uint32_t seq,
			  unsigned flip, uint8_t *dst, size_t size);

/* Picture effects of the simulated lens ("lens" spec token, lens.h). */
struct v4lc_vcam_optics {
	int texture; /* the fine texture over the centre */
	int blur;    /* box-blur radius in 1/16 pixel, 0 = sharp */
};
/* The frame with those effects (o NULL: none, as v4lc_vcam_render_flip). */
int v4lc_vcam_render_optics(uint32_t fourcc, int w, int h, uint32_t seq,
			    unsigned flip, const struct v4lc_vcam_optics *o,
			    uint8_t *dst, size_t size);

/* bytesperline and sizeimage the camera reports (0 for unknown). */
uint32_t v4lc_vcam_bytesperline(uint32_t fourcc, int w);
uint32_t v4lc_vcam_sizeimage(uint32_t fourcc, int w, int h);

#endif
