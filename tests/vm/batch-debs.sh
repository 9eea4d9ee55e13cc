#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Guest side of the Debian package test (tests/packaging/vm-debs.sh runs it
# with vivid-vm.sh):
#   batch-debs.sh DEBDIR ORIGDIR FLIPCHECK CLIENTCHECK
# Our packages (DEBDIR/*.deb) are installed over Debian's libv4l-0,
# libv4lconvert0 and libv4l-dev with dpkg, and Debian's own programs run,
# unmodified and with no libv4l or preload variable, on vivid:
#  - v4l2-ctl -w capturing RGB24 from a sensor mounted upside down (vivid's
#    sensor_flipped_* controls): the frames are converted (corrected), the
#    180-degree rotation of the raw ones, which Debian's libv4l2 does not do;
#  - gst-launch-1.0 v4l2src (GST_V4L2_USE_LIBV4L2=1): RGB frames, corrected;
#  - v4l2-ctl without -w under our v4l2-run (the shim found through ${LIB});
#  - Debian's programs linked with libv4l themselves (issue 27): guvcview
#    (-g none) and vgrabbj (V4L1) on the upside-down sensor, their frames
#    compared with the driver's turned (CLIENTCHECK, tests/vm/clientcheck.c),
#    and zbarcam with its window under Xvfb on the upright YUYV camera
#    (nothing to convert: the case issue 27 reported), which must stream;
#  - v4l2-ctl -w with USERPTR buffers, which both refuse (EINVAL) whenever
#    conversion is enabled, also with nothing to convert: the answer
#    programs such as zbarcam rely on to fall back to MMAP.
# Debian's libraries are first seen failing where only ours succeed, so
# that passing proves ours are the ones loaded. Then ours are removed and Debian's
# reinstalled from ORIGDIR (their .debs): package states, file lists and
# file contents must be as before, and nothing of ours left.
# Ends with "N passed, N failed".
set -uo pipefail

debs=${1:?} orig=${2:?} flipcheck=${3:?} check=${4:?}
dev=/dev/video0
arch=$(dpkg --print-architecture)
DEBIAN="libv4l-0:$arch libv4lconvert0:$arch libv4l-dev:$arch"
OURS="libv4l-cr-tools libv4l-cr-dev libv4l-cr0 libv4lconvert-cr0"
# The programs find the libraries where they are installed, as a user's do.
for v in $(env | sed -n 's/^\(LIBV4L[A-Z0-9_]*\)=.*/\1/p'); do
	unset "$v"
done
unset LD_PRELOAD LD_LIBRARY_PATH
out=$(mktemp -d /tmp/vm-debs.XXXXXX)
pass=0 fail=0
prog=${VM_JOBDIR:-$out}/progress
step() { echo "$(date +%T) $*" >>"$prog"; sync; }
ok() { echo "PASS $*"; step "PASS $*"; pass=$((pass + 1)); }
ko() { echo "FAIL $*"; step "FAIL $*"; fail=$((fail + 1)); }

[ -c "$dev" ] || { echo "no $dev in the VM: skipped"; exit 77; }
command -v v4l2-ctl >/dev/null || { echo "v4l2-ctl is not installed: skipped"; exit 77; }
if [ "$(dpkg-query -W -f '${db:Status-Status}\n' $DEBIAN 2>/dev/null |
		grep -cx installed)" != 3 ]; then
	echo "Debian's $DEBIAN are not all installed: skipped"
	exit 77
fi

# What "as before" means: the packages' states, Debian's file lists and
# the contents of those files, and the libraries ld.so finds.
state() {
	dpkg-query -W -f '${Package}:${Architecture} ${Version} ${db:Status-Abbrev}\n' \
		libv4l-0 libv4lconvert0 libv4l-dev libv4l2rds0 v4l-utils \
		gstreamer1.0-plugins-good 2>/dev/null | sort
	for p in $DEBIAN; do
		echo "== $p"
		dpkg -L "$p" | sort | while read -r f; do
			if [ -L "$f" ]; then
				echo "$f -> $(readlink "$f")"
			elif [ -f "$f" ]; then
				md5sum "$f"
			else
				echo "$f"
			fi
		done
	done
	ldconfig -p | grep -E 'libv4l(1|2|convert)\.so' | sort
}

