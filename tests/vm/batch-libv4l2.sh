#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Guest side of the vm-libv4l2 test (run by vivid-vm.sh):
#   batch-libv4l2.sh LIBV4L2_SO LIBV4LCONVERT_SO V4L2CONVERT_SO FLIPCHECK GRAB \
#                    DMABUFCHECK
# Our libv4l2 on the real vivid driver:
#  1. v4l2-compliance -s10 on the bare driver, -w -s10 through the
#     distribution's libv4l2 (reported) and through ours (LD_LIBRARY_PATH):
#     ours may not fail more tests than the bare driver does;
#  2. streaming through our libv4l2: v4l2-ctl -w with mmap buffers and an
#     emulated conversion, our v4l2-grab with read() and a conversion, and
#     v4l2-ctl -w with USERPTR buffers where no conversion is needed:
#     refused (EINVAL) as by the original, since conversion is enabled,
#     and DMABUF buffers exported by a second
#     vivid instance (/dev/video1) imported through v4l2_open/v4l2_ioctl
#     (the distribution's libv4l2 is tried too and reported);
#  3. a sensor mounted upside down (vivid's sensor_flipped_* controls) is
#     corrected: our RGB24 frames are the 180-degree rotation of the raw ones;
#  4. ffmpeg, unmodified, under LD_PRELOAD=v4l2convert.so asking for rgb24.
# Ends with "N passed, N failed".
set -uo pipefail

lib2=${1:?} libc=${2:?} shim=${3:?} flipcheck=${4:?} grab=${5:?}
dmabufcheck=${6:?}
dev=/dev/video0
libs="$(dirname "$lib2"):$(dirname "$libc")"
out=$(mktemp -d /tmp/vm-v4l2.XXXXXX)
pass=0 fail=0
ok() { echo "PASS $*"; pass=$((pass + 1)); }
ko() { echo "FAIL $*"; fail=$((fail + 1)); }

[ -c "$dev" ] || { echo "no $dev in the VM: skipped"; exit 77; }
command -v v4l2-compliance >/dev/null || { echo "v4l2-compliance is not installed: skipped"; exit 77; }

reset_fmt() { v4l2-ctl -d $dev -v width=640,height=360,pixelformat=YUYV >/dev/null 2>&1; }
failed_count() { sed -n 's/.*Failed: \([0-9]*\).*/\1/p' "$1" | tail -n 1; }

# 1. compliance, bare and through our libv4l2 (compliance 1.22 is state
# dependent: start each run from YUYV).
reset_fmt
v4l2-compliance -d $dev -s10 >"$out/bare.txt" 2>&1
reset_fmt
LD_LIBRARY_PATH=$libs v4l2-compliance -d $dev -w -s10 >"$out/ours.txt" 2>&1
reset_fmt
v4l2-compliance -d $dev -w -s10 >"$out/debian.txt" 2>&1
bare=$(failed_count "$out/bare.txt") ours=$(failed_count "$out/ours.txt")
debian=$(failed_count "$out/debian.txt")
echo "v4l2-compliance -s10 failures: bare driver ${bare:-?}," \
	"the distribution's libv4l2 ${debian:-?}, ours ${ours:-?}"
if [ -n "$bare" ] && [ -n "$ours" ] && [ "$ours" -le "$bare" ]; then
	ok "v4l2-compliance -w: $ours failures through our libv4l2, $bare on the bare driver"
else
	ko "v4l2-compliance -w: ${ours:-?} failures through our libv4l2, ${bare:-?} bare"
	grep -E 'fail:' "$out/ours.txt" | head -n 20
fi

# 2. streaming an emulated format: vivid lacks none of the four, so force
# conversion with a quirk flag (upside down), as a quirk-table camera would.
reset_fmt
v4l2-ctl -d $dev -p 30 >/dev/null
frames_ok() { # what file bytes
	local size
	size=$(stat -c %s "$2" 2>/dev/null || echo 0)
	if [ "$size" = "$3" ]; then ok "$1"; else ko "$1: $size bytes, want $3"; fi
}
rm -f "$out/s.raw"
LIBV4LCONTROL_FLAGS=3 LD_LIBRARY_PATH=$libs v4l2-ctl -d $dev -w \
	-v width=640,height=480,pixelformat=RGB3 --stream-mmap \
	--stream-count=3 --stream-to="$out/s.raw" >"$out/s.log" 2>&1
