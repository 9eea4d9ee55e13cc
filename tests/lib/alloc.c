/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Memory the converter asks for, through our public API, with malloc,
 * calloc and realloc of this program counting the library's requests:
 *  - the chip decoders of OV511, OV518 and JPEG-Lite allocate nothing in
 *    the steady state (their work buffers live in the instance);
 *  - a flip without a crop reserves no scratch for frames it does not use:
 *    none when the source is already in the destination format, one frame
 *    (the converted one) otherwise.
 * Under AddressSanitizer (which owns malloc) the test is skipped.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libv4lconvert.h>

#include "../common/check.h"
#include "../common/fakedev.h"

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

#ifndef V4L2_PIX_FMT_JPGL
#define V4L2_PIX_FMT_JPGL v4l2_fourcc('J', 'P', 'G', 'L')
#endif

#define W 640
#define H 480

#ifndef UNDER_ASAN
/* glibc's allocator, under the names it exports for this purpose. */
extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t m);
extern void *__libc_realloc(void *p, size_t n);

static int counting;
static size_t n_requests, largest;

static void note(size_t n)
{
	if (!counting)
		return;
	n_requests++;
	if (n > largest)
		largest = n;
}

void *malloc(size_t n)
{
	note(n);
	return __libc_malloc(n);
}

void *calloc(size_t n, size_t m)
{
	note(n * m);
	return __libc_calloc(n, m);
}

void *realloc(void *p, size_t n)
{
	note(n);
	return __libc_realloc(p, n);
}

static void count(int on)
{
	if (on) {
		n_requests = 0;
		largest = 0;
	}
	counting = on;
}

static void fill_fmt(struct v4l2_format *f, uint32_t fourcc)
{
	memset(f, 0, sizeof(*f));
	f->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	f->fmt.pix.pixelformat = fourcc;
	f->fmt.pix.width = W;
	f->fmt.pix.height = H;
	f->fmt.pix.field = V4L2_FIELD_NONE;
}

static int convert(struct v4lconvert_data *cv, uint32_t from, uint32_t to,
		   uint8_t *src, int src_size, uint8_t *dst, int dst_size)
{
	struct v4l2_format sf, df;

	fill_fmt(&sf, from);
	fill_fmt(&df, to);
	return v4lconvert_convert(cv, &sf, &df, src, src_size, dst, dst_size);
}

static struct v4lconvert_data *open_device(struct fakedev *dev,
					   const uint32_t *fourccs, int n)
{
	memset(dev, 0, sizeof(*dev));
	dev->driver = "fake";
	dev->n_formats = n;
	for (int i = 0; i < n; i++) {
		dev->formats[i].fourcc = fourccs[i];
		dev->formats[i].n_sizes = 1;
		dev->formats[i].sizes[0][0] = W;
		dev->formats[i].sizes[0][1] = H;
	}
	return v4lconvert_create_with_dev_ops(-1, dev, &fakedev_ops);
}

/* Frames 3 to 5 of each chip format allocate nothing. */
static void chip_steady_state(uint8_t *src, size_t src_size, uint8_t *dst,
			      size_t dst_size)
{
	static const uint32_t chips[] = { V4L2_PIX_FMT_OV511,
					  V4L2_PIX_FMT_OV518,
					  V4L2_PIX_FMT_JPGL };
	static const uint32_t dsts[] = { V4L2_PIX_FMT_RGB24,
					 V4L2_PIX_FMT_YUV420 };
	struct fakedev dev;
	struct v4lconvert_data *cv = open_device(&dev, chips, 3);

	CHECK(cv, "create");
	if (!cv)
		return;
	for (size_t c = 0; c < sizeof(chips) / sizeof(chips[0]); c++)
		for (size_t d = 0; d < sizeof(dsts) / sizeof(dsts[0]); d++) {
			for (int i = 0; i < 2; i++)
				convert(cv, chips[c], dsts[d], src,
					(int)src_size, dst, (int)dst_size);
			count(1);
			for (int i = 0; i < 3; i++)
				convert(cv, chips[c], dsts[d], src,
					(int)src_size, dst, (int)dst_size);
			count(0);
			CHECK(n_requests == 0,
			      "%.4s -> %.4s: %zu allocations in 3 frames "
			      "(largest %zu bytes)",
			      (const char *)&chips[c], (const char *)&dsts[d],
			      n_requests, largest);
		}
	v4lconvert_destroy(cv);
}

/*
 * One horizontally flipped conversion on a fresh instance: its result, and
 * the largest request it made.
 */
static int flip_once(uint32_t from, uint8_t *src, int src_size, uint8_t *dst,
		     int dst_size, size_t *req)
{
	static const uint32_t fmts[] = { V4L2_PIX_FMT_YUYV,
					 V4L2_PIX_FMT_RGB24 };
	struct fakedev dev;
	struct v4lconvert_data *cv;
	int r;

	setenv("LIBV4LCONTROL_FLAGS", "1", 1); /* hflip */
	cv = open_device(&dev, fmts, 2);
	unsetenv("LIBV4LCONTROL_FLAGS");
	CHECK(cv, "create");
	if (!cv)
		return -1;
	count(1);
	r = convert(cv, from, V4L2_PIX_FMT_RGB24, src, src_size, dst, dst_size);
	count(0);
	*req = largest;
	CHECK(r >= 0, "%.4s -> RGB24 flipped: %s", (const char *)&from,
	      v4lconvert_get_error_message(cv));
	v4lconvert_destroy(cv);
	return r;
}

/* A horizontal flip reserves scratch only for the frames it uses. */
static void flip_scratch(uint8_t *src, uint8_t *dst, size_t dst_size)
{
	const size_t frame = (size_t)W * H * 3;
	size_t req;
	int r;

	r = flip_once(V4L2_PIX_FMT_RGB24, src, (int)frame, dst, (int)dst_size,
		      &req);
	CHECK(r == (int)frame, "RGB24 flip: %d", r);
	CHECK(req < frame / 2, "RGB24 flipped in place: a request of %zu bytes",
	      req);
	r = flip_once(V4L2_PIX_FMT_YUYV, src, W * H * 2, dst, (int)dst_size,
		      &req);
	CHECK(r == (int)frame, "YUYV -> RGB24 flip: %d", r);
	CHECK(req <= frame + 64,
	      "YUYV -> RGB24 flipped: a request of %zu bytes for a %zu-byte "
	      "frame",
	      req, frame);
}

int main(void)
{
	size_t src_size = (size_t)W * H * 3, dst_size = (size_t)W * H * 3;
	uint8_t *src = __libc_malloc(src_size), *dst = __libc_malloc(dst_size);
	uint32_t x = 12345;

	if (!src || !dst)
		return 1;
	/* noise: the chip decoders take any bytes (as damaged frames) */
	for (size_t i = 0; i < src_size; i++) {
		x = x * 1103515245u + 12345u;
		src[i] = (uint8_t)(x >> 24);
	}
	chip_steady_state(src, 30000, dst, dst_size);
	flip_scratch(src, dst, dst_size);
	free(src);
	free(dst);
	printf("%s: %d failure(s)\n", failures ? "FAIL" : "PASS",
	       (int)failures);
	return failures ? 1 : 0;
}
#else
int main(void)
{
	return 77; /* AddressSanitizer replaces malloc */
}
#endif
