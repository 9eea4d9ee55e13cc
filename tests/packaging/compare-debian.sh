#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# compare-debian.sh: does our installed tree hold every path that the
# distribution's libv4l packages (libv4l-0, libv4lconvert0, libv4l-dev) ship
# and programs use, and is the rest of it where its users look?
#   compare-debian.sh --root DIR [--prefix PREFIX] [--orig DEBDIR]
#   compare-debian.sh --debs DEBDIR [--orig DEBDIR]
# --root: an installed tree (meson install --destdir DIR) under PREFIX
# (default /usr); --debs: our binary packages, unpacked (prefix /usr), whose
# control data are checked as well (Provides, Conflicts, Replaces,
# Multi-Arch, symbols). Debian's file lists come from dpkg -L when its
# packages are installed, else from its .debs in --orig.
#
# Debian's paths map to ours by replacing /usr with PREFIX; every one must
# exist except those listed in `excluded` below, each with its reason.
# Also checked: the SONAMEs, the development links, the pkg-config files,
# a man page for every command, the systemd user units in a directory
# systemd searches (under /usr and /usr/local; in PREFIX/lib/systemd/user
# under any other prefix, which systemd does not search). Prints the comparison, then PASS/FAIL lines and
# "N passed, N failed"; exits 77 when Debian's lists are not available.
set -uo pipefail

arch=$(dpkg --print-architecture)
DEBIAN_PKGS="libv4l-0:$arch libv4lconvert0:$arch libv4l-dev:$arch"
root= prefix=/usr debs= orig=
while [ $# -gt 0 ]; do
	case $1 in
	--root) root=$2; shift 2 ;;
	--prefix) prefix=$2; shift 2 ;;
	--debs) debs=$2; shift 2 ;;
	--orig) orig=$2; shift 2 ;;
	*) echo "usage: $0 --root DIR [--prefix P] | --debs DIR [--orig DIR]" >&2
	   exit 2 ;;
	esac
done
[ -n "$root$debs" ] || { echo "$0: --root or --debs is needed" >&2; exit 2; }

pass=0 fail=0
ok() { echo "PASS $*"; pass=$((pass + 1)); }
ko() { echo "FAIL $*"; fail=$((fail + 1)); }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/compare-debian.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# ------------------------------------------------------------ Debian's list
# Installed and really Debian's (our packages provide these names but are
# not called so, so dpkg -L fails for them once ours are installed).
if dpkg-query -W -f '${db:Status-Status}\n' $DEBIAN_PKGS 2>/dev/null |
		grep -cx installed | grep -qx 3; then
	dpkg -L $DEBIAN_PKGS >"$tmp/debian.list" 2>/dev/null
	for p in $(cat "$tmp/debian.list"); do
		[ -d "$p" ] && ! [ -L "$p" ] && echo "$p"
	done >"$tmp/debian.dirs"
	origin="dpkg -L $DEBIAN_PKGS"
	debian_installed=1
