/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The source formats: one descriptor per V4L2 fourcc the library converts
 * from, in one table (V4LC_FORMAT_TABLE below). Everything that depends on
 * a source format reads it from here: the plane geometry of the frame layer
 * (core/frame.c, core/transform.c), the minimal strides and frame sizes,
 * the source converters of libv4lconvert (its sources.c expands the
 * converter column), the costs format negotiation compares, the kernel's
 * description and compressed flag (what the virtual camera and the frame
 * server report), and the size rule (bytesperline and sizeimage for a
 * width and height: the virtual camera's, the frame server's and the
 * autofocus daemon's). Adding a format is one row, plus a converter when
 * none of the existing ones serves its layout (plus its encoder in
 * src/vcam/formats.c when the virtual camera is to send it).
 */
#ifndef V4LC_CORE_FORMAT_H
#define V4LC_CORE_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include <linux/videodev2.h>

#include "dispatch/dsp.h"

/* JPEG-Lite (nw80x) is missing from older kernel headers. */
#ifndef V4L2_PIX_FMT_JPGL
#define V4L2_PIX_FMT_JPGL v4l2_fourcc('J', 'P', 'G', 'L')
#endif

/*
 * How the bytes of a frame are laid out, and what `order`, `swap_uv` and
 * `shift` of a descriptor mean for it. "stride" is the first plane's bytes
 * per line; every layout with rows has a minimal stride (the bytes one row
 * of pixels takes, v4lc_format_min_stride).
 */
enum v4lc_layout {
	V4LC_L_NONE,
	/* The frame layer's formats (core/frame.h), first. */
	V4LC_L_PACKED422, /* Y0 U Y1 V pairs in `order` (v4lc_yuv422_order) */
	V4LC_L_PLANAR420, /* Y plane, U and V planes of stride (stride + 1)
			   * / 2 and (height + 1) / 2 rows; swap_uv: V first */
	V4LC_L_SEMI420,   /* Y plane, interleaved U,V plane of `stride` and
			   * (height + 1) / 2 rows; swap_uv: V,U pairs */
	V4LC_L_RGB24,     /* 3 bytes a pixel in `order` (v4lc_rgb_order) */
	/* Rows of one kind of sample: a frame is stride * height bytes. */
	V4LC_L_BAYER8,   /* 8-bit Bayer, CFA `order` (v4lc_bayer_order) */
	V4LC_L_BAYER10P, /* MIPI RAW10: 4 pixels in 5 bytes, CFA `order` */
	V4LC_L_BAYER16,  /* little-endian 16-bit words >> shift, CFA `order` */
	V4LC_L_GREY8,    /* one byte a pixel */
	V4LC_L_GREY16,   /* little-endian 16-bit words >> shift */
	V4LC_L_GREY16BE, /* big-endian 16-bit words >> shift */
	V4LC_L_Y10BPACK, /* 10-bit samples packed MSB first, the top 8 kept */
	V4LC_L_RGB565,   /* 16-bit little-endian R5 G6 B5 */
	V4LC_L_RGB32,    /* 4 bytes a pixel in `order` (v4lc_rgb32_layout) */
	V4LC_L_HSV24,    /* H S V */
	V4LC_L_HSV32,    /* X H S V */
	/* Further YUV layouts (libv4lconvert's src_yuv.c describes them). */
	V4LC_L_SEMI422,   /* NV16; swap_uv: NV61 */
	V4LC_L_PLANAR422, /* YUV422P */
	V4LC_L_M420,      /* two Y lines, one U,V line, repeated */
	V4LC_L_HM12,      /* NV12 in 16x16 tiles; bytesperline ignored */
	V4LC_L_SEMI444,   /* NV24; swap_uv: NV42 */
	/* Device-specific: the converter knows the frame. */
	V4LC_L_CHIPYUV, /* fixed 4:2:0 layouts of `order` (v4lc_chip_yuv) */
	V4LC_L_JPEG,    /* MJPEG, JPEG: compressed by the camera to fit
			   * the bus, so never penalised for its bandwidth */
	V4LC_L_CODED,   /* other compressed or chip-specific formats */
};

/* The fixed YUV 4:2:0 layouts of old webcam chips (V4LC_L_CHIPYUV). */
enum v4lc_chip_yuv {
	V4LC_S501, /* SPCA501 */
	V4LC_S505, /* SPCA505 */
	V4LC_S508, /* SPCA508 */
	V4LC_CITV, /* Xirlink C-It */
	V4LC_KONI, /* Konica */
	V4LC_S920, /* SN9C20X I420 */
};

/*
 * How big a frame is (format_size.h computes it): the layout's rows, or a
 * device-specific frame of fixed size, or compressed (the kernel's
 * V4L2_FMT_FLAG_COMPRESSED: variable, up to the driver's sizeimage).
 */
enum v4lc_size_rule {
	V4LC_SZ_ROWS,  /* the layout's planes (v4lc_format_planes) */
	V4LC_SZ_FIX8,  /* w * h bytes; bytesperline w */
	V4LC_SZ_FIX12, /* w * h * 3 / 2 bytes (YUV 4:2:0); bytesperline w */
	V4LC_SZ_VAR,   /* compressed; bytesperline w, as gspca reports */
	V4LC_SZ_VAR0,  /* compressed; bytesperline 0 (JPEG, as UVC reports) */
};

struct v4lc_format {
	uint32_t fourcc;
	uint8_t layout;  /* enum v4lc_layout */
	uint8_t order;   /* component order, per layout (see above) */
	uint8_t swap_uv; /* chroma stored V before U */
	uint8_t shift;   /* deep samples: the right shift to 8 bits */
	/*
	 * Cost of converting to an RGB / a YUV 4:2:0 destination (lower
	 * wins): cheap repacks first, then colour conversions, then
	 * decoders; grey last so that it is never chosen over colour.
	 */
	uint8_t rank_rgb, rank_yuv;
	/* Device-specific: applications cannot decode it themselves. */
	uint8_t needs_conversion;
	uint8_t size; /* enum v4lc_size_rule */
	/* The kernel's description (VIDIOC_ENUM_FMT), at most 31 bytes */
	const char *desc;
};

/*
 * X(fourcc, layout, order, swap_uv, shift, rank_rgb, rank_yuv,
 *   needs_conversion, converter, size, desc): fourcc is
 * V4L2_PIX_FMT_<fourcc>, layout V4LC_L_<layout>, converter the source
 * converter v4lc_conv_<converter> of libv4lconvert (declared in
 * src/libv4lconvert/sources.h), size V4LC_SZ_<size>. The ranks follow the
 * original library's where it has the format. The descriptions are the
 * kernel's (v4l_fill_fmtdesc), but for OV511 and OV518, which the virtual
 * camera has always called "... compressed".
 */
/* One row a format, in columns. */
/* clang-format off */
#define V4LC_FORMAT_TABLE(X)                                                                                   \
	/* The frame layer converts these directly. */                                                         \
	X(RGB24,        RGB24,     V4LC_RGB24, 0, 0, 1, 3, 0, frame,   ROWS,  "24-bit RGB 8-8-8")              \
	X(BGR24,        RGB24,     V4LC_BGR24, 0, 0, 1, 3, 0, frame,   ROWS,  "24-bit BGR 8-8-8")              \
	X(YUV420,       PLANAR420, 0,          0, 0, 3, 1, 0, frame,   ROWS,  "Planar YUV 4:2:0")              \
	X(YVU420,       PLANAR420, 0,          1, 0, 3, 1, 0, frame,   ROWS,  "Planar YVU 4:2:0")              \
	X(NV12,         SEMI420,   0,          0, 0, 3, 2, 0, frame,   ROWS,  "Y/UV 4:2:0")                    \
	X(NV21,         SEMI420,   0,          1, 0, 3, 2, 0, frame,   ROWS,  "Y/VU 4:2:0")                    \
	X(YUYV,         PACKED422, V4LC_YUYV,  0, 0, 3, 2, 0, frame,   ROWS,  "YUYV 4:2:2")                    \
	X(YVYU,         PACKED422, V4LC_YVYU,  0, 0, 3, 2, 0, frame,   ROWS,  "YVYU 4:2:2")                    \
	X(UYVY,         PACKED422, V4LC_UYVY,  0, 0, 3, 2, 0, frame,   ROWS,  "UYVY 4:2:2")                    \
	X(VYUY,         PACKED422, V4LC_VYUY,  0, 0, 3, 2, 0, frame,   ROWS,  "VYUY 4:2:2")                    \
	X(MJPEG,        JPEG,      0,          0, 0, 7, 7, 0, jpeg,    VAR0,  "Motion-JPEG")                   \
	X(JPEG,         JPEG,      0,          0, 0, 7, 7, 0, jpeg,    VAR0,  "JFIF JPEG")                     \
	/* Bayer: 8 like the original; deeper 9 (more bytes on the bus). */                                    \
	X(SBGGR8,       BAYER8,    V4LC_BGGR,  0, 0, 8, 8, 0, bayer,   ROWS,  "8-bit Bayer BGBG/GRGR")         \
	X(SGBRG8,       BAYER8,    V4LC_GBRG,  0, 0, 8, 8, 0, bayer,   ROWS,  "8-bit Bayer GBGB/RGRG")         \
	X(SGRBG8,       BAYER8,    V4LC_GRBG,  0, 0, 8, 8, 0, bayer,   ROWS,  "8-bit Bayer GRGR/BGBG")         \
	X(SRGGB8,       BAYER8,    V4LC_RGGB,  0, 0, 8, 8, 0, bayer,   ROWS,  "8-bit Bayer RGRG/GBGB")         \
	X(SBGGR10P,     BAYER10P,  V4LC_BGGR,  0, 0, 9, 9, 1, bayer,   ROWS,  "10-bit Bayer BGBG/GRGR Packed") \
	X(SGBRG10P,     BAYER10P,  V4LC_GBRG,  0, 0, 9, 9, 1, bayer,   ROWS,  "10-bit Bayer GBGB/RGRG Packed") \
	X(SGRBG10P,     BAYER10P,  V4LC_GRBG,  0, 0, 9, 9, 1, bayer,   ROWS,  "10-bit Bayer GRGR/BGBG Packed") \
	X(SRGGB10P,     BAYER10P,  V4LC_RGGB,  0, 0, 9, 9, 1, bayer,   ROWS,  "10-bit Bayer RGRG/GBGB Packed") \
	X(SBGGR10,      BAYER16,   V4LC_BGGR,  0, 2, 9, 9, 1, bayer,   ROWS,  "10-bit Bayer BGBG/GRGR")        \
	X(SGBRG10,      BAYER16,   V4LC_GBRG,  0, 2, 9, 9, 1, bayer,   ROWS,  "10-bit Bayer GBGB/RGRG")        \
	X(SGRBG10,      BAYER16,   V4LC_GRBG,  0, 2, 9, 9, 1, bayer,   ROWS,  "10-bit Bayer GRGR/BGBG")        \
	X(SRGGB10,      BAYER16,   V4LC_RGGB,  0, 2, 9, 9, 1, bayer,   ROWS,  "10-bit Bayer RGRG/GBGB")        \
	X(SBGGR12,      BAYER16,   V4LC_BGGR,  0, 4, 9, 9, 1, bayer,   ROWS,  "12-bit Bayer BGBG/GRGR")        \
	X(SGBRG12,      BAYER16,   V4LC_GBRG,  0, 4, 9, 9, 1, bayer,   ROWS,  "12-bit Bayer GBGB/RGRG")        \
	X(SGRBG12,      BAYER16,   V4LC_GRBG,  0, 4, 9, 9, 1, bayer,   ROWS,  "12-bit Bayer GRGR/BGBG")        \
	X(SRGGB12,      BAYER16,   V4LC_RGGB,  0, 4, 9, 9, 1, bayer,   ROWS,  "12-bit Bayer RGRG/GBGB")        \
	X(SBGGR16,      BAYER16,   V4LC_BGGR,  0, 8, 9, 9, 1, bayer,   ROWS,  "16-bit Bayer BGBG/GRGR")        \
	X(SGBRG16,      BAYER16,   V4LC_GBRG,  0, 8, 9, 9, 1, bayer,   ROWS,  "16-bit Bayer GBGB/RGRG")        \
	X(SGRBG16,      BAYER16,   V4LC_GRBG,  0, 8, 9, 9, 1, bayer,   ROWS,  "16-bit Bayer GRGR/BGBG")        \
	X(SRGGB16,      BAYER16,   V4LC_RGGB,  0, 8, 9, 9, 1, bayer,   ROWS,  "16-bit Bayer RGRG/GBGB")        \
	/* Packed RGB; the alpha or padding byte is ignored. */                                                \
	X(RGB565,       RGB565,    0,          0, 0, 2, 4, 0, rgb,     ROWS,  "16-bit RGB 5-6-5")              \
	X(BGR32,        RGB32,     V4LC_BGRX32, 0, 0, 2, 4, 0, rgb,    ROWS,  "32-bit BGRA/X 8-8-8-8")         \
	X(ABGR32,       RGB32,     V4LC_BGRX32, 0, 0, 2, 4, 0, rgb,    ROWS,  "32-bit BGRA 8-8-8-8")           \
	X(XBGR32,       RGB32,     V4LC_BGRX32, 0, 0, 2, 4, 0, rgb,    ROWS,  "32-bit BGRX 8-8-8-8")           \
	X(RGB32,        RGB32,     V4LC_XRGB32, 0, 0, 2, 4, 0, rgb,    ROWS,  "32-bit A/XRGB 8-8-8-8")         \
	X(ARGB32,       RGB32,     V4LC_XRGB32, 0, 0, 2, 4, 0, rgb,    ROWS,  "32-bit ARGB 8-8-8-8")           \
	X(XRGB32,       RGB32,     V4LC_XRGB32, 0, 0, 2, 4, 0, rgb,    ROWS,  "32-bit XRGB 8-8-8-8")           \
	X(BGRA32,       RGB32,     V4LC_XBGR32, 0, 0, 2, 4, 0, rgb,    ROWS,  "32-bit ABGR 8-8-8-8")           \
	X(BGRX32,       RGB32,     V4LC_XBGR32, 0, 0, 2, 4, 0, rgb,    ROWS,  "32-bit XBGR 8-8-8-8")           \
	X(RGBA32,       RGB32,     V4LC_RGBX32, 0, 0, 2, 4, 0, rgb,    ROWS,  "32-bit RGBA 8-8-8-8")           \
	X(RGBX32,       RGB32,     V4LC_RGBX32, 0, 0, 2, 4, 0, rgb,    ROWS,  "32-bit RGBX 8-8-8-8")           \
	/* Grey: Y4 and Y6 are taken as MSB-aligned bytes, like GREY. */                                       \
	X(GREY,         GREY8,     0,          0, 0, 20, 20, 0, grey,    ROWS,  "8-bit Greyscale")             \
	X(Y4,           GREY8,     0,          0, 0, 20, 20, 0, grey,    ROWS,  "4-bit Greyscale")             \
	X(Y6,           GREY8,     0,          0, 0, 20, 20, 0, grey,    ROWS,  "6-bit Greyscale")             \
	X(Y10,          GREY16,    0,          0, 2, 20, 20, 0, grey,    ROWS,  "10-bit Greyscale")            \
	X(Y10BPACK,     Y10BPACK,  0,          0, 0, 20, 20, 0, grey,    ROWS,  "10-bit Greyscale (Packed)")   \
	X(Y12,          GREY16,    0,          0, 4, 20, 20, 0, grey,    ROWS,  "12-bit Greyscale")            \
	X(Y16,          GREY16,    0,          0, 8, 20, 20, 0, grey,    ROWS,  "16-bit Greyscale")            \
	X(Y16_BE,       GREY16BE,  0,          0, 8, 20, 20, 0, grey,    ROWS,  "16-bit Greyscale BE")         \
	/* YUV layouts: like packed 4:2:2; the device-specific ones need                                       \
	 * conversion. */                                                                                      \
	X(NV16,         SEMI422,   0,          0, 0, 3, 2, 1, yuv,     ROWS,  "Y/UV 4:2:2")                    \
	X(NV61,         SEMI422,   0,          1, 0, 3, 2, 1, yuv,     ROWS,  "Y/VU 4:2:2")                    \
	X(YUV422P,      PLANAR422, 0,          0, 0, 3, 2, 0, yuv,     ROWS,  "Planar YUV 4:2:2")              \
	X(M420,         M420,      0,          0, 0, 3, 2, 1, yuv,     ROWS,  "YUV 4:2:0 (M420)")              \
	X(NV12_16L16,   HM12,      0,          0, 0, 3, 2, 1, yuv,     ROWS,  "Y/UV 4:2:0 (16x16 Linear)")     \
	X(NV24,         SEMI444,   0,          0, 0, 3, 2, 0, yuv,     ROWS,  "Y/UV 4:4:4")                    \
	X(NV42,         SEMI444,   0,          1, 0, 3, 2, 0, yuv,     ROWS,  "Y/VU 4:4:4")                    \
	/* HSV: a per-pixel colour model conversion. */                                                        \
	X(HSV24,        HSV24,     0,          0, 0, 4, 4, 0, hsv,     ROWS,  "24-bit HSV 8-8-8")              \
	X(HSV32,        HSV32,     0,          0, 0, 4, 4, 0, hsv,     ROWS,  "32-bit XHSV 8-8-8-8")           \
	/* Chip YUV 4:2:0: a cheap repack, like M420; CPiA1 a decoder. */                                      \
	X(SPCA501,      CHIPYUV,   V4LC_S501,  0, 0, 3, 2, 1, chipyuv, FIX12, "GSPCA SPCA501")                 \
	X(SPCA505,      CHIPYUV,   V4LC_S505,  0, 0, 3, 2, 1, chipyuv, FIX12, "GSPCA SPCA505")                 \
	X(SPCA508,      CHIPYUV,   V4LC_S508,  0, 0, 3, 2, 1, chipyuv, FIX12, "GSPCA SPCA508")                 \
	X(CIT_YYVYUY,   CHIPYUV,   V4LC_CITV,  0, 0, 3, 2, 1, chipyuv, FIX12, "GSPCA CIT YYVYUY")              \
	X(KONICA420,    CHIPYUV,   V4LC_KONI,  0, 0, 3, 2, 1, chipyuv, FIX12, "GSPCA KONICA420")               \
	X(SN9C20X_I420, CHIPYUV,   V4LC_S920,  0, 0, 3, 2, 1, chipyuv, FIX12, "GSPCA SN9C20X I420")            \
	X(CPIA1,        CODED,     0,          0, 0, 4, 3, 1, cpia,    VAR,   "GSPCA CPiA YUV")                \
	/* Compressed Bayer of webcam chips: 9 like the original. */                                           \
	X(SN9C10X,      CODED,     0,          0, 0, 9, 9, 1, s910,    VAR,   "GSPCA SN9C10X")                 \
	X(PAC207,       CODED,     0,          0, 0, 9, 9, 1, p207,    VAR,   "GSPCA PAC207")                  \
	X(MR97310A,     CODED,     0,          0, 0, 9, 9, 1, m310,    VAR,   "GSPCA MR97310A")                \
	X(SN9C2028,     CODED,     0,          0, 0, 9, 9, 1, sonx,    VAR,   "GSPCA SN9C2028")                \
	X(SQ905C,       CODED,     0,          0, 0, 9, 9, 1, 905c,    VAR,   "GSPCA SQ905C")                  \
	X(STV0680,      CODED,     0,          0, 0, 9, 9, 1, s680,    FIX8,  "GSPCA STV0680")                 \
	X(SPCA561,      CODED,     0,          0, 0, 9, 9, 1, s561,    VAR,   "GSPCA SPCA561")                 \
	/* JPEG-family chip formats: decoders like JPEG; JL2005 9. */                                          \
	X(PJPG,         CODED,     0,          0, 0, 7, 7, 1, pjpg,    VAR,   "GSPCA PJPG")                    \
	X(JL2005BCD,    CODED,     0,          0, 0, 9, 9, 1, jl2005,  VAR,   "GSPCA JL2005BCD")               \
	X(SE401,        CODED,     0,          0, 0, 7, 7, 1, se401,   VAR,   "GSPCA SE401")                   \
	X(JPGL,         CODED,     0,          0, 0, 7, 7, 1, jpgl,    VAR,   "JPEG Lite")                     \
	/* OmniVision: decoders, 7 as in the original's table. */                                              \
	X(OV511,        CODED,     0,          0, 0, 7, 7, 1, ov51x,   VAR,   "OV511 compressed")              \
	X(OV518,        CODED,     0,          0, 0, 7, 7, 1, ov51x,   VAR,   "OV518 compressed")
/* clang-format on */

/* A row as a struct v4lc_format initializer. */
#define V4LC_FORMAT_INIT(fcc, layout, order, swap, shift, rgb, yuv, needs,     \
			 conv, size, desc)                                     \
	{ V4L2_PIX_FMT_##fcc,                                                  \
	  V4LC_L_##layout,                                                     \
	  order,                                                               \
	  swap,                                                                \
	  shift,                                                               \
	  rgb,                                                                 \
	  yuv,                                                                 \
	  needs,                                                               \
	  V4LC_SZ_##size,                                                      \
	  desc },

