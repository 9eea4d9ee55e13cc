/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The virtual camera's device operations (see vcam.h for the conventions).
 */
#include "vcam/vcam.h"
#include "vcam/lens.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <linux/videodev2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#define MAX_FORMATS 48
#define MAX_BUFFERS 32
#define MAX_SIZES 8

struct fmt_desc {
	uint32_t fourcc;
	uint32_t flags;
	const char *name;
};

static const struct fmt_desc known[] = {
	{ V4L2_PIX_FMT_YUYV, 0, "YUYV 4:2:2" },
	{ V4L2_PIX_FMT_YVYU, 0, "YVYU 4:2:2" },
	{ V4L2_PIX_FMT_UYVY, 0, "UYVY 4:2:2" },
	{ V4L2_PIX_FMT_VYUY, 0, "VYUY 4:2:2" },
	{ V4L2_PIX_FMT_YUV420, 0, "Planar YUV 4:2:0" },
	{ V4L2_PIX_FMT_YVU420, 0, "Planar YVU 4:2:0" },
	{ V4L2_PIX_FMT_NV12, 0, "Y/UV 4:2:0" },
	{ V4L2_PIX_FMT_NV21, 0, "Y/VU 4:2:0" },
	{ V4L2_PIX_FMT_RGB24, 0, "24-bit RGB 8-8-8" },
	{ V4L2_PIX_FMT_BGR24, 0, "24-bit BGR 8-8-8" },
	{ V4L2_PIX_FMT_GREY, 0, "8-bit Greyscale" },
	{ V4L2_PIX_FMT_SBGGR8, 0, "8-bit Bayer BGBG/GRGR" },
	{ V4L2_PIX_FMT_SGBRG8, 0, "8-bit Bayer GBGB/RGRG" },
	{ V4L2_PIX_FMT_SGRBG8, 0, "8-bit Bayer GRGR/BGBG" },
	{ V4L2_PIX_FMT_SRGGB8, 0, "8-bit Bayer RGRG/GBGB" },
	{ V4L2_PIX_FMT_MJPEG, V4L2_FMT_FLAG_COMPRESSED, "Motion-JPEG" },
	{ V4L2_PIX_FMT_JPEG, V4L2_FMT_FLAG_COMPRESSED, "JFIF JPEG" },
	/*
	 * Chip formats, with the kernel's descriptions and flags (the
	 * V4L2 core marks CPIA1 and the compressed Bayer and JPEG variants
	 * compressed, not the plain YUV 4:2:0 layouts).
	 */
	{ V4L2_PIX_FMT_SPCA501, 0, "GSPCA SPCA501" },
	{ V4L2_PIX_FMT_SPCA505, 0, "GSPCA SPCA505" },
	{ V4L2_PIX_FMT_SPCA508, 0, "GSPCA SPCA508" },
	{ V4L2_PIX_FMT_CIT_YYVYUY, 0, "GSPCA CIT YYVYUY" },
	{ V4L2_PIX_FMT_KONICA420, 0, "GSPCA KONICA420" },
	{ V4L2_PIX_FMT_SN9C20X_I420, 0, "GSPCA SN9C20X I420" },
	{ V4L2_PIX_FMT_CPIA1, V4L2_FMT_FLAG_COMPRESSED, "GSPCA CPiA YUV" },
	{ V4L2_PIX_FMT_SN9C10X, V4L2_FMT_FLAG_COMPRESSED, "GSPCA SN9C10X" },
	{ V4L2_PIX_FMT_PAC207, V4L2_FMT_FLAG_COMPRESSED, "GSPCA PAC207" },
	{ V4L2_PIX_FMT_STV0680, 0, "GSPCA STV0680" },
	{ V4L2_PIX_FMT_SN9C2028, V4L2_FMT_FLAG_COMPRESSED, "GSPCA SN9C2028" },
	{ V4L2_PIX_FMT_MR97310A, V4L2_FMT_FLAG_COMPRESSED, "GSPCA MR97310A" },
	{ V4L2_PIX_FMT_SQ905C, V4L2_FMT_FLAG_COMPRESSED, "GSPCA SQ905C" },
	{ V4L2_PIX_FMT_SPCA561, V4L2_FMT_FLAG_COMPRESSED, "GSPCA SPCA561" },
	{ V4L2_PIX_FMT_PJPG, V4L2_FMT_FLAG_COMPRESSED, "GSPCA PJPG" },
	{ V4L2_PIX_FMT_JL2005BCD, V4L2_FMT_FLAG_COMPRESSED, "GSPCA JL2005BCD" },
	{ V4L2_PIX_FMT_SE401, V4L2_FMT_FLAG_COMPRESSED, "GSPCA SE401" },
	{ V4L2_PIX_FMT_JPGL, V4L2_FMT_FLAG_COMPRESSED, "JPEG Lite" },
	{ V4L2_PIX_FMT_OV511, V4L2_FMT_FLAG_COMPRESSED, "OV511 compressed" },
	{ V4L2_PIX_FMT_OV518, V4L2_FMT_FLAG_COMPRESSED, "OV518 compressed" },
};

/* Frame intervals offered for every size: 30 and 15 fps. */
static const struct v4l2_fract intervals[] = { { 1, 30 }, { 1, 15 } };

