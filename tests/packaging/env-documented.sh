#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# env-documented.sh SRCDIR MANDIR: every environment variable the sources
# read (getenv, secure_getenv or v4lc_log_file_open with a literal name) is
# described in a man page. Prints the undocumented ones; ends with "N passed, N failed".
set -uo pipefail

src=${1:?} man=${2:?}
pass=0 fail=0 documented=
reads='((secure_)?getenv|v4lc_log_file_open)\('
names=$(grep -rhoE "$reads\"[A-Za-z_0-9]+\"" "$src" |
	sed 's/.*("//; s/"$//' | sort -u)
[ -n "$names" ] || { echo "FAIL no getenv call found in $src"; exit 1; }
for v in $names; do
	if grep -qw -- "$v" "$man"/*.[1-8]; then
		pass=$((pass + 1))
		documented="$documented $v"
	else
		echo "FAIL $v is read in $(grep -rlE "$reads\"$v\"" "$src" | xargs) but no man page describes it"
		fail=$((fail + 1))
	fi
done
echo "PASS $pass variables documented:$documented"
echo "$pass passed, $fail failed"
[ $fail = 0 ]
