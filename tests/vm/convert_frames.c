/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Runs inside the vivid VM (tests/vm/batch-libv4lconvert.sh): our
 * libv4lconvert on a REAL V4L2 device, against the distribution's.
 *
 *   convert_frames DEVICE DIR NAME...
 *
 * 1. v4lconvert_create(fd) of both libraries on the device: enum_fmt must
 *    list every format the driver enumerates (same order, same emulated
 *    ones as the original), and try_format must pick the same native source
 *    as the original for each destination format.
 * 2. For each NAME (a fourcc, e.g. YUYV, "Y16"), DIR/NAME.raw holds frames
 *    captured from the driver at 640x480 in that format (v4l2-ctl
 *    --stream-to). The driver's TRY_FMT gives bytesperline and sizeimage.
 *    The last frame is converted to RGB24 and YUV420 by both libraries
 *    (the original in a child process: some of its paths corrupt the heap).
 *    Byte-identical where no colour matrix is involved (copies, byte
 *    reorders, grey replication). Otherwise the mean absolute difference
 *    to the original must be < 8, unless the original is the one that is
 *    off: vivid draws the same test pattern in every format, so its own
 *    RGB3 and YU12 captures (DIR/RGB3.raw, DIR/YU12.raw) are an independent
 *    reference; ours passes when it is within 8 of that reference and
 *    closer to it than the original. Formats the original lacks are judged
 *    against that reference alone.
 * One line per format, then "N passed, N failed". Exit 1 on any failure,
 * 77 when the original library or the device is missing.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libv4lconvert.h>

#include "../common/origlib.h"

#define W 640
#define H 480
#define MEAN_BOUND 8.0
#define MAX_FMTS 256

static struct origlib orig;
static int passed, failed, skipped;

static const char *fourcc_str(uint32_t f, char buf[5])
{
	for (int i = 0; i < 4; i++) {
		char c = (char)((f >> (8 * i)) & 0xff);
		buf[i] = (c >= 32 && c < 127) ? c : '?';
	}
	buf[4] = 0;
	return buf;
}

static uint32_t name_to_fourcc(const char *name)
{
	char c[4] = { ' ', ' ', ' ', ' ' };
	size_t n = strlen(name);

	for (size_t i = 0; i < 4 && i < n; i++)
		c[i] = name[i];
	return v4l2_fourcc(c[0], c[1], c[2], c[3]);
}

static struct v4l2_format pixfmt(uint32_t fourcc, uint32_t w, uint32_t h)
{
	struct v4l2_format f;

	memset(&f, 0, sizeof(f));
	f.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
	f.fmt.pix.pixelformat = fourcc;
	f.fmt.pix.width = w;
	f.fmt.pix.height = h;
	f.fmt.pix.field = V4L2_FIELD_NONE;
	return f;
}

static void dst_fmt(struct v4l2_format *f, uint32_t fourcc)
{
	*f = pixfmt(fourcc, W, H);
	if (fourcc == V4L2_PIX_FMT_RGB24 || fourcc == V4L2_PIX_FMT_BGR24) {
		f->fmt.pix.bytesperline = W * 3;
		f->fmt.pix.sizeimage = W * H * 3;
	} else {
		f->fmt.pix.bytesperline = W;
		f->fmt.pix.sizeimage = W * H * 3 / 2;
	}
}

static int xioctl(int fd, unsigned long req, void *arg)
{
	int r;

	do
		r = ioctl(fd, req, arg);
	while (r < 0 && errno == EINTR);
	return r;
}

/* ------------------------------------------------------------ device level */

static int list_fmts(int (*enumf)(struct v4lconvert_data *,
				  struct v4l2_fmtdesc *),
		     struct v4lconvert_data *d, uint32_t *out, uint32_t *flags)
{
	int n = 0;

	for (; n < MAX_FMTS; n++) {
		struct v4l2_fmtdesc fd;

		memset(&fd, 0, sizeof(fd));
		fd.index = (uint32_t)n;
		fd.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		if (enumf(d, &fd) < 0)
			break;
		out[n] = fd.pixelformat;
		flags[n] = fd.flags;
	}
	return n;
}

static int device_checks(int fd, struct v4lconvert_data *ours,
			 struct v4lconvert_data *theirs)
{
	static uint32_t nat[MAX_FMTS], a[MAX_FMTS], b[MAX_FMTS];
	static uint32_t af[MAX_FMTS], bf[MAX_FMTS];
	int n_nat = 0, na, nb, bad = 0, emul = 0;
	char s1[5], s2[5];

