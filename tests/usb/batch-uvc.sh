#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Guest side of the usb-uvc test (tests/vm/vivid-vm.sh with the cameras
# uvc-iso uvc-bulk uvc-flip of tests/usb/usbcam, in that order):
#   batch-uvc.sh USBCHECK LIBV4L2_SO LIBV4LCONVERT_SO V4L2CONVERT_SO \
#                FRAMESERVER AUTOFOCUS
# Our libraries on the real uvcvideo driver, every frame checked against
# the picture the emulator rendered (usbcheck):
#  frames       the cameras' own YUYV and MJPEG byte for byte, and RGB24,
#               BGR24, YU12, YV12 converted by libv4l2, by mmap and by
#               read(), on the isochronous and the bulk camera;
#  upside_down  the laptop camera (its USB id and the VM's DMI strings
#               match a rule of data/camera-quirks.conf) comes out upright
#               through libv4l2 and v4l2convert.so, mirrored again by the
#               emulated flip control;
#  compliance   v4l2-compliance -w through our libv4l2 fails no more than
#               on the bare driver;
#  controls     hardware controls reach the camera (its log) and read back;
#               auto gain (emulated) drives the camera's exposure time and
#               gain until the picture is bright enough; v4l2-autofocus and
#               FOCUS_AUTO through libv4l2 focus the camera's motor within
#               2 % of its range;
#  programs     Debian's v4l2-ctl -w, ffmpeg under v4l2convert.so,
#               gst-launch-1.0 v4l2src with GST_V4L2_USE_LIBV4L2=1;
#  server       the frame server shares the MJPEG camera among three
#               programs;
#  faults       corrupt and truncated frames (no crash, no EIO, the stream
#               goes on), a stalled endpoint (no damaged frame, no hang),
#               unplugging mid-stream: a direct, a preloaded and two shared
#               programs all get ENODEV, none hangs;
#  replug       the camera unplugged and plugged back under two programs
#               sharing it that asked to be carried across
#               (LIBV4L2_SHARE_REPLUG=1): usbcheck and ffmpeg under
#               v4l2convert.so both stream on (replug_test, lib.sh).
# USB_PARTS (a comma list of those names) runs only some. Ends with
# "N passed, N failed".
set -uo pipefail
shopt -s extglob

chk=${1:?} lib2=${2:?} libc=${3:?} shim=${4:?} server=${5:?} af=${6:?}
. "$(dirname "$0")/lib.sh"
export LD_LIBRARY_PATH="$(dirname "$lib2"):$(dirname "$libc")"
out=$(mktemp -d /tmp/vm-usb.XXXXXX)
ISO=1209:7601 BULK=1209:7602 FLIP=04f2:b012
CID_HFLIP=0x00980914 CID_FOCUS_AUTO=0x009a090c

# The bare driver's tool (no libv4l2 of ours, nor Debian's).
bare_ctl() { LD_LIBRARY_PATH= v4l2-ctl "$@"; }

frames() {
	local f
	check "iso YUYV mmap, byte-exact" "$chk" --lens --fmt YUYV --frames 15 $iso
	check "iso YUYV read, byte-exact" "$chk" --lens --fmt YUYV --io read --frames 8 $iso
	check "iso YUYV 1280x720 at 10 fps, byte-exact" \
		"$chk" --lens --fmt YUYV --size 1280x720 --fps 10 --frames 3 $iso
	check "iso MJPG 1280x720, byte-exact" \
		"$chk" --lens --fmt MJPG --size 1280x720 --frames 15 $iso
	check "iso MJPG 1920x1080, byte-exact" \
		"$chk" --lens --fmt MJPG --size 1920x1080 --frames 4 $iso
	for f in RGB3 BGR3 YU12 YV12; do
		check "iso $f mmap" "$chk" --lens --fmt $f --frames 8 --psnr 40 $iso
		check "iso $f read" "$chk" --lens --fmt $f --io read --frames 8 \
			--psnr 40 $iso
	done
	check "iso RGB3 asking for sRGB, full range (as GStreamer does)" \
		"$chk" --lens --fmt RGB3 --ask-srgb --frames 4 --psnr 40 $iso
	check "iso RGB3 1280x720 (from MJPG)" \
		"$chk" --lens --fmt RGB3 --size 1280x720 --frames 4 --psnr 30 $iso
	check "bulk YUYV, byte-exact" "$chk" --fmt YUYV --frames 10 $bulk
	check "bulk MJPG 1280x720, byte-exact" \
		"$chk" --fmt MJPG --size 1280x720 --frames 8 $bulk
	check "bulk RGB3 mmap" "$chk" --fmt RGB3 --frames 8 --psnr 40 $bulk
	check "bulk YU12 read" "$chk" --fmt YU12 --io read --frames 8 --psnr 40 $bulk
}

