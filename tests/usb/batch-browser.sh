#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Guest side of the usb-browser test (tests/vm/vivid-vm.sh with the cameras
# sq905c and uvc-flip of tests/usb/usbcam, vivid without a capture node):
#   batch-browser.sh DESTDIR PREFIX LIBDIR PAGE
# DESTDIR PREFIX is an installed tree (meson install into a DESTDIR:
# DESTDIR/PREFIX/bin/v4l2-run, the shims under DESTDIR/PREFIX/LIBDIR/
# libv4l), PAGE the page
# tests/usb/camera-page.html. A web browser, which opens /dev/video* itself
# and knows nothing of libv4l, run under v4l2-run as a user runs it (an
# unprivileged user, its sandbox on): the page takes the camera with
# getUserMedia and prints the mean colours of a 16x16 grid of the frame it
# drew; the grid is compared with the emulated camera's picture, upright
# and turned by 180 degrees:
#  chromium chromium-headless-shell, both cameras in one browser start (the
#           page's ?all): the gspca SQ905C camera (its chip format only: a
#           browser reads nothing of it without libv4l) converted, and the
#           upside-down laptop camera (Chicony 04f2:b012 in a Founder T14MF,
#           a rule of data/camera-quirks.conf), each upright;
#  shared   both cameras through the frame server (v4l2-run --share,
#           LIBV4L2_SHARE=1): ffmpeg streams the laptop camera,
#           chromium-headless-shell takes both meanwhile (?all); each
#           upright, ffmpeg's too, from one stream of the laptop camera;
#  firefox  Firefox ESR (headless, a fresh profile), both cameras as
#           chromium;
#  chip, laptop  chromium-headless-shell with one camera alone on the bus
#           (the others de-authorized), not run by default.
# BROWSER_BARE=1: the same cases without v4l2-run, each expected to fail
# (the chip camera gives nothing, the laptop camera is upside down): the
# proof that the test sees the difference. BROWSER_CASES (a comma list of
# the cases' names, or all) chooses the cases: shared,firefox by
# default. BROWSER_SHARE_VERBOSE=1: the frame server's and its clients'
# log (LIBV4L2_FRAMESERVER_VERBOSE) in the browser's, and its lines in
# ours; BROWSER_LOG=1: the browser's whole log in ours. Ends with "N passed,
# N failed".
set -uo pipefail
shopt -s extglob

prefix=${1:?}${2:?} libdir=${3:?} page=${4:?}
. "$(dirname "$0")/lib.sh"
page=$(realpath "$page")
run=$prefix/bin/v4l2-run
bare=${BROWSER_BARE:-0}
CHIP=2770:905c LAPTOP=04f2:b012
NOBODY=65534
v4l2_log=
out=$(mktemp -d /tmp/vm-browser.XXXXXX)
chmod 0755 "$out"
# The user's home (each browser with its own fresh profile) and runtime
# directory (the frame server's socket).
home=$out/home
mkdir -p "$home/run"
chmod 0700 "$home/run"
chown -R $NOBODY:$NOBODY "$home"
# No LD_LIBRARY_PATH, as users run v4l2-run: the installed shim finds our
# libraries by its run path, not the system's of the same SONAMEs (Debian's
# libv4l-0 is installed here for GStreamer: checked in the case shared).
unset LD_LIBRARY_PATH

