#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Guest side of the vm-v4l1 test (run by tests/vm/vivid-vm.sh):
#   batch-vm.sh V4L1_CLIENT PLAIN_CLIENT V4L1COMPAT_SO [DEVICE]
# vivid's picture made static (no OSD text, no movement), then the V4L1
# client (tests/v4l1/vm_client.c) through libv4l1, and the same client on
# plain open/ioctl/read/mmap under LD_PRELOAD=v4l1compat.so: every palette
# by read() and by mmap/MCAPTURE/SYNC must equal libv4l2's capture in the
# matching V4L2 format; channels, tuner, frequency and audio through V4L1;
# on vivid's VBI node, VIDIOCGVBIFMT/SVBIFMT against V4L2 and read().
set -uo pipefail

client=${1:?usage: $0 V4L1_CLIENT PLAIN_CLIENT V4L1COMPAT_SO [DEVICE]}
plain=${2:?}
compat=${3:?}
dev=${4:-/dev/video0}

[ -c "$dev" ] || { echo "no $dev in the VM: skipped"; exit 77; }
command -v v4l2-ctl >/dev/null || { echo "v4l2-ctl missing: skipped"; exit 77; }

v4l2-ctl -d "$dev" --set-ctrl=osd_text_mode=2,test_pattern=4 ||
	{ echo "FAIL cannot set vivid's test controls"; exit 1; }
v4l2-ctl -d "$dev" -v width=320,height=180,pixelformat=YUYV -p 30 >/dev/null

rc=0
echo "== through libv4l1"
"$client" "$dev" || rc=1
echo "== plain calls under LD_PRELOAD=v4l1compat.so"
LD_PRELOAD="$compat" "$plain" "$dev" || rc=1
vbi=/dev/vbi0
if [ -c "$vbi" ]; then
	echo "== VBI through libv4l1"
	"$client" --vbi "$vbi" || rc=1
	echo "== VBI, plain calls under LD_PRELOAD=v4l1compat.so"
	LD_PRELOAD="$compat" "$plain" --vbi "$vbi" || rc=1
else
	echo "FAIL no $vbi (vivid loaded without node_types=0x5?)"
	rc=1
fi
exit $rc