upside_down() {
	local f mark
	LIBV4LCONTROL_FLAGS=0 check "laptop camera raw frames upside down" \
		"$chk" --fmt YUYV --flip 3 --frames 4 $flip
	check "laptop camera YUYV upright (flipped in place), byte-exact" \
		"$chk" --fmt YUYV --frames 8 $flip
	for f in RGB3 BGR3 YU12 YV12; do
		check "laptop camera $f upright" "$chk" --fmt $f --frames 6 --psnr 40 $flip
	done
	check "laptop camera RGB3 upright by read()" \
		"$chk" --fmt RGB3 --io read --frames 6 --psnr 40 $flip
	check "laptop camera mirrored by the emulated hflip" \
		"$chk" --fmt RGB3 --set $CID_HFLIP=1 --frames 4 --flip 1 --psnr 40 $flip
	"$chk" --fmt RGB3 --set $CID_HFLIP=0 --frames 1 $flip >/dev/null 2>&1
	rm -f "$out/shim.rgb"
	mark=$(loss_mark)
	LD_PRELOAD=$shim v4l2-ctl -d $flip -v width=640,height=480,pixelformat=RGB3 \
		--stream-mmap --stream-count=8 --stream-to="$out/shim.rgb" \
		>"$out/shim.log" 2>&1
	check "laptop camera upright under v4l2convert.so (v4l2-ctl)" \
		"$chk" --file "$out/shim.rgb" --loss-mark $mark --fmt RGB3 \
		--frames 5 --psnr 40
}

failed_count() { sed -n 's/.*Failed: \([0-9]*\).*/\1/p' "$1" | tail -n 1; }
reset_fmt() { bare_ctl -d $iso -v width=640,height=480,pixelformat=YUYV >/dev/null 2>&1; }

compliance() {
	local bare ours debian
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
	grep -E 'fail:' "$out/bare.txt" | sed 's/^\s*/  bare: /' | head -n 10
	grep -E 'fail:' "$out/debian.txt" | sed 's/^\s*/  Debian: /' | head -n 10
	reset_fmt
}

# focus_near NAME LOG MARK: within 2 % of the focus range 0..1023 of the
# in-focus position 300; else the program's log and the focus writes the
# camera got since line MARK of its log.
focus_near() {
	local v
	v=$(bare_ctl -d $iso -C focus_absolute 2>/dev/null | sed -n 's/.*: *//p')
	if [ -n "$v" ] && [ $((v > 300 ? v - 300 : 300 - v)) -le 20 ]; then
		ok "$1: focus_absolute $v (in focus at 300)"
	else
		ko "$1: focus_absolute ${v:-?} (in focus at 300)"
		tail -n 3 "$2"
		echo "  the camera's focus writes: $(camlog 0 | tail -n +$(($3 + 1)) |
			sed -n 's/.*set focus_absolute = //p' | tr '\n' ' ')"
	fi
}

