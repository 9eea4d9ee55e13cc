#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Guest side of the vm-clients test (run by vivid-vm.sh with two vivid
# instances: /dev/video0 single-planar, /dev/video1 multi-planar):
#   batch-clients.sh CLIENTCHECK LIBV4L2_SO LIBV4LCONVERT_SO V4L2CONVERT_SO \
#                    V4L1COMPAT_SO MPLANE_PLUGIN_SO
# Unmodified programs users run, on vivid left in a Bayer format (BA81)
# before each run, asking for RGB, BGR, I420 and YUYV, with the sensor
# upright and mounted upside down (vivid's sensor_flipped_* controls, so
# that libv4l2 turns every frame): GStreamer's v4l2src through libv4l2
# (GST_V4L2_USE_LIBV4L2=1, io-mode mmap and default) and without it,
# ffmpeg, mpv, fswebcam, mplayer (tv://) and uvccapture (mmap and read())
# under v4l2convert.so, OpenCV's V4L2 backend (python3-opencv) likewise and
# its GStreamer backend through libv4l2, vidcat (V4L1) under v4l1compat.so,
# the programs linked with libv4l2 or libv4l1 themselves (guvcview,
# vgrabbj, xawtv's streamer, a Perl script on Video::Capture::V4l, an
# Octave script on videoinput) and zbarcam with its window under Xvfb (its
# frames counted, not compared).
# Every frame a program writes is compared with the driver's own frame of
# that format, captured without libv4l, or its 180-degree rotation
# (CLIENTCHECK, tests/vm/clientcheck.c); a program that crashes or hangs
# fails whatever it wrote.
# A program that is not installed is reported and skipped, or counted as
# a failure when CI=true.
#
# CLIENTS_LIBS (default "ours"): the libraries to run the programs on;
# "ours debian" also runs them on the distribution's libv4l (informational:
# Debian's libv4l turns vivid's frames only with fake flip controls,
# LIBV4LCONTROL_CONTROLS=6, which it is given when the sensor is flipped).
# CLIENTS_DEVICES (default "/dev/video0 /dev/video1").
# Prints one "RESULT lib|device|program|how|format|sensor|verdict" line per
# run, and ends with "N passed, N failed".
set -uo pipefail

check=${1:?} lib2=${2:?} libc=${3:?} shim=${4:?} shim1=${5:?} mplane=${6:?}
ourlibs=$(dirname "$lib2"):$(dirname "$libc"):$(dirname "$shim1")
plugins=$(dirname "$mplane")
W=640 H=480
triplet=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
debshim=/usr/lib/$triplet/libv4l/v4l2convert.so
debshim1=/usr/lib/$triplet/libv4l/v4l1compat.so
out=$(mktemp -d /tmp/vm-clients.XXXXXX)
pass=0 fail=0
prog=${VM_JOBDIR:-$out}/progress
for v in $(env | sed -n 's/^\(LIBV4L[A-Z0-9_]*\)=.*/\1/p'); do
	unset "$v"
done
unset LD_PRELOAD LD_LIBRARY_PATH
export GST_REGISTRY_FORK=no

[ -c /dev/video0 ] || { echo "no /dev/video0 in the VM: skipped"; exit 77; }
command -v v4l2-ctl >/dev/null || { echo "v4l2-ctl missing: skipped"; exit 77; }

have() { command -v "$1" >/dev/null; }
step() { echo "$(date +%T) $*" >>"$prog"; sync; }

# record lib dev program how fmt sensor verdict-line (the distribution's
# results are reported, not counted)
record() {
	local verdict=$7
	echo "RESULT $1|$2|$3|$4|$5|$6|${verdict%% *}: ${verdict#* }"
	[ "$1" != debian ] || return 0
	case $verdict in
	PASS*) pass=$((pass + 1)) ;;
	*) fail=$((fail + 1)) ;;
	esac
	step "$3 $4 $5 $6 $1: ${verdict%% *}"
}

bayer() { v4l2-ctl -d "$1" -v width=$W,height=$H,pixelformat=BA81 >/dev/null 2>&1; }
flip() { # dev 0|1
	v4l2-ctl -d "$1" --set-ctrl=sensor_flipped_horizontally=$2 \
		--set-ctrl=sensor_flipped_vertically=$2
}

