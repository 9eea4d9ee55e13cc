/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The forwarded ioctls' wire form (src/protocol/wire.h), in whatever ABI
 * this build has (it runs natively and in the cross builds): every
 * request's argument packed then unpacked comes back equal, field by
 * field; the wire bytes sit at the offsets the protocol fixes (written
 * out here, not taken from wire.h); the codes are the protocol's; a
 * format holding pointers (overlay) is refused both ways.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/videodev2.h>

#include "protocol/proto.h"
#include "protocol/wire.h"
#include "../common/check.h"

static void fill(void *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		((uint8_t *)p)[i] = (uint8_t)(seed + i * 7u + 1u);
}

static uint32_t le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t le64(const uint8_t *p)
{
	return le32(p) | (uint64_t)le32(p + 4) << 32;
}

/* The codes and sizes are the protocol: a change needs a new version. */
static void test_codes(void)
{
	static const struct {
		unsigned long req;
		uint32_t code, size;
	} want[] = {
		{ VIDIOC_QUERYCAP, 1, 104 },
		{ VIDIOC_ENUM_FMT, 2, 64 },
		{ VIDIOC_ENUM_FRAMESIZES, 3, 44 },
		{ VIDIOC_ENUM_FRAMEINTERVALS, 4, 52 },
		{ VIDIOC_ENUMINPUT, 5, 80 },
		{ VIDIOC_G_INPUT, 6, 4 },
		{ VIDIOC_QUERYCTRL, 7, 68 },
		{ VIDIOC_QUERY_EXT_CTRL, 8, 232 },
		{ VIDIOC_QUERYMENU, 9, 44 },
		{ VIDIOC_G_CTRL, 10, 8 },
		{ VIDIOC_S_CTRL, 11, 8 },
		{ VIDIOC_TRY_FMT, 12, 208 },
		{ VIDIOC_G_FMT, 13, 208 },
		{ VIDIOC_G_PARM, 14, 204 },
		{ VIDIOC_S_PARM, 15, 204 },
	};
	/* Never forwarded: emulated by the client, or carrying pointers. */
	static const unsigned long never[] = {
		VIDIOC_S_FMT,         VIDIOC_G_EXT_CTRLS, VIDIOC_S_EXT_CTRLS,
		VIDIOC_TRY_EXT_CTRLS, VIDIOC_QBUF,        VIDIOC_DQBUF,
		VIDIOC_QUERYBUF,      VIDIOC_REQBUFS,     VIDIOC_S_INPUT,
		VIDIOC_G_STD,         VIDIOC_S_STD,       0,
	};

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		CHECK(fs_wire_code(want[i].req) == want[i].code, "req %zu", i);
		CHECK(fs_wire_native(want[i].code) == want[i].req, "code %u",
		      want[i].code);
		CHECK(fs_wire_size(want[i].code) == want[i].size, "code %u",
		      want[i].code);
		CHECK(want[i].size <= FS_IOCTL_MAX);
	}
	CHECK(FS_REQ_LIMIT == 16);
	for (size_t i = 0; i < sizeof(never) / sizeof(never[0]); i++)
		CHECK(fs_wire_code(never[i]) == 0, "req %#lx", never[i]);
	CHECK(fs_wire_native(0) == 0 && fs_wire_size(0) == 0);
	CHECK(fs_wire_native(FS_REQ_LIMIT) == 0);
	CHECK(fs_wire_size(FS_REQ_LIMIT) == 0);
	CHECK(fs_wire_native(0xffffffffu) == 0);
	CHECK(fs_wire_size(0xffffffffu) == 0);
}

static void test_format(void)
{
	static const uint32_t codes[] = { FS_REQ_G_FMT, FS_REQ_TRY_FMT };
	struct v4l2_format f, back;
	uint8_t w[FS_IOCTL_MAX];

	for (size_t c = 0; c < 2; c++) {
		memset(&f, 0, sizeof(f));
		fill(&f.fmt, sizeof(f.fmt), (unsigned)c);
		f.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		f.fmt.pix.width = 640;
		f.fmt.pix.height = 480;
		f.fmt.pix.pixelformat = V4L2_PIX_FMT_YUYV;
		f.fmt.pix.sizeimage = 614400;
		memset(w, 0xee, sizeof(w));
		CHECK(fs_wire_pack(codes[c], &f, w) == 0);
		CHECK(le32(w) == V4L2_BUF_TYPE_VIDEO_CAPTURE);
		CHECK(le32(w + 4) == 0); /* the padding, sent as zero */
		CHECK(le32(w + 8) == 640 && le32(w + 12) == 480);
		CHECK(le32(w + 16) == V4L2_PIX_FMT_YUYV);
		CHECK(le32(w + 28) == 614400);
		CHECK(!memcmp(w + 8, &f.fmt, 200));
		CHECK(w[208] == 0xee); /* nothing past the wire size */
		memset(&back, 0, sizeof(back));
		CHECK(fs_wire_unpack(codes[c], w, &back) == 0);
		CHECK(back.type == f.type);
		CHECK(!memcmp(&back.fmt, &f.fmt, sizeof(f.fmt)));
	}
}