controls() {
	local got miss kv ag luma0 luma exp nexp ngain mark vals
	# hardware controls through our libv4l2: each value reaches the camera
	v4l2-ctl -w -d $iso -c brightness=20,contrast=70,saturation=30,gain=100 \
		-c white_balance_automatic=0 -c white_balance_temperature=5000 \
		-c auto_exposure=1 -c exposure_time_absolute=500 >"$out/c.log" 2>&1
	got=$(v4l2-ctl -w -d $iso -C brightness,contrast,saturation,gain,white_balance_temperature,exposure_time_absolute 2>&1 |
		tr -d ' ' | tr '\n' ' ')
	miss=
	for kv in brightness=20 contrast=70 saturation=30 gain=100 \
		white_balance_temperature=5000 exposure_time_absolute=500; do
		camlog 0 | grep -q "set ${kv%=*} = ${kv#*=}$" || miss="$miss ${kv%=*}"
		[[ " $got" == *" ${kv%=*}:${kv#*=} "* ]] || miss="$miss ${kv%=*}(read back)"
	done
	if [ -z "$miss" ]; then
		ok "hardware controls through libv4l2 reach the camera and read back: $got"
	else
		ko "hardware controls:$miss; read back: $got"
		cat "$out/c.log"
	fi
	bare_ctl -d $iso -c brightness=0,contrast=50,saturation=60 \
		-c white_balance_automatic=1 >/dev/null 2>&1

	# Auto gain, emulated by libv4l (LIBV4LCONTROL_CONTROLS: auto gain and
	# its target), from a picture far too dark (exposure 40 of 250, gain
	# 64, manual mode): it must drive the camera's exposure time and gain
	# until the centre of the picture nears the target (100).
	bare_ctl -d $iso -c exposure_time_absolute=40 -c gain=64 >/dev/null
	mark=$(camlog 0 | wc -l)
	ag=$(LIBV4LCONTROL_CONTROLS=0x30 "$chk" --no-check --lens --fmt RGB3 \
		--frames 120 $iso 2>&1 | tail -n 1)
	vals=$(bare_ctl -d $iso -C exposure_time_absolute,gain 2>&1 | tr -d ' ' | tr '\n' ' ')
	luma0=$(echo "$ag" | sed -n 's/.*centre luma \([0-9.]*\) -> .*/\1/p')
	luma=$(echo "$ag" | sed -n 's/.*centre luma [0-9.]* -> \([0-9.]*\).*/\1/p')
	exp=$(echo "$vals" | sed -n 's/.*exposure_time_absolute:\([0-9]*\).*/\1/p')
	nexp=$(camlog 0 | tail -n +$((mark + 1)) | grep -c "set exposure_time_absolute")
	ngain=$(camlog 0 | tail -n +$((mark + 1)) | grep -c "set gain")
	if [ -n "$luma" ] && awk -v l="$luma" 'BEGIN { exit !(l >= 80 && l <= 120) }' &&
		[ "${exp:-0}" -gt 40 ] && [ "$nexp" -gt 0 ]; then
		ok "auto gain drove exposure ($nexp writes) and gain ($ngain): $vals centre luma $luma0 -> $luma"
	else
		ko "auto gain: centre luma ${luma0:-?} -> ${luma:-?} (target 100), $vals; $nexp exposure and $ngain gain writes"
	fi
	bare_ctl -d $iso -c exposure_time_absolute=250 -c gain=64 >/dev/null 2>&1
	bare_ctl -d $iso -c auto_exposure=3 >/dev/null 2>&1

	# Autofocus from a motor far from the scene (in focus at 300): the
	# daemon on its own, then FOCUS_AUTO through libv4l2 on a camera shared
	# with the daemon through the frame server.
	# (Frames a loaded host delivers late cost the search more of them:
	# the daemon takes 400 at most, the program streams until libv4l2's
	# AUTO_FOCUS_STATUS says the focus is reached; 300 s at most.)
	bare_ctl -d $iso -c focus_absolute=900 >/dev/null
	mark=$(camlog 0 | wc -l)
	LIBV4L2_SHARE=0 timeout -k 5 300 "$af" --device $iso --once --frames 400 \
		--size 640x480 >"$out/af.log" 2>&1
	focus_near "v4l2-autofocus on uvcvideo" "$out/af.log" $mark
	bare_ctl -d $iso -c focus_absolute=900 >/dev/null
	mark=$(camlog 0 | wc -l)
	LIBV4L2_SHARE=1 LIBV4L2_FRAMESERVER=$server LIBV4L2_AUTOFOCUS=$af \
		timeout -k 5 300 "$chk" --no-check --lens --fmt YU12 \
		--set $CID_FOCUS_AUTO=1 --until-focus --frames 4000 \
		--deadline 280 $iso >"$out/fa.log" 2>&1
	focus_near "FOCUS_AUTO through libv4l2 (shared camera, the daemon beside)" \
		"$out/fa.log" $mark
	# the daemon goes with the program that asked for it
	local i
	for i in $(seq 50); do
		pgrep -f "^$af " >/dev/null || break
		sleep 0.1
	done
	if pgrep -f "^$af " >/dev/null; then
		ko "the autofocus daemon outlived the program that started it"
	else
		ok "the autofocus daemon ended with the program"
	fi
	# The lens back in focus for the checks after: the emulated motor
	# moves 48 units per frame the camera makes, so stream for it (a
	# lens left at 441 blurred ffmpeg's first 2 frames after a failed
	# FOCUS_AUTO, at 1008 all of them).
	bare_ctl -d $iso -c focus_absolute=300 >/dev/null
	"$chk" --no-check --fmt YUYV --frames 25 $iso >/dev/null 2>&1
	sleep 2 # the idle server exits
}

