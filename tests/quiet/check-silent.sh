#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Run a (possibly cross-built) program through meson's exe wrapper and check
# what it prints. Default: stdout and stderr must both be empty.
# --expect-output: stdout must NOT be empty (negative control).
expect_output=0
if [ "$1" = "--expect-output" ]; then
	expect_output=1
	shift
fi
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
# MESON_EXE_WRAPPER is set by meson test for cross builds (qemu-user).
# shellcheck disable=SC2086
${MESON_EXE_WRAPPER:-} "$@" >"$out" 2>"$err"
rc=$?
echo "QEMU_CPU=${QEMU_CPU:-<native>} exit=$rc stdout=$(wc -c <"$out")B stderr=$(wc -c <"$err")B"
if [ $expect_output = 1 ]; then
	cat "$out"
	[ -s "$out" ] || { echo "control printed nothing: the silence test would prove nothing"; exit 1; }
	exit 0
fi
[ $rc = 0 ] || { echo "program failed"; cat "$err"; exit 1; }
if [ -s "$out" ] || [ -s "$err" ]; then
	echo "library printed something:"; cat "$out" "$err"; exit 1
fi
exit 0
