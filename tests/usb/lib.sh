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