# usb_dev VID:PID: the camera's device directory in sysfs.
usb_dev() {
	local d
	for d in /sys/bus/usb/devices/*; do
		[ -f "$d/idVendor" ] || continue
		[ "$(cat "$d/idVendor"):$(cat "$d/idProduct")" = "$1" ] && {
			echo "$d"
			return 0
		}
	done
	return 1
}

# only VID:PID: that camera alone on the bus (every other one de-authorized,
# as if unplugged); its node, readable by every user as a desktop's udev
# rules make it for the user at the seat.
only() {
	local id=$1 d dev
	for d in /sys/bus/usb/devices/*; do
		[ -f "$d/idVendor" ] && [ -f "$d/authorized" ] || continue
		[ "$(cat "$d/bDeviceClass")" = 09 ] && continue # hubs
		if [ "$(cat "$d/idVendor"):$(cat "$d/idProduct")" = "$id" ]; then
			echo 1 >"$d/authorized"
		else
			echo 0 >"$d/authorized"
		fi
	done
	dev=$(node "$id" 30) || return 1
	chmod 0666 /dev/video* 2>/dev/null
	echo "$dev"
}

# both: the two cameras on the bus, readable by every user.
both() {
	local d
	for d in /sys/bus/usb/devices/*; do
		[ -f "$d/idVendor" ] && [ -f "$d/authorized" ] || continue
		echo 1 >"$d/authorized"
	done
	node $CHIP 30 >/dev/null && node $LAPTOP 30 >/dev/null || return 1
	chmod 0666 /dev/video* 2>/dev/null
}

# as_user COMMAND...: the command as user nobody in a session (process
# group) of its own, in the background, with that user's environment;
# $! is its process group.
as_user() {
	setsid setpriv --reuid=$NOBODY --regid=$NOBODY --clear-groups \
		env HOME="$home" XDG_CONFIG_HOME="$home/.config" \
		XDG_CACHE_HOME="$home/.cache" XDG_RUNTIME_DIR="$home/run" \
		LIBV4L2_FRAMESERVER="$prefix/bin/v4l2-frameserver" \
		${BROWSER_SHARE_VERBOSE:+LIBV4L2_FRAMESERVER_VERBOSE=1} \
		${v4l2_log:+LIBV4L2_LOG_FILENAME=$v4l2_log} "$@" &
}

# stop PGID: end that process group (TERM, then KILL after 5 s).
stop() {
	local i
	kill -TERM -- -$1 2>/dev/null
	for ((i = 0; i < 50; i++)); do
		kill -0 -- -$1 2>/dev/null || break
		sleep 0.1
	done
	kill -KILL -- -$1 2>/dev/null
	wait $1 2>/dev/null
}

# browse CASE BROWSER [v4l2-run OPTION]: the page (with $query after its
# address) in BROWSER (chromium: chromium-headless-shell; firefox:
# firefox-esr --headless with a fresh profile) as user nobody, its sandbox
# on, under v4l2-run (not with BROWSER_BARE=1); the page's lines into
# $out/CASE.cam.
browse() {
	local name=$1 browser=$2 log=$out/$1.log pid t0=$SECONDS limit
	local -a launch=("$run" ${3:+"$3"}) cmd
	[ "$bare" = 1 ] && launch=()
	case $browser in
	chromium)
		# through the frame server the camera's start is slower
		# (tests/usb/BROWSERS.md)
		limit=300
		[ "$name" = shared ] && limit=600
		cmd=(chromium-headless-shell --use-fake-ui-for-media-stream
			--enable-logging=stderr --v=0 --no-first-run
			--vmodule='*v4l2*=2,*video_capture*=1'
			--user-data-dir="$home/chromium-$name"
			--autoplay-policy=no-user-gesture-required "file://$page$query") ;;
	firefox)
		# the page's console on stdout, no permission prompt, the
		# real camera
		limit=600
		mkdir -p "$home/firefox-$name"
		cat >"$home/firefox-$name/user.js" <<-EOF
			user_pref("media.navigator.permission.disabled", true);
			user_pref("media.navigator.streams.fake", false);
			user_pref("devtools.console.stdout.content", true);
			user_pref("media.autoplay.default", 0);
			user_pref("browser.shell.checkDefaultBrowser", false);
		EOF
		chown -R $NOBODY:$NOBODY "$home/firefox-$name"
		cmd=(firefox-esr --headless --no-remote
			--profile "$home/firefox-$name" "file://$page$query") ;;
	esac
	v4l2_log=
	[ "${BROWSER_V4L2_LOG:-0}" = 1 ] && v4l2_log=$home/v4l2-$name.log
	as_user ${launch[@]+"${launch[@]}"} "${cmd[@]}" >"$log" 2>&1
	pid=$!
	while [ $((SECONDS - t0)) -lt $limit ]; do
		grep -q '"CAM done"' "$log" && break
		kill -0 $pid 2>/dev/null || break
		sleep 0.2
	done
	# a browser never exits by itself
	stop $pid
	sed -n 's/.*"CAM \([^"]*\)".*/\1/p' "$log" >"$out/$name.cam"
	if [ -n "${BROWSER_LOG:-}" ]; then
		grep -v CONSOLE "$log" | sed "s/^/($name) /"
	elif [ -n "${BROWSER_SHARE_VERBOSE:-}" ]; then
		grep -E '^libv4l2 share|frameserver' "$log" | sed "s/^/($name) /"
	fi
	echo "($name: $browser ran $((SECONDS - t0)) s; the page: $(grep -v '^row' "$out/$name.cam" | tr '\n' ';'))"
}

