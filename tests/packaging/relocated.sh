#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# relocated.sh --root DESTDIR --prefix P --to NEWPREFIX SCRIPT [ARGS...]
# Moves the tree installed under DESTDIR/P to DESTDIR/NEWPREFIX and runs
# `SCRIPT --root DESTDIR --prefix NEWPREFIX ARGS...`: the checks of a tree
# installed under another prefix ($HOME/.local, /opt/...) without a build
# configured for it. The files name P inside (the .pc files, v4l2-run's
# default), which the checks run this way must not depend on. SCRIPT's exit
# status is ours.
set -uo pipefail

root= prefix= to=
while [ $# -gt 0 ]; do
	case $1 in
	--root) root=$2 ;;
	--prefix) prefix=$2 ;;
	--to) to=$2 ;;
	*) break ;;
	esac
	shift 2
done
script=${1:?}
shift
[ -n "$root" ] && [ -n "$prefix" ] && [ -n "$to" ] || {
	echo "usage: $0 --root D --prefix P --to NEWPREFIX SCRIPT [ARGS...]" >&2
	exit 2
}
if [ "$prefix" != "$to" ]; then
	mkdir -p "$(dirname "$root$to")" &&
		mv -T "$root$prefix" "$root$to" || exit 1
fi
bash "$script" --root "$root" --prefix "$to" "$@"