/* The table, in V4LC_FORMAT_TABLE's order, and its length. */
extern const struct v4lc_format v4lc_formats[];
extern const size_t v4lc_n_formats;

/* The descriptor of a fourcc, or NULL when the library does not know it. */
const struct v4lc_format *v4lc_format_find(uint32_t fourcc);

/*
 * v4lc_format_find for the parts outside libv4lconvert.so (the virtual
 * camera, the frame server, the autofocus daemon), which reach no hidden
 * symbol of it: the same table, expanded in the caller, so that reading
 * it exports nothing more.
 */
static inline const struct v4lc_format *v4lc_format_row(uint32_t fourcc)
{
	static const struct v4lc_format rows[] = { V4LC_FORMAT_TABLE(
		V4LC_FORMAT_INIT) };

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (rows[i].fourcc == fourcc)
			return &rows[i];
	return NULL;
}

/* The kernel's V4L2_FMT_FLAG_COMPRESSED: frames of variable size. */
static inline int v4lc_format_compressed(const struct v4lc_format *f)
{
	return f->size >= V4LC_SZ_VAR;
}

#include "core/format_size.h"

/* Is the layout one of the frame layer's (core/frame.h)? */
static inline int v4lc_layout_is_frame(int layout)
{
	return layout >= V4LC_L_PACKED422 && layout <= V4LC_L_RGB24;
}

/*
 * The stride a converter reads with: `stride` when it is at least the
 * minimal stride, else the minimal stride (0 or less than a row, as some
 * drivers report, means minimal); HM12 ignores bytesperline.
 */
size_t v4lc_format_stride(const struct v4lc_format *f, int width, long stride);

/*
 * v4lc_format_planes (format_size.h) with the frame layer's strict stride
 * rule: `stride` 0 means minimal, anything below the minimal stride (or
 * negative) is -EINVAL.
 */
int v4lc_format_geometry(const struct v4lc_format *f, int width, int height,
			 int stride, struct v4lc_planes *p);

#endif
