#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Guest side of the vm-libv4lconvert test (run by vivid-vm.sh):
#   batch-libv4lconvert.sh CONVERT_FRAMES [DEVICE]
# Captures raw 640x480 frames from vivid in many formats with v4l2-ctl (a
# static test pattern, no OSD text: deterministic frames), then runs
# CONVERT_FRAMES (tests/vm/convert_frames.c) on them: our libv4lconvert
# against the distribution's on the real device. With SIMD kernels, the
# comparison runs again with LIBV4LCONVERT_SIMD=scalar.
set -uo pipefail

conv=${1:?usage: $0 CONVERT_FRAMES [DEVICE]}
dev=${2:-/dev/video0}
out=$(mktemp -d /tmp/vm-frames.XXXXXX)

formats=(YUYV UYVY YVYU VYUY NV12 NV21 YU12 YV12 NV16 NV61 422P
	RGB3 BGR3 RGBP XR24 BA24 BX24 AR24 RGB4 BGR4 HSV3 HSV4
	GREY 'Y16 ' BA81 GBRG GRBG RGGB BG10 GB10 BA10 RG10 BYR2)

[ -c "$dev" ] || { echo "no $dev in the VM: skipped"; exit 77; }
command -v v4l2-ctl >/dev/null || { echo "v4l2-ctl missing: skipped"; exit 77; }
v4l2-ctl -d "$dev" -D | sed -n 's/^\t//; /Driver name\|Card type\|Driver version/p'

t0=$(date +%s.%N)
# 100% colour squares, no OSD text: every frame is the same.
v4l2-ctl -d "$dev" --set-ctrl=osd_text_mode=2,test_pattern=4 ||
	{ echo "FAIL cannot set vivid's test controls"; exit 1; }
names=()
capture_fail=0
for f in "${formats[@]}"; do
	name=${f// /}
	file=$out/$name.raw
	# S_FMT, then 30 fps (vivid starts at 5 fps; a format change may
	# clamp the interval), then two frames.
	# vivid 6.1 draws HSV hues 0-255 by default but reports 0-179:
	# ask for 0-255 explicitly (convert_frames does the same).
	extra=
	case "$f" in HSV*) extra=,hsv=256 ;; esac
	v4l2-ctl -d "$dev" -v "width=640,height=480,pixelformat=$f$extra" -p 30 \
		--stream-mmap --stream-count=2 --stream-to="$file" \
		>"$out/$name.log" 2>&1
	# v4l2-ctl exits 0 even when streaming fails: the size is checked
	# (against the driver's sizeimage) by convert_frames.
	if [ ! -s "$file" ]; then
		echo "FAIL $name: no frames captured"
		sed 's/^/    /' "$out/$name.log" | tail -n 5
		capture_fail=$((capture_fail + 1))
		continue
	fi
	names+=("$name")
done
t1=$(date +%s.%N)
echo "captured ${#names[@]} of ${#formats[@]} formats in" \
	"$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s"

rc=0
"$conv" "$dev" "$out" "${names[@]}" || rc=$?
t2=$(date +%s.%N)
echo "conversions: $(awk -v a="$t1" -v b="$t2" 'BEGIN { printf "%.1f", b - a }') s"
if [ $rc != 77 ] && [ -z "${LIBV4LCONVERT_SIMD:-}" ]; then
	echo "--- again with LIBV4LCONVERT_SIMD=scalar"
	rc2=0
	LIBV4LCONVERT_SIMD=scalar "$conv" "$dev" "$out" "${names[@]}" || rc2=$?
	[ $rc = 0 ] && rc=$rc2
	t3=$(date +%s.%N)
	echo "conversions: $(awk -v a="$t2" -v b="$t3" 'BEGIN { printf "%.1f", b - a }') s"
fi
if [ $capture_fail != 0 ]; then
	echo "$capture_fail formats could not be captured"
	[ $rc = 0 ] && rc=1
fi
rm -rf "$out"
exit $rc
