/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal state and interfaces of libv4lconvert. */
#ifndef V4LC_LIBV4LCONVERT_PRIV_H
#define V4LC_LIBV4LCONVERT_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "libv4l-plugin.h"
#include "libv4lconvert.h"

#include "core/format.h"
#include "core/frame.h"
#include "dispatch/dsp.h"
#include "sources.h"

#define V4LC_MAX_NATIVE_FORMATS 256 /* vivid alone has 83 */
#define V4LC_MAX_FRAMESIZES 64
#define V4LC_DEFAULT_FPS 30
#define V4LC_ERROR_LEN 256
#define V4LC_FAKE_CONTROLS 6

/* The emulated controls, in the order of LIBV4LCONTROL_CONTROLS's bits. */
enum {
	V4LC_FAKE_AWB,
	V4LC_FAKE_HFLIP,
	V4LC_FAKE_VFLIP,
	V4LC_FAKE_GAMMA,
	V4LC_FAKE_AUTOGAIN,
	V4LC_FAKE_AG_TARGET,
};

struct v4lc_jpeg;
struct v4lc_proc;
struct v4lc_ctrl_shm;

/* A set of native format indices. */
struct v4lc_fmtset {
	uint64_t w[V4LC_MAX_NATIVE_FORMATS / 64];
};

static inline void v4lc_fmtset_add(struct v4lc_fmtset *s, int i)
{
	s->w[i / 64] |= 1ull << (i % 64);
}

static inline int v4lc_fmtset_has(const struct v4lc_fmtset *s, int i)
{
	return (int)(s->w[i / 64] >> (i % 64)) & 1;
}

/* Non-zero when a and b share a member (b NULL: when a is not empty). */
static inline int v4lc_fmtset_meets(const struct v4lc_fmtset *a,
				    const struct v4lc_fmtset *b)
{
	for (size_t k = 0; k < sizeof(a->w) / sizeof(a->w[0]); k++)
		if (a->w[k] & (b ? b->w[k] : ~0ull))
			return 1;
	return 0;
}

struct v4lc_framesize {
	uint32_t width, height;
	struct v4lc_fmtset formats; /* native formats offering this size */
};

struct v4lconvert_data {
	int fd;
	const struct libv4l_dev_ops *dev_ops;
	void *dev_ops_priv;
	const struct v4lc_dsp *dsp;

	/* Native capture formats, in the device's order. */
	struct v4l2_fmtdesc native[V4LC_MAX_NATIVE_FORMATS];
	int n_native;
	struct v4lc_fmtset convertible; /* native formats we can convert from */
	int all_need_conversion;

	/* Distinct discrete frame sizes of all native formats. */
	struct v4lc_framesize sizes[V4LC_MAX_FRAMESIZES];
	int n_sizes;

	char driver[16];
	unsigned int
		bandwidth; /* bytes per second the bus carries; 0 = unknown */
	int fps;

	/* Colorimetry of the frame being converted (from its v4l2 format). */
	struct v4lc_colorimetry colorimetry;

	/* Software flips requested by the control layer. */
	int hflip, vflip;
	/* V4LC_QUIRK_* of this camera (driver hints, quirk table, environment). */
	unsigned quirks;
	int default_gamma; /* 0: none from the table */
	/* Emulated controls: which exist (bit i = fakes[i] of controls.c). */
	unsigned fake_enabled;
	/*
	 * Validated snapshot of the values (controls.c); `shared` is where
	 * they live (ctrlstore.c).
	 */
	int32_t fake_value[V4LC_FAKE_CONTROLS];
	struct v4lc_ctrl_shm *shared; /* NULL: this instance's values only */

	struct v4lc_proc *proc; /* processing state (processing.c), lazily */

	struct v4lc_jpeg *jpeg;
	struct v4lc_pjpg *pjpg; /* Pixart decoder tables, built on first use */
	uint8_t *scratch;
	size_t scratch_size;
	/*
	 * Row buffers of the source converters, apart from `scratch`: that one
	 * holds the destination frame when a flip or crop follows.
	 */
	uint8_t *rows;
	size_t rows_size;
	/* A decoded intermediate frame (v4lc_decoded_scratch). */
	uint8_t *decoded;
	size_t decoded_size;
	/*
	 * A frame a source converter keeps across frames (CPiA1: the last
	 * decoded picture, whose pixels a compressed frame may skip); freed
	 * with free() by v4lconvert_destroy.
	 */
	void *prev_frame;

	char error[V4LC_ERROR_LEN];
};

/* Device access through the instance's operations. */
int v4lc_dev_ioctl(struct v4lconvert_data *data, unsigned long request,
		   void *arg);

