/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bench/compare: the candidates. Ours at each tier and the original, each
 * a libv4lconvert loaded with dlopen (see compare.c); libyuv at three CPU
 * levels; libswscale; TurboJPEG; memcpy.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <libyuv.h>

#include "compare.h"
#include "core/frame.h"
#include "dispatch/cpu.h"

struct lib {
	struct origlib o;
	struct v4lconvert_data *plain, *flip;
	int ok;
};
static struct lib libs[C_ORIG + 1]; /* ours per tier, original */
/* ours per tier for the rotations (ok: the CPU runs the tier) */
static struct v4lc_dsp dsps[C_ORIG];
static int dsp_ok[C_ORIG];
/* libyuv cpu masks per level */
static int yuv_mask[3];

void fill_fmt(struct v4l2_format *f, uint32_t fourcc, int w, int h, size_t size,
	      int bpp2)
{
	memset(f, 0, sizeof(*f));
	f->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	f->fmt.pix.width = (unsigned)w;
	f->fmt.pix.height = (unsigned)h;
	f->fmt.pix.pixelformat = fourcc;
	f->fmt.pix.field = V4L2_FIELD_NONE;
	/* planar 4:2:0 (bpp2 3) lines are 1 byte per pixel */
	f->fmt.pix.bytesperline = bpp2 == 3 ? (unsigned)w
				  : bpp2    ? (unsigned)(w * bpp2 / 2)
					    : 0;
	f->fmt.pix.sizeimage = (unsigned)size;
}

/* Set the flips of every flip instance (ours and the original's). */
int set_flips(int hflip, int vflip)
{
	for (int i = 0; i <= C_ORIG; i++)
		if (libs[i].ok && libs[i].flip &&
		    origlib_set_flip(&libs[i].o, libs[i].flip, hflip, vflip))
			return -1;
	return 0;
}

/* Our rotation at tier `id`: an h x w frame of the same format. */
static int rotate_ours(const struct setting *s, int id, const uint8_t *src,
		       uint8_t *dst)
{
	struct v4lc_frame f = { s->cv->src, s->w,           s->h,
				0,          (uint8_t *)src, s->sbytes };
	struct v4lc_frame g = { s->cv->dst, s->h, s->w, 0, dst, s->dbytes };

	if (id == C_ORIG || !dsp_ok[id])
		return -1;
	return v4lc_frame_transform(&dsps[id], &f, &g,
				    rotation(s->cv) == 90
					    ? V4LC_XFORM_ROT90CW
					    : V4LC_XFORM_ROT90CCW) < 0
		       ? -1
		       : 0;
}

/* Ours at a tier, or the original, through the public API. */
static int call_ours(struct setting *s, int id, const uint8_t *src,
		     uint8_t *dst)
{
	const struct conv *cv = s->cv;
	struct lib *l = &libs[id];
	struct v4lconvert_data *d;
	int r;

	if (rotation(cv))
		return rotate_ours(s, id, src, dst);
	d = cv->hflip || cv->vflip ? l->flip : l->plain;
	r = l->o.convert(d, &s->sf, &s->df, (unsigned char *)src,
			 (int)s->sbytes, dst, (int)s->dslot);
	return r < 0 ? -1 : 0;
}

/* libyuv has no YUY2/UYVY to RAW: to ARGB and on, 4 rows at a time. */
static int libyuv_packed_to_raw(struct setting *s, const uint8_t *src,
				uint8_t *dst)
{
	int w = s->w, h = s->h;

	for (int y = 0; y < h; y += 4) {
		int n = h - y < 4 ? h - y : 4;
		const uint8_t *sp = src + (size_t)y * w * 2;

		if (s->cv->yuv == Y_YUY2)
			YUY2ToARGB(sp, w * 2, s->tmp, w * 4, w, n);
		else
			UYVYToARGB(sp, w * 2, s->tmp, w * 4, w, n);
		ARGBToRAW(s->tmp, w * 4, dst + (size_t)y * w * 3, w * 3, w, n);
	}
	return 0;
}

