#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# with-install.sh MESON BUILDDIR SCRIPT [ARGS...]: install the build into a
# scratch DESTDIR (meson install --no-rebuild), run
# `SCRIPT --root DESTDIR ARGS...` on it, remove the DESTDIR; SCRIPT's exit
# status is ours.
set -uo pipefail

meson=${1:?} builddir=${2:?} script=${3:?}
shift 3
destdir=$(mktemp -d "${TMPDIR:-/tmp}/libv4l-destdir.XXXXXX")
trap 'rm -rf "$destdir"' EXIT
if ! "$meson" install -C "$builddir" --no-rebuild --quiet \
		--destdir "$destdir" >"$destdir.log" 2>&1; then
	cat "$destdir.log"
	rm -f "$destdir.log"
	echo "meson install into $destdir failed"
	exit 1
fi
rm -f "$destdir.log"
bash "$script" --root "$destdir" "$@"
