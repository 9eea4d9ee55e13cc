/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What a preload shim claimed, by descriptor number (see shim.h): the
 * references the library holds (open + dup()s, as libv4l1 and libv4l2
 * count them) and the identity of the file at the claim. A number whose
 * file changed behind the shim's back is not claimed any more, though the
 * library holds its state until the number is closed or claimed again.
 * Each shim compiles this file in and has tables of its own.
 */
#include "shim.h"

#include <stdatomic.h>
#include <string.h>
#include <sys/stat.h>

static atomic_uint claimed[V4L_SHIM_MAX_FD];
static atomic_int any_claimed;

static struct {
	dev_t dev, rdev;
	ino_t ino;
} claimed_id[V4L_SHIM_MAX_FD];

/* Called before the claim is published (a release store): readers that
 * see the claim see the identity. */
static void remember(int fd)
{
	struct stat st;

	if (fstat(fd, &st) != 0)
		memset(&st, 0, sizeof(st));
	claimed_id[fd].dev = st.st_dev;
	claimed_id[fd].rdev = st.st_rdev;
	claimed_id[fd].ino = st.st_ino;
}

static int unchanged(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 && st.st_dev == claimed_id[fd].dev &&
	       st.st_rdev == claimed_id[fd].rdev &&
	       st.st_ino == claimed_id[fd].ino;
}

unsigned int v4l_shim_refs(int fd)
{
	return fd >= 0 && fd < V4L_SHIM_MAX_FD
		       ? atomic_load_explicit(&claimed[fd],
					      memory_order_acquire)
		       : 0;
}

int v4l_shim_is_claimed(int fd)
{
	return v4l_shim_refs(fd) && unchanged(fd);
}

int v4l_shim_any_claimed(void)
{
	return atomic_load(&any_claimed);
}

void v4l_shim_add_ref(int fd, int delta)
{
	if (fd < 0 || fd >= V4L_SHIM_MAX_FD)
		return;
	if (delta > 0) {
		if (atomic_load(&claimed[fd]) == 0)
			remember(fd);
		atomic_fetch_add_explicit(&claimed[fd], 1,
					  memory_order_acq_rel);
		atomic_store(&any_claimed, 1);
	} else {
		atomic_fetch_sub_explicit(&claimed[fd], 1,
					  memory_order_acq_rel);
	}
}

int v4l_shim_release_all(int fd)
{
	int r = 0;

	while (v4l_shim_refs(fd)) {
		v4l_shim_add_ref(fd, -1);
		r = LIB(v4l_shim_lib_close(fd));
	}
	return r;
}