/* libyuv's flips and rotations of RGB24 (as ARGB for 90/270) and I420. */
static int libyuv_transform(struct setting *s, const uint8_t *src, uint8_t *dst)
{
	enum yuvop op = s->cv->yuv;
	int w = s->w, h = s->h;
	size_t wh = (size_t)w * h;
	uint8_t *du = dst + wh, *dv = du + wh / 4;
	const uint8_t *su = src + wh, *sv = su + wh / 4;

	switch (op) {
	case Y_RGBMIRROR:
		return RGB24Mirror(src, w * 3, dst, w * 3, w, h);
	case Y_RGBROT180:
		return RGB24Mirror(src, w * 3, dst, w * 3, w, -h);
	case Y_RGBVFLIP:
		CopyPlane(src, w * 3, dst, w * 3, w * 3, -h);
		return 0;
	case Y_I420MIRROR:
		return I420Mirror(src, w, su, w / 2, sv, w / 2, dst, w, du,
				  w / 2, dv, w / 2, w, h);
	case Y_I420VFLIP:
		return I420Copy(src, w, su, w / 2, sv, w / 2, dst, w, du, w / 2,
				dv, w / 2, w, -h);
	case Y_I420ROT180:
		return I420Rotate(src, w, su, w / 2, sv, w / 2, dst, w, du,
				  w / 2, dv, w / 2, w, h, kRotate180);
	case Y_ARGBROT90:
	case Y_ARGBROT270:
		return ARGBRotate(src, w * 4, dst, h * 4, w, h,
				  op == Y_ARGBROT90 ? kRotate90 : kRotate270);
	case Y_I420ROT90:
	case Y_I420ROT270:
		return I420Rotate(src, w, su, w / 2, sv, w / 2, dst, h,
				  dst + wh, h / 2, dst + wh + wh / 4, h / 2, w,
				  h,
				  op == Y_I420ROT90 ? kRotate90 : kRotate270);
	default:
		return -1;
	}
}

/* libyuv at the CPU level select_tier set. */
static int call_libyuv(struct setting *s, const uint8_t *src, uint8_t *dst)
{
	int w = s->w, h = s->h;
	size_t wh = (size_t)w * h;
	uint8_t *du = dst + wh, *dv = du + wh / 4;
	const uint8_t *su = src + wh, *sv = su + wh / 4;

	switch (s->cv->yuv) {
	case Y_YUY2:
	case Y_UYVY:
		return libyuv_packed_to_raw(s, src, dst);
	case Y_NV12:
		return NV12ToRAW(src, w, su, w, dst, w * 3, w, h);
	case Y_I420:
		return I420ToRAW(src, w, su, w / 2, sv, w / 2, dst, w * 3, w,
				 h);
	case Y_RAW2I420:
		return RAWToI420(src, w * 3, dst, w, du, w / 2, dv, w / 2, w,
				 h);
	case Y_YUY2I420:
		return YUY2ToI420(src, w * 2, dst, w, du, w / 2, dv, w / 2, w,
				  h);
	case Y_MJPG_ARGB:
		return MJPGToARGB(src, s->sbytes, dst, w * 4, w, h, w, h);
	case Y_MJPG_I420:
		return MJPGToI420(src, s->sbytes, dst, w, du, w / 2, dv, w / 2,
				  w, h, w, h);
	default:
		return libyuv_transform(s, src, dst);
	}
}