struct vbuf {
	uint32_t flags; /* V4L2_BUF_FLAG_QUEUED / DONE */
	uint32_t bytesused, sequence;
	struct timeval timestamp;
	unsigned long userptr;
	uint32_t length;
	int still_n; /* "still": the frame's size once rendered, 0 before */
};

struct vcam {
	int fd;
	const struct fmt_desc *formats[MAX_FORMATS];
	int nformats;
	/* Frame sizes per offered format (same index as formats[]). */
	int sizes[MAX_FORMATS][MAX_SIZES][2];
	int nsizes[MAX_FORMATS];
	unsigned flip;
	int pace;
	int still; /* render each MMAP buffer once, then serve it as it is */
	/* "unplug=N": the device disappears after N frames (then every
	 * call fails with ENODEV, as on a disconnected device) */
	uint32_t unplug_after, delivered;
	int gone;

	struct v4l2_pix_format fmt;
	struct v4l2_fract interval;
	int brightness, focus;
	struct v4lc_vcam_lens lens;

	/* Buffers. */
	uint32_t memory; /* 0 when none */
	int nbufs;
	size_t stride;     /* bytes per MMAP buffer in the memfd */
	uint8_t *map;      /* our MAP_SHARED view of the memfd */
	size_t map_size;
	struct vbuf bufs[MAX_BUFFERS];
	int queue[MAX_BUFFERS]; /* FIFO of queued indices */
	int qhead, qcount;
	int streaming;
	uint32_t sequence;
	struct timespec next_due;
	/*
	 * Calls may come from several threads, as on a real driver (libv4l2
	 * makes the blocking DQBUF without its own lock): one at a time here,
	 * except that DQBUF waits for its frame unlocked.
	 */
	pthread_mutex_t lock;
};

int v4lc_vcam_name(char *buf, size_t size, const char *spec)
{
	int n = snprintf(buf, size, "%s:%s", V4LC_VCAM_PREFIX,
			 spec ? spec : "");

	/* memfd names are limited to 249 bytes. */
	if (n < 0 || (size_t)n >= size || n > 249)
		return -ENAMETOOLONG;
	return 0;
}