# The driver's frame of one format, without libv4l (once per device,
# sensor and format).
reference() { # dev tag sensor fmt
	local r=$out/ref-$2-$3-$4
	[ -s "$r" ] && return
	v4l2-ctl -d "$1" -v width=$W,height=$H,pixelformat=$4 --stream-mmap \
		--stream-count=1 --stream-to="$r" >/dev/null 2>&1
}
prepare() { # dev
	v4l2-ctl -d "$1" --set-ctrl=osd_text_mode=2,test_pattern=4 >/dev/null
	v4l2-ctl -d "$1" -v width=$W,height=$H,pixelformat=YUYV -p 30 >/dev/null
	flip "$1" 0
}

# The runs of a plain test: each program, format, sensor and plane layout
# at least once, the conversions (flipped sensor) first; CLIENTS_FULL=1
# runs every combination (9-12 s a run under TCG: 20 minutes and more).
QUICK="
video0 1 gst-libv4l2-mmap RGB3
video0 1 gst-libv4l2-auto YU12
video0 1 gst-libv4l2-auto YUYV
video0 1 gst-raw-mmap RGB3
video0 0 gst-raw-auto YUYV
video0 1 ffmpeg BGR3
video0 1 mpv YU12
video0 0 mpv RGB3
video0 1 fswebcam RGB3
video0 1 mplayer YUYV
video0 0 mplayer RGB3
video0 1 uvccapture-read YUYV
video0 0 uvccapture-mmap YUYV
video0 1 vidcat BGR3
video0 1 opencv YUYV
video0 1 opencv-gst BGR3
video0 1 guvcview YUYV
video0 1 vgrabbj RGB3
video0 1 streamer RGB3
video0 1 perl BGR3
video0 1 octave RGB3
video1-mplane 1 gst-libv4l2-auto YUYV
video1-mplane 1 ffmpeg YU12
video1-mplane 1 mplayer YU12
video1-mplane 0 fswebcam BGR3
video1-mplane 0 opencv-gst YU12
"
want() { # tag sensor what fmt
	if [ -n "${CLIENTS_PROGRAMS:-}" ]; then
		[[ " $CLIENTS_PROGRAMS " == *" ${3%%-*} "* ]] || return 1
	fi
	[ "${CLIENTS_FULL:-0}" = 1 ] && return 0
	grep -qx "$1 $2 $3 $4" <<<"$QUICK"
}