# score CASE: the grid against the picture, upright and turned by 180
# degrees: "UPRIGHT TURNED" (cells of 256 within 40 of the picture's mean
# colour in every channel). The picture (src/vcam/render.c): 75 % colour
# bars (white, yellow, cyan, green, magenta, red, blue, black) over the top
# 3/4, a red-tinted grey ramp over the next 1/8, a grey ramp (dark at the
# left) at the bottom, and a small moving square (it spoils a few cells).
score() {
	awk '
	BEGIN {
		split("191,191,191 191,191,0 0,191,191 0,191,0 191,0,191 191,0,0 0,0,191 0,0,0", bar, " ")
		for (i = 0; i < 16; i++) {
			g = (i + 0.5) * 255 / 16
			for (j = 0; j < 16; j++) {
				if (j < 12) {
					split(bar[int(i / 2) + 1], c, ",")
				} else if (j < 14) {
					c[1] = 255 - g / 2; c[2] = g; c[3] = g
				} else {
					c[1] = g; c[2] = g; c[3] = g
				}
				for (k = 1; k <= 3; k++)
					want[i, j, k] = c[k]
			}
		}
	}
	$1 == "row" {
		j = $2
		for (i = 0; i < 16; i++) {
			split($(i + 3), c, ",")
			for (k = 1; k <= 3; k++)
				got[i, j, k] = c[k]
		}
		rows++
	}
	function near(a, b, k, d) {
		d = a - b
		return d < 0 ? -d <= 40 : d <= 40
	}
	END {
		if (rows != 16) { print "0 0"; exit }
		for (i = 0; i < 16; i++)
			for (j = 0; j < 16; j++) {
				u = t = 1
				for (k = 1; k <= 3; k++) {
					if (!near(got[i, j, k], want[i, j, k])) u = 0
					if (!near(got[i, j, k], want[15 - i, 15 - j, k])) t = 0
				}
				up += u; turned += t
			}
		print up + 0, turned + 0
	}' "$out/$1.cam"
}

# judge CASE WHAT: the grid shows the picture upright (at least 240 of 256
# cells near it, and far fewer the other way round); with BROWSER_BARE=1
# the browser must not get it upright.
judge() {
	local name=$1 what=$2 s up turned seen
	s=$(score "$name")
	read -r up turned <<<"$s"
	seen="upright $up/256 cells, turned $turned/256; $(grep -E '^(track|frame|error)' "$out/$name.cam" | tr '\n' ' ')"
	echo "$name grid (top row, middle row, bottom row):"
	grep -E '^row (0|8|15) ' "$out/$name.cam" | sed 's/^/    /'
	if [ "$bare" = 1 ]; then
		if [ "$up" -lt 240 ]; then
			ok "$what, without v4l2-run: not the upright picture ($seen)"
		else
			ko "$what, without v4l2-run: upright all the same ($seen)"
		fi
	elif [ "$up" -ge 240 ] && [ "$turned" -lt 128 ]; then
		ok "$what: $seen"
	else
		ko "$what: $seen"
		grep -iE 'v4l2|capture|signal|check failed|fatal|^ *#[0-9]+ ' "$out/$name.log" |
			grep -v CONSOLE | tail -n 40
		cores
		grep -vE 'CONSOLE|^\s*$' "$out/$name.log" | tail -n 15
		[ -f "$home/v4l2-$name.log" ] && tail -n 40 "$home/v4l2-$name.log"
	fi
}

# With BROWSER_CORES=1 a crashing process leaves a core in $out/cores
# (its user is nobody: hence suid_dumpable), and cores prints their stacks.
if [ "${BROWSER_CORES:-0}" = 1 ]; then
	mkdir -m 1777 "$out/cores"
	echo 2 >/proc/sys/fs/suid_dumpable
	echo "$out/cores/core.%e.%p" >/proc/sys/kernel/core_pattern
	ulimit -c unlimited
fi
cores() {
	local c
	for c in "$out"/cores/core.*; do
		[ -f "$c" ] || continue
		echo "core $c:"
		gdb -batch -q -c "$c" -ex 'bt 30' 2>&1 | grep -E '^#' | head -n 30
	done
}