int v4lc_vcam_create(const char *spec)
{
	char name[256];

	if (v4lc_vcam_name(name, sizeof(name), spec)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return memfd_create(name, MFD_CLOEXEC);
}

static const struct fmt_desc *find_format(uint32_t fourcc)
{
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (known[i].fourcc == fourcc)
			return &known[i];
	return NULL;
}

static int parse_spec(struct vcam *c, char *spec)
{
	char *save = NULL, *tok;
	int field = 0, w = 640, h = 480, given = 0;

	c->pace = 1;
	for (tok = strtok_r(spec, ":", &save); tok;
	     tok = strtok_r(NULL, ":", &save), field++) {
		char *end;

		if (field == 0) {
			char *fsave = NULL;

			for (char *f = strtok_r(tok, ",", &fsave); f;
			     f = strtok_r(NULL, ",", &fsave)) {
				char cc[4] = { ' ', ' ', ' ', ' ' };
				const struct fmt_desc *d;
				size_t len = strlen(f);

				if (len == 0 || len > 4)
					return -1;
				memcpy(cc, f, len);
				/* The Bayer order by name: BGGR is "BA81". */
				if (!strcmp(f, "BGGR"))
					memcpy(cc, "BA81", 4);
				d = find_format(v4l2_fourcc(cc[0], cc[1], cc[2],
							    cc[3]));
				if (!d || c->nformats == MAX_FORMATS)
					return -1;
				for (int i = 0; i < c->nformats; i++)
					if (c->formats[i] == d)
						return -1;
				c->formats[c->nformats++] = d;
			}
			continue;
		}
		if (!strcmp(tok, "nopace")) {
			c->pace = 0;
		} else if (!strcmp(tok, "still")) {
			c->still = 1;
		} else if (!strncmp(tok, "unplug=", 7)) {
			long n = strtol(tok + 7, &end, 10);

			if (*end || end == tok + 7 || n < 1 || n > 1000000)
				return -1;
			c->unplug_after = (uint32_t)n;
		} else if (!strcmp(tok, "lens") || !strncmp(tok, "lens=", 5)) {
			long pos = V4LC_VCAM_LENS_INFOCUS;

			if (tok[4] == '=') {
				pos = strtol(tok + 5, &end, 10);
				if (*end || end == tok + 5 || pos < 0 ||
				    pos > V4LC_VCAM_LENS_MAX)
					return -1;
			}
			c->lens.enabled = 1;
			c->lens.infocus = (int)pos;
		} else if (!strncmp(tok, "flip=", 5)) {
			for (const char *p = tok + 5; *p; p++) {
				if (*p == 'h')
					c->flip |= V4LC_VCAM_HFLIP;
				else if (*p == 'v')
					c->flip |= V4LC_VCAM_VFLIP;
				else
					return -1;
			}
		} else if (tok[0] >= '0' && tok[0] <= '9') {
			long lw = strtol(tok, &end, 10), lh;

			if (*end != 'x')
				return -1;
			lh = strtol(end + 1, &end, 10);
			if (*end || lw < 16 || lh < 16 || lw > 4096 ||
			    lh > 4096 || (lw & 1) || (lh & 1))
				return -1;
			w = (int)lw;
			h = (int)lh;
			given = 1;
		} else {
			return -1;
		}
	}
	if (c->nformats == 0)
		c->formats[c->nformats++] = find_format(V4L2_PIX_FMT_YUYV);

	/*
	 * Discrete sizes by area: the three standard ones and the spec's; a
	 * chip format its own sizes, and the spec's when its encoder takes it.
	 */
	for (int f = 0; f < c->nformats; f++) {
		static const int std[3][2] = { { 320, 240 }, { 640, 480 },
					       { 1280, 720 } };
		const int (*list)[2] = std;
		int nlist = v4lc_vcam_chip_sizes(c->formats[f]->fourcc, &list);
		int added = 0, n = 0;

		if (!nlist) {
			list = std;
			nlist = 3;
		} else if (!given ||
			   !v4lc_vcam_size_ok(c->formats[f]->fourcc, w, h)) {
			added = 1; /* not offered */
		}
		for (int i = 0; i < nlist; i++) {
			if (!added &&
			    (long)w * h <= (long)list[i][0] * list[i][1]) {
				if (w != list[i][0] || h != list[i][1]) {
					c->sizes[f][n][0] = w;
					c->sizes[f][n++][1] = h;
				}
				added = 1;
			}
			c->sizes[f][n][0] = list[i][0];
			c->sizes[f][n++][1] = list[i][1];
		}
		if (!added) {
			c->sizes[f][n][0] = w;
			c->sizes[f][n++][1] = h;
		}
		c->nsizes[f] = n;
	}
	c->fmt.width = (uint32_t)w;
	c->fmt.height = (uint32_t)h;
	return 0;
}

/* Index of an offered format in c->formats, or -1. */
static int format_index(const struct vcam *c, uint32_t fourcc)
{
	for (int i = 0; i < c->nformats; i++)
		if (c->formats[i]->fourcc == fourcc)
			return i;
	return -1;
}


/*
 * The squared distance between two sizes, exactly: each difference is
 * below 2^32, so each square fits in 64 bits but their sum needs 65: it is
 * kept as (carry, low 64 bits), compared in that order.
 */
struct dist2 {
	unsigned hi;
	uint64_t lo;
};

static struct dist2 size_dist2(uint32_t w0, uint32_t h0, uint32_t w1,
			       uint32_t h1)
{
	uint64_t dw = w0 > w1 ? w0 - w1 : w1 - w0;
	uint64_t dh = h0 > h1 ? h0 - h1 : h1 - h0;
	struct dist2 d;

	d.lo = dw * dw + dh * dh;
	d.hi = d.lo < dw * dw;
	return d;
}

static int dist2_less(struct dist2 a, struct dist2 b)
{
	return a.hi != b.hi ? a.hi < b.hi : a.lo < b.lo;
}

/* Index of the offered size of format fi nearest to w x h (the first of
 * equally near ones). */
static int nearest_size(const struct vcam *c, int fi, uint32_t w, uint32_t h)
{
	struct dist2 best = { 0, 0 };
	int bi = 0;

	for (int i = 0; i < c->nsizes[fi]; i++) {
		struct dist2 d = size_dist2((uint32_t)c->sizes[fi][i][0],
					    (uint32_t)c->sizes[fi][i][1], w, h);

		if (i == 0 || dist2_less(d, best)) {
			best = d;
			bi = i;
		}
	}
	return bi;
}

/* Fill pix for the nearest supported size and an offered format. */
static void fix_format(const struct vcam *c, struct v4l2_pix_format *pix)
{
	int bi, fi = format_index(c, pix->pixelformat);

	if (fi < 0) {
		fi = 0;
		pix->pixelformat = c->formats[0]->fourcc;
	}
	bi = nearest_size(c, fi, pix->width, pix->height);
	pix->width = (uint32_t)c->sizes[fi][bi][0];
	pix->height = (uint32_t)c->sizes[fi][bi][1];
	pix->field = V4L2_FIELD_NONE;
	pix->bytesperline = v4lc_vcam_bytesperline(pix->pixelformat,
						   (int)pix->width);
	pix->sizeimage = v4lc_vcam_sizeimage(pix->pixelformat, (int)pix->width,
					     (int)pix->height);
	switch (pix->pixelformat) {
	case V4L2_PIX_FMT_RGB24:
	case V4L2_PIX_FMT_BGR24:
	case V4L2_PIX_FMT_SBGGR8:
	case V4L2_PIX_FMT_SGBRG8:
	case V4L2_PIX_FMT_SGRBG8:
	case V4L2_PIX_FMT_SRGGB8:
	case V4L2_PIX_FMT_SN9C10X:
	case V4L2_PIX_FMT_PAC207:
	case V4L2_PIX_FMT_STV0680:
	case V4L2_PIX_FMT_SN9C2028:
	case V4L2_PIX_FMT_MR97310A:
	case V4L2_PIX_FMT_SQ905C:
	case V4L2_PIX_FMT_SPCA561:
	case V4L2_PIX_FMT_JL2005BCD:
	case V4L2_PIX_FMT_SE401:
	case V4L2_PIX_FMT_JPGL:
		pix->colorspace = V4L2_COLORSPACE_SRGB;
		break;
	case V4L2_PIX_FMT_MJPEG:
	case V4L2_PIX_FMT_JPEG:
	case V4L2_PIX_FMT_PJPG:
		pix->colorspace = V4L2_COLORSPACE_JPEG;
		break;
	default:
		pix->colorspace = V4L2_COLORSPACE_DEFAULT;
		break;
	}
	pix->priv = 0;
	pix->flags = 0;
	pix->ycbcr_enc = 0;
	pix->quantization = 0;
	pix->xfer_func = 0;
}

static void *vcam_init(int fd)
{
	static const char want[] = "/memfd:" V4LC_VCAM_PREFIX;
	char path[64], link[512];
	ssize_t n;
	char *spec, *del;
	struct vcam *c;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, link, sizeof(link) - 1);
	if (n < (ssize_t)sizeof(want) - 1)
		return NULL;
	link[n] = '\0';
	if (strncmp(link, want, sizeof(want) - 1))
		return NULL;
	spec = link + sizeof(want) - 1;
	if (*spec == ':')
		spec++;
	else if (*spec != '\0' && *spec != ' ')
		return NULL;
	del = strstr(spec, " (deleted)");
	if (del)
		*del = '\0';

	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->fd = fd;
	if (parse_spec(c, spec)) {
		free(c);
		return NULL;
	}
	pthread_mutex_init(&c->lock, NULL);
	c->fmt.pixelformat = c->formats[0]->fourcc;
	fix_format(c, &c->fmt);
	c->interval = intervals[0];
	c->brightness = 128;
	c->focus = 512;
	c->lens.pos = c->focus;
	return c;
}

