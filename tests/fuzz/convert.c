/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target: v4lconvert_convert on every source format, through the
 * public API on a fake device (tests/common/fakedev.c).
 *
 * Input: a 16-byte header, then the frame.
 *   0     source fourcc: index into fuzz_fourccs (fourccs.h), modulo
 *   1     destination: index into dsts[] below, modulo
 *   2..3  width  (little endian)
 *   4..5  height
 *   6..9  bytesperline (any value: overflow checks)
 *   10    flags: 1 hflip, 2 vflip, 4 huge width/height (x 65537),
 *         8 white balance, 16 gamma 1500, 32 the rotated-JPEG quirk
 *         instance, 64 colorspace Rec.709 / full range, 128 bytes 11
 *         and 12 give the destination size (x 8 + 8) instead
 *   11,12 destination width/height change (signed: crop or border)
 *   13    destination bytesperline extra
 *   14,15 destination buffer size reduction (little endian)
 * Checks: no sanitizer report; the result is -1 with one of the errno
 * values the API documents and a non-empty error message, or a byte count
 * no larger than the destination buffer.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/videodev2.h>

#include <libv4lconvert.h>

#include "../common/fakedev.h"
#include "fourccs.h"

#define HDR 16
#define DEST_CAP (8u << 20) /* largest destination buffer handed out */

static const uint32_t dsts[] = {
	V4L2_PIX_FMT_RGB24,  V4L2_PIX_FMT_BGR24, V4L2_PIX_FMT_YUV420,
	V4L2_PIX_FMT_YVU420, V4L2_PIX_FMT_YUYV,  V4L2_PIX_FMT_YVYU,
	V4L2_PIX_FMT_UYVY,   V4L2_PIX_FMT_VYUY,  V4L2_PIX_FMT_NV12,
	V4L2_PIX_FMT_GREY,
};

static struct fakedev dev = {
	.driver = "fuzzdev",
	.n_formats = 2,
	.formats = {
		{ V4L2_PIX_FMT_YUYV, 1, { { 640, 480 } } },
		{ V4L2_PIX_FMT_MJPEG, 1, { { 640, 480 } } },
	},
	.n_ctrls = 2,
	.ctrl_ids = { V4L2_CID_EXPOSURE, V4L2_CID_GAIN },
	.ctrl_values = { 100, 100 },
};
static struct v4lconvert_data *conv[2];

static struct v4lconvert_data *make(const char *flags)
{
	struct v4lconvert_data *c;

	/* every emulated control, so that flips and processing can be set */
	setenv("LIBV4LCONTROL_CONTROLS", "0x3f", 1);
	setenv("LIBV4LCONTROL_FLAGS", flags, 1);
	c = v4lconvert_create_with_dev_ops(-1, &dev, &fakedev_ops);
	unsetenv("LIBV4LCONTROL_CONTROLS");
	unsetenv("LIBV4LCONTROL_FLAGS");
	if (!c) {
		fprintf(stderr, "v4lconvert_create_with_dev_ops failed\n");
		abort();
	}
	return c;
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	conv[0] = make("0");
	conv[1] = make("4"); /* ROTATED_90_JPEG */
	return 0;
}

static void set_ctrl(struct v4lconvert_data *c, uint32_t id, int32_t value)
{
	struct v4l2_control ctl = { .id = id, .value = value };

	v4lconvert_vidioc_s_ctrl(c, &ctl);
}

static uint32_t le16(const uint8_t *p)
{
	return p[0] | (uint32_t)p[1] << 8;
}

static uint32_t le32(const uint8_t *p)
{
	return le16(p) | le16(p + 2) << 16;
}

