#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# launcher.sh --root DESTDIR --prefix P --bindir B --libdir L --client PROG
# v4l2-run as installed (DESTDIR/P/B/v4l2-run, which finds the shims under
# its own prefix through ld.so's ${LIB}):
#  - PROG v4l2 (plain V4L2 calls asking RGB24 of an MJPEG-only virtual
#    camera) works under v4l2-run and fails without it;
#  - PROG v4l1 (plain V4L1 calls) works under v4l2-run --v4l1 and fails
#    under plain v4l2-run (libv4l2 alone does not speak V4L1);
#  - an LD_PRELOAD already set stays first, the shim is appended;
#  - the PipeWire drop-in's LD_PRELOAD is the installed shim, and works;
#  - --share routes the camera through the installed frame server;
#  - --help, usage errors, `--` and the program's exit status;
#  - installed under a path with a space and a colon (LD_PRELOAD's
#    separators for ld.so): the shims are reached through v4l2-run's link
#    in XDG_RUNTIME_DIR, or v4l2-run refuses (exit 126) without a private
#    one;
#  - a 32-bit and a 64-bit program each load the shim of their own class
#    from the same LD_PRELOAD (when a 32-bit compiler is there), also
#    through that link.
# Ends with "N passed, N failed".
set -uo pipefail

root= prefix= bindir= libdir= client=
while [ $# -gt 0 ]; do
	case $1 in
	--root) root=$2 ;;
	--prefix) prefix=$2 ;;
	--bindir) bindir=$2 ;;
	--libdir) libdir=$2 ;;
	--client) client=$2 ;;
	*) echo "launcher.sh: unknown argument $1" >&2; exit 2 ;;
	esac
	shift 2
