/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The virtual camera's spec, the memfd's name after "libv4l-vcam:" (see
 * vcam.h): the formats offered (among formats.c's), their sizes, the
 * options.
 */
#include "vcam/vcam.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "vcam/priv.h"

int v4lc_vcam_name(char *buf, size_t size, const char *spec)
{
	int n = snprintf(buf, size, "%s:%s", V4LC_VCAM_PREFIX,
			 spec ? spec : "");

	/* memfd names are limited to 249 bytes. */
	if (n < 0 || (size_t)n >= size || n > 249)
		return -ENAMETOOLONG;
	return 0;
}

int v4lc_vcam_create(const char *spec)
{
	char name[256];

	if (v4lc_vcam_name(name, sizeof(name), spec)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return memfd_create(name, MFD_CLOEXEC);
}

/* The first field: FORMAT[,FORMAT...], each offered once. */
static int parse_formats(struct vcam *c, char *field)
{
	char *save = NULL;

	for (char *f = strtok_r(field, ",", &save); f;
	     f = strtok_r(NULL, ",", &save)) {
		char cc[4] = { ' ', ' ', ' ', ' ' };
		const struct vcam_format *d;
		size_t len = strlen(f);

		if (len == 0 || len > 4)
			return -1;
		memcpy(cc, f, len);
		/* The Bayer order by name: BGGR is "BA81". */
		if (!strcmp(f, "BGGR"))
			memcpy(cc, "BA81", 4);
		d = v4lc_vcam_format(v4l2_fourcc(cc[0], cc[1], cc[2], cc[3]));
		if (!d || c->nformats == VCAM_MAX_FORMATS)
			return -1;
		for (int i = 0; i < c->nformats; i++)
			if (c->formats[i] == d)
				return -1;
		c->formats[c->nformats++] = d;
	}
	return 0;
}

/* A decimal number in [lo, hi] that is all of s. */
static int parse_num(const char *s, long lo, long hi, long *out)
{
	char *end;
	long n = strtol(s, &end, 10);

	if (*end || end == s || n < lo || n > hi)
		return -1;
	*out = n;
	return 0;
}

/* "WxH": even, 16..4096 each. */
static int parse_size(const char *tok, int *w, int *h)
{
	char *end;
	long lw = strtol(tok, &end, 10), lh;

	if (*end != 'x')
		return -1;
	lh = strtol(end + 1, &end, 10);
	if (*end || lw < 16 || lh < 16 || lw > 4096 || lh > 4096 || (lw & 1) ||
	    (lh & 1))
		return -1;
	*w = (int)lw;
	*h = (int)lh;
	return 0;
}

/* One option after the formats (not a size). 0, or -1 when unknown. */
static int parse_option(struct vcam *c, const char *tok)
{
	long n;

	if (!strcmp(tok, "nopace")) {
		c->pace = 0;
	} else if (!strcmp(tok, "still")) {
		c->still = 1;
	} else if (!strcmp(tok, "scene")) {
		c->scene = 1;
	} else if (!strcmp(tok, "meta")) {
		c->meta = 1;
	} else if (!strncmp(tok, "unplug=", 7)) {
		if (parse_num(tok + 7, 1, 1000000, &n))
			return -1;
		c->unplug_after = (uint32_t)n;
	} else if (!strncmp(tok, "replug=", 7)) {
		if (parse_num(tok + 7, 0, 3600000, &n))
			return -1;
		c->replug_ms = (uint32_t)n;
		c->replug_set = 1;
	} else if (!strncmp(tok, "slow=", 5)) {
		if (parse_num(tok + 5, 0, 60000, &n))
			return -1;
		c->slow_ms = (uint32_t)n;
	} else if (!strcmp(tok, "lens") || !strncmp(tok, "lens=", 5)) {
		n = V4LC_VCAM_LENS_INFOCUS;
		if (tok[4] == '=' &&
		    parse_num(tok + 5, 0, V4LC_VCAM_LENS_MAX, &n))
			return -1;
		c->lens.enabled = 1;
		c->lens.infocus = (int)n;
	} else if (!strncmp(tok, "flip=", 5)) {
		for (const char *p = tok + 5; *p; p++) {
			if (*p == 'h')
				c->flip |= V4LC_VCAM_HFLIP;
			else if (*p == 'v')
				c->flip |= V4LC_VCAM_VFLIP;
			else
				return -1;
		}
	} else {
		return -1;
	}
	return 0;
}

/*
 * The discrete sizes of format f, by area: the three standard ones and the
 * spec's (given); a chip format its own sizes, and the spec's when its
 * encoder takes it.
 */
static void build_sizes(struct vcam *c, int f, int w, int h, int given)
{
	static const int std[3][2] = { { 320, 240 },
				       { 640, 480 },
				       { 1280, 720 } };
	uint32_t fourcc = c->formats[f]->fourcc;
	const int(*list)[2] = std;
	int nlist = v4lc_vcam_chip_sizes(fourcc, &list);
	int added = 0, n = 0;

	if (!nlist) {
		list = std;
		nlist = 3;
	} else if (!given || !v4lc_vcam_size_ok(fourcc, w, h)) {
		added = 1; /* not offered */
	}
	for (int i = 0; i < nlist; i++) {
		if (!added && (long)w * h <= (long)list[i][0] * list[i][1]) {
			if (w != list[i][0] || h != list[i][1]) {
				c->sizes[f][n][0] = w;
				c->sizes[f][n++][1] = h;
			}
			added = 1;
		}
		c->sizes[f][n][0] = list[i][0];
		c->sizes[f][n++][1] = list[i][1];
	}
	if (!added) {
		c->sizes[f][n][0] = w;
		c->sizes[f][n++][1] = h;
	}
	c->nsizes[f] = n;
}

int v4lc_vcam_parse_spec(struct vcam *c, char *spec)
{
	char *save = NULL, *tok;
	int field = 0, w = 640, h = 480, given = 0;

	c->pace = 1;
	for (tok = strtok_r(spec, ":", &save); tok;
	     tok = strtok_r(NULL, ":", &save), field++) {
		int r;

		if (field == 0) {
			r = parse_formats(c, tok);
		} else if (tok[0] >= '0' && tok[0] <= '9') {
			r = parse_size(tok, &w, &h);
			given = 1;
		} else {
			r = parse_option(c, tok);
		}
		if (r)
			return -1;
	}
	if (c->nformats == 0)
		c->formats[c->nformats++] = v4lc_vcam_format(V4L2_PIX_FMT_YUYV);
	for (int f = 0; f < c->nformats; f++)
		build_sizes(c, f, w, h, given);
	c->fmt.width = (uint32_t)w;
	c->fmt.height = (uint32_t)h;
	return 0;
}