/* libswscale, unscaled: the planes and strides of each layout. */
static int call_sws(struct setting *s, const uint8_t *src, uint8_t *dst)
{
	const struct conv *cv = s->cv;
	int w = s->w, h = s->h;
	size_t wh = (size_t)w * h;
	const uint8_t *sp[4] = { src, NULL, NULL, NULL };
	uint8_t *dp[4] = { dst, NULL, NULL, NULL };
	int ss[4] = { 0 }, ds[4] = { 0 };

	switch (cv->sws_src) {
	case AV_PIX_FMT_YUYV422:
	case AV_PIX_FMT_UYVY422:
		ss[0] = w * 2;
		break;
	case AV_PIX_FMT_NV12:
		ss[0] = ss[1] = w;
		sp[1] = src + wh;
		break;
	case AV_PIX_FMT_YUV420P:
		ss[0] = w;
		ss[1] = ss[2] = w / 2;
		sp[1] = src + wh;
		sp[2] = src + wh + wh / 4;
		break;
	case AV_PIX_FMT_RGB24:
		ss[0] = w * 3;
		break;
	default:
		ss[0] = w;
		break; /* Bayer */
	}
	if (cv->sws_dst == AV_PIX_FMT_RGB24) {
		ds[0] = w * 3;
	} else {
		ds[0] = w;
		ds[1] = ds[2] = w / 2;
		dp[1] = dst + wh;
		dp[2] = dst + wh + wh / 4;
	}
	return sws_scale(s->sws, sp, ss, 0, h, dp, ds) == h ? 0 : -1;
}

/* One call of candidate `id` on frame `src` -> `dst`; < 0 on failure. */
int call(struct setting *s, int id, const uint8_t *src, uint8_t *dst)
{
	int w = s->w, h = s->h;

	switch (id) {
	case C_SCALAR:
	case C_SSE2:
	case C_SSSE3:
	case C_AVX2:
	case C_ORIG:
		return call_ours(s, id, src, dst);
	case C_YUV_SSSE3:
	case C_YUV_AVX2:
	case C_YUV_MAX:
		return call_libyuv(s, src, dst);
	case C_SWS:
		return call_sws(s, src, dst);
	case C_TJ:
		if (s->cv->tj == 1)
			return tjDecompress2(s->tj, src,
					     (unsigned long)s->sbytes, dst, w,
					     w * 3, h, TJPF_RGB, 0);
		return tjDecompressToYUV2(s->tj, src, (unsigned long)s->sbytes,
					  dst, w, 1, h, 0);
	case C_MEMCPY:
		memcpy(dst, src, (s->sbytes + s->dbytes) / 2);
		return 0;
	}
	return -1;
}

int applicable(const struct setting *s, int id)
{
	const struct conv *cv = s->cv;

	switch (id) {
	case C_SCALAR:
	case C_SSE2:
	case C_SSSE3:
	case C_AVX2:
		return rotation(cv) ? dsp_ok[id] : libs[id].ok;
	case C_ORIG:
		return !rotation(cv) && libs[id].ok;
	case C_YUV_SSSE3:
	case C_YUV_AVX2:
	case C_YUV_MAX:
		return cv->yuv != Y_NONE && yuv_mask[id - C_YUV_SSSE3];
	case C_SWS:
		return s->sws != NULL;
	case C_TJ:
		return cv->tj && s->tj;
	case C_MEMCPY:
		return 1;
	}
	return 0;
}

void select_tier(int id)
{
	if (id >= C_YUV_SSSE3 && id <= C_YUV_MAX)
		MaskCpuFlags(yuv_mask[id - C_YUV_SSSE3]);
}

/* Copy our library to `copy`, so that each tier is a library of its own. */
/* A copy of the library in a memfd of its own (another file to the
 * loader, so another instance): its fd, to be closed once loaded. */
