/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The formats the virtual camera sends, one row each (formats.h). */
#include "vcam/formats.h"

#include <linux/videodev2.h>

/* clang-format off */
#define SRGB V4L2_COLORSPACE_SRGB
#define JPEG V4L2_COLORSPACE_JPEG
#define DFLT V4L2_COLORSPACE_DEFAULT
#define QQVGA { 160, 120 }
#define QCIF { 176, 144 }
#define QVGA { 320, 240 }
#define CIF { 352, 288 }
#define VGA { 640, 480 }

static const struct vcam_format rows[] = {
	{ V4L2_PIX_FMT_YUYV,   v4lc_vcam_put_packed, DFLT, 0, { { 0 } } },
	{ V4L2_PIX_FMT_YVYU,   v4lc_vcam_put_packed, DFLT, 0, { { 0 } } },
	{ V4L2_PIX_FMT_UYVY,   v4lc_vcam_put_packed, DFLT, 0, { { 0 } } },
	{ V4L2_PIX_FMT_VYUY,   v4lc_vcam_put_packed, DFLT, 0, { { 0 } } },
	{ V4L2_PIX_FMT_YUV420, v4lc_vcam_put_frame,  DFLT, 0, { { 0 } } },
	{ V4L2_PIX_FMT_YVU420, v4lc_vcam_put_frame,  DFLT, 0, { { 0 } } },
	{ V4L2_PIX_FMT_NV12,   v4lc_vcam_put_nv,     DFLT, 0, { { 0 } } },
	{ V4L2_PIX_FMT_NV21,   v4lc_vcam_put_nv,     DFLT, 0, { { 0 } } },
	{ V4L2_PIX_FMT_RGB24,  v4lc_vcam_put_rgb24,  SRGB, 0, { { 0 } } },
	{ V4L2_PIX_FMT_BGR24,  v4lc_vcam_put_frame,  SRGB, 0, { { 0 } } },
	{ V4L2_PIX_FMT_GREY,   v4lc_vcam_put_grey,   DFLT, 0, { { 0 } } },
	{ V4L2_PIX_FMT_SBGGR8, v4lc_vcam_put_bayer,  SRGB, 0, { { 0 } } },
	{ V4L2_PIX_FMT_SGBRG8, v4lc_vcam_put_bayer,  SRGB, 0, { { 0 } } },
	{ V4L2_PIX_FMT_SGRBG8, v4lc_vcam_put_bayer,  SRGB, 0, { { 0 } } },
	{ V4L2_PIX_FMT_SRGGB8, v4lc_vcam_put_bayer,  SRGB, 0, { { 0 } } },
	{ V4L2_PIX_FMT_MJPEG,  v4lc_vcam_put_jpeg,   JPEG, 0, { { 0 } } },
	{ V4L2_PIX_FMT_JPEG,   v4lc_vcam_put_jpeg,   JPEG, 0, { { 0 } } },
	/* The chip formats, in the sizes of the cameras that send them. */
	{ V4L2_PIX_FMT_SPCA501,      v4lc_vcam_put_chip, DFLT, 3, { QQVGA, QVGA, VGA } },
	{ V4L2_PIX_FMT_SPCA505,      v4lc_vcam_put_chip, DFLT, 5, { QQVGA, QCIF, QVGA, CIF, VGA } },
	{ V4L2_PIX_FMT_SPCA508,      v4lc_vcam_put_chip, DFLT, 4, { QQVGA, QCIF, QVGA, CIF } },
	{ V4L2_PIX_FMT_CIT_YYVYUY,   v4lc_vcam_put_chip, DFLT, 4, { QQVGA, QCIF, QVGA, CIF } },
	{ V4L2_PIX_FMT_KONICA420,    v4lc_vcam_put_chip, DFLT, 2, { QQVGA, QVGA } },
	{ V4L2_PIX_FMT_SN9C20X_I420, v4lc_vcam_put_chip, DFLT, 4, { QQVGA, QVGA, VGA, { 1280, 1024 } } },
	{ V4L2_PIX_FMT_CPIA1,        v4lc_vcam_put_chip, DFLT, 4, { QQVGA, QCIF, QVGA, CIF } },
	{ V4L2_PIX_FMT_SN9C10X,      v4lc_vcam_put_chip, SRGB, 3, { QQVGA, QVGA, VGA } },
	{ V4L2_PIX_FMT_PAC207,       v4lc_vcam_put_chip, SRGB, 2, { QCIF, CIF } },
	{ V4L2_PIX_FMT_STV0680,      v4lc_vcam_put_chip, SRGB, 4, { QQVGA, QCIF, QVGA, CIF } },
	{ V4L2_PIX_FMT_SN9C2028,     v4lc_vcam_put_chip, SRGB, 3, { QQVGA, QVGA, VGA } },
	{ V4L2_PIX_FMT_MR97310A,     v4lc_vcam_put_chip, SRGB, 5, { QQVGA, QCIF, QVGA, CIF, VGA } },
	{ V4L2_PIX_FMT_SQ905C,       v4lc_vcam_put_chip, SRGB, 2, { QVGA, VGA } },
	/* the SPCA561 rev 012A sends S561 in these modes only */
	{ V4L2_PIX_FMT_SPCA561,      v4lc_vcam_put_chip, SRGB, 2, { QVGA, CIF } },
	{ V4L2_PIX_FMT_PJPG,         v4lc_vcam_put_chip, JPEG, 3, { QQVGA, QVGA, VGA } },
	{ V4L2_PIX_FMT_JL2005BCD,    v4lc_vcam_put_chip, SRGB, 2, { QVGA, VGA } },
	{ V4L2_PIX_FMT_SE401,        v4lc_vcam_put_chip, SRGB, 3, { QQVGA, QVGA, VGA } },
	/* nw800: 352x288; nw801/nw802: 320x240, some 640x480 */
	{ V4L2_PIX_FMT_JPGL,         v4lc_vcam_put_chip, SRGB, 3, { QVGA, CIF, VGA } },
	{ V4L2_PIX_FMT_OV511,        v4lc_vcam_put_chip, DFLT, 4, { QCIF, QVGA, CIF, VGA } },
	{ V4L2_PIX_FMT_OV518,        v4lc_vcam_put_chip, DFLT, 5, { QQVGA, QCIF, QVGA, CIF, VGA } },
};
/* clang-format on */

const struct vcam_format *v4lc_vcam_format(uint32_t fourcc)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (rows[i].fourcc == fourcc)
			return &rows[i];
	return NULL;
}
