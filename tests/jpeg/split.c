/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The two-thread MJPEG split (src/jpeg/mjpeg_split.c), YUV420/YVU420 and
 * RGB24/BGR24 (there the single-thread path is tjDecompress2): a decoder
 * that splits large frames must give the same bytes and the same return
 * code as one that does not (LIBV4LCONVERT_THREADS=1 when it was created),
 * on intact frames of many sizes (odd ones too) and samplings, frames with
 * restart markers, progressive frames (never split), and damaged frames:
 * truncated at many points, bytes flipped in the entropy-coded data.
 * Intact frames are also checked against an independent 4:2:0 reference
 * built from tjDecompressToYUVPlanes (jpegtest.h) and against
 * tjDecompress2 for RGB24/BGR24. A fork()ed child must
 * decode with a worker of its own (or none), and the parent's worker must
 * still work afterwards.
 *
 * Exits 77 (skipped) when the process may not run on two CPUs: the split is
 * off then and there is nothing to compare.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jpeglib.h>
#include <linux/videodev2.h>

#include "jpeg/mjpeg.h"
#include "jpegtest.h"
#include "../common/check.h"

static int compared;

static struct v4lc_jpeg *split_dec, *single_dec;
static uint8_t *buf_a, *buf_b;
static size_t buf_size;

/*
 * Decode with both decoders into identically pre-filled buffers; the bytes
 * and the return codes must match. Returns the return code.
 */
static int both(const uint8_t *jpg, size_t n, uint32_t fourcc, int w, int h,
		const char *what)
{
	size_t need = v4lc_jpeg_dst_bytes(fourcc, w, h);
	char ea[256] = "", eb[256] = "";
	int ra, rb;

	if (need > buf_size) {
		free(buf_a);
		free(buf_b);
		buf_a = jt_xmalloc(need);
		buf_b = jt_xmalloc(need);
		buf_size = need;
	}
	memset(buf_a, 0x5a, need);
	memset(buf_b, 0x5a, need);
	ra = v4lc_jpeg_decode(split_dec, jpg, n, fourcc, buf_a, need, w, h, ea,
			      sizeof(ea));
	rb = v4lc_jpeg_decode(single_dec, jpg, n, fourcc, buf_b, need, w, h, eb,
			      sizeof(eb));
	compared++;
	CHECK(ra == rb, "%s: split returned %d (%s), single %d (%s)", what, ra,
	      ea, rb, eb);
	CHECK(ra == 0 || !strcmp(ea, eb), "%s: messages differ: '%s' / '%s'",
	      what, ea, eb);
	if (memcmp(buf_a, buf_b, need)) {
		size_t i = 0;

		while (buf_a[i] == buf_b[i])
			i++;
		CHECK(0, "%s: output differs at byte %zu (row %zu): %d vs %d",
		      what, i, i / (size_t)w, buf_a[i], buf_b[i]);
	}
	return ra;
}

/* A JPEG with restart markers every `rows` MCU rows (libjpeg compressor;
 * TurboJPEG 2.x cannot set a restart interval). */
static uint8_t *compress_restart(const uint8_t *rgb, int w, int h, int hs,
				 int vs, int rows, size_t *size)
{
	struct jpeg_compress_struct c;
	struct jpeg_error_mgr e;
	unsigned char *mem = NULL;
	unsigned long len = 0;
	uint8_t *out;

	c.err = jpeg_std_error(&e);
	jpeg_create_compress(&c);
	jpeg_mem_dest(&c, &mem, &len);
	c.image_width = (JDIMENSION)w;
	c.image_height = (JDIMENSION)h;
	c.input_components = 3;
	c.in_color_space = JCS_RGB;
	jpeg_set_defaults(&c);
	jpeg_set_quality(&c, 85, TRUE);
	c.comp_info[0].h_samp_factor = hs;
	c.comp_info[0].v_samp_factor = vs;
	c.restart_in_rows = rows;
	jpeg_start_compress(&c, TRUE);
	while (c.next_scanline < c.image_height) {
		JSAMPROW row =
			(JSAMPROW)(rgb + (size_t)c.next_scanline * 3 * w);

		jpeg_write_scanlines(&c, &row, 1);
	}
	jpeg_finish_compress(&c);
	jpeg_destroy_compress(&c);
	out = jt_xmalloc(len);
	memcpy(out, mem, len);
	free(mem);
	*size = len;
	return out;
}