	for (; n_nat < MAX_FMTS; n_nat++) {
		struct v4l2_fmtdesc d;

		memset(&d, 0, sizeof(d));
		d.index = (uint32_t)n_nat;
		d.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
		if (xioctl(fd, VIDIOC_ENUM_FMT, &d) < 0)
			break;
		nat[n_nat] = d.pixelformat;
	}
	na = list_fmts(v4lconvert_enum_fmt, ours, a, af);
	nb = list_fmts(orig.enum_fmt, theirs, b, bf);
	for (int i = 0; i < na; i++)
		emul += !!(af[i] & V4L2_FMT_FLAG_EMULATED);
	/* The driver's own formats come first, unchanged. */
	for (int i = 0; i < n_nat; i++) {
		if (i >= na || a[i] != nat[i] ||
		    (af[i] & V4L2_FMT_FLAG_EMULATED)) {
			printf("FAIL enum_fmt: index %d is %s, the driver has "
			       "%s\n",
			       i, i < na ? fourcc_str(a[i], s1) : "-",
			       fourcc_str(nat[i], s2));
			bad++;
			break;
		}
	}
	if (na != nb) {
		printf("FAIL enum_fmt: ours lists %d formats, the original "
		       "%d\n",
		       na, nb);
		bad++;
	} else {
		for (int i = 0; i < na; i++) {
			if (a[i] != b[i] ||
			    (af[i] & V4L2_FMT_FLAG_EMULATED) !=
				    (bf[i] & V4L2_FMT_FLAG_EMULATED)) {
				printf("FAIL enum_fmt: index %d ours %s, "
				       "original %s\n",
				       i, fourcc_str(a[i], s1),
				       fourcc_str(b[i], s2));
				bad++;
				break;
			}
		}
	}
	printf("%s enum_fmt: driver %d formats, ours %d (%d emulated), "
	       "original %d\n",
	       bad ? "FAIL" : "PASS", n_nat, na, emul, nb);
	bad ? failed++ : passed++;

	/* try_format: the native source picked for each destination. */
	static const uint32_t dsts[] = {
		V4L2_PIX_FMT_RGB24,
		V4L2_PIX_FMT_BGR24,
		V4L2_PIX_FMT_YUV420,
		V4L2_PIX_FMT_YVU420,
	};
	static const uint32_t sizes[][2] = {
		{ 640, 480 }, { 1280, 720 }, { 320, 240 }, { 800, 600 }
	};
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		for (size_t i = 0; i < sizeof(dsts) / sizeof(dsts[0]); i++) {
			struct v4l2_format da =
				pixfmt(dsts[i], sizes[s][0], sizes[s][1]);
			struct v4l2_format db = da, sa, sb;
			int ra, rb, native = 0, ok;

			memset(&sa, 0, sizeof(sa));
			memset(&sb, 0, sizeof(sb));
			ra = v4lconvert_try_format(ours, &da, &sa);
			rb = orig.try_format(theirs, &db, &sb);
			for (int k = 0; k < n_nat; k++)
				native |= nat[k] == sa.fmt.pix.pixelformat;
			ok = ra == rb &&
			     (ra < 0 ||
			      (native &&
			       sa.fmt.pix.pixelformat ==
				       sb.fmt.pix.pixelformat &&
			       sa.fmt.pix.width == sb.fmt.pix.width &&
			       sa.fmt.pix.height == sb.fmt.pix.height &&
			       da.fmt.pix.width == db.fmt.pix.width &&
			       da.fmt.pix.height == db.fmt.pix.height));
			printf("%s try_format %s %ux%u: ours %d src %s %ux%u "
			       "dst %ux%u, original %d src %s %ux%u dst "
			       "%ux%u\n",
			       ok ? "PASS" : "FAIL", fourcc_str(dsts[i], s1),
			       sizes[s][0], sizes[s][1], ra,
			       fourcc_str(sa.fmt.pix.pixelformat, s2),
			       sa.fmt.pix.width, sa.fmt.pix.height,
			       da.fmt.pix.width, da.fmt.pix.height, rb,
			       fourcc_str(sb.fmt.pix.pixelformat, s1),
			       sb.fmt.pix.width, sb.fmt.pix.height,
			       db.fmt.pix.width, db.fmt.pix.height);
			ok ? passed++ : failed++;
		}
	}
	return bad;
}

