/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SSE2 chroma reshaping, 16 samples a step: src/x86/yuvlayout_tmpl.h. */
#include <emmintrin.h>

#define VEC_BITS 128
#include "x86/vec.h"
#include "x86/yuvlayout_tmpl.h"