done
top=$root$prefix
run=$top/$bindir/v4l2-run
# The installed libraries, not a system copy of the same SONAMEs, and the
# installed plugins (the virtual camera): libv4l2's compiled-in plugin
# directory is the one without DESTDIR.
export LD_LIBRARY_PATH=$top/$libdir
export LIBV4L2_PLUGIN_DIR=$top/$libdir/libv4l/plugins
unset LD_PRELOAD LIBV4L2_SHARE
tmp=$(mktemp -d "${TMPDIR:-/tmp}/launcher.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

pass=0 fail=0
ok() { echo "PASS $*"; pass=$((pass + 1)); }
ko() { echo "FAIL $*"; fail=$((fail + 1)); }
expect() { # name want-status want-output-pattern command...
	local name=$1 want=$2 pat=$3 out st
	shift 3
	out=$("$@" 2>&1)
	st=$?
	# A here-string: under pipefail, echo's SIGPIPE when grep -q stops
	# at its first match would fail a pipeline.
	if [ "$st" = "$want" ] && grep -qE -- "$pat" <<<"$out"; then
		ok "$name: $(echo "$out" | head -n 1)"
	else
		ko "$name: exit $st (want $want), output:"
		echo "$out" | head -n 10 | sed 's/^/    /'
	fi
}

[ -x "$run" ] || { ko "no $run"; echo "$pass passed, $fail failed"; exit 1; }

expect "V4L2 program without the launcher fails" 1 "no shim" "$client" v4l2
expect "V4L2 program under v4l2-run" 0 "^v4l2: .*RGB3 320x240 .*direct" \
	"$run" "$client" v4l2
expect "V4L1 program under v4l2-run --v4l1" 0 "^v4l1: .*RGB24 320x240" \
	"$run" --v4l1 "$client" v4l1
expect "V4L1 program under v4l2-run -1" 0 "^v4l1: " "$run" -1 "$client" v4l1
expect "V4L1 program under v4l2-run (V4L2 shim) fails" 1 "no shim" \
	"$run" "$client" v4l1

# An existing LD_PRELOAD stays first; ${LIB} is left to ld.so.
first=$top/$libdir/libv4lconvert.so.0
want="$first:$top/\${LIB}/libv4l/v4l2convert.so"
got=$(LD_PRELOAD=$first "$run" /bin/sh -c 'printf %s "$LD_PRELOAD"')
if [ "$got" = "$want" ]; then
	ok "LD_PRELOAD appended: $got"
else
	ko "LD_PRELOAD is '$got', want '$want'"
fi
expect "V4L2 program with a preload already set" 0 "^v4l2: " \
	env LD_PRELOAD="$first" "$run" "$client" v4l2
want="$top/\${LIB}/libv4l/v4l1compat.so"
got=$("$run" --v4l1 /bin/sh -c 'printf %s "$LD_PRELOAD"')
[ "$got" = "$want" ] && ok "--v4l1 preloads $got" ||
	ko "--v4l1: LD_PRELOAD is '$got', want '$want'"

# The PipeWire drop-in (share/libv4l/libv4l-pipewire.conf, opt-in): its
# LD_PRELOAD names the installed shim, which serves a V4L2 program.
conf=$top/share/libv4l/libv4l-pipewire.conf
shim=$(sed -n 's/^Environment=LD_PRELOAD=//p' "$conf" 2>/dev/null)
if [ -n "$shim" ] && [ -f "$root$shim" ]; then
	ok "the PipeWire drop-in preloads $shim"
	expect "V4L2 program with the PipeWire drop-in's preload" 0 "^v4l2: " \
		env LD_PRELOAD="$root$shim" "$client" v4l2
else
	ko "the PipeWire drop-in $conf: LD_PRELOAD '$shim', not installed"
fi

# --share: the program's camera goes through the installed frame server.
export XDG_RUNTIME_DIR=$tmp/run
mkdir -m 0700 "$XDG_RUNTIME_DIR"
export LIBV4L2_FRAMESERVER=$top/$bindir/v4l2-frameserver
export LIBV4L2_FRAMESERVER_IDLE_MS=200
expect "V4L2 program under v4l2-run, no server" 0 "direct$" \
	"$run" "$client" v4l2
expect "V4L2 program under v4l2-run --share" 0 "shared$" \
	"$run" --share "$client" v4l2
got=$("$run" -s /bin/sh -c 'printf %s "$LIBV4L2_SHARE"')
[ "$got" = 1 ] && ok "-s sets LIBV4L2_SHARE=1" || ko "-s: LIBV4L2_SHARE='$got'"
# The server leaves once idle; its lock file says when.
for _ in $(seq 50); do
	locked=0
	for l in "$XDG_RUNTIME_DIR"/libv4l/*.lock; do
		[ -e "$l" ] && ! flock -n "$l" true && locked=1
	done
	[ $locked = 0 ] && break
	sleep 0.1
done
[ $locked = 0 ] && ok "the frame server exited when idle" ||
	ko "the frame server still holds its lock"
unset XDG_RUNTIME_DIR LIBV4L2_FRAMESERVER LIBV4L2_FRAMESERVER_IDLE_MS

# Installed under a path with a space and a colon, which ld.so would split
# LD_PRELOAD at: the shims are named through a link in XDG_RUNTIME_DIR to
# the prefix (${LIB} still ld.so's); with no private directory there,
# v4l2-run refuses, saying why.
odd="$tmp/in a dir:with a colon/prefix"
mkdir -p "$odd" && cp -a "$top/." "$odd/"
oddrun=$odd/$bindir/v4l2-run
export XDG_RUNTIME_DIR=$tmp/run
expect "V4L2 program under v4l2-run installed in '${odd#"$tmp"/}'" 0 \
	"^v4l2: .*RGB3 320x240 .*direct" "$oddrun" "$client" v4l2
expect "V4L1 program under its v4l2-run --v4l1" 0 "^v4l1: .*RGB24 320x240" \
	"$oddrun" --v4l1 "$client" v4l1
got=$("$oddrun" /bin/sh -c 'printf %s "$LD_PRELOAD"')
link=${got%/\${LIB\}/libv4l/v4l2convert.so}
case $got in
*[' :']*) ko "LD_PRELOAD has a space or colon: '$got'" ;;
"$XDG_RUNTIME_DIR"/libv4l-run/*/'${LIB}'/libv4l/v4l2convert.so)
	if [ "$(readlink "$link")" = "$odd" ]; then
		ok "LD_PRELOAD names the prefix through $link"
	else
		ko "$link leads to '$(readlink "$link")', want $odd"
	fi ;;
