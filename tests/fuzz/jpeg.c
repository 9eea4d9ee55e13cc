/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target: the MJPEG/JPEG path of v4lconvert_convert, through the
 * public API on a fake device. The input is a JPEG file behind an 8-byte
 * header; the target can strip its DHT segments (as most webcams send
 * MJPEG), truncate it, and take the frame size from its SOF header or from
 * the input (a driver whose format disagrees with the stream).
 *   0     destination: RGB3, BGR3, YU12, YV12 (modulo)
 *   1     flags: 1 strip DHT, 2 truncate, 4 fourcc JPEG (else MJPG),
 *         8 size from the header below (else from SOF), 16 hflip,
 *         32 vflip, 64 the rotated-JPEG quirk instance
 *   2..3  truncated length (little endian)
 *   4..5  width, 6..7 height (each modulo 2048)
 * Checks as tests/fuzz/convert.c.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/videodev2.h>

#include <libv4lconvert.h>

#include "../common/fakedev.h"

#define HDR 8

static const uint32_t dsts[] = {
	V4L2_PIX_FMT_RGB24,
	V4L2_PIX_FMT_BGR24,
	V4L2_PIX_FMT_YUV420,
	V4L2_PIX_FMT_YVU420,
};

static struct fakedev dev = {
	.driver = "fuzzjpeg",
	.n_formats = 1,
	.formats = { { V4L2_PIX_FMT_MJPEG, 1, { { 640, 480 } } } },
};
static struct v4lconvert_data *conv[2];

static struct v4lconvert_data *make(const char *flags)
{
	struct v4lconvert_data *c;

	setenv("LIBV4LCONTROL_CONTROLS", "0x3f", 1);
	setenv("LIBV4LCONTROL_FLAGS", flags, 1);
	c = v4lconvert_create_with_dev_ops(-1, &dev, &fakedev_ops);
	unsetenv("LIBV4LCONTROL_CONTROLS");
	unsetenv("LIBV4LCONTROL_FLAGS");
	if (!c)
		abort();
	return c;
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	conv[0] = make("0");
	conv[1] = make("4");
	return 0;
}

static uint32_t be16(const uint8_t *p)
{
	return (uint32_t)p[0] << 8 | p[1];
}

/* Copy of a JPEG without its DHT segments (up to SOS; the rest as is). */
static size_t strip_dht(const uint8_t *in, size_t n, uint8_t *out)
{
	size_t i = 0, o = 0;

	if (n >= 2 && in[0] == 0xff && in[1] == 0xd8) {
		out[o++] = in[i++];
		out[o++] = in[i++];
	}
	while (i + 4 <= n && in[i] == 0xff && in[i + 1] != 0xda) {
		size_t len = 2 + be16(in + i + 2);

		if (i + len > n)
			break;
		if (in[i + 1] != 0xc4) {
			memcpy(out + o, in + i, len);
			o += len;
		}
		i += len;
	}
	memcpy(out + o, in + i, n - i);
	return o + n - i;
}

/* Width and height from the first SOFn marker; 0 when none. */
static void sof_size(const uint8_t *p, size_t n, uint32_t *w, uint32_t *h)
{
	*w = *h = 0;
	for (size_t i = 0; i + 9 <= n; i++)
		if (p[i] == 0xff && p[i + 1] >= 0xc0 && p[i + 1] <= 0xc2) {
			*h = be16(p + i + 5);
			*w = be16(p + i + 7);
			return;
		}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct v4l2_format src = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_format dst;
	struct v4lconvert_data *c;
	struct v4l2_control ctl;
	uint8_t flags, *frame, *dest;
	size_t n, dest_size;
	uint32_t w, h;
	int ret, e;

	if (size < HDR)
		return 0;
	flags = data[1];
	c = conv[(flags >> 6) & 1];
	n = size - HDR;
	frame = malloc(n ? n : 1);
	if (!frame)
		abort();
	if (flags & 1)
		n = strip_dht(data + HDR, n, frame);
	else
		memcpy(frame, data + HDR, n);
	if ((flags & 2) && (data[2] | (size_t)data[3] << 8) < n)
		n = data[2] | (size_t)data[3] << 8;
	if (flags & 8) {
		w = (data[4] | (uint32_t)data[5] << 8) % 2048;
		h = (data[6] | (uint32_t)data[7] << 8) % 2048;
	} else {
		sof_size(frame, n, &w, &h);
		if (w > 2048 || h > 2048)
			w = h = 0;
	}
	/* the shrunken copy, exact size, so that ASan sees any over-read */
	{
		uint8_t *exact = malloc(n ? n : 1);

		if (!exact)
			abort();
		memcpy(exact, frame, n);
		free(frame);
		frame = exact;
	}

	src.fmt.pix.pixelformat =
		flags & 4 ? V4L2_PIX_FMT_JPEG : V4L2_PIX_FMT_MJPEG;
	src.fmt.pix.width = w;
	src.fmt.pix.height = h;
	src.fmt.pix.field = V4L2_FIELD_NONE;
	src.fmt.pix.sizeimage = (uint32_t)n;
	dst = src;
	dst.fmt.pix.pixelformat = dsts[data[0] % 4];
	v4lconvert_fixup_fmt(&dst);
	dest_size = dst.fmt.pix.sizeimage ? dst.fmt.pix.sizeimage : 1;
	dest = malloc(dest_size);
	if (!dest)
		abort();

	ctl.id = V4L2_CID_HFLIP;
	ctl.value = (flags >> 4) & 1;
	v4lconvert_vidioc_s_ctrl(c, &ctl);
	ctl.id = V4L2_CID_VFLIP;
	ctl.value = (flags >> 5) & 1;
	v4lconvert_vidioc_s_ctrl(c, &ctl);

	errno = 0;
	ret = v4lconvert_convert(c, &src, &dst, frame, (int)n, dest,
				 (int)dest_size);
	e = errno;
	if (ret < 0) {
		const char *msg = v4lconvert_get_error_message(c);

		if (ret != -1 ||
		    !(e == EINVAL || e == EFAULT || e == EPIPE || e == EAGAIN ||
		      e == EIO || e == ENOMEM || e == EOPNOTSUPP) ||
		    !msg || !msg[0]) {
			fprintf(stderr, "jpeg %ux%u: %d, errno %d\n", w, h, ret,
				e);
			abort();
		}
	} else if ((size_t)ret > dest_size) {
		fprintf(stderr, "jpeg returned %d > %zu\n", ret, dest_size);
		abort();
	}
	free(frame);
	free(dest);
	return 0;
}
