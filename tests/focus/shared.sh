#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The autofocus daemon beside an application, both through the frame
# server (LIBV4L2_SHARE=1) on one virtual camera with a simulated lens:
#   shared.sh V4L2_FRAMESERVER V4L2_AUTOFOCUS V4L2_GRAB FOCUS_SHARPNESS
# v4l2-grab streams 260 frames while v4l2-autofocus focuses the shared
# camera; the grab must get every frame (no EBUSY, no stall) and the
# daemon must end within 2 % of the range of the lens's in-focus position,
# and the application's own last frame must be sharp where its first was
# blurred (the lens starts at 512): the daemon moved the camera the
# application sees, not a camera of its own.
set -u
srv=${1:?} af=${2:?} grab=${3:?} sharpness=${4:?}
infocus=650
spec="YUYV:320x240:lens=$infocus"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_RUNTIME_DIR=$tmp/run LIBV4L2_SHARE=1 LIBV4L2_FRAMESERVER=$srv
mkdir -m 700 "$XDG_RUNTIME_DIR"

"$grab" --camera "$spec" --format YU12 --size 320x240 --frames 260 \
	--out "$tmp/grab" \
	>"$tmp/grab.log" 2>&1 &
gpid=$!
sleep 0.3
"$af" --vcam "$spec" --frames 230 --verbose >"$tmp/af.log" 2>&1
arc=$?
wait $gpid
grc=$?

fail=0
n=$(ls "$tmp/grab" 2>/dev/null | wc -l)
if [ $grc = 0 ] && [ "$n" = 260 ]; then
	echo "PASS the application got its 260 frames beside the daemon"
else
	echo "FAIL v4l2-grab: exit $grc, $n frames"; tail -n 5 "$tmp/grab.log"
	fail=1
fi
pos=$(sed -n 's/.* moves, focus \(-\?[0-9]*\),.*/\1/p' "$tmp/af.log")
if [ $arc = 0 ] && [ -n "$pos" ] && [ $((pos > infocus ? pos - infocus : infocus - pos)) -le 20 ]; then
	echo "PASS the daemon focused the shared camera: $pos (in focus at $infocus)"
	tail -n 1 "$tmp/af.log"
else
	echo "FAIL v4l2-autofocus: exit $arc, focus '${pos}' (in focus at $infocus)"
	tail -n 5 "$tmp/af.log"
	fail=1
fi
first=$(ls "$tmp/grab" | sort | head -n 1) last=$(ls "$tmp/grab" | sort | tail -n 1)
m0=$("$sharpness" 320 240 "$tmp/grab/$first") m1=$("$sharpness" 320 240 "$tmp/grab/$last")
if awk -v a="$m0" -v b="$m1" 'BEGIN { exit !(b > 2 * a && a > 0) }'; then
	echo "PASS the application's picture came into focus: sharpness $m0 -> $m1"
else
	echo "FAIL the application's picture: sharpness $m0 -> $m1 ($first, $last)"
	fail=1
fi
exit $fail
