#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The main job: build, capture 30 frames through libv4l2 with v4l2-grab
# (from the virtual camera, which sends MJPEG, or from a device:
# run-main.sh --device /dev/video0) into out/grab as PNGs, then convert
# generated sample frames of every format into out/samples. The virtual
# camera is libv4l2's plugin module, found in the build tree through
# LIBV4L2_PLUGIN_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -f build/build.ninja ]; then
	meson setup --reconfigure build >/dev/null
else
	meson setup build --buildtype=release >/dev/null
fi
ninja -C build >/dev/null
LIBV4L2_PLUGIN_DIR="$PWD/build/src/vcam" ./build/tools/v4l2-grab --out out/grab \
	--frames 30 "$@"
./build/tools/v4l-samples --out out/samples
