#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Install everything the build, the tools and the tests need, from Debian 12
# packages. --cross adds the aarch64/armhf/i686 toolchains and libraries
# that the NEON and 32-bit x86 tests (run under qemu-user) need. --vm adds
# what tests/vm/vivid-vm.sh needs (qemu, a static busybox, kmod; the kernel
# is fetched by the script), libusbredirparser for the emulated USB cameras
# (tests/usb) and the programs those tests run (v4l2-ctl, ffmpeg,
# gst-launch-1.0 with v4l2src, the web browsers of tests/usb/batch-browser.sh:
# Chromium's headless shell with its setuid sandbox helper, Firefox ESR).
# --clients adds the programs the client suite (tests/vm/batch-clients.sh)
# runs on vivid: mpv, fswebcam, mplayer, uvccapture, OpenCV's Python module,
# vidcat (w3cam, a V4L1 program), guvcview and vgrabbj (linked with libv4l2,
# libv4l1), zbarcam (zbar-tools) under Xvfb, xawtv's streamer, Perl's
# Video::Capture::V4l and Octave's videoinput (octave-image-acquisition),
# and for its CLIENTS_X11=1 cases qvidcap, besides ffmpeg and GStreamer's
# v4l2src.
# --bench adds gnuplot for bench/run's chart.
# --fuzz adds clang and its runtime (libFuzzer, sanitizers) for tests/fuzz.
# --deb adds the tools that build our .debs (debian/) and the programs
# vm-debs.sh runs once those packages are installed in the VM: gst-launch
# with v4l2src, v4l2-ctl, guvcview, vgrabbj, and zbarcam with Xvfb.
# Safe to run repeatedly.
set -euo pipefail

cross=0
vm=0
fuzz=0
bench=0
deb=0
clients=0
for arg in "$@"; do
	case "$arg" in
	--cross) cross=1 ;;
	--vm) vm=1 ;;
	--fuzz) fuzz=1 ;;
	--bench) bench=1 ;;
	--deb) deb=1 ;;
	--clients) clients=1 ;;
	*) echo "usage: $0 [--cross] [--vm] [--fuzz] [--bench] [--deb] [--clients]" >&2; exit 2 ;;
	esac
done

SUDO=
[ "$(id -u)" = 0 ] || SUDO=sudo
APT="$SUDO env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 -y"

native=(build-essential meson ninja-build pkg-config cmake
	libcpu-features-dev libturbojpeg0-dev libjpeg62-turbo-dev zlib1g-dev
	libv4l-dev libv4lconvert0 libv4l-0 hyperfine libyuv-dev libswscale-dev
	clang-format)

# The camera programs the VM, package and client tests run on our
# libraries: one list for --vm, --deb and --clients, which all need them.
players=(
	v4l-utils                 # v4l2-ctl, v4l2-compliance
	ffmpeg                    # ffmpeg through v4l2convert.so
	gstreamer1.0-tools        # gst-launch-1.0
	gstreamer1.0-plugins-good # its v4l2src element
)

$APT update -qq
$APT install -qq --no-install-recommends "${native[@]}" >/dev/null

if [ $cross = 1 ]; then
	for arch in arm64 armhf i386; do
		dpkg --print-foreign-architectures | grep -qx $arch ||
			$SUDO dpkg --add-architecture $arch
	done
	$APT update -qq
	$APT install -qq --no-install-recommends qemu-user \
		gcc-aarch64-linux-gnu libc6-dev-arm64-cross \
		gcc-arm-linux-gnueabihf libc6-dev-armhf-cross \
		libcpu-features-dev:arm64 libturbojpeg0-dev:arm64 \
		libjpeg62-turbo-dev:arm64 pkgconf:arm64 \
		libcpu-features-dev:armhf libturbojpeg0-dev:armhf \
		libjpeg62-turbo-dev:armhf pkgconf:armhf \
		gcc-i686-linux-gnu libc6-dev-i386-cross \
		libturbojpeg0-dev:i386 \
		libjpeg62-turbo-dev:i386 pkgconf:i386 >/dev/null
fi
if [ $vm = 1 ]; then
	vm_packages=(
		qemu-system-x86 # boots the test kernel
		busybox-static  # the guest's shell and tools
		kmod            # loads vivid, uvcvideo and the gspca drivers
		libusbredirparser-dev # tests/usb's camera emulator
		chromium-headless-shell chromium-sandbox firefox-esr # usb-browser
		pipewire pipewire-bin wireplumber gstreamer1.0-pipewire # usb-pipewire
		"${players[@]}"
	)
	$APT install -qq --no-install-recommends "${vm_packages[@]}" >/dev/null
fi
if [ $fuzz = 1 ]; then
	$APT install -qq --no-install-recommends clang libclang-rt-14-dev \
		>/dev/null
fi
if [ $deb = 1 ]; then
	$APT install -qq --no-install-recommends debhelper dpkg-dev \
		guvcview vgrabbj zbar-tools xvfb "${players[@]}" >/dev/null
fi
if [ $clients = 1 ]; then
	$APT install -qq --no-install-recommends mpv fswebcam mplayer \
		uvccapture python3-opencv w3cam guvcview vgrabbj qvidcap zbar-tools \
		xvfb streamer libvideo-capture-v4l-perl octave-image-acquisition \
		"${players[@]}" >/dev/null
fi
if [ $bench = 1 ]; then
	$APT install -qq --no-install-recommends gnuplot-nox >/dev/null
fi
echo "dependencies installed"
