#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# runpath.sh --root DESTDIR --prefix P --bindir B --libdir L
# Do the installed libraries, shims, plugins and programs load our
# libraries, and does a program link against them, when the distribution's
# libraries of the same SONAMEs are installed too (Debian's libv4l-0 and
# libv4lconvert0: their libv4lconvert.so.0 lacks our private version node)?
#  - libdir one of the system's (/usr/lib/<triplet>, /usr/lib64...: the
#    Debian packages): no installed object has a RUNPATH or RPATH (Debian
#    forbids them there; the dynamic linker searches libdir anyway);
#  - any other (/usr/local, $HOME/.local, /opt/...), with no
#    LD_LIBRARY_PATH: each installed object that needs one of our
#    libraries finds ours (ldd), a program built with
#    `pkg-config --cflags --libs libv4l2` links, and run (with its own
#    -rpath to libdir) maps our libv4l2 and libv4lconvert; v4l2-run
#    preloads our shim, which maps ours, also from a copy of the tree
#    under a path with a space and a colon (v4l2-run's link); the
#    installed v4l2-doctor runs.
# The tree is at DESTDIR: the RUNPATHs are $ORIGIN-relative, and the .pc
# files are read with prefix=DESTDIR/P. Ends with "N passed, N failed".
# (grep -q reads from here-strings: at its first match it stops reading,
# and under pipefail the writer's SIGPIPE would fail a pipeline into it.)
set -uo pipefail

root= prefix= bindir= libdir=
while [ $# -gt 0 ]; do
	case $1 in
	--root) root=$2 ;;
	--prefix) prefix=$2 ;;
	--bindir) bindir=$2 ;;
	--libdir) libdir=$2 ;;
	*) echo "runpath.sh: unknown argument $1" >&2; exit 2 ;;
	esac
	shift 2
done
top=${root%/}$prefix
case $libdir in
/*) abslib=$libdir ;;
*) abslib=$prefix/$libdir ;;
esac
lib=$root$abslib
reallib=$(readlink -f "$lib")
unset LD_LIBRARY_PATH LD_PRELOAD LIBV4L2_SHARE
tmp=$(mktemp -d "${TMPDIR:-/tmp}/runpath.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

pass=0 fail=0
ok() { echo "PASS $*"; pass=$((pass + 1)); }
ko() { echo "FAIL $*"; fail=$((fail + 1)); }
dyn() { readelf -d "$1" 2>/dev/null; }
# The installed ELF objects, one per line.
find "$root" -type f | while read -r f; do
	[ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" = 177ELF ] && echo "$f"
done >"$tmp/elves"
echo "$(wc -l <"$tmp/elves") ELF objects installed under $top"

# A directory the toolchain searches by default: lib, lib64, lib32 or
# libx32 under / or /usr, optionally with a multiarch triplet.
if echo "$abslib" |
		grep -qxE '(/usr)?/lib(64|32|x32)?(/[^/]*-linux[^/]*)?/?'; then
	echo "libdir $abslib is one of the system's"
	n=0
	while read -r f; do
		if grep -qE '\((RUNPATH|RPATH)\)' <<<"$(dyn "$f")"; then
			ko "${f#"$root"}: $(dyn "$f" | grep -E '\((RUNPATH|RPATH)\)')"
			n=$((n + 1))
		fi
	done <"$tmp/elves"
	[ $n = 0 ] && ok "no RUNPATH or RPATH in the $(wc -l <"$tmp/elves") objects"
	echo "$pass passed, $fail failed"
	[ $fail = 0 ]
	exit
fi
echo "libdir $abslib is not one of the system's"
dpkg-query -W -f '${db:Status-Status}' libv4lconvert0 2>/dev/null |
	grep -qx installed ||
	echo "NOTE Debian's libv4lconvert0 is not installed: the link check" \
		"cannot meet its libv4lconvert.so.0"

# Each object that needs our libraries finds ours, and nothing of the
# build tree is left in its RUNPATH.
while read -r f; do
	name=${f#"$root"}
	needs=$(dyn "$f" | sed -n 's/.*(NEEDED).*\[\(libv4l[^]]*\)\]/\1/p')
	[ -n "$needs" ] || continue
	rp=$(dyn "$f" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p')
	# $ORIGIN-relative, or the libdir itself: never the build tree.
	for d in $(echo "$rp" | tr : ' '); do
		case $d in
		'$ORIGIN'* | "$abslib") ;;
		*) ko "$name: RUNPATH $rp has $d" ;;
		esac
	done
	# Where ld.so takes each of our libraries from, resolved.
	bad= n=0
	for dep in $needs; do
		got=$(ldd "$f" 2>/dev/null |
			sed -n "s/^[[:space:]]*$dep => \(.*\) (0x.*/\1/p")
		n=$((n + 1))
		[ -n "$got" ] && [ "$(readlink -f "$(dirname "$got")")" = "$reallib" ] ||
			bad="$bad $dep => ${got:-nothing}"
	done
	if [ -z "$bad" ]; then
		ok "$name (RUNPATH $rp) finds our $(echo $needs)"
	else
		ko "$name (RUNPATH '$rp') takes$bad"
	fi
