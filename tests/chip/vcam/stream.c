/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The chip formats end to end: the virtual camera offering one chip format,
 * libv4l2 (the test variant) emulating RGB24 and YU12 on top of it, frames
 * streamed through mmap buffers.
 *  - The camera side, through its plugin operations directly: ENUM_FMT
 *    gives the format with the kernel's flags (compressed or not),
 *    ENUM_FRAMESIZES only sizes the chip takes (a spec size the encoder
 *    cannot make is not offered), S_FMT bytesperline = width and a
 *    sizeimage no frame exceeds.
 *  - Every offered size, both destinations, three frames each: the frame
 *    libv4l2 hands out must equal, byte for byte, the camera's raw frame of
 *    that sequence number (v4lc_vcam_render) converted by a separate
 *    libv4lconvert instance.
 *  - A corrupt frame (EAGAIN for CPIA, a short one, EPIPE, for S501) is
 *    retried inside DQBUF: the application gets the next frame.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/videodev2.h>

#include <libv4l2.h>
#include <libv4lconvert.h>

#include "v4l2/testhook.h"
#include "vcam/vcam.h"
#include "../../common/check.h"

struct chip {
	const char *name; /* spec text */
	uint32_t fourcc, flags;
};

static const struct chip chips[] = {
	{ "S501", V4L2_PIX_FMT_SPCA501, 0 },
	{ "S505", V4L2_PIX_FMT_SPCA505, 0 },
	{ "S508", V4L2_PIX_FMT_SPCA508, 0 },
	{ "CITV", V4L2_PIX_FMT_CIT_YYVYUY, 0 },
	{ "KONI", V4L2_PIX_FMT_KONICA420, 0 },
	{ "S920", V4L2_PIX_FMT_SN9C20X_I420, 0 },
	{ "CPIA", V4L2_PIX_FMT_CPIA1, V4L2_FMT_FLAG_COMPRESSED },
	{ "S910", V4L2_PIX_FMT_SN9C10X, V4L2_FMT_FLAG_COMPRESSED },
	{ "P207", V4L2_PIX_FMT_PAC207, V4L2_FMT_FLAG_COMPRESSED },
	{ "S680", V4L2_PIX_FMT_STV0680, 0 },
	{ "SONX", V4L2_PIX_FMT_SN9C2028, V4L2_FMT_FLAG_COMPRESSED },
	{ "M310", V4L2_PIX_FMT_MR97310A, V4L2_FMT_FLAG_COMPRESSED },
	{ "905C", V4L2_PIX_FMT_SQ905C, V4L2_FMT_FLAG_COMPRESSED },
	{ "S561", V4L2_PIX_FMT_SPCA561, V4L2_FMT_FLAG_COMPRESSED },
	{ "PJPG", V4L2_PIX_FMT_PJPG, V4L2_FMT_FLAG_COMPRESSED },
	{ "JL20", V4L2_PIX_FMT_JL2005BCD, V4L2_FMT_FLAG_COMPRESSED },
	{ "S401", V4L2_PIX_FMT_SE401, V4L2_FMT_FLAG_COMPRESSED },
	{ "JPGL", V4L2_PIX_FMT_JPGL, V4L2_FMT_FLAG_COMPRESSED },
	{ "O511", V4L2_PIX_FMT_OV511, V4L2_FMT_FLAG_COMPRESSED },
	{ "O518", V4L2_PIX_FMT_OV518, V4L2_FMT_FLAG_COMPRESSED },
};
#define NCHIPS (sizeof(chips) / sizeof(chips[0]))

static const uint32_t dsts[2] = { V4L2_PIX_FMT_RGB24, V4L2_PIX_FMT_YUV420 };

static size_t out_bytes(uint32_t df, int w, int h)
{
	return df == V4L2_PIX_FMT_RGB24 ? (size_t)w * h * 3
					: (size_t)w * h * 3 / 2;
}

/* The camera itself (no libv4l2), and a converter of its raw frames. */
struct ref {
	int fd;
	void *priv;
	struct v4lconvert_data *cv;
};

