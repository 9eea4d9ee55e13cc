#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Guest side of the vm-capture test (run by vivid-vm.sh):
#   batch-capture.sh CAPTURE_CHECK [DEVICE]
# vivid's static test pattern (no OSD text, 100% colour squares), then
# CAPTURE_CHECK (tests/vm/capture_check.c): for every vivid format our
# libv4lconvert converts, frames through our libv4l2 (mmap and read();
# RGB24 and YUV420, mirrored by LIBV4LCONTROL_FLAGS=1) must equal our
# libv4lconvert's conversion of the raw frame, and USERPTR be refused. Then, informational, the
# time DQBUF takes with and without conversion (TCG: indicative only).
set -uo pipefail

check=${1:?usage: $0 CAPTURE_CHECK [DEVICE]}
dev=${2:-/dev/video0}

formats=(YUYV UYVY YVYU VYUY NV12 NV21 YU12 YV12 NV16 NV61 422P
	RGB3 BGR3 RGBP XR24 BA24 GREY 'Y16 ' BA81 GBRG GRBG RGGB HSV3)
# HSV3: vivid may report hsv_enc 0 (0-179) to the plain-ioctl raw capture
# but 256 to libv4l2's S_FMT for the same picture; capture_check then
# converts the raw frame as libv4l2's source was described (and says so).

[ -c "$dev" ] || { echo "no $dev in the VM: skipped"; exit 77; }
command -v v4l2-ctl >/dev/null || { echo "v4l2-ctl missing: skipped"; exit 77; }

# hsv_encoding=1: vivid (6.1) draws hues 0-255 but may report 0-179.
v4l2-ctl -d "$dev" --set-ctrl=osd_text_mode=2,test_pattern=4,hsv_encoding=1 ||
	{ echo "FAIL cannot set vivid's test controls"; exit 1; }
v4l2-ctl -d "$dev" -v width=640,height=480,pixelformat=YUYV -p 30 >/dev/null

t0=$(date +%s.%N)
rc=0
LIBV4LCONTROL_FLAGS=1 "$check" "$dev" "${formats[@]}" || rc=$?
t1=$(date +%s.%N)
echo "capture checks: $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s"

"$check" --latency "$dev" YUYV NV12 BA81 || true
exit $rc
