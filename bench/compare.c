/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bench/compare: the same frames through every library a webcam program
 * could use, in one process, interleaved run by run:
 *
 *   - ours, through the public libv4lconvert API, at each SIMD tier. The
 *     library reads LIBV4LCONVERT_SIMD once per process, so each tier is a
 *     private copy of our libv4lconvert.so.0 (a temporary file, unlinked
 *     once mapped) loaded with dlopen(RTLD_LOCAL | RTLD_DEEPBIND) while the
 *     variable names that tier: every copy has its own tier, and all tiers
 *     run in this process, interleaved with the peers. The rotations by
 *     90 and 270 degrees, which the public API applies only to the JPEG
 *     of cameras with the rot90-jpeg quirk, call our frame layer
 *     (v4lc_frame_transform, linked in) with each tier's kernel table
 *     instead;
 *   - the distribution's libv4lconvert (tests/common/origlib.c);
 *   - libyuv at its SSSE3, AVX2 and best (AVX-512) levels (MaskCpuFlags:
 *     "libyuv ssse3" runs its SSSE3 code and nothing above it);
 *   - libswscale (unscaled conversion);
 *   - libjpeg-turbo's tjDecompress2 / tjDecompressToYUV2 for MJPEG;
 *   - memcpy of (source + destination bytes) / 2: the same bytes moved.
 *
 * Every figure is MPix/s of source pixels, the median of --runs batches of
 * ~8 ms of the process's CPU time (all its threads, so the worker thread of
 * our MJPEG->YUV420 decoder counts; other processes' time slices do not),
 * or of wall-clock time with --wall (where that worker shortens a frame);
 * ratios are medians of per-run ratios (adjacent batches of one run).
 * "cache": one source and one destination frame, reused (they stay in the
 * caches); "fresh": a pool of frames of more than 3x the L3 cache, cycled,
 * so every conversion reads and writes memory the caches no longer hold.
 *
 *   bench/compare [--runs=N] [--size=WxH] [--mode=cache|fresh]
 *                 [--filter=SUBSTRING] [--markdown=FILE] [--tsv=FILE]
 *                 [--ours=PATH] [--wall]
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libswscale/swscale.h>
#include <libavutil/log.h>
#include <libyuv.h>
#include <turbojpeg.h>

#include "../tests/common/origlib.h"
#include "../tests/jpeg/jpegtest.h"
#include "core/frame.h"
#include "dispatch/cpu.h"
#include "dispatch/dsp.h"

#ifndef V4LC_OURS_PATH
#define V4LC_OURS_PATH "src/libv4lconvert/libv4lconvert.so.0"
#endif

#define MAXRUNS 64
#define POOL_BYTES ((size_t)112 << 20) /* > 3x the 32 MiB L3 of the machine */

enum op {
	OP_CONV, /* v4lconvert_convert src -> dst */
	OP_FLIP, /* same format, emulated HFLIP/VFLIP controls */
};

enum yuvop {
	Y_NONE,
	Y_YUY2,
	Y_UYVY,
	Y_NV12,
	Y_I420,
	Y_RAW2I420,
	Y_YUY2I420,
	Y_RGBMIRROR,
	Y_RGBVFLIP,
	Y_RGBROT180,
	Y_I420MIRROR,
	Y_I420VFLIP,
	Y_I420ROT180,
	Y_ARGBROT90,
	Y_ARGBROT270,
	Y_I420ROT90,
	Y_I420ROT270,
	Y_MJPG_ARGB,
	Y_MJPG_I420,
};

struct conv {
	const char *name;
	uint32_t src, dst;
	int hflip, vflip;
	int sbpp2, dbpp2; /* bytes per pixel x 2; sbpp2 0 = MJPEG */
	enum yuvop yuv;
	int sws_src, sws_dst; /* AV_PIX_FMT_*, -1 = none */
	int tj;           /* 1 = tjDecompress2 RGB, 2 = tjDecompressToYUV2 */
	const char *note; /* semantic differences between the peers */
	int target;       /* bit set of the issue-8 targets (T_*) */
};

enum {
	T_YUV = 1,     /* ours avx2 >= libyuv avx2 */
	T_10X = 2,     /* ours >= 10x the original */
	T_SSE2 = 4,    /* ours sse2 >= libyuv ssse3 */
	T_8X = 8,      /* ours >= 8x the original (Bayer) */
	T_TJ = 16,     /* ours >= 0.95 x tjDecompress2 */
	T_FAST = 32,   /* ours > every peer */
	T_MEM = 64,    /* fresh: ours >= 80 % of memcpy */
	T_SSSE3 = 128, /* ours ssse3 >= libyuv ssse3, cache and fresh */
	T_BEST = 256,  /* ours best >= libyuv max, cache and fresh */
};

