#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Guest side of the usb-pipewire test (tests/vm/vivid-vm.sh with the
# cameras sq905c and uvc-flip of tests/usb/usbcam, vivid without a capture
# node):
#   batch-pipewire.sh ROOT PREFIX LIBDIR USBCHECK
# ROOT PREFIX is an installed tree (meson install into the DESTDIR ROOT).
# PipeWire and WirePlumber run as a desktop session runs them, with the
# systemd user drop-in the tree ships for them (PREFIX/share/libv4l/
# libv4l-pipewire.conf, opt-in: v4l2-run(1)): its Environment= lines are
# the daemons' environment, its paths taken under ROOT. A PipeWire client,
# GStreamer's pipewiresrc, reads frames of each camera's node into a file,
# which USBCHECK (tests/usb/usbcheck --file) checks against the emulator's
# pictures, frame by frame:
#  chip    the gspca SQ905C camera (its chip format only, no frame
#          interval): RGB 320x240, converted, upright, with its quirks'
#          processing;
#  laptop  the upside-down laptop camera (uvcvideo, Chicony 04f2:b012 in a
#          Founder T14MF, a rule of data/camera-quirks.conf): RGB 640x480,
#          upright.
# Frames lost on the way (a loaded host) do not count; a wrong frame is a
# failure. PIPEWIRE_BARE=1: the daemons without the drop-in, each case
# expected to fail (the proof that the test sees the difference). Ends
# with "N passed, N failed".
#
# The VM has neither systemd nor udevd: the daemons are started by hand
# under dbus-run-session, WirePlumber as its two halves (main.conf,
# policy.conf: the default configuration also watches logind's seats,
# which the VM lacks, and exits), and the udev database entries of the
# two cameras, which WirePlumber's V4L2 monitor requires (a capture
# capability), are written as udevd's v4l_id would
# (tests/usb/BROWSERS.md).
set -uo pipefail

root=${1:?} prefix=${2:?} libdir=${3:?} chk=${4:?}
. "$(dirname "$0")/lib.sh"
bare=${PIPEWIRE_BARE:-0}
CHIP=2770:905c LAPTOP=04f2:b012
conf=$root$prefix/share/libv4l/libv4l-pipewire.conf

for p in pipewire wireplumber pw-cli gst-launch-1.0 dbus-run-session; do
	command -v $p >/dev/null || {
		echo "$p is not installed (scripts/install-deps.sh --vm): skipped"
		exit 77
	}
done
[ -f "$conf" ] || { echo "FAIL no $conf"; exit 1; }

# The session, inside dbus-run-session: this script again.
if [ "${PIPEWIRE_IN_SESSION:-0}" != 1 ]; then
	PIPEWIRE_IN_SESSION=1 exec dbus-run-session -- bash "$0" "$@"
fi

out=$(mktemp -d /tmp/vm-pipewire.XXXXXX)
export XDG_RUNTIME_DIR=$out/run
mkdir -m 0700 "$XDG_RUNTIME_DIR"

chip=$(node $CHIP 30) && laptop=$(node $LAPTOP 30) || {
	echo "FAIL the cameras did not appear"
	ls -l /dev/video*
	exit 1
}
echo "cameras: chip (SQ905C) $chip, upside-down laptop $laptop"

# udev_entry DEVICE PRODUCT: what udevd would have recorded for it.
udev_entry() {
	local minor
	minor=$((0x$(stat -c %T "$1")))
	mkdir -p /run/udev/data
	printf 'E:ID_V4L_VERSION=2\nE:ID_V4L_PRODUCT=%s\nE:ID_V4L_CAPABILITIES=:capture:\n' \
		"$2" >"/run/udev/data/c81:$minor"
}
udev_entry "$chip" "libv4l chip camera"
udev_entry "$laptop" "libv4l laptop camera"

