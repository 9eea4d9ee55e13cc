#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Guest side of the usb-gspca test (tests/vm/vivid-vm.sh with the gspca
# cameras of tests/usb/usbcam):
#   batch-gspca.sh USBCHECK LIBV4L2_SO LIBV4LCONVERT_SO V4L2CONVERT_SO \
#                  FRAMESERVER
# Each chip on its real kernel driver, every frame checked against the
# picture the emulator encoded (usbcheck):
# chips (each camera)
#  1. the chip's raw frames converted by our libv4lconvert and by the
#     distribution's: byte for byte the same, and the picture;
#  2. RGB24 through our libv4l2, by mmap or read(), without the quirks'
#     processing (LIBV4LCONTROL_FLAGS: only the sensor's mounting, and
#     LIBV4LCONTROL_CONTROLS: only the flips, no white balance, gamma or
#     auto gain);
#  3. with the quirks data/camera-quirks.conf gives the camera's USB id
#     (software white balance, gamma, auto gain, the SE401's mirror): the
#     frames still come, the right way round (a low floor: the processing
#     changes the colours).
# replug
#     the SPCA505 (isochronous) unplugged and plugged back under usbcheck
#     and ffmpeg under v4l2convert.so sharing it through the frame server
#     with LIBV4L2_SHARE_REPLUG=1 (replug_test, lib.sh): both stream on in
#     the same format, good pictures before and after, the buffers'
#     sequence jumping over the gap (RGB24 without the quirks' processing,
#     as in 2). A YUV chip: its frames are found by comparison (no frame
#     id), which a Bayer chip's cannot do reliably: the SQ905C's RGB24
#     frames are 27.6 dB from their picture at worst and up to 25.6 dB
#     from the next one.
# USB_PARTS (a comma list of those names) runs only some. Ends with
# "N passed, N failed".
set -uo pipefail
shopt -s extglob

chk=${1:?} lib2=${2:?} libc=${3:?} shim=${4:?} server=${5:?}
. "$(dirname "$0")/lib.sh"
export LD_LIBRARY_PATH="$(dirname "$lib2"):$(dirname "$libc")"
out=$(mktemp -d /tmp/vm-gspca.XXXXXX)

# name USB-id size chip-format PSNR-floor quirk-flags-for-the-plain-check
# (the sensor's mounting: 1 mirrored) io
cams=(
	"pac207 093a:2460 352x288 P207 24 0 mmap"
	"mr97310a 093a:010f 320x240 M310 24 0 read"
	"spca505 0733:0430 320x240 S505 34 0 mmap"
	"spca508 0733:0110 176x144 S508 34 0 read"
	"sq905c 2770:905c 320x240 905C 24 0 mmap"
	"sonixb 0c45:602a 320x240 S910 24 0 read"
	"jl2005bcd 0979:0227 320x240 JL20 24 0 mmap"
	"se401 03e8:0004 320x240 S401 40 1 read"
)

# one camera: name id size fmt floor flags io (as in cams)
chip() {
	local name=$1 id=$2 size=$3 fmt=$4 floor=$5 flags=$6 io=$7 dev t0
	if ! dev=$(node "$id" 30); then
		ko "$name ($id): no video node"
		dmesg | grep -i "$name" | tail -n 5
		return
	fi
	t0=$SECONDS
	"$chk" --original --fmt "$fmt" --size "$size" --frames 5 \
		--psnr "$floor" --flip "$flags" "$dev" >"/tmp/$name.log" 2>&1
	rc=$?
	if [ $rc = 0 ]; then
		ok "$name $fmt $size, ours = the original: $(tail -n 2 "/tmp/$name.log" | tr '\n' ' ')"
	elif [ $rc = 77 ]; then
		echo "$name: the original libv4lconvert is not installed: skipped"
	else
		ko "$name $fmt $size against the original: $(tail -n 4 "/tmp/$name.log" | tr '\n' ' ')"
	fi
	LIBV4LCONTROL_FLAGS=$flags LIBV4LCONTROL_CONTROLS=0x06 \
		check "$name RGB3 $size $io, through libv4l2" \
		"$chk" --fmt RGB3 --size "$size" --io "$io" --frames 5 \
		--psnr "$floor" "$dev"
	check "$name RGB3 with its quirks' processing" \
		"$chk" --fmt RGB3 --size "$size" --frames 3 --psnr 12 "$dev"
	echo "($name: $((SECONDS - t0)) s; the camera: $(camlog $((i - 1)) |
		grep "stream stop" | sed 's/.*stream stop: //' | tr '\n' ' '))"
}

chips() {
	local c
	i=0
	for c in "${cams[@]}"; do
		i=$((i + 1))
		chip $c
	done
}

replug() {
	local dev
	if ! dev=$(node 0733:0430 30); then
		ko "replug: the SPCA505 has no video node"
		return
	fi
	export XDG_RUNTIME_DIR=$(mktemp -d /run/vm-gspca-run.XXXXXX)
	chmod 700 "$XDG_RUNTIME_DIR"
	LIBV4LCONTROL_FLAGS=0 LIBV4LCONTROL_CONTROLS=0x06 \
		replug_test 2 0733:0430 $dev 320x240 RGB3 --psnr 34
	rm -rf "$XDG_RUNTIME_DIR"
}

for part in chips replug; do
	[[ ",${USB_PARTS:-all}," == *,@(all|$part),* ]] || continue
	t0=$SECONDS
	$part
	echo "($part: $((SECONDS - t0)) s)"
done
rm -rf "$out"
echo "$pass passed, $fail failed"
[ $fail = 0 ]