static int allowed_errno(int e)
{
	return e == EINVAL || e == EFAULT || e == EPIPE || e == EAGAIN ||
	       e == EIO || e == ENOMEM || e == EOPNOTSUPP || e == ERANGE;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct v4l2_format src = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_format dst;
	struct v4lconvert_data *c;
	uint8_t flags, *frame, *dest;
	uint32_t w, h;
	int64_t dw, dh;
	size_t frame_size, dest_size;
	int ret, e;

	if (size < HDR)
		return 0;
	flags = data[10];
	c = conv[(flags >> 5) & 1];
	w = le16(data + 2);
	h = le16(data + 4);
	if (flags & 4) {
		w *= 65537u;
		h *= 65537u;
	}
	src.fmt.pix.pixelformat = fuzz_fourccs[data[0] % FUZZ_N_FOURCCS];
	src.fmt.pix.width = w;
	src.fmt.pix.height = h;
	src.fmt.pix.bytesperline = le32(data + 6);
	src.fmt.pix.field = V4L2_FIELD_NONE;
	if (flags & 64) {
		src.fmt.pix.colorspace = V4L2_COLORSPACE_REC709;
		src.fmt.pix.quantization = V4L2_QUANTIZATION_FULL_RANGE;
	} else {
		src.fmt.pix.colorspace = V4L2_COLORSPACE_SMPTE170M;
	}

	dst = src;
	dst.fmt.pix.pixelformat =
		dsts[data[1] % (sizeof(dsts) / sizeof(dsts[0]))];
	dw = (int64_t)w + (int8_t)data[11];
	dh = (int64_t)h + (int8_t)data[12];
	if (flags & 128) {
		/* a small destination whatever the source: crop, 2x reduce */
		dw = (int64_t)(data[11] & 0x7f) * 8 + 8;
		dh = (int64_t)(data[12] & 0x7f) * 8 + 8;
	}
	dst.fmt.pix.width = dw < 0            ? 0
			    : dw > UINT32_MAX ? UINT32_MAX
					      : (uint32_t)dw;
	dst.fmt.pix.height = dh < 0            ? 0
			     : dh > UINT32_MAX ? UINT32_MAX
					       : (uint32_t)dh;
	dst.fmt.pix.bytesperline = 0;
	dst.fmt.pix.sizeimage = 0;
	v4lconvert_fixup_fmt(&dst);
	if (data[13] && dst.fmt.pix.bytesperline)
		dst.fmt.pix.bytesperline += data[13];

	/* The destination buffer: what fixup asked for, capped, made short. */
	dest_size = dst.fmt.pix.sizeimage;
	if (!dest_size || dest_size > DEST_CAP)
		dest_size = DEST_CAP;
	if (dest_size >= le16(data + 14))
		dest_size -= le16(data + 14);

	set_ctrl(c, V4L2_CID_HFLIP, flags & 1);
	set_ctrl(c, V4L2_CID_VFLIP, (flags >> 1) & 1);
	set_ctrl(c, V4L2_CID_AUTO_WHITE_BALANCE, (flags >> 3) & 1);
	set_ctrl(c, V4L2_CID_GAMMA, flags & 16 ? 1500 : 1000);

	/* Exact-size copies: ASan sees a byte read or written past either. */
	frame_size = size - HDR;
	frame = malloc(frame_size ? frame_size : 1);
	dest = malloc(dest_size ? dest_size : 1);
	if (!frame || !dest)
		abort();
	memcpy(frame, data + HDR, frame_size);

	errno = 0;
	ret = v4lconvert_convert(c, &src, &dst, frame, (int)frame_size, dest,
				 (int)dest_size);
	e = errno;
	if (ret < 0) {
		const char *msg = v4lconvert_get_error_message(c);

		if (ret != -1 || !allowed_errno(e)) {
			fprintf(stderr, "convert %.4s -> %.4s: %d, errno %d\n",
				(const char *)&src.fmt.pix.pixelformat,
				(const char *)&dst.fmt.pix.pixelformat, ret, e);
			abort();
		}
		if (!msg || !msg[0]) {
			fprintf(stderr, "convert failed without a message\n");
			abort();
		}
	} else if ((size_t)ret > dest_size) {
		fprintf(stderr, "convert returned %d > %zu\n", ret, dest_size);
		abort();
	}
	free(frame);
	free(dest);
	return 0;
}