# judge_every CASE WHAT: the page's grids of every camera (?all), each
# judged as CASE.K; the case passes when both cameras were listed and each
# shows the picture upright (with BROWSER_BARE=1: when not).
judge_every() {
	local name=$1 what=$2 k n up turned bad=0
	awk -v out="$out/$name" '$1 == "camera" { f = out "." $2 ".cam"; next }
		f { print > f }' "$out/$name.cam"
	n=$(grep -c '^camera ' "$out/$name.cam")
	for ((k = 0; k < n; k++)); do
		read -r up turned <<<"$(score "$name.$k")"
		echo "$name camera $k: upright $up/256 cells, turned $turned/256; $(grep -E '^(track|frame|error)' "$out/$name.$k.cam" | tr '\n' ' ')"
		grep -E '^row (0|15) ' "$out/$name.$k.cam" | sed 's/^/    /'
		[ "$up" -ge 240 ] && [ "$turned" -lt 128 ] || bad=$((bad + 1))
	done
	if [ "$bare" = 1 ]; then
		if [ $n -lt 2 ] || [ $bad -gt 0 ]; then
			ok "$what, without v4l2-run: not both upright ($n cameras listed, $bad not upright)"
		else
			ko "$what, without v4l2-run: both upright all the same"
		fi
	elif [ $n = 2 ] && [ $bad = 0 ]; then
		ok "$what: both cameras listed, both upright"
	else
		ko "$what: $n cameras listed (2 expected), $bad not upright"
		grep -vE 'CONSOLE|^\s*$' "$out/$name.log" | tail -n 15
		[ -f "$home/v4l2-$name.log" ] && tail -n 40 "$home/v4l2-$name.log"
	fi
}

command -v chromium-headless-shell >/dev/null || {
	echo "chromium-headless-shell is not installed (scripts/install-deps.sh --vm): skipped"
	exit 77
}
[ -x "$run" ] || { echo "FAIL no $run"; exit 1; }
chip=$(node $CHIP 30) && laptop=$(node $LAPTOP 30) || {
	echo "FAIL the cameras did not appear"
	ls -l /dev/video*
	dmesg | grep -v xhci_hcd | tail -n 20
	exit 1
}
echo "cameras: chip (SQ905C) $chip, upside-down laptop $laptop"
v4l2-ctl -d $chip --list-formats 2>&1 | grep -E "^\s*\[" | sed 's/^/  chip, bare: /'