/*
 * Whether the process maps the memfd anywhere but our own view: then the
 * file must not shrink under those mappings (they would fault). The kernel
 * keeps such buffers alive ("orphaned") on REQBUFS; keeping the file size
 * is the nearest a single file can do.
 */
static int foreign_maps(const struct vcam *c)
{
	struct stat st;
	char *line = NULL;
	size_t cap = 0;
	FILE *f;
	int found = 0;

	if (fstat(c->fd, &st))
		return 0;
	f = fopen("/proc/self/maps", "re");
	if (!f)
		return 0;
	while (!found && getline(&line, &cap, f) > 0) {
		unsigned long lo, hi, ino;
		unsigned maj, min;

		if (sscanf(line, "%lx-%lx %*s %*s %x:%x %lu", &lo, &hi, &maj,
			   &min, &ino) != 5)
			continue;
		if (ino != (unsigned long)st.st_ino ||
		    makedev(maj, min) != st.st_dev)
			continue;
		if (c->map && lo >= (unsigned long)(uintptr_t)c->map &&
		    hi <= (unsigned long)(uintptr_t)c->map + c->map_size)
			continue;
		found = 1;
	}
	free(line);
	fclose(f);
	return found;
}

static void free_buffers(struct vcam *c, int shrink)
{
	if (c->map)
		munmap(c->map, c->map_size);
	c->map = NULL;
	c->map_size = 0;
	if (shrink)
		(void)!ftruncate(c->fd, 0);
	c->memory = 0;
	c->nbufs = 0;
	c->qhead = c->qcount = 0;
	memset(c->bufs, 0, sizeof(c->bufs));
}

static void vcam_close(void *priv)
{
	struct vcam *c = priv;

	if (!c)
		return;
	if (c->map)
		munmap(c->map, c->map_size);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

static int fail(int err)
{
	errno = err;
	return -1;
}

static int is_capture(uint32_t type)
{
	return type == V4L2_BUF_TYPE_VIDEO_CAPTURE;
}

static int do_reqbufs(struct vcam *c, struct v4l2_requestbuffers *r)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t stride;
	uint32_t count;
	int busy;

	if (!is_capture(r->type))
		return fail(EINVAL);
	if (r->memory != V4L2_MEMORY_MMAP && r->memory != V4L2_MEMORY_USERPTR)
		return fail(EINVAL);
	if (c->streaming)
		return fail(EBUSY);
	if (c->memory && c->memory != r->memory && r->count)
		return fail(EINVAL);
	memset(r->reserved, 0, sizeof(r->reserved));
	r->capabilities = V4L2_BUF_CAP_SUPPORTS_MMAP |
			  V4L2_BUF_CAP_SUPPORTS_USERPTR;
	busy = foreign_maps(c);
	free_buffers(c, !busy);
	if (r->count == 0)
		return 0;
	count = r->count > MAX_BUFFERS ? MAX_BUFFERS : r->count;
	if (page <= 0)
		page = 4096;
	stride = ((size_t)c->fmt.sizeimage + (size_t)page - 1) &
		 ~((size_t)page - 1);
	if (r->memory == V4L2_MEMORY_MMAP) {
		size_t total = stride * count;
		struct stat st;

		if ((!busy || fstat(c->fd, &st) || (size_t)st.st_size < total) &&
		    ftruncate(c->fd, (off_t)total))
			return fail(ENOMEM);
		c->map = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_SHARED,
			      c->fd, 0);
		if (c->map == MAP_FAILED) {
			c->map = NULL;
			if (!busy)
				(void)!ftruncate(c->fd, 0);
			return fail(ENOMEM);
		}
		c->map_size = total;
	}
	c->stride = stride;
	c->memory = r->memory;
	c->nbufs = (int)count;
	for (uint32_t i = 0; i < count; i++)
		c->bufs[i].length = c->fmt.sizeimage;
	r->count = count;
	return 0;
}