elif [ -n "$orig" ] && ls "$orig"/*.deb >/dev/null 2>&1; then
	for p in $DEBIAN_PKGS; do
		deb=$(ls "$orig/${p%:*}"_*_"$arch".deb 2>/dev/null | head -n 1)
		[ -n "$deb" ] || { echo "no $p .deb in $orig: skipped"; exit 77; }
		dpkg-deb -c "$deb"
	done >"$tmp/contents"
	awk '{ p = $6; sub(/^\./, "", p); sub(/\/$/, "", p);
	       if (p == "") p = "/."; print p }' "$tmp/contents" >"$tmp/debian.list"
	awk '$1 ~ /^d/ { p = $6; sub(/^\./, "", p); sub(/\/$/, "", p);
	       if (p == "") p = "/."; print p }' "$tmp/contents" >"$tmp/debian.dirs"
	origin="the .debs in $orig"
else
	echo "Debian's $DEBIAN_PKGS are neither installed nor given (--orig): skipped"
	exit 77
fi
grep -v '^$' "$tmp/debian.list" | sort -u -o "$tmp/debian.list"

# ------------------------------------------------------------ our tree
if [ -n "$debs" ]; then
	prefix=/usr
	root=$tmp/ours
	mkdir -p "$root"
	n=0
	for deb in "$debs"/*.deb; do
		[ -f "$deb" ] || continue
		dpkg-deb -x "$deb" "$root" || { ko "cannot unpack $deb"; continue; }
		n=$((n + 1))
	done
	[ $n -gt 0 ] || { echo "no .deb in $debs"; exit 1; }
fi
root=${root%/}
ours() { echo "$root$prefix${1#/usr}"; }

# What programs never use, with the reason.
excluded() { # path -> reason, or nothing
	case $1 in
	/.) echo "the root directory" ;;
	/usr/share/doc | /usr/share/doc/*) echo "documentation" ;;
	/usr/share/lintian*) echo "Debian's lintian overrides" ;;
	*libv4l2rds*) echo "the RDS decoder, another library (Debian's libv4l2rds0 stays)" ;;
	*.a) echo "static library: ours are built shared only" ;;
	*/libv4lconvert0 | */libv4lconvert0/*)
		echo "the original's OV511/OV518 helper programs: ours decodes in process" ;;
	esac
}

echo "Debian's paths ($origin) in ours ($root$prefix):"
missing=0 present=0 skipped=0
while read -r p; do
	why=$(excluded "$p")
	if [ -n "$why" ]; then
		printf '  skip     %s  (%s)\n' "$p" "$why"
		skipped=$((skipped + 1))
		continue
	fi
	o=$(ours "$p")
	if grep -qxF "$p" "$tmp/debian.dirs" && ! [ -d "$o" ]; then
		printf '  MISSING  %s  (a directory)\n' "$p"
		missing=$((missing + 1))
	elif [ -e "$o" ] || [ -L "$o" ]; then
		printf '  ok       %s\n' "$p"
		present=$((present + 1))
	else
		printf '  MISSING  %s\n' "$p"
		missing=$((missing + 1))
	fi
done <"$tmp/debian.list"
if [ $missing = 0 ] && [ $present -gt 0 ]; then
	ok "all $present paths programs use are there ($skipped not used by programs)"
else
	ko "$missing of $((present + missing)) paths programs use are missing"
fi

# ------------------------------------------------------------ libraries
libdir=
for p in $(grep -E '/libv4l2\.so\.0$' "$tmp/debian.list"); do
	libdir=$(dirname "$(ours "$p")")
done
if [ -z "$libdir" ]; then
	ko "Debian's list names no libv4l2.so.0"
else
	for lib in libv4l1 libv4l2 libv4lconvert; do
		so=$(readelf -d "$libdir/$lib.so.0" 2>/dev/null |
			sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
		dev=$(readelf -d "$(readlink -f "$libdir/$lib.so")" 2>/dev/null |
			sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
		if [ "$so" = "$lib.so.0" ] && [ "$dev" = "$lib.so.0" ]; then
			ok "$lib.so.0 and the link $lib.so: SONAME $so"
		else
			ko "$lib: SONAME '${so:-none}', $lib.so leads to '${dev:-nothing}'"
		fi
	done
	for shim in v4l2convert.so v4l1compat.so plugins/libv4l-mplane.so; do
		if grep -q DYN <<<"$(readelf -h "$libdir/libv4l/$shim" 2>/dev/null)"; then
			ok "libv4l/$shim is a shared object"
		else
			ko "libv4l/$shim is not a shared object"
		fi
	done
	pcdir=$libdir/pkgconfig
	# The installed .pc files name PREFIX, which is not where the tree
	# is: only resolvability and the flags' shape are checked.
	if flags=$(PKG_CONFIG_LIBDIR=$pcdir pkg-config --cflags --libs \
			libv4l1 libv4l2 libv4lconvert 2>&1) &&
		grep -q -- -lv4l2 <<<"$flags" &&
		grep -q -- -lv4lconvert <<<"$flags"; then
		ok "pkg-config libv4l1 libv4l2 libv4lconvert: $flags"
	else
		ko "pkg-config on our .pc files: $flags"
	fi
fi

# ------------------------------------------------------------ commands
bins=$(ls "$root$prefix/bin" 2>/dev/null)
nman=0
for b in $bins; do
	page=$(ls "$root$prefix/share/man/man1/$b.1"* 2>/dev/null | head -n 1)
	if [ -z "$page" ]; then
		ko "$b has no man page"
		continue
	fi
	nman=$((nman + 1))
done
[ -n "$bins" ] && [ $nman = "$(echo "$bins" | wc -w)" ] &&
	ok "every command has a man page: $(echo $bins)"
pages=$(ls "$root$prefix/share/man/man"[1-8]/* 2>/dev/null)
if ls "$root$prefix/share/man/man7/libv4l.7"* >/dev/null 2>&1; then
	ok "libv4l(7) (the environment variables) is installed"
else
	ko "libv4l(7) is not installed"
fi
if command -v groff >/dev/null; then
	for page in $pages; do
		case $page in *.gz) cat="zcat" ;; *) cat="cat" ;; esac
		w=$($cat "$page" | LC_ALL=C.UTF-8 groff -man -ww -z -Tutf8 2>&1)
		if [ -n "$w" ]; then
			ko "$(basename "$page"): groff warns: $w"
		fi
	done
	[ -n "$pages" ] && ok "groff -ww: no warning in $(echo "$pages" | wc -w) man pages"
fi

# ------------------------------------------------------------ systemd units
# The units go to PREFIX/lib/systemd/user (src/server/meson.build). systemd
# searches that directory for the prefixes it knows (/usr, /usr/local):
# there each unit must be in its path. Under any other prefix ($HOME/.local,
# /opt/...) no directory of the prefix is in its path, which is expected:
# the units are only checked to be in the prefix, and a NOTE says how to
# make them known.
unitpath=$(pkg-config --variable=systemduserunitpath systemd 2>/dev/null)
[ -n "$unitpath" ] ||
	unitpath=/etc/systemd/user:/usr/local/lib/systemd/user:/usr/lib/systemd/user
unitdir=$prefix/lib/systemd/user
units=$(cd "$root" && find . -name '*.service' -o -name '*.socket' | sed 's/^\.//')
if [ -z "$units" ]; then
	ko "no systemd user units installed"
fi
case ":$unitpath:" in
*:"$unitdir":*) searched=1 ;;
*) searched=0
   [ -z "$units" ] || echo "NOTE $unitdir is not in systemd's user unit path" \
	"(prefix $prefix): systemctl --user link $unitdir/UNIT to use a unit" ;;
esac
for u in $units; do
	if [ $searched = 1 ]; then
		case ":$unitpath:" in
		*:"$(dirname "$u")":*) ok "systemd finds $u" ;;
		*) ko "$u is not in systemd's user unit path ($unitpath)" ;;
		esac
	elif [ "$(dirname "$u")" = "$unitdir" ]; then
		ok "$u is in the prefix's unit directory"
	else
		ko "$u is not in $unitdir"
	fi
done

# ------------------------------------------------------------ packages
if [ -n "$debs" ]; then
	# No RUNPATH or RPATH under /usr (Debian policy; lintian's
	# custom-library-search-path): src/meson.build sets install_rpath
	# only for a libdir the dynamic linker does not search.
	nelf=0 withrp=
	while read -r f; do
		readelf -h "$f" >/dev/null 2>&1 || continue
		nelf=$((nelf + 1))
		grep -qE '\((RUNPATH|RPATH)\)' <<<"$(readelf -d "$f" 2>/dev/null)" &&
			withrp="$withrp ${f#"$root"}"
	done < <(find "$root" -type f)
	if [ -z "$withrp" ] && [ $nelf -gt 0 ]; then
		ok "no RUNPATH or RPATH in the packages' $nelf ELF objects"
	else
		ko "a RUNPATH or RPATH in:${withrp:- (no ELF object found)}"
	fi
	. "$(dirname "$0")/control-checks.sh"
	control_checks "$debs"
fi

echo "$pass passed, $fail failed"
[ $fail = 0 ]