static int ref_open(struct ref *r, const char *spec)
{
	r->fd = v4lc_vcam_create(spec);
	r->priv = r->fd >= 0 ? v4lc_vcam_ops.init(r->fd) : NULL;
	r->cv = r->priv ? v4lconvert_create_with_dev_ops(r->fd, r->priv,
							 &v4lc_vcam_ops)
			: NULL;
	return r->cv ? 0 : -1;
}

static void ref_close(struct ref *r)
{
	if (r->cv)
		v4lconvert_destroy(r->cv);
	if (r->priv)
		v4lc_vcam_ops.close(r->priv);
	if (r->fd >= 0)
		close(r->fd);
}

/* The camera's own format at w x h (raw S_FMT). */
static int raw_fmt(struct ref *r, uint32_t f, int w, int h,
		   struct v4l2_format *out)
{
	memset(out, 0, sizeof(*out));
	out->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	out->fmt.pix.pixelformat = f;
	out->fmt.pix.width = (uint32_t)w;
	out->fmt.pix.height = (uint32_t)h;
	return v4lc_vcam_ops.ioctl(r->priv, r->fd, VIDIOC_S_FMT, out);
}

/* Frame seq converted to df by the reference converter (malloc'd). */
static uint8_t *expected(struct ref *r, const struct v4l2_format *src,
			 uint32_t df, uint32_t seq)
{
	const struct v4l2_pix_format *p = &src->fmt.pix;
	int w = (int)p->width, h = (int)p->height;
	size_t on = out_bytes(df, w, h);
	uint8_t *raw = malloc(p->sizeimage), *out = malloc(on);
	struct v4l2_format s = *src, d = *src;
	int n, m;

	n = v4lc_vcam_render(p->pixelformat, w, h, seq, raw, p->sizeimage);
	CHECK(n > 0 && (uint32_t)n <= p->sizeimage, "%.4s %dx%d render %d",
	      (const char *)&p->pixelformat, w, h, n);
	d.fmt.pix.pixelformat = df;
	v4lconvert_fixup_fmt(&d);
	m = n > 0 ? v4lconvert_convert(r->cv, &s, &d, raw, n, out, (int)on)
		  : -1;
	CHECK(m == (int)on, "%.4s %dx%d -> %.4s: reference conversion %d (%s)",
	      (const char *)&p->pixelformat, w, h, (const char *)&df, m,
	      v4lconvert_get_error_message(r->cv));
	free(raw);
	return out;
}

/* The camera side of format c; fills the sizes offered. */
static int camera_side(const struct chip *c, int sizes[][2], int max)
{
	struct ref r;
	struct v4l2_fmtdesc d = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_frmsizeenum fs = { .pixel_format = c->fourcc };
	int n = 0;

	if (ref_open(&r, c->name)) {
		CHECK(0, "%s: camera or converter", c->name);
		ref_close(&r);
		return 0;
	}
	CHECK(v4lc_vcam_ops.ioctl(r.priv, r.fd, VIDIOC_ENUM_FMT, &d) == 0 &&
		      d.pixelformat == c->fourcc && d.flags == c->flags,
	      "%s: ENUM_FMT %.4s flags %#x", c->name,
	      (const char *)&d.pixelformat, d.flags);
	d.index = 1;
	CHECK(v4lc_vcam_ops.ioctl(r.priv, r.fd, VIDIOC_ENUM_FMT, &d) == -1,
	      "%s: a second format", c->name);
	for (fs.index = 0;
	     n < max && v4lc_vcam_ops.ioctl(r.priv, r.fd,
					    VIDIOC_ENUM_FRAMESIZES, &fs) == 0;
	     fs.index++) {
		struct v4l2_format f;
		int w = (int)fs.discrete.width, h = (int)fs.discrete.height;

		CHECK(fs.type == V4L2_FRMSIZE_TYPE_DISCRETE, "%s", c->name);
		CHECK(raw_fmt(&r, c->fourcc, w, h, &f) == 0 &&
			      f.fmt.pix.pixelformat == c->fourcc &&
			      (int)f.fmt.pix.width == w &&
			      (int)f.fmt.pix.height == h &&
			      f.fmt.pix.bytesperline == (uint32_t)w &&
			      f.fmt.pix.sizeimage >= (uint32_t)w * h / 4,
		      "%s %dx%d: S_FMT %.4s %ux%u bpl %u size %u", c->name, w,
		      h, (const char *)&f.fmt.pix.pixelformat, f.fmt.pix.width,
		      f.fmt.pix.height, f.fmt.pix.bytesperline,
		      f.fmt.pix.sizeimage);
		sizes[n][0] = w;
		sizes[n++][1] = h;
	}
	CHECK(n > 0, "%s: no frame size", c->name);
	ref_close(&r);
	return n;
}

