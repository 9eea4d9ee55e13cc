#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Guest side of the vm-doctor test (run by vivid-vm.sh):
#   batch-doctor.sh LIBV4L2_SO LIBV4LCONVERT_SO DOCTOR
# v4l2-doctor on vivid, checked against other programs' view of the same
# device: the driver is "vivid"; the native formats are exactly those
# v4l2-ctl lists on the bare device; the emulated formats are exactly those
# v4l2-ctl -w (through our libv4l2) marks "(Emulated)", each made from a
# native format, also with vivid's sensor flipped (then the driver's flips
# are reported); --json parses, for /dev/video0 and for every /dev/video*.
# Ends with "N passed, N failed".
set -uo pipefail

lib2=${1:?} libc=${2:?} doctor=${3:?}
dev=/dev/video0
libs="$(dirname "$lib2"):$(dirname "$libc")"
out=$(mktemp -d /tmp/vm-doctor.XXXXXX)
pass=0 fail=0
ok() { echo "PASS $*"; pass=$((pass + 1)); }
ko() { echo "FAIL $*"; fail=$((fail + 1)); }

[ -c "$dev" ] || { echo "no $dev in the VM: skipped"; exit 77; }
command -v v4l2-ctl >/dev/null || { echo "v4l2-ctl is not installed: skipped"; exit 77; }
command -v python3 >/dev/null || { echo "python3 is not installed: skipped"; exit 77; }
export XDG_RUNTIME_DIR=$(mktemp -d /run/vm-doctor-run.XXXXXX)
chmod 700 "$XDG_RUNTIME_DIR"

# The fourccs v4l2-ctl lists: all, or (with "emulated") the marked ones.
ctl_fourccs() { # file [emulated]
	if [ "${2:-}" = emulated ]; then
		grep -i "emulated" "$1"
	else
		cat "$1"
	fi | sed -n "s/.*\[[0-9]*\]: '\([^']*\)'.*/\1/p" | sort | tr '\n' ' '
}
v4l2-ctl -d $dev --list-formats >"$out/ctl.txt" 2>&1
LD_LIBRARY_PATH=$libs v4l2-ctl -w -d $dev --list-formats >"$out/ctlw.txt" 2>&1
native_ctl=$(ctl_fourccs "$out/ctl.txt")
emu_ctl=$(ctl_fourccs "$out/ctlw.txt" emulated)

if LD_LIBRARY_PATH=$libs "$doctor" --json $dev >"$out/doc.json" 2>"$out/doc.err" &&
	python3 -m json.tool "$out/doc.json" >/dev/null; then
	ok "--json $dev parses"
else
	ko "--json $dev: $(head -c 600 "$out/doc.json" "$out/doc.err")"
fi
q() { # python expression over d, the device
	python3 -c "import json,sys; d=json.load(open(sys.argv[1]))['devices'][0]; print($1)" "$out/doc.json" 2>&1
}
drv=$(q 'd["driver"]')
[ "$drv" = vivid ] && ok "driver vivid" || ko "driver: $drv"
native=$(q '" ".join(sorted(f["fourcc"] for f in d["native"])) + " "')
[ -n "$native_ctl" ] && [ "$native" = "$native_ctl" ] &&
	ok "native formats as v4l2-ctl lists them ($native)" ||
	ko "native formats: doctor '$native', v4l2-ctl '$native_ctl'"
emu=$(q '" ".join(sorted(f["fourcc"] for f in d["emulated"])) + (" " if d["emulated"] else "")')
[ "$emu" = "$emu_ctl" ] &&
	ok "emulated formats as v4l2-ctl -w marks them ($emu)" ||
	ko "emulated formats: doctor '$emu', v4l2-ctl -w '$emu_ctl'"
src=$(q 'all(f["from"] in [n["fourcc"] for n in d["native"]] for f in d["emulated"])')
[ "$src" = True ] && ok "every emulated format is made from a native one" ||
	ko "emulated sources: $src"
sizes=$(q 'all(f["sizes"] for f in d["native"])')
[ "$sizes" = True ] && ok "every native format has sizes" || ko "sizes: $sizes"

# Text: one screen naming the driver and the tier.
LD_LIBRARY_PATH=$libs "$doctor" $dev >"$out/doc.txt" 2>&1
if grep -q "driver: *vivid" "$out/doc.txt" && grep -q "SIMD tier: " "$out/doc.txt"; then
	ok "text answer names vivid and the SIMD tier"
else
	ko "text answer: $(head -c 600 "$out/doc.txt")"
fi
echo "--- v4l2-doctor $dev"
cat "$out/doc.txt"

# vivid's sensor mounted rotated (its controls set V4L2_IN_ST_HFLIP and
# VFLIP on the input): the doctor reports the driver's flips, and the
# formats libv4l2 now offers flipped are emulated, as v4l2-ctl -w sees them.
if v4l2-ctl -d $dev -c sensor_flipped_horizontally=1,sensor_flipped_vertically=1 2>"$out/flip.err"; then
	LD_LIBRARY_PATH=$libs v4l2-ctl -w -d $dev --list-formats >"$out/ctlw2.txt" 2>&1
	emu_ctl=$(ctl_fourccs "$out/ctlw2.txt" emulated)
	LD_LIBRARY_PATH=$libs "$doctor" --json $dev >"$out/doc.json" 2>"$out/doc.err"
	drv=$(q 'd["quirks"]["driver"]')
	[ "$drv" = "['hflip', 'vflip']" ] && ok "sensor flips reported by the driver" ||
		ko "driver flips: $drv"
	emu=$(q '" ".join(sorted(f["fourcc"] for f in d["emulated"])) + (" " if d["emulated"] else "")')
	[ -n "$emu_ctl" ] && [ "$emu" = "$emu_ctl" ] &&
		ok "flipped: emulated formats as v4l2-ctl -w marks them ($emu)" ||
		ko "flipped: emulated formats: doctor '$emu', v4l2-ctl -w '$emu_ctl'"
	src=$(q 'all(f["from"] in [n["fourcc"] for n in d["native"]] for f in d["emulated"])')
	[ "$src" = True ] && ok "flipped: every emulated format is made from a native one" ||
		ko "flipped: emulated sources: $src"
	LD_LIBRARY_PATH=$libs "$doctor" $dev >"$out/doc2.txt" 2>&1
	echo "--- v4l2-doctor $dev, sensor flipped (the lines after the formats)"
	sed -n '/^  emulated/,$p' "$out/doc2.txt"
	v4l2-ctl -d $dev -c sensor_flipped_horizontally=0,sensor_flipped_vertically=0
else
	ko "vivid's sensor flip controls: $(cat "$out/flip.err")"
fi

# Every node: one entry each, valid JSON, exit 0.
nodes=$(ls /dev/video* | wc -l)
if LD_LIBRARY_PATH=$libs "$doctor" --json >"$out/all.json" 2>"$out/all.err"; then
	n=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['devices']))" "$out/all.json" 2>&1)
	[ "$n" = "$nodes" ] && ok "all $nodes /dev/video* nodes answered" ||
		ko "all nodes: $n entries for $nodes nodes"
else
	ko "--json (all nodes): $(head -c 600 "$out/all.json" "$out/all.err")"
fi

echo "$pass passed, $fail failed"
[ $fail = 0 ]
