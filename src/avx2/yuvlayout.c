/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* AVX2 chroma reshaping, 32 samples a step: src/x86/yuvlayout_tmpl.h. */
#include <immintrin.h>

#define VEC_BITS 256
#include "x86/vec.h"
#include "x86/yuvlayout_tmpl.h"
