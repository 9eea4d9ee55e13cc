/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The camera quirk table (data/camera-quirks.conf, compiled in; system and
 * user files add rules in front of it) and the hardware facts it is matched
 * against.
 */
#ifndef V4LC_LIBV4LCONVERT_QUIRKS_H
#define V4LC_LIBV4LCONVERT_QUIRKS_H

/* Quirk flags, with the original's bit values (LIBV4LCONTROL_FLAGS). */
enum {
	V4LC_QUIRK_HFLIP = 0x01,
	V4LC_QUIRK_VFLIP = 0x02,
	V4LC_QUIRK_ROT90_JPEG = 0x04,
	V4LC_QUIRK_WB = 0x08,
	V4LC_QUIRK_AUTOGAIN = 0x10,
	V4LC_QUIRK_TINYJPEG = 0x20,
};

enum v4lc_dmi_key {
	V4LC_DMI_BOARD_VENDOR,
	V4LC_DMI_BOARD_NAME,
	V4LC_DMI_BOARD_VERSION,
	V4LC_DMI_SYS_VENDOR,
	V4LC_DMI_PRODUCT_NAME,
	V4LC_DMI_PRODUCT_VERSION,
	V4LC_DMI_KEYS
};

/* What identifies a camera: its USB id (0 when not USB) and the machine. */
struct v4lc_hwinfo {
	unsigned vendor, product;
	char dmi[V4LC_DMI_KEYS][96]; /* whitespace-trimmed; "" when unknown */
};

struct v4lc_quirk {
	unsigned flags;
	int gamma; /* 0: no default */
};

/* DMI key names as used in the rules and in /sys/class/dmi/id. */
extern const char *const v4lc_dmi_names[V4LC_DMI_KEYS];

/*
 * First rule of `text` (a rules file) matching hw. Returns 1 and fills *q on
 * a match, 0 when none matches. Malformed lines are skipped.
 */
int v4lc_quirk_match_text(const char *text, const struct v4lc_hwinfo *hw,
			  struct v4lc_quirk *q);

/* Where the matching rule is: "" (none), a rules file, or "built-in". */
struct v4lc_quirk_origin {
	char file[256];
	unsigned line; /* 1-based */
	char rule[256];
};

/*
 * The rules in force: the user's file, the system's, then the built-in
 * table. Returns 1 on a match; origin (may be NULL) says which rule.
 */
int v4lc_quirk_lookup(const struct v4lc_hwinfo *hw, struct v4lc_quirk *q,
		      struct v4lc_quirk_origin *origin);

/* USB id and DMI strings of the converter's device, from sysfs
 * (LIBV4LCONTROL_SYSFS_PREFIX is prepended to every path, for tests). */
struct v4lconvert_data;
void v4lc_hwinfo_read(struct v4lconvert_data *data, struct v4lc_hwinfo *hw);

#endif
