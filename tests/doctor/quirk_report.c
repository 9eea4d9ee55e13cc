/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What v4l2-doctor shows as the reason of a camera's quirks
 * (v4lc_quirk_report, src/libv4lconvert/private_api.h): a fake sysfs
 * (LIBV4LCONTROL_SYSFS_PREFIX) gives the camera's USB id, the expected
 * rule is looked up in the rules file itself (data/camera-quirks.conf,
 * given as the argument; a user file of the test's own), and the driver's
 * input status and LIBV4LCONTROL_FLAGS are reported apart.
 *
 *   doctor-quirk-report DATA/camera-quirks.conf
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <libv4lconvert.h>

#include "../common/check.h"
#include "../common/fakedev.h"
#include "libv4lconvert/private_api.h"
#include "libv4lconvert/quirks.h"

static char root[] = "/tmp/v4l-doctor-quirks-XXXXXX";
static int devnull;

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

static void camera(const char *modalias)
{
	struct stat st;
	char rel[128];

	if (fstat(devnull, &st))
		exit(99);
	snprintf(rel, sizeof(rel), "/sys/dev/char/%u:%u/device/modalias",
		 major(st.st_rdev), minor(st.st_rdev));
	put(rel, modalias);
}

static void report(uint32_t input_status, struct v4lc_quirk_report *r)
{
	struct fakedev dev = {
		.driver = "uvcvideo",
		.n_formats = 1,
		.input_status = input_status,
		.formats = { { V4L2_PIX_FMT_RGB24, 1, { { 8, 4 } } } },
	};
	struct v4lconvert_data *cv =
		v4lconvert_create_with_dev_ops(devnull, &dev, &fakedev_ops);

	memset(r, 0, sizeof(*r));
	CHECK(cv != NULL, "v4lconvert_create");
	if (cv) {
		v4lc_quirk_report(cv, r);
		v4lconvert_destroy(cv);
	}
}

/* The 1-based number of the line of `path` that starts with `rule`. */
static unsigned line_of(const char *path, const char *rule)
{
	char buf[512];
	unsigned n = 0;
	FILE *f = fopen(path, "r");

	while (f && fgets(buf, sizeof(buf), f)) {
		n++;
		if (!strncmp(buf, rule, strlen(rule))) {
			fclose(f);
			return n;
		}
	}
	if (f)
		fclose(f);
	return 0;
}

int main(int argc, char **argv)
{
	const char *philips = "usb 0471:0325 hflip,vflip";
	struct v4lc_quirk_report r;
	char user[600], cmd[600];
	unsigned line;

	devnull = open("/dev/null", O_RDONLY);
	if (argc != 2 || devnull < 0 || !mkdtemp(root))
		return 99;
	setenv("LIBV4LCONTROL_SYSFS_PREFIX", root, 1);
	setenv("XDG_CONFIG_HOME", root, 1);
	unsetenv("LIBV4LCONTROL_FLAGS");
	line = line_of(argv[1], philips);
	CHECK(line > 0, "%s has the rule \"%s\"", argv[1], philips);

	camera("usb:v0471p0325d0101dc00dsc00dp00icFFisc00ip00in00\n");
	report(0, &r);
	CHECK(r.vendor == 0x0471 && r.product == 0x0325, "USB id %04x:%04x",
	      r.vendor, r.product);
	CHECK(r.matched && !strcmp(r.rule_file, "built-in") &&
		      r.rule_line == line && !strcmp(r.rule, philips),
	      "built-in rule: %s:%u: \"%s\" (want line %u)", r.rule_file,
	      r.rule_line, r.rule, line);
	CHECK(r.rule_flags == (V4LC_QUIRK_HFLIP | V4LC_QUIRK_VFLIP) &&
		      r.flags == r.rule_flags && !r.driver_flags &&
		      !r.env_override,
	      "flags %#x rule %#x driver %#x", r.flags, r.rule_flags,
	      r.driver_flags);

	/* A user rule (after a comment line) goes before the table. */
	put("/libv4l/camera-quirks.conf",
	    "# mine\nusb 0471:0320/0xf vflip gamma=1200\n");
	snprintf(user, sizeof(user), "%s/libv4l/camera-quirks.conf", root);
	report(0, &r);
	CHECK(r.matched && !strcmp(r.rule_file, user) && r.rule_line == 2 &&
		      !strcmp(r.rule, "usb 0471:0320/0xf vflip gamma=1200") &&
		      r.rule_gamma == 1200 && r.flags == V4LC_QUIRK_VFLIP,
	      "user rule: %s:%u: \"%s\" gamma %d flags %#x", r.rule_file,
	      r.rule_line, r.rule, r.rule_gamma, r.flags);

	/* No rule; the driver's mirrored sensor. */
	camera("usb:v1234p5678d0001\n");
	report(V4L2_IN_ST_HFLIP, &r);
	CHECK(!r.matched && !r.rule_file[0] &&
		      r.driver_flags == V4LC_QUIRK_HFLIP &&
		      r.flags == V4LC_QUIRK_HFLIP,
	      "driver only: matched %d driver %#x flags %#x", r.matched,
	      r.driver_flags, r.flags);

	/* LIBV4LCONTROL_FLAGS replaces all; the rule is still named. */
	setenv("LIBV4LCONTROL_FLAGS", "0", 1);
	camera("usb:v0471p0325d0101\n");
	report(V4L2_IN_ST_VFLIP, &r);
	CHECK(r.env_override && r.flags == 0 && r.matched &&
		      r.driver_flags == V4LC_QUIRK_VFLIP,
	      "override: env %d flags %#x matched %d driver %#x",
	      r.env_override, r.flags, r.matched, r.driver_flags);

	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	if (system(cmd))
		failures++;
	printf("doctor-quirk-report: %d failures\n", failures);
	return failures != 0;
}