# The programs capture more frames than checked: a frame damaged by a
# loss the transport reported while they ran does not count.
programs() {
	local mark
	rm -f "$out/w.yuyv" "$out/ff.rgb" "$out/gst.rgb"
	# v4l2-ctl checks -v's pixelformat with a plain ioctl (with either
	# libv4l2), so -w can only ask for the device's own formats: the
	# upside-down camera's YUYV, which libv4l2 turns upright.
	mark=$(loss_mark)
	v4l2-ctl -w -d $flip -v width=640,height=480,pixelformat=YUYV --stream-mmap \
		--stream-count=8 --stream-to="$out/w.yuyv" >"$out/w.log" 2>&1
	check "v4l2-ctl -w, upside-down camera's YUYV upright, byte-exact" \
		"$chk" --file "$out/w.yuyv" --loss-mark $mark --fmt YUYV --frames 5
	if command -v ffmpeg >/dev/null; then
		# passthrough: ffmpeg would repeat frames to keep a constant
		# rate over the frames the slow guest misses
		mark=$(loss_mark)
		LD_PRELOAD=$shim ffmpeg -hide_banner -loglevel error -f v4l2 \
			-input_format rgb24 -video_size 640x480 -i $iso -frames:v 8 \
			-fps_mode passthrough -f rawvideo "$out/ff.rgb" \
			>"$out/ff.log" 2>&1
		check "ffmpeg under v4l2convert.so, rgb24" \
			"$chk" --lens --file "$out/ff.rgb" --loss-mark $mark \
			--fmt RGB3 --frames 5 --psnr 40 || camlog 0 | tail -n 8
	else
		echo "ffmpeg not installed: its check skipped"
	fi
	if command -v gst-launch-1.0 >/dev/null; then
		mark=$(loss_mark)
		GST_V4L2_USE_LIBV4L2=1 timeout -k 5 120 gst-launch-1.0 -q \
			v4l2src device=$iso num-buffers=8 ! \
			video/x-raw,format=RGB,width=640,height=480 ! \
			filesink location="$out/gst.rgb" >"$out/gst.log" 2>&1
		check "gst-launch-1.0 v4l2src with GST_V4L2_USE_LIBV4L2=1, RGB" \
			"$chk" --lens --file "$out/gst.rgb" --loss-mark $mark \
			--fmt RGB3 --frames 5 --psnr 40 ||
			cat "$out/gst.log"
		LD_LIBRARY_PATH= GST_V4L2_USE_LIBV4L2=1 timeout -k 5 120 \
			gst-launch-1.0 -q v4l2src device=$iso num-buffers=2 ! \
			video/x-raw,format=RGB,width=640,height=480 ! fakesink \
			>"$out/gstd.log" 2>&1
		echo "gst-launch-1.0 with Debian's libv4l2: exit $?: $(head -n 1 "$out/gstd.log")"
	else
		echo "gst-launch-1.0 not installed: its check skipped"
	fi
}

# Three programs share the MJPEG camera (bulk: no frame loses packets on
# the way) at 640x480. (At a load of 17 two of them took more than 120 s:
# 300 s each at most; usbcheck's own timeout catches a stream that stops.)
server() {
	local mark pids= nok=0 f p streams
	mark=$(camlog 1 | wc -l)
	for f in RGB3 BGR3 YU12; do
		LIBV4L2_SHARE=1 LIBV4L2_FRAMESERVER=$server \
			LIBV4L2_FRAMESERVER_FORMAT=MJPG timeout -k 5 300 \
			"$chk" --fmt $f --frames 8 --psnr 28 $bulk \
			>"$out/share-$f.log" 2>&1 &
		pids="$pids $!"
	done
	for p in $pids; do wait $p && nok=$((nok + 1)); done
	streams=$(camlog 1 | tail -n +$((mark + 1)) | grep "stream start" |
		sed 's/.*stream start //')
	if [ $nok = 3 ] && [ "$(echo "$streams" | wc -l)" = 1 ] &&
		[[ "$streams" == MJPG* ]]; then
		ok "frame server: three programs on one stream of the camera ($streams)"
	else
		ko "frame server: $nok of 3 programs passed; streams: $streams"
		cat "$out"/share-*.log
	fi
	sleep 2
	# The upside-down laptop camera shared: the quirk table matches it by
	# the node the client names (V4LC_IOCTL_DEVICE_RDEV), as it does when
	# the camera is opened directly.
	LIBV4L2_SHARE=1 LIBV4L2_FRAMESERVER=$server check \
		"frame server: laptop camera RGB3 upright" \
		"$chk" --fmt RGB3 --frames 6 --psnr 40 $flip
	sleep 2
}

