/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bench/compare (compare.c): what its files share. compare_convs.c: the
 * conversions and what each peer calls for them; compare_peers.c: loading
 * and calling the candidates; compare_report.c: the figures printed and
 * written; compare.c: the measure and main.
 */
#ifndef V4LC_BENCH_COMPARE_H
#define V4LC_BENCH_COMPARE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <libswscale/swscale.h>
#include <turbojpeg.h>

#include "../tests/common/origlib.h"
#include "dispatch/dsp.h"

#define MAXRUNS 64
#define POOL_BYTES ((size_t)112 << 20) /* > 3x the 32 MiB L3 of the machine */

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

#define NCONV 20 /* entries of convs (the compiler checks the count) */
extern const struct conv convs[NCONV];

/* 90 or 270 (clockwise) for the rotations (see compare.c), or 0 */
int rotation(const struct conv *cv);

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
extern const char *const cand_names[NCAND];
extern const char *const tiers[C_ORIG];

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

/* compare.c */
void *xalloc(size_t n);
int cmp_double(const void *a, const void *b);
int best_ours(const struct setting *s);
double ratio(const struct setting *s, int a, int b, int runs);

/* compare_peers.c */
void fill_fmt(struct v4l2_format *f, uint32_t fourcc, int w, int h, size_t size,
	      int bpp2);
void load_ours(const char *path);
void open_original(void);
void close_libs(void);
void init_yuv_masks(void);
int set_flips(int hflip, int vflip);
int applicable(const struct setting *s, int id);
void select_tier(int id);
int call(struct setting *s, int id, const uint8_t *src, uint8_t *dst);

/* compare_report.c */
extern FILE *md, *tsv;
void report(struct setting *s, int ci, int runs);
void write_md_header(int runs, int wall);
void write_md_targets(const char *filter);

#endif
