#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Build and run every test configuration:
#   native (every SIMD tier the CPU has, and again with LIBV4LCONVERT_SIMD=scalar:
#           each test is registered for both),
#   vivid-vm: the real vivid driver in a qemu VM (tests/vm),
#   packages: the Debian packages (debian/) built, compared with Debian's
#           and installed over them in the VM (skipped without debhelper),
#   usb: emulated USB cameras on the real uvcvideo and gspca drivers in the
#        VM (tests/usb),
#   native under AddressSanitizer + UndefinedBehaviorSanitizer,
#   the libFuzzer targets for a bounded time (clang), threads under TSan,
#   aarch64 and armhf cross builds under qemu-user (NEON for real),
#   armhf again on a CPU without NEON (QEMU_CPU=cortex-a9,neon=off),
#   i686 (32-bit x86) under qemu-user three times: on a Pentium III (no
#   SSE2: every kernel falls back to scalar), on an Atom N270 (the netbook:
#   SSE2 + SSSE3) and on the emulator's richest CPU (every tier).
# Ends with one summary line: "N passed, N failed, N skipped".
# --native-only skips the cross builds (no cross toolchain needed).
set -uo pipefail

cd "$(dirname "$0")/.."
native_only=0
[ "${1:-}" = "--native-only" ] && native_only=1
jobs=${JOBS:-2}
declare -A CONFIGURED
total_ok=0 total_fail=0 total_skip=0 failed_configs=()

run_config() { # name builddir "setup args" [env...]
	local name=$1 dir=$2 setup=$3
	shift 3
	echo "=== $name"
	local again=()
	# File lists are read at configure time: reconfigure an existing dir.
	[ -f "$dir/build.ninja" ] && again=(--reconfigure)
	if [ -z "${CONFIGURED[$dir]:-}" ]; then
		CONFIGURED[$dir]=1
		# shellcheck disable=SC2086
		if ! meson setup "${again[@]}" "$dir" $setup >"$dir.setup.log" 2>&1; then
			cat "$dir.setup.log"
			echo "$name: setup failed"
			total_fail=$((total_fail + 1)); failed_configs+=("$name")
			return
		fi
	fi
	if ! ninja -C "$dir" -j "$jobs" >"$dir.build.log" 2>&1; then
		tail -50 "$dir.build.log"
		echo "$name: build failed"
		total_fail=$((total_fail + 1)); failed_configs+=("$name")
		return
	fi
	local log
	# shellcheck disable=SC2086
	log=$(env "$@" meson test -C "$dir" --num-processes "$jobs" --print-errorlogs ${TEST_ARGS:-} 2>&1)
	echo "$log" | grep -E '^ *[0-9]+/[0-9]+ ' | sed 's/^/  /'
	echo "$log" | grep -vE '^ *[0-9]+/[0-9]+ ' | grep -E 'FAIL|ERROR|error:' | head -40
	local ok fail skip tout xfail
	ok=$(echo "$log" | awk '/^Ok:/ {print $2}')
	fail=$(echo "$log" | awk '/^Fail:/ {print $2}')
	skip=$(echo "$log" | awk '/^Skipped:/ {print $2}')
	tout=$(echo "$log" | awk '/^Timeout:/ {print $2}')
	xfail=$(echo "$log" | awk '/^Unexpected Pass:/ {print $3}')
	ok=${ok:-0} skip=${skip:-0}
	fail=$(( ${fail:-0} + ${tout:-0} + ${xfail:-0} ))
	if [ "$ok" = 0 ] && [ "$fail" = 0 ]; then
		echo "$log" | tail -20
		fail=1
	fi
	echo "$name: $ok passed, $fail failed, $skip skipped"
	total_ok=$((total_ok + ok)); total_fail=$((total_fail + fail))
	total_skip=$((total_skip + skip))
	[ "$fail" = 0 ] || failed_configs+=("$name")
}

# The Debian packages: built (tests/packaging/build-debs.sh), their files
# and control data against Debian's (compare-debian.sh), then installed over
# Debian's in the vivid VM (vm-debs.sh). Counts the PASS/FAIL lines.
run_packages() {
	echo "=== packages"
	if ! command -v dh >/dev/null 2>&1; then
		echo "packages: skipped (debhelper is not installed: scripts/install-deps.sh --deb)"
		total_skip=$((total_skip + 1))
		return
	fi
	if ! bash tests/packaging/build-debs.sh build-deb; then
		echo "packages: build failed"
		total_fail=$((total_fail + 1)); failed_configs+=(packages)
		return
	fi
	local ok=0 fail=0 skip=0 log rc t
	for t in compare-debian.sh vm-debs.sh; do
		if [ $t = compare-debian.sh ]; then
			log=$(bash tests/packaging/$t --debs build-deb 2>&1)
		else
			log=$(bash tests/packaging/$t build-deb 2>&1)
		fi
		rc=$?
		echo "$log" | grep -E '^(PASS|FAIL|NOTE) ' | sed 's/^/  /'
		if [ $rc = 77 ]; then
			echo "$log" | tail -n 2
			skip=$((skip + 1))
			continue
		fi
		ok=$((ok + $(echo "$log" | grep -c '^PASS ')))
		fail=$((fail + $(echo "$log" | grep -c '^FAIL ')))
		if [ $rc != 0 ] && ! echo "$log" | grep -q '^FAIL '; then
			echo "$log" | tail -n 20
			fail=$((fail + 1))
		fi
	done
	echo "packages: $ok passed, $fail failed, $skip skipped"
	total_ok=$((total_ok + ok)); total_fail=$((total_fail + fail))
	total_skip=$((total_skip + skip))
	[ "$fail" = 0 ] || failed_configs+=(packages)
}