*) ko "LD_PRELOAD is '$got'" ;;
esac
unset XDG_RUNTIME_DIR
expect "no XDG_RUNTIME_DIR: refused" 126 "space or colon.*XDG_RUNTIME_DIR" \
	"$oddrun" "$client" v4l2
mkdir -m 0777 "$tmp/open"
chmod 0777 "$tmp/open"
expect "an XDG_RUNTIME_DIR others can write: refused" 126 "space or colon" \
	env XDG_RUNTIME_DIR="$tmp/open" "$oddrun" "$client" v4l2

expect "--help" 0 "^Usage: v4l2-run" "$run" --help
expect "-h" 0 "^Usage: v4l2-run" "$run" -h
expect "no program" 2 "no program given" "$run"
expect "unknown option" 2 "unknown option '--bogus'" "$run" --bogus true
expect "a program named -x: the error says --" 2 "goes after '--'" "$run" -x
expect "-- ends the options" 0 "^-x$" "$run" -- /bin/sh -c 'echo "$0"' -x
expect "the program's exit status" 3 "" "$run" /bin/sh -c 'exit 3'

# ${LIB} per ELF class: stand-in shims of both classes in a scratch prefix
# with the launcher; each program must get its own and no ELF class error.
# Where the kernel cannot run 32-bit programs, qemu-i386 (a 64-bit program
# that runs a 32-bit one: both must get their own) stands in.
cc32= run32=
for c in i686-linux-gnu-gcc "${CC:-cc} -m32"; do
	echo 'int main(void){return 0;}' |
		$c -x c -o "$tmp/prog32" - 2>/dev/null || continue
	if "$tmp/prog32" 2>/dev/null; then
		cc32=$c
	elif command -v qemu-i386 >/dev/null &&
			qemu-i386 "$tmp/prog32" 2>/dev/null; then
		cc32=$c run32=qemu-i386
	fi
	[ -n "$cc32" ] && break
done
if [ -z "$cc32" ]; then
	echo "SKIP 32-bit program: no 32-bit compiler, or nothing to run it"
else
	lib32=$($cc32 -print-multiarch)
	lib32=${lib32:+lib/$lib32}
	[ -n "$lib32" ] || lib32=lib32
	shim='#include <unistd.h>
#define MSG "stand-in shim: " CLASS "\n"
__attribute__((constructor)) static void hello(void)
{ if (write(2, MSG, sizeof(MSG) - 1) < 0) _exit(1); }'
	echo 'int main(void){return 0;}' | ${CC:-cc} -x c -o "$tmp/prog64" -
	# In a plain prefix, and in one reached through v4l2-run's link.
	export XDG_RUNTIME_DIR=$tmp/run
	for fake in "$tmp/prefix" "$tmp/a b:c/prefix"; do
		mkdir -p "$fake/$bindir" "$fake/$libdir/libv4l" "$fake/$lib32/libv4l"
		cp "$run" "$fake/$bindir/v4l2-run"
		echo "$shim" | ${CC:-cc} -DCLASS='"64-bit"' -shared -fPIC -x c \
			-o "$fake/$libdir/libv4l/v4l2convert.so" -
		echo "$shim" | $cc32 -DCLASS='"32-bit"' -shared -fPIC -x c \
			-o "$fake/$lib32/libv4l/v4l2convert.so" -
		got64=$("$fake/$bindir/v4l2-run" "$tmp/prog64" 2>&1)
		got32=$("$fake/$bindir/v4l2-run" $run32 "$tmp/prog32" 2>&1)
		want32="stand-in shim: 32-bit"
		[ -n "$run32" ] && want32="stand-in shim: 64-bit
$want32"
		if [ "$got64" = "stand-in shim: 64-bit" ] && [ "$got32" = "$want32" ]; then
			ok "each ELF class loads its own shim from '${fake#"$tmp"/}' (\$LIB = $libdir, $lib32${run32:+; 32-bit under $run32})"
		else
			ko "ELF classes in '${fake#"$tmp"/}': the 64-bit program said '$got64', the 32-bit one '$got32'"
		fi
	done
	unset XDG_RUNTIME_DIR
fi

echo "$pass passed, $fail failed"
[ $fail = 0 ]