static const struct conv convs[] = {
	{ "YUYV->RGB24", V4L2_PIX_FMT_YUYV, V4L2_PIX_FMT_RGB24, 0, 0, 4, 6,
	  Y_YUY2, AV_PIX_FMT_YUYV422, AV_PIX_FMT_RGB24, 0,
	  "libyuv: YUY2ToARGB+ARGBToRAW per 4 rows (no direct call)",
	  T_YUV | T_10X | T_SSE2 | T_MEM | T_SSSE3 | T_BEST },
	{ "UYVY->RGB24", V4L2_PIX_FMT_UYVY, V4L2_PIX_FMT_RGB24, 0, 0, 4, 6,
	  Y_UYVY, AV_PIX_FMT_UYVY422, AV_PIX_FMT_RGB24, 0,
	  "libyuv: UYVYToARGB+ARGBToRAW per 4 rows",
	  T_YUV | T_10X | T_SSE2 | T_MEM | T_SSSE3 | T_BEST },
	{ "NV12->RGB24", V4L2_PIX_FMT_NV12, V4L2_PIX_FMT_RGB24, 0, 0, 3, 6,
	  Y_NV12, AV_PIX_FMT_NV12, AV_PIX_FMT_RGB24, 0,
	  "libyuv NV12ToRAW; original: full-range matrix",
	  T_YUV | T_10X | T_SSE2 | T_MEM | T_SSSE3 | T_BEST },
	{ "YUV420->RGB24", V4L2_PIX_FMT_YUV420, V4L2_PIX_FMT_RGB24, 0, 0, 3, 6,
	  Y_I420, AV_PIX_FMT_YUV420P, AV_PIX_FMT_RGB24, 0, "libyuv I420ToRAW",
	  T_YUV | T_10X | T_SSE2 | T_MEM | T_SSSE3 | T_BEST },
	{ "RGB24->YUV420", V4L2_PIX_FMT_RGB24, V4L2_PIX_FMT_YUV420, 0, 0, 6, 3,
	  Y_RAW2I420, AV_PIX_FMT_RGB24, AV_PIX_FMT_YUV420P, 0,
	  "libyuv RAWToI420",
	  T_YUV | T_10X | T_SSE2 | T_MEM | T_SSSE3 | T_BEST },
	{ "YUYV->YUV420", V4L2_PIX_FMT_YUYV, V4L2_PIX_FMT_YUV420, 0, 0, 4, 3,
	  Y_YUY2I420, AV_PIX_FMT_YUYV422, AV_PIX_FMT_YUV420P, 0,
	  "libyuv YUY2ToI420; original keeps one chroma row of two",
	  T_YUV | T_SSE2 | T_MEM | T_SSSE3 | T_BEST },
	{ "RGB24 hflip", V4L2_PIX_FMT_RGB24, V4L2_PIX_FMT_RGB24, 1, 0, 6, 6,
	  Y_RGBMIRROR, -1, -1, 0, "libyuv RGB24Mirror",
	  T_YUV | T_10X | T_SSE2 | T_MEM | T_SSSE3 | T_BEST },
	{ "RGB24 vflip", V4L2_PIX_FMT_RGB24, V4L2_PIX_FMT_RGB24, 0, 1, 6, 6,
	  Y_RGBVFLIP, -1, -1, 0, "libyuv CopyPlane, negative height",
	  T_YUV | T_10X | T_SSE2 | T_MEM | T_SSSE3 | T_BEST },
	{ "RGB24 rot180", V4L2_PIX_FMT_RGB24, V4L2_PIX_FMT_RGB24, 1, 1, 6, 6,
	  Y_RGBROT180, -1, -1, 0, "libyuv RGB24Mirror, negative height",
	  T_YUV | T_10X | T_SSE2 | T_MEM | T_SSSE3 | T_BEST },
	{ "YUV420 hflip", V4L2_PIX_FMT_YUV420, V4L2_PIX_FMT_YUV420, 1, 0, 3, 3,
	  Y_I420MIRROR, -1, -1, 0, "libyuv I420Mirror",
	  T_YUV | T_10X | T_SSE2 | T_MEM | T_SSSE3 | T_BEST },
	{ "YUV420 vflip", V4L2_PIX_FMT_YUV420, V4L2_PIX_FMT_YUV420, 0, 1, 3, 3,
	  Y_I420VFLIP, -1, -1, 0, "libyuv I420Copy, negative height",
	  T_YUV | T_10X | T_SSE2 | T_MEM | T_SSSE3 | T_BEST },
	{ "YUV420 rot180", V4L2_PIX_FMT_YUV420, V4L2_PIX_FMT_YUV420, 1, 1, 3, 3,
	  Y_I420ROT180, -1, -1, 0, "libyuv I420Rotate(kRotate180)",
	  T_YUV | T_10X | T_SSE2 | T_MEM | T_SSSE3 | T_BEST },
	{ "RGB24 rot90", V4L2_PIX_FMT_RGB24, V4L2_PIX_FMT_RGB24, 0, 0, 6, 6,
	  Y_ARGBROT90, -1, -1, 0,
	  "no RGB24 rotation in libyuv: its ARGBRotate(kRotate90) of the same "
	  "pixels as ARGB (4/3 the bytes), not like for like; original: none",
	  T_MEM },
	{ "RGB24 rot270", V4L2_PIX_FMT_RGB24, V4L2_PIX_FMT_RGB24, 0, 0, 6, 6,
	  Y_ARGBROT270, -1, -1, 0,
	  "libyuv ARGBRotate(kRotate270) of the same pixels as ARGB, as rot90",
	  T_MEM },
	{ "YUV420 rot90", V4L2_PIX_FMT_YUV420, V4L2_PIX_FMT_YUV420, 0, 0, 3, 3,
	  Y_I420ROT90, -1, -1, 0,
	  "libyuv I420Rotate(kRotate90); original: none",
	  T_YUV | T_SSE2 | T_MEM | T_SSSE3 | T_BEST },
	{ "YUV420 rot270", V4L2_PIX_FMT_YUV420, V4L2_PIX_FMT_YUV420, 0, 0, 3, 3,
	  Y_I420ROT270, -1, -1, 0,
	  "libyuv I420Rotate(kRotate270); original: none",
	  T_YUV | T_SSE2 | T_MEM | T_SSSE3 | T_BEST },
	{ "SBGGR8->RGB24", V4L2_PIX_FMT_SBGGR8, V4L2_PIX_FMT_RGB24, 0, 0, 2, 6,
	  Y_NONE, AV_PIX_FMT_BAYER_BGGR8, AV_PIX_FMT_RGB24, 0,
	  "no libyuv Bayer API in Debian's libyuv; swscale: bilinear demosaic",
	  T_8X | T_MEM },
	{ "SBGGR8->YUV420", V4L2_PIX_FMT_SBGGR8, V4L2_PIX_FMT_YUV420, 0, 0, 2,
	  3, Y_NONE, AV_PIX_FMT_BAYER_BGGR8, AV_PIX_FMT_YUV420P, 0,
	  "swscale: via RGB", T_8X | T_MEM },
	{ "MJPEG->RGB24", V4L2_PIX_FMT_MJPEG, V4L2_PIX_FMT_RGB24, 0, 0, 0, 6,
	  Y_MJPG_ARGB, -1, -1, 1,
	  "4:2:2 q85; libyuv MJPGToARGB (4-byte ARGB, limited-range matrix on full-range JPEG)",
	  T_TJ },
	{ "MJPEG->YUV420", V4L2_PIX_FMT_MJPEG, V4L2_PIX_FMT_YUV420, 0, 0, 0, 3,
	  Y_MJPG_I420, -1, -1, 2,
	  "tjDecompressToYUV2 writes the JPEG's own 4:2:2 planes (no 4:2:0 step)",
	  T_FAST },
};
#define NCONV (sizeof(convs) / sizeof(convs[0]))