/* Overlay formats (struct v4l2_window: pointers) never travel. */
static void test_overlay(void)
{
	static const uint32_t types[] = { V4L2_BUF_TYPE_VIDEO_OVERLAY,
					  V4L2_BUF_TYPE_VIDEO_OUTPUT_OVERLAY };
	struct v4l2_format f, back;
	uint8_t w[FS_IOCTL_MAX], w0[FS_IOCTL_MAX];

	for (size_t t = 0; t < 2; t++) {
		memset(&f, 0, sizeof(f));
		f.type = types[t];
		memset(w, 0x5a, sizeof(w));
		memcpy(w0, w, sizeof(w));
		errno = 0;
		CHECK(fs_wire_pack(FS_REQ_TRY_FMT, &f, w) == -1 &&
		      errno == EINVAL);
		CHECK(!memcmp(w, w0, sizeof(w)));
		w[0] = (uint8_t)types[t];
		w[1] = w[2] = w[3] = 0;
		memset(&back, 0x33, sizeof(back));
		errno = 0;
		CHECK(fs_wire_unpack(FS_REQ_G_FMT, w, &back) == -1 &&
		      errno == EINVAL);
		CHECK(back.type == 0x33333333u);
	}
}

static void test_input(void)
{
	struct v4l2_input in, back;
	uint8_t w[FS_IOCTL_MAX];

	memset(&in, 0, sizeof(in));
	in.index = 3;
	fill(in.name, sizeof(in.name), 9);
	in.type = V4L2_INPUT_TYPE_CAMERA;
	in.audioset = 0x11223344;
	in.tuner = 0x55667788;
	in.std = 0x0123456789abcdefull;
	in.status = V4L2_IN_ST_NO_SIGNAL;
	in.capabilities = V4L2_IN_CAP_STD;
	in.reserved[0] = 0xa1;
	in.reserved[1] = 0xa2;
	in.reserved[2] = 0xa3;
	memset(w, 0xee, sizeof(w));
	CHECK(fs_wire_pack(FS_REQ_ENUMINPUT, &in, w) == 0);
	CHECK(le32(w) == 3 && !memcmp(w + 4, in.name, 32));
	CHECK(le32(w + 36) == V4L2_INPUT_TYPE_CAMERA);
	CHECK(le32(w + 40) == 0x11223344 && le32(w + 44) == 0x55667788);
	CHECK(le64(w + 48) == 0x0123456789abcdefull);
	CHECK(le32(w + 56) == V4L2_IN_ST_NO_SIGNAL);
	CHECK(le32(w + 60) == V4L2_IN_CAP_STD);
	CHECK(le32(w + 64) == 0xa1 && le32(w + 68) == 0xa2 &&
	      le32(w + 72) == 0xa3);
	CHECK(le32(w + 76) == 0 && w[80] == 0xee);
	memset(&back, 0x77, sizeof(back));
	CHECK(fs_wire_unpack(FS_REQ_ENUMINPUT, w, &back) == 0);
	CHECK(back.index == in.index && back.type == in.type);
	CHECK(!memcmp(back.name, in.name, sizeof(in.name)));
	CHECK(back.audioset == in.audioset && back.tuner == in.tuner);
	CHECK(back.std == in.std && back.status == in.status);
	CHECK(back.capabilities == in.capabilities);
	CHECK(!memcmp(back.reserved, in.reserved, sizeof(in.reserved)));
}

/* The arguments laid out alike everywhere travel byte for byte. */
static void test_same(void)
{
	static const uint32_t codes[] = {
		FS_REQ_QUERYCAP,        FS_REQ_ENUM_FMT,
		FS_REQ_ENUM_FRAMESIZES, FS_REQ_ENUM_FRAMEINTERVALS,
		FS_REQ_G_INPUT,         FS_REQ_QUERYCTRL,
		FS_REQ_QUERY_EXT_CTRL,  FS_REQ_QUERYMENU,
		FS_REQ_G_CTRL,          FS_REQ_S_CTRL,
		FS_REQ_G_PARM,          FS_REQ_S_PARM,
	};
	uint8_t native[FS_IOCTL_MAX], back[FS_IOCTL_MAX], w[FS_IOCTL_MAX];

	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
		size_t n = fs_wire_size(codes[i]);

		CHECK(n == _IOC_SIZE(fs_wire_native(codes[i])), "code %u",
		      codes[i]);
		fill(native, sizeof(native), (unsigned)i);
		memset(w, 0xee, sizeof(w));
		CHECK(fs_wire_pack(codes[i], native, w) == 0);
		CHECK(!memcmp(w, native, n) && w[n] == 0xee, "code %u",
		      codes[i]);
		memset(back, 0, sizeof(back));
		CHECK(fs_wire_unpack(codes[i], w, back) == 0);
		CHECK(!memcmp(back, native, n) && back[n] == 0, "code %u",
		      codes[i]);
	}
	/* A 64-bit field of QUERY_EXT_CTRL where the wire has it. */
	{
		struct v4l2_query_ext_ctrl q = { .id = 7 };

		q.minimum = -2;
		q.default_value = 0x100000001ll;
		CHECK(fs_wire_pack(FS_REQ_QUERY_EXT_CTRL, &q, w) == 0);
		CHECK(le64(w + 40) == (uint64_t)-2);
		CHECK(le64(w + 64) == 0x100000001ull);
	}
}

int main(void)
{
	test_codes();
	test_format();
	test_overlay();
	test_input();
	test_same();
	printf("server-wire: %d failures\n", failures);
	return failures != 0;
}
