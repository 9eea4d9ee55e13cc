/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* v4l2-doctor's answer: one screen of text, or JSON for scripts. */
#include <stdio.h>
#include <string.h>

#include "doctor.h"
#include "libv4lconvert/quirks.h"

static const struct {
	unsigned bit;
	const char *name; /* as data/camera-quirks.conf spells it */
} quirk_names[] = {
	{ V4LC_QUIRK_HFLIP, "hflip" },
	{ V4LC_QUIRK_VFLIP, "vflip" },
	{ V4LC_QUIRK_ROT90_JPEG, "rot90-jpeg" },
	{ V4LC_QUIRK_WB, "wb" },
	{ V4LC_QUIRK_AUTOGAIN, "autogain" },
	{ V4LC_QUIRK_TINYJPEG, "tinyjpeg" },
};

/* "hflip,vflip" or "none"; in JSON a list of strings. */
static void flags(FILE *f, unsigned bits, int json)
{
	int n = 0;

	fputs(json ? "[" : "", f);
	for (size_t i = 0; i < sizeof(quirk_names) / sizeof(quirk_names[0]);
	     i++) {
		if (!(bits & quirk_names[i].bit))
			continue;
		fprintf(f, json ? "%s\"%s\"" : "%s%s", n++ ? "," : "",
			quirk_names[i].name);
	}
	fputs(json ? "]" : (n ? "" : "none"), f);
}

/* As v4l2-ctl writes it: "YUYV", "AR15-BE" (V4L2_PIX_FMT_FLAG_BE_ORDER). */
static const char *fcc(uint32_t v, char buf[8])
{
	for (int i = 0; i < 4; i++) {
		char c = (char)((v >> (8 * i)) & 0x7f);

		buf[i] = c >= 0x20 && c < 0x7f && c != '"' && c != '\\' ? c
									: '.';
	}
	snprintf(buf + 4, 4, "%s", v & (1u << 31) ? "-BE" : "");
	return buf;
}

static void text_sizes(FILE *f, const struct doc_fmt *m)
{
	if (m->stepwise) {
		fprintf(f, " %ux%u..%ux%u", m->step.min_width,
			m->step.min_height, m->step.max_width,
			m->step.max_height);
		return;
	}
	for (int i = 0; i < m->nsizes; i++)
		fprintf(f, " %ux%u", m->sizes[i].width, m->sizes[i].height);
}

static void text_quirks(FILE *f, const struct v4lc_quirk_report *q)
{
	fputs("  quirks:     ", f);
	flags(f, q->flags, 0);
	fputc('\n', f);
	if (q->driver_flags) {
		fputs("    from the driver (input status, sensor rotation): ",
		      f);
		flags(f, q->driver_flags, 0);
		fputc('\n', f);
	}
	if (q->matched)
		fprintf(f, "    rule %s:%u: %s\n", q->rule_file, q->rule_line,
			q->rule);
	else
		fputs("    no rule of the quirk table matches\n", f);
	if (q->env_override)
		fputs("    LIBV4LCONTROL_FLAGS replaces all of it\n", f);
}

static void text_server(FILE *f, const struct doc_server *s)
{
	if (!s->socket[0] || !s->state) {
		fputs("  frame server: none runs\n", f);
		return;
	}
	fprintf(f, "  frame server: %s", s->socket);
	if (s->state == -2) {
		fputs(" (accepts no connection: stopped or wedged)\n", f);
		return;
	}
	if (s->state < 0) {
		fputs(" (no client list)\n", f);
		return;
	}
	fprintf(f, ", %u client%s", s->who.count, s->who.count == 1 ? "" : "s");
	for (uint32_t i = 0; i < s->who.count && i < FS_CLIENTS_MAX; i++)
		fprintf(f, "%s pid %u%s", i ? "," : ":", s->who.pid[i],
			s->who.streaming[i] ? " (streaming)" : "");
	fputc('\n', f);
}

static void text_dev(FILE *f, const struct doc_dev *d)
{
	char a[8], b[8];

	fprintf(f, "%s\n", d->name);
	if (!d->ok) {
		fprintf(f, "  error: %s\n", d->error);
		return;
	}
	fprintf(f, "  driver:     %s, card \"%s\", bus %s", d->driver, d->card,
		d->bus);
	if (d->quirks.vendor)
		fprintf(f, ", usb %04x:%04x", d->quirks.vendor,
			d->quirks.product);
	if (!d->capture) {
		fputs("\n  not a video capture device: libv4l2 passes it "
		      "through\n",
		      f);
		return;
	}
	fputs("\n  native:\n", f);
	for (int i = 0; i < d->nfmts; i++) {
		fprintf(f, "    %s%s", fcc(d->fmts[i].fourcc, a),
			d->fmts[i].hidden ? " (not offered as is)" : "");
		text_sizes(f, &d->fmts[i]);
		fputc('\n', f);
	}
	fprintf(f, "  emulated (<from, at %ux%u):", d->width, d->height);
	for (int i = 0; i < d->nemu; i++)
		fprintf(f, " %s<%s", fcc(d->emu[i].fourcc, a),
			fcc(d->emu[i].src, b));
	fputs(d->nemu ? "\n" : " none\n", f);
	text_quirks(f, &d->quirks);
	fputs("  emulated controls:", f);
	for (int i = 0; i < d->nctrls; i++)
		fprintf(f, "%s %s", i ? ";" : "", d->ctrls[i].name);
	fputs(d->nctrls ? "\n" : " none\n", f);
	text_server(f, &d->server);
}