/* ------------------------------------------------------------ frame level */

/* No colour matrix on the way: the outputs must be byte-identical. */
static int exact_pair(uint32_t src, uint32_t dst)
{
	if (dst == V4L2_PIX_FMT_RGB24) {
		switch (src) {
		case V4L2_PIX_FMT_RGB24:
		case V4L2_PIX_FMT_BGR24:
		case V4L2_PIX_FMT_GREY:
		case V4L2_PIX_FMT_BGR32:
		case V4L2_PIX_FMT_RGB32:
		case V4L2_PIX_FMT_XBGR32:
		case V4L2_PIX_FMT_XRGB32:
		case V4L2_PIX_FMT_ABGR32:
		case V4L2_PIX_FMT_ARGB32:
			return 1;
		}
	}
	if (dst == V4L2_PIX_FMT_YUV420)
		return src == V4L2_PIX_FMT_YUV420 || src == V4L2_PIX_FMT_YVU420;
	return 0;
}

struct cmp {
	int ours, theirs;  /* return values */
	int theirs_signal; /* the original crashed with this signal */
	double mean;
	int max;
	long ndiff;
	double ref_ours, ref_theirs; /* mean abs diff to vivid's own; -1 */
};

/* vivid's own RGB3 and YU12 renderings of the pattern (last frame). */
static uint8_t *ref_rgb24, *ref_yuv420;

static double mean_diff(const uint8_t *a, const uint8_t *b, size_t n)
{
	long long sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += abs((int)a[i] - (int)b[i]);
	return (double)sum / (double)n;
}

/* The original's conversion, in a child process. */
static int orig_convert(struct v4lconvert_data *theirs,
			const struct v4l2_format *src,
			const struct v4l2_format *d, uint8_t *in, size_t fsize,
			uint8_t *out, size_t osize, int *sig)
{
	int *shared = mmap(NULL, sizeof(int) + osize, PROT_READ | PROT_WRITE,
			   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int status, r;
	pid_t pid;

	*sig = 0;
	if (shared == MAP_FAILED)
		return -1;
	*shared = -1;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		int rr = orig.convert(theirs, src, d, in, (int)fsize,
				      (uint8_t *)(shared + 1), (int)osize);
		*shared = rr;
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid) {
		munmap(shared, sizeof(int) + osize);
		return -1;
	}
	if (WIFSIGNALED(status))
		*sig = WTERMSIG(status);
	r = *shared;
	memcpy(out, shared + 1, osize);
	munmap(shared, sizeof(int) + osize);
	return *sig ? -1 : r;
}

