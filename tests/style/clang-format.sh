#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Every C file of the tree in the house style (.clang-format). The style
# file is written for Debian 12's clang-format 14; other versions lay some
# constructs out differently, so the check runs with that version only.
# Usage: clang-format.sh SOURCE_ROOT
root=${1:?usage: $0 SOURCE_ROOT}
cf=$(command -v clang-format-14 || true)
if [ -z "$cf" ]; then
	echo "clang-format-14 not installed (scripts/install-deps.sh): skipped"
	exit 77
fi
cd "$root" || exit 1
files=$(find src tests bench tools include -name '*.[ch]' | sort)
[ -n "$files" ] || { echo "no C files under $root"; exit 1; }
log=$(mktemp) || exit 1
trap 'rm -f "$log"' EXIT
# shellcheck disable=SC2086 # the names have no spaces
if ! "$cf" --dry-run --Werror $files 2>"$log"; then
	grep -E 'warning:|error:' "$log" | cut -d: -f1 | sort | uniq -c
	echo "not in the house style: run clang-format-14 -i on the files above"
	exit 1
fi
echo "$(echo "$files" | wc -l) files in the house style"
