#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Guest side of the vm-proc test (run by tests/vm/vivid-vm.sh):
#   batch-vivid.sh PROC_VIVID [DEVICE]
# vivid's static test pattern (no OSD text, 100% colour squares), then
# PROC_VIVID (tests/proc/vivid.c): processing and emulated controls through
# our libv4l2 on the real driver, and auto gain on vivid's gain.
set -uo pipefail

prog=${1:?usage: $0 PROC_VIVID [DEVICE]}
dev=${2:-/dev/video0}

[ -c "$dev" ] || { echo "no $dev in the VM: skipped"; exit 77; }
command -v v4l2-ctl >/dev/null || { echo "v4l2-ctl missing: skipped"; exit 77; }
v4l2-ctl -d "$dev" --set-ctrl=osd_text_mode=2,test_pattern=4 ||
	{ echo "FAIL cannot set vivid's test controls"; exit 1; }
v4l2-ctl -d "$dev" -p 30 >/dev/null
# what vivid offers for auto gain (it has no exposure control)
v4l2-ctl -d "$dev" -l | grep -E 'brightness|gain|exposure'
"$prog" "$dev"
