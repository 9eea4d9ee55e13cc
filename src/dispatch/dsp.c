/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "dispatch/dsp.h"

#include <pthread.h>

void v4lc_dsp_init(struct v4lc_dsp *dsp, unsigned cpu_flags)
{
#define INIT_C(family) v4lc_##family##_init_c(&dsp->family);
#define INIT_ISA(family, isa, flags)                                           \
	if ((cpu_flags & (flags)) == (flags))                                  \
		v4lc_##family##_init_##isa(&dsp->family);
	V4LC_FAMILIES(INIT_C)
	V4LC_FAMILY_TIERS(INIT_ISA)
#undef INIT_C
#undef INIT_ISA
	(void)cpu_flags;
}

static struct v4lc_dsp dsp_tables;
static pthread_once_t dsp_once = PTHREAD_ONCE_INIT;

static void dsp_fill(void)
{
	v4lc_dsp_init(&dsp_tables, v4lc_cpu_flags());
}

const struct v4lc_dsp *v4lc_dsp_get(void)
{
	pthread_once(&dsp_once, dsp_fill);
	return &dsp_tables;
}