/* A spec size is offered only where the chip takes it. */
static void spec_size(const char *fmt, int w, int h, int want)
{
	char spec[64];
	struct ref r;
	struct v4l2_frmsizeenum fs = { 0 };
	struct v4l2_fmtdesc d = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	int found = 0;

	snprintf(spec, sizeof(spec), "%s:%dx%d", fmt, w, h);
	if (ref_open(&r, spec)) {
		CHECK(0, "%s: camera", spec);
		ref_close(&r);
		return;
	}
	v4lc_vcam_ops.ioctl(r.priv, r.fd, VIDIOC_ENUM_FMT, &d);
	fs.pixel_format = d.pixelformat;
	for (; v4lc_vcam_ops.ioctl(r.priv, r.fd, VIDIOC_ENUM_FRAMESIZES, &fs) ==
	       0;
	     fs.index++)
		found |= (int)fs.discrete.width == w &&
			 (int)fs.discrete.height == h;
	CHECK(found == want, "%s: offered %d, want %d", spec, found, want);
	ref_close(&r);
}

struct stream {
	int fd, n;
	uint8_t *maps[4];
	size_t len;
};

static int stream_start(struct stream *s, const char *spec, uint32_t df, int w,
			int h)
{
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_requestbuffers req = {
		.count = 3,
		.type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
		.memory = V4L2_MEMORY_MMAP,
	};
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;

	s->n = 0;
	s->fd = v4lc_vcam_create(spec);
	if (s->fd < 0 || v4l2_fd_open(s->fd, 0) != s->fd) {
		CHECK(0, "%s: v4l2_fd_open", spec);
		return -1;
	}
	f.fmt.pix.pixelformat = df;
	f.fmt.pix.width = (uint32_t)w;
	f.fmt.pix.height = (uint32_t)h;
	if (v4l2_ioctl(s->fd, VIDIOC_S_FMT, &f) ||
	    f.fmt.pix.pixelformat != df || (int)f.fmt.pix.width != w ||
	    (int)f.fmt.pix.height != h) {
		CHECK(0, "%s: S_FMT %.4s %dx%d gave %.4s %ux%u", spec,
		      (const char *)&df, w, h,
		      (const char *)&f.fmt.pix.pixelformat, f.fmt.pix.width,
		      f.fmt.pix.height);
		return -1;
	}
	if (v4l2_ioctl(s->fd, VIDIOC_REQBUFS, &req) || req.count < 2) {
		CHECK(0, "%s: REQBUFS", spec);
		return -1;
	}
	for (unsigned i = 0; i < req.count && i < 4; i++) {
		struct v4l2_buffer b = { .type = type,
					 .memory = V4L2_MEMORY_MMAP,
					 .index = i };

		CHECK(v4l2_ioctl(s->fd, VIDIOC_QUERYBUF, &b) == 0, "%s", spec);
		s->len = b.length;
		s->maps[i] = v4l2_mmap(NULL, b.length, PROT_READ | PROT_WRITE,
				       MAP_SHARED, s->fd, b.m.offset);
		CHECK(s->maps[i] != MAP_FAILED, "%s: mmap", spec);
		if (s->maps[i] == MAP_FAILED)
			return -1;
		s->n++;
		CHECK(v4l2_ioctl(s->fd, VIDIOC_QBUF, &b) == 0, "%s", spec);
	}
	CHECK(v4l2_ioctl(s->fd, VIDIOC_STREAMON, &type) == 0, "%s", spec);
	return 0;
}