bytes() { stat -c %s "$1" 2>/dev/null || echo 0; }
secs() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f s", b - a }'; }
reset_fmt() {
	v4l2-ctl -d $dev -v width=640,height=480,pixelformat=YUYV -p 30 \
		>/dev/null 2>&1
}
flip() { # 1: the sensor is mounted upside down, 0: upright
	v4l2-ctl -d $dev --set-ctrl=sensor_flipped_horizontally=$1 \
		--set-ctrl=sensor_flipped_vertically=$1
}
userptr() { # file: 3 YUYV frames through libv4l2 with USERPTR buffers (none)
	reset_fmt
	rm -f "$1"
	v4l2-ctl -d $dev -w -v width=640,height=480,pixelformat=YUYV \
		--stream-user --stream-count=3 --stream-to="$1" >"$1.log" 2>&1
}
rgb_w() { # file: 2 RGB24 frames through libv4l2 (-w)
	reset_fmt
	rm -f "$1"
	v4l2-ctl -d $dev -w -v width=640,height=480,pixelformat=RGB3 \
		--stream-mmap --stream-count=2 --stream-to="$1" >"$1.log" 2>&1
}
gst() { # file format io-mode: 3 frames of v4l2src through libv4l2
	reset_fmt
	rm -f "$1"
	GST_V4L2_USE_LIBV4L2=1 gst-launch-1.0 -q v4l2src device=$dev \
		io-mode=$3 num-buffers=3 ! \
		video/x-raw,format=$2,width=640,height=480 ! \
		filesink location="$1" >"$1.log" 2>&1
}
corrected() { # file: every frame is the rotation of the raw one
	"$flipcheck" "$out/raw.rgb" "$1" 640 480 >"$1.fc" 2>&1
}
frame=$((640 * 480 * 3))
# guvcview's raw photos (YUYV) and vgrabbj's PPM (RGB24 palette) on the
# sensor upside down; then zbarcam ZBARCAM_S seconds (15 by default) with
# its window on the upright sensor in YUYV, at least 5 frames dequeued
# (counted in libv4l2's ioctl log, which only logs). No other variable.
linked_programs() {
	local v n rc secs=${ZBARCAM_S:-15} t0 p
	for p in guvcview vgrabbj zbarcam Xvfb; do
		command -v $p >/dev/null && continue
		# a failure on CI, where a test that runs nothing must not pass
		if [ "${CI:-}" = true ]; then
			ko "$p is not installed (CI=true): scripts/install-deps.sh --deb"
		else
			echo "NOTE $p is not installed: Debian's linked programs skipped"
		fi
		return
	done
	t0=$(date +%s.%N)
	flip 1
	reset_fmt
	v4l2-ctl -d $dev --stream-mmap --stream-count=1 \
		--stream-to="$out/raw.yuyv" >/dev/null 2>&1
	mkdir -p "$out/gv.d"
	timeout 60 guvcview -d $dev -g none -r none -a none -x 640x480 -f YUYV \
		-i "$out/gv.d/p.raw" -n 3 -t 1 -e >"$out/gv.log" 2>&1 </dev/null
	cat "$out/gv.d"/* >"$out/gv.raw" 2>/dev/null
	v=$("$check" YUYV 640 480 1 "$out/raw.yuyv" "$out/gv.raw" 2>&1 | tail -n 1)
	case $v in
	PASS*) ok "guvcview -g none (linked with libv4l2): ${v#PASS }" ;;
	*) ko "guvcview -g none: ${v#FAIL }" ;;
	esac
	reset_fmt
	timeout 60 vgrabbj -d $dev -i vga -o ppm -F 4 -S -z 2 -D 0 \
		-f "$out/vg.ppm" >"$out/vg.log" 2>&1 </dev/null
	v=$("$check" RGB3 640 480 1 "$out/raw.rgb" "$out/vg.ppm" 2>&1 | tail -n 1)
	case $v in
	PASS*) ok "vgrabbj -F 4 -S (V4L1, linked with libv4l1): ${v#PASS }" ;;
	*) ko "vgrabbj -F 4 -S: ${v#FAIL }" ;;
	esac
	flip 0
	reset_fmt
	Xvfb :98 -screen 0 800x600x24 -nolisten tcp >"$out/xvfb.log" 2>&1 &
	local xvfb=$!
	for _ in $(seq 60); do [ -S /tmp/.X11-unix/X98 ] && break; sleep 0.5; done
	DISPLAY=:98 XDG_RUNTIME_DIR=/tmp LIBV4L2_LOG_FILENAME="$out/zb.ioctl" \
		timeout "$secs" zbarcam --verbose=1 --prescale=640x480 -q --nodbus \
		$dev >"$out/zb.log" 2>&1 </dev/null
	rc=$?
	kill $xvfb
	n=$(grep -c "type 'V' nr 17 .* result 0$" "$out/zb.ioctl" 2>/dev/null)
	if [ $rc = 124 ] && ! grep -q 'v4l2_dq' "$out/zb.log" && [ "${n:-0}" -ge 5 ]; then
		ok "zbarcam with its window, upright YUYV camera: $n frames in $secs s ($(grep -m1 -o 'using I/O mode: [A-Z]*' "$out/zb.log"))"
	else
		ko "zbarcam: exit $rc, ${n:-0} frames in $secs s; $(grep -m1 -E 'v4l2_dq|ERROR|error' "$out/zb.log")"
	fi
	echo "NOTE guvcview, vgrabbj and zbarcam: $(secs "$t0")"
}
have_gst=0
command -v gst-launch-1.0 >/dev/null &&
	[ -n "$(ls /usr/lib/*/gstreamer-1.0/libgstvideo4linux2.so 2>/dev/null)" ] &&
	have_gst=1