done <"$tmp/elves"

# A program built with pkg-config, as a user does against this prefix.
cat >"$tmp/prog.c" <<'EOF'
#include <stdio.h>
#include <string.h>
#include <libv4l2.h>
/* Prints the path of each of our libraries mapped in this process. */
int main(void)
{
	char line[4096];
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f || v4l2_close(-1) != -1)
		return 1;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "/libv4l"))
			fputs(strchr(line, '/'), stdout);
	return 0;
}
EOF
pc() {
	PKG_CONFIG_LIBDIR=$lib/pkgconfig pkg-config \
		--define-variable=prefix="$top" "$@"
}
# Linked as pkg-config says, ld has to find libv4l2.so's libv4lconvert.so.0
# itself (through libv4l2.so's RUNPATH; else Debian's is first). To run it
# on this prefix, the program names libdir in its own RUNPATH (as a user
# would, or LD_LIBRARY_PATH), which does not reach libv4l2's dependencies.
if ! flags=$(pc --cflags --libs libv4l2 2>&1); then
	ko "pkg-config libv4l2: $flags"
elif ! out=$(${CC:-cc} -o "$tmp/prog" "$tmp/prog.c" $flags 2>&1); then
	ko "a program built with 'pkg-config --libs libv4l2' does not link:"
	echo "$out" | head -n 5 | sed 's/^/    /'
elif ! out=$(${CC:-cc} -o "$tmp/prog" "$tmp/prog.c" $flags \
		-Wl,-rpath,"$lib" 2>&1); then
	ko "with -Wl,-rpath,$lib it does not link: $out"
else
	ok "a program links with: $flags"
	maps=$("$tmp/prog" | sort -u)
	for so in libv4l2.so.0 libv4lconvert.so.0; do
		if grep -q "^$lib/$so" <<<"$maps"; then
			ok "it maps our $so"
		else
			ko "it maps no $so from $lib: $(echo $maps)"
		fi
	done
fi

# The launcher's shims, from the installed v4l2-run.
for shim in v4l2convert.so:libv4l2.so.0 v4l1compat.so:libv4l1.so.0; do
	opt=
	[ "${shim%%:*}" = v4l1compat.so ] && opt=--v4l1
	maps=$("$top/$bindir/v4l2-run" $opt cat /proc/self/maps 2>&1 |
		grep -o '/.*libv4l.*' | sort -u)
	for so in "libv4l/${shim%%:*}" "${shim#*:}" libv4lconvert.so.0; do
		if grep -q "^$lib/$so" <<<"$maps"; then
			ok "v4l2-run${opt:+ $opt}: the process maps our $so"
		else
			ko "v4l2-run${opt:+ $opt}: no $so from $lib in: $(echo $maps)"
		fi
	done
done

# The same from a copy under a path with a space and a colon: v4l2-run
# names it through its link, the shim's $ORIGIN is then the link's path.
case $libdir in
/*) ;;
*)
	odd="$tmp/a b:c/prefix"
	mkdir -p "$odd" "$tmp/run" && chmod 0700 "$tmp/run" && cp -a "$top/." "$odd/"
	maps=$(XDG_RUNTIME_DIR=$tmp/run "$odd/$bindir/v4l2-run" \
		cat /proc/self/maps 2>&1 | grep -o '/.*libv4l.*' | sort -u)
	for so in libv4l/v4l2convert.so libv4l2.so.0 libv4lconvert.so.0; do
		if grep -qF "$odd/$libdir/$so" <<<"$maps"; then
			ok "v4l2-run from 'a b:c/prefix': the process maps its $so"
		else
			ko "v4l2-run from 'a b:c/prefix': no $so from there in: $maps"
		fi
	done ;;
esac

# An installed program runs on the installed libraries and plugin.
if out=$(LIBV4L2_PLUGIN_DIR=$lib/libv4l/plugins \
		"$top/$bindir/v4l2-doctor" --camera YUYV 2>&1); then
	ok "the installed v4l2-doctor runs: $(echo "$out" | sed -n 2p)"
else
	ko "the installed v4l2-doctor: $(echo "$out" | head -n 3)"
fi

echo "$pass passed, $fail failed"
[ $fail = 0 ]