/* Offset of the first byte after the SOS segment, or 0. */
static size_t entropy_start(const uint8_t *p, size_t n)
{
	size_t sos = jt_find_marker(p, n, 0xda);

	if (!sos)
		return 0;
	return sos + 2 + (((size_t)p[sos + 2] << 8) | p[sos + 3]);
}

/* tjDecompress2 straight (the RGB reference); malloc'd. */
static uint8_t *tj_rgb(const uint8_t *jpg, size_t n, int w, int h, int pf)
{
	tjhandle t = tjInitDecompress();
	uint8_t *out = jt_xmalloc((size_t)w * h * 3);

	if (!t ||
	    tjDecompress2(t, jpg, (unsigned long)n, out, w, 3 * w, h, pf, 0))
		CHECK(0, "tjDecompress2 failed on an intact frame");
	tjDestroy(t);
	return out;
}

/* all: also YVU420 and BGR24 (else YUV420 and RGB24 only) */
static void intact(const uint8_t *jpg, size_t n, int w, int h, int subsamp,
		   int all, const char *what)
{
	uint8_t *ref;
	int r = both(jpg, n, V4L2_PIX_FMT_YUV420, w, h, what);

	CHECK(r == 0, "%s: intact frame returned %d", what, r);
	ref = jt_reference_yuv420(jpg, n, w, h, subsamp);
	CHECK(!memcmp(buf_a, ref,
		      v4lc_jpeg_dst_bytes(V4L2_PIX_FMT_YUV420, w, h)),
	      "%s: split output differs from the tjDecompressToYUVPlanes "
	      "reference",
	      what);
	free(ref);
	if (all)
		both(jpg, n, V4L2_PIX_FMT_YVU420, w, h, what);
	for (int b = 0; b < 1 + all; b++) {
		uint32_t f = b ? V4L2_PIX_FMT_BGR24 : V4L2_PIX_FMT_RGB24;

		r = both(jpg, n, f, w, h, what);
		CHECK(r == 0, "%s: intact frame returned %d (%s)", what, r,
		      b ? "BGR24" : "RGB24");
		ref = tj_rgb(jpg, n, w, h, b ? TJPF_BGR : TJPF_RGB);
		CHECK(!memcmp(buf_a, ref, (size_t)w * h * 3),
		      "%s: split %s output differs from tjDecompress2", what,
		      b ? "BGR24" : "RGB24");
		free(ref);
	}
}

static void damaged(const uint8_t *jpg, size_t n, int w, int h, uint32_t fourcc,
		    const char *what)
{
	size_t es = entropy_start(jpg, n);
	uint8_t *copy = jt_xmalloc(n);
	char tag[160];
	int counts[3] = { 0, 0, 0 };

	/* truncations: in the headers, all through the entropy-coded data */
	for (int k = 0; k <= 24; k++) {
		size_t cut = es + (n - es) * (size_t)k / 24;
		int r;

		if (k == 0)
			cut = es > 20 ? es - 20 : es;
		snprintf(tag, sizeof(tag), "%s cut at %zu/%zu", what, cut, n);
		r = both(jpg, cut, fourcc, w, h, tag);
		counts[r == 0 ? 0 : r == -EPIPE ? 1 : 2]++;
	}
	/* flipped bytes in the entropy-coded data (never into a marker) */
	for (int k = 0; k < 24; k++) {
		memcpy(copy, jpg, n);
		for (int f = 0; f < 1 + k % 4; f++) {
			size_t at = es + jt_rand() % (n - es - 2);
			uint8_t v = (uint8_t)jt_rand();

			if (copy[at] == 0xff || copy[at - 1] == 0xff ||
			    v == 0xff)
				continue;
			copy[at] = v;
		}
		snprintf(tag, sizeof(tag), "%s flip case %d", what, k);
		{
			int r = both(copy, n, fourcc, w, h, tag);

			counts[r == 0 ? 0 : r == -EPIPE ? 1 : 2]++;
		}
	}
	printf("  %s %s damaged: %d ok, %d EPIPE, %d other\n", what,
	       fourcc == V4L2_PIX_FMT_RGB24 ? "RGB24" : "YUV420", counts[0],
	       counts[1], counts[2]);
	free(copy);
}