# run lib dev tag program how fmt sensor outfile command...: the program
# on vivid left in Bayer, then its output checked.
run() {
	local lib=$1 dev=$2 tag=$3 name=$4 how=$5 fmt=$6 s=$7 file=$8
	shift 8
	local env=() pre=
	case "$how" in *v4l1compat*) pre=$shim1 ;; *v4l2convert*) pre=$shim ;; esac
	if [ "$lib" = ours ]; then
		env=(LD_LIBRARY_PATH="$ourlibs" LIBV4L2_PLUGIN_DIR="$plugins")
	elif [ "$lib" = debian ]; then
		[ -z "$pre" ] || pre=${pre/#$shim1/$debshim1}
		[ -z "$pre" ] || pre=${pre/#$shim/$debshim}
		[ "$s" = 0 ] || env=(LIBV4LCONTROL_CONTROLS=6)
	fi
	[ -z "$pre" ] || env+=(LD_PRELOAD="$pre")
	reference "$dev" "$tag" "$s" "$fmt"
	rm -rf "$file" "$file.d"
	mkdir "$file.d"
	bayer "$dev"
	env "${env[@]}" timeout 60 "$@" >"$file.log" 2>&1 </dev/null
	local rc=$?
	# (a program that wrote its frames as files in FILE.d: all of them)
	rmdir "$file.d" 2>/dev/null
	[ -d "$file.d" ] && cat "$file.d"/* >"$file" 2>/dev/null
	local rot=$s
	[ "$lib" != none ] || rot=0
	local v
	v=$("$check" "$fmt" $W $H $rot "$out/ref-$tag-$s-$fmt" "$file" 2>&1 |
		tail -n 1)
	case $v in
	PASS* | FAIL*) ;;
	*) v="FAIL $v" ;;
	esac
	# a crash or a hang fails the run whatever it wrote before
	if [ $rc = 124 ]; then
		v="FAIL $name timed out (60 s); ${v#* }"
	elif [ $rc -gt 128 ]; then
		v="FAIL $name killed by signal $((rc - 128)); ${v#* }"
	fi
	case $v in
	FAIL*) v="$v; $(grep -v '^$' "$file.log" | grep -iE 'error|fail|cannot|unable|invalid|caught|signal' |
		head -n 1 | cut -c1-100)" ;;
	esac
	record "$lib" "$tag" "$name" "${how%% *}" "$fmt" "$([ "$s" = 1 ] && echo flipped || echo upright)" "$v"
}

gst_fmt() { case $1 in RGB3) echo RGB ;; BGR3) echo BGR ;; YU12) echo I420 ;; YUYV) echo YUY2 ;; esac; }
ff_fmt() { case $1 in RGB3) echo rgb24 ;; BGR3) echo bgr24 ;; YU12) echo yuv420p ;; YUYV) echo yuyv422 ;; esac; }
fsw_fmt() { case $1 in RGB3) echo RGB24 ;; BGR3) echo BGR24 ;; YU12) echo YUV420P ;; YUYV) echo YUYV ;; esac; }

clients() { # lib dev tag
	local lib=$1 dev=$2 tag=$3 s f o
	for s in 1 0; do
		flip "$dev" $s
		for f in RGB3 BGR3 YU12 YUYV; do
			o=$out/$lib-$tag-$s-$f
			if have gst-launch-1.0; then
				local io gl
				# (--no-fault: a crash ends gst-launch-1.0 by its
				# signal instead of a wait for a debugger)
				for io in mmap auto; do
					gl=(gst-launch-1.0 -q --no-fault v4l2src device="$dev"
						io-mode=$io num-buffers=2 !
						"video/x-raw,format=$(gst_fmt $f),width=$W,height=$H" !
						filesink location="$o.gst-$io")
					if [ "$lib" = ours ] && want $tag $s gst-raw-$io $f; then
						# without libv4l2: the driver's frames
						run none "$dev" "$tag" gst-launch-1.0 "v4l2src-io-mode=$io" \
							$f $s "$o.gstraw-$io" "${gl[@]/%$o.gst-$io/$o.gstraw-$io}"
					fi
					want $tag $s gst-libv4l2-$io $f || continue
					run "$lib" "$dev" "$tag" gst-launch-1.0 \
						"GST_V4L2_USE_LIBV4L2=1-io-mode=$io" $f $s \
						"$o.gst-$io" env GST_V4L2_USE_LIBV4L2=1 "${gl[@]}"
				done
			fi
			if have ffmpeg && want $tag $s ffmpeg $f; then
				run "$lib" "$dev" "$tag" ffmpeg "v4l2convert.so" $f $s "$o.ff" \
					ffmpeg -nostdin -hide_banner -loglevel error -f v4l2 \
					-input_format "$(ff_fmt $f)" -video_size ${W}x$H \
					-i "$dev" -frames:v 2 -c:v rawvideo -f rawvideo "$o.ff"
			fi
			if have mpv && want $tag $s mpv $f; then
				run "$lib" "$dev" "$tag" mpv "v4l2convert.so" $f $s "$o.mpv" \
					mpv --no-config --really-quiet --no-audio \
					"av://v4l2:$dev" \
					"--demuxer-lavf-o=video_size=${W}x$H,input_format=$(ff_fmt $f)" \
					--frames=2 --o="$o.mpv" --of=rawvideo --ovc=rawvideo \
					--vf=format=fmt=$(ff_fmt $f)
			fi
			if have fswebcam && want $tag $s fswebcam $f; then
				run "$lib" "$dev" "$tag" fswebcam "v4l2convert.so" $f $s "$o.fsw" \
					fswebcam -q -d "$dev" -r ${W}x$H -p "$(fsw_fmt $f)" \
					-S 1 -F 1 --no-banner --dumpframe "$o.fsw" "$o.png"
			fi
			if have mplayer && [ $f != BGR3 ] &&
				want $tag $s mplayer $f; then
				local mf vo
				case $f in
				RGB3) mf=rgb24 vo="pnm:ppm:outdir=$o.mp.d" ;;
				YU12) mf=i420 vo="yuv4mpeg:file=$o.mp" ;;
				YUYV) mf=yuy2 vo="yuv4mpeg:file=$o.mp" ;;
				esac
				run "$lib" "$dev" "$tag" mplayer "v4l2convert.so tv://" $f $s "$o.mp" \
					mplayer -noconfig all -really-quiet -nosound \
					-tv "driver=v4l2:device=$dev:width=$W:height=$H:outfmt=$mf" \
					-frames 2 -vo "$vo" tv://
			fi
			# guvcview (linked with libv4l2): 3 photos in its "raw" image
			# format, the frames as libv4l2 hands them over
			if have guvcview && [ $f = YUYV ] && want $tag $s guvcview $f; then
				run "$lib" "$dev" "$tag" guvcview "libv4l2 -g none" $f $s "$o.gv" \
					guvcview -d "$dev" -g none -r none -a none -x ${W}x$H \
					-f YUYV -i "$o.gv.d/p.raw" -n 3 -t 1 -e
			fi
			# vgrabbj: V4L1 through libv4l1 (linked), RGB24 palette, PPM
			if have vgrabbj && [ $f = RGB3 ] && want $tag $s vgrabbj $f; then
				run "$lib" "$dev" "$tag" vgrabbj "libv4l1 -F 4 -S -z 2" $f $s "$o.vg" \
					vgrabbj -d "$dev" -i vga -o ppm -F 4 -S -z 2 -D 0 -f "$o.vg"
			fi
			# streamer (xawtv): libng's libv4l driver (drv0-libv4l.so,
			# linked with libv4l2), 2 frames of raw RGB into one file
			if have streamer && [ $f = RGB3 ] && want $tag $s streamer $f; then
				run "$lib" "$dev" "$tag" streamer "libv4l2 -D libv4l -f rgb" $f $s "$o.st" \
					streamer -q -c "$dev" -D libv4l -s ${W}x$H -f rgb -t 2 -o "$o.st.d/f.raw"
			fi
			# Perl's Video::Capture::V4l: V4L1 through libv4l1 (its XS
			# module is linked with it), the RGB24 palette (B,G,R in memory)
			if [ $have_perlv4l = 1 ] && [ $f = BGR3 ] && want $tag $s perl $f; then
				run "$lib" "$dev" "$tag" perl "libv4l1 Video::Capture::V4l" $f $s "$o.pl" \
					perl -e "$perl_grab" "$dev" "$o.pl" $W $H
			fi
			# Octave's videoinput (octave-image-acquisition, linked with
			# libv4l2): 2 snapshots in RGB3 written as raw RGB
			if have octave-cli && [ $f = RGB3 ] && want $tag $s octave $f; then
				run "$lib" "$dev" "$tag" octave "libv4l2 videoinput" $f $s "$o.oc" \
					octave-cli -q --norc --no-history --no-window-system \
					--eval "$(printf "$octave_grab" "$dev" $W $H "$o.oc")"
			fi
			if have vidcat && [ $f = BGR3 ] && want $tag $s vidcat $f; then
				run "$lib" "$dev" "$tag" vidcat "v4l1compat.so palette-c" RGB3 $s "$o.vc" \
					vidcat -d "$dev" -s ${W}x$H -p c -f ppm -b -o "$o.vc"
			fi
		done
		if have uvccapture; then
			local m
			for m in mmap read; do
				want $tag $s uvccapture-$m YUYV || continue
				o=$out/$lib-$tag-$s-uvc-$m
				run "$lib" "$dev" "$tag" uvccapture "v4l2convert.so $m" YUYV $s "$o" \
					uvccapture -d"$dev" -x$W -y$H -m -q100 -o"$o" \
					$([ $m = read ] && echo -r)
			done
		fi
	done
	flip "$dev" 0
}

# OpenCV: one Python process per library, device and backend (its start
# is slow), given the sensor:format pairs to capture. CAP_V4L2 runs under
# v4l2convert.so; CAP_GSTREAMER opens a v4l2src pipeline ending in an
# appsink, through libv4l2 (GST_V4L2_USE_LIBV4L2=1), asked for BGR and
# I420 (which its appsink hands over as they are).
opencv() { # lib dev tag backend(v4l2|gst)
	local lib=$1 dev=$2 tag=$3 be=$4 env=() s f v pairs=() what=opencv how
	[ $have_cv2 = 1 ] || return 0
	[ $be = v4l2 ] || [ $have_cvgst = 1 ] || return 0
	[ $be = v4l2 ] || what=opencv-gst
	for s in 1 0; do
		for f in RGB3 BGR3 YU12 YUYV; do
			want $tag $s $what $f || continue
			[ $be = v4l2 ] || [ $f = BGR3 ] || [ $f = YU12 ] || continue
			reference "$dev" "$tag" $s $f
			pairs+=("$s:$f")
		done
	done
	[ ${#pairs[@]} -gt 0 ] || return 0
	if [ "$lib" = ours ]; then
		env=(LD_LIBRARY_PATH="$ourlibs" LIBV4L2_PLUGIN_DIR="$plugins")
		[ $be = gst ] || env+=(LD_PRELOAD="$shim")
	else
		env=(LIBV4LCONTROL_CONTROLS=6)
		[ $be = gst ] || env+=(LD_PRELOAD="$debshim")
	fi
	env "${env[@]}" GST_V4L2_USE_LIBV4L2=1 timeout 120 python3 - "$dev" \
		"$out/$lib-$tag-$be" $W $H $be "${pairs[@]}" \
		>"$out/$lib-$tag-$be.cv.log" 2>&1 <<'EOF'
import subprocess, sys
import cv2
dev, base, w, h, be = sys.argv[1], sys.argv[2], int(sys.argv[3]), \
    int(sys.argv[4]), sys.argv[5]
gst = {"BGR3": "BGR", "YU12": "I420"}
for pair in sys.argv[6:]:
    s, f = int(pair[0]), pair[2:]
    subprocess.run(["v4l2-ctl", "-d", dev,
                    "--set-ctrl=sensor_flipped_horizontally=%d" % s,
                    "--set-ctrl=sensor_flipped_vertically=%d" % s], check=True)
    subprocess.run(["v4l2-ctl", "-d", dev, "-v",
                    "width=%d,height=%d,pixelformat=BA81" % (w, h)])
    if be == "gst":
        cap = cv2.VideoCapture(
            "v4l2src device=%s num-buffers=2 ! "
            "video/x-raw,format=%s,width=%d,height=%d ! appsink"
            % (dev, gst[f], w, h), cv2.CAP_GSTREAMER)
    else:
        cap = cv2.VideoCapture(dev, cv2.CAP_V4L2)
        cap.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter_fourcc(*f))
        cap.set(cv2.CAP_PROP_FRAME_WIDTH, w)
        cap.set(cv2.CAP_PROP_FRAME_HEIGHT, h)
        cap.set(cv2.CAP_PROP_CONVERT_RGB, 0)
    with open("%s-%d-%s.cv" % (base, s, f), "wb") as o:
        for i in range(2):
            ok, frame = cap.read()
            if ok:
                o.write(frame.tobytes())
    cap.release()
EOF
	local rc=$?
	for v in "${pairs[@]}"; do
		s=${v%%:*} f=${v#*:}
		v=$("$check" $f $W $H $s "$out/ref-$tag-$s-$f" \
			"$out/$lib-$tag-$be-$s-$f.cv" 2>&1 | tail -n 1)
		case $v in PASS* | FAIL*) ;; *) v="FAIL $v" ;; esac
		[ $rc -lt 124 ] || v="FAIL python3 exit $rc; ${v#* }"
		if [ $be = gst ]; then
			how="CAP_GSTREAMER v4l2src GST_V4L2_USE_LIBV4L2=1"
		else
			how="v4l2convert.so CAP_V4L2"
		fi
		record "$lib" "$tag" $what "$how" $f \
			"$([ $s = 1 ] && echo flipped || echo upright)" "$v"
	done
	flip "$dev" 0
}

# Programs with a window, under Xvfb, on the camera whose every format is
# converted (Bayer, the sensor upside down). zbarcam, in the plan: it must
# stream ZBARCAM_S seconds (15 by default) with its window, no dequeue
# error, no crash, and dequeue at least 5 frames (counted in libv4l2's
# ioctl log). qvidcap -P RGB3 and as is, only with CLIENTS_X11=1
# (tests/vm/CLIENTS.md says why): must show 10 frames and exit (-c 10)
# within the deadline.
only() { # program: not left out by CLIENTS_PROGRAMS
	[ -z "${CLIENTS_PROGRAMS:-}" ] || [[ " $CLIENTS_PROGRAMS " == *" $1 "* ]]
}
xvfb_start() {
	[ -z "${xvfb:-}" ] || return 0
	Xvfb :99 -screen 0 800x600x24 -nolisten tcp >"$out/xvfb.log" 2>&1 &
	xvfb=$!
	for _ in $(seq 60); do [ -S /tmp/.X11-unix/X99 ] && break; sleep 0.5; done
}
# DQBUFs that returned a frame, in a libv4l2 ioctl log (ours: VIDIOC_DQBUF
# is ioctl nr 17 of type 'V'; the original's log names the request)
dequeued() { # lib log
	if [ "$1" = ours ]; then
		grep -c "type 'V' nr 17 .* result 0$" "$2"
	else
		grep -c 'VIDIOC_DQBUF' "$2"
	fi
}
zbarcam_run() { # lib dev tag env...
	local lib=$1 dev=$2 tag=$3 o=$out/$1-$3-zbarcam rc v n secs=${ZBARCAM_S:-15}
	shift 3
	bayer "$dev"
	rm -f "$o.ioctl"
	env "$@" LIBV4L2_LOG_FILENAME="$o.ioctl" timeout "$secs" zbarcam \
		--verbose=1 --prescale=${W}x$H -q --nodbus "$dev" >"$o.log" 2>&1 </dev/null
	rc=$?
	n=$(dequeued "$lib" "$o.ioctl" 2>/dev/null)
	if [ $rc != 124 ]; then
		v="FAIL zbarcam exit $rc within $secs s; $(grep -m1 -iE 'error|fail' "$o.log")"
	elif grep -q 'v4l2_dq' "$o.log"; then
		v="FAIL $(grep -m1 'v4l2_dq' "$o.log")"
	elif [ "${n:-0}" -lt 5 ]; then
		v="FAIL ${n:-0} frames dequeued in $secs s"
	else
		v="PASS ran $secs s with its window, ${n} frames dequeued ($(grep -m1 -o 'using I/O mode: [A-Z]*' "$o.log"))"
	fi
	record "$lib" "$tag" zbarcam window "$(sed -n 's/.*set new format: \(....\).*/\1/p' "$o.log" | tail -n 1)" flipped "$v"
	[ -z "${VM_JOBDIR:-}" ] || cp "$o.log" "$VM_JOBDIR/"
}
x11() { # lib dev tag
	local lib=$1 dev=$2 tag=$3 env=() rc v o s=1 P
	have Xvfb || return 0
	if [ "$lib" = ours ]; then
		env=(LD_LIBRARY_PATH="$ourlibs" LIBV4L2_PLUGIN_DIR="$plugins")
	else
		env=(LIBV4LCONTROL_CONTROLS=6)
	fi
	flip "$dev" $s
	xvfb_start
	env+=(DISPLAY=:99 XDG_RUNTIME_DIR=/tmp)
	for P in "-P RGB3" ""; do
		[ "${CLIENTS_X11:-0}" = 1 ] && have qvidcap && only qvidcap || break
		o=$out/$lib-$tag-qvidcap${P:+-RGB3}
		bayer "$dev"
		env "${env[@]}" timeout 60 qvidcap -d "$dev" $P -c 10 -v >"$o.log" 2>&1 </dev/null
		rc=$?
		case $rc in
		0) v="PASS 10 frames shown, exit 0" ;;
		124) v="FAIL qvidcap timed out (60 s) before its 10th frame" ;;
		*) v="FAIL qvidcap exit $rc" ;;
		esac
		record "$lib" "$tag" qvidcap "${P:-as is}" "$(sed -n "s/^Pixel Format: *'\(....\)'.*/\1/p" "$o.log" | head -n 1)" flipped "$v"
	done
	! have zbarcam || ! only zbarcam || zbarcam_run "$lib" "$dev" "$tag" "${env[@]}"
	flip "$dev" 0
}