static void fill_buf(const struct vcam *c, int i, struct v4l2_buffer *b)
{
	const struct vbuf *v = &c->bufs[i];

	b->index = (uint32_t)i;
	b->type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	b->memory = c->memory;
	b->bytesused = v->bytesused;
	b->flags = v->flags | V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC |
		   V4L2_BUF_FLAG_TSTAMP_SRC_EOF;
	b->field = V4L2_FIELD_NONE;
	b->timestamp = v->timestamp;
	memset(&b->timecode, 0, sizeof(b->timecode));
	b->sequence = v->sequence;
	b->length = v->length;
	if (c->memory == V4L2_MEMORY_MMAP)
		b->m.offset = (uint32_t)((size_t)i * c->stride);
	else
		b->m.userptr = v->userptr;
	b->reserved2 = 0;
	b->request_fd = 0;
}

static int check_buf(const struct vcam *c, const struct v4l2_buffer *b)
{
	if (!is_capture(b->type) || !c->memory || b->memory != c->memory ||
	    b->index >= (uint32_t)c->nbufs)
		return -1;
	return 0;
}

static int do_qbuf(struct vcam *c, struct v4l2_buffer *b)
{
	struct vbuf *v;

	if (check_buf(c, b))
		return fail(EINVAL);
	v = &c->bufs[b->index];
	if (v->flags & V4L2_BUF_FLAG_QUEUED)
		return fail(EINVAL);
	if (c->memory == V4L2_MEMORY_USERPTR) {
		if (!b->m.userptr || b->length < c->fmt.sizeimage)
			return fail(EINVAL);
		v->userptr = b->m.userptr;
		v->length = b->length;
	}
	v->flags = V4L2_BUF_FLAG_QUEUED;
	v->bytesused = 0;
	c->queue[(c->qhead + c->qcount) % MAX_BUFFERS] = (int)b->index;
	c->qcount++;
	fill_buf(c, (int)b->index, b);
	return 0;
}

static void ts_add(struct timespec *t, const struct v4l2_fract *f)
{
	long long ns = (long long)f->numerator * 1000000000LL / f->denominator;

	t->tv_nsec += ns % 1000000000LL;
	t->tv_sec += ns / 1000000000LL;
	if (t->tv_nsec >= 1000000000L) {
		t->tv_nsec -= 1000000000L;
		t->tv_sec++;
	}
}

static int do_dqbuf(struct vcam *c, struct v4l2_buffer *b)
{
	int flags = fcntl(c->fd, F_GETFL);
	int nonblock = flags >= 0 && (flags & O_NONBLOCK);
	struct timespec now;
	struct vbuf *v;
	uint8_t *dst;
	int i, n;

	if (!is_capture(b->type) || !c->memory || b->memory != c->memory)
		return fail(EINVAL);
	if (!c->streaming)
		return fail(EINVAL);
	if (!c->qcount)
		return fail(nonblock ? EAGAIN : EINVAL);
	if (c->pace && !nonblock) {
		struct timespec due = c->next_due;

		pthread_mutex_unlock(&c->lock);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &due,
				       NULL) == EINTR)
			;
		pthread_mutex_lock(&c->lock);
		/* Another thread may have stopped or emptied the queue. */
		if (!c->streaming || !c->qcount)
			return fail(EINVAL);
	}
	i = c->queue[c->qhead];
	v = &c->bufs[i];
	if (c->memory == V4L2_MEMORY_MMAP)
		dst = c->map + (size_t)i * c->stride;
	else
		dst = (uint8_t *)v->userptr;
	if (c->still && c->memory == V4L2_MEMORY_MMAP && v->still_n > 0) {
		n = v->still_n;
	} else if (c->lens.enabled) {
		struct v4lc_vcam_optics o = { 1, 0 };

		o.blur = v4lc_vcam_lens_frame(&c->lens, c->focus,
					      (int)c->fmt.width);
		n = v4lc_vcam_render_optics(c->fmt.pixelformat,
					    (int)c->fmt.width,
					    (int)c->fmt.height, c->sequence,
					    c->flip, &o, dst, v->length);
	} else {
		n = v4lc_vcam_render_flip(c->fmt.pixelformat,
					  (int)c->fmt.width, (int)c->fmt.height,
					  c->sequence, c->flip, dst, v->length);
	}
	if (c->still && c->memory == V4L2_MEMORY_MMAP && n > 0)
		v->still_n = n;
	c->qhead = (c->qhead + 1) % MAX_BUFFERS;
	c->qcount--;
	clock_gettime(CLOCK_MONOTONIC, &now);
	v->timestamp.tv_sec = now.tv_sec;
	v->timestamp.tv_usec = now.tv_nsec / 1000;
	v->sequence = c->sequence++;
	if (n < 0) {
		v->bytesused = 0;
		v->flags = V4L2_BUF_FLAG_DONE | V4L2_BUF_FLAG_ERROR;
	} else {
		v->bytesused = (uint32_t)n;
		v->flags = V4L2_BUF_FLAG_DONE;
	}
	/* The next frame is due one interval after this one (or now). */
	if (now.tv_sec > c->next_due.tv_sec ||
	    (now.tv_sec == c->next_due.tv_sec &&
	     now.tv_nsec > c->next_due.tv_nsec + 2000000L))
		c->next_due = now;
	ts_add(&c->next_due, &c->interval);
	fill_buf(c, i, b);
	v->flags = 0;
	if (c->unplug_after && ++c->delivered >= c->unplug_after)
		c->gone = 1;
	return 0;
}

