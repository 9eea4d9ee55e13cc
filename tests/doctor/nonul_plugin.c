/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A driver whose strings have no NUL (tests/doctor/nonul.py): the virtual
 * camera, loaded by v4l2-doctor from this plugin directory, with every
 * byte of QUERYCAP's driver, card and bus_info and of each ENUM_FMT
 * description a printable character, as the kernel allows (the V4L2 API
 * does not promise a terminator in a full field). The fields after them
 * are non-zero to the end of the structure too, so a reader that looks
 * for a NUL runs past the caller's structure (which AddressSanitizer
 * reports) instead of stopping in a neighbouring field by luck.
 *
 * The patterns are the ones nonul.py expects, character for character.
 * The card's name also carries an escape character, which must not reach
 * the terminal the doctor prints to.
 */
#include <string.h>

#include <linux/videodev2.h>

#include "libv4l-plugin.h"
#include "vcam/vcam.h"

/* Every byte non-zero: a NUL can only come from past the structure. */
#define NONZERO 0x5a5a5a5au

/* Fill a field of n bytes with "<tag>" then letters, no terminator. */
static void fill(uint8_t *field, size_t n, const char *tag)
{
	size_t t = strlen(tag);

	for (size_t i = 0; i < n; i++)
		field[i] =
			i < t ? (uint8_t)tag[i] : (uint8_t)('a' + (i - t) % 26);
}

static void querycap(struct v4l2_capability *cap)
{
	fill(cap->driver, sizeof(cap->driver), "DRV");
	/* An escape character too: the doctor prints it as '?'. */
	fill(cap->card, sizeof(cap->card), "CARD\033");
	fill(cap->bus_info, sizeof(cap->bus_info), "BUS");
	cap->version = NONZERO;
	/* Capture and streaming stay; bits that change nothing for a
	 * capture device (RDS, tuner, radio) fill the zero bytes. */
	cap->capabilities |= V4L2_CAP_RDS_CAPTURE | V4L2_CAP_TUNER |
			     V4L2_CAP_RADIO | V4L2_CAP_DEVICE_CAPS;
	cap->device_caps |=
		V4L2_CAP_RDS_CAPTURE | V4L2_CAP_TUNER | V4L2_CAP_RADIO;
	for (size_t i = 0; i < sizeof(cap->reserved) / sizeof(cap->reserved[0]);
	     i++)
		cap->reserved[i] = NONZERO;
}

static void enum_fmt(struct v4l2_fmtdesc *d)
{
	fill(d->description, sizeof(d->description), "FMT");
	d->mbus_code = NONZERO;
	for (size_t i = 0; i < sizeof(d->reserved) / sizeof(d->reserved[0]);
	     i++)
		d->reserved[i] = NONZERO;
}

static int nonul_ioctl(void *priv, int fd, unsigned long req, void *arg)
{
	int r = v4lc_vcam_ops.ioctl(priv, fd, req, arg);

	if (r != 0)
		return r;
	if (req == VIDIOC_QUERYCAP)
		querycap(arg);
	else if (req == VIDIOC_ENUM_FMT)
		enum_fmt(arg);
	return r;
}

__attribute__((visibility("default"))) struct libv4l_dev_ops libv4l2_plugin = {
	.ioctl = nonul_ioctl,
};

/* The camera's other operations, filled in when the module loads. */
__attribute__((constructor)) static void nonul_init(void)
{
	struct libv4l_dev_ops *o = &libv4l2_plugin;

	o->init = v4lc_vcam_ops.init;
	o->close = v4lc_vcam_ops.close;
	o->read = v4lc_vcam_ops.read;
	o->write = v4lc_vcam_ops.write;
}
