/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Emulated control values shared by the programs of one user, per device,
 * in a POSIX shared memory object (as the original does, but safely):
 *
 *   /libv4lc-<euid>:<bus_info>:<vid>:<pid>:<card>   (USB cameras)
 *   /libv4lc-<euid>:<bus_info>:<card>               (others)
 *
 * with '/' and control characters replaced by '-'. Our own prefix keeps the
 * original library (another layout) out of our segments and us out of its.
 *
 * - Created with O_CREAT | O_EXCL, mode 0600 (fchmod: the umask cannot
 *   widen it, a sticky /dev/shm keeps others from replacing it). The creator
 *   sizes it, writes the values, and publishes the header last.
 * - An existing object is used only when it is a regular file of our euid,
 *   with no group/other permission bits, of exactly V4LC_SHM_SIZE bytes and
 *   with a valid header; otherwise this instance keeps its values to itself.
 * - Every value read from it is range-checked by the caller (controls.c):
 *   a hostile or corrupt segment can change settings, never crash a reader
 *   or push a value out of range. Values are single aligned 32-bit words;
 *   there is no other shared state.
 * - The segment is read and written with pread/pwrite on a descriptor kept
 *   open, never mapped: another process of the user can truncate it at any
 *   time, and a mapping would then fault (SIGBUS). A value beyond the end
 *   reads as the default; a write goes only to a segment of full size.
 *   All the values are read at once, into a snapshot (controls.c) that
 *   serves a whole frame: a system call per value would cost more than a
 *   small frame's conversion.
 * - A device without bus_info has no stable name: private values; so has
 *   the virtual camera (tests must not share settings through it).
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "priv.h"
#include "quirks.h"

#define V4LC_SHM_SIZE 4096
#define V4LC_SHM_MAGIC 0x6c746356u /* "Vctl" */
#define V4LC_SHM_VERSION 1u
#define V4LC_SHM_SLOTS 16

/* The segment's layout. */
struct ctrl_layout {
	uint32_t magic; /* written last by the creator */
	uint32_t version;
	uint32_t slots; /* V4LC_SHM_SLOTS */
	uint32_t reserved;
	int32_t value[V4LC_SHM_SLOTS];
};

#define HEADER_SIZE offsetof(struct ctrl_layout, value)
#define VALUE_OFF(i) ((off_t)(HEADER_SIZE + (size_t)(i) * sizeof(int32_t)))

/* What an instance holds (data->shared): the segment's descriptor. */
struct v4lc_ctrl_shm {
	int fd;
};

_Static_assert(sizeof(struct ctrl_layout) <= V4LC_SHM_SIZE, "shm layout");
_Static_assert(V4LC_FAKE_CONTROLS <= V4LC_SHM_SLOTS, "shm slots");

static void append_clean(char *dst, size_t len, const char *src, size_t max)
{
	size_t n = strlen(dst);

	for (size_t k = 0; k < max && src[k] && n + 1 < len; k++) {
		unsigned char c = (unsigned char)src[k];

		dst[n++] = (c == '/' || c < 0x20 || c == 0x7f) ? '-' : (char)c;
	}
	dst[n] = '\0';
}

/* The object's name for this device, or 0 when it has none. */
static int shm_name(struct v4lconvert_data *data, char *name, size_t len)
{
	struct v4l2_capability cap;
	struct v4lc_hwinfo hw;
	char num[48];

	memset(&cap, 0, sizeof(cap));
	if (v4lc_dev_ioctl(data, VIDIOC_QUERYCAP, &cap) || !cap.bus_info[0])
		return 0;
	/*
	 * The built-in virtual camera (src/vcam) is every test's camera: its
	 * settings stay private, so that one program's gamma or white balance
	 * never reaches another's frames.
	 */
	if (!strncmp((const char *)cap.driver, "v4l2-vcam", sizeof(cap.driver)))
		return 0;
	v4lc_hwinfo_read(data, &hw);
	snprintf(name, len, "/libv4lc-%u:", (unsigned)geteuid());
	append_clean(name, len, (const char *)cap.bus_info,
		     sizeof(cap.bus_info));
	if (hw.vendor) {
		snprintf(num, sizeof(num), ":%04x:%04x", hw.vendor, hw.product);
		append_clean(name, len, num, sizeof(num));
	}
	append_clean(name, len, ":", 1);
	append_clean(name, len, (const char *)cap.card, sizeof(cap.card));
	return 1;
}

static void pause_ms(int ms)
{
	struct timespec ts = { 0, ms * 1000000L };

	nanosleep(&ts, NULL);
}

/* The instance's handle on fd (kept open), or NULL (fd closed). */
static struct v4lc_ctrl_shm *hold(int fd)
{
	struct v4lc_ctrl_shm *s = malloc(sizeof(*s));

