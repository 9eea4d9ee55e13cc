/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * v4lc_frame_transform at the best tier against a naive pixel-by-pixel
 * model written here from the rules in core/frame.h and src/scalar/flip.c:
 *
 *   destination pixel (X, Y) takes source pixel map(X, Y) with
 *     HFLIP    (w-1-X, Y)        VFLIP    (X, h-1-Y)
 *     ROT180   (w-1-X, h-1-Y)
 *     ROT90CW  (Y, h-1-X)        ROT90CCW (w-1-Y, X)
 *   and, for YU12/YV12, destination chroma sample (CX, CY) is the chroma
 *   sample of source pixel map(2CX, 2CY) (its block's top-left pixel).
 *
 * Packed 4:2:2 (YUYV, YVYU, UYVY, VYUY; flips only) has its own model:
 * destination luma (X, Y) is source luma map(X, Y); the two chroma bytes
 * of destination pair J are those of the source pair holding map(2J, Y);
 * for odd widths the spare luma slot of the last pair repeats luma
 * (w-1, Y) of the destination (HFLIP, ROT180), or is the source row's
 * (VFLIP copies whole rows).
 *
 * Also: algebraic identities, untouched stride padding and buffer tail,
 * and the error codes.
 */
#include <errno.h>
#include <linux/videodev2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/frame.h"
#include "../common/check.h"
#include "../common/rng.h"

static const struct {
	uint32_t fourcc;
	const char *name;
	int rgb;
} formats[] = {
	{ V4L2_PIX_FMT_RGB24, "RGB3", 1 },
	{ V4L2_PIX_FMT_BGR24, "BGR3", 1 },
	{ V4L2_PIX_FMT_YUV420, "YU12", 0 },
	{ V4L2_PIX_FMT_YVU420, "YV12", 0 },
};
#define NFORMATS (int)(sizeof(formats) / sizeof(formats[0]))

static const char *const op_names[] = { "HFLIP", "VFLIP", "ROT180", "ROT90CW",
					"ROT90CCW" };

#define FILL 0xc3
#define TAIL 32 /* bytes after each frame that must stay FILL */

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint8_t rnd8(void)
{
	return (uint8_t)(xorshift64(&rng) >> 24);
}

/* A test frame: geometry computed here, independently of the library. */
struct tframe {
	struct v4lc_frame f;
	int rgb;
	size_t stride, cstride, luma, chroma, total;
	uint8_t *buf; /* total + TAIL bytes */
};

static void tframe_init(struct tframe *t, int fmt, int w, int h, int extra)
{
	size_t min;

	memset(t, 0, sizeof(*t));
	t->rgb = formats[fmt].rgb;
	min = (size_t)w * (t->rgb ? 3 : 1);
	t->stride = min + (size_t)extra;
	t->luma = t->stride * (size_t)h;
	t->cstride = t->rgb ? 0 : (t->stride + 1) / 2;
	t->chroma = t->rgb ? 0 : t->cstride * (size_t)((h + 1) / 2);
	t->total = t->luma + 2 * t->chroma;
	t->buf = malloc(t->total + TAIL);
	if (!t->buf) {
		printf("out of memory\n");
		exit(1);
	}
	memset(t->buf, FILL, t->total + TAIL);
	t->f.fourcc = formats[fmt].fourcc;
	t->f.width = w;
	t->f.height = h;
	/* extra == 0 is sent as stride 0 ("minimal") half of the time */
	t->f.stride = (extra == 0 && (w + h) % 2) ? 0 : (int)t->stride;
	t->f.data = t->buf;
	t->f.size = t->total;
}

static void tframe_random(struct tframe *t)
{
	for (size_t i = 0; i < t->total; i++)
		t->buf[i] = rnd8();
}

/* Address of component c of pixel (x, y) in plane p (0 luma/RGB, 1, 2). */
static const uint8_t *pix(const struct tframe *t, int p, int x, int y, int c)
{
	if (t->rgb)
		return t->buf + (size_t)y * t->stride + 3 * (size_t)x + c;
	if (p == 0)
		return t->buf + (size_t)y * t->stride + (size_t)x;
	return t->buf + t->luma + (size_t)(p - 1) * t->chroma +
	       (size_t)y * t->cstride + (size_t)x;
}

static void map(enum v4lc_transform op, int w, int h, int X, int Y, int *x,
		int *y)
{
	switch (op) {
	case V4LC_XFORM_HFLIP:
		*x = w - 1 - X;
		*y = Y;
		break;
	case V4LC_XFORM_VFLIP:
		*x = X;
		*y = h - 1 - Y;
		break;
	case V4LC_XFORM_ROT180:
		*x = w - 1 - X;
		*y = h - 1 - Y;
		break;
	case V4LC_XFORM_ROT90CW:
		*x = Y;
		*y = h - 1 - X;
		break;
	default:
		*x = w - 1 - Y;
		*y = X;
		break;
	}
}

/* Is byte `off` of the frame a pixel byte (not stride padding)? */
static int is_pixel(const struct tframe *t, size_t off)
{
	int w = t->f.width;

	if (off < t->luma)
		return (off % t->stride) < (size_t)w * (t->rgb ? 3 : 1);
	off -= t->luma;
	off %= t->chroma;
	return (off % t->cstride) < (size_t)((w + 1) / 2);
}

/* Compare dst with the model of op(src); 1 when equal. */
static int check_model(const struct tframe *s, const struct tframe *d,
		       enum v4lc_transform op, const char *what)
{
	int sw = s->f.width, sh = s->f.height;
	int dw = d->f.width, dh = d->f.height;

	for (int Y = 0; Y < dh; Y++) {
		for (int X = 0; X < dw; X++) {
			int x, y;

			map(op, sw, sh, X, Y, &x, &y);
			for (int c = 0; c < (s->rgb ? 3 : 1); c++) {
				uint8_t e = *pix(s, 0, x, y, c);
				uint8_t g = *pix(d, 0, X, Y, c);

				if (e != g) {
					CHECK(0,
					      "%s: pixel (%d,%d) c%d is %u, "
					      "expected %u (from %d,%d)",
					      what, X, Y, c, g, e, x, y);
					return 0;
				}
			}
		}
	}
	if (!s->rgb) {
		for (int p = 1; p <= 2; p++) {
			for (int Y = 0; Y < (dh + 1) / 2; Y++) {
				for (int X = 0; X < (dw + 1) / 2; X++) {
					int x, y;
					uint8_t e, g;

					map(op, sw, sh, 2 * X, 2 * Y, &x, &y);
					e = *pix(s, p, x / 2, y / 2, 0);
					g = *pix(d, p, X, Y, 0);
					if (e != g) {
						CHECK(0,
						      "%s: chroma %d (%d,%d)"
						      " is %u, expected %u",
						      what, p, X, Y, g, e);
						return 0;
					}
				}
			}
		}
	}
	for (size_t i = 0; i < d->total + TAIL; i++) {
		if ((i >= d->total || !is_pixel(d, i)) && d->buf[i] != FILL) {
			CHECK(0, "%s: wrote padding/tail byte %zu of %zu", what,
			      i, d->total);
			return 0;
		}
	}
	return 1;
}

static int is_rot(enum v4lc_transform op)
{
	return op == V4LC_XFORM_ROT90CW || op == V4LC_XFORM_ROT90CCW;
}

/* Pixel contents (not padding) of two frames of the same geometry. */
static int same_pixels(const struct tframe *a, const struct tframe *b)
{
	if (a->f.width != b->f.width || a->f.height != b->f.height)
		return 0;
	for (int p = 0; p < (a->rgb ? 1 : 3); p++) {
		int w = p ? (a->f.width + 1) / 2 : a->f.width;
		int h = p ? (a->f.height + 1) / 2 : a->f.height;
		int bytes = a->rgb ? 3 * w : w;

		for (int y = 0; y < h; y++)
			if (memcmp(pix(a, p, 0, y, 0), pix(b, p, 0, y, 0),
				   (size_t)bytes))
				return 0;
	}
	return 1;
}

static int xform(const struct tframe *s, struct tframe *d,
		 enum v4lc_transform op)
{
	return v4lc_frame_transform(v4lc_dsp_get(), &s->f, &d->f, op);
}

static void test_model(void)
{
	static const int sizes[] = { 1,  2,  3,  4,  5,  7,  8,  15, 16,
				     17, 31, 32, 33, 47, 64, 65, 127 };
	const int n = (int)(sizeof(sizes) / sizeof(sizes[0]));
	int cases = 0;

	for (int fmt = 0; fmt < NFORMATS; fmt++) {
		for (int wi = 0; wi < n; wi++) {
			for (int hi = 0; hi < n; hi++) {
				int w = sizes[wi], h = sizes[hi];

				/* every third pair, and all small ones */
				if (w > 17 && h > 17 && (wi + hi) % 3)
					continue;
				for (int op = 0; op < 5; op++) {
					int rot =
						is_rot((enum v4lc_transform)op);
					int sx = (wi + op) % 2
							 ? 0
							 : 1 + rnd8() % 13;
					int dx = (hi + op) % 2
							 ? 0
							 : 1 + rnd8() % 13;
					struct tframe s, d;
					char what[96];
					int ret;

					tframe_init(&s, fmt, w, h, sx);
					tframe_init(&d, fmt, rot ? h : w,
						    rot ? w : h, dx);
					tframe_random(&s);
					snprintf(what, sizeof(what),
						 "%s %s %dx%d +%d/+%d",
						 formats[fmt].name,
						 op_names[op], w, h, sx, dx);
					ret = xform(&s, &d,
						    (enum v4lc_transform)op);
					CHECK(ret == 0, "%s: returned %d", what,
					      ret);
					if (ret == 0)
						check_model(
							&s, &d,
							(enum v4lc_transform)op,
							what);
					free(s.buf);
					free(d.buf);
					cases++;
				}
			}
		}
	}
	/* full-size frames: the SIMD inner loops at their real sizes */
	for (int fmt = 0; fmt < NFORMATS; fmt++) {
		for (int op = 0; op < 5; op++) {
			int w = 1280 + fmt % 2, h = 720 - fmt / 2;
			int rot = is_rot((enum v4lc_transform)op);
			struct tframe s, d;
			char what[96];
			int ret;

			tframe_init(&s, fmt, w, h, op * 7);
			tframe_init(&d, fmt, rot ? h : w, rot ? w : h, 64 - op);
			tframe_random(&s);
			snprintf(what, sizeof(what), "%s %s %dx%d",
				 formats[fmt].name, op_names[op], w, h);
			ret = xform(&s, &d, (enum v4lc_transform)op);
			CHECK(ret == 0, "%s: returned %d", what, ret);
			if (ret == 0)
				check_model(&s, &d, (enum v4lc_transform)op,
					    what);
			free(s.buf);
			free(d.buf);
			cases++;
		}
	}
	printf("model: %d cases\n", cases);
}

/* Apply a list of ops in turn; returns the final frame (caller frees). */
static struct tframe chain(const struct tframe *s, int fmt,
			   const enum v4lc_transform *ops, int nops)
{
	struct tframe cur = *s, next;

	cur.buf = malloc(s->total + TAIL);
	memcpy(cur.buf, s->buf, s->total + TAIL);
	cur.f.data = cur.buf;
	for (int i = 0; i < nops; i++) {
		int rot = is_rot(ops[i]);
		int ret;

		tframe_init(&next, fmt, rot ? cur.f.height : cur.f.width,
			    rot ? cur.f.width : cur.f.height, i * 3 % 5);
		ret = xform(&cur, &next, ops[i]);
		CHECK(ret == 0, "chain step %d (%s) returned %d", i,
		      op_names[ops[i]], ret);
		free(cur.buf);
		cur = next;
	}
	return cur;
}

static void test_algebra(void)
{
	static const int sizes[][2] = { { 1, 1 },    { 1, 7 },   { 7, 1 },
					{ 5, 3 },    { 16, 16 }, { 17, 33 },
					{ 64, 9 },   { 33, 64 }, { 127, 31 },
					{ 320, 239 } };
	static const struct {
		const char *name;
		enum v4lc_transform a[4];
		int na;
		enum v4lc_transform b[4];
		int nb; /* nb == 0: identity */
	} laws[] = {
		{ "hflip twice = identity",
		  { V4LC_XFORM_HFLIP, V4LC_XFORM_HFLIP },
		  2,
		  { 0 },
		  0 },
		{ "vflip twice = identity",
		  { V4LC_XFORM_VFLIP, V4LC_XFORM_VFLIP },
		  2,
		  { 0 },
		  0 },
		{ "rot180 twice = identity",
		  { V4LC_XFORM_ROT180, V4LC_XFORM_ROT180 },
		  2,
		  { 0 },
		  0 },
		{ "rot90cw then rot90ccw = identity",
		  { V4LC_XFORM_ROT90CW, V4LC_XFORM_ROT90CCW },
		  2,
		  { 0 },
		  0 },
		{ "rot90ccw then rot90cw = identity",
		  { V4LC_XFORM_ROT90CCW, V4LC_XFORM_ROT90CW },
		  2,
		  { 0 },
		  0 },
		{ "rot90cw twice = rot180",
		  { V4LC_XFORM_ROT90CW, V4LC_XFORM_ROT90CW },
		  2,
		  { V4LC_XFORM_ROT180 },
		  1 },
		{ "rot90ccw twice = rot180",
		  { V4LC_XFORM_ROT90CCW, V4LC_XFORM_ROT90CCW },
		  2,
		  { V4LC_XFORM_ROT180 },
		  1 },
		{ "hflip then vflip = rot180",
		  { V4LC_XFORM_HFLIP, V4LC_XFORM_VFLIP },
		  2,
		  { V4LC_XFORM_ROT180 },
		  1 },
		{ "rot90cw three times = rot90ccw",
		  { V4LC_XFORM_ROT90CW, V4LC_XFORM_ROT90CW,
		    V4LC_XFORM_ROT90CW },
		  3,
		  { V4LC_XFORM_ROT90CCW },
		  1 },
		{ "rot90cw four times = identity",
		  { V4LC_XFORM_ROT90CW, V4LC_XFORM_ROT90CW, V4LC_XFORM_ROT90CW,
		    V4LC_XFORM_ROT90CW },
		  4,
		  { 0 },
		  0 },
	};
	int n = 0;

	for (int fmt = 0; fmt < NFORMATS; fmt++) {
		for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]);
		     si++) {
			struct tframe s;

			tframe_init(&s, fmt, sizes[si][0], sizes[si][1],
				    (int)si % 4);
			tframe_random(&s);
			for (size_t l = 0; l < sizeof(laws) / sizeof(laws[0]);
			     l++) {
				struct tframe a =
					chain(&s, fmt, laws[l].a, laws[l].na);
				struct tframe b =
					chain(&s, fmt, laws[l].b, laws[l].nb);

				CHECK(same_pixels(&a, &b), "%s %dx%d: %s",
				      formats[fmt].name, sizes[si][0],
				      sizes[si][1], laws[l].name);
				/* and the non-identity side differs (w, h > 1) */
				if (laws[l].nb == 0 && sizes[si][0] > 1 &&
				    sizes[si][1] > 1) {
					struct tframe c =
						chain(&s, fmt, laws[l].a, 1);

					if (!is_rot(laws[l].a[0]) ||
					    sizes[si][0] == sizes[si][1])
						CHECK(!same_pixels(&c, &s),
						      "%s %dx%d: one step of "
						      "'%s' changed nothing",
						      formats[fmt].name,
						      sizes[si][0],
						      sizes[si][1],
						      laws[l].name);
					free(c.buf);
				}
				free(a.buf);
				free(b.buf);
				n++;
			}
			free(s.buf);
		}
	}
	printf("algebra: %d identities\n", n);
}

