/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Forwarded ioctls on the wire: the codes and the two layouts that differ
 * between ABIs (why: wire.h). */
#include <errno.h>
#include <string.h>
#include <linux/videodev2.h>

#include "proto.h"
#include "wire.h"

/* The wire layouts, fixed on every ABI. */
FS_LAYOUT(struct fs_wire_format, 208);
FS_AT(struct fs_wire_format, fmt, 8);
FS_LAYOUT(struct fs_wire_input, 80);
FS_AT(struct fs_wire_input, type, 36);
FS_AT(struct fs_wire_input, std, 48);
FS_AT(struct fs_wire_input, status, 56);
FS_AT(struct fs_wire_input, reserved, 64);

/*
 * The arguments that travel as they are: every field fixed-width, so the
 * same size and offsets on every ABI; a build whose ABI disagreed would
 * stop here rather than speak another protocol.
 */
FS_LAYOUT(struct v4l2_capability, 104);
FS_AT(struct v4l2_capability, device_caps, 88);
FS_LAYOUT(struct v4l2_fmtdesc, 64);
FS_AT(struct v4l2_fmtdesc, pixelformat, 44);
FS_LAYOUT(struct v4l2_frmsizeenum, 44);
FS_AT(struct v4l2_frmsizeenum, discrete, 12);
FS_AT(struct v4l2_frmsizeenum, reserved, 36);
FS_LAYOUT(struct v4l2_frmivalenum, 52);
FS_AT(struct v4l2_frmivalenum, discrete, 20);
FS_AT(struct v4l2_frmivalenum, reserved, 44);
FS_LAYOUT(struct v4l2_queryctrl, 68);
FS_AT(struct v4l2_queryctrl, default_value, 52);
FS_LAYOUT(struct v4l2_query_ext_ctrl, 232);
FS_AT(struct v4l2_query_ext_ctrl, minimum, 40);
FS_AT(struct v4l2_query_ext_ctrl, default_value, 64);
FS_AT(struct v4l2_query_ext_ctrl, flags, 72);
FS_AT(struct v4l2_query_ext_ctrl, dims, 88);
FS_LAYOUT(struct v4l2_querymenu, 44);
FS_AT(struct v4l2_querymenu, value, 8);
FS_AT(struct v4l2_querymenu, reserved, 40);
FS_LAYOUT(struct v4l2_control, 8);
FS_LAYOUT(struct v4l2_streamparm, 204);
FS_AT(struct v4l2_streamparm, parm, 4);
FS_LAYOUT(int, 4);
/* The largest argument, either form, fits a message. */
_Static_assert(sizeof(struct v4l2_query_ext_ctrl) <= FS_IOCTL_MAX, "arg");
/* The format's union: its bytes travel as they are. */
FS_LAYOUT(((struct v4l2_format *)0)->fmt, 200);

enum { SAME, FORMAT, INPUT };

/* clang-format off */
static const struct {
	unsigned long req;
	uint32_t size; /* on the wire */
	uint8_t kind;
} wire[FS_REQ_LIMIT] = {
	[FS_REQ_QUERYCAP]            = { VIDIOC_QUERYCAP, 104, SAME },
	[FS_REQ_ENUM_FMT]            = { VIDIOC_ENUM_FMT, 64, SAME },
	[FS_REQ_ENUM_FRAMESIZES]     = { VIDIOC_ENUM_FRAMESIZES, 44, SAME },
	[FS_REQ_ENUM_FRAMEINTERVALS] = { VIDIOC_ENUM_FRAMEINTERVALS, 52, SAME },
	[FS_REQ_ENUMINPUT]           = { VIDIOC_ENUMINPUT, 80, INPUT },
	[FS_REQ_G_INPUT]             = { VIDIOC_G_INPUT, 4, SAME },
	[FS_REQ_QUERYCTRL]           = { VIDIOC_QUERYCTRL, 68, SAME },
	[FS_REQ_QUERY_EXT_CTRL]      = { VIDIOC_QUERY_EXT_CTRL, 232, SAME },
	[FS_REQ_QUERYMENU]           = { VIDIOC_QUERYMENU, 44, SAME },
	[FS_REQ_G_CTRL]              = { VIDIOC_G_CTRL, 8, SAME },
	[FS_REQ_S_CTRL]              = { VIDIOC_S_CTRL, 8, SAME },
	[FS_REQ_TRY_FMT]             = { VIDIOC_TRY_FMT, 208, FORMAT },
	[FS_REQ_G_FMT]               = { VIDIOC_G_FMT, 208, FORMAT },
	[FS_REQ_G_PARM]              = { VIDIOC_G_PARM, 204, SAME },
	[FS_REQ_S_PARM]              = { VIDIOC_S_PARM, 204, SAME },
};
/* clang-format on */

