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
 *   or push a value out of range. Values are single aligned 32-bit words
 *   read and written atomically; there is no other shared state.
 * - A device without bus_info has no stable name: private values; so has
 *   the virtual camera (tests must not share settings through it).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
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

struct v4lc_ctrl_shm {
	uint32_t magic;   /* written last by the creator */
	uint32_t version;
	uint32_t slots;   /* V4LC_SHM_SLOTS */
	uint32_t reserved;
	int32_t value[V4LC_SHM_SLOTS];
};

_Static_assert(sizeof(struct v4lc_ctrl_shm) <= V4LC_SHM_SIZE, "shm layout");
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
	v4lc_hwinfo_read(data->fd, &hw);
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

static struct v4lc_ctrl_shm *map_fd(int fd)
{
	void *p = mmap(NULL, V4LC_SHM_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
		       fd, 0);

	return p == MAP_FAILED ? NULL : p;
}

static struct v4lc_ctrl_shm *create(struct v4lconvert_data *data,
				    const char *name, int fd)
{
	struct v4lc_ctrl_shm *s;

	if (fchmod(fd, 0600) || ftruncate(fd, V4LC_SHM_SIZE) ||
	    !(s = map_fd(fd))) {
		shm_unlink(name);
		return NULL;
	}
	s->version = V4LC_SHM_VERSION;
	s->slots = V4LC_SHM_SLOTS;
	for (int i = 0; i < V4LC_FAKE_CONTROLS; i++)
		__atomic_store_n(&s->value[i], data->fake_value[i],
				 __ATOMIC_RELAXED);
	__atomic_store_n(&s->magic, V4LC_SHM_MAGIC, __ATOMIC_RELEASE);
	return s;
}

/* An existing object: used only when it is ours, private and sane. */
static struct v4lc_ctrl_shm *attach(int fd)
{
	struct v4lc_ctrl_shm *s = NULL;
	struct stat st;

	/*
	 * The creator may be between shm_open and ftruncate, or publishing:
	 * wait up to half a second before calling the object stale.
	 */
	for (int tries = 0; tries < 100; tries++, pause_ms(5)) {
		if (fstat(fd, &st) || !S_ISREG(st.st_mode) ||
		    st.st_uid != geteuid() || (st.st_mode & 077))
			return NULL;
		if (st.st_size == 0)
			continue;
		if (st.st_size != V4LC_SHM_SIZE)
			return NULL;
		if (!s && !(s = map_fd(fd)))
			return NULL;
		if (__atomic_load_n(&s->magic, __ATOMIC_ACQUIRE) ==
		    V4LC_SHM_MAGIC)
			break;
	}
	if (s && (__atomic_load_n(&s->magic, __ATOMIC_ACQUIRE) != V4LC_SHM_MAGIC ||
		  s->version != V4LC_SHM_VERSION ||
		  s->slots != V4LC_SHM_SLOTS)) {
		munmap(s, V4LC_SHM_SIZE);
		s = NULL;
	}
	return s;
}

/* Our object, private, but with a header we do not know (see attach). */
static int stale(int fd)
{
	struct stat st;

	return !fstat(fd, &st) && S_ISREG(st.st_mode) &&
	       st.st_uid == geteuid() && !(st.st_mode & 077);
}

void v4lc_ctrlstore_open(struct v4lconvert_data *data)
{
	char name[256];
	int fd;

	if (!shm_name(data, name, sizeof(name)))
		return;
	fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
		      0600);
	if (fd >= 0) {
		data->shared = create(data, name, fd);
	} else if (errno == EEXIST) {
		fd = shm_open(name, O_RDWR | O_CLOEXEC | O_NOFOLLOW, 0);
		if (fd >= 0 && !(data->shared = attach(fd)) && stale(fd)) {
			/* ours but never initialised (creator died): replace */
			close(fd);
			shm_unlink(name);
			fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC |
					    O_NOFOLLOW, 0600);
			if (fd >= 0)
				data->shared = create(data, name, fd);
		}
	}
	if (fd >= 0)
		close(fd);
}

void v4lc_ctrlstore_close(struct v4lconvert_data *data)
{
	if (data->shared)
		munmap(data->shared, V4LC_SHM_SIZE);
	data->shared = NULL;
}

int32_t v4lc_ctrlstore_load(const struct v4lconvert_data *data, int i)
{
	return __atomic_load_n(&data->shared->value[i], __ATOMIC_RELAXED);
}

void v4lc_ctrlstore_store(struct v4lconvert_data *data, int i, int32_t value)
{
	__atomic_store_n(&data->shared->value[i], value, __ATOMIC_RELAXED);
}
