#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Runs in the guest: stream from the emulated isochronous UVC camera by
# hand (README, "One emulated camera by hand"). $1 is tests/usb/usbcheck.
# Finds the camera's capture node by its USB product id, lists what the
# driver offers, checks 10 frames through libv4l2, then asks the camera
# for a fault and shows what it saw.
usbcheck=${1:?usage: one-camera.sh USBCHECK}
dev=
for v in /sys/class/video4linux/video*; do
	[ "$(cat "$v/device/../idProduct" 2>/dev/null)" = 7601 ] &&
		[ "$(cat "$v/index")" = 0 ] && dev=/dev/${v##*/}
done
[ -n "$dev" ] || { echo "no emulated UVC camera found"; exit 1; }
v4l2-ctl -d "$dev" --list-formats-ext
"$usbcheck" --fmt RGB3 --frames 10 --lens "$dev"
# unplugged 5 frames into the next stream, back after 2 s
echo "unplug 5 2000" >>"$USBCAM_DIR/cam0.cmd"
cat "$USBCAM_DIR/cam0.log"