static struct cmp convert_both(struct v4lconvert_data *ours,
			       struct v4lconvert_data *theirs,
			       const struct v4l2_format *src,
			       const uint8_t *frame, uint32_t dst)
{
	struct v4l2_format d;
	struct cmp c = { 0, 0, 0, 0.0, 0, 0, -1.0, -1.0 };
	const uint8_t *ref;
	size_t fsize = src->fmt.pix.sizeimage, osize;
	uint8_t *in = malloc(fsize), *oa, *ob;
	long long sum = 0;

	dst_fmt(&d, dst);
	osize = d.fmt.pix.sizeimage;
	oa = malloc(osize);
	ob = malloc(osize);
	if (!in || !oa || !ob) {
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
	memset(oa, 0x5a, osize);
	memset(ob, 0xa5, osize);
	/* Each library gets its own copy: some decoders work in place. */
	memcpy(in, frame, fsize);
	c.ours = v4lconvert_convert(ours, src, &d, in, (int)fsize, oa,
				    (int)osize);
	memcpy(in, frame, fsize);
	c.theirs = orig_convert(theirs, src, &d, in, fsize, ob, osize,
				&c.theirs_signal);
	ref = dst == V4L2_PIX_FMT_RGB24 ? ref_rgb24 : ref_yuv420;
	if (ref && c.ours == (int)osize)
		c.ref_ours = mean_diff(oa, ref, osize);
	if (ref && c.theirs == (int)osize)
		c.ref_theirs = mean_diff(ob, ref, osize);
	if (c.ours > 0 && c.ours == c.theirs) {
		for (int i = 0; i < c.ours; i++) {
			int dd = abs((int)oa[i] - (int)ob[i]);

			sum += dd;
			c.ndiff += dd != 0;
			if (dd > c.max)
				c.max = dd;
		}
		c.mean = (double)sum / c.ours;
	}
	free(in);
	free(oa);
	free(ob);
	return c;
}

static void test_format(int fd, struct v4lconvert_data *ours,
			struct v4lconvert_data *theirs, const char *dir,
			const char *name)
{
	static const uint32_t dsts[] = { V4L2_PIX_FMT_RGB24,
					 V4L2_PIX_FMT_YUV420 };
	static const char *const dst_names[] = { "rgb24", "yuv420" };
	uint32_t fourcc = name_to_fourcc(name);
	struct v4l2_format src = pixfmt(fourcc, W, H);
	char path[4096], line[1024];
	uint8_t *buf = NULL;
	long size = 0;
	size_t frame_size;
	FILE *f;
	int bad = 0, nref = 0, nframes, stable = 1;
	int len = 0;

	if (xioctl(fd, VIDIOC_TRY_FMT, &src) < 0 ||
	    src.fmt.pix.pixelformat != fourcc || src.fmt.pix.width != W ||
	    src.fmt.pix.height != H) {
		printf("FAIL %-4s driver TRY_FMT does not give %dx%d\n", name,
		       W, H);
		failed++;
		return;
	}
	frame_size = src.fmt.pix.sizeimage;
	/* The batch captures HSV with hsv=256 (vivid 6.1 draws 0-255 hues by
	 * default anyway, while G_FMT says 0-179 and TRY_FMT leaves 0). */
	if (fourcc == V4L2_PIX_FMT_HSV24 || fourcc == V4L2_PIX_FMT_HSV32)
		src.fmt.pix.hsv_enc = V4L2_HSV_ENC_256;
	snprintf(path, sizeof(path), "%s/%s.raw", dir, name);
	f = fopen(path, "rb");
	if (f && fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) > 0) {
		buf = malloc((size_t)size);
		rewind(f);
		if (!buf || fread(buf, 1, (size_t)size, f) != (size_t)size)
			size = 0;
	}
	if (f)
		fclose(f);
	if (size <= 0 || frame_size == 0 || (size_t)size % frame_size) {
		printf("FAIL %-4s capture %s: %ld bytes, not a multiple of "
		       "sizeimage %zu\n",
		       name, path, size, frame_size);
		failed++;
		free(buf);
		return;
	}
	nframes = (int)((size_t)size / frame_size);
	for (int i = 1; i < nframes; i++)
		stable &= !memcmp(buf, buf + i * frame_size, frame_size);

	len += snprintf(line + len, sizeof(line) - (size_t)len,
			"%-4s bpl %u size %zu x%d%s:", name,
			src.fmt.pix.bytesperline, frame_size, nframes,
			stable ? "" : " (frames differ!)");
	/* The union member the driver filled: the HSV encoding for HSV. */
	if (fourcc == V4L2_PIX_FMT_HSV24 || fourcc == V4L2_PIX_FMT_HSV32)
		len += snprintf(line + len, sizeof(line) - (size_t)len,
				" hsv_enc %u", src.fmt.pix.hsv_enc);
	for (size_t i = 0; i < 2; i++) {
		struct cmp c;
		int exact = exact_pair(fourcc, dsts[i]);

		/* The last frame (all are identical when stable). */
		c = convert_both(ours, theirs, &src,
				 buf + (nframes - 1) * frame_size, dsts[i]);
		len += snprintf(line + len, sizeof(line) - (size_t)len, "  %s ",
				dst_names[i]);
#define ADD(...)                                                               \
	(len += snprintf(line + len, sizeof(line) - (size_t)len, __VA_ARGS__))
		if (c.theirs_signal)
			ADD("[original crashed: signal %d] ", c.theirs_signal);
		if (c.theirs < 0 && c.ours < 0) {
			ADD("unsupported by both");
			continue;
		}
		if (c.ours < 0) {
			ADD("OURS FAILED (%s), original %d B",
			    v4lconvert_get_error_message(ours), c.theirs);
			bad++;
			nref++;
			continue;
		}
		if (c.theirs < 0) {
			/* Only vivid's own rendering to compare with. */
			if (c.ref_ours < 0) {
				ADD("ours only (%d B), no reference", c.ours);
				continue;
			}
			nref++;
			ADD("ours only: vivid-ref mean %.3f%s", c.ref_ours,
			    c.ref_ours < MEAN_BOUND ? "" : " TOO FAR");
			bad += c.ref_ours >= MEAN_BOUND;
			continue;
		}
		nref++;
		if (c.ours != c.theirs) {
			ADD("SIZE ours %d original %d", c.ours, c.theirs);
			bad++;
			continue;
		}
		if (c.ndiff == 0) {
			ADD("identical%s", exact ? "" : " (matrix)");
			continue;
		}
		ADD("orig mean %.3f max %d (%.1f%%)", c.mean, c.max,
		    100.0 * c.ndiff / c.ours);
		if (c.ref_ours >= 0 && c.ref_theirs >= 0)
			ADD(" vivid-ref ours %.3f orig %.3f", c.ref_ours,
			    c.ref_theirs);
		if (exact) {
			ADD(" MUST BE IDENTICAL");
			bad++;
		} else if (c.mean >= MEAN_BOUND) {
			/* Acceptable only when the original is the one off. */
			if (c.ref_ours >= 0 && c.ref_theirs >= 0 &&
			    c.ref_ours < MEAN_BOUND &&
			    c.ref_ours < c.ref_theirs) {
				ADD(" (the original is off)");
			} else {
				ADD(" TOO FAR");
				bad++;
			}
		}
#undef ADD
	}
	if (bad) {
		printf("FAIL %s\n", line);
		failed++;
	} else if (!nref) {
		printf("SKIP %s\n", line);
		skipped++;
	} else {
		printf("PASS %s\n", line);
		passed++;
	}
	free(buf);
}

