#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# check-kernels.sh KERNEL_ARCHIVE LIBV4LCONVERT BINARY...
# One copy of the kernels per process: every global symbol of the kernel
# archive (src/meson.build's v4lc_kernels: the kernels, their dispatch, the
# frame layer and the JPEG decoders), and the dispatch state itself
# (dsp_tables, cpu_flags), is defined in libv4lconvert.so and in none of the
# other binaries, which reach them through its private entry points.
archive=$1 conv=$2
shift 2
nm=${NM:-nm}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# Global definitions of the archive, plus the two statics of the state.
# i386's PIC helpers (__x86.get_pc_thunk.*) are hidden copies in every
# object, not kernels.
{ $nm --defined-only "$archive" 2>/dev/null |
	awk 'NF == 3 && $2 ~ /^[TDRB]$/ && $3 !~ /^__x86\.get_pc_thunk\./ {print $3}'
  printf 'dsp_tables\ncpu_flags\n'; } | sort -u > "$tmp/kernels"
defined() {
	$nm --defined-only "$1" | awk 'NF == 3 {print $3}' | sed 's/@.*//' |
		sort -u | comm -12 - "$tmp/kernels"
}

count=$(wc -l < "$tmp/kernels")
if [ "$count" -lt 50 ]; then
	echo "$archive: only $count kernel symbols found: wrong archive?"
	exit 1
fi
# The reference holds them, or the check would prove nothing.
defined "$conv" > "$tmp/conv"
for s in dsp_tables v4lc_dsp_get v4lc_dsp_init; do
	if ! grep -qx "$s" "$tmp/conv"; then
		echo "$conv: $s missing"
		exit 1
	fi
done
echo "$conv: $(wc -l < "$tmp/conv") of $count kernel symbols"
status=0
for bin in "$@"; do
	defined "$bin" > "$tmp/dup"
	if [ -s "$tmp/dup" ]; then
		echo "$bin: $(wc -l < "$tmp/dup") kernel symbols, a second" \
			"copy:" $(head -20 "$tmp/dup")
		status=1
	else
		echo "$bin: none"
	fi
done
exit $status
