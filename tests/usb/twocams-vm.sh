#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# twocams-vm.sh --root DESTDIR --prefix P --libdir L --timeout S
#               --knobs PATTERN RUNNER USBCAM BATCH [ARG...]
# The host side of the tests usb-browser and usb-pipewire, run by
# tests/packaging/with-install.sh on the build installed into DESTDIR: the
# VM (RUNNER, tests/vm/vivid-vm.sh, for S seconds at most) with the
# cameras sq905c and uvc-flip played by USBCAM, vivid with no capture node
# (a program that takes the first camera it finds gets a USB one), and
# `BATCH DESTDIR P L ARG...` in the guest on the installed tree. The
# variables of our environment whose names match the glob PATTERN (the
# batch's knobs: 'BROWSER_*', 'PIPEWIRE_BARE') follow into the guest. Its
# exit status is ours.
set -uo pipefail

root= prefix= libdir= timeout= knobs=
while [ $# -gt 0 ]; do
	case $1 in
	--root) root=$2 ;;
	--prefix) prefix=$2 ;;
	--libdir) libdir=$2 ;;
	--timeout) timeout=$2 ;;
	--knobs) knobs=$2 ;;
	*) break ;;
	esac
	shift 2
done
runner=${1:?} usbcam=${2:?} batch=${3:?}
shift 3
: "${timeout:?--timeout}" "${knobs:?--knobs}"
# The guest reads the host's files: the installed tree must be readable by
# the guest's unprivileged users (the browsers run as nobody).
chmod -R a+rX "$root"
env_args=()
while IFS='=' read -r name _; do
	# shellcheck disable=SC2053 # a pattern on purpose
	[[ $name == $knobs ]] && env_args+=(--env "$name=${!name}")
done < <(env)
exec "$runner" --timeout "$timeout" ${env_args[@]+"${env_args[@]}"} \
	--vivid "n_devs=1 node_types=0x100" \
	--usb-emulator "$usbcam" --usb-camera sq905c --usb-camera uvc-flip \
	"$batch" "$root" "$prefix" "$libdir" "$@"