/* 90 or 270 (clockwise) for the rotations (see the header comment), or 0 */
static int rotation(const struct conv *cv)
{
	switch (cv->yuv) {
	case Y_ARGBROT90:
	case Y_I420ROT90:
		return 90;
	case Y_ARGBROT270:
	case Y_I420ROT270:
		return 270;
	default:
		return 0;
	}
}

/* Candidates (columns), in this order. */
enum cand_id {
	C_SCALAR,
	C_SSE2,
	C_SSSE3,
	C_AVX2,
	C_ORIG,
	C_YUV_SSSE3,
	C_YUV_AVX2,
	C_YUV_MAX,
	C_SWS,
	C_TJ,
	C_MEMCPY,
	NCAND
};
static const char *const cand_names[NCAND] = {
	"ours scalar", "ours sse2",    "ours ssse3",  "ours avx2",
	"original",    "libyuv ssse3", "libyuv avx2", "libyuv max",
	"swscale",     "turbojpeg",    "memcpy",
};
static const char *const tiers[C_ORIG] = { "scalar", "sse2", "ssse3", "avx2" };

/* libyuv cpu masks per level */
static int yuv_mask[3];

struct lib {
	struct origlib o;
	struct v4lconvert_data *plain, *flip;
	int ok;
};
static struct lib libs[C_ORIG + 1]; /* ours per tier, original */
/* ours per tier for the rotations (ok: the CPU runs the tier) */
static struct v4lc_dsp dsps[C_ORIG];
static int dsp_ok[C_ORIG];

struct cand {
	int ok, iters;
	double r[MAXRUNS];
	double med, lo, hi;
	size_t pos;
};

/* One (conversion, size, mode) setting. */
struct setting {
	const struct conv *cv;
	int w, h, fresh;
	size_t sbytes, dbytes, sslot, dslot, nslots;
	uint8_t *spool, *dpool, *tmp;
	struct v4l2_format sf, df;
	struct SwsContext *sws;
	tjhandle tj;
	struct cand c[NCAND];
};

static clockid_t clock_id = CLOCK_PROCESS_CPUTIME_ID; /* --wall: monotonic */

