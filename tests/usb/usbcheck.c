/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * usbcheck: the guest side of the USB camera tests. Captures from a real
 * driver through libv4l2 and checks every frame against the picture the
 * emulator rendered for it (tests/usb/picture.c: the virtual camera's
 * picture for a sequence number, 0 at each stream start):
 *
 *   usbcheck [options] DEVICE
 *     --fmt FOURCC     what to ask libv4l2 for (RGB3 BGR3 YU12 YV12, or the
 *                      camera's own YUYV / MJPG: then byte-exact)
 *     --size WxH       (default 640x480)
 *     --io mmap|read   (default mmap)
 *     --frames N       good frames needed (default 10); frames that lost
 *                      packets on the way, and the last good frame again
 *                      (libv4l2 repeats it after 4 damaged frames in a
 *                      row), when a loss was reported, do not count (a
 *                      bad frame otherwise): the capture goes on, up to
 *                      3 N + 6 frames in all, until --deadline
 *     --deadline S     seconds to get them (default 60 + 20 per frame: a
 *                      loaded host runs the guest at a few frames a
 *                      second, 0.1 at a load of 19 on 2 cores; a hang is
 *                      --timeout's)
 *     --losses FILE    where the transport reports what it lost
 *                      (repeatable; also $USBCHECK_LOSSES, a colon list):
 *                      QEMU's usb-redir log ("dropping packets") and the
 *                      emulator's camera logs ("truncated", "corrupted");
 *                      a frame that lost packets is taken for a loss
 *                      only when one of them reported one during the last
 *                      LOSS_WINDOW frames (with --file: since --loss-mark),
 *                      otherwise it is a bad frame
 *     --loss-mark N    with --file: the count of reported losses when the
 *                      program that wrote the file started
 *     --loss-count     print the count of reported losses so far and exit
 *     --fps N          S_PARM first
 *     --psnr DB        the floor for converted frames (default 30)
 *     --lens           the camera has the lens texture (in focus)
 *     --flip N         the frames come out so flipped (1 h, 2 v, 3 both;
 *                      default 0: upright, as libv4l2 must deliver them)
 *     --bad-ok N       frames allowed below the floor (corrupt-frame tests)
 *     --until-error    stream until an error; print it (ENODEV expected)
 *     --timeout S      for each frame (default 10): a hang is a failure
 *     --set ID=VALUE   VIDIOC_S_CTRL through libv4l2 first (repeatable)
 *     --until-focus    stop once V4L2_CID_AUTO_FOCUS_STATUS says the
 *                      focus is reached (--frames is then a bound)
 *     --no-check       only stream; print the mean luma of the centre
 *                      quarter of the first and last RGB24 frames (auto
 *                      gain tests)
 *     --file PATH      check the frames of a file instead (a program's
 *                      output, frames of --fmt at --size back to back)
 *     --original       capture the raw --fmt (a chip format) and convert
 *                      every frame with our libv4lconvert and the
 *                      distribution's (original.h): the frames are checked
 *                      as converted, and the two libraries must agree byte
 *                      for byte (exit 77 when the original is missing)
 *     --ask-srgb       ask S_FMT for sRGB, full range, as GStreamer does
 *                      for RGB: the answer must keep colorspace and transfer
 *                      function, and the frames must still be right
 *     --replug         the camera is unplugged and plugged back under a
 *                      frame server that carries us across (mmap): the
 *                      buffers' sequence numbers must never go back and
 *                      must jump over the gap, after which the camera's
 *                      pictures start again from 0; good frames are
 *                      needed before the jump, and --frames good ones
 *                      after it (the stream goes on until then, or the
 *                      deadline), and the format must be the one set.
 *                      With --file (a program's frames, no sequence
 *                      numbers): the pictures must start again from 0
 *                      once, good frames before and after it
 *
 * A frame's sequence number is found by comparing it, subsampled, with the
 * next pictures (frames the bus dropped leave gaps); sequence numbers must
 * grow. Prints one summary line; exit 0 when --frames good frames came
 * within the deadline and no frame was bad (wrong, or damaged with no loss
 * reported to explain it).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "frameid.h"
#include "libv4l2.h"
#include "original.h"
#include "vcam/vcam.h"

#define WINDOW 48
/* Pictures past the last one a frame is searched among, at most. */
#define GAP_MAX 1024
/* A loss the transport reports damages a frame completed after it; the
 * frames dequeued since may be that many (the buffers queued, read()'s
 * own, the frame in flight). */
#define LOSS_WINDOW 8
#define MAX_LOSS_FILES 8

struct opts {
	uint32_t fourcc;
	int w, h, frames, fps, lens, flip, bad_ok, until_error, timeout;
	int read_io, no_check, ask_srgb, original, loss_count, until_focus;
	int replug;
	double psnr, deadline;
	const char *dev, *file;
	int nset;
	struct v4l2_control set[8];
	int nloss;
	const char *loss_file[MAX_LOSS_FILES];
	long loss_mark;
};

/* The reports of losses read so far from each --losses file. */
struct losses {
	FILE *f[MAX_LOSS_FILES];
	long count, at0;      /* so far, at the start */
	long at[LOSS_WINDOW]; /* count when each of the last frames came */
};

struct state {
	const struct opts *o;
	uint32_t cmp; /* the format of the frames compared */
	struct usbcheck_original *orig;
	uint8_t *conv; /* --original: our RGB24 of the raw frame */
	int identical; /* --original: frames both libraries agree on */
	int raw_same;  /* --original: they agree on the frame being checked */
	int retried;   /* --original: frames ours refused */
	double max_mad;
	uint8_t *expect;
	size_t esize;
	uint8_t *prev; /* the last frame that passed, prev_n bytes */
	size_t prev_n;
	int repeated; /* that frame again (libv4l2, after damaged frames) */
	uint32_t next_seq;
	/* frame interval, times of the frame being checked and the last one
	 * that passed (s; 0: unknown) */
	double interval, cur_t, last_t;
	int checked, bad, exact_ok, skipped, lost;
	double min_psnr, luma0, luma;
	uint32_t first_seq, last_seq;
	struct losses loss;
	double t_end; /* the deadline (now_s()) */
	int focus;    /* --until-focus: the last AUTO_FOCUS_STATUS read */
	/* --replug: the buffers' sequence numbers */
	uint32_t buf_seq, max_jump;
	int buf_seen, seq_jumps, seq_back, restarts, restart_maybe;
	int good_before, good_after; /* good frames before and after it */
	int near_only;               /* identify() in the first window only */
};

static uint32_t parse_fourcc(const char *s)
{
	char f[4] = { ' ', ' ', ' ', ' ' };

	memcpy(f, s, strlen(s) < 4 ? strlen(s) : 4);
	return v4l2_fourcc(f[0], f[1], f[2], f[3]);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int exact_format(uint32_t f)
{
	return f == V4L2_PIX_FMT_YUYV || f == V4L2_PIX_FMT_MJPEG;
}

static int render(struct state *st, uint32_t seq)
{
	const struct opts *o = st->o;
	struct v4lc_vcam_optics op = { o->lens, 0 };
	int n = v4lc_vcam_render_optics(st->cmp, o->w, o->h, seq,
					(unsigned)o->flip, &op, st->expect,
					st->esize);

	if (n > 0 && st->cmp == V4L2_PIX_FMT_MJPEG)
		n = (int)usbcam_frameid_put(st->expect, (size_t)n, st->esize,
					    seq);
	return n;
}

static double psnr(const uint8_t *a, const uint8_t *b, size_t n, size_t step)
{
	uint64_t sse = 0, cnt = 0;

	for (size_t i = 0; i < n; i += step, cnt++) {
		int d = (int)a[i] - (int)b[i];

		sse += (uint64_t)(d * d);
	}
	if (!sse)
		return 99.0;
	return 10.0 * log10(255.0 * 255.0 * (double)cnt / (double)sse);
}

/*
 * A JPEG frame that lost isochronous packets on the way (the bus, or QEMU
 * when the guest fell behind, drops them; uvcvideo delivers what came):
 * shorter than the picture, the same headers, ending where the picture
 * ends (or, when its first packets were lost, ending at EOI but beginning
 * past SOI). Counted apart: the data it has comes from the right picture.
 */
static int lost_packets(const uint8_t *want, size_t wn, const uint8_t *f,
			size_t n)
{
	size_t head = 600;

	return n < wn && n > head && !memcmp(want, f, head) &&
	       !memcmp(want + wn - 2, f + n - 2, 2);
}

/*
 * A converted frame below the floor whose top eighth (the first rows of
 * its first plane) is above it: a JPEG that lost packets decodes right
 * up to the gap. Counted with the lost frames.
 */
static int damaged(struct state *st, const uint8_t *f, size_t n)
{
	return psnr(st->expect, f, n / 8, 1) >= st->o->psnr;
}

/*
 * Where to start looking for a frame's picture: a slow reader (or one that
 * shares the camera) misses frames; their number follows from the time
 * since the last frame checked (a few frames of margin for jitter).
 */
static uint32_t predict(const struct state *st)
{
	double gap;

	if (st->last_t <= 0 || st->cur_t <= st->last_t || st->interval <= 0)
		return st->next_seq;
	gap = (st->cur_t - st->last_t) / st->interval;
	if (gap < 8)
		return st->next_seq;
	return st->next_seq + (uint32_t)gap - 8;
}

/*
 * The best match among the WINDOW pictures from `start` (4 * WINDOW when
 * looking for a camera's restart, --replug) (compared on a
 * sample of the bytes), searched until the match gets worse again after
 * passing the floor; for the exact formats the first identical one.
 * Returns 1 for an exact match, 0, or a negative errno.
 */
static int search(struct state *st, const uint8_t *f, size_t n, uint32_t start,
		  uint32_t *bs, double *best)
{
	uint32_t window = st->restart_maybe ? 4 * WINDOW : WINDOW;

	for (uint32_t s = start; s < start + window; s++) {
		int r = render(st, s);
		double p;

		if (r < 0)
			return r;
		if (exact_format(st->cmp)) {
			if ((size_t)r == n && !memcmp(st->expect, f, n)) {
				*bs = s;
				*best = 99.0;
				return 1;
			}
			continue;
		}
		p = psnr(st->expect, f, n, 7);
		if (p > *best) {
			*best = p;
			*bs = s;
		} else if (*best >= st->o->psnr && p < *best - 1.0) {
			break;
		}
	}
	return 0;
}

/*
 * The sequence number of a frame: a JPEG frame says it (frameid.h);
 * otherwise search() from where the time since the last frame points, and
 * from the next picture when that finds nothing.
 */
static int identify(struct state *st, const uint8_t *f, size_t n, uint32_t *seq,
		    double *db)
{
	double best = -1;
	uint32_t bs = st->next_seq, start = predict(st);
	int r;

	if (st->cmp == V4L2_PIX_FMT_MJPEG) {
		*db = 0;
		if (usbcam_frameid_get(f, n, seq))
			/* the head lost: begins past SOI, ends at EOI */
			return n > 2 && (f[0] != 0xff || f[1] != 0xd8) &&
					       f[n - 2] == 0xff &&
					       f[n - 1] == 0xd9
				       ? -EPIPE
				       : -ENOENT;
		r = render(st, *seq);
		if (r < 0)
			return r;
		if ((size_t)r == n && !memcmp(st->expect, f, n))
			*db = 99.0;
		else if (lost_packets(st->expect, (size_t)r, f, n))
			return -EPIPE;
		return 0;
	}
	r = search(st, f, n, start, &bs, &best);
	if (!r && best < st->o->psnr && start > st->next_seq)
		r = search(st, f, n, st->next_seq, &bs, &best);
	/* A loaded host: the camera, slowed down by the bus, sends fewer
	 * frames than the time says, and a program's file says no time at
	 * all (a slow program misses many): every picture in between, and
	 * up to GAP_MAX past the last one. */
	for (uint32_t s = st->next_seq + WINDOW;
	     !r && best < st->o->psnr && !st->near_only &&
	     (s < start || s < st->next_seq + GAP_MAX);
	     s += WINDOW)
		if (s != start)
			r = search(st, f, n, s, &bs, &best);
	if (r < 0)
		return r;
	if (r == 1) {
		*seq = bs;
		*db = 99.0;
		return 0;
	}
	if (best < 0)
		return -ENOENT;
	*seq = bs;
	if (render(st, bs) != (int)n)
		return -EINVAL;
	*db = psnr(st->expect, f, n, 1);
	return 0;
}

/*
 * A line of a transport's log that reports data lost on the way: QEMU's
 * usb-redir dropping isochronous packets (its buffer overflowed: the guest
 * fell behind), or the emulator's fault commands cutting or corrupting a
 * frame (tests/usb/fault.c).
 */
static int loss_line(const char *l)
{
	return strstr(l, "dropping packets") ||
	       (strstr(l, "frame ") &&
		(strstr(l, " truncated to ") || strstr(l, " corrupted")));
}

static void losses_open(struct losses *L, const struct opts *o)
{
	for (int i = 0; i < o->nloss; i++)
		L->f[i] = fopen(o->loss_file[i], "r");
}

static void losses_close(struct losses *L)
{
	for (int i = 0; i < MAX_LOSS_FILES; i++)
		if (L->f[i])
			fclose(L->f[i]);
}

/* Reads what the files gained since the last call (whole lines only: a
 * line still being written is read again next time); the count so far. */
static long losses_poll(struct losses *L)
{
	char line[4096];

	for (int i = 0; i < MAX_LOSS_FILES; i++) {
		FILE *f = L->f[i];

		while (f) {
			long pos = ftell(f);
			size_t n;

			if (!fgets(line, sizeof(line), f)) {
				clearerr(f);
				break;
			}
			n = strlen(line);
			if (line[n - 1] != '\n' && n < sizeof(line) - 1) {
				fseek(f, pos, SEEK_SET);
				break;
			}
			L->count += loss_line(line);
		}
	}
	return L->count;
}

/* Is a frame that lost packets explained by a loss the transport
 * reported? Device: during the last LOSS_WINDOW frames; file: since the
 * program that wrote it started (--loss-mark). Called once per frame. */
static int loss_reported(struct state *st)
{
	struct losses *L = &st->loss;
	long now = losses_poll(L);
	long *then = &L->at[st->checked % LOSS_WINDOW];
	int r;

	if (st->o->file)
		return st->o->loss_mark >= 0 && now > st->o->loss_mark;
	r = now > *then;
	*then = now;
	return r;
}

/* Mean luma of the centre quarter of an RGB24 frame. */
static double centre_luma(const struct opts *o, const uint8_t *f, size_t n)
{
	double sum = 0;
	long cnt = 0;

	if (o->fourcc != V4L2_PIX_FMT_RGB24 || n < (size_t)o->w * o->h * 3)
		return -1;
	for (int y = o->h / 4; y < o->h * 3 / 4; y++)
		for (int x = o->w / 4; x < o->w * 3 / 4; x++, cnt++) {
			const uint8_t *p = f + 3 * ((size_t)y * o->w + x);

			sum += 0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2];
		}
	return cnt ? sum / (double)cnt : -1;
}

/*
 * --replug: a buffer's sequence number, which the frame server keeps
 * rising across a replug, jumping over the gap; after a jump the camera's
 * pictures may have started again from 0.
 */
static void note_sequence(struct state *st, uint32_t seq)
{
	if (st->buf_seen && seq <= st->buf_seq)
		st->seq_back++;
	if (st->buf_seen && seq > st->buf_seq + 1) {
		st->seq_jumps++;
		if (seq - st->buf_seq > st->max_jump)
			st->max_jump = seq - st->buf_seq;
		st->restart_maybe = st->o->replug && !st->restarts;
	}
	st->buf_seq = seq;
	st->buf_seen = 1;
}

/* identify(), from picture 0 first after a jump (--replug): a camera
 * plugged back starts its pictures again. */
static int identify_replugged(struct state *st, const uint8_t *f, size_t n,
			      uint32_t *seq, double *db)
{
	uint32_t next = st->next_seq;
	double last_t = st->last_t;

	if (st->restart_maybe) {
		/* searched further than usual (search()): a slow reader
		 * may first see a picture well after the restart */
		st->next_seq = 0;
		st->last_t = 0;
		if (identify(st, f, n, seq, db) == 0 && *db >= st->o->psnr &&
		    *seq < next) {
			st->restart_maybe = 0;
			st->restarts++;
			return 0;
		}
		st->restart_maybe = 0;
		st->next_seq = next;
		st->last_t = last_t;
	}
	return identify(st, f, n, seq, db);
}

/*
 * --file --replug: a program's frames have no sequence numbers. Until the
 * pictures started again, a frame that is none of the next pictures (the
 * first search window: within it the square never comes back to a place)
 * may be the first after the replug: pictures from 0 are searched before
 * the far ones (the long search, where a picture may pass the floor by
 * chance).
 */
static int identify_file_replugged(struct state *st, const uint8_t *f, size_t n,
				   uint32_t *seq, double *db)
{
	uint32_t next = st->next_seq;
	int r;

	if (st->restarts)
		return identify(st, f, n, seq, db);
	st->near_only = 1;
	r = identify(st, f, n, seq, db);
	if (r != 0 || *db < st->o->psnr) {
		st->next_seq = 0;
		st->restart_maybe = 1; /* the wider window */
		r = identify(st, f, n, seq, db);
		st->restart_maybe = 0;
		if (r == 0 && *db >= st->o->psnr && *seq < next) {
			st->restarts++; /* the pictures go on from 0 */
			st->near_only = 0;
			return 0;
		}
		st->next_seq = next;
		st->near_only = 0;
		r = identify(st, f, n, seq, db);
	}
	st->near_only = 0;
	return r;
}

static void check_frame(struct state *st, const uint8_t *f, size_t n)
{
	uint32_t seq = 0;
	double db = 0;
	int r, reported;

	if (st->o->no_check) {
		st->luma = centre_luma(st->o, f, n);
		if (!st->checked++)
			st->luma0 = st->luma;
		return;
	}
	reported = loss_reported(st);
	/*
	 * The last good frame again: what libv4l2 hands out when
	 * LV2_FRAME_TRIES frames in a row were damaged (flagged by the driver,
	 * or short), rather than an error. Lost packets explain it too.
	 */
	if (st->prev && n == st->prev_n && !memcmp(st->prev, f, n)) {
		st->checked++;
		/* only libv4l2's conversion repeats a frame: not the
		 * camera's own format, nor --original's raw frames */
		if (reported && !exact_format(st->cmp) && !st->orig) {
			st->repeated++;
			return;
		}
		st->bad++;
		fprintf(stderr,
			"usbcheck: frame %d is the last good one again, and "
			"no loss was reported\n",
			st->checked);
		return;
	}
	r = st->o->file && st->o->replug
		    ? identify_file_replugged(st, f, n, &seq, &db)
		    : identify_replugged(st, f, n, &seq, &db);
	st->checked++;
	if (r == -EPIPE && reported) {
		st->lost++;
		if (seq >= st->next_seq)
			st->next_seq = seq + 1;
		return;
	}
	if (r == -EPIPE) {
		st->bad++;
		fprintf(stderr,
			"usbcheck: frame %d (%zu bytes) lost packets, "
			"and no loss was reported\n",
			st->checked, n);
		return;
	}
	if (!r && seq < st->next_seq) {
		st->bad++;
		fprintf(stderr, "usbcheck: frame %d is picture %u, after %u\n",
			st->checked, seq, st->next_seq - 1);
		return;
	}
	/* Damaged as by lost packets: right above the gap; or, with
	 * --original, wherever, when both libraries made the same of it
	 * (the damage is in the data the camera's driver gave). */
	if (!r && db < st->o->psnr && reported &&
	    (damaged(st, f, n) || (st->orig && st->raw_same))) {
		st->lost++;
		st->next_seq = seq + 1;
		return;
	}
	if (r < 0 || db < st->o->psnr) {
		st->bad++;
		if (st->bad <= 3 + st->o->bad_ok)
			fprintf(stderr,
				"usbcheck: frame %d (%zu bytes): %s "
				"(best %.1f dB, seq %u)%s\n",
				st->checked, n,
				exact_format(st->cmp)
					? "matches no picture byte for byte"
					: "below the PSNR floor",
				db, seq,
				!r && !exact_format(st->cmp) &&
						damaged(st, f, n)
					? ", damaged below its top as by "
					  "lost packets, but no loss was "
					  "reported"
					: "");
		return;
	}
	if (st->checked - st->bad - st->lost - st->repeated == 1)
		st->first_seq = seq;
	if (st->restarts)
		st->good_after++;
	else
		st->good_before++;
	st->last_t = st->cur_t;
	st->skipped += (int)(seq - st->next_seq);
	st->last_seq = seq;
	st->next_seq = seq + 1;
	if (db < st->min_psnr)
		st->min_psnr = db;
	if (!st->prev || st->prev_n < n) {
		free(st->prev);
		st->prev = malloc(n);
	}
	st->prev_n = st->prev ? n : 0;
	if (st->prev)
		memcpy(st->prev, f, n);
}

/* --original: the raw frame converted by both libraries, then checked. */
static void check_raw(struct state *st, const uint8_t *f, size_t n)
{
	size_t rgb = v4lc_vcam_sizeimage(st->cmp, st->o->w, st->o->h);
	double mad;
	int same;

	if (!st->orig) {
		check_frame(st, f, n);
		return;
	}
	if (usbcheck_original_convert(st->orig, f, n, st->conv, &same, &mad)) {
		st->retried++; /* ours refused it: libv4l2 would retry */
		return;
	}
	st->identical += same;
	st->raw_same = same;
	if (mad > st->max_mad || mad < 0)
		st->max_mad = mad < 0 ? 999 : mad;
	check_frame(st, st->conv, rgb);
}

/* Frames that passed. */
static int good(const struct state *st)
{
	return st->checked - st->bad - st->lost - st->repeated;
}

/* Take another frame? Until --frames good ones (with --replug, after the
 * camera came back), a bad one too many, too many lost, or the deadline. */
static int more(const struct state *st)
{
	if (st->o->until_error)
		return 1;
	if (st->o->replug)
		return st->good_after < st->o->frames &&
		       st->bad <= st->o->bad_ok && now_s() < st->t_end;
	return good(st) < st->o->frames && st->bad <= st->o->bad_ok &&
	       st->checked < 3 * st->o->frames + 6 && now_s() < st->t_end;
}

static int xioctl(int fd, unsigned long req, void *arg)
{
	int r;

	do
		r = v4l2_ioctl(fd, req, arg);
	while (r < 0 && errno == EINTR);
	return r;
}

/* --until-focus: has the autofocus reached the focus? (A loaded host
 * delivers the daemon's frames late and slowly: the frames it needs are
 * not known in advance.) */
static int focus_reached(int fd, struct state *st)
{
	struct v4l2_control c = { .id = V4L2_CID_AUTO_FOCUS_STATUS };

	if (!st->o->until_focus || xioctl(fd, VIDIOC_G_CTRL, &c))
		return 0;
	st->focus = c.value;
	return c.value == V4L2_AUTO_FOCUS_STATUS_REACHED;
}

static int wait_frame(int fd, int timeout_s)
{
	struct pollfd p = { fd, POLLIN, 0 };
	int r = poll(&p, 1, timeout_s * 1000);

	if (r == 0) {
		errno = ETIMEDOUT;
		return -1;
	}
	return r < 0 ? -1 : 0;
}

static int capture_mmap(int fd, struct state *st, size_t sizeimage)
{
	struct v4l2_requestbuffers rb = { .count = 4,
					  .type = V4L2_BUF_TYPE_VIDEO_CAPTURE,
					  .memory = V4L2_MEMORY_MMAP };
	void *map[8] = { 0 };
	size_t len[8] = { 0 };
	int type = V4L2_BUF_TYPE_VIDEO_CAPTURE, err = 0;

	if (xioctl(fd, VIDIOC_REQBUFS, &rb) || rb.count < 2 || rb.count > 8)
		return -errno;
	for (unsigned i = 0; i < rb.count; i++) {
		struct v4l2_buffer b = { .index = i,
					 .type = type,
					 .memory = V4L2_MEMORY_MMAP };

		if (xioctl(fd, VIDIOC_QUERYBUF, &b))
			return -errno;
		len[i] = b.length;
		map[i] = v4l2_mmap(NULL, b.length, PROT_READ | PROT_WRITE,
				   MAP_SHARED, fd, b.m.offset);
		if (map[i] == MAP_FAILED || xioctl(fd, VIDIOC_QBUF, &b))
			return -errno;
	}
	if (xioctl(fd, VIDIOC_STREAMON, &type))
		return -errno;
	while (more(st)) {
		struct v4l2_buffer b = { .type = type,
					 .memory = V4L2_MEMORY_MMAP };

		if (wait_frame(fd, st->o->timeout) ||
		    xioctl(fd, VIDIOC_DQBUF, &b)) {
			if (errno == EAGAIN)
				continue;
			err = -errno;
			break;
		}
		if (b.bytesused > sizeimage || b.index >= rb.count) {
			fprintf(stderr,
				"usbcheck: buffer %u of %u, %u bytes, "
				"sizeimage %zu\n",
				b.index, rb.count, b.bytesused, sizeimage);
			err = -ERANGE;
			break;
		}
		st->cur_t = (double)b.timestamp.tv_sec +
			    (double)b.timestamp.tv_usec / 1e6;
		note_sequence(st, b.sequence);
		check_raw(st, map[b.index], b.bytesused);
		if (xioctl(fd, VIDIOC_QBUF, &b)) {
			err = -errno;
			break;
		}
		if (focus_reached(fd, st))
			break;
	}
	xioctl(fd, VIDIOC_STREAMOFF, &type);
	for (unsigned i = 0; i < rb.count; i++)
		if (map[i] && map[i] != MAP_FAILED)
			v4l2_munmap(map[i], len[i]);
	return err;
}

static int capture_read(int fd, struct state *st, size_t sizeimage)
{
	uint8_t *buf = malloc(sizeimage);
	int err = 0;

	if (!buf)
		return -ENOMEM;
	while (more(st)) {
		ssize_t n;

		if (wait_frame(fd, st->o->timeout)) {
			err = -errno;
			break;
		}
		n = v4l2_read(fd, buf, sizeimage);
		if (n < 0 && errno == EAGAIN)
			continue;
		if (n < 0) {
			err = -errno;
			break;
		}
		st->cur_t = now_s();
		check_raw(st, buf, (size_t)n);
		if (focus_reached(fd, st))
			break;
	}
	free(buf);
	return err;
}

static int parse_args(int argc, char **argv, struct opts *o)
{
	*o = (struct opts){ .fourcc = V4L2_PIX_FMT_RGB24,
			    .w = 640,
			    .h = 480,
			    .frames = 10,
			    .psnr = 30,
			    .timeout = 10,
			    .loss_mark = -1 };
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--lens"))
			o->lens = 1;
		else if (!strcmp(a, "--until-error"))
			o->until_error = 1;
		else if (!strcmp(a, "--no-check"))
			o->no_check = 1;
		else if (!strcmp(a, "--ask-srgb"))
			o->ask_srgb = 1;
		else if (!strcmp(a, "--original"))
			o->original = 1;
		else if (!strcmp(a, "--loss-count"))
			o->loss_count = 1;
		else if (!strcmp(a, "--until-focus"))
			o->until_focus = 1;
		else if (!strcmp(a, "--replug"))
			o->replug = 1;
		else if (a[0] != '-')
			o->dev = a;
		else if (!v)
			return -1;
		else if (i++, !strcmp(a, "--fmt"))
			o->fourcc = parse_fourcc(v);
		else if (!strcmp(a, "--size"))
			sscanf(v, "%dx%d", &o->w, &o->h);
		else if (!strcmp(a, "--io"))
			o->read_io = !strcmp(v, "read");
		else if (!strcmp(a, "--frames"))
			o->frames = atoi(v);
		else if (!strcmp(a, "--fps"))
			o->fps = atoi(v);
		else if (!strcmp(a, "--psnr"))
			o->psnr = atof(v);
		else if (!strcmp(a, "--flip"))
			o->flip = atoi(v);
		else if (!strcmp(a, "--bad-ok"))
			o->bad_ok = atoi(v);
		else if (!strcmp(a, "--timeout"))
			o->timeout = atoi(v);
		else if (!strcmp(a, "--file"))
			o->file = v;
		else if (!strcmp(a, "--deadline"))
			o->deadline = atof(v);
		else if (!strcmp(a, "--loss-mark"))
			o->loss_mark = atol(v);
		else if (!strcmp(a, "--losses") && o->nloss < MAX_LOSS_FILES)
			o->loss_file[o->nloss++] = v;
		else if (!strcmp(a, "--set") && o->nset < 8 && strchr(v, '=')) {
			o->set[o->nset].id = (uint32_t)strtoul(v, NULL, 0);
			o->set[o->nset++].value =
				(int32_t)strtol(strchr(v, '=') + 1, NULL, 0);
		} else
			return -1;
	}
	if (!o->deadline)
		o->deadline = 60 + 20.0 * o->frames;
	return o->dev || o->file || o->loss_count ? 0 : -1;
}

/* $USBCHECK_LOSSES: more --losses files, a colon list. */
static void losses_from_env(struct opts *o)
{
	static char list[4096];
	const char *e = getenv("USBCHECK_LOSSES");
	char *save = NULL;

	if (!e)
		return;
	snprintf(list, sizeof(list), "%s", e);
	for (char *f = strtok_r(list, ":", &save);
	     f && o->nloss < MAX_LOSS_FILES; f = strtok_r(NULL, ":", &save))
		o->loss_file[o->nloss++] = f;
}

/* Frames of a file, back to back. */
static int check_file(struct state *st)
{
	size_t fsize = v4lc_vcam_sizeimage(st->o->fourcc, st->o->w, st->o->h);
	uint8_t *buf = malloc(fsize ? fsize : 1);
	FILE *f = fopen(st->o->file, "rb");
	int err = 0;

	if (!buf || !f || !fsize)
		err = -errno ? -errno : -EINVAL;
	while (!err && fread(buf, 1, fsize, f) == fsize)
		check_frame(st, buf, fsize);
	if (f)
		fclose(f);
	free(buf);
	return err;
}

/* The frame interval the driver streams at (s), 0 when it does not say. */
static double frame_interval(int fd)
{
	struct v4l2_streamparm p = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	const struct v4l2_fract *t = &p.parm.capture.timeperframe;

	if (xioctl(fd, VIDIOC_G_PARM, &p) || !t->denominator)
		return 0;
	return (double)t->numerator / (double)t->denominator;
}

static int set_format(int fd, const struct opts *o, size_t *sizeimage,
		      uint32_t *bpl)
{
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };

	for (int i = 0; i < o->nset; i++) {
		struct v4l2_control c = o->set[i];

		if (xioctl(fd, VIDIOC_S_CTRL, &c)) {
			fprintf(stderr, "usbcheck: S_CTRL 0x%x = %d: %s\n",
				c.id, c.value, strerror(errno));
			return -errno;
		}
	}

	f.fmt.pix.width = (uint32_t)o->w;
	f.fmt.pix.height = (uint32_t)o->h;
	f.fmt.pix.pixelformat = o->fourcc;
	f.fmt.pix.field = V4L2_FIELD_ANY;
	if (o->ask_srgb) {
		f.fmt.pix.colorspace = V4L2_COLORSPACE_SRGB;
		f.fmt.pix.xfer_func = V4L2_XFER_FUNC_SRGB;
		f.fmt.pix.quantization = V4L2_QUANTIZATION_FULL_RANGE;
	}
	if (xioctl(fd, VIDIOC_S_FMT, &f))
		return -errno;
	if (o->ask_srgb && (f.fmt.pix.colorspace != V4L2_COLORSPACE_SRGB ||
			    f.fmt.pix.xfer_func != V4L2_XFER_FUNC_SRGB)) {
		fprintf(stderr,
			"usbcheck: asked for sRGB, S_FMT gave "
			"colorspace %u transfer %u\n",
			f.fmt.pix.colorspace, f.fmt.pix.xfer_func);
		return -EINVAL;
	}
	if (f.fmt.pix.pixelformat != o->fourcc ||
	    f.fmt.pix.width != (uint32_t)o->w ||
	    f.fmt.pix.height != (uint32_t)o->h) {
		fprintf(stderr, "usbcheck: S_FMT gave %.4s %ux%u\n",
			(char *)&f.fmt.pix.pixelformat, f.fmt.pix.width,
			f.fmt.pix.height);
		return -EINVAL;
	}
	*sizeimage = f.fmt.pix.sizeimage;
	*bpl = f.fmt.pix.bytesperline;
	if (o->fps) {
		struct v4l2_streamparm p = {
			.type = V4L2_BUF_TYPE_VIDEO_CAPTURE
		};

		p.parm.capture.timeperframe.numerator = 1;
		p.parm.capture.timeperframe.denominator = (uint32_t)o->fps;
		if (xioctl(fd, VIDIOC_S_PARM, &p))
			return -errno;
	}
	return 0;
}

