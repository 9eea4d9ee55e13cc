/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Upside-down correction from the quirk table, through the public API: a
 * fake sysfs (LIBV4LCONTROL_SYSFS_PREFIX) gives the camera's USB id and the
 * machine's DMI strings; the flip the library then applies to an RGB24 frame
 * is compared with the flip the rule calls for. Also: the driver's input
 * status, a user rules file, and LIBV4LCONTROL_FLAGS overriding everything.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <libv4lconvert.h>

#include "libv4lconvert/private_api.h"

#define CHECK_PRINT_PASSES /* a line for every case verified */
#include "../common/fakedev.h"
#include "../common/check.h"

enum { W = 8, H = 4, HF = 1, VF = 2 };

static char root[] = "/tmp/v4lc-quirks-XXXXXX";
static int devnull;
static struct stat devst;

static void put(const char *rel, const char *text)
{
	char path[512], cmd[600];
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	if (system(cmd) || !(f = fopen(path, "w")))
		exit(99);
	fputs(text, f);
	fclose(f);
}

/* A machine: the camera's modalias and the DMI board/system strings. */
static void machine(const char *modalias, const char *board_vendor,
		    const char *board_name, const char *sys_vendor,
		    const char *product_name)
{
	char rel[128], cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf %s/sys", root);
	if (system(cmd))
		exit(99);
	snprintf(rel, sizeof(rel), "/sys/dev/char/%u:%u/device/modalias",
		 major(devst.st_rdev), minor(devst.st_rdev));
	put(rel, modalias);
	put("/sys/class/dmi/id/board_vendor", board_vendor);
	put("/sys/class/dmi/id/board_name", board_name);
	put("/sys/class/dmi/id/sys_vendor", sys_vendor);
	put("/sys/class/dmi/id/product_name", product_name);
}

/*
 * The camera as the frame server's client gives it to libv4lconvert: its
 * fd a socket (here a pipe), the camera node named by the backend
 * (V4LC_IOCTL_DEVICE_RDEV).
 */
static int shared;

/* Which flip does the library apply? Bits HF | VF, or -1 if none fits. */
static int observed_flip(uint32_t input_status)
{
	struct fakedev dev = {
		.driver = "uvcvideo",
		.n_formats = 1,
		.input_status = input_status,
		.formats = { { V4L2_PIX_FMT_RGB24, 1, { { W, H } } } },
		.rdev_req = shared ? V4LC_IOCTL_DEVICE_RDEV : 0,
		.rdev = devst.st_rdev,
	};
	int pipefd[2] = { -1, -1 };
	struct v4l2_format f;
	uint8_t src[W * H * 3], out[W * H * 3];
	struct v4lconvert_data *cv;
	int result = -1;

	if (shared && pipe(pipefd))
		return -1;
	cv = v4lconvert_create_with_dev_ops(shared ? pipefd[0] : devnull, &dev,
					    &fakedev_ops);

	memset(&f, 0, sizeof(f));
	f.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	f.fmt.pix.pixelformat = V4L2_PIX_FMT_RGB24;
	f.fmt.pix.width = W;
	f.fmt.pix.height = H;
	f.fmt.pix.bytesperline = W * 3;
	for (int i = 0; i < W * H * 3; i++)
		src[i] = (uint8_t)(i * 7 + 1);
	if (cv && v4lconvert_convert(cv, &f, &f, src, sizeof(src), out,
				     sizeof(out)) == (int)sizeof(out)) {
		for (int flip = 0; flip < 4 && result < 0; flip++) {
			int same = 1;

			for (int y = 0; y < H; y++)
				for (int x = 0; x < W; x++) {
					int sx = flip & HF ? W - 1 - x : x;
					int sy = flip & VF ? H - 1 - y : y;

					same &= !memcmp(out + (y * W + x) * 3,
							src + (sy * W + sx) * 3,
							3);
				}
			if (same)
				result = flip;
		}
	}
	v4lconvert_destroy(cv);
	if (shared) {
		close(pipefd[0]);
		close(pipefd[1]);
	}
	return result;
}

static void expect(const char *what, int want, uint32_t input_status)
{
	int got = observed_flip(input_status);

	CHECK(got == want, "%s: flip %d (want %d)", what, got, want);
}

int main(void)
{
	char cmd[600];

	devnull = open("/dev/null", O_RDONLY);
	if (devnull < 0 || fstat(devnull, &devst) || !mkdtemp(root))
		return 99;
	setenv("LIBV4LCONTROL_SYSFS_PREFIX", root, 1);
	setenv("XDG_CONFIG_HOME", root, 1);
	unsetenv("LIBV4LCONTROL_FLAGS");

	machine("usb:v0471p0325d0101dc00dsc00dp00icFFisc00ip00in00\n", "", "",
		"", "");
	expect("Philips SPC 900NC (H+V)", HF | VF, 0);
	machine("usb:v0471p032Ed0101\n", "", "", "", "");
	expect("Philips SPC 315NC (V only)", VF, 0);
	machine("usb:v046Dp0825d0012\n", "", "", "", "");
	expect("a camera in no rule", 0, 0);
	expect("driver says the sensor is mirrored", HF, V4L2_IN_ST_HFLIP);
	/* BIOS strings padded with spaces, as sysfs gives them */
	machine("usb:v04F2pB012d0001\n", "PACKARD BELL BV    \n",
		"EasyNote_BG45   \n", "", "");
	expect("Packard Bell EasyNote BG45 (DMI)", HF | VF, 0);
	shared = 1;
	expect("the same camera through the frame server (its node named)",
	       HF | VF, 0);
	shared = 0;
	machine("usb:v04F2pB012d0001\n", "ASUSTeK Computer Inc.\n", "F3Sc\n",
		"", "");
	expect("ASUS F3Sc: explicit not-flipped rule before the wildcard", 0,
	       0);
	machine("usb:v04F2pB012d0001\n", "ASUSTeK Computer Inc.\n", "F3Ja\n",
		"", "");
	expect("ASUS F3Ja: the ASUS wildcard rule", HF | VF, 0);
	machine("usb:v04F2pB071d0001\n", "PEGATRON CORP.\n", "whatever\n",
		"Philco\n", "S\202rie PHN10050\n");
	expect("Philco (octal escape in the rule)", HF | VF, 0);

	machine("usb:v1234p5678d0001\n", "", "", "", "");
	expect("before a user rule", 0, 0);
	put("/libv4l/camera-quirks.conf",
	    "# user rules\nusb 1234:5670/0xf hflip\n");
	expect("user rule with a product mask", HF, 0);
	machine("usb:v0471p0325d0101\n", "", "", "", "");
	put("/libv4l/camera-quirks.conf", "usb 0471:0325 none\n");
	expect("user rule overriding the built-in table", 0, 0);

	setenv("LIBV4LCONTROL_FLAGS", "1", 1);
	expect("LIBV4LCONTROL_FLAGS=1 replaces everything", HF,
	       V4L2_IN_ST_VFLIP);
	setenv("LIBV4LCONTROL_FLAGS", "0", 1);
	machine("usb:v0471p032Ed0101\n", "", "", "", "");
	expect("LIBV4LCONTROL_FLAGS=0 cancels a rule", 0, 0);

	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	CHECK(system(cmd) == 0, "%s", cmd);
	printf("quirks: %d failures\n", failures);
	return failures != 0;
}
