#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# vm-debs.sh DEBDIR: our packages (DEBDIR/*.deb, from build-debs.sh)
# installed over Debian's in the vivid VM, Debian's programs run on them,
# then Debian's packages back (tests/vm/batch-debs.sh, run by
# tests/vm/vivid-vm.sh). Debian's .debs of the libv4l-0, libv4lconvert0 and
# libv4l-dev versions installed here (the guest's root is this machine's)
# are taken from apt's cache or fetched with apt-get download into
# DEBDIR/orig first, for the guest to reinstall. Exit 77 (skip) when they
# are not installed or cannot be had, or when the VM cannot run.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
debs=$(realpath "${1:?usage: vm-debs.sh DEBDIR}")
arch=$(dpkg --print-architecture)
orig=$debs/orig
mkdir -p "$orig"
for p in libv4l-0 libv4lconvert0 libv4l-dev; do
	v=$(dpkg-query -W -f '${Version}' "$p:$arch" 2>/dev/null)
	if [ -z "$v" ] || [ "$(dpkg-query -W -f '${db:Status-Status}' \
			"$p:$arch")" != installed ]; then
		echo "vm-debs: Debian's $p is not installed here: skipped"
		exit 77
	fi
	f=${p}_${v//:/%3a}_${arch}.deb
	[ -f "$orig/$f" ] && continue
	if [ -f "/var/cache/apt/archives/$f" ]; then
		cp "/var/cache/apt/archives/$f" "$orig/"
	elif ! (cd "$orig" && apt-get download -q "$p:$arch=$v") \
			>"$orig/download.log" 2>&1; then
		tail -n 3 "$orig/download.log"
		echo "vm-debs: cannot download $p $v: skipped"
		exit 77
	fi
done
${CC:-cc} -O2 -o "$debs/flipcheck" "$top/tests/vm/flipcheck.c" || exit 1
${CC:-cc} -O2 -o "$debs/clientcheck" "$top/tests/vm/clientcheck.c" \
	-lturbojpeg || exit 1
exec bash "$top/tests/vm/vivid-vm.sh" --timeout 560 \
	"$top/tests/vm/batch-debs.sh" "$debs" "$orig" "$debs/flipcheck" \
	"$debs/clientcheck"