# A program the plan needs that is missing: skipped with a reason, but a
# failure on CI (CI=true), where a suite that tests nothing must not pass.
missing() { # what
	if [ "${CI:-}" = true ]; then
		echo "FAIL $1 is not installed (CI=true): scripts/install-deps.sh --clients"
		fail=$((fail + 1))
	else
		echo "NOTE $1 is not installed: skipped (scripts/install-deps.sh --clients)"
	fi
}
for p in gst-launch-1.0 ffmpeg mpv fswebcam mplayer uvccapture vidcat guvcview vgrabbj \
	zbarcam Xvfb streamer octave-cli; do
	have $p || missing $p
done
have_perlv4l=0
perl -MVideo::Capture::V4l -e 1 2>/dev/null && have_perlv4l=1 ||
	missing libvideo-capture-v4l-perl
# Perl: DEV OUT W H; 2 frames, each queued (VIDIOCMCAPTURE) into its own
# mmap slot and waited for (VIDIOCSYNC), the slot's bytes then written.
# capture() returns a string whose bytes are the slot in the mapping: the
# loop aliases it (a copy, my $x = capture(), would keep the bytes of
# before the sync, zeros).
perl_grab='
use Video::Capture::V4l;
my ($dev, $out, $w, $h) = @ARGV;
my $cam = Video::Capture::V4l->new($dev) or die "cannot open $dev: $!\n";
open(my $o, ">:raw", $out) or die "cannot write $out: $!\n";
for my $slot (0, 1) {
	for my $buf ($cam->capture($slot, $w, $h)) {
		defined($buf) or die "capture failed: $!\n";
		$cam->sync($slot) or die "sync failed: $!\n";
		print $o $buf;
	}
}
close($o) or die "$out: $!\n";
'
# Octave (printf: DEV W H OUT); an image is H x W x 3, written row by row
octave_grab='pkg load image-acquisition
vi = videoinput ("v4l2", "%s");
set (vi, "VideoResolution", [%d %d]);
set (vi, "VideoFormat", "RGB3");
start (vi, 2);
f = fopen ("%s", "w");
for i = 1:2
  fwrite (f, permute (getsnapshot (vi), [3 2 1]), "uint8");