static void fork_check(const uint8_t *jpg, size_t n, int w, int h)
{
	size_t need = v4lc_jpeg_dst_bytes(V4L2_PIX_FMT_YUV420, w, h);
	unsigned long before = v4lc_jpeg_split_frames(split_dec);
	int status = 0;
	pid_t pid;

	/* the child's new worker reads it again */
	setenv("LIBV4LCONVERT_THREADS", "2", 1);
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		CHECK(0, "fork failed");
		return;
	}
	if (pid == 0) {
		uint8_t *a = jt_xmalloc(need), *b = jt_xmalloc(need);
		int ra, rb;

		ra = v4lc_jpeg_decode(split_dec, jpg, n, V4L2_PIX_FMT_YUV420, a,
				      need, w, h, NULL, 0);
		rb = v4lc_jpeg_decode(single_dec, jpg, n, V4L2_PIX_FMT_YUV420,
				      b, need, w, h, NULL, 0);
		/* a second frame on the child's own worker */
		ra |= v4lc_jpeg_decode(split_dec, jpg, n, V4L2_PIX_FMT_YUV420,
				       a, need, w, h, NULL, 0);
		if (ra || rb || memcmp(a, b, need))
			_exit(1);
		/* the child's decoder split its frames (a worker of its own) */
		if (v4lc_jpeg_split_frames(split_dec) < 2)
			_exit(2);
		v4lc_jpeg_free(split_dec);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid)
		CHECK(0, "waitpid failed");
	else
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "fork child: status 0x%x (1: wrong output, 2: no split)",
		      status);
	both(jpg, n, V4L2_PIX_FMT_YUV420, w, h, "parent after fork");
	CHECK(v4lc_jpeg_split_frames(split_dec) > before,
	      "the parent's worker stopped splitting after fork");
}

