#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# pipewire-vm.sh --root DESTDIR --prefix P --libdir L RUNNER USBCAM BATCH USBCHECK
# The host side of the usb-pipewire test, run by tests/packaging/
# with-install.sh on the build installed into DESTDIR: the VM (RUNNER,
# tests/vm/vivid-vm.sh) with the cameras sq905c and uvc-flip played by
# USBCAM, vivid with no capture node, and BATCH (tests/usb/
# batch-pipewire.sh) in the guest on the installed tree. Its exit status
# is ours.
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
runner=${1:?} usbcam=${2:?} batch=${3:?} chk=${4:?}
chmod -R a+rX "$root"
env_args=()
[ -n "${PIPEWIRE_BARE:-}" ] && env_args+=(--env "PIPEWIRE_BARE=$PIPEWIRE_BARE")
exec "$runner" --timeout 600 ${env_args[@]+"${env_args[@]}"} --vivid "n_devs=1 node_types=0x100" \
	--usb-emulator "$usbcam" --usb-camera sq905c --usb-camera uvc-flip \
	"$batch" "$root" "$prefix" "$libdir" "$chk"