# The drop-in's environment, its paths under the install root (the shim
# finds the installed libraries by its run path: no LD_LIBRARY_PATH).
daemon_env=(env)
if [ "$bare" != 1 ]; then
	while IFS= read -r kv; do
		case $kv in
		LD_PRELOAD=/*) kv=LD_PRELOAD=$root${kv#LD_PRELOAD=} ;;
		esac
		daemon_env+=("$kv")
	done <<<"$(sed -n 's/^Environment=//p' "$conf")" # (no /dev/fd here)
	echo "the daemons' environment from the drop-in: ${daemon_env[*]:1}"
fi

pgids=()
daemon() { # NAME COMMAND...: in the background, its own process group
	local name=$1
	shift
	setsid "${daemon_env[@]}" "$@" >"$out/$name.log" 2>&1 &
	pgids+=($!)
}
stop_all() {
	local g
	for g in "${pgids[@]}"; do kill -TERM -- -"$g" 2>/dev/null; done
	sleep 1
	for g in "${pgids[@]}"; do kill -KILL -- -"$g" 2>/dev/null; done
}
trap stop_all EXIT

t0=$SECONDS
daemon pipewire pipewire
for ((i = 0; i < 600; i++)); do
	[ -S "$XDG_RUNTIME_DIR/pipewire-0" ] && break
	sleep 0.1
done
daemon wp-main wireplumber -c main.conf
daemon wp-policy wireplumber -c policy.conf

# node_of DEVICE: the id of the PipeWire node of that camera.
node_of() {
	awk -v dev="$1" '
	/^[ \t]*id [0-9]+,/ { id = $2; sub(",", "", id) }
	index($0, "\"v4l2:" dev "\"") { print id; exit }' "$out/nodes"
}
chip_id= laptop_id=
for ((i = 0; i < 180; i++)); do
	pw-cli ls Node >"$out/nodes" 2>&1
	chip_id=$(node_of "$chip") laptop_id=$(node_of "$laptop")
	[ -n "$chip_id" ] && [ -n "$laptop_id" ] && break
	sleep 0.5
done
echo "(the nodes after $((SECONDS - t0)) s: chip ${chip_id:-none}, laptop ${laptop_id:-none})"

# grab CASE NODE WxH WHAT PSNR: 10 frames of RGB at WxH from the node by
# pipewiresrc, 5 of them right.
grab() {
	local name=$1 id=$2 size=$3 what=$4 psnr=$5 mark t1=$SECONDS
	if [ -z "$id" ]; then
		ko "$what: no PipeWire node for the camera"
		sed 's/^/    /' "$out/nodes" | tail -n 40
		tail -n 5 "$out"/wp-*.log "$out/pipewire.log"
		return
	fi
	mark=$(loss_mark)
	timeout -k 5 240 gst-launch-1.0 -q pipewiresrc path="$id" \
		num-buffers=10 ! \
		"video/x-raw,format=RGB,width=${size%x*},height=${size#*x}" ! \
		filesink location="$out/$name.rgb" >"$out/$name.gst.log" 2>&1
	echo "($name: gst-launch-1.0 exit $? after $((SECONDS - t1)) s," \
		"$(($(stat -c %s "$out/$name.rgb" 2>/dev/null || echo 0) / (${size%x*} * ${size#*x} * 3))) frames)"
	if "$chk" --file "$out/$name.rgb" --loss-mark "$mark" --fmt RGB3 \
		--size "$size" --frames 5 --psnr "$psnr" >"$out/$name.chk" 2>&1; then
		if [ "$bare" = 1 ]; then
			ko "$what, without the drop-in: right all the same ($(tail -n 1 "$out/$name.chk"))"
		else
			ok "$what: $(tail -n 1 "$out/$name.chk")"
		fi
	elif [ "$bare" = 1 ]; then
		ok "$what, without the drop-in: not the upright picture ($(tail -n 1 "$out/$name.chk" | head -c 200))"
	else
		ko "$what: $(tail -n 3 "$out/$name.chk" | tr '\n' ' ')"
		tail -n 8 "$out/$name.gst.log"
		grep -v '^$' "$out/pipewire.log" | tail -n 10
	fi
}

grab laptop "$laptop_id" 640x480 \
	"pipewiresrc, upside-down laptop camera (uvcvideo), RGB upright" 40
# 20 dB: its quirks' processing moves the colours a little (27.9 dB the
# least measured), a frame upside down scores about 4 (BROWSERS.md).
grab chip "$chip_id" 320x240 \
	"pipewiresrc, SQ905C chip camera (gspca), RGB converted and upright" 20
stop_all
trap - EXIT
rm -rf "$out"
echo "$pass passed, $fail failed"
[ $fail = 0 ]