static int do_querybuf(const struct vcam *c, struct v4l2_buffer *b)
{
	if (check_buf(c, b))
		return fail(EINVAL);
	fill_buf(c, (int)b->index, b);
	return 0;
}

static int do_streamoff(struct vcam *c)
{
	c->streaming = 0;
	c->qhead = c->qcount = 0;
	for (int i = 0; i < c->nbufs; i++)
		c->bufs[i].flags = 0;
	return 0;
}

struct ctrl_desc {
	uint32_t id;
	const char *name;
	int min, max, def;
};

static const struct ctrl_desc ctrls[] = {
	{ V4L2_CID_BRIGHTNESS, "Brightness", 0, 255, 128 },
	{ V4L2_CID_FOCUS_ABSOLUTE, "Focus, Absolute", 0, 1023, 512 },
};
#define NCTRLS ((int)(sizeof(ctrls) / sizeof(ctrls[0])))

static int *ctrl_value(struct vcam *c, uint32_t id)
{
	if (id == V4L2_CID_BRIGHTNESS)
		return &c->brightness;
	if (id == V4L2_CID_FOCUS_ABSOLUTE)
		return &c->focus;
	return NULL;
}

static const struct ctrl_desc *find_ctrl(uint32_t id)
{
	const struct ctrl_desc *d = NULL;

	if (id & V4L2_CTRL_FLAG_NEXT_CTRL) {
		uint32_t after = id & ~(V4L2_CTRL_FLAG_NEXT_CTRL |
					V4L2_CTRL_FLAG_NEXT_COMPOUND);

		/* ctrls[] is sorted by id. */
		for (int i = 0; i < NCTRLS && !d; i++)
			if (ctrls[i].id > after)
				d = &ctrls[i];
	} else {
		for (int i = 0; i < NCTRLS && !d; i++)
			if (ctrls[i].id == id)
				d = &ctrls[i];
	}
	return d;
}

static int clamp_ctrl(const struct ctrl_desc *d, int v)
{
	return v < d->min ? d->min : v > d->max ? d->max : v;
}

static int do_query_ext_ctrl(struct v4l2_query_ext_ctrl *q)
{
	const struct ctrl_desc *d = find_ctrl(q->id);

	if (!d)
		return fail(EINVAL);
	memset(q, 0, sizeof(*q));
	q->id = d->id;
	q->type = V4L2_CTRL_TYPE_INTEGER;
	snprintf(q->name, sizeof(q->name), "%s", d->name);
	q->minimum = d->min;
	q->maximum = d->max;
	q->step = 1;
	q->default_value = d->def;
	q->flags = V4L2_CTRL_FLAG_SLIDER;
	q->elem_size = sizeof(int32_t);
	q->elems = 1;
	return 0;
}

/*
 * G/S/TRY_EXT_CTRLS: every id is checked first (an unknown one fails the
 * whole call with error_idx at it, nothing changed); values are clamped.
 */
static int do_ext_ctrls(struct vcam *c, unsigned long request,
			struct v4l2_ext_controls *e)
{
	uint32_t which = e->which;

	if (which != V4L2_CTRL_WHICH_CUR_VAL &&
	    which != V4L2_CTRL_WHICH_DEF_VAL &&
	    which != V4L2_CTRL_CLASS_USER && which != V4L2_CTRL_CLASS_CAMERA)
		return fail(EINVAL);
	if (which == V4L2_CTRL_WHICH_DEF_VAL && request != VIDIOC_G_EXT_CTRLS)
		return fail(EINVAL);
	if (e->count && !e->controls)
		return fail(EFAULT);
	for (uint32_t i = 0; i < e->count; i++) {
		uint32_t id = e->controls[i].id;

		if (!find_ctrl(id) || (id & V4L2_CTRL_FLAG_NEXT_CTRL) ||
		    ((which == V4L2_CTRL_CLASS_USER ||
		      which == V4L2_CTRL_CLASS_CAMERA) &&
		     V4L2_CTRL_ID2WHICH(id) != which)) {
			e->error_idx = i;
			return fail(EINVAL);
		}
	}
	for (uint32_t i = 0; i < e->count; i++) {
		struct v4l2_ext_control *x = &e->controls[i];
		const struct ctrl_desc *d = find_ctrl(x->id);

		if (request == VIDIOC_G_EXT_CTRLS) {
			x->value = which == V4L2_CTRL_WHICH_DEF_VAL ?
					   d->def :
					   *ctrl_value(c, x->id);
		} else {
			x->value = clamp_ctrl(d, x->value);
			if (request == VIDIOC_S_EXT_CTRLS)
				*ctrl_value(c, x->id) = x->value;
		}
	}
	e->error_idx = e->count;
	return 0;
}

