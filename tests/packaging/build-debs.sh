#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# build-debs.sh [OUTDIR]: build the Debian packages (debian/) of this tree
# into OUTDIR (default build-deb). The tree's files (tracked and new ones,
# not the ignored build directories) are copied to OUTDIR/src and built
# there with dpkg-buildpackage -b, which leaves the .debs in OUTDIR, not
# next to the tree. DEB_BUILD_OPTIONS defaults to "nocheck noddebs
# parallel=N": the test suites run from scripts/test-all.sh.
# Exit 77 when dpkg-buildpackage or debhelper is missing
# (scripts/install-deps.sh --deb).
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$top/build-deb}

for tool in dpkg-buildpackage dh; do
	command -v $tool >/dev/null || {
		echo "build-debs: $tool not installed (scripts/install-deps.sh --deb): skipped"
		exit 77
	}
done

mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -rf "$out/src" "$out"/*.deb "$out"/*.ddeb "$out"/*.buildinfo \
	"$out"/*.changes
mkdir "$out/src"
(cd "$top" && git ls-files -z --cached --others --exclude-standard |
	while IFS= read -r -d '' f; do
		[ -e "$f" ] && printf '%s\0' "$f"
	done | tar --null -T - -cf -) | tar -xf - -C "$out/src"

export DEB_BUILD_OPTIONS=${DEB_BUILD_OPTIONS:-"nocheck noddebs parallel=$(nproc)"}
start=$(date +%s.%N)
if ! (cd "$out/src" && dpkg-buildpackage -b -us -uc) >"$out/build.log" 2>&1; then
	tail -n 40 "$out/build.log"
	echo "build-debs: dpkg-buildpackage failed (log: $out/build.log)"
	exit 1
fi
end=$(date +%s.%N)
grep -E 'warning:' "$out/build.log" | grep -v '^dpkg-' | sort -u | head -n 20 || true
ls -1 "$out"/*.deb
awk -v a="$start" -v b="$end" \
	'BEGIN { printf "build-debs: built in %.0f s\n", b - a }'