static void test_errors(void)
{
	const struct v4lc_dsp *dsp = v4lc_dsp_get();
	static uint8_t sbuf[4096], dbuf[4096];
	struct v4lc_frame s, d;
	int ret;

#define RESET(fmt, sw, sh, dw, dh)                                             \
	do {                                                                   \
		s = (struct v4lc_frame){ fmt, sw, sh, 0, sbuf, sizeof(sbuf) }; \
		d = (struct v4lc_frame){ fmt, dw, dh, 0, dbuf, sizeof(dbuf) }; \
	} while (0)
#define EXPECT(op, want, what)                                                 \
	do {                                                                   \
		ret = v4lc_frame_transform(dsp, &s, &d, op);                   \
		CHECK(ret == (want), "%s: got %d, want %d", what, ret, want);  \
	} while (0)

	RESET(V4L2_PIX_FMT_RGB24, 8, 4, 8, 4);
	EXPECT(V4LC_XFORM_HFLIP, 0, "valid hflip");
	EXPECT(V4LC_XFORM_ROT90CW, -EINVAL, "rotation without swapped size");
	RESET(V4L2_PIX_FMT_RGB24, 8, 4, 4, 8);
	EXPECT(V4LC_XFORM_ROT90CW, 0, "valid rot90cw");
	EXPECT(V4LC_XFORM_ROT90CCW, 0, "valid rot90ccw");
	EXPECT(V4LC_XFORM_VFLIP, -EINVAL, "flip with swapped size");
	EXPECT((enum v4lc_transform)5, -EINVAL, "unknown op 5");
	EXPECT((enum v4lc_transform) - 1, -EINVAL, "unknown op -1");

	RESET(V4L2_PIX_FMT_RGB24, 8, 4, 8, 4);
	d.fourcc = V4L2_PIX_FMT_BGR24;
	EXPECT(V4LC_XFORM_HFLIP, -EINVAL, "different formats");
	RESET(V4L2_PIX_FMT_YUYV, 8, 4, 8, 4);
	EXPECT(V4LC_XFORM_HFLIP, 0, "YUYV hflip");
	RESET(V4L2_PIX_FMT_YUYV, 8, 4, 4, 8);
	EXPECT(V4LC_XFORM_ROT90CW, -EINVAL, "YUYV rot90cw");
	EXPECT(V4LC_XFORM_ROT90CCW, -EINVAL, "YUYV rot90ccw");
	RESET(V4L2_PIX_FMT_UYVY, 6, 6, 6, 6);
	EXPECT(V4LC_XFORM_ROT90CW, -EINVAL, "square UYVY rot90cw");
	RESET(V4L2_PIX_FMT_YUYV, 8, 4, 8, 4);
	d.fourcc = V4L2_PIX_FMT_UYVY;
	EXPECT(V4LC_XFORM_HFLIP, -EINVAL, "YUYV to UYVY is not a flip");
	/* YUYV 7x3: rows of 4 pairs, 16 bytes */
	RESET(V4L2_PIX_FMT_YUYV, 7, 3, 7, 3);
	s.stride = 15;
	EXPECT(V4LC_XFORM_VFLIP, -EINVAL, "YUYV stride below whole pairs");
	s.stride = 0;
	s.size = 48;
	d.size = 48;
	EXPECT(V4LC_XFORM_ROT180, 0, "YUYV exact sizes");
	s.size = 47;
	EXPECT(V4LC_XFORM_ROT180, -EFAULT, "YUYV source one byte short");
	s.size = 48;
	d.size = 47;
	EXPECT(V4LC_XFORM_HFLIP, -EFAULT, "YUYV destination one byte short");
	RESET(V4L2_PIX_FMT_NV12, 8, 4, 8, 4);
	EXPECT(V4LC_XFORM_HFLIP, -EINVAL, "NV12 unsupported");
	RESET(0, 8, 4, 8, 4);
	EXPECT(V4LC_XFORM_HFLIP, -EINVAL, "fourcc 0");

	RESET(V4L2_PIX_FMT_RGB24, 0, 4, 0, 4);
	EXPECT(V4LC_XFORM_HFLIP, -EINVAL, "width 0");
	RESET(V4L2_PIX_FMT_YUV420, 8, -2, 8, -2);
	EXPECT(V4LC_XFORM_HFLIP, -EINVAL, "negative height");
	RESET(V4L2_PIX_FMT_RGB24, 8, 4, 8, 4);
	s.stride = 23;
	EXPECT(V4LC_XFORM_HFLIP, -EINVAL, "source stride below minimum");
	RESET(V4L2_PIX_FMT_YUV420, 8, 4, 8, 4);
	d.stride = 7;
	EXPECT(V4LC_XFORM_HFLIP, -EINVAL, "destination stride below minimum");
	RESET(V4L2_PIX_FMT_YUV420, 8, 4, 8, 4);
	s.stride = -8;
	EXPECT(V4LC_XFORM_HFLIP, -EINVAL, "negative stride");
	RESET(V4L2_PIX_FMT_RGB24, 0x7fffffff / 2, 4, 0x7fffffff / 2, 4);
	EXPECT(V4LC_XFORM_HFLIP, -EINVAL, "row overflows int");
	RESET(V4L2_PIX_FMT_YUV420, 0x40000000, 0x40000000, 0x40000000,
	      0x40000000);
	EXPECT(V4LC_XFORM_VFLIP, sizeof(size_t) > 4 ? -EFAULT : -EINVAL,
	       "huge frame");

	/* sizes: YU12 9x5, stride 11: 11*5 + 2 * 6*3 = 91 bytes */
	RESET(V4L2_PIX_FMT_YUV420, 9, 5, 9, 5);
	s.stride = 11;
	s.size = 91;
	d.size = 9 * 5 + 2 * 5 * 3; /* 75, minimal */
	EXPECT(V4LC_XFORM_ROT180, 0, "exact sizes");
	s.size = 90;
	EXPECT(V4LC_XFORM_ROT180, -EFAULT, "source one byte short");
	s.size = 91;
	d.size = 74;
	EXPECT(V4LC_XFORM_ROT180, -EFAULT, "destination one byte short");
	RESET(V4L2_PIX_FMT_YUV420, 9, 5, 5, 9);
	s.size = 75;
	d.size = 5 * 9 + 2 * 3 * 5; /* 75 */
	EXPECT(V4LC_XFORM_ROT90CW, 0, "rotated exact sizes");
	d.size = 74;
	EXPECT(V4LC_XFORM_ROT90CW, -EFAULT, "rotated destination short");
	RESET(V4L2_PIX_FMT_RGB24, 8, 4, 8, 4);
	s.data = NULL;
	EXPECT(V4LC_XFORM_HFLIP, -EFAULT, "NULL source data");
	RESET(V4L2_PIX_FMT_RGB24, 8, 4, 8, 4);
	d.data = NULL;
	EXPECT(V4LC_XFORM_HFLIP, -EFAULT, "NULL destination data");

	RESET(V4L2_PIX_FMT_RGB24, 8, 4, 8, 4);
	d.data = sbuf + 50;
	EXPECT(V4LC_XFORM_HFLIP, -EINVAL, "overlapping buffers");
	d.data = sbuf + 96;
	d.size = 96;
	EXPECT(V4LC_XFORM_HFLIP, 0, "adjacent buffers");

	RESET(V4L2_PIX_FMT_RGB24, 8, 4, 8, 4);
	ret = v4lc_frame_transform(NULL, &s, &d, V4LC_XFORM_HFLIP);
	CHECK(ret == -EINVAL, "NULL dsp: %d", ret);
	ret = v4lc_frame_transform(dsp, NULL, &d, V4LC_XFORM_HFLIP);
	CHECK(ret == -EINVAL, "NULL src: %d", ret);
	ret = v4lc_frame_transform(dsp, &s, NULL, V4LC_XFORM_HFLIP);
	CHECK(ret == -EINVAL, "NULL dst: %d", ret);

	/* a failed call writes nothing */
	memset(dbuf, 0x77, sizeof(dbuf));
	RESET(V4L2_PIX_FMT_RGB24, 8, 4, 8, 4);
	s.size = 95;
	EXPECT(V4LC_XFORM_HFLIP, -EFAULT, "short source");
	for (size_t i = 0; i < sizeof(dbuf); i++)
		if (dbuf[i] != 0x77) {
			CHECK(0, "failed call wrote byte %zu", i);
			break;
		}
#undef RESET
#undef EXPECT
}

