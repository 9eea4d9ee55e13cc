/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Parsing and matching the camera quirk rules (format: data/camera-quirks.conf). */
#include <ctype.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "quirks.h"

/* The built-in table, generated from data/camera-quirks.conf. */
extern const char v4lc_builtin_quirks[];

const char *const v4lc_dmi_names[V4LC_DMI_KEYS] = {
	"board_vendor", "board_name",   "board_version",
	"sys_vendor",   "product_name", "product_version",
};

static const struct {
	const char *name;
	unsigned flag;
} flag_names[] = {
	{ "hflip", V4LC_QUIRK_HFLIP },
	{ "vflip", V4LC_QUIRK_VFLIP },
	{ "rot90-jpeg", V4LC_QUIRK_ROT90_JPEG },
	{ "wb", V4LC_QUIRK_WB },
	{ "autogain", V4LC_QUIRK_AUTOGAIN },
	{ "tinyjpeg", V4LC_QUIRK_TINYJPEG },
	{ "none", 0 },
};

static const char *skip_space(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/* Copy the next blank-delimited word into buf; NULL at the end of line. */
static const char *word(const char *p, const char *end, char *buf, size_t len)
{
	size_t n = 0;

	p = skip_space(p, end);
	if (p >= end)
		return NULL;
	while (p < end && *p != ' ' && *p != '\t' && *p != '=') {
		if (n + 1 < len)
			buf[n++] = *p;
		p++;
	}
	buf[n] = '\0';
	return p;
}

/* A quoted value with \ooo and \" escapes, or a bare word. */
static const char *value(const char *p, const char *end, char *buf, size_t len)
{
	size_t n = 0;

	if (p >= end)
		return NULL;
	if (*p != '"')
		return word(p, end, buf, len);
	for (p++; p < end && *p != '"'; p++) {
		char c = *p;

		if (c == '\\' && p + 1 < end) {
			if (p + 3 < end && isdigit((unsigned char)p[1]) &&
			    isdigit((unsigned char)p[2]) &&
			    isdigit((unsigned char)p[3])) {
				c = (char)((p[1] - '0') * 64 +
					   (p[2] - '0') * 8 + (p[3] - '0'));
				p += 3;
			} else {
				c = *++p;
			}
		}
		if (n + 1 < len)
			buf[n++] = c;
	}
	buf[n] = '\0';
	return p < end ? p + 1 : NULL;
}

/* Does `s` match one of the '|'-separated globs of `pattern`? */
static int glob_any(const char *pattern, const char *s)
{
	char alt[256];

	while (*pattern) {
		size_t n = strcspn(pattern, "|");

		if (n < sizeof(alt)) {
			memcpy(alt, pattern, n);
			alt[n] = '\0';
			if (!fnmatch(alt, s, 0))
				return 1;
		}
		pattern += n;
		if (*pattern == '|')
			pattern++;
	}
	return 0;
}

static int parse_flags(const char *list, unsigned *flags)
{
	*flags = 0;
	while (*list) {
		size_t n = strcspn(list, ",");
		size_t i;

		for (i = 0; i < sizeof(flag_names) / sizeof(flag_names[0]); i++)
			if (strlen(flag_names[i].name) == n &&
			    !strncmp(flag_names[i].name, list, n))
				break;
		if (i == sizeof(flag_names) / sizeof(flag_names[0]))
			return -1;
		*flags |= flag_names[i].flag;
		list += n;
		if (*list == ',')
			list++;
	}
	return 0;
}

/* One rule line: 1 when it matches hw, 0 when not, -1 when malformed. */
static int match_line(const char *p, const char *end,
		      const struct v4lc_hwinfo *hw, struct v4lc_quirk *q)
{
	char buf[256], val[512];
	unsigned vid, pid, mask = 0;
	int matched = 1;

	if (!(p = word(p, end, buf, sizeof(buf))) || strcmp(buf, "usb"))
		return -1;
	if (!(p = word(p, end, buf, sizeof(buf))) ||
	    (sscanf(buf, "%4x:%4x/%x", &vid, &pid, &mask) < 2))
		return -1;
	if (!hw->vendor || vid != hw->vendor || pid != (hw->product & ~mask))
		matched = 0;
	if (!(p = word(p, end, buf, sizeof(buf))) ||
	    parse_flags(buf, &q->flags))
		return -1;
	q->gamma = 0;
	while ((p = word(p, end, buf, sizeof(buf))) && *p == '=') {
		int key;

		if (!(p = value(p + 1, end, val, sizeof(val))))
			return -1;
		if (!strcmp(buf, "gamma")) {
			q->gamma = atoi(val);
			continue;
		}
		for (key = 0; key < V4LC_DMI_KEYS; key++)
			if (!strcmp(buf, v4lc_dmi_names[key]))
				break;
		if (key == V4LC_DMI_KEYS)
			return -1;
		if (!glob_any(val, hw->dmi[key]))
			matched = 0;
	}
	return matched;
}

/* The first matching rule's line number (1-based) and text, or 0. */
static unsigned match_text_at(const char *text, const struct v4lc_hwinfo *hw,
			      struct v4lc_quirk *q, char *rule, size_t len)
{
	for (unsigned line = 1; text && *text; line++) {
		const char *end = strchr(text, '\n');
		const char *p;

		if (!end)
			end = text + strlen(text);
		p = skip_space(text, end);
		if (p < end && *p != '#' && match_line(p, end, hw, q) == 1) {
			if (rule)
				snprintf(rule, len, "%.*s", (int)(end - p), p);
			return line;
		}
		text = *end ? end + 1 : end;
	}
	return 0;
}

int v4lc_quirk_match_text(const char *text, const struct v4lc_hwinfo *hw,
			  struct v4lc_quirk *q)
{
	return match_text_at(text, hw, q, NULL, 0) != 0;
}

static int match_in(const char *name, const char *text,
		    const struct v4lc_hwinfo *hw, struct v4lc_quirk *q,
		    struct v4lc_quirk_origin *o)
{
	char rule[256];
	unsigned line = match_text_at(text, hw, q, rule, sizeof(rule));

	if (line && o) {
		snprintf(o->file, sizeof(o->file), "%s", name);
		o->line = line;
		snprintf(o->rule, sizeof(o->rule), "%s", rule);
	}
	return line != 0;
}

/* A rules file, NUL-terminated, or NULL (absent, unreadable, too big). */
static char *read_rules(const char *path)
{
	struct stat st;
	char *text;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size > (1 << 20) ||
	    !(text = malloc((size_t)st.st_size + 1))) {
		close(fd);
		return NULL;
	}
	n = read(fd, text, (size_t)st.st_size);
	close(fd);
	text[n > 0 ? n : 0] = '\0';
	return text;
}

int v4lc_quirk_lookup(const struct v4lc_hwinfo *hw, struct v4lc_quirk *q,
		      struct v4lc_quirk_origin *origin)
{
	const char *config = secure_getenv("XDG_CONFIG_HOME");
	const char *home = secure_getenv("HOME");
	char user[512] = "";
	const char *files[2];
	int found = 0;

	if (origin)
		memset(origin, 0, sizeof(*origin));
	if (config && *config)
		snprintf(user, sizeof(user), "%s/libv4l/camera-quirks.conf",
			 config);
	else if (home && *home)
		snprintf(user, sizeof(user),
			 "%s/.config/libv4l/camera-quirks.conf", home);
	files[0] = user;
	files[1] = V4LC_SYSCONFDIR "/libv4l/camera-quirks.conf";
	for (int i = 0; i < 2 && !found; i++) {
		char *text = files[i][0] ? read_rules(files[i]) : NULL;

		found = text && match_in(files[i], text, hw, q, origin);
		free(text);
	}
	return found ||
	       match_in("built-in", v4lc_builtin_quirks, hw, q, origin);
}
