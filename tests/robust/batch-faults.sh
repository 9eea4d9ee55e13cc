#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Guest side of the vm-faults test (run by tests/vm/vivid-vm.sh):
#   batch-faults.sh VIVID_FAULTS
# vivid's error injection while our libv4l2 streams (tests/robust/
# vivid_faults.c): QBUF, DQBUF, STREAMON and start-streaming errors through
# a conversion (a quirk flag forces RGB24 from YUYV) and directly (YUYV),
# then the disconnect (once: the device is gone afterwards).
# Ends with "N passed, N failed".
set -uo pipefail

faults=${1:?}
dev=/dev/video0
[ -c "$dev" ] || { echo "no $dev in the VM: skipped"; exit 77; }
pass=0 fail=0
run() {
	local log rc
	log=$(timeout 120 "$@" 2>&1)
	rc=$?
	echo "$log"
	# a hang, a crash or a sanitizer report (LeakSanitizer at exit)
	[ $rc = 0 ] || { echo "FAIL exit status $rc"; fail=$((fail + 1)); }
	pass=$((pass + $(echo "$log" | grep -c '^PASS')))
	fail=$((fail + $(echo "$log" | grep -c '^FAIL')))
	echo "$log" | grep -q '^faults:' || fail=$((fail + 1))
}
v4l2-ctl -d $dev -v width=320,height=180,pixelformat=YUYV >/dev/null 2>&1
echo "== through a conversion (YUYV -> RGB24)"
LIBV4LCONTROL_FLAGS=3 run "$faults" RGB3 nodisconnect
echo "== direct (YUYV), then the disconnect"
run "$faults" YUYV
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