run_config native build-test "--buildtype=release"
# A real V4L2 driver: vivid in a qemu VM (tests/vm; skipped without qemu).
# Its vm-clients test runs the programs users run (tests/vm/batch-clients.sh)
# that are installed here, and skips the others; on CI (CI=true) a missing
# one fails it. (The guest's python3 is the system's.)
missing=$(for p in gst-launch-1.0 ffmpeg mpv fswebcam mplayer uvccapture vidcat; do
	command -v $p >/dev/null 2>&1 || echo $p
done; /usr/bin/python3 -c 'import cv2' >/dev/null 2>&1 || echo python3-opencv)
if [ -n "$missing" ]; then
	what="skipped"
	[ "${CI:-}" != true ] || what="failing (CI=true)"
	echo "=== vm-clients: not installed, $what: $(echo $missing) (scripts/install-deps.sh --clients)"
fi
TEST_ARGS="--suite vm" run_config vivid-vm build-test "--buildtype=release"
run_packages
# Real webcam drivers: emulated USB cameras (tests/usb) in the VM.
if ! command -v qemu-system-x86_64 >/dev/null 2>&1; then
	echo "=== usb: skipped: qemu-system-x86_64 is not installed (scripts/install-deps.sh --vm)"
elif ! pkg-config --exists libusbredirparser-0.5 2>/dev/null; then
	echo "=== usb: skipped: libusbredirparser-dev is not installed (scripts/install-deps.sh --vm)"
else
	TEST_ARGS="--suite usb" run_config usb build-test "--buildtype=release"
fi
run_config sanitizers build-test-asan \
	"--buildtype=debugoptimized -Db_sanitize=address,undefined -Db_lundef=false -Dbench=false" \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1
# libFuzzer targets, 20 s each (tests/fuzz; clang only; scripts/fuzz.sh runs
# them longer).
if command -v clang >/dev/null 2>&1; then
	TEST_ARGS="--suite fuzz" run_config fuzz build-test-fuzz \
		"--native-file tests/fuzz/clang-fuzz.ini"
fi
# Threads (tests/robust/threads.c) under ThreadSanitizer (the 10,000
# open/close cycles run in the other configurations).
TEST_ARGS="--suite threads" run_config tsan build-test-tsan \
	"--buildtype=debugoptimized -Db_sanitize=thread -Db_lundef=false -Dbench=false" \
	TSAN_OPTIONS=halt_on_error=1 ROBUST_CYCLES=300
if [ $native_only = 0 ]; then
	run_config aarch64 build-test-aarch64 \
		"--cross-file cross/aarch64-linux-gnu.ini -Dbench=false"
	run_config armhf build-test-armhf \
		"--cross-file cross/arm-linux-gnueabihf.ini -Dbench=false"
	run_config armhf-no-neon build-test-armhf "" QEMU_CPU=cortex-a9,neon=off
	# i686 under qemu-user: the whole suite takes over 20 minutes here on
	# each CPU model (accuracy alone ~16 min of test time, the chip
	# decoders over 10), so: on the emulator's richest CPU (every tier) everything but
	# accuracy (the integer kernels are held bit-exact to scalar by
	# checkasm, the scalar formulas measured natively) and the chip
	# decoders (plain C, run natively and on ARM); on the N270 (SSE2) and
	# the Pentium III (no SSE2: all scalar, libjpeg-turbo's own dispatch
	# too) what changes with the CPU: checkasm, the frame converters, the
	# JPEG decoder, the silence and the ABI, without the scalar twins.
	# Measured here on 2 shared cores: 290 s + 96 s + 112 s.
	# The 32-bit client against the native 64-bit frame server
	# (server-abi-native-server): the native build's server and camera
	# module.
	if ! command -v i686-linux-gnu-gcc >/dev/null 2>&1 ||
		! command -v qemu-i386 >/dev/null 2>&1; then
		echo "=== i686: skipped: i686-linux-gnu-gcc or qemu-i386 is not installed (scripts/install-deps.sh --cross)"
		total_skip=$((total_skip + 1))
	else
		TEST_ARGS="--no-suite accuracy --no-suite chip" run_config i686 \
			build-test-i686 \
			"--cross-file cross/i686-linux-gnu.ini -Dbench=false" \
			QEMU_CPU=max \
			FS_NATIVE_SERVER="$PWD/build-test/src/server/v4l2-frameserver" \
			FS_NATIVE_PLUGIN_DIR="$PWD/build-test/src/vcam"
		i686_cpu_tests="checkasm frame-geometry frame-convert frame-transform"
		i686_cpu_tests+=" jpeg-decode jpeg-corrupt quiet-stdout"
		i686_cpu_tests+=" abi-debian-header abi-kernels-once"
		TEST_ARGS=$i686_cpu_tests run_config i686-n270 build-test-i686 "" \
			QEMU_CPU=n270
		TEST_ARGS=$i686_cpu_tests run_config i686-pentium3 build-test-i686 "" \
			QEMU_CPU=pentium3
	fi
fi

[ ${#failed_configs[@]} = 0 ] || echo "failed configurations: ${failed_configs[*]}"
echo "$total_ok passed, $total_fail failed, $total_skip skipped"
[ "$total_fail" = 0 ]