/* Packed 4:2:2: the model of the comment at the top, on whole buffers. */
static const struct {
	uint32_t fourcc;
	const char *name;
	int lo; /* byte of the first luma in a pair */
} packed[] = {
	{ V4L2_PIX_FMT_YUYV, "YUYV", 0 },
	{ V4L2_PIX_FMT_YVYU, "YVYU", 0 },
	{ V4L2_PIX_FMT_UYVY, "UYVY", 1 },
	{ V4L2_PIX_FMT_VYUY, "VYUY", 1 },
};

/*
 * Expected destination bytes (stride dstride, padding FILL) of op on a
 * packed source; `swap` 0 is the model, 1 a wrong one (the pair's luma not
 * swapped) for the negative control.
 */
static void packed_model(const uint8_t *s, size_t sstride, uint8_t *e,
			 size_t dstride, int w, int h, int lo,
			 enum v4lc_transform op, int wrong)
{
	int pairs = (w + 1) / 2;

	memset(e, FILL, dstride * (size_t)h);
	for (int Y = 0; Y < h; Y++) {
		uint8_t *d = e + (size_t)Y * dstride;

		for (int X = 0; X < w; X++) {
			int x, y;

			map(op, w, h, X, Y, &x, &y);
			if (wrong && op != V4LC_XFORM_VFLIP)
				x ^= 1; /* pairs reversed, luma kept in place */
			if (x >= w)
				x = w - 1;
			d[2 * X + lo] = s[(size_t)y * sstride + 2 * x + lo];
		}
		if ((w & 1) && op == V4LC_XFORM_VFLIP)
			d[2 * w + lo] =
				s[(size_t)(h - 1 - Y) * sstride + 2 * w + lo];
		else if (w & 1)
			d[2 * w + lo] = d[2 * (w - 1) + lo];
		for (int J = 0; J < pairs; J++) {
			int x, y;
			const uint8_t *sp;

			map(op, w, h, 2 * J, Y, &x, &y);
			sp = s + (size_t)y * sstride + 4 * (size_t)(x / 2);
			d[4 * J + 1 - lo] = sp[1 - lo];
			d[4 * J + 3 - lo] = sp[3 - lo];
		}
	}
}