static int do_queryctrl(struct v4l2_queryctrl *q)
{
	const struct ctrl_desc *d = find_ctrl(q->id);

	if (!d)
		return fail(EINVAL);
	memset(q, 0, sizeof(*q));
	q->id = d->id;
	q->type = V4L2_CTRL_TYPE_INTEGER;
	snprintf((char *)q->name, sizeof(q->name), "%s", d->name);
	q->minimum = d->min;
	q->maximum = d->max;
	q->step = 1;
	q->default_value = d->def;
	q->flags = V4L2_CTRL_FLAG_SLIDER;
	return 0;
}

static const unsigned long served[] = {
	VIDIOC_QUERYCAP, VIDIOC_ENUM_FMT, VIDIOC_ENUM_FRAMESIZES,
	VIDIOC_ENUM_FRAMEINTERVALS, VIDIOC_G_FMT, VIDIOC_TRY_FMT, VIDIOC_S_FMT,
	VIDIOC_G_PARM, VIDIOC_S_PARM, VIDIOC_ENUMINPUT, VIDIOC_G_INPUT,
	VIDIOC_S_INPUT, VIDIOC_REQBUFS, VIDIOC_QUERYBUF, VIDIOC_QBUF,
	VIDIOC_DQBUF, VIDIOC_STREAMON, VIDIOC_STREAMOFF, VIDIOC_QUERYCTRL,
	VIDIOC_QUERY_EXT_CTRL, VIDIOC_G_EXT_CTRLS, VIDIOC_S_EXT_CTRLS,
	VIDIOC_TRY_EXT_CTRLS, VIDIOC_G_CTRL, VIDIOC_S_CTRL,
};

