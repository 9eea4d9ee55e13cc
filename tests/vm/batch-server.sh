#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Guest side of the vm-server test (run by vivid-vm.sh):
#   batch-server.sh LIBV4L2_SO LIBV4LCONVERT_SO V4L2CONVERT_SO SERVER GRAB POLL
# Several unmodified programs share one vivid device through the frame
# server (LIBV4L2_SHARE=1): v4l2-ctl -w streaming YUYV 640x480 (started
# first, so the server streams YUYV 640x480), then at the same time a second
# v4l2-ctl under v4l2convert.so in RGB24 320x240 (v4l2-ctl -w makes some
# plain ioctl() calls, which cannot reach the server: the application's fd
# is the client's buffer memfd), ffmpeg under v4l2convert.so in rgb24
# 640x480, and our v4l2-grab with read(). None may get EBUSY; every frame
# must be complete. A direct v4l2-ctl (no sharing) while the server streams
# gets EBUSY from the driver, showing the device really is in use. The
# server must exit once every client has left. Ends with "N passed, N failed".
set -uo pipefail

lib2=${1:?} libc=${2:?} shim=${3:?} server=${4:?} grab=${5:?} pollprog=${6:?}
dev=/dev/video0
libs="$(dirname "$lib2"):$(dirname "$libc")"
out=$(mktemp -d /tmp/vm-server.XXXXXX)
pass=0 fail=0
prog=${VM_JOBDIR:-$out}/progress
step() { echo "$(date +%T) $*" >>"$prog"; sync; }
ok() { echo "PASS $*"; step "PASS $*"; pass=$((pass + 1)); }
ko() { echo "FAIL $*"; step "FAIL $*"; fail=$((fail + 1)); }

[ -c "$dev" ] || { echo "no $dev in the VM: skipped"; exit 77; }
command -v v4l2-ctl >/dev/null || { echo "v4l2-ctl is not installed: skipped"; exit 77; }

# The runtime directory on tmpfs (/run), as /run/user/UID is on a real
# system (the guest's /tmp is an overlay over 9p).
export XDG_RUNTIME_DIR=$(mktemp -d /run/vm-server-run.XXXXXX)
chmod 700 "$XDG_RUNTIME_DIR"
export LIBV4L2_SHARE=1 LIBV4L2_FRAMESERVER=$server
export LIBV4L2_FRAMESERVER_IDLE_MS=1500 LIBV4L2_FRAMESERVER_VERBOSE=1
v4l2-ctl -d $dev -v width=640,height=480,pixelformat=YUYV -p 30 >/dev/null 2>&1

size_ok() { # what file bytes
	local size
	size=$(stat -c %s "$2" 2>/dev/null || echo 0)
	if [ "$size" = "$3" ]; then ok "$1"; else ko "$1: $size bytes, want $3"; fi
}

# Cold start: four clients at the same moment, no server running: one
# server must serve them all (the others they start exit on its lock).
for i in 1 2 3 4; do
	LD_LIBRARY_PATH=$libs timeout -k 5 60 "$grab" --device $dev --format YUYV \
		--size 320x240 --frames 8 --out "$out/cold$i" >"$out/cold$i.log" 2>&1 &
	eval pcold$i=\$!
done
coldfail=0
for i in 1 2 3 4; do
	eval wait \$pcold$i || coldfail=$((coldfail + 1))
done
ncold=$(cat "$out"/cold?.log | grep -c 'v4l2-frameserver\[[0-9]*\]: [0-9.]* listening')
[ $coldfail = 0 ] && ok "cold start: 4 clients at once all captured" ||
	ko "cold start: $coldfail of 4 clients failed: $(tail -n 2 "$out"/cold?.log | head -n 12)"
[ "$ncold" = 1 ] && ok "cold start: one server instance for 4 clients started at once" ||
	ko "cold start: $ncold server instances for 4 clients started at once"