static void stream_stop(struct stream *s)
{
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;

	if (s->fd < 0)
		return;
	v4l2_ioctl(s->fd, VIDIOC_STREAMOFF, &type);
	for (int i = 0; i < s->n; i++)
		v4l2_munmap(s->maps[i], s->len);
	v4l2_close(s->fd);
	s->fd = -1;
}

/* DQBUF one frame; check it is frame want_seq; requeue. */
static void take(struct stream *s, struct ref *r, const struct v4l2_format *raw,
		 uint32_t df, uint32_t want_seq, const char *what)
{
	int w = (int)raw->fmt.pix.width, h = (int)raw->fmt.pix.height;
	size_t on = out_bytes(df, w, h);
	struct v4l2_buffer b = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
				 .memory = V4L2_MEMORY_MMAP };
	uint8_t *want;

	if (v4l2_ioctl(s->fd, VIDIOC_DQBUF, &b)) {
		CHECK(0, "%s: DQBUF errno %d", what, errno);
		return;
	}
	CHECK(b.sequence == want_seq && b.bytesused == on,
	      "%s: frame %u (want %u), %u bytes", what, b.sequence, want_seq,
	      b.bytesused);
	want = expected(r, raw, df, b.sequence);
	if (memcmp(s->maps[b.index], want, on)) {
		size_t i = 0;

		while (s->maps[b.index][i] == want[i])
			i++;
		CHECK(0,
		      "%s: frame %u differs from the reference at byte %zu "
		      "(%d, want %d)",
		      what, b.sequence, i, s->maps[b.index][i], want[i]);
	}
	free(want);
	CHECK(v4l2_ioctl(s->fd, VIDIOC_QBUF, &b) == 0, "%s: QBUF", what);
}

/*
 * The decoded frame must be the camera's picture: the reference RGB24 of
 * frame 5 against the camera's own RGB24 frame 5 (mean absolute error per
 * byte; the chip formats are lossy, Bayer ones demosaiced).
 */
static double picture_error(struct ref *r, const struct v4l2_format *raw)
{
	int w = (int)raw->fmt.pix.width, h = (int)raw->fmt.pix.height;
	size_t on = (size_t)w * h * 3;
	uint8_t *got = expected(r, raw, V4L2_PIX_FMT_RGB24, 5);
	uint8_t *want = malloc(on);
	double sum = 0;

	CHECK(v4lc_vcam_render(V4L2_PIX_FMT_RGB24, w, h, 5, want, on) ==
		      (int)on,
	      "RGB24 render");
	for (size_t i = 0; i < on; i++)
		sum += got[i] > want[i] ? got[i] - want[i] : want[i] - got[i];
	free(got);
	free(want);
	return sum / (double)on;
}

static void stream_all(const struct chip *c, int sizes[][2], int n)
{
	for (int i = 0; i < n; i++) {
		int w = sizes[i][0], h = sizes[i][1];
		char spec[64];
		struct ref r;
		struct v4l2_format raw;

		snprintf(spec, sizeof(spec), "%s:%dx%d:nopace", c->name, w, h);
		if (ref_open(&r, spec) || raw_fmt(&r, c->fourcc, w, h, &raw)) {
			CHECK(0, "%s: reference", spec);
			ref_close(&r);
			continue;
		}
		if (i == 0) {
			double e = picture_error(&r, &raw);

			printf("%s %dx%d: decoded picture within %.2f (mean "
			       "absolute error) of the pattern\n",
			       c->name, w, h, e);
			CHECK(e < 12,
			      "%s: the decoded picture is not the "
			      "pattern (mean error %.2f)",
			      spec, e);
		}
		for (int d = 0; d < 2; d++) {
			struct stream s = { .fd = -1 };
			char what[128];

			snprintf(what, sizeof(what), "%s -> %.4s", spec,
				 (const char *)&dsts[d]);
			if (!stream_start(&s, spec, dsts[d], w, h))
				for (uint32_t k = 0; k < 3; k++)
					take(&s, &r, &raw, dsts[d], k, what);
			stream_stop(&s);
		}
		ref_close(&r);
	}
}

/* ---- corrupt frames ---- */

static uint32_t bad_seq = 1;
static int cut_to; /* bytesused of the bad frame: < 0 means minus that */