/* Record an error message for v4lconvert_get_error_message; returns -1. */
int v4lc_error(struct v4lconvert_data *data, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A scratch buffer of at least `size` bytes, kept across frames. */
uint8_t *v4lc_scratch(struct v4lconvert_data *data, size_t size);

/*
 * Row buffers of at least `size` bytes for a source converter, kept across
 * frames; never overlaps the destination (unlike v4lc_scratch).
 */
uint8_t *v4lc_rows_scratch(struct v4lconvert_data *data, size_t size);

/*
 * A buffer of at least `size` bytes for a decoded intermediate frame that
 * then goes through another source converter (e.g. a chip's Bayer mosaic
 * through the Bayer source, which takes the row buffers): kept across
 * frames, apart from both `scratch` and `rows`.
 */
uint8_t *v4lc_decoded_scratch(struct v4lconvert_data *data, size_t size);

/* Scan formats and frame sizes of the device (called at create). */
void v4lc_probe_device(struct v4lconvert_data *data);

/* Native index of a fourcc, or -1. */
int v4lc_native_index(const struct v4lconvert_data *data, uint32_t fourcc);

/* Fit a destination-format frame to dst's size: centred crop or black
 * border (fit.c). */
void v4lc_fit(const struct v4lc_frame *src, struct v4lc_frame *dst);
/* dst := src reduced 2x by 2x2 means; sets dst's geometry. */
void v4lc_halve(const struct v4lc_frame *src, struct v4lc_frame *dst);

/* Quirk flags and emulated controls (called at create). */
void v4lc_controls_init(struct v4lconvert_data *data);
/* The flips the driver reports (input status, sensor rotation): quirk bits. */
unsigned v4lc_driver_flips(struct v4lconvert_data *data);

/*
 * Emulated control values (controls.c): fake control i's value in the
 * instance's snapshot, always within its range (its default when the shared
 * copy holds garbage). v4lc_controls_refresh takes a new snapshot of the
 * shared values (one read) and updates the flips: once per frame, before
 * anything reads them; the instance's own writes update the snapshot too.
 */
int32_t v4lc_fake_get(const struct v4lconvert_data *data, int i);
void v4lc_controls_refresh(struct v4lconvert_data *data);
/* Range and default of fake control i (controls.c). */
void v4lc_fake_range(const struct v4lconvert_data *data, int i, int32_t *min,
		     int32_t *max, int32_t *def);

/*
 * Settings shared by the processes of one user (ctrlstore.c): attach to or
 * create the device's shared segment (0600, validated), or stay private.
 */
void v4lc_ctrlstore_open(struct v4lconvert_data *data);
void v4lc_ctrlstore_close(struct v4lconvert_data *data);
/*
 * Load the first n values of the shared copy (one read), store value i (no
 * validation: the caller's).
 */
void v4lc_ctrlstore_load(const struct v4lconvert_data *data, int32_t *v, int n);
void v4lc_ctrlstore_store(struct v4lconvert_data *data, int i, int32_t value);

/*
 * Software processing (processing.c): white balance, gamma, auto gain.
 * v4lc_proc_possible: the controls that drive it exist, so destination
 * formats (and packed 4:2:2) go through v4lc_proc_frame.
 * v4lc_proc_active: their current values ask for processing.
 * v4lc_proc_frame: in to out (same format and size; in place allowed) for
 * RGB3, BGR3, YU12, YV12, packed 4:2:2 and 8-bit Bayer; 0 or -errno.
 */
int v4lc_proc_possible(const struct v4lconvert_data *data);
int v4lc_proc_active(struct v4lconvert_data *data);
int v4lc_proc_frame(struct v4lconvert_data *data, const struct v4lc_frame *in,
		    struct v4lc_frame *out);
/* Is fourcc an 8-bit Bayer format processing works on before demosaic? */
int v4lc_proc_bayer8(uint32_t fourcc);
/* Where a processed copy of a Bayer source goes (kept across frames). */
uint8_t *v4lc_proc_bayer_buffer(struct v4lconvert_data *data, size_t size);
void v4lc_proc_free(struct v4lconvert_data *data);

/* USB bus bandwidth of the device in bytes per second (0 = unknown). */
unsigned int v4lc_bus_bandwidth(int fd);

/* Destination layout of a v4l2 format: bytesperline and sizeimage. */
void v4lc_fixup(struct v4l2_pix_format *pix);

/*
 * Packed destinations (beyond the original, whose destinations are the four
 * of v4lconvert_supported_dst_format): a packed 4:2:2 source (YUYV, YVYU,
 * UYVY, VYUY) also serves packed 4:2:2 of any of these orders, same size,
 * with the flips applied (and the byte order changed when it differs), so
 * a flipped YUYV camera still offers YUYV. Flips and the software
 * processing (processing.c, in the YUV domain) run on them; dst-only mode
 * is on when flips are active or processing controls exist.
 */
int v4lc_is_packed422(uint32_t fourcc);
/* Flips are active (and packed destinations then serve them). */
int v4lc_flips_active(const struct v4lconvert_data *data);
/* v4lc_fixup for a packed 4:2:2 destination: minimal stride. */
void v4lc_fixup_packed(struct v4l2_pix_format *pix);

#endif
