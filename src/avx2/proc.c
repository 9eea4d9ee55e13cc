/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* proc statistics with AVX2: src/x86/proc_tmpl.h on 32-byte vectors. */
#include <immintrin.h>

#define VEC_BITS 256
#include "x86/vec.h"
#include "x86/proc_tmpl.h"
