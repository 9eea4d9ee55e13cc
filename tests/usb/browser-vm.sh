#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# browser-vm.sh --root DESTDIR --prefix P --libdir L RUNNER USBCAM BATCH PAGE
# The host side of the usb-browser test, run by tests/packaging/
# with-install.sh on the build installed into DESTDIR: the VM (RUNNER,
# tests/vm/vivid-vm.sh) with the cameras sq905c and uvc-flip played by
# USBCAM, vivid with no capture node (a browser takes the first camera it
# finds), and BATCH (tests/usb/batch-browser.sh) in the guest on the
# installed tree. Its exit status is ours.
set -uo pipefail

root= prefix= libdir=
while [ $# -gt 0 ]; do
	case $1 in
	--root) root=$2 ;;
	--prefix) prefix=$2 ;;
	--libdir) libdir=$2 ;;
	*) break ;;
	esac
	shift 2
done
runner=${1:?} usbcam=${2:?} batch=${3:?} page=${4:?}
# The guest reads the host's files: the installed tree must be readable by
# the browser's unprivileged user.
chmod -R a+rX "$root"
# The batch's knobs (BROWSER_BARE, BROWSER_CASES) follow into the guest.
env_args=()
while IFS='=' read -r name _; do
	case "$name" in
	BROWSER_*) env_args+=(--env "$name=${!name}") ;;
	esac
done < <(env)
exec "$runner" --timeout 1500 ${env_args[@]+"${env_args[@]}"} --vivid "n_devs=1 node_types=0x100" \
	--usb-emulator "$usbcam" --usb-camera sq905c --usb-camera uvc-flip \
	"$batch" "$root$prefix" "$libdir" "$page"
