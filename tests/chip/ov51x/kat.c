/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * OV511/OV518 decoders against known answers: the frames of kat/ with the
 * SHA-256 of the original helpers' replies (kat/MANIFEST.txt, recorded
 * from the installed helpers, each in a fresh process), and the
 * hand-checkable facts of the specification. Needs no oracle.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jpeg/ov51x.h"
#include "ovtest.h"

static uint8_t *read_file(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	uint8_t *b;
	long len;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	b = ot_xmalloc((size_t)len);
	if (fread(b, 1, (size_t)len, f) != (size_t)len) {
		fclose(f);
		free(b);
		return NULL;
	}
	fclose(f);
	*n = (size_t)len;
	return b;
}

static int manifest(void)
{
	char line[512], path[1024];
	FILE *m = fopen(KAT_DIR "/MANIFEST.txt", "r");
	int cases = 0;

	if (!m) {
		fprintf(stderr, "no %s\n", KAT_DIR "/MANIFEST.txt");
		return -1;
	}
	while (fgets(line, sizeof(line), m)) {
		char name[64], fcc[8], hash[65] = "", got[65];
		int w, h, yvu, r;
		size_t n, size;
		uint8_t *in, *out;
		const char *sha = strstr(line, "sha256 ");

		if (sscanf(line, "%63[^:]: fourcc %7s w=%d h=%d yvu=%d", name,
			   fcc, &w, &h, &yvu) != 5)
			continue;
		if (sha)
			sscanf(sha + 7, "%64s", hash);
		snprintf(path, sizeof(path), "%s/%s.in", KAT_DIR, name);
		in = read_file(path, &n);
		CHECK(in, "%s: cannot read %s", name, path);
		if (!in)
			continue;
		size = v4lc_ov51x_out_size(w, h);
		out = ot_xmalloc(size);
		/* the helper's output buffer starts zero: so does ours */
		memset(out, 0xa5, size);
		r = !strcmp(fcc, "O518") ? ot_ov518(in, n, out, w, h, yvu, NULL)
					 : ot_ov511(in, n, out, w, h, NULL);
		if (hash[0]) {
			CHECK(r == 0, "%s: rejected (%d)", name, r);
			ot_sha256(out, size, got);
			CHECK(r || !strcmp(got, hash),
			      "%s: sha256 %s, expected %s", name, got, hash);
		} else {
			CHECK(r == -EAGAIN,
			      "%s: accepted (%d), the original "
			      "rejects it",
			      name, r);
		}
		cases++;
		free(in);
		free(out);
	}
	fclose(m);
	return cases;
}

static void facts(void)
{
	uint8_t in[1024], out[4096];
	char got[65];
	int r;

	/* OV518 16x8: 8 zero bytes, 200 bytes 0x01 */
	memset(in, 0, 8);
	memset(in + 8, 1, 200);
	r = ot_ov518(in, 208, out, 16, 8, 0, NULL);
	CHECK(r == 0, "O518 16x8 0x01: %d", r);
	ot_sha256(out, 192, got);
	CHECK(!strcmp(got,
		      "91902709040d7584698bc064793e8e0d90b6809ea3b1fc107a4c06b632c7996a"),
	      "O518 16x8 0x01: sha256 %s", got);
	{
		static const uint8_t first[16] = { 0x77, 0x86, 0x7f, 0x7c,
						   0x81, 0x83, 0x80, 0x80,
						   0x77, 0x86, 0x7f, 0x7c,
						   0x81, 0x83, 0x80, 0x80 };
		uint8_t yvu[192];

		CHECK(!memcmp(out, first, 16), "O518 16x8 0x01: first bytes");
		r = ot_ov518(in, 208, yvu, 16, 8, 1, NULL);
		CHECK(r == 0 && !memcmp(yvu, out, 128) &&
			      !memcmp(yvu + 128, out + 160, 32) &&
			      !memcmp(yvu + 160, out + 128, 32),
		      "O518 16x8 0x01 yvu: planes not swapped");
	}
	CHECK(ot_ov518(in, 8 + 63, out, 16, 8, 0, NULL) == -EAGAIN,
	      "O518 L = 63 accepted");
	CHECK(ot_ov518(in, 8 + 64, out, 16, 8, 0, NULL) == -EAGAIN,
	      "O518 L = 64 accepted");
	/* OV511 32x16 raw: 0..255 three times */
	memset(in, 0, 8);
	in[8] = 0x08;
	for (int i = 0; i < 768; i++)
		in[9 + i] = (uint8_t)i;
	memset(in + 9 + 768, 0, 11);
	r = ot_ov511(in, 9 + 768 + 11, out, 32, 16, NULL);
	ot_sha256(out, 768, got);
	CHECK(r == 0 &&
		      !strcmp(got,
			      "47d496b5e35f0642009a09ff2ec9e344ae6009b67ac5c3d290812f1824b10f97"),
	      "O511 32x16 raw: %d, sha256 %s", r, got);
	CHECK(out[0] == 0x80 && out[1] == 0x81, "O511 raw: Y row 0");
	memset(out, 0x55, 768);
	r = ot_ov511(in, 0, out, 32, 16, NULL);
	{
		int zero = 1;

		for (int i = 0; i < 768; i++)
			zero &= out[i] == 0;
		CHECK(r == 0 && zero, "O511 empty frame: %d, not all zero", r);
	}
	CHECK(ot_ov511(NULL, 0, out, 32, 16, NULL) == 0,
	      "O511 no frame at all rejected");
	CHECK(ot_ov518(NULL, 0, out, 32, 16, 0, NULL) == -EAGAIN,
	      "O518 no frame at all accepted");
	CHECK(ot_ov511(in, 100, out, 0, 16, NULL) == -EINVAL,
	      "O511 w = 0 accepted");
	CHECK(ot_ov518(in, 100, out, 16, 0, 0, NULL) == -EINVAL,
	      "O518 h = 0 accepted");
	CHECK(!v4lc_ov51x_out_size(800, 600), "800x600 accepted (> 500000)");
	CHECK(v4lc_ov51x_out_size(640, 480) == 460800, "640x480 size");
}

int main(void)
{
	int n = manifest();

	facts();
	if (n < 14)
		CHECK(0, "only %d manifest cases", n);
	printf("ov51x-kat: %d manifest cases, %s\n", n,
	       failures ? "FAILED" : "ok");
	return failures ? 1 : 0;
}
