/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The cameras: data. UVC cameras are entirely described here; a gspca
 * chip adds its register dialogue and framing (chip_*.c), referenced by
 * its struct usbcam_chip.
 *
 * USB ids: the UVC test cameras use pid.codes test ids (1209:xxxx), which
 * neither uvcvideo's quirk list nor data/camera-quirks.conf knows; the
 * upside-down laptop camera is the Chicony 04f2:b012 of a Founder T14MF,
 * whose rule in data/camera-quirks.conf asks for hflip,vflip (the VM gets
 * that board's DMI strings); the gspca chips use ids of their drivers.
 */
#include "usbcam.h"

#include <linux/videodev2.h>

#include "chips.h"

#define FPS(n) (10000000u / (n))

/* UVC selectors: camera terminal (CT) and processing unit (PU), with the
 * bit of each in its unit's bmControls. */
#define CT_AE_MODE 0x02, 1
#define CT_EXPOSURE_ABS 0x04, 3
#define CT_FOCUS_ABS 0x06, 5
#define PU_BRIGHTNESS 0x02, 0
#define PU_CONTRAST 0x03, 1
#define PU_SATURATION 0x07, 3
#define PU_WB_TEMP 0x0a, 6
#define PU_GAIN 0x04, 9
#define PU_WB_TEMP_AUTO 0x0b, 12

/* The full set: a laptop-class camera with a focus motor and no
 * autofocus. Exposure in 100 us units; AE modes manual (1) and aperture
 * priority (8, the default), as most webcams. */
static const struct usbcam_uvc_ctrl full_ctrls[] = {
	{ "brightness", UVC_ID_PU, PU_BRIGHTNESS, 2, -64, 64, 1, 0 },
	{ "contrast", UVC_ID_PU, PU_CONTRAST, 2, 0, 100, 1, 50 },
	{ "saturation", UVC_ID_PU, PU_SATURATION, 2, 0, 100, 1, 60 },
	{ "gain", UVC_ID_PU, PU_GAIN, 2, 0, 255, 1, 64 },
	{ "white_balance_auto", UVC_ID_PU, PU_WB_TEMP_AUTO, 1, 0, 1, 1, 1 },
	{ "white_balance_temperature", UVC_ID_PU, PU_WB_TEMP, 2, 2800, 6500, 10,
	  4600 },
	{ "auto_exposure", UVC_ID_CT, CT_AE_MODE, 1, 0, 0, 0x09, 0x08 },
	{ "exposure_time_absolute", UVC_ID_CT, CT_EXPOSURE_ABS, 4, 3, 2047, 1,
	  250 },
	{ "focus_absolute", UVC_ID_CT, CT_FOCUS_ABS, 2, 0, 1023, 1, 300 },
};

static const struct usbcam_uvc_ctrl basic_ctrls[] = {
	{ "brightness", UVC_ID_PU, PU_BRIGHTNESS, 2, -64, 64, 1, 0 },
	{ "contrast", UVC_ID_PU, PU_CONTRAST, 2, 0, 100, 1, 50 },
};

static const struct usbcam_format iso_formats[] = {
	{ V4L2_PIX_FMT_YUYV,
	  2,
	  { { 640, 480, 3, { FPS(30), FPS(15), FPS(5) } },
	    { 1280, 720, 2, { FPS(10), FPS(5) } } } },
	{ V4L2_PIX_FMT_MJPEG,
	  3,
	  { { 1280, 720, 2, { FPS(30), FPS(15) } },
	    { 1920, 1080, 2, { FPS(30), FPS(15) } },
	    { 640, 480, 1, { FPS(30) } } } },
};

static const struct usbcam_format bulk_formats[] = {
	{ V4L2_PIX_FMT_YUYV, 1, { { 640, 480, 2, { FPS(30), FPS(15) } } } },
	{ V4L2_PIX_FMT_MJPEG,
	  2,
	  { { 1280, 720, 1, { FPS(30) } }, { 640, 480, 1, { FPS(30) } } } },
};

static const struct usbcam_format laptop_formats[] = {
	{ V4L2_PIX_FMT_YUYV,
	  2,
	  { { 640, 480, 1, { FPS(30) } }, { 320, 240, 1, { FPS(30) } } } },
	{ V4L2_PIX_FMT_MJPEG, 1, { { 640, 480, 1, { FPS(30) } } } },
};

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

const struct usbcam_desc usbcam_cams[] = {
	{ "uvc-iso", "uvcvideo", 0x1209, 0x7601, 0x0100, usb_redir_speed_high,
	  USBCAM_ISO, "libv4l test", "UVC iso camera", 0, 300, NULL,
	  iso_formats, N(iso_formats), full_ctrls, N(full_ctrls), NULL },
	{ "uvc-bulk", "uvcvideo", 0x1209, 0x7602, 0x0100, usb_redir_speed_high,
	  USBCAM_BULK, "libv4l test", "UVC bulk camera", 0, 0, NULL,
	  bulk_formats, N(bulk_formats), basic_ctrls, N(basic_ctrls), NULL },
	{ "uvc-flip", "uvcvideo", 0x04f2, 0xb012, 0x0100, usb_redir_speed_high,
	  USBCAM_ISO, "Chicony", "Laptop camera", 3, 0,
	  "type=2,manufacturer=Founder PC,product=T14MF", laptop_formats,
	  N(laptop_formats), basic_ctrls, N(basic_ctrls), NULL },
/* gspca chips at full speed; flip: the sensor's mounting, as the rule of
 * data/camera-quirks.conf for that id says (the SE401 of Endpoints/Aox is
 * mirrored: the rule asks for hflip). */
#define GSPCA(name, module, vid, pid, xfer, chip, flip)                        \
	{                                                                      \
		name, module, vid, pid, 0x0100, usb_redir_speed_full, xfer,    \
			"libv4l test", name, flip, 0, NULL, NULL, 0, NULL, 0,  \
			&chip                                                  \
	}
	GSPCA("pac207", "gspca_pac207", 0x093a, 0x2460, USBCAM_ISO,
	      usbcam_chip_pac207, 0),
	GSPCA("mr97310a", "gspca_mr97310a", 0x093a, 0x010f, USBCAM_ISO,
	      usbcam_chip_mr97310a, 0),
	GSPCA("spca505", "gspca_spca505", 0x0733, 0x0430, USBCAM_ISO,
	      usbcam_chip_spca505, 0),
	GSPCA("spca508", "gspca_spca508", 0x0733, 0x0110, USBCAM_ISO,
	      usbcam_chip_spca508, 0),
	GSPCA("sq905c", "gspca_sq905c", 0x2770, 0x905c, USBCAM_BULK,
	      usbcam_chip_sq905c, 0),
	GSPCA("sonixb", "gspca_sonixb", 0x0c45, 0x602a, USBCAM_ISO,
	      usbcam_chip_sonixb, 0),
	GSPCA("jl2005bcd", "gspca_jl2005bcd", 0x0979, 0x0227, USBCAM_BULK,
	      usbcam_chip_jl2005bcd, 0),
	GSPCA("se401", "gspca_se401", 0x03e8, 0x0004, USBCAM_BULK,
	      usbcam_chip_se401, 1),
};

const int usbcam_ncams = N(usbcam_cams);