static double now(void)
{
	struct timespec ts;

	clock_gettime(clock_id, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void fill_fmt(struct v4l2_format *f, uint32_t fourcc, int w, int h,
		     size_t size, int bpp2)
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
static int set_flips(int hflip, int vflip)
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

/* One call of candidate `id` on frame `src` -> `dst`; < 0 on failure. */
static int call(struct setting *s, int id, const uint8_t *src, uint8_t *dst)
{
	const struct conv *cv = s->cv;
	int w = s->w, h = s->h;
	size_t wh = (size_t)w * h;

	switch (id) {
	case C_SCALAR:
	case C_SSE2:
	case C_SSSE3:
	case C_AVX2:
	case C_ORIG: {
		struct lib *l = &libs[id];
		struct v4lconvert_data *d;

		if (rotation(cv))
			return rotate_ours(s, id, src, dst);
		d = cv->hflip || cv->vflip ? l->flip : l->plain;
		int r = l->o.convert(d, &s->sf, &s->df, (unsigned char *)src,
				     (int)s->sbytes, dst, (int)s->dslot);
		return r < 0 ? -1 : 0;
	}
	case C_YUV_SSSE3:
	case C_YUV_AVX2:
	case C_YUV_MAX: {
		uint8_t *du = dst + wh, *dv = du + wh / 4;
		const uint8_t *su = src + wh, *sv = su + wh / 4;

		switch (cv->yuv) {
		case Y_YUY2:
		case Y_UYVY:
			for (int y = 0; y < h; y += 4) {
				int n = h - y < 4 ? h - y : 4;
				const uint8_t *sp = src + (size_t)y * w * 2;

				if (cv->yuv == Y_YUY2)
					YUY2ToARGB(sp, w * 2, s->tmp, w * 4, w,
						   n);
				else
					UYVYToARGB(sp, w * 2, s->tmp, w * 4, w,
						   n);
				ARGBToRAW(s->tmp, w * 4,
					  dst + (size_t)y * w * 3, w * 3, w, n);
			}
			return 0;
		case Y_NV12:
			return NV12ToRAW(src, w, su, w, dst, w * 3, w, h);
		case Y_I420:
			return I420ToRAW(src, w, su, w / 2, sv, w / 2, dst,
					 w * 3, w, h);
		case Y_RAW2I420:
			return RAWToI420(src, w * 3, dst, w, du, w / 2, dv,
					 w / 2, w, h);
		case Y_YUY2I420:
			return YUY2ToI420(src, w * 2, dst, w, du, w / 2, dv,
					  w / 2, w, h);
		case Y_RGBMIRROR:
			return RGB24Mirror(src, w * 3, dst, w * 3, w, h);
		case Y_RGBROT180:
			return RGB24Mirror(src, w * 3, dst, w * 3, w, -h);
		case Y_RGBVFLIP:
			CopyPlane(src, w * 3, dst, w * 3, w * 3, -h);
			return 0;
		case Y_I420MIRROR:
			return I420Mirror(src, w, su, w / 2, sv, w / 2, dst, w,
					  du, w / 2, dv, w / 2, w, h);
		case Y_I420VFLIP:
			return I420Copy(src, w, su, w / 2, sv, w / 2, dst, w,
					du, w / 2, dv, w / 2, w, -h);
		case Y_I420ROT180:
			return I420Rotate(src, w, su, w / 2, sv, w / 2, dst, w,
					  du, w / 2, dv, w / 2, w, h,
					  kRotate180);
		case Y_ARGBROT90:
		case Y_ARGBROT270:
			return ARGBRotate(src, w * 4, dst, h * 4, w, h,
					  cv->yuv == Y_ARGBROT90 ? kRotate90
								 : kRotate270);
		case Y_I420ROT90:
		case Y_I420ROT270:
			return I420Rotate(src, w, su, w / 2, sv, w / 2, dst, h,
					  dst + wh, h / 2, dst + wh + wh / 4,
					  h / 2, w, h,
					  cv->yuv == Y_I420ROT90 ? kRotate90
								 : kRotate270);
		case Y_MJPG_ARGB:
			return MJPGToARGB(src, s->sbytes, dst, w * 4, w, h, w,
					  h);
		case Y_MJPG_I420:
			return MJPGToI420(src, s->sbytes, dst, w, du, w / 2, dv,
					  w / 2, w, h, w, h);
		default:
			return -1;
		}
	}
	case C_SWS: {
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
	case C_TJ:
		if (cv->tj == 1)
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

static int applicable(const struct setting *s, int id)
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

static void select_tier(int id)
{
	if (id >= C_YUV_SSSE3 && id <= C_YUV_MAX)
		MaskCpuFlags(yuv_mask[id - C_YUV_SSSE3]);
}

static double batch(struct setting *s, int id)
{
	struct cand *c = &s->c[id];
	double t0;

	select_tier(id);
	t0 = now();
	for (int i = 0; i < c->iters; i++) {
		size_t k = c->pos++ % s->nslots;

		call(s, id, s->spool + k * s->sslot, s->dpool + k * s->dslot);
	}
	return now() - t0;
}

static void calibrate(struct setting *s, int id)
{
	struct cand *c = &s->c[id];

	c->ok = 0;
	if (!applicable(s, id))
		return;
	select_tier(id);
	if (call(s, id, s->spool, s->dpool) < 0)
		return;
	for (c->iters = 1;; c->iters *= 2)
		if (batch(s, id) > 0.008 || c->iters > 1 << 20)
			break;
	c->ok = 1;
}

/* Median over runs of a[k] / b[k]; 0 when either is missing. */
static double ratio(const struct setting *s, int a, int b, int runs)
{
	double q[MAXRUNS];

	if (!s->c[a].ok || !s->c[b].ok)
		return 0;
	for (int k = 0; k < runs; k++)
		q[k] = s->c[a].r[k] / s->c[b].r[k];
	qsort(q, (size_t)runs, sizeof(q[0]), cmp_double);
	return q[runs / 2];
}

static uint8_t *jpeg_frame(int w, int h, size_t *size)
{
	uint8_t *img = jt_make_image(w, h, 1);
	uint8_t *jpg = jt_compress(img, w, h, TJSAMP_422, 85, 0, size);

	free(img);
	return jpg;
}

static void *xalloc(size_t n)
{
	void *p = NULL;

	if (posix_memalign(&p, 64, n ? n : 64)) {
		fprintf(stderr, "out of memory (%zu bytes)\n", n);
		exit(1);
	}
	return p;
}

static int sws_ok = 1;

/* Prepare the buffers and peers of one setting; 0 when it cannot run. */
static int setup(struct setting *s, const struct conv *cv, int w, int h,
		 int fresh)
{
	size_t wh = (size_t)w * h;
	uint8_t *img = jt_make_image(w, h, 7), *jpg = NULL;

	memset(s, 0, sizeof(*s));
	s->cv = cv;
	s->w = w;
	s->h = h;
	s->fresh = fresh;
	if (cv->sbpp2)
		s->sbytes = wh * (size_t)cv->sbpp2 / 2;
	else
		jpg = jpeg_frame(w, h, &s->sbytes);
	s->dbytes = wh * (size_t)cv->dbpp2 / 2;
	/* a slot holds the memcpy's bytes too; MJPEG peers write 4 B/px */
	s->sslot = s->sbytes > (s->sbytes + s->dbytes) / 2
			   ? s->sbytes
			   : (s->sbytes + s->dbytes) / 2;
	s->dslot = cv->sbpp2 ? wh * 3 : wh * 4;
	/* libyuv rotates RGB24 frames as ARGB ones */
	if (cv->yuv == Y_ARGBROT90 || cv->yuv == Y_ARGBROT270)
		s->sslot = s->dslot = wh * 4;
	s->sslot = (s->sslot + 63) & ~(size_t)63;
	s->dslot = (s->dslot + 63) & ~(size_t)63;
	s->nslots = 1;
	if (fresh) {
		s->nslots = POOL_BYTES / (s->sbytes + s->dbytes) + 1;
		if (s->nslots < 2)
			s->nslots = 2;
	}
	s->spool = xalloc(s->sslot * s->nslots);
	s->dpool = xalloc(s->dslot * s->nslots);
	s->tmp = xalloc((size_t)w * 4 * 4);
	for (size_t k = 0; k < s->nslots; k++) {
		uint8_t *p = s->spool + k * s->sslot;

		if (jpg) {
			memcpy(p, jpg, s->sbytes);
			memset(p + s->sbytes, 0, s->sslot - s->sbytes);
		} else {
			/* the test image's bytes: smooth, textured data */
			for (size_t o = 0; o < s->sslot; o += wh * 3)
				memcpy(p + o, img,
				       s->sslot - o < wh * 3 ? s->sslot - o
							     : wh * 3);
		}
		memset(s->dpool + k * s->dslot, 0, s->dslot);
	}
	free(img);
	free(jpg);
	fill_fmt(&s->sf, cv->src, w, h, s->sbytes, cv->sbpp2);
	fill_fmt(&s->df, cv->dst, w, h, s->dbytes, cv->dbpp2);
	if (sws_ok && cv->sws_src >= 0)
		s->sws = sws_getContext(w, h, cv->sws_src, w, h, cv->sws_dst,
					SWS_BILINEAR, NULL, NULL, NULL);
	if (cv->tj)
		s->tj = tjInitDecompress();
	return 1;
}

static void teardown(struct setting *s)
{
	free(s->spool);
	free(s->dpool);
	free(s->tmp);
	if (s->sws)
		sws_freeContext(s->sws);
	if (s->tj)
		tjDestroy(s->tj);
}

static int best_ours(const struct setting *s)
{
	for (int id = C_AVX2; id >= C_SCALAR; id--)
		if (s->c[id].ok)
			return id;
	return -1;
}

/* Load our library once per tier (see the header comment). */
static void load_ours(const char *path)
{
	static char buf[1 << 16];

	for (int t = 0; t < C_ORIG; t++) {
		char copy[128];
		int in, out;
		ssize_t n;

		if ((t == C_AVX2 && !__builtin_cpu_supports("avx2")) ||
		    (t == C_SSSE3 && !__builtin_cpu_supports("ssse3")) ||
		    (t == C_SSE2 && !__builtin_cpu_supports("sse2")))
			continue;
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
		snprintf(copy, sizeof(copy), "/tmp/v4lc-compare-%ld-%s.so",
			 (long)getpid(), tiers[t]);
		in = open(path, O_RDONLY);
		out = open(copy, O_WRONLY | O_CREAT | O_TRUNC, 0700);
		if (in < 0 || out < 0) {
			fprintf(stderr, "compare: cannot copy %s to %s\n", path,
				copy);
			exit(1);
		}
		while ((n = read(in, buf, sizeof(buf))) > 0)
			if (write(out, buf, (size_t)n) != n)
				exit(1);
		close(in);
		close(out);
		setenv("LIBV4LCONVERT_SIMD", tiers[t], 1);
		if (origlib_open_path(&libs[t].o, copy, 0) == 0) {
			snprintf(libs[t].o.fake_bus, sizeof(libs[t].o.fake_bus),
				 "platform:v4lc-cmp-%s-%ld", tiers[t],
				 (long)getpid());
			libs[t].plain = origlib_create_plain(&libs[t].o);
			libs[t].flip = origlib_create_flip(&libs[t].o);
			libs[t].ok = libs[t].plain != NULL;
			/* the tier is fixed at the first conversion: do one */
			if (libs[t].ok) {
				uint8_t a[16 * 16 * 2] = { 0 }, b[16 * 16 * 3];
				struct v4l2_format f1, f2;

				fill_fmt(&f1, V4L2_PIX_FMT_YUYV, 16, 16,
					 sizeof(a), 4);
				fill_fmt(&f2, V4L2_PIX_FMT_RGB24, 16, 16,
					 sizeof(b), 6);
				libs[t].o.convert(libs[t].plain, &f1, &f2, a,
						  (int)sizeof(a), b,
						  (int)sizeof(b));
			}
		}
		unsetenv("LIBV4LCONVERT_SIMD");
		unlink(copy);
	}
}

static FILE *md, *tsv;

static void fmt_fig(char *out, size_t n, const struct cand *c)
{
	if (!c->ok)
		snprintf(out, n, "-");
	else
		snprintf(out, n, "%.0f ±%.0f%%", c->med,
			 50 * (c->hi - c->lo) / c->med);
}

static void fmt_ratio(char *out, size_t n, double r)
{
	if (r <= 0)
		snprintf(out, n, "-");
	else
		snprintf(out, n, "%.2fx", r);
}

#define NTARGETS 9

/* Summary of the targets: worst ratio over sizes per conversion x target. */
struct tgt {
	double worst[NCONV][NTARGETS];
	int met[NCONV][NTARGETS], seen[NCONV][NTARGETS];
} tg;

static void target(int ci, int bit, double r, double need, int strict)
{
	int b = __builtin_ctz((unsigned)bit);

	if (r <= 0)
		return;
	if (!tg.seen[ci][b] || r < tg.worst[ci][b])
		tg.worst[ci][b] = r;
	tg.seen[ci][b]++;
	tg.met[ci][b] += strict ? r > need : r >= need;
}

/*
 * Same work? Mean absolute difference of each peer's output from our best
 * tier's, per byte of the destination frame (-1: not comparable, e.g. a
 * 4-byte ARGB or 4:2:2 output). Run once per setting, outside the timing.
 */
static void check(struct setting *s, double *diff)
{
	int best = best_ours(s);
	uint8_t *ref = xalloc(s->dslot), *out = xalloc(s->dslot);

	for (int id = 0; id < NCAND; id++)
		diff[id] = -1;
	if (best >= 0 && !call(s, best, s->spool, ref)) {
		for (int id = 0; id < C_MEMCPY; id++) {
			uint64_t sum = 0;

			if (!s->c[id].ok ||
			    (id >= C_YUV_SSSE3 && id <= C_YUV_MAX &&
			     (s->cv->yuv == Y_MJPG_ARGB ||
			      s->cv->yuv == Y_ARGBROT90 ||
			      s->cv->yuv == Y_ARGBROT270)) ||
			    (id == C_TJ && s->cv->tj == 2))
				continue;
			select_tier(id);
			memset(out, 0, s->dslot);
			if (call(s, id, s->spool, out))
				continue;
			for (size_t i = 0; i < s->dbytes; i++)
				sum += (uint64_t)abs(out[i] - ref[i]);
			diff[id] = (double)sum / (double)s->dbytes;
		}
	}
	free(ref);
	free(out);
}

static void report(struct setting *s, int ci, int runs)
{
	double diff[NCAND];
	char dtxt[160] = "";
	const struct conv *cv = s->cv;
	int best = best_ours(s);
	char f[NCAND][32], r1[16], r2[16], r3[16], r4[16], r5[16], r6[16];
	char r7[16], r8[16], ok[128] = "";
	double ro, ry, rs, rw, rm, rt, rq, rb;

	for (int id = 0; id < NCAND; id++) {
		struct cand *c = &s->c[id];

		fmt_fig(f[id], sizeof(f[id]), c);
		if (tsv && c->ok)
			fprintf(tsv, "%s\t%dx%d\t%s\t%s\t%.1f\t%.1f\t%.1f\n",
				cv->name, s->w, s->h,
				s->fresh ? "fresh" : "cache", cand_names[id],
				c->med, c->lo, c->hi);
	}
	if (best < 0)
		return;
	check(s, diff);
	for (int id = 0; id < C_MEMCPY; id++)
		if (diff[id] >= 0 && id != best)
			snprintf(dtxt + strlen(dtxt),
				 sizeof(dtxt) - strlen(dtxt), "%s%s %.2f",
				 *dtxt ? ", " : "", cand_names[id], diff[id]);
	ro = ratio(s, best, C_ORIG, runs);
	ry = ratio(s, C_AVX2, C_YUV_AVX2, runs);
	rs = ratio(s, C_SSE2, C_YUV_SSSE3, runs);
	rw = ratio(s, best, C_SWS, runs);
	rm = ratio(s, best, C_MEMCPY, runs);
	rt = ratio(s, best, C_TJ, runs);
	rq = ratio(s, C_SSSE3, C_YUV_SSSE3, runs);
	rb = ratio(s, best, C_YUV_MAX, runs);
	fmt_ratio(r1, sizeof(r1), ro);
	fmt_ratio(r2, sizeof(r2), ry);
	fmt_ratio(r3, sizeof(r3), rs);
	fmt_ratio(r4, sizeof(r4), rw);
	fmt_ratio(r6, sizeof(r6), rt);
	fmt_ratio(r7, sizeof(r7), rq);
	fmt_ratio(r8, sizeof(r8), rb);
	if (rm > 0)
		snprintf(r5, sizeof(r5), "%.0f %%", 100 * rm);
	else
		snprintf(r5, sizeof(r5), "-");

		/* targets: in-cache figures, except the memory one (fresh) */
#define ADD(cond, label)                                                       \
	snprintf(ok + strlen(ok), sizeof(ok) - strlen(ok), "%s%s%s",           \
		 *ok ? " " : "", label, (cond) ? "✓" : "✗")
	if (!s->fresh) {
		if ((cv->target & T_YUV) && ry > 0) {
			target(ci, T_YUV, ry, 1, 0);
			ADD(ry >= 1, "yuv");
		}
		if ((cv->target & T_SSE2) && rs > 0) {
			target(ci, T_SSE2, rs, 1, 0);
			ADD(rs >= 1, "sse2");
		}
		if ((cv->target & T_10X) && ro > 0) {
			target(ci, T_10X, ro, 10, 0);
			ADD(ro >= 10, "10x");
		}
		if ((cv->target & T_8X) && ro > 0) {
			target(ci, T_8X, ro, 8, 0);
			ADD(ro >= 8, "8x");
		}
		if ((cv->target & T_TJ) && rt > 0) {
			target(ci, T_TJ, rt, 0.95, 0);
			ADD(rt >= 0.95, "tj");
		}
		if (cv->target & T_FAST) {
			double worst = 0;

			for (int id = C_ORIG; id < C_MEMCPY; id++) {
				double r = ratio(s, best, id, runs);

				if (r > 0 && (worst == 0 || r < worst))
					worst = r;
			}
			if (worst > 0) {
				target(ci, T_FAST, worst, 1, 1);
				ADD(worst > 1, "fastest");
			}
		}
	} else if ((cv->target & T_MEM) && rm > 0) {
		target(ci, T_MEM, rm, 0.8, 0);
		ADD(rm >= 0.8, "mem");
	}
	/* issue 17: like for like in cache and fresh from memory */
	if ((cv->target & T_SSSE3) && rq > 0) {
		target(ci, T_SSSE3, rq, 1, 0);
		ADD(rq >= 1, "ssse3");
	}
	if ((cv->target & T_BEST) && rb > 0) {
		target(ci, T_BEST, rb, 1, 0);
		ADD(rb >= 1, "best");
	}
	printf("%-15s %4dx%-4d %s  best=%s orig %s yuv-avx2 %s sse2/ssse3 %s "
	       "ssse3/ssse3 %s best/max %s sws %s tj %s mem %s %s\n",
	       cv->name, s->w, s->h, s->fresh ? "fresh" : "cache", tiers[best],
	       r1, r2, r3, r7, r8, r4, r6, r5, ok);
	for (int id = 0; id < NCAND; id++)
		if (s->c[id].ok)
			printf("    %-13s %s\n", cand_names[id], f[id]);
	printf("    mean |peer - ours| per byte: %s\n", *dtxt ? dtxt : "-");
	fflush(stdout);
	if (md)
		fprintf(md,
			"| %s | %dx%d | %s | %s | %s | %s | %s | %s | %s | %s "
			"| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s "
			"| %s | %s | %s |\n",
			cv->name, s->w, s->h, s->fresh ? "fresh" : "cache",
			f[C_SCALAR], f[C_SSE2], f[C_SSSE3], f[C_AVX2],
			f[C_ORIG], f[C_YUV_SSSE3], f[C_YUV_AVX2], f[C_YUV_MAX],
			f[C_SWS], f[C_TJ], f[C_MEMCPY], r1, r2, r3, r7, r8, r4,
			r6, r5, *ok ? ok : "-", s->fresh ? "" : dtxt);
}

int main(int argc, char **argv)
{
	int runs = 11,
	    sizes[3][2] = { { 640, 480 }, { 1280, 720 }, { 1920, 1080 } };
	int nsizes = 3, modes = 3; /* bit 0 cache, bit 1 fresh */
	const char *filter = NULL, *ours = V4LC_OURS_PATH;
	const char *md_path = NULL, *tsv_path = NULL;

	for (int i = 1; i < argc; i++) {
		int w, h;

		if (sscanf(argv[i], "--size=%dx%d", &w, &h) == 2) {
			sizes[0][0] = w;
			sizes[0][1] = h;
			nsizes = 1;
		} else if (sscanf(argv[i], "--runs=%d", &runs) == 1) {
		} else if (!strcmp(argv[i], "--mode=cache")) {
			modes = 1;
		} else if (!strcmp(argv[i], "--mode=fresh")) {
			modes = 2;
		} else if (!strncmp(argv[i], "--filter=", 9)) {
			filter = argv[i] + 9;
		} else if (!strncmp(argv[i], "--markdown=", 11)) {
			md_path = argv[i] + 11;
		} else if (!strncmp(argv[i], "--tsv=", 6)) {
			tsv_path = argv[i] + 6;
		} else if (!strncmp(argv[i], "--ours=", 7)) {
			ours = argv[i] + 7;
		} else if (!strcmp(argv[i], "--wall")) {
			clock_id = CLOCK_MONOTONIC;
		} else {
			fprintf(stderr,
				"usage: %s [--runs=N] [--size=WxH] "
				"[--mode=cache|fresh] [--filter=S] "
				"[--markdown=FILE] [--tsv=FILE] [--ours=PATH] "
				"[--wall]\n",
				argv[0]);
			return 2;
		}
	}
	if (runs < 1 || runs > MAXRUNS) {
		fprintf(stderr, "runs 1..%d\n", MAXRUNS);
		return 2;
	}
	for (int i = 0; i < nsizes; i++)
		if (sizes[i][0] % 2 || sizes[i][1] % 2 || sizes[i][0] < 16 ||
		    sizes[i][1] < 16) {
			fprintf(stderr, "sizes must be even, at least 16x16\n");
			return 2;
		}
	av_log_set_level(AV_LOG_ERROR);

	load_ours(ours);
	libs[C_ORIG].ok = origlib_open(&libs[C_ORIG].o, 1) == 0;
	if (libs[C_ORIG].ok) {
		libs[C_ORIG].plain = origlib_create_plain(&libs[C_ORIG].o);
		libs[C_ORIG].flip = origlib_create_flip(&libs[C_ORIG].o);
		libs[C_ORIG].ok = libs[C_ORIG].plain != NULL;
	}
	{
		int all = MaskCpuFlags(-1);
		int ssse3 = kCpuInitialized | kCpuHasX86 | kCpuHasSSE2 |
			    kCpuHasSSSE3;
		int avx2 = ssse3 | kCpuHasSSE41 | kCpuHasSSE42 | kCpuHasAVX |
			   kCpuHasAVX2 | kCpuHasERMS | kCpuHasFMA3 |
			   kCpuHasF16C;

		yuv_mask[0] = (all & ssse3) == ssse3 ? ssse3 : 0;
		yuv_mask[1] = (all & avx2) == avx2 ? avx2 : 0;
		yuv_mask[2] = all; /* everything it detects (AVX-512 too) */
	}
	if (md_path && !(md = fopen(md_path, "w"))) {
		perror(md_path);
		return 1;
	}
	if (tsv_path && !(tsv = fopen(tsv_path, "w"))) {
		perror(tsv_path);
		return 1;
	}
	if (md) {
		fprintf(md,
			"MPix/s of source pixels, median of %d interleaved runs "
			"(±: half the min-max spread, in %% of the median), "
			"%s. Ratios: median of per-run ratios; "
			"\"ours\" is our best tier. memcpy moves (source + "
			"destination bytes) / 2. libyuv avx2 = SSSE3..AVX2+FMA, "
			"libyuv max = every level it detects (AVX-512 here).\n\n"
			"| conversion | size | data | ours scalar | ours sse2 | "
			"ours ssse3 | ours avx2 | original | libyuv ssse3 | "
			"libyuv avx2 | libyuv max | swscale | turbojpeg | "
			"memcpy | ours/original | avx2/libyuv avx2 | "
			"sse2/libyuv ssse3 | ssse3/libyuv ssse3 | "
			"ours/libyuv max | ours/swscale | ours/turbojpeg | "
			"ours/memcpy | targets | "
			"mean abs diff from ours (levels/byte) |\n"
			"|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
			"---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
			"---|---|\n",
			runs,
			clock_id == CLOCK_MONOTONIC
				? "wall-clock time"
				: "process CPU time (all threads)");
	}
	if (tsv)
		fprintf(tsv,
			"conversion\tsize\tdata\tcandidate\tmedian\tmin\tmax\n");

	for (size_t ci = 0; ci < NCONV; ci++) {
		const struct conv *cv = &convs[ci];

		if (filter && !strstr(cv->name, filter))
			continue;
		if (set_flips(cv->hflip, cv->vflip)) {
			fprintf(stderr, "%s: cannot set the flip controls\n",
				cv->name);
			continue;
		}
		for (int mode = 0; mode < 2; mode++) {
			if (!(modes & (1 << mode)))
				continue;
			for (int si = 0; si < nsizes; si++) {
				struct setting *s = calloc(1, sizeof(*s));

				setup(s, cv, sizes[si][0], sizes[si][1], mode);
				for (int id = 0; id < NCAND; id++)
					calibrate(s, id);
				for (int k = 0; k < runs; k++)
					for (int id = 0; id < NCAND; id++)
						if (s->c[id].ok)
							s->c[id].r[k] =
								(double)s->w *
								s->h *
								s->c[id].iters /
								batch(s, id) /
								1e6;
				for (int id = 0; id < NCAND; id++) {
					struct cand *c = &s->c[id];
					double q[MAXRUNS];

					if (!c->ok)
						continue;
					memcpy(q, c->r,
					       sizeof(q[0]) * (size_t)runs);
					qsort(q, (size_t)runs, sizeof(q[0]),
					      cmp_double);
					c->lo = q[0];
					c->hi = q[runs - 1];
					c->med = q[runs / 2];
				}
				report(s, (int)ci, runs);
				teardown(s);
				free(s);
			}
		}
	}

	if (md) {
		static const char *const tnames[NTARGETS] = {
			"ours (avx2) >= libyuv (avx2)",
			">= 10x the original",
			"ours sse2 >= libyuv ssse3",
			">= 8x the original",
			">= 95 % of tjDecompress2",
			"faster than every peer",
			"fresh: >= 80 % of memcpy",
			"ours ssse3 >= libyuv ssse3 (cache and fresh)",
			"ours best >= libyuv max (cache and fresh)",
		};

		fprintf(md,
			"\n### Targets (issues 8 and 17)\n\nWorst ratio over the "
			"sizes measured (in-cache figures; the memory "
			"target uses the fresh ones, the SSSE3 and best "
			"ones both), and at how many "
			"sizes the target is met.\n\n"
			"| conversion | target | worst ratio | met |\n"
			"|---|---|---:|---|\n");
		for (size_t ci = 0; ci < NCONV; ci++)
			for (int b = 0; b < NTARGETS; b++)
				if (tg.seen[ci][b])
					fprintf(md,
						"| %s | %s | %s%.2f%s | %d/%d%s |\n",
						convs[ci].name, tnames[b],
						b == 6 ? "" : "",
						b == 6 ? 100 * tg.worst[ci][b]
						       : tg.worst[ci][b],
						b == 6 ? " %" : "x",
						tg.met[ci][b], tg.seen[ci][b],
						tg.met[ci][b] == tg.seen[ci][b]
							? " ✓"
							: " ✗");
		fprintf(md, "\nNotes on the work each peer does:\n\n");
		for (size_t ci = 0; ci < NCONV; ci++)
			if (!filter || strstr(convs[ci].name, filter))
				fprintf(md, "- %s: %s.\n", convs[ci].name,
					convs[ci].note);
		fclose(md);
	}
	if (tsv)
		fclose(tsv);
	for (int i = 0; i <= C_ORIG; i++)
		if (libs[i].ok) {
			if (libs[i].flip)
				libs[i].o.destroy(libs[i].flip);
			libs[i].o.destroy(libs[i].plain);
			origlib_close(&libs[i].o);
		}
	return 0;
}