static int copy_to_memfd(const char *path, const char *name)
{
	static char buf[1 << 16];
	int in = open(path, O_RDONLY);
	int out = memfd_create(name, MFD_CLOEXEC);
	ssize_t n;

	if (in < 0 || out < 0) {
		fprintf(stderr, "compare: cannot copy %s\n", path);
		exit(1);
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			exit(1);
	close(in);
	return out;
}

/* The kernel table of tier t, for the rotations. */
static void init_dsp(int t)
{
	for (const struct v4lc_cpu_tier *ct = v4lc_cpu_tiers;
	     t != C_SCALAR && ct->name; ct++)
		if (!strcmp(ct->name, tiers[t])) {
			v4lc_dsp_init(&dsps[t], ct->flags);
			dsp_ok[t] = 1;
		}
	if (t == C_SCALAR) {
		v4lc_dsp_init(&dsps[t], 0);
		dsp_ok[t] = 1;
	}
}

/* The library loaded from `copy` with tier t; the tier is fixed at the
 * first conversion: one is done here. */
static void open_tier(int t, const char *copy)
{
	setenv("LIBV4LCONVERT_SIMD", tiers[t], 1);
	if (origlib_open_path(&libs[t].o, copy, 0) == 0) {
		snprintf(libs[t].o.fake_bus, sizeof(libs[t].o.fake_bus),
			 "platform:v4lc-cmp-%s-%ld", tiers[t], (long)getpid());
		libs[t].plain = origlib_create_plain(&libs[t].o);
		libs[t].flip = origlib_create_flip(&libs[t].o);
		libs[t].ok = libs[t].plain != NULL;
		/* the tier is fixed at the first conversion: do one */
		if (libs[t].ok) {
			uint8_t a[16 * 16 * 2] = { 0 }, b[16 * 16 * 3];
			struct v4l2_format f1, f2;

			fill_fmt(&f1, V4L2_PIX_FMT_YUYV, 16, 16, sizeof(a), 4);
			fill_fmt(&f2, V4L2_PIX_FMT_RGB24, 16, 16, sizeof(b), 6);
			libs[t].o.convert(libs[t].plain, &f1, &f2, a,
					  (int)sizeof(a), b, (int)sizeof(b));
		}
	}
	unsetenv("LIBV4LCONVERT_SIMD");
}

/* Load our library once per tier (see the header comment of compare.c). */
void load_ours(const char *path)
{
	for (int t = 0; t < C_ORIG; t++) {
		char copy[64];
		int fd;

		if ((t == C_AVX2 && !__builtin_cpu_supports("avx2")) ||
		    (t == C_SSSE3 && !__builtin_cpu_supports("ssse3")) ||
		    (t == C_SSE2 && !__builtin_cpu_supports("sse2")))
			continue;
		init_dsp(t);
		fd = copy_to_memfd(path, tiers[t]);
		snprintf(copy, sizeof(copy), "/proc/self/fd/%d", fd);
		open_tier(t, copy);
		close(fd);
	}
}

/* The distribution's library (tests/common/origlib.c). */
void open_original(void)
{
	libs[C_ORIG].ok = origlib_open(&libs[C_ORIG].o, 1) == 0;
	if (libs[C_ORIG].ok) {
		libs[C_ORIG].plain = origlib_create_plain(&libs[C_ORIG].o);
		libs[C_ORIG].flip = origlib_create_flip(&libs[C_ORIG].o);
		libs[C_ORIG].ok = libs[C_ORIG].plain != NULL;
	}
}

/* libyuv's three levels: SSSE3 alone, up to AVX2, all it detects. */
void init_yuv_masks(void)
{
	int all = MaskCpuFlags(-1);
	int ssse3 = kCpuInitialized | kCpuHasX86 | kCpuHasSSE2 | kCpuHasSSSE3;
	int avx2 = ssse3 | kCpuHasSSE41 | kCpuHasSSE42 | kCpuHasAVX |
		   kCpuHasAVX2 | kCpuHasERMS | kCpuHasFMA3 | kCpuHasF16C;

	yuv_mask[0] = (all & ssse3) == ssse3 ? ssse3 : 0;
	yuv_mask[1] = (all & avx2) == avx2 ? avx2 : 0;
	yuv_mask[2] = all; /* everything it detects (AVX-512 too) */
}

void close_libs(void)
{
	for (int i = 0; i <= C_ORIG; i++)
		if (libs[i].ok) {
			if (libs[i].flip)
				libs[i].o.destroy(libs[i].flip);
			libs[i].o.destroy(libs[i].plain);
			origlib_close(&libs[i].o);
		}
}