# upright_rgb FILE: FILE, the last RGB24 640x480 frame of the laptop
# camera ffmpeg wrote, is upright: of 3 looks 0.3 s apart, at least 2 see
# the third colour bar (cyan) at x 200, y 10, where the picture turned over
# has the sixth (red).
upright_rgb() {
	local k good=0 px
	for ((k = 0; k < 3; k++)); do
		px=$(od -An -tu1 -j $(((10 * 640 + 200) * 3)) -N3 "$1" 2>/dev/null)
		set -- "$1" $px
		[ $# = 4 ] && [ $2 -lt 40 ] && [ $3 -gt 151 ] && [ $4 -gt 151 ] &&
			good=$((good + 1))
		sleep 0.3
	done
	[ $good -ge 2 ]
}

# ours_mapped PGID: the ffmpeg of that process group maps our libv4l2 and
# libv4lconvert (under the installed tree) only, not the system's of the
# same SONAMEs, which the shim would load without its run path.
ours_mapped() {
	local pid libs l theirs=0 sys=no
	ldconfig -p | grep -q 'libv4l2\.so\.0 ' && sys=yes
	pid=$(pgrep -g "$1" -x ffmpeg | head -n 1)
	libs=$([ -n "$pid" ] && grep -oE '/[^ ]*libv4l(2|convert)\.so[^ ]*' "/proc/$pid/maps" | sort -u | tr '\n' ' ')
	for l in $libs; do
		[[ $l == "$prefix"/* ]] || theirs=1
	done
	if [ "$bare" = 1 ]; then
		:
	elif [ -n "$libs" ] && [ $theirs = 0 ]; then
		ok "ffmpeg under the installed v4l2-run, no LD_LIBRARY_PATH (the system's libv4l2.so.0 installed: $sys), maps only ours: $libs"
	else
		ko "ffmpeg under v4l2-run maps: ${libs:-no libv4l2 (pid ${pid:-none})}"
	fi
}

# ff_frames PROGRESS: the frames ffmpeg has written, from its -progress file.
ff_frames() {
	sed -n 's/^frame=\([0-9]*\)$/\1/p' "$1" 2>/dev/null | tail -n 1 | grep . || echo 0
}

# Both cameras shared through the frame server: ffmpeg under v4l2-run
# --share streams the laptop camera (RGB24), then the browser takes both
# cameras under v4l2-run --share while ffmpeg goes on; all get upright
# frames, the laptop camera's from one stream. ffmpeg keeps only its last frame (one file,
# replaced whole each time) and reports its count: the guest's /tmp holds
# a few hundred MB, and the frames of a whole browser case (30 per second,
# 900 KB each) filled it, which starved the browser's own log of space.
shared() {
	local ff=$home/ff.rgb prog=$home/ff.progress ffpid n0 n1 mark starts i
	as_user "$run" --share ffmpeg -hide_banner -loglevel error -f v4l2 \
		-input_format rgb24 -video_size 640x480 -i "$1" \
		-fps_mode passthrough -progress "$prog" -stats_period 0.5 \
		-c:v rawvideo -f image2 -update 1 -atomic_writing 1 "$ff" \
		>"$home/ff.log" 2>&1
	ffpid=$!
	for ((i = 0; i < 600; i++)); do
		[ "$(ff_frames "$prog")" -ge 2 ] && break
		kill -0 $ffpid 2>/dev/null || break
		sleep 0.2
	done
	ours_mapped "$ffpid"
	mark=$(camlog 1 | wc -l)
	n0=$(ff_frames "$prog")
	query='?all'
	browse shared chromium --share
	n1=$(ff_frames "$prog")
	starts=$(camlog 1 | tail -n +$((mark + 1)) | grep -c "stream start")
	local up=no
	upright_rgb "$ff" && up=yes
	stop $ffpid
	echo "(ffmpeg: $n0 frames before the browser came, $n1 when it left; the camera's streams started meanwhile: $starts; $(head -c 300 "$home/ff.log"))"
	judge_every shared "Chromium, both cameras shared through the frame server while ffmpeg streams the laptop camera: converted and upright"
	if [ "$bare" = 1 ]; then
		:
	elif [ $n0 -ge 2 ] && [ $n1 -gt $n0 ] && [ "$starts" = 0 ] && [ $up = yes ]; then
		ok "ffmpeg beside the browser on one stream of the camera: $n0 frames before, $n1 after, upright"
	else
		ko "ffmpeg beside the browser: $n0 frames before, $n1 after, $starts new streams of the camera, upright: $up"
	fi
}

# The cases run by default: shared and firefox (chromium, direct, and chip
# and laptop, one camera each, only when named: shared covers both cameras
# in one browser start, through the frame server; firefox covers them
# direct; tests/usb/BROWSERS.md).
query=
for c in chromium chip laptop shared firefox; do
	[[ ",${BROWSER_CASES:-shared,firefox}," == *,@(all|$c),* ]] || continue
	t0=$SECONDS
	query=
	case $c in
	chromium)
		both >/dev/null || { ko "the cameras did not come back"; continue; }
		query='?all'
		browse chromium chromium
		judge_every chromium "Chromium, the SQ905C chip camera (gspca) and the upside-down laptop camera (uvcvideo): converted and upright" ;;
	chip)
		only $CHIP >/dev/null || { ko "the chip camera did not come back"; continue; }
		browse chip chromium
		judge chip "Chromium, SQ905C chip camera (gspca), converted and upright" ;;
	laptop)
		only $LAPTOP >/dev/null || { ko "the laptop camera did not come back"; continue; }
		browse laptop chromium
		judge laptop "Chromium, upside-down laptop camera (uvcvideo), upright" ;;
	shared)
		both >/dev/null && dev=$(node $LAPTOP 30) ||
			{ ko "the cameras did not come back"; continue; }
		shared "$dev" ;;
	firefox)
		if ! command -v firefox-esr >/dev/null; then
			echo "firefox-esr is not installed (scripts/install-deps.sh --vm): its case skipped"
			continue
		fi
		both >/dev/null || { ko "the cameras did not come back"; continue; }
		query='?all'
		browse firefox firefox
		judge_every firefox "Firefox ESR, the SQ905C chip camera (gspca) and the upside-down laptop camera (uvcvideo): converted and upright" ;;
	esac
	echo "($c: $((SECONDS - t0)) s)"
done
rm -rf "$out"
echo "$pass passed, $fail failed"
[ $fail = 0 ]
