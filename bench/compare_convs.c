/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* bench/compare: the conversions measured, and what each peer calls. */
#include <linux/videodev2.h>

#include "compare.h"

const struct conv convs[] = {
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

/* 90 or 270 (clockwise) for the rotations (see the header comment), or 0 */
int rotation(const struct conv *cv)
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

const char *const cand_names[NCAND] = {
	"ours scalar", "ours sse2",    "ours ssse3",  "ours avx2",
	"original",    "libyuv ssse3", "libyuv avx2", "libyuv max",
	"swscale",     "turbojpeg",    "memcpy",
};
const char *const tiers[C_ORIG] = { "scalar", "sse2", "ssse3", "avx2" };