uint32_t fs_wire_code(unsigned long req)
{
	for (uint32_t i = 1; i < FS_REQ_LIMIT; i++)
		if (wire[i].req == req)
			return i;
	return 0;
}

unsigned long fs_wire_native(uint32_t code)
{
	return code < FS_REQ_LIMIT ? wire[code].req : 0;
}

size_t fs_wire_size(uint32_t code)
{
	return code < FS_REQ_LIMIT ? wire[code].size : 0;
}

/* The overlay window holds pointers: never sent, never received. */
static int format_travels(uint32_t type)
{
	if (type == V4L2_BUF_TYPE_VIDEO_OVERLAY ||
	    type == V4L2_BUF_TYPE_VIDEO_OUTPUT_OVERLAY) {
		errno = EINVAL;
		return 0;
	}
	return 1;
}

static void input_pack(const struct v4l2_input *n, struct fs_wire_input *w)
{
	memset(w, 0, sizeof(*w));
	w->index = n->index;
	memcpy(w->name, n->name, sizeof(w->name));
	w->type = n->type;
	w->audioset = n->audioset;
	w->tuner = n->tuner;
	w->std = n->std;
	w->status = n->status;
	w->capabilities = n->capabilities;
	memcpy(w->reserved, n->reserved, sizeof(w->reserved));
}

static void input_unpack(const struct fs_wire_input *w, struct v4l2_input *n)
{
	memset(n, 0, sizeof(*n));
	n->index = w->index;
	memcpy(n->name, w->name, sizeof(n->name));
	n->type = w->type;
	n->audioset = w->audioset;
	n->tuner = w->tuner;
	n->std = w->std;
	n->status = w->status;
	n->capabilities = w->capabilities;
	memcpy(n->reserved, w->reserved, sizeof(n->reserved));
}

int fs_wire_pack(uint32_t code, const void *native, void *wire_arg)
{
	const struct v4l2_format *f = native;
	struct fs_wire_format *wf = wire_arg;

	switch (code < FS_REQ_LIMIT ? wire[code].kind : SAME) {
	case FORMAT:
		if (!format_travels(f->type))
			return -1;
		wf->type = f->type;
		wf->pad = 0;
		memcpy(wf->fmt, &f->fmt, sizeof(wf->fmt));
		return 0;
	case INPUT:
		input_pack(native, wire_arg);
		return 0;
	}
	memcpy(wire_arg, native, fs_wire_size(code));
	return 0;
}

int fs_wire_unpack(uint32_t code, const void *wire_arg, void *native)
{
	const struct fs_wire_format *wf = wire_arg;
	struct v4l2_format *f = native;

	switch (code < FS_REQ_LIMIT ? wire[code].kind : SAME) {
	case FORMAT:
		if (!format_travels(wf->type))
			return -1;
		f->type = wf->type;
		memcpy(&f->fmt, wf->fmt, sizeof(wf->fmt));
		return 0;
	case INPUT:
		input_unpack(wire_arg, native);
		return 0;
	}
	memcpy(native, wire_arg, fs_wire_size(code));
	return 0;
}
