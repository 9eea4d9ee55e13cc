/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "origlib.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__x86_64__) && defined(__ILP32__)
#define MULTIARCH "x86_64-linux-gnux32"
#elif defined(__x86_64__)
#define MULTIARCH "x86_64-linux-gnu"
#elif defined(__i386__)
#define MULTIARCH "i386-linux-gnu"
#elif defined(__aarch64__)
#define MULTIARCH "aarch64-linux-gnu"
#elif defined(__arm__) && defined(__ARM_PCS_VFP)
#define MULTIARCH "arm-linux-gnueabihf"
#elif defined(__arm__)
#define MULTIARCH "arm-linux-gnueabi"
#else
#define MULTIARCH "unknown"
#endif

const char origlib_default_path[] = "/usr/lib/" MULTIARCH "/libv4lconvert.so.0";

#if defined(__SANITIZE_ADDRESS__)
#define HAVE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HAVE_ASAN 1
#endif
#endif

#define FAKE_CARD "v4lc-origlib"

int origlib_open_path(struct origlib *o, const char *path, int flags)
{
	int dl = RTLD_NOW | RTLD_LOCAL;
	int quiet = flags & ORIGLIB_QUIET;

	memset(o, 0, sizeof(*o));
	o->path = path ? path : origlib_default_path;
#ifdef HAVE_ASAN
	if (flags & ORIGLIB_LINKED_WITH_OURS) {
		if (!quiet)
			printf("origlib: AddressSanitizer refuses "
			       "RTLD_DEEPBIND, which keeps the original apart "
			       "from ours: skipped\n");
		return -1;
	}
#else
	/* Keeps the original's references to its own symbols inside it. */
	dl |= RTLD_DEEPBIND;
#endif
	o->handle = dlopen(o->path, dl);
	if (!o->handle) {
		if (!quiet)
			printf("origlib: %s not available (%s): skipped\n",
			       o->path, dlerror());
		return -1;
	}
#define SYM(field, name)                                                       \
	do {                                                                   \
		*(void **)&o->field = dlsym(o->handle, name);                  \
		if (!o->field) {                                               \
			if (!quiet)                                            \
				printf("origlib: %s lacks %s\n", o->path,      \
				       name);                                  \
			origlib_close(o);                                      \
			o->path = path ? path : origlib_default_path;          \
			return -2;                                             \
		}                                                              \
	} while (0)
	SYM(create, "v4lconvert_create");
	SYM(create_with_dev_ops, "v4lconvert_create_with_dev_ops");
	SYM(destroy, "v4lconvert_destroy");
	SYM(try_format, "v4lconvert_try_format");
	SYM(enum_fmt, "v4lconvert_enum_fmt");
	SYM(convert, "v4lconvert_convert");
	SYM(get_error_message, "v4lconvert_get_error_message");
	SYM(s_ctrl, "v4lconvert_vidioc_s_ctrl");
	SYM(g_ctrl, "v4lconvert_vidioc_g_ctrl");
#undef SYM
	return 0;
}

int origlib_open(struct origlib *o, int linked_with_ours)
{
	return origlib_open_path(o, NULL,
				 linked_with_ours ? ORIGLIB_LINKED_WITH_OURS
						  : 0);
}

struct v4lconvert_data *origlib_create_plain(struct origlib *o)
{
	setenv("LIBV4LCONTROL_CONTROLS", "0", 1);
	return o->create(-1);
}

struct v4lconvert_data *origlib_open_plain(struct origlib *o, int flags)
{
	struct v4lconvert_data *data;

	if (origlib_open_path(o, NULL, flags))
		return NULL;
	data = origlib_create_plain(o);
	if (!data) {
		if (!(flags & ORIGLIB_QUIET))
			printf("origlib: no instance of %s: skipped\n",
			       o->path);
		origlib_close(o);
	}
	return data;
}

/* The fake device: a capture device with no formats and no controls. */
static int fake_ioctl(void *priv, int fd, unsigned long int request, void *arg)
{
	const struct origlib *o = priv;

	(void)fd;
	if (request == VIDIOC_QUERYCAP) {
		struct v4l2_capability *cap = arg;

		memset(cap, 0, sizeof(*cap));
		snprintf((char *)cap->driver, sizeof(cap->driver), "v4lc-test");
		snprintf((char *)cap->card, sizeof(cap->card), FAKE_CARD);
		memcpy(cap->bus_info, o->fake_bus, sizeof(cap->bus_info));
		cap->device_caps = V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING;
		cap->capabilities = cap->device_caps | V4L2_CAP_DEVICE_CAPS;
		return 0;
	}
	errno = request == VIDIOC_ENUM_FMT || request == VIDIOC_QUERYCTRL ||
				request == VIDIOC_ENUM_FRAMESIZES
			? EINVAL
			: ENOTTY;
	return -1;
}

static const struct libv4l_dev_ops fake_ops = { .ioctl = fake_ioctl };

/*
 * The shm objects the original made for our fake device: their names hold
 * ":<bus_info>:<card>".
 */
static void remove_fake_shm(const struct origlib *o)
{
	char key[sizeof(o->fake_bus) + sizeof(FAKE_CARD) + 2];
	struct dirent *e;
	DIR *d;

	if (!o->fake_bus[0])
		return;
	snprintf(key, sizeof(key), ":%s:" FAKE_CARD, o->fake_bus);
	d = opendir("/dev/shm");
	if (!d)
		return;
	while ((e = readdir(d))) {
		char p[512];

		if (strncmp(e->d_name, "libv4l-", 7) || !strstr(e->d_name, key))
			continue;
		snprintf(p, sizeof(p), "/dev/shm/%s", e->d_name);
		unlink(p);
	}
	closedir(d);
}

struct v4lconvert_data *origlib_create_flip(struct origlib *o)
{
	struct v4lconvert_data *data;

	if (!o->fake_bus[0]) {
		snprintf(o->fake_bus, sizeof(o->fake_bus),
			 "platform:v4lc-orig-%ld", (long)getpid());
		remove_fake_shm(o); /* a leftover of a dead run with our pid */
	}
	/* Read when the instance is created: bit 1 HFLIP, bit 2 VFLIP. */
	setenv("LIBV4LCONTROL_CONTROLS", "6", 1);
	unsetenv("LIBV4LCONTROL_FLAGS");
	data = o->create_with_dev_ops(-1, o, &fake_ops);
	unsetenv("LIBV4LCONTROL_CONTROLS");
	return data;
}

int origlib_set_flip(struct origlib *o, struct v4lconvert_data *data, int hflip,
		     int vflip)
{
	const struct {
		unsigned int id;
		int value;
	} want[2] = { { V4L2_CID_HFLIP, hflip }, { V4L2_CID_VFLIP, vflip } };
	struct v4l2_control c;

	for (int i = 0; i < 2; i++) {
		c.id = want[i].id;
		c.value = want[i].value;
		if (o->s_ctrl(data, &c))
			return -1;
	}
	for (int i = 0; i < 2; i++) {
		c.id = want[i].id;
		c.value = -1;
		if (o->g_ctrl(data, &c) || c.value != want[i].value)
			return -1;
	}
	return 0;
}

void origlib_close(struct origlib *o)
{
	if (o->handle)
		dlclose(o->handle);
	remove_fake_shm(o);
	memset(o, 0, sizeof(*o));
}