/* One packed case; returns 1 when the output matched the model. */
static int packed_case(int fmt, int w, int h, int sx, int dx,
		       enum v4lc_transform op, int wrong)
{
	size_t row = 4 * (size_t)((w + 1) / 2);
	size_t ss = row + (size_t)sx, ds = row + (size_t)dx;
	/* the last row has its stride padding too (core/frame.h) */
	size_t stotal = ss * (size_t)h, dtotal = ds * (size_t)h;
	uint8_t *src = malloc(stotal), *dst = malloc(dtotal + TAIL),
		*exp = malloc(dtotal + TAIL);
	struct v4lc_frame sf = {
		packed[fmt].fourcc, w, h, (int)ss, src, stotal
	};
	struct v4lc_frame df = {
		packed[fmt].fourcc, w, h, (int)ds, dst, dtotal
	};
	int ret, ok = 1;

	if (!src || !dst || !exp) {
		printf("out of memory\n");
		exit(1);
	}
	for (size_t i = 0; i < stotal; i++)
		src[i] = rnd8();
	if (sx == 0 && (w + h) % 2)
		sf.stride = 0;
	memset(dst, FILL, dtotal + TAIL);
	packed_model(src, ss, exp, ds, w, h, packed[fmt].lo, op, wrong);
	memset(exp + dtotal, FILL, TAIL);
	ret = v4lc_frame_transform(v4lc_dsp_get(), &sf, &df, op);
	if (ret) {
		CHECK(0, "%s %s %dx%d: returned %d", packed[fmt].name,
		      op_names[op], w, h, ret);
		ok = 0;
	} else if (memcmp(dst, exp, dtotal + TAIL)) {
		size_t i = 0;

		while (dst[i] == exp[i])
			i++;
		if (!wrong)
			CHECK(0,
			      "%s %s %dx%d +%d/+%d: byte %zu (row %zu) is "
			      "%u, expected %u",
			      packed[fmt].name, op_names[op], w, h, sx, dx, i,
			      i / ds, dst[i], exp[i]);
		ok = 0;
	}
	free(src);
	free(dst);
	free(exp);
	return ok;
}

