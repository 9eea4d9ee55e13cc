/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Why a camera is treated as it is, for v4l2-doctor (private_api.h). */
#include <stdlib.h>
#include <string.h>

#include "dispatch/cpu.h"
#include "priv.h"
#include "private_api.h"
#include "quirks.h"

void v4lc_quirk_report(struct v4lconvert_data *data,
		       struct v4lc_quirk_report *r)
{
	const char *env = secure_getenv("LIBV4LCONTROL_FLAGS");
	struct v4lc_quirk_origin o;
	struct v4lc_hwinfo hw;
	struct v4lc_quirk q;

	memset(r, 0, sizeof(*r));
	r->driver_flags = v4lc_driver_flips(data);
	v4lc_hwinfo_read(data, &hw);
	r->vendor = hw.vendor;
	r->product = hw.product;
	if (v4lc_quirk_lookup(&hw, &q, &o)) {
		r->matched = 1;
		r->rule_flags = q.flags;
		r->rule_gamma = q.gamma;
		memcpy(r->rule_file, o.file, sizeof(r->rule_file));
		r->rule_line = o.line;
		memcpy(r->rule, o.rule, sizeof(r->rule));
	}
	r->env_override = env && *env;
	r->flags = data->quirks;
}

const char *v4lc_simd_tier(void)
{
	return v4lc_cpu_tier_name(v4lc_cpu_flags());
}