/* The device, through libv4l2; for --original with conversion off (the
 * raw chip format: libv4l2 offers only what it converts to). */
static int open_device(const struct opts *o)
{
	int fd;

	if (!o->original)
		return v4l2_open(o->dev, O_RDWR | O_NONBLOCK);
	fd = open(o->dev, O_RDWR | O_NONBLOCK);
	if (fd >= 0 && v4l2_fd_open(fd, V4L2_DISABLE_CONVERSION) < 0) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* --original: both converters; frames are then compared as converted.
 * 77 when the original is not installed. */
static int setup_original(struct state *st, uint32_t bpl, size_t sizeimage)
{
	const struct opts *o = st->o;

	st->orig = usbcheck_original_open(o->fourcc, o->w, o->h, bpl,
					  (uint32_t)sizeimage);
	if (!st->orig)
		return 77;
	st->cmp = usbcheck_original_dst(st->orig);
	st->esize = (size_t)o->w * (size_t)o->h * 3;
	free(st->expect);
	st->expect = malloc(st->esize);
	st->conv = malloc(st->esize);
	return st->expect && st->conv ? 0 : -ENOMEM;
}

static void report(const struct state *st, int err, double t)
{
	const struct opts *o = st->o;
	const char *by = err ? ", ended by " : "",
		   *why = err ? strerror(-err) : "";

	if (o->no_check) {
		printf("%s %.4s %dx%d: %d frames, centre luma %.1f -> %.1f%s%s%s\n",
		       o->dev, (const char *)&o->fourcc, o->w, o->h,
		       st->checked, st->luma0, st->luma,
		       !o->until_focus ? ""
		       : st->focus == V4L2_AUTO_FOCUS_STATUS_REACHED
			       ? ", focus reached"
			       : ", focus not reached",
		       by, why);
		return;
	}
	printf("%s %.4s %dx%d %s: %d frames checked, %d bad, %d with lost "
	       "packets, %d repeated (%ld losses reported), seq %u..%u "
	       "(%d skipped), min %.1f dB, %.1f fps%s%s%s\n",
	       o->dev, (const char *)&o->fourcc, o->w, o->h,
	       o->read_io ? "read" : "mmap", st->checked, st->bad, st->lost,
	       st->repeated, st->loss.count - st->loss.at0, st->first_seq,
	       st->last_seq, st->skipped, st->min_psnr,
	       t > 0 ? st->checked / t : 0.0,
	       !err && !o->until_error && good(st) < o->frames &&
			       st->bad <= o->bad_ok
		       ? ", too few good frames in time"
		       : "",
	       by, why);
	if (o->replug)
		printf("  replug: the pictures started again %d times; buffer "
		       "sequence %d jumps (largest %u), %d steps back; %d "
		       "good frames before, %d after\n",
		       st->restarts, st->seq_jumps, st->max_jump, st->seq_back,
		       st->good_before, st->good_after);
	if (st->orig)
		printf("  the original libv4lconvert: %d of %d frames the same "
		       "(%.4s%s), mean difference at most %.3f, %d refused "
		       "by ours\n",
		       st->identical, st->checked, (const char *)&st->cmp,
		       st->cmp == V4L2_PIX_FMT_RGB24 ? " inside the border"
						     : "",
		       st->max_mad, st->retried);
}

/* --replug: the pictures started again, good frames before and after. */
static int replugged_ok(const struct state *st, int after)
{
	return st->restarts == 1 && st->good_before > 0 &&
	       st->good_after >= after;
}

/* --replug: the format after the replug is still the one set. */
static int same_format(int fd, const struct opts *o)
{
	struct v4l2_format f = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };

	if (xioctl(fd, VIDIOC_G_FMT, &f) == 0 &&
	    f.fmt.pix.pixelformat == o->fourcc &&
	    (int)f.fmt.pix.width == o->w && (int)f.fmt.pix.height == o->h)
		return 1;
	fprintf(stderr, "usbcheck: the format after the replug: %.4s %ux%u\n",
		(const char *)&f.fmt.pix.pixelformat, f.fmt.pix.width,
		f.fmt.pix.height);
	return 0;
}

