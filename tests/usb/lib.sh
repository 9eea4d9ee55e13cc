# SPDX-License-Identifier: LGPL-2.1-or-later
# Shell helpers of the guest-side USB camera batches (sourced).
# The cameras are those of $USBCAM_CAMS, camera i served as cam<i> with its
# log and command file in $USBCAM_DIR (tests/vm/vivid-vm.sh).

pass=0 fail=0
prog=${VM_JOBDIR:-/tmp}/progress
step() { echo "$(date +%T) $*" >>"$prog"; }
ok() { echo "PASS $*"; step "PASS $*"; pass=$((pass + 1)); }
ko() { echo "FAIL $*"; step "FAIL $*"; fail=$((fail + 1)); }

# node VID:PID [SECONDS]: the capture node of that USB camera (the video
# node with index 0 under the device), waiting for it to appear.
node() {
	local id=$1 wait=${2:-20} i v dir
	for ((i = 0; i < wait * 10; i++)); do
		for v in /sys/class/video4linux/video*; do
			[ -e "$v/device" ] || continue
			dir=$(readlink -f "$v/device/..")
			[ "$(cat "$dir/idVendor" 2>/dev/null):$(cat "$dir/idProduct" 2>/dev/null)" = "$id" ] ||
				continue
			[ "$(cat "$v/index" 2>/dev/null)" = 0 ] || continue
			[ -c "/dev/${v##*/}" ] && { echo "/dev/${v##*/}"; return 0; }
		done
		sleep 0.1
	done
	return 1
}

# gone VID:PID: wait until that camera has no node (unplugged).
gone() {
	local i
	for ((i = 0; i < 100; i++)); do
		node "$1" 0 >/dev/null || return 0
		sleep 0.1
	done
	return 1
}

# camcmd I COMMAND: a fault command for camera i (tests/usb/fault.c).
camcmd() { echo "$2" >>"$USBCAM_DIR/cam$1.cmd"; }
camlog() { cat "$USBCAM_DIR/cam$1.log"; }

# check NAME COMMAND...: one test; its last output line is the detail.
check() {
	local name=$1 out rc t0=$SECONDS
	shift
	out=$("$@" 2>&1)
	rc=$?
	if [ $rc = 0 ]; then
		ok "$name: $(echo "$out" | tail -n 1) [$((SECONDS - t0)) s]"
	else
		ko "$name (exit $rc): $(echo "$out" | tail -n 4 | tr '\n' ' ')"
	fi
	return $rc
}

# size_is FILE BYTES
size_is() { [ "$(stat -c %s "$1" 2>/dev/null || echo 0)" = "$2" ]; }

# Where the transport reports the data it lost (tests/usb/usbcheck
# --losses): QEMU's usb-redir dropping isochronous packets, the cameras'
# fault commands cutting or corrupting frames. usbcheck reads it.
# loss_mark: their count now, for a check of the frames a program wrote
# (usbcheck --file F --loss-mark M: a frame damaged by a loss reported
# while the program ran is a lost frame, not a bad one).
USBCHECK_LOSSES=${USBCAM_QEMU_LOG:-}
for ((_cam = 0; _cam < $(echo ${USBCAM_CAMS:-} | wc -w); _cam++)); do
	USBCHECK_LOSSES=$USBCHECK_LOSSES:$USBCAM_DIR/cam$_cam.log
done
export USBCHECK_LOSSES
loss_mark() { "$chk" --loss-count; }