step "start"
state >"$out/before.txt"
v4l2-ctl -d $dev --set-ctrl=osd_text_mode=2,test_pattern=4 >/dev/null

# 1. Debian's libraries: what only ours does fails here.
flip 1
reset_fmt
v4l2-ctl -d $dev -v width=640,height=480,pixelformat=RGB3 --stream-mmap \
	--stream-count=1 --stream-to="$out/raw.rgb" >/dev/null 2>&1
[ "$(bytes "$out/raw.rgb")" = $frame ] &&
	ok "raw RGB24 frame of the upside-down sensor (no libv4l2)" ||
	ko "raw RGB24 frame: $(bytes "$out/raw.rgb") bytes"
rgb_w "$out/deb.rgb"
if [ "$(bytes "$out/deb.rgb")" -ge $frame ] && ! corrected "$out/deb.rgb"; then
	ok "Debian's libv4l2 leaves vivid's upside-down sensor uncorrected"
else
	ko "Debian's libv4l2: $(bytes "$out/deb.rgb") bytes, or already corrected"
fi
if [ $have_gst = 1 ]; then
	gst "$out/deb-gst.rgb" RGB mmap
	if [ "$(bytes "$out/deb-gst.rgb")" = $((3 * frame)) ] &&
			! corrected "$out/deb-gst.rgb"; then
		ok "Debian's libv4l2 under GStreamer: RGB frames, uncorrected"
	else
		ko "GStreamer on Debian's libv4l2: $(bytes "$out/deb-gst.rgb") bytes, or already corrected"
	fi