int main(int argc, char **argv)
{
	struct opts o;
	struct state st = { .min_psnr = 99.0 };
	size_t sizeimage = 0;
	uint32_t bpl = 0;
	double t0, t;
	int fd, err, fmt_ok = 1;

	if (parse_args(argc, argv, &o)) {
		fprintf(stderr, "usage: usbcheck [--fmt F] [--size WxH] "
				"[--io mmap|read] [--frames N] ... DEVICE\n");
		return 2;
	}
	losses_from_env(&o);
	st.o = &o;
	losses_open(&st.loss, &o);
	st.loss.at0 = losses_poll(&st.loss);
	for (int i = 0; i < LOSS_WINDOW; i++)
		st.loss.at[i] = st.loss.at0;
	if (o.loss_count) {
		printf("%ld\n", st.loss.at0);
		return 0;
	}
	st.cmp = o.fourcc;
	st.esize = v4lc_vcam_sizeimage(o.fourcc, o.w, o.h);
	st.expect = malloc(st.esize ? st.esize : 1);
	if (o.file) {
		err = check_file(&st);
		printf("%s %.4s %dx%d: %d frames checked, %d bad, %d with lost "
		       "packets, %d repeated (%ld losses reported while it "
		       "was written), seq %u..%u (%d skipped), min %.1f dB\n",
		       o.file, (char *)&o.fourcc, o.w, o.h, st.checked, st.bad,
		       st.lost, st.repeated,
		       o.loss_mark >= 0 ? st.loss.count - o.loss_mark : 0L,
		       st.first_seq, st.last_seq, st.skipped, st.min_psnr);
		if (o.replug)
			printf("  replug: the pictures started again %d times; "
			       "%d good frames before, %d after\n",
			       st.restarts, st.good_before, st.good_after);
		return err || good(&st) < o.frames || st.bad > o.bad_ok ||
		       (o.replug && !replugged_ok(&st, 1));
	}
	fd = open_device(&o);
	if (fd < 0 || !st.expect) {
		fprintf(stderr, "usbcheck: %s: %s\n", o.dev, strerror(errno));
		return 1;
	}
	err = set_format(fd, &o, &sizeimage, &bpl);
	st.interval = frame_interval(fd);
	if (!err && o.original &&
	    (err = setup_original(&st, bpl, sizeimage)) == 77) {
		v4l2_close(fd);
		return 77;
	}
	t0 = now_s();
	st.t_end = t0 + o.deadline;
	if (!err)
		err = o.read_io ? capture_read(fd, &st, sizeimage)
				: capture_mmap(fd, &st, sizeimage);
	t = now_s() - t0;
	if (!err && o.replug)
		fmt_ok = same_format(fd, &o);
	v4l2_close(fd);
	report(&st, err, t);
	usbcheck_original_close(st.orig);
	if (o.until_error)
		return err ? 0 : 1;
	losses_close(&st.loss);
	/* frames that lost packets on the way do not count, but a loss
	 * must have been reported for each (check_frame) */
	if (err || (!o.replug && good(&st) < o.frames) || st.bad > o.bad_ok ||
	    (st.orig && st.identical < st.checked))
		return 1;
	if (o.replug && (!replugged_ok(&st, o.frames) || st.seq_back ||
			 !st.seq_jumps || !fmt_ok))
		return 1;
	return 0;
}