	if (!s) {
		close(fd);
		return NULL;
	}
	s->fd = fd;
	return s;
}

static int write_all(int fd, const void *buf, size_t n, off_t off)
{
	return pwrite(fd, buf, n, off) == (ssize_t)n ? 0 : -1;
}

/* The values, then the header with its magic last (attach waits for it). */
static struct v4lc_ctrl_shm *create(struct v4lconvert_data *data,
				    const char *name, int fd)
{
	struct ctrl_layout l;
	uint32_t magic = V4LC_SHM_MAGIC;

	memset(&l, 0, sizeof(l));
	l.version = V4LC_SHM_VERSION;
	l.slots = V4LC_SHM_SLOTS;
	memcpy(l.value, data->fake_value, sizeof(data->fake_value));
	if (fchmod(fd, 0600) || ftruncate(fd, V4LC_SHM_SIZE) ||
	    write_all(fd, &l, sizeof(l), 0) ||
	    write_all(fd, &magic, sizeof(magic), 0)) {
		shm_unlink(name);
		close(fd);
		return NULL;
	}
	return hold(fd);
}

/*
 * An existing object: used only when it is ours, private and sane; 1 when
 * it is (fd then belongs to the instance's handle).
 */
static int attach(struct v4lconvert_data *data, int fd)
{
	uint32_t h[4] = { 0 };
	struct stat st;

	/*
	 * The creator may be between shm_open and ftruncate, or publishing:
	 * wait up to half a second before calling the object stale.
	 */
	for (int tries = 0; tries < 100; tries++, pause_ms(5)) {
		if (fstat(fd, &st) || !S_ISREG(st.st_mode) ||
		    st.st_uid != geteuid() || (st.st_mode & 077))
			return 0;
		if (st.st_size == 0)
			continue;
		if (st.st_size != V4LC_SHM_SIZE)
			return 0;
		if (pread(fd, h, sizeof(h), 0) != (ssize_t)sizeof(h))
			return 0;
		if (h[0] == V4LC_SHM_MAGIC)
			break;
	}
	if (h[0] != V4LC_SHM_MAGIC || h[1] != V4LC_SHM_VERSION ||
	    h[2] != V4LC_SHM_SLOTS)
		return 0;
	data->shared = hold(fd);
	return 1;
}

/* Our object, private, but with a header we do not know (see attach). */
static int stale(int fd)
{
	struct stat st;

	return !fstat(fd, &st) && S_ISREG(st.st_mode) &&
	       st.st_uid == geteuid() && !(st.st_mode & 077);
}

/* The descriptor a handle keeps is the handle's (create/attach). */
void v4lc_ctrlstore_open(struct v4lconvert_data *data)
{
	const int flags = O_RDWR | O_CLOEXEC | O_NOFOLLOW;
	char name[256];
	int fd;

	if (!shm_name(data, name, sizeof(name)))
		return;
	fd = shm_open(name, flags | O_CREAT | O_EXCL, 0600);
	if (fd < 0 && errno == EEXIST) {
		fd = shm_open(name, flags, 0);
		if (fd < 0 || attach(data, fd))
			return;
		if (!stale(fd)) {
			close(fd);
			return;
		}
		/* ours but never initialised (creator died): replace */
		close(fd);
		shm_unlink(name);
		fd = shm_open(name, flags | O_CREAT | O_EXCL, 0600);
	}
	if (fd >= 0)
		data->shared = create(data, name, fd);
}

void v4lc_ctrlstore_close(struct v4lconvert_data *data)
{
	if (data->shared) {
		close(data->shared->fd);
		free(data->shared);
	}
	data->shared = NULL;
}

/*
 * The first n values in one read (one system call per frame, however many
 * of them the frame's processing consults). Beyond the end (truncated):
 * INT32_MIN, out of every control's range, which the caller reads as the
 * default.
 */
void v4lc_ctrlstore_load(const struct v4lconvert_data *data, int32_t *v, int n)
{
	ssize_t got = pread(data->shared->fd, v, (size_t)n * sizeof(*v),
			    VALUE_OFF(0));
	int k = got > 0 ? (int)((size_t)got / sizeof(*v)) : 0;

	for (; k < n; k++)
		v[k] = INT32_MIN;
}

/* Not into a cut segment: pwrite would extend it, a size attach refuses. */
void v4lc_ctrlstore_store(struct v4lconvert_data *data, int i, int32_t value)
{
	struct stat st;
	int fd = data->shared->fd;

	if (fstat(fd, &st) == 0 && st.st_size == V4LC_SHM_SIZE)
		write_all(fd, &value, sizeof(value), VALUE_OFF(i));
}
