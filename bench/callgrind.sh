#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Instruction counts, stable on a noisy machine:
#  1. callgrind: one frame conversion of each kind (bench/icount, 640x480)
#     through our public API at the scalar, SSE2 and AVX2 tiers and through
#     the distribution's libv4lconvert: instructions per pixel of the whole
#     conversion, and the kernels (functions) that execute most of them;
#  2. NEON (not timeable here: qemu): the inner loops of src/neon/*.c in the
#     aarch64 cross build's objects against those of src/sse2/*.c in the
#     native one, from the disassembly (bench/loops.py).
# Writes bench/results/instructions.md.
#
#   bench/callgrind.sh [--builddir=DIR] [--a64-builddir=DIR]
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
build=$top/build-compare
build64=$top/build-compare-a64
for arg in "$@"; do
	case "$arg" in
	--builddir=*) build=${arg#--builddir=} ;;
	--a64-builddir=*) build64=${arg#--a64-builddir=} ;;
	*) echo "usage: $0 [--builddir=DIR] [--a64-builddir=DIR]" >&2; exit 2 ;;
	esac
done
out=$top/bench/results
mkdir -p "$out"
tmp=$(mktemp -d /tmp/v4lc-callgrind.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

[ -d "$build" ] || meson setup --buildtype=release "$build" "$top" >/dev/null
ninja -C "$build" -j2 >/dev/null
if [ ! -x "$build/bench/icount" ]; then
	echo "bench/icount not built (valgrind/callgrind.h missing?)" >&2
	exit 1
fi

for lib in scalar sse2 avx2 orig; do
	echo "== callgrind $lib" >&2
	if [ $lib = orig ]; then
		env -u LIBV4LCONVERT_SIMD valgrind --tool=callgrind --compress-strings=no \
			--callgrind-out-file="$tmp/cg.$lib" \
			"$build/bench/icount" --lib=orig >/dev/null 2>"$tmp/$lib.log"
	else
		LIBV4LCONVERT_SIMD=$lib valgrind --tool=callgrind --compress-strings=no \
			--callgrind-out-file="$tmp/cg.$lib" \
			"$build/bench/icount" --lib=ours >/dev/null 2>"$tmp/$lib.log"
	fi
done

# NEON: the aarch64 cross build (objects only are needed)
neon_objs=() sse2_objs=()
if command -v aarch64-linux-gnu-objdump >/dev/null &&
	[ -f "$top/cross/aarch64-linux-gnu.ini" ]; then
	[ -d "$build64" ] || meson setup --buildtype=release \
		--cross-file "$top/cross/aarch64-linux-gnu.ini" "$build64" "$top" >/dev/null
	ninja -C "$build64" -j2 src/libv4lc_neon.a >/dev/null || true
	mapfile -t neon_objs < <(find "$build64" -path '*neon_*.c.o' -name '*.o' | sort)
fi
mapfile -t sse2_objs < <(find "$build" -path '*sse2_*.c.o' -name '*.o' | sort)
for o in "${neon_objs[@]}"; do
	aarch64-linux-gnu-objdump -d --no-show-raw-insn "$o" >"$tmp/neon.$(basename "$o").dis"
done
for o in "${sse2_objs[@]}"; do
	objdump -d --no-show-raw-insn "$o" >"$tmp/sse2.$(basename "$o").dis"
done

python3 "$here/loops.py" "$tmp" "$(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo '?')" \
	>"$out/instructions.md"
echo "wrote $out/instructions.md" >&2