fi
flip 0
refused() { # file: USERPTR refused, nothing captured; REQBUFS's message
	[ "$(bytes "$1")" = 0 ] && grep -m1 -o 'VIDIOC_REQBUFS.*' "$1.log"
}
userptr "$out/deb-user.raw"
msg=$(refused "$out/deb-user.raw") &&
	ok "Debian's libv4l2 refuses USERPTR ($msg)" ||
	ko "Debian's libv4l2 streamed USERPTR: $(bytes "$out/deb-user.raw") bytes"

# 2. Install ours over Debian's. (man-db's index update, triggered by the
# man pages, takes minutes under TCG: off in the VM, as in most CI images.)
rm -f /var/lib/man-db/auto-update
step "dpkg -i"
t0=$(date +%s.%N)
if dpkg -i "$debs"/*.deb >"$out/install.log" 2>&1; then
	ok "dpkg -i our packages ($(secs "$t0"))"
else
	ko "dpkg -i our packages:"
	tail -n 20 "$out/install.log"
fi
grep -E "in favour of" "$out/install.log" | sed 's/^/    /'
now=$(dpkg-query -W -f '${db:Status-Status} ' $DEBIAN 2>/dev/null)
[ "$(echo "$now" | grep -o installed | wc -l)" = 0 ] &&
	ok "Debian's $DEBIAN removed" || ko "Debian's packages still: $now"
audit=$(dpkg --audit 2>&1)
[ -z "$audit" ] && ok "dpkg --audit: nothing broken (v4l-utils and GStreamer's plugins keep their dependencies)" ||
	ko "dpkg --audit: $audit"
triplet=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)
owner=$(dpkg -S "$(readlink -f "/usr/lib/$triplet/libv4l2.so.0")" 2>&1)
case $owner in libv4l-cr0:*) ok "libv4l2.so.0 is ours: $owner" ;;
*) ko "libv4l2.so.0 belongs to: $owner" ;; esac

# 3. Debian's programs on our libraries, no variables.
step "programs"
flip 1
rgb_w "$out/ctl.rgb"
corrected "$out/ctl.rgb" &&
	ok "v4l2-ctl -w: RGB24 frames converted, the sensor corrected ($(cat "$out/ctl.rgb.fc"))" ||
	ko "v4l2-ctl -w RGB24: $(bytes "$out/ctl.rgb") bytes, $(cat "$out/ctl.rgb.fc")"
if [ $have_gst = 1 ]; then
	t0=$(date +%s.%N)
	gst "$out/gst.rgb" RGB mmap
	if [ "$(bytes "$out/gst.rgb")" = $((3 * frame)) ] && corrected "$out/gst.rgb"; then
		ok "gst-launch-1.0 v4l2src io-mode=mmap (GST_V4L2_USE_LIBV4L2=1): 3 RGB frames, corrected ($(secs "$t0"))"
	else
		ko "gst-launch-1.0 v4l2src io-mode=mmap: $(bytes "$out/gst.rgb") bytes, $(cat "$out/gst.rgb.fc")"
		grep -m 3 -i error "$out/gst.rgb.log"
	fi
	# GStreamer's default I/O mode exports DMABUF unless the format is
	# flagged V4L2_FMT_FLAG_EMULATED, which every format libv4l2 converts
	# or flips is (the Debian package's original libv4l2 refuses
	# VIDIOC_EXPBUF on its own buffers; ours exports them as memfds).
	t0=$(date +%s.%N)
	gst "$out/gst-auto.rgb" RGB auto
	if [ "$(bytes "$out/gst-auto.rgb")" = $((3 * frame)) ] &&
		corrected "$out/gst-auto.rgb"; then
		ok "gst-launch-1.0 v4l2src default io-mode (GST_V4L2_USE_LIBV4L2=1): 3 RGB frames, corrected ($(secs "$t0"))"
	else
		ko "gst-launch-1.0 v4l2src default io-mode: $(bytes "$out/gst-auto.rgb") bytes, $(cat "$out/gst-auto.rgb.fc")"
		grep -m 3 -i error "$out/gst-auto.rgb.log"
	fi
else
	ko "gst-launch-1.0 or GStreamer's v4l2 plugin is not installed (scripts/install-deps.sh --deb)"
fi
if command -v v4l2-run >/dev/null; then
	reset_fmt
	rm -f "$out/run.rgb"
	v4l2-run v4l2-ctl -d $dev -v width=640,height=480,pixelformat=RGB3 \
		--stream-mmap --stream-count=2 --stream-to="$out/run.rgb" \
		>"$out/run.log" 2>&1
	corrected "$out/run.rgb" &&
		ok "v4l2-run v4l2-ctl (no -w): the shim found through \${LIB}, corrected" ||
		ko "v4l2-run v4l2-ctl: $(bytes "$out/run.rgb") bytes, $(cat "$out/run.rgb.fc")"
else
	ko "v4l2-run is not installed"
fi
linked_programs
flip 0
userptr "$out/user.raw"
msg=$(refused "$out/user.raw") &&
	ok "v4l2-ctl -w --stream-user: USERPTR refused by ours too ($msg)" ||
	ko "v4l2-ctl -w --stream-user: ours streamed $(bytes "$out/user.raw") bytes, Debian's refuses"

# 4. Back to Debian's.
step "back to Debian's"
for d in "$debs"/*.deb; do
	dpkg-deb -c "$d" | awk '$1 !~ /^d/ { p = $6; sub(/^\./, "", p); print p }'
done | sort -u >"$out/ours.files"
t0=$(date +%s.%N)
if dpkg --purge --force-depends $OURS >"$out/remove.log" 2>&1 &&
		dpkg -i "$orig"/libv4lconvert0_*_"$arch".deb \
			"$orig"/libv4l-0_*_"$arch".deb \
			"$orig"/libv4l-dev_*_"$arch".deb >>"$out/remove.log" 2>&1; then
	ok "ours purged, Debian's reinstalled ($(secs "$t0"))"
else
	ko "going back to Debian's packages:"
	tail -n 20 "$out/remove.log"
fi
audit=$(dpkg --audit 2>&1)
[ -z "$audit" ] && ok "dpkg --audit: nothing broken" || ko "dpkg --audit: $audit"
state >"$out/after.txt"
if cmp -s "$out/before.txt" "$out/after.txt"; then
	ok "as before: package states, $(grep -c '^[0-9a-f]\{32\} ' "$out/after.txt") file checksums, links, file lists and ld.so's cache"
else
	ko "the system differs from before:"
	diff "$out/before.txt" "$out/after.txt" | head -n 20
fi
verify=$(dpkg -V $DEBIAN 2>&1)
[ -z "$verify" ] && ok "dpkg -V $DEBIAN: every file as packaged" ||
	ko "dpkg -V: $verify"
dpkg -L $DEBIAN | sort -u >"$out/debian.files"
left=$(comm -23 "$out/ours.files" "$out/debian.files" | while read -r f; do
	if [ -e "$f" ] || [ -L "$f" ]; then echo "$f"; fi
done | xargs)
[ -z "$left" ] && ok "no file of ours left behind ($(wc -l <"$out/ours.files") checked)" ||
	ko "left behind: $left"
flip 1
rgb_w "$out/deb2.rgb"
if [ "$(bytes "$out/deb2.rgb")" -ge $frame ] && ! corrected "$out/deb2.rgb"; then
	ok "Debian's libv4l2 is the one loaded again (the upside-down sensor uncorrected)"
else
	ko "the sensor is still corrected ($(bytes "$out/deb2.rgb") bytes): ours is still loaded"
fi
flip 0

step "end"
rm -rf "$out"
echo "$pass passed, $fail failed"
[ $fail = 0 ]