# unplug_test NAME CAMERA-INDEX ID COMMAND...: the camera is unplugged 6
# frames into the stream and back 3 s later; the command must end with
# ENODEV, not hang.
unplug_test() {
	local name=$1 i=$2 id=$3 log=$out/unplug.log rc
	shift 3
	camcmd $i "unplug 6 3000"
	timeout -k 5 60 "$@" >"$log" 2>&1
	rc=$?
	if [ $rc = 124 ] || [ $rc = 137 ]; then
		ko "$name: hung after the unplug"
	elif grep -q "No such device" "$log"; then
		ok "$name: $(grep -m1 "No such device" "$log")"
	else
		ko "$name: exit $rc, no ENODEV: $(tail -n 3 "$log" | tr '\n' ' ')"
	fi
	gone $id
	node $id 30 >/dev/null || ko "$name: the camera did not come back"
}

faults() {
	local p2
	# corrupt and truncated JPEG frames decoded by libv4l2
	camcmd 1 "corrupt 3"
	camcmd 1 "truncate 3"
	sleep 0.1
	check "corrupt and truncated MJPEG frames: no EIO, the stream goes on" \
		"$chk" --fmt RGB3 --size 1280x720 --frames 8 --psnr 30 $bulk
	camlog 1 | grep -E "corrupted|truncated" | tail -n 2
	# truncated YUYV frames that uvcvideo delivers flagged as errors
	echo 1 >/sys/module/uvcvideo/parameters/nodrop
	camcmd 0 "truncate 3"
	sleep 0.1
	check "truncated YUYV frames (uvcvideo nodrop=1): no EIO, the stream goes on" \
		"$chk" --lens --fmt RGB3 --frames 10 --psnr 40 $iso
	echo 0 >/sys/module/uvcvideo/parameters/nodrop
	# A stalled bulk endpoint: uvcvideo gives every queued buffer back
	# flagged as an error and its stream stops: no stale frame may come
	# out, and the program sees the stream stop (its own timeout).
	camcmd 1 "stall"
	sleep 0.1
	"$chk" --fmt RGB3 --until-error --timeout 4 $bulk >"$out/stall.log" 2>&1
	if grep -q " 0 bad.*ended by Connection timed out" "$out/stall.log"; then
		ok "stalled bulk endpoint, no damaged frame delivered: $(tail -n 1 "$out/stall.log")"
	else
		ko "stalled bulk endpoint: $(tail -n 3 "$out/stall.log" | tr '\n' ' ')"
	fi

	unplug_test "unplug, direct (libv4l2)" 0 $ISO \
		"$chk" --lens --fmt RGB3 --until-error $iso
	iso=$(node $ISO)
	unplug_test "unplug, preloaded (ffmpeg under v4l2convert.so)" 0 $ISO \
		env LD_PRELOAD=$shim ffmpeg -hide_banner -loglevel error -f v4l2 \
		-input_format rgb24 -video_size 640x480 -i $iso -f null -
	iso=$(node $ISO)
	LIBV4L2_SHARE=1 LIBV4L2_FRAMESERVER=$server timeout -k 5 60 \
		"$chk" --lens --fmt YU12 --until-error $iso >"$out/unplug2.log" 2>&1 &
	p2=$!
	unplug_test "unplug, shared (two programs through the frame server)" 0 $ISO \
		env LIBV4L2_SHARE=1 LIBV4L2_FRAMESERVER=$server \
		"$chk" --lens --fmt RGB3 --until-error $iso
	wait $p2
	if grep -q "No such device" "$out/unplug2.log"; then
		ok "unplug, shared: the second program too: $(tail -n 1 "$out/unplug2.log")"
	else
		ko "unplug, shared, second program: $(tail -n 2 "$out/unplug2.log" | tr '\n' ' ')"
	fi
	iso=$(node $ISO)
}

iso=$(node $ISO) && bulk=$(node $BULK) && flip=$(node $FLIP) || {
	echo "FAIL the cameras did not appear"
	ls -l /dev/video*
	dmesg | grep -v xhci_hcd | tail -n 20
	exit 1
}
echo "cameras: iso $iso, bulk $bulk, upside-down $flip"
export XDG_RUNTIME_DIR=$(mktemp -d /run/vm-usb-run.XXXXXX)
chmod 700 "$XDG_RUNTIME_DIR"
replug() {
	LIBV4L2_FRAMESERVER_FORMAT=MJPG replug_test 0 $ISO $iso 640x480 MJPG --lens
	iso=$(node $ISO)
}

for part in frames upside_down compliance controls programs server faults replug; do
	[[ ",${USB_PARTS:-all}," == *,@(all|$part),* ]] || continue
	t0=$SECONDS
	$part
	echo "($part: $((SECONDS - t0)) s)"
done
rm -rf "$out"
echo "$pass passed, $fail failed"
[ $fail = 0 ]
