#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The main job without a camera: build, then convert generated sample frames
# of every supported format and write viewable PNGs to out/samples.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -f build/build.ninja ]; then
	meson setup --reconfigure build >/dev/null
else
	meson setup build --buildtype=release >/dev/null
fi
ninja -C build >/dev/null
exec ./build/tools/v4l-samples --out out/samples "$@"