int main(void)
{
	static const struct {
		int w, h;
	} sizes[] = {
		{ 640, 480 },   { 642, 482 },  { 1280, 720 }, { 1283, 725 },
		{ 1920, 1080 }, { 721, 1279 }, { 4096, 160 }, { 640, 1000 },
	};
	static const int samps[] = { TJSAMP_422,  TJSAMP_420, TJSAMP_444,
				     TJSAMP_GRAY, TJSAMP_440, TJSAMP_411 };
	cpu_set_t set;
	unsigned long split_before;

	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set) || CPU_COUNT(&set) < 2) {
		printf("SKIP: fewer than two CPUs, the split is off\n");
		return 77;
	}
	/* The variable is read when a decoder creates its worker, on its
	 * first large frame. 2: split every large frame, whether that pays on
	 * this (maybe busy) machine or not. */
	setenv("LIBV4LCONVERT_THREADS", "2", 1);
	split_dec = v4lc_jpeg_new();
	if (!split_dec)
		return 99;
	{
		int w = 640, h = 480;
		uint8_t *img = jt_make_image(w, h, 3), *dst;
		size_t n, need = v4lc_jpeg_dst_bytes(V4L2_PIX_FMT_YUV420, w, h);
		uint8_t *jpg = jt_compress(img, w, h, TJSAMP_422, 85, 0, &n);

		dst = jt_xmalloc(need);
		CHECK(v4lc_jpeg_decode(split_dec, jpg, n, V4L2_PIX_FMT_YUV420,
				       dst, need, w, h, NULL, 0) == 0 &&
			      v4lc_jpeg_split_frames(split_dec) == 1,
		      "the first 640x480 frame was not split");
		free(dst);
		free(jpg);
		free(img);
	}
	setenv("LIBV4LCONVERT_THREADS", "1", 1);
	single_dec = v4lc_jpeg_new();
	if (!single_dec)
		return 99;

	for (size_t si = 0; si < JT_ARRAY_SIZE(sizes); si++) {
		int w = sizes[si].w, h = sizes[si].h;
		uint8_t *img = jt_make_image(w, h, (unsigned)si);

		for (size_t k = 0; k < JT_ARRAY_SIZE(samps); k++) {
			int ss = samps[k], removed;
			size_t n, m;
			uint8_t *jpg = jt_compress(img, w, h, ss,
						   k % 2 ? 95 : 75, 0, &n);
			uint8_t *bare = jt_xmalloc(n);
			char what[96];

			m = jt_strip_dht(jpg, n, bare, &removed);
			snprintf(what, sizeof(what), "%dx%d %s", w, h,
				 jt_samp_name[ss]);
			intact(jpg, n, w, h, ss, 0, what);
			snprintf(what, sizeof(what), "%dx%d %s no DHT", w, h,
				 jt_samp_name[ss]);
			intact(bare, m, w, h, ss, 1, what);
			/* damage only some (ASan/TSan runs are slow) */
			if ((si + k) % 3 == 0)
				damaged(bare, m, w, h, V4L2_PIX_FMT_YUV420,
					what);
			else if ((si + k) % 3 == 1)
				damaged(bare, m, w, h, V4L2_PIX_FMT_RGB24,
					what);
			free(bare);
			free(jpg);
		}
		/* progressive: never split, same result */
		{
			size_t n;
			uint8_t *jpg = jt_compress(img, w, h, TJSAMP_422, 85,
						   TJFLAG_PROGRESSIVE, &n);

			intact(jpg, n, w, h, TJSAMP_422, 0, "progressive");
			free(jpg);
		}
		/* restart markers (every MCU row, every 3 rows) */
		for (int rr = 1; rr <= 3; rr += 2) {
			size_t n;
			uint8_t *jpg =
				compress_restart(img, w, h, 2, 1, rr, &n);
			char what[96];

			snprintf(what, sizeof(what), "%dx%d 422 restart %d", w,
				 h, rr);
			intact(jpg, n, w, h, TJSAMP_422, rr == 1, what);
			if (si % 3 == 1)
				damaged(jpg, n, w, h,
					rr == 1 ? V4L2_PIX_FMT_YUV420
						: V4L2_PIX_FMT_RGB24,
					what);
			free(jpg);
		}
		free(img);
	}
	CHECK(v4lc_jpeg_split_frames(single_dec) == 0,
	      "LIBV4LCONVERT_THREADS=1 did not keep the decoder on one thread");
	split_before = v4lc_jpeg_split_frames(split_dec);
	CHECK(split_before > 100, "only %lu frames were split", split_before);

	/* small frames stay on one thread */
	{
		int w = 320, h = 240;
		uint8_t *img = jt_make_image(w, h, 7);
		size_t n;
		uint8_t *jpg = jt_compress(img, w, h, TJSAMP_422, 85, 0, &n);

		intact(jpg, n, w, h, TJSAMP_422, 1, "320x240");
		CHECK(v4lc_jpeg_split_frames(split_dec) == split_before,
		      "a 320x240 frame was split");
		free(jpg);
		free(img);
	}
	{
		int w = 1280, h = 720;
		uint8_t *img = jt_make_image(w, h, 9);
		size_t n;
		uint8_t *jpg = jt_compress(img, w, h, TJSAMP_422, 85, 0, &n);

#ifdef __SANITIZE_THREAD__
		/* TSan refuses new threads in a child of a threaded process */
		printf("fork check skipped under ThreadSanitizer\n");
		(void)fork_check;
#else
		fork_check(jpg, n, w, h);
#endif
		free(jpg);
		free(img);
	}

	printf("%d comparisons, %lu frames split, %d failures\n", compared,
	       v4lc_jpeg_split_frames(split_dec), failures);
	v4lc_jpeg_free(split_dec);
	v4lc_jpeg_free(single_dec);
	free(buf_a);
	free(buf_b);
	return failures ? 1 : 0;
}