/* The last frame of DIR/NAME.raw when the driver packs it tightly. */
static uint8_t *load_ref(int fd, const char *dir, const char *name,
			 uint32_t bpl)
{
	struct v4l2_format f = pixfmt(name_to_fourcc(name), W, H);
	char path[4096];
	uint8_t *p = NULL;
	FILE *fp;
	long size;

	if (xioctl(fd, VIDIOC_TRY_FMT, &f) < 0 || f.fmt.pix.bytesperline != bpl)
		return NULL;
	snprintf(path, sizeof(path), "%s/%s.raw", dir, name);
	fp = fopen(path, "rb");
	if (!fp)
		return NULL;
	if (fseek(fp, 0, SEEK_END) == 0 && (size = ftell(fp)) > 0 &&
	    size % f.fmt.pix.sizeimage == 0 &&
	    fseek(fp, size - f.fmt.pix.sizeimage, SEEK_SET) == 0) {
		p = malloc(f.fmt.pix.sizeimage);
		if (p && fread(p, 1, f.fmt.pix.sizeimage, fp) !=
				 f.fmt.pix.sizeimage) {
			free(p);
			p = NULL;
		}
	}
	fclose(fp);
	printf("reference %s: %s\n", name, p ? path : "not available");
	return p;
}

int main(int argc, char **argv)
{
	struct v4lconvert_data *ours, *theirs;
	int fd;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 3) {
		fprintf(stderr, "usage: %s DEVICE DIR FOURCC...\n", argv[0]);
		return 2;
	}
	if (origlib_open(&orig, 1) < 0)
		return 77;
	fd = open(argv[1], O_RDWR);
	if (fd < 0) {
		printf("cannot open %s: %s: skipped\n", argv[1],
		       strerror(errno));
		return 77;
	}
	ours = v4lconvert_create(fd);
	theirs = orig.create(fd);
	if (!ours || !theirs) {
		printf("FAIL v4lconvert_create on %s: ours %p, original %p\n",
		       argv[1], (void *)ours, (void *)theirs);
		return 1;
	}
	device_checks(fd, ours, theirs);
	ref_rgb24 = load_ref(fd, argv[2], "RGB3", W * 3);
	ref_yuv420 = load_ref(fd, argv[2], "YU12", W);
	for (int i = 3; i < argc; i++)
		test_format(fd, ours, theirs, argv[2], argv[i]);
	v4lconvert_destroy(ours);
	orig.destroy(theirs);
	close(fd);
	origlib_close(&orig);
	free(ref_rgb24);
	free(ref_yuv420);
	printf("%d skipped (no reference)\n", skipped);
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