static int vcam_ioctl_locked(struct vcam *c, unsigned long request,
			     void *arg)
{
	if (!arg) {
		/* Every ioctl served here takes an argument. */
		for (size_t i = 0; i < sizeof(served) / sizeof(served[0]); i++)
			if (served[i] == request)
				return fail(EFAULT);
		return fail(ENOTTY);
	}
	switch (request) {
	case VIDIOC_QUERYCAP: {
		struct v4l2_capability *cap = arg;

		memset(cap, 0, sizeof(*cap));
		snprintf((char *)cap->driver, sizeof(cap->driver), "v4l2-vcam");
		snprintf((char *)cap->card, sizeof(cap->card), "Virtual camera");
		snprintf((char *)cap->bus_info, sizeof(cap->bus_info),
			 "platform:vcam");
		cap->version = 0x00060100;
		cap->device_caps = V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING;
		cap->capabilities = cap->device_caps | V4L2_CAP_DEVICE_CAPS;
		return 0;
	}
	case VIDIOC_ENUM_FMT: {
		struct v4l2_fmtdesc *f = arg;
		const struct fmt_desc *d;

		if (!is_capture(f->type) || f->index >= (uint32_t)c->nformats)
			return fail(EINVAL);
		d = c->formats[f->index];
		f->flags = d->flags;
		f->pixelformat = d->fourcc;
		f->mbus_code = 0;
		memset(f->reserved, 0, sizeof(f->reserved));
		memset(f->description, 0, sizeof(f->description));
		snprintf((char *)f->description, sizeof(f->description), "%s",
			 d->name);
		return 0;
	}
	case VIDIOC_ENUM_FRAMESIZES: {
		struct v4l2_frmsizeenum *s = arg;
		int fi = format_index(c, s->pixel_format);

		if (fi < 0 || s->index >= (uint32_t)c->nsizes[fi])
			return fail(EINVAL);
		s->type = V4L2_FRMSIZE_TYPE_DISCRETE;
		s->discrete.width = (uint32_t)c->sizes[fi][s->index][0];
		s->discrete.height = (uint32_t)c->sizes[fi][s->index][1];
		memset(s->reserved, 0, sizeof(s->reserved));
		return 0;
	}
	case VIDIOC_ENUM_FRAMEINTERVALS: {
		struct v4l2_frmivalenum *e = arg;
		int ok = 0, fi = format_index(c, e->pixel_format);

		for (int i = 0; fi >= 0 && i < c->nsizes[fi]; i++)
			if ((uint32_t)c->sizes[fi][i][0] == e->width &&
			    (uint32_t)c->sizes[fi][i][1] == e->height)
				ok = 1;
		if (!ok ||
		    e->index >= sizeof(intervals) / sizeof(intervals[0]))
			return fail(EINVAL);
		e->type = V4L2_FRMIVAL_TYPE_DISCRETE;
		e->discrete = intervals[e->index];
		memset(e->reserved, 0, sizeof(e->reserved));
		return 0;
	}
	case VIDIOC_G_FMT: {
		struct v4l2_format *f = arg;

		if (!is_capture(f->type))
			return fail(EINVAL);
		memset(&f->fmt, 0, sizeof(f->fmt));
		f->fmt.pix = c->fmt;
		return 0;
	}
	case VIDIOC_TRY_FMT:
	case VIDIOC_S_FMT: {
		struct v4l2_format *f = arg;
		struct v4l2_pix_format pix;

		if (!is_capture(f->type))
			return fail(EINVAL);
		pix = f->fmt.pix;
		fix_format(c, &pix);
		if (request == VIDIOC_S_FMT) {
			if (c->nbufs &&
			    (pix.pixelformat != c->fmt.pixelformat ||
			     pix.width != c->fmt.width ||
			     pix.height != c->fmt.height))
				return fail(EBUSY);
			c->fmt = pix;
		}
		memset(&f->fmt, 0, sizeof(f->fmt));
		f->fmt.pix = pix;
		return 0;
	}
	case VIDIOC_G_PARM:
	case VIDIOC_S_PARM: {
		struct v4l2_streamparm *p = arg;
		struct v4l2_captureparm *cp = &p->parm.capture;

		if (!is_capture(p->type))
			return fail(EINVAL);
		if (request == VIDIOC_S_PARM) {
			const struct v4l2_fract *t = &cp->timeperframe;

			/* Nearest offered rate; 0/0 means the default. */
			if (!t->numerator || !t->denominator)
				c->interval = intervals[0];
			else if ((double)t->denominator / t->numerator > 22.5)
				c->interval = intervals[0];
			else
				c->interval = intervals[1];
		}
		memset(&p->parm, 0, sizeof(p->parm));
		cp->capability = V4L2_CAP_TIMEPERFRAME;
		cp->timeperframe = c->interval;
		cp->readbuffers = 0;
		return 0;
	}
	case VIDIOC_ENUMINPUT: {
		struct v4l2_input *in = arg;

		if (in->index != 0)
			return fail(EINVAL);
		memset(in, 0, sizeof(*in));
		snprintf((char *)in->name, sizeof(in->name), "Camera 1");
		in->type = V4L2_INPUT_TYPE_CAMERA;
		if (c->flip & V4LC_VCAM_HFLIP)
			in->status |= V4L2_IN_ST_HFLIP;
		if (c->flip & V4LC_VCAM_VFLIP)
			in->status |= V4L2_IN_ST_VFLIP;
		return 0;
	}
	case VIDIOC_G_INPUT:
		*(int *)arg = 0;
		return 0;
	case VIDIOC_S_INPUT:
		return *(int *)arg == 0 ? 0 : fail(EINVAL);
	case VIDIOC_REQBUFS:
		return do_reqbufs(c, arg);
	case VIDIOC_QUERYBUF:
		return do_querybuf(c, arg);
	case VIDIOC_QBUF:
		return do_qbuf(c, arg);
	case VIDIOC_DQBUF:
		return do_dqbuf(c, arg);
	case VIDIOC_STREAMON:
		if (!is_capture(*(uint32_t *)arg) || !c->nbufs)
			return fail(EINVAL);
		if (!c->streaming) {
			c->streaming = 1;
			c->sequence = 0;
			clock_gettime(CLOCK_MONOTONIC, &c->next_due);
		}
		return 0;
	case VIDIOC_STREAMOFF:
		if (!is_capture(*(uint32_t *)arg))
			return fail(EINVAL);
		return do_streamoff(c);
	case VIDIOC_QUERYCTRL:
		return do_queryctrl(arg);
	case VIDIOC_QUERY_EXT_CTRL:
		return do_query_ext_ctrl(arg);
	case VIDIOC_G_EXT_CTRLS:
	case VIDIOC_S_EXT_CTRLS:
	case VIDIOC_TRY_EXT_CTRLS:
		return do_ext_ctrls(c, request, arg);
	case VIDIOC_G_CTRL: {
		struct v4l2_control *ctl = arg;
		int *v = ctrl_value(c, ctl->id);

		if (c->lens.enabled && ctl->id == V4LC_VCAM_CID_INFOCUS) {
			ctl->value = c->lens.infocus;
			return 0;
		}
		if (!v)
			return fail(EINVAL);
		ctl->value = *v;
		return 0;
	}
	case VIDIOC_S_CTRL: {
		struct v4l2_control *ctl = arg;
		int *v = ctrl_value(c, ctl->id);

		if (c->lens.enabled && ctl->id == V4LC_VCAM_CID_INFOCUS) {
			if (ctl->value < 0 || ctl->value > V4LC_VCAM_LENS_MAX)
				return fail(ERANGE);
			c->lens.infocus = ctl->value;
			return 0;
		}
		if (!v)
			return fail(EINVAL);
		/* Integer controls clamp, as the kernel's control core does. */
		ctl->value = clamp_ctrl(find_ctrl(ctl->id), ctl->value);
		*v = ctl->value;
		return 0;
	}
	}
	return fail(ENOTTY);
}

static int vcam_ioctl(void *priv, int fd, unsigned long request, void *arg)
{
	struct vcam *c = priv;
	int r, e;

	(void)fd;
	if (!c)
		return fail(EBADF);
	pthread_mutex_lock(&c->lock);
	r = c->gone ? fail(ENODEV) : vcam_ioctl_locked(c, request, arg);
	e = errno;
	pthread_mutex_unlock(&c->lock);
	errno = e;
	return r;
}

static ssize_t vcam_read(void *priv, int fd, void *buffer, size_t n)
{
	(void)priv;
	(void)fd;
	(void)buffer;
	(void)n;
	return fail(EINVAL);
}

static ssize_t vcam_write(void *priv, int fd, const void *buffer, size_t n)
{
	(void)priv;
	(void)fd;
	(void)buffer;
	(void)n;
	return fail(EINVAL);
}

const struct libv4l_dev_ops v4lc_vcam_ops = {
	.init = vcam_init,
	.close = vcam_close,
	.ioctl = vcam_ioctl,
	.read = vcam_read,
	.write = vcam_write,
};