void doc_print_text(FILE *f, const struct doc_dev *devs, int n,
		    const char *simd)
{
	for (int i = 0; i < n; i++)
		text_dev(f, &devs[i]);
	if (!n)
		fputs("no V4L2 device found\n", f);
	fprintf(f, "SIMD tier: %s\n", simd);
}

/* A JSON string: quotes, backslashes and control characters escaped. */
static void jstr(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void json_fmt(FILE *f, const struct doc_fmt *m)
{
	char a[8];

	fputs("{\"fourcc\":", f);
	jstr(f, fcc(m->fourcc, a));
	fputs(",\"description\":", f);
	jstr(f, m->desc);
	if (!m->emulated)
		fprintf(f, ",\"hidden\":%s", m->hidden ? "true" : "false");
	if (m->emulated) {
		fputs(",\"from\":", f);
		jstr(f, m->src ? fcc(m->src, a) : "");
		fprintf(f, ",\"from_size\":[%u,%u]}", m->src_w, m->src_h);
		return;
	}
	if (m->stepwise)
		fprintf(f, ",\"sizes\":{\"min\":[%u,%u],\"max\":[%u,%u]}}",
			m->step.min_width, m->step.min_height,
			m->step.max_width, m->step.max_height);
	else {
		fputs(",\"sizes\":[", f);
		for (int i = 0; i < m->nsizes; i++)
			fprintf(f, "%s[%u,%u]", i ? "," : "", m->sizes[i].width,
				m->sizes[i].height);
		fputs("]}", f);
	}
}

static void json_quirks(FILE *f, const struct v4lc_quirk_report *q)
{
	fputs("\"quirks\":{\"flags\":", f);
	flags(f, q->flags, 1);
	fputs(",\"driver\":", f);
	flags(f, q->driver_flags, 1);
	fputs(",\"rule\":", f);
	if (q->matched) {
		fputs("{\"file\":", f);
		jstr(f, q->rule_file);
		fprintf(f, ",\"line\":%u,\"text\":", q->rule_line);
		jstr(f, q->rule);
		fputs(",\"flags\":", f);
		flags(f, q->rule_flags, 1);
		fprintf(f, ",\"gamma\":%d}", q->rule_gamma);
	} else {
		fputs("null", f);
	}
	fprintf(f, ",\"env_override\":%s}", q->env_override ? "true" : "false");
}

static void json_server(FILE *f, const struct doc_server *s)
{
	fputs("\"frame_server\":", f);
	if (!s->socket[0] || !s->state) {
		fputs("null", f);
		return;
	}
	fputs("{\"socket\":", f);
	jstr(f, s->socket);
	if (s->state == -2) {
		fputs(",\"clients\":null,\"answering\":false}", f);
		return;
	}
	if (s->state < 0) {
		fputs(",\"clients\":null}", f);
		return;
	}
	fputs(",\"clients\":[", f);
	for (uint32_t i = 0; i < s->who.count && i < FS_CLIENTS_MAX; i++)
		fprintf(f, "%s{\"pid\":%u,\"streaming\":%s}", i ? "," : "",
			s->who.pid[i], s->who.streaming[i] ? "true" : "false");
	fprintf(f, "],\"count\":%u}", s->who.count);
}

static void json_dev(FILE *f, const struct doc_dev *d)
{
	fputs("{\"device\":", f);
	jstr(f, d->name);
	if (!d->ok) {
		fputs(",\"error\":", f);
		jstr(f, d->error);
		fputc('}', f);
		return;
	}
	fputs(",\"driver\":", f);
	jstr(f, d->driver);
	fputs(",\"card\":", f);
	jstr(f, d->card);
	fputs(",\"bus\":", f);
	jstr(f, d->bus);
	if (d->quirks.vendor)
		fprintf(f, ",\"usb_id\":\"%04x:%04x\"", d->quirks.vendor,
			d->quirks.product);
	else
		fputs(",\"usb_id\":null", f);
	fprintf(f, ",\"capture\":%s", d->capture ? "true" : "false");
	if (!d->capture) {
		fputc('}', f);
		return;
	}
	fprintf(f, ",\"size\":[%u,%u],\"native\":[", d->width, d->height);
	for (int i = 0; i < d->nfmts; i++) {
		fputs(i ? "," : "", f);
		json_fmt(f, &d->fmts[i]);
	}
	fputs("],\"emulated\":[", f);
	for (int i = 0; i < d->nemu; i++) {
		fputs(i ? "," : "", f);
		json_fmt(f, &d->emu[i]);
	}
	fputs("],", f);
	json_quirks(f, &d->quirks);
	fputs(",\"emulated_controls\":[", f);
	for (int i = 0; i < d->nctrls; i++) {
		fprintf(f, "%s{\"id\":%u,\"name\":", i ? "," : "",
			d->ctrls[i].id);
		jstr(f, d->ctrls[i].name);
		fprintf(f, ",\"min\":%d,\"max\":%d,\"default\":%d}",
			d->ctrls[i].min, d->ctrls[i].max, d->ctrls[i].def);
	}
	fputs("],", f);
	json_server(f, &d->server);
	fputc('}', f);
}

void doc_print_json(FILE *f, const struct doc_dev *devs, int n,
		    const char *simd)
{
	fputs("{\"simd_tier\":", f);
	jstr(f, simd);
	fputs(",\"devices\":[", f);
	for (int i = 0; i < n; i++) {
		fputs(i ? ",\n" : "\n", f);
		json_dev(f, &devs[i]);
	}
	fputs("\n]}\n", f);
}