endfor
fclose (f);
stop (vi);
'
# (importing cv2 takes seconds under TCG: once)
have_cv2=0
python3 -c 'import cv2' 2>/dev/null && have_cv2=1 || missing python3-opencv
have_cvgst=0
if [ $have_cv2 = 1 ]; then
	python3 -c 'import cv2, sys
sys.exit("GStreamer:YES" not in cv2.getBuildInformation().replace(" ", ""))' &&
		have_cvgst=1 || missing "python3-opencv with GStreamer"
fi

t0=$(date +%s)
step start
for dev in ${CLIENTS_DEVICES:-/dev/video0 /dev/video1}; do
	[ -c "$dev" ] || { echo "FAIL no $dev"; fail=$((fail + 1)); continue; }
	tag=$(basename "$dev")
	v4l2-ctl -d "$dev" -D 2>/dev/null | grep -q 'Video Capture Multiplanar' && tag=$tag-mplane
	prepare "$dev"
	for lib in ${CLIENTS_LIBS:-ours}; do
		t1=$(date +%s)
		clients "$lib" "$dev" "$tag"
		opencv "$lib" "$dev" "$tag" v4l2
		opencv "$lib" "$dev" "$tag" gst
		[ "$tag" != video0 ] || x11 "$lib" "$dev" "$tag"
		echo "NOTE $tag on $lib: $(($(date +%s) - t1)) s"
	done
done
step end
[ -z "${xvfb:-}" ] || kill "$xvfb"
echo "client runs: $(($(date +%s) - t0)) s"
rm -rf "$out"
if [ $((pass + fail)) = 0 ]; then
	echo "no client program installed: skipped (scripts/install-deps.sh --clients)"
	exit 77
fi
echo "$pass passed, $fail failed"
[ $fail = 0 ]