static int wrap_ioctl(void *priv, int fd, unsigned long req, void *arg)
{
	int r = v4lc_vcam_ops.ioctl(priv, fd, req, arg);
	struct v4l2_buffer *b = arg;

	if (r == 0 && req == VIDIOC_DQBUF && b->sequence == bad_seq)
		b->bytesused = cut_to < 0 ? b->bytesused - (uint32_t)-cut_to
					  : (uint32_t)cut_to;
	return r;
}

static struct libv4l_dev_ops wrapped;

static void retry(const char *fmt, uint32_t fourcc, int w, int h, int cut)
{
	char spec[64], what[128];
	struct ref r;
	struct v4l2_format raw;
	struct stream s = { .fd = -1 };

	snprintf(spec, sizeof(spec), "%s:%dx%d:nopace", fmt, w, h);
	snprintf(what, sizeof(what), "retry %s (bad frame %d bytes%s)", spec,
		 cut < 0 ? -cut : cut, cut < 0 ? " short of whole" : "");
	if (ref_open(&r, spec) || raw_fmt(&r, fourcc, w, h, &raw)) {
		CHECK(0, "%s: reference", spec);
		ref_close(&r);
		return;
	}
	/* The reference decoder rejects the damaged frame too. */
	{
		size_t sz = raw.fmt.pix.sizeimage,
		       on = out_bytes(V4L2_PIX_FMT_RGB24, w, h);
		uint8_t *fr = malloc(sz), *out = malloc(on);
		int n = v4lc_vcam_render(fourcc, w, h, bad_seq, fr, sz), m;
		struct v4l2_format d = raw;

		d.fmt.pix.pixelformat = V4L2_PIX_FMT_RGB24;
		v4lconvert_fixup_fmt(&d);
		n = cut < 0 ? n + cut : cut;
		errno = 0;
		m = v4lconvert_convert(r.cv, &raw, &d, fr, n, out, (int)on);
		CHECK(m < 0 && (errno == EAGAIN || errno == EPIPE),
		      "%s: the damaged frame converts: %d errno %d", what, m,
		      errno);
		free(fr);
		free(out);
	}
	cut_to = cut;
	wrapped = v4lc_vcam_ops;
	wrapped.ioctl = wrap_ioctl;
	lv2_test_set_plugin(&wrapped);
	if (!stream_start(&s, spec, V4L2_PIX_FMT_RGB24, w, h)) {
		take(&s, &r, &raw, V4L2_PIX_FMT_RGB24, 0, what);
		take(&s, &r, &raw, V4L2_PIX_FMT_RGB24, 2, what); /* 1 retried */
		take(&s, &r, &raw, V4L2_PIX_FMT_RGB24, 3, what);
	}
	stream_stop(&s);
	lv2_test_set_plugin(NULL);
	ref_close(&r);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	for (size_t i = 0; i < NCHIPS; i++) {
		int sizes[16][2], n, before = failures;

		n = camera_side(&chips[i], sizes, 16);
		stream_all(&chips[i], sizes, n);
		printf("%s: %d sizes (", chips[i].name, n);
		for (int k = 0; k < n; k++)
			printf("%s%dx%d", k ? " " : "", sizes[k][0],
			       sizes[k][1]);
		printf("), RGB3 and YU12 through libv4l2: %s\n",
		       failures == before ? "identical to the reference"
					  : "FAILED");
	}
	/* Spec sizes: offered where the encoder takes them. */
	spec_size("S501", 328, 240, 1);
	spec_size("S920", 328, 240, 0);
	spec_size("S920", 336, 248, 1);
	spec_size("CPIA", 360, 288, 0);
	spec_size("CPIA", 200, 100, 1);
	spec_size("CPIA", 202, 100, 0);
	/* Corrupt frames are retried. */
	retry("CPIA", V4L2_PIX_FMT_CPIA1, 176, 144,
	      -4); /* no end mark: EAGAIN */
	retry("S501", V4L2_PIX_FMT_SPCA501, 160, 120, 10); /* short: EPIPE */
	printf("%s: %d failures\n", __FILE__, failures);
	return failures ? 1 : 0;
}
