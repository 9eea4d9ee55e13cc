/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Differences from the distribution's libv4l2 found by diff-libv4l2, each
 * explained in doc/libv4l2-differences.md (the row's number): { camera or
 * NULL for every camera, sequence, step } (struct known, libv4l2.c).
 */
static const struct known known[] = {
	/* 1: REQBUFS(MMAP)'s capabilities do not claim the refused USERPTR */
	{ NULL, "USERPTR before/after S_FMT",
	  "REQBUFS MMAP 0 caps before S_FMT" },
	{ NULL, "USERPTR before/after S_FMT",
	  "REQBUFS MMAP 0 caps after S_FMT" },
	{ NULL, "USERPTR, native", "REQBUFS MMAP 0 caps" },
	/* 2: an upside-down packed 4:2:2 camera keeps its format, flipped */
	{ "YUYV:640x480:flip=hv:nopace", "G_FMT first", "G_FMT" },
	{ "YUYV:640x480:flip=hv:nopace", "G_FMT first", "ENUM_FMT lists it" },
	{ "YUYV:640x480:flip=hv:nopace", "G_FMT first", "TRY_FMT of it" },
	{ "YUYV:640x480:flip=hv:nopace", "read after REQBUFS, native",
	  "S_FMT YUYV" },
	{ "YUYV:640x480:flip=hv:nopace", "read after REQBUFS, native",
	  "read after REQBUFS" },
	/* 3: read() into a buffer shorter than the frame: its first bytes */
	{ "S910:640x480:nopace", "read after REQBUFS, native",
	  "read after REQBUFS" },
	/* 4: read() after REQBUFS: EBUSY until REQBUFS 0, as the kernel */
	{ NULL, "read after REQBUFS", "read after REQBUFS" },
	{ "YUYV:640x480:nopace", "read after REQBUFS, native",
	  "read after REQBUFS" },
	/* 7: S_FMT with the program's buffers requested: EBUSY */
	{ NULL, "S_FMT while mapped", "S_FMT BGR3" },
	{ NULL, NULL, NULL },
};