# replug_test CAMERA-INDEX VID:PID DEVICE WxH FOURCC [USBCHECK-OPTION...]:
# two programs share the camera through the frame server ($server, $shim,
# $chk, $out), both run with LIBV4L2_SHARE_REPLUG=1: usbcheck taking
# FOURCC and ffmpeg under v4l2convert.so taking rgb24. Once ffmpeg has its
# first frame, the camera is unplugged 3 frames later and plugged back 2 s
# after. usbcheck must see its buffer sequence jump over the gap and the
# pictures start again (the camera came back), good frames before and 4
# after that, and its format unchanged; ffmpeg, still running when the
# camera is back, must write all its 24 frames (without the replug both
# get ENODEV), good pictures before and after the pictures start again
# (usbcheck --file --replug, the USBCHECK-OPTIONs but --fmt). Lost frames
# (packets the transport reported lost) do not count, bad ones fail.
# Deadlines only: a loaded host's VM may take a minute to start ffmpeg.
replug_test() {
	local i=$1 id=$2 dev=$3 size=$4 fmt=$5 p1 p2 rc1 rc2 k t0=$SECONDS
	local n=24 w=${4%x*} h=${4#*x} mark ffmark alive=0
	shift 5
	rm -f "$out/rp.rgb"
	export LIBV4L2_SHARE=1 LIBV4L2_FRAMESERVER=$server \
		LIBV4L2_SHARE_REPLUG=1 LIBV4L2_FRAMESERVER_VERBOSE=1
	timeout -k 5 240 "$chk" --fmt $fmt --size $size --frames 4 --replug \
		--timeout 30 "$@" $dev >"$out/rp-chk.log" 2>&1 &
	p1=$!
	ffmark=$(loss_mark)
	# no probing: its first frame is in the file as soon as it came
	LD_PRELOAD=$shim timeout -k 5 240 ffmpeg -hide_banner -loglevel warning \
		-probesize 32 -analyzeduration 0 -f v4l2 -input_format rgb24 \
		-video_size $size -i $dev \
		-frames:v $n -fps_mode passthrough -f rawvideo "$out/rp.rgb" \
		>"$out/rp-ff.log" 2>&1 &
	p2=$!
	for ((k = 0; k < 1800; k++)); do
		[ -s "$out/rp.rgb" ] || ! kill -0 $p2 2>/dev/null && break
		sleep 0.1
	done
	mark=$(camlog $i | wc -l)
	camcmd $i "unplug 3 2000"
	for ((k = 0; k < 1800; k++)); do
		camlog $i | tail -n +$((mark + 1)) | grep -q "plugged in" && break
		sleep 0.1
	done
	kill -0 $p2 2>/dev/null && alive=1
	wait $p1
	rc1=$?
	wait $p2
	rc2=$?
	unset LIBV4L2_SHARE LIBV4L2_FRAMESERVER LIBV4L2_SHARE_REPLUG \
		LIBV4L2_FRAMESERVER_VERBOSE
	if [ $rc1 = 0 ]; then
		ok "replug, usbcheck carried across: $(grep -v "frameserver\|libv4l2" "$out/rp-chk.log" | tail -n 2 | tr '\n' ' ') [$((SECONDS - t0)) s]"
	else
		ko "replug, usbcheck (exit $rc1): $(grep -v "frameserver\|libv4l2" "$out/rp-chk.log" | tail -n 4 | tr '\n' ' ')"
	fi
	if [ $alive = 0 ]; then
		ko "replug, ffmpeg: not running when the camera was back (exit $rc2)"
	elif [ $rc2 = 0 ] && size_is "$out/rp.rgb" $((n * w * h * 3)); then
		check "replug, ffmpeg under v4l2convert.so carried across: $n frames" \
			"$chk" --file "$out/rp.rgb" --loss-mark $ffmark --replug \
			--fmt RGB3 --size $size --frames 5 "$@"
	else
		ko "replug, ffmpeg (exit $rc2): $(stat -c %s "$out/rp.rgb" 2>/dev/null) bytes, $(grep -v frameserver "$out/rp-ff.log" | tail -n 2 | tr '\n' ' ')"
	fi
	camlog $i | grep -E "unplugged|plugged|fault" | tail -n 3
	[ $rc1$rc2 = 00 ] || {
		grep -ah "v4l2-frameserver\|libv4l2 share" "$out/rp-chk.log" \
			"$out/rp-ff.log" | tail -n 25
		dmesg | grep -v xhci | tail -n 8
	}
	node $id 30 >/dev/null || ko "replug: the camera is not there after the test"
}
