/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "origlib.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__)
#define MULTIARCH "x86_64-linux-gnu"
#elif defined(__i386__)
#define MULTIARCH "i386-linux-gnu"
#elif defined(__aarch64__)
#define MULTIARCH "aarch64-linux-gnu"
#elif defined(__arm__)
#define MULTIARCH "arm-linux-gnueabihf"
#else
#define MULTIARCH "unknown"
#endif
#define ORIG_PATH "/usr/lib/" MULTIARCH "/libv4lconvert.so.0"

#if defined(__SANITIZE_ADDRESS__)
#define HAVE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HAVE_ASAN 1
#endif
#endif

int origlib_open(struct origlib *o, int linked_with_ours)
{
	int flags = RTLD_NOW | RTLD_LOCAL;

	memset(o, 0, sizeof(*o));
#ifdef HAVE_ASAN
	if (linked_with_ours) {
		printf("origlib: AddressSanitizer refuses RTLD_DEEPBIND, which "
		       "keeps the original apart from ours: skipped\n");
		return -1;
	}
#else
	flags |= RTLD_DEEPBIND;
#endif
	(void)linked_with_ours;
	o->handle = dlopen(ORIG_PATH, flags);
	if (!o->handle) {
		printf("origlib: %s not available (%s): skipped\n", ORIG_PATH,
		       dlerror());
		return -1;
	}
#define SYM(field, name)                                                     \
	do {                                                                 \
		*(void **)&o->field = dlsym(o->handle, name);                \
		if (!o->field) {                                             \
			printf("origlib: %s lacks %s\n", ORIG_PATH, name);   \
			origlib_close(o);                                    \
			return -1;                                           \
		}                                                            \
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

struct v4lconvert_data *origlib_create_plain(struct origlib *o)
{
	setenv("LIBV4LCONTROL_CONTROLS", "0", 1);
	return o->create(-1);
}

void origlib_close(struct origlib *o)
{
	if (o->handle)
		dlclose(o->handle);
	memset(o, 0, sizeof(*o));
}