frames_ok "v4l2-ctl -w --stream-mmap, converted" "$out/s.raw" $((3 * 640 * 480 * 3))
LIBV4LCONTROL_FLAGS=3 LD_LIBRARY_PATH=$libs "$grab" --device $dev --read \
	--format RGB3 --size 640x480 --frames 3 --out "$out/grab" >"$out/g.log" 2>&1 ||
	tail -n 3 "$out/g.log"
n=$(ls "$out/grab"/frame-*.png 2>/dev/null | wc -l)
if [ "$n" = 3 ]; then ok "read() emulation, converted: 3 frames"; else ko "read(): $n frames"; fi
rm -f "$out/u.raw"
LD_LIBRARY_PATH=$libs v4l2-ctl -d $dev -w -v width=640,height=480,pixelformat=YUYV \
	--stream-user --stream-count=3 --stream-to="$out/u.raw" >"$out/u.log" 2>&1
if [ "$(stat -c %s "$out/u.raw" 2>/dev/null || echo 0)" = 0 ] &&
	grep -q 'VIDIOC_REQBUFS' "$out/u.log"; then
	ok "v4l2-ctl -w --stream-user: USERPTR refused ($(grep -m1 -o 'VIDIOC_REQBUFS.*' "$out/u.log")), as by the original"
else
	ko "v4l2-ctl -w --stream-user: $(grep -m1 -o 'VIDIOC_REQBUFS.*' "$out/u.log"), $(stat -c %s "$out/u.raw" 2>/dev/null || echo 0) bytes"
fi
if [ -c /dev/video1 ]; then
	if LD_LIBRARY_PATH=$libs "$dmabufcheck" "$lib2" /dev/video1 $dev >"$out/d.log" 2>&1; then
		ok "DMABUF passes through: $(tail -n 1 "$out/d.log")"
	else
		ko "DMABUF through our libv4l2: $(tail -n 2 "$out/d.log" | tr '\n' ' ')"
	fi
	"$dmabufcheck" libv4l2.so.0 /dev/video1 $dev >"$out/dd.log" 2>&1
	echo "DMABUF through the distribution's libv4l2: $(tail -n 1 "$out/dd.log")"
else
	ko "DMABUF: no second vivid instance (/dev/video1)"
fi
reset_fmt

# 3. sensor flip: raw capture without libv4l2, then through ours.
v4l2-ctl -d $dev --set-ctrl=osd_text_mode=2,test_pattern=4 \
	--set-ctrl=sensor_flipped_horizontally=1,sensor_flipped_vertically=1
v4l2-ctl -d $dev -v width=640,height=480,pixelformat=RGB3 -p 30 \
	--stream-mmap --stream-count=1 --stream-to="$out/raw.rgb" >/dev/null 2>&1
LD_LIBRARY_PATH=$libs v4l2-ctl -d $dev -w -v width=640,height=480,pixelformat=RGB3 \
	--stream-mmap --stream-count=2 --stream-to="$out/ours.rgb" >/dev/null 2>&1
if "$flipcheck" "$out/raw.rgb" "$out/ours.rgb" 640 480; then
	ok "sensor mounted upside down corrected"
else
	ko "sensor mounted upside down not corrected"
fi
v4l2-ctl -d $dev --set-ctrl=sensor_flipped_horizontally=0,sensor_flipped_vertically=0

# 4. an unmodified program under the preload shim
if command -v ffmpeg >/dev/null; then
	reset_fmt
	LD_PRELOAD=$shim LD_LIBRARY_PATH=$libs LIBV4LCONTROL_FLAGS=3 \
		ffmpeg -hide_banner -loglevel error -f v4l2 -input_format rgb24 \
		-video_size 640x480 -i $dev -frames:v 3 -f rawvideo "$out/ff.rgb" \
		>"$out/ff.log" 2>&1
	size=$(stat -c %s "$out/ff.rgb" 2>/dev/null || echo 0)
	if [ "$size" = $((3 * 640 * 480 * 3)) ]; then
		ok "ffmpeg under LD_PRELOAD=v4l2convert.so: 3 rgb24 frames"
	else
		ko "ffmpeg under the shim: $size bytes"
		tail -n 5 "$out/ff.log"
	fi
else
	echo "ffmpeg not installed: its check skipped"
fi

rm -rf "$out"
echo "$pass passed, $fail failed"
[ $fail = 0 ]