grep -h 'share\[\|frameserver\[' "$out"/cold?.log | head -n 20
for _ in $(seq 100); do
	ls "$XDG_RUNTIME_DIR"/libv4l/*.sock >/dev/null 2>&1 || break
	sleep 0.1
done
# The cold clients left the device at their size; v4l2-ctl checks -v's
# pixelformat with a plain ioctl (which the shared fd does not answer)
# and then keeps the current format: put the device back at 640x480.
v4l2-ctl -d $dev -v width=640,height=480,pixelformat=YUYV >/dev/null 2>&1

# H: a holder streaming from the start to the end, so that every client
# below overlaps one server (ffmpeg may start after A ended: without H
# that server could have idle-exited, and a second one be rightly started).
LD_LIBRARY_PATH=$libs v4l2-ctl -d $dev -w -v width=640,height=480,pixelformat=YUYV \
	--stream-mmap --stream-to=/dev/null \
	>"$out/h.log" 2>&1 &
ph=$!

# A: the first client, long enough to overlap all the others.
LD_LIBRARY_PATH=$libs timeout -k 5 100 v4l2-ctl -d $dev -w \
	-v width=640,height=480,pixelformat=YUYV --stream-mmap \
	--stream-count=90 --stream-to="$out/a.raw" >"$out/a.log" 2>&1 &
pa=$!
for _ in $(seq 200); do
	[ -s "$out/a.raw" ] && break
	sleep 0.1
done
[ -s "$out/a.raw" ] || ko "first client produced no frame: $(tail -n 3 "$out/a.log")"

# While A streams: the driver itself is busy for a direct user.
if timeout 20 v4l2-ctl -d $dev -v width=320,height=240,pixelformat=YUYV --stream-mmap \
	--stream-count=1 --stream-to=/dev/null >"$out/direct.log" 2>&1; then
	ko "a direct open could stream while the server streams"
else
	grep -q -i busy "$out/direct.log" && ok "direct stream refused by the driver (EBUSY): the server holds the device" ||
		ok "direct stream refused: $(tail -n 1 "$out/direct.log")"
fi

step "starting B C D"
# B, C, D at the same time through the server.
LD_PRELOAD=$shim LD_LIBRARY_PATH=$libs timeout -k 5 60 v4l2-ctl -d $dev \
	-v width=320,height=240,pixelformat=RGB3 --stream-mmap \
	--stream-count=20 --stream-to="$out/b.raw" >"$out/b.log" 2>&1 &
pb=$!
pc=
if command -v ffmpeg >/dev/null; then
	LD_PRELOAD=$shim LD_LIBRARY_PATH=$libs timeout -k 5 150 \
		ffmpeg -hide_banner -loglevel verbose -f v4l2 -input_format rgb24 \
		-video_size 640x480 -i $dev -frames:v 20 -f rawvideo "$out/c.rgb" \
		>"$out/c.log" 2>&1 &
	pc=$!
fi
LD_LIBRARY_PATH=$libs timeout -k 5 60 "$grab" --device $dev --read --format BGR3 \
	--size 640x480 --frames 5 --out "$out/grab" >"$out/d.log" 2>&1
rd=$?
step "D done $rd"
wait $pb; rb=$?
step "B done $rb"
rc=0
[ -n "$pc" ] && { wait $pc; rc=$?; }
step "C done $rc"
cp "$out"/*.log "${VM_JOBDIR:-$out}/" 2>/dev/null
wait $pa; ra=$?
step "A done $ra"
kill -TERM $ph 2>/dev/null
wait $ph
cp "$out"/*.log "${VM_JOBDIR:-$out}/" 2>/dev/null

[ $ra = 0 ] && size_ok "A: v4l2-ctl -w YUYV 640x480, 90 frames" "$out/a.raw" $((90 * 640 * 480 * 2)) ||
	ko "A: v4l2-ctl exit $ra: $(tail -n 3 "$out/a.log")"
# v4l2-ctl under the shim writes fewer frames than --stream-count (15 of
# 20 seen): required here are whole frames, at least 10.
bsize=$(stat -c %s "$out/b.raw" 2>/dev/null || echo 0)
if [ $rb = 0 ] && [ $((bsize % (320 * 240 * 3))) = 0 ] && [ $((bsize / (320 * 240 * 3))) -ge 10 ]; then
	ok "B: v4l2-ctl under v4l2convert.so RGB24 320x240 at the same time, $((bsize / (320 * 240 * 3))) whole frames"
else
	ko "B: v4l2-ctl exit $rb, $bsize bytes: $(tail -n 3 "$out/b.log")"
fi
if [ -n "$pc" ]; then
	[ $rc = 0 ] && size_ok "C: ffmpeg under v4l2convert.so rgb24 640x480 at the same time, 20 frames" "$out/c.rgb" $((20 * 640 * 480 * 3)) ||
		ko "C: ffmpeg exit $rc: $(tail -n 3 "$out/c.log")"
else
	echo "ffmpeg not installed: C skipped"
fi
n=$(ls "$out/grab"/frame-*.png 2>/dev/null | wc -l)
[ $rd = 0 ] && [ "$n" = 5 ] && ok "D: v4l2-grab read() BGR24 at the same time: 5 frames" ||
	ko "D: v4l2-grab exit $rd, $n frames: $(tail -n 3 "$out/d.log")"
if grep -q -i 'busy' "$out"/[abcd].log; then
	ko "EBUSY seen by a shared client: $(grep -i -h busy "$out"/[abcd].log | head -n 2)"
else
	ok "no EBUSY for the shared clients"
fi
# Frames are pictures (vivid's colour bars), not blank memory.
if [ -s "$out/b.raw" ] && [ "$(head -c 230400 "$out/b.raw" | od -An -tu1 -v | tr -s ' ' '\n' | sort -u | wc -l)" -gt 4 ]; then
	ok "B's frames carry a picture"
else
	ko "B's first frame is blank"
fi

# Idle exit: the socket disappears and no server is left.
for _ in $(seq 100); do
	ls "$XDG_RUNTIME_DIR"/libv4l/*.sock >/dev/null 2>&1 || break
	sleep 0.1
done
if ls "$XDG_RUNTIME_DIR"/libv4l/*.sock >/dev/null 2>&1; then
	ko "the server did not exit when idle"
else
	ok "the server exited when its last client left"
fi
# One server served every client (H, A, B, C, D all overlap it).
nsrv=$(cat "$out"/[abcdh].log 2>/dev/null | grep -c 'v4l2-frameserver\[[0-9]*\]: [0-9.]* listening')
[ "$nsrv" = 1 ] && ok "one server instance for all clients" ||
	ko "$nsrv server instances started for clients that overlap"

# poll()/select() on the shared fd of an unmodified program (plain calls
# under v4l2convert.so) and through libv4l2 with USERPTR buffers
# (V4L2_DISABLE_CONVERSION: server-poll --userptr); then
# the unplug: vivid's Disconnect pressed while two clients stream ends
# both streams with ENODEV and POLLERR/POLLHUP, without a hang. Last: the
# device is gone afterwards.
run_poll() { # name args...
	local name=$1 log rc
	shift
	log=$(timeout -k 5 90 env LD_LIBRARY_PATH=$libs "$@" 2>&1)
	rc=$?
	echo "$log" | sed "s/^/$name: /" | grep -v '^[^:]*: PASS' | head -n 20
	pass=$((pass + $(echo "$log" | grep -c '^PASS')))
	fail=$((fail + $(echo "$log" | grep -c '^FAIL')))
	[ $rc = 0 ] && ok "$name: exit 0" || ko "$name: exit $rc"
}
step "poll tests"
run_poll "poll under v4l2convert.so" env LD_PRELOAD=$shim "$pollprog" --plain $dev
run_poll "poll, libv4l2, USERPTR" "$pollprog" --libv4l2 --userptr $dev
step "unplug"
LD_PRELOAD=$shim LD_LIBRARY_PATH=$libs timeout -k 5 90 "$pollprog" --plain \
	--unplug 1 $dev >"$out/ux.log" 2>&1 &
px=$!
sleep 1
run_poll "unplug (presses Disconnect), libv4l2" "$pollprog" --libv4l2 \
	--press-disconnect 1 $dev
wait $px; rx=$?
sed 's/^/unplug, other client under v4l2convert.so: /' "$out/ux.log" | grep -v ': PASS' | head -n 20
pass=$((pass + $(grep -c '^PASS' "$out/ux.log")))
fail=$((fail + $(grep -c '^FAIL' "$out/ux.log")))
[ $rx = 0 ] && ok "unplug: the other client ended cleanly" || ko "unplug: other client exit $rx"
for _ in $(seq 100); do
	ls "$XDG_RUNTIME_DIR"/libv4l/*.sock >/dev/null 2>&1 || break
	sleep 0.1
done
if ls "$XDG_RUNTIME_DIR"/libv4l/*.sock >/dev/null 2>&1; then
	ko "unplug: the server still listens"
else
	ok "unplug: the server unpublished its socket"
fi
for _ in $(seq 100); do
	ps -eo comm= | grep -q '^v4l2-framese' || break
	sleep 0.1
done
ps -eo comm= | grep -q '^v4l2-framese' && ko "unplug: a server is left running" ||
	ok "unplug: no server left running"

grep -h 'share\[\|frameserver\[' "$out"/[abcdh].log 2>/dev/null | head -n 40
echo "--- server/client logs"
tail -n 8 "$out"/[abcd].log 2>/dev/null | grep -v '^$' | head -n 50
ps -eo pid,stat,time,args | grep -E "v4l2|ffmpeg" | grep -v grep
rm -rf "$out" "$XDG_RUNTIME_DIR"
echo "$pass passed, $fail failed"
[ $fail = 0 ]
