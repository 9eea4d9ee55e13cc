#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Guest side of the usb-uvc test (tests/vm/vivid-vm.sh with the cameras
# uvc-iso uvc-bulk uvc-flip of tests/usb/usbcam, in that order):
#   batch-uvc.sh USBCHECK LIBV4L2_SO LIBV4LCONVERT_SO V4L2CONVERT_SO \
#                FRAMESERVER AUTOFOCUS
# Our libraries on the real uvcvideo driver, every frame checked against
# the picture the emulator rendered (usbcheck):
#  1. frames: the cameras' own YUYV and MJPEG byte for byte, and RGB24,
#     BGR24, YU12, YV12 converted by libv4l2, by mmap and by read(), on
#     the isochronous and the bulk camera;
#  2. the upside-down laptop camera (its USB id and the VM's DMI strings
#     match a rule of data/camera-quirks.conf) comes out upright through
#     libv4l2 and through v4l2convert.so, and mirrored again by the
#     emulated flip control;
#  3. v4l2-compliance -w through our libv4l2 fails no more than on the bare
#     driver;
#  4. controls: hardware controls reach the camera (its log) and read
#     back; auto gain (emulated) drives the camera's exposure time and
#     gain until the picture is bright enough; v4l2-autofocus and
#     FOCUS_AUTO through libv4l2 focus the camera's focus motor within 2 %
#     of its range;
#  5. Debian's programs: v4l2-ctl -w, ffmpeg under v4l2convert.so,
#     gst-launch-1.0 v4l2src with GST_V4L2_USE_LIBV4L2=1;
#  6. the frame server shares the MJPEG camera among three programs;
#  7. faults: corrupt and truncated frames (no crash, no EIO, the stream
#     goes on), a stalled endpoint, and unplugging mid-stream: a direct,
#     a shared and a preloaded program all get ENODEV, none hangs.
# Ends with "N passed, N failed".
set -uo pipefail

chk=${1:?} lib2=${2:?} libc=${3:?} shim=${4:?} server=${5:?} af=${6:?}
here=$(dirname "$0")
. "$here/lib.sh"
libs="$(dirname "$lib2"):$(dirname "$libc")"
export LD_LIBRARY_PATH=$libs
out=$(mktemp -d /tmp/vm-usb.XXXXXX)
ISO=1209:7601 BULK=1209:7602 FLIP=04f2:b012
CID_HFLIP=0x00980914 CID_AUTOGAIN=0x00980912

iso=$(node $ISO) && bulk=$(node $BULK) && flip=$(node $FLIP) || {
	echo "FAIL the cameras did not appear"
	ls -l /dev/video*; dmesg | grep -v xhci_hcd | tail -n 20
	exit 1
}
echo "cameras: iso $iso, bulk $bulk, upside-down $flip"

# 1. frames
check "iso YUYV mmap, byte-exact" "$chk" --lens --fmt YUYV --frames 15 $iso
check "iso YUYV read, byte-exact" "$chk" --lens --fmt YUYV --io read --frames 8 $iso
check "iso MJPG 1280x720, byte-exact" "$chk" --lens --fmt MJPG --size 1280x720 --frames 15 $iso
check "iso MJPG 1920x1080, byte-exact" "$chk" --lens --fmt MJPG --size 1920x1080 --frames 4 $iso
for f in RGB3 BGR3 YU12 YV12; do
	check "iso $f mmap" "$chk" --lens --fmt $f --frames 8 --psnr 40 $iso
	check "iso $f read" "$chk" --lens --fmt $f --io read --frames 8 --psnr 40 $iso
done
check "iso RGB3 1280x720" "$chk" --lens --fmt RGB3 --size 1280x720 --frames 4 --psnr 30 $iso
check "bulk YUYV, byte-exact" "$chk" --fmt YUYV --frames 10 $bulk
check "bulk MJPG 1280x720, byte-exact" "$chk" --fmt MJPG --size 1280x720 --frames 8 $bulk
check "bulk RGB3 mmap" "$chk" --fmt RGB3 --frames 8 --psnr 40 $bulk
check "bulk YU12 read" "$chk" --fmt YU12 --io read --frames 8 --psnr 40 $bulk

# 2. upside down: the raw frames are, libv4l2's are not
LIBV4LCONTROL_FLAGS=0 check "laptop camera raw frames upside down" \
	"$chk" --fmt YUYV --flip 3 --frames 4 $flip
check "laptop camera YUYV upright (flipped in place), byte-exact" \
	"$chk" --fmt YUYV --frames 8 $flip
for f in RGB3 BGR3 YU12 YV12; do
	check "laptop camera $f upright" "$chk" --fmt $f --frames 6 --psnr 40 $flip
done
check "laptop camera RGB3 upright by read()" "$chk" --fmt RGB3 --io read --frames 6 --psnr 40 $flip
check "laptop camera mirrored by the emulated hflip" \
	"$chk" --fmt RGB3 --set $CID_HFLIP=1 --frames 4 --flip 1 --psnr 40 $flip
"$chk" --fmt RGB3 --set $CID_HFLIP=0 --frames 1 $flip >/dev/null 2>&1
rm -f "$out/shim.rgb"
LD_PRELOAD=$shim v4l2-ctl -d $flip -v width=640,height=480,pixelformat=RGB3 \
	--stream-mmap --stream-count=5 --stream-to="$out/shim.rgb" >"$out/shim.log" 2>&1
check "laptop camera upright under v4l2convert.so (v4l2-ctl)" \
	"$chk" --file "$out/shim.rgb" --fmt RGB3 --frames 5 --psnr 40

# 3. compliance, bare and through our libv4l2 (and Debian's, reported)
failed_count() { sed -n 's/.*Failed: \([0-9]*\).*/\1/p' "$1" | tail -n 1; }
reset_fmt() { v4l2-ctl -d $iso -v width=640,height=480,pixelformat=YUYV >/dev/null 2>&1; }
reset_fmt
LD_LIBRARY_PATH= v4l2-compliance -d $iso -s10 >"$out/bare.txt" 2>&1
reset_fmt
v4l2-compliance -d $iso -w -s10 >"$out/ours.txt" 2>&1
reset_fmt
LD_LIBRARY_PATH= v4l2-compliance -d $iso -w -s10 >"$out/debian.txt" 2>&1
bare=$(failed_count "$out/bare.txt") ours=$(failed_count "$out/ours.txt")
debian=$(failed_count "$out/debian.txt")
echo "v4l2-compliance -s10 on uvcvideo: bare ${bare:-?} failed," \
	"Debian's libv4l2 ${debian:-?}, ours ${ours:-?}"
if [ -n "$bare" ] && [ -n "$ours" ] && [ "$ours" -le "$bare" ]; then
	ok "v4l2-compliance -w: $ours failures through our libv4l2, $bare bare"
else
	ko "v4l2-compliance -w: ${ours:-?} failures through our libv4l2, ${bare:-?} bare"
	grep -E 'fail:' "$out/ours.txt" | head -n 20
fi
grep -E 'fail:' "$out/bare.txt" | sed 's/^/  bare: /' | head -n 10
reset_fmt

rm -rf "$out"
echo "$pass passed, $fail failed"
[ $fail = 0 ]