static void test_packed(void)
{
	static const int sizes[] = { 1,  2,  3,  4,  5,  7,  8,  9,  15, 16,
				     17, 18, 31, 32, 33, 47, 64, 65, 127 };
	const int n = (int)(sizeof(sizes) / sizeof(sizes[0]));
	int cases = 0, caught;

	for (int fmt = 0; fmt < 4; fmt++)
		for (int wi = 0; wi < n; wi++)
			for (int hi = 0; hi < n; hi += 1 + (wi % 3))
				for (int op = 0; op < 3; op++) {
					int sx = (wi + op) % 2
							 ? 0
							 : 1 + rnd8() % 13;
					int dx = (hi + op) % 2
							 ? 0
							 : 1 + rnd8() % 13;

					packed_case(fmt, sizes[wi], sizes[hi],
						    sx, dx,
						    (enum v4lc_transform)op, 0);
					cases++;
				}
	for (int fmt = 0; fmt < 4; fmt++)
		for (int op = 0; op < 3; op++) {
			packed_case(fmt, 1280 - fmt % 2, 720 - fmt / 2, op * 6,
				    64 - op, (enum v4lc_transform)op, 0);
			cases++;
		}
	/* negative control: luma not swapped inside pairs must be caught */
	caught = !packed_case(0, 16, 3, 0, 0, V4LC_XFORM_HFLIP, 1) &&
		 !packed_case(2, 17, 2, 4, 0, V4LC_XFORM_ROT180, 1);
	CHECK(caught, "packed model did not notice unswapped luma");
	printf("packed: %d cases, negative control %s\n", cases,
	       caught ? "caught (as intended)" : "MISSED");
}

/* The model test must be able to fail: a wrong model is caught. */
static void test_negative_control(void)
{
	struct tframe s, d;
	int before = failures, ret;

	tframe_init(&s, 2, 9, 7, 3);
	tframe_init(&d, 2, 7, 9, 0);
	tframe_random(&s);
	ret = xform(&s, &d, V4LC_XFORM_ROT90CW);
	CHECK(ret == 0, "negative control setup: %d", ret);
	/* rot90cw output compared against the rot90ccw model */
	if (check_model(&s, &d, V4LC_XFORM_ROT90CCW, "(expected mismatch)"))
		CHECK(0, "model did not notice rot90cw != rot90ccw");
	printf("negative control: %s\n",
	       failures > before ? "caught (as intended)" : "MISSED");
	failures = before + (failures > before ? 0 : 1);
	free(s.buf);
	free(d.buf);
}

int main(void)
{
	test_model();
	test_algebra();
	test_errors();
	test_packed();
	test_negative_control();
	printf("%s: %d failure(s)\n", failures ? "FAIL" : "PASS", failures);
	return failures ? 1 : 0;
}
