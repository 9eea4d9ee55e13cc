/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* proc statistics with SSE2: src/x86/proc_tmpl.h on 16-byte vectors. */
#include <emmintrin.h>

#define VEC_BITS 128
#include "x86/vec.h"
#include "x86/proc_tmpl.h"
