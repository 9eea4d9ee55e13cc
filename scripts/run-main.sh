#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The main job: build, capture 30 frames through libv4l2 with v4l2-grab
# (from the virtual camera, which sends MJPEG, or from a device:
# run-main.sh --device /dev/video0) into out/grab as PNGs; convert the
# sample frames v4l-samples generates (the 10 formats of its sources[]:
# packed 4:2:2, 4:2:0 planar and semi-planar, RGB24, BGR24) to every
# output format and transform into out/samples; then capture one frame of
# each of the 37 formats the virtual camera sends (src/vcam/vcam.h: those
# 10, GREY, 8-bit Bayer, MJPEG, JPEG and the webcam chips' formats, made by
# its encoders) through libv4l2 as RGB24 into out/formats/<FOURCC>.png.
# The virtual camera is libv4l2's plugin module, found in the build tree
# through LIBV4L2_PLUGIN_DIR.
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
rm -rf out/formats
mkdir -p out/formats
for f in YUYV YVYU UYVY VYUY YU12 YV12 NV12 NV21 RGB3 BGR3 GREY \
	BA81 GBRG GRBG RGGB MJPG JPEG \
	S501 S505 S508 CITV KONI S920 CPIA O511 O518 \
	S910 P207 S680 SONX M310 905C S561 PJPG JL20 S401 JPGL; do
	LIBV4L2_PLUGIN_DIR="$PWD/build/src/vcam" ./build/tools/v4l2-grab \
		--camera "$f:nopace" --size 320x240 --frames 1 \
		--out "out/formats/$f" >/dev/null
	mv "out/formats/$f/frame-000.png" "out/formats/$f.png"
	rmdir "out/formats/$f"
done
echo "out/formats: one frame of each of the virtual camera's formats, as RGB24 PNG"
