#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# check-once.sh ARCHIVE LIBRARY "STATE..." BINARY...
# One copy of an internal library per process: every global symbol of the
# static ARCHIVE, and the named STATE (its statics, and entry points that
# must be there), is defined in LIBRARY and in none of the BINARY files,
# which reach them through LIBRARY's private version node. Used for the
# kernels (src/meson.build's v4lc_kernels: the kernels, their dispatch,
# the frame layer and the JPEG decoders, in libv4lconvert.so) and for the
# frame server's protocol (src/protocol, in libv4l2.so).
archive=$1 conv=$2 state=$3
shift 3
nm=${NM:-nm}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# Global definitions of the archive, plus the state.
# i386's PIC helpers (__x86.get_pc_thunk.*) are hidden copies in every
# object, not kernels.
{ $nm --defined-only "$archive" 2>/dev/null |
	awk 'NF == 3 && $2 ~ /^[TDRB]$/ && $3 !~ /^__x86\.get_pc_thunk\./ {print $3}'
  printf '%s\n' $state; } | sort -u > "$tmp/kernels"
defined() {
	$nm --defined-only "$1" | awk 'NF == 3 {print $3}' | sed 's/@.*//' |
		sort -u | comm -12 - "$tmp/kernels"
}

count=$(wc -l < "$tmp/kernels")
if [ "$count" -lt 10 ]; then
	echo "$archive: only $count symbols found: wrong archive?"
	exit 1
fi
# The reference holds them, or the check would prove nothing.
defined "$conv" > "$tmp/conv"
for s in $state; do
	if ! grep -qx "$s" "$tmp/conv"; then
		echo "$conv: $s missing"
		exit 1
	fi
done
echo "$conv: $(wc -l < "$tmp/conv") of $count symbols"
status=0
for bin in "$@"; do
	defined "$bin" > "$tmp/dup"
	if [ -s "$tmp/dup" ]; then
		echo "$bin: $(wc -l < "$tmp/dup") symbols, a second" \
			"copy:" $(head -20 "$tmp/dup")
		status=1
	else
		echo "$bin: none"
	fi
done
exit $status
