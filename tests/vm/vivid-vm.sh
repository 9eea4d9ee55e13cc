#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# vivid-vm.sh: run a bash script against a real V4L2 driver (vivid, the
# kernel's virtual video test driver) inside a throw-away qemu VM.
#
#   vivid-vm.sh [--cache DIR] [--timeout S] [--vivid "module options"]
#               [--kvm] [--keep] [--env NAME=VALUE]...
#               [--usb-emulator PROG --usb-camera CAMERA...] SCRIPT [ARGS...]
#
# Debian's own kernel boots under qemu (TCG by default) straight into a small
# busybox initramfs that loads virtio/9p/overlay and vivid, mounts the host
# root file system read-only over 9p with a tmpfs overlay for writes, and runs
# `bash SCRIPT ARGS...` chrooted into it, so host binaries (our build tree,
# v4l2-ctl, ...) see a real /dev/video0. The guest's stdout and stderr are
# printed after the VM powers off, and its exit code becomes ours.
# In the guest, $VM_JOBDIR is a writable directory shared with the host (kept
# after the run with --keep).
#
# USB cameras: with --usb-emulator (tests/usb/usbcam) and one --usb-camera
# per camera (its name, optionally ",FAULT"), the emulator is started on the
# host first, serving camera i on $VM_JOBDIR/usb/cam<i>.sock, and the VM gets
# a qemu-xhci controller with one usb-redir device per camera. The guest
# loads the cameras' drivers (usbcore, xhci, uvcvideo, gspca_*: `usbcam
# --info` names them, and any DMI identity the cameras need, given to qemu
# as -smbios) before the controller's driver, so they bind as the devices
# appear. In the guest, $USBCAM_DIR is that directory (each camera's log
# cam<i>.log; fault commands appended to cam<i>.cmd), $USBCAM_CAMS the
# camera list, in order, and $USBCAM_QEMU_LOG qemu's log, where the
# isochronous cameras' usb-redir devices report the packets they drop.
#
# Assets (the kernel package, its vmlinux unpacked for a direct PVH boot and
# an uncompressed initramfs) are built once into the cache directory:
# --cache, else $VIVID_VM_CACHE, else $XDG_CACHE_HOME/libv4l-vm, else
# ~/.cache/libv4l-vm, else ./vm-cache. VIVID_VM_KPKG pins the kernel package
# (default: the one linux-image-amd64 depends on).
#
# Exit codes: the script's own; 77 when qemu, busybox-static, kmod or the
# kernel package cannot be had (skip); 124 on timeout; 125 when the VM did
# not produce a result.
set -euo pipefail

SKIP=77
me=vivid-vm

usage() {
	sed -n '6,7p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

skip() {
	echo "$me: SKIP: $*" >&2
	exit $SKIP
}

die() {
	echo "$me: $*" >&2
	exit 125
}

cache=${VIVID_VM_CACHE:-}
timeout_s=600
vivid_opts="n_devs=1 node_types=0x1"
use_kvm=0
keep=0
extra_env=()
usb_emu=
usb_cams=()
while [ $# -gt 0 ]; do
	case "$1" in
	--cache) cache=$2; shift 2 ;;
	--timeout) timeout_s=$2; shift 2 ;;
	--vivid) vivid_opts=$2; shift 2 ;;
	--kvm) use_kvm=1; shift ;;
	--keep) keep=1; shift ;;
	--usb-emulator) usb_emu=$2; shift 2 ;;
	--usb-camera) usb_cams+=("$2"); shift 2 ;;
	--env)
		case "$2" in *=*) ;; *) usage ;; esac
		extra_env+=("$2"); shift 2 ;;
	--help | -h) usage ;;
	--) shift; break ;;
	-*) usage ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || usage
script=$(realpath -e "$1") || die "no such script: $1"
shift

if [ -z "$cache" ]; then
	if [ -n "${XDG_CACHE_HOME:-}" ]; then
		cache=$XDG_CACHE_HOME/libv4l-vm
	elif [ -n "${HOME:-}" ] && [ -w "${HOME:-/nonexistent}" ]; then
		cache=$HOME/.cache/libv4l-vm
	else
		cache=$PWD/vm-cache
	fi
fi

[ "$(uname -m)" = x86_64 ] || skip "host is $(uname -m), the recipe needs x86_64"
for tool in qemu-system-x86_64 timeout flock; do
	command -v $tool >/dev/null ||
		skip "$tool not installed (scripts/install-deps.sh --vm)"
done
busybox=
for b in /bin/busybox /usr/bin/busybox; do
	# Only a static busybox runs in the initramfs (it has no libc).
	if [ -x $b ] &&
		[ "$(head -c 2048 $b | LC_ALL=C grep -ca ld-linux)" = 0 ]; then
		busybox=$b
		break
	fi
done
[ -n "$busybox" ] || skip "busybox-static not installed (scripts/install-deps.sh --vm)"
PATH=$PATH:/sbin:/usr/sbin
for tool in depmod modprobe dpkg apt-get apt-cache xz; do
	command -v $tool >/dev/null ||
		skip "$tool not found (scripts/install-deps.sh --vm)"
done

usb_modules=()
usb_smbios=()
usb_iso=()
if [ ${#usb_cams[@]} -gt 0 ]; then
	[ -n "$usb_emu" ] && [ -x "$usb_emu" ] ||
		skip "no USB camera emulator (tests/usb/usbcam needs libusbredirparser-dev)"
	[ ${#usb_cams[@]} -le 14 ] || die "at most 14 USB cameras"
	info=$("$usb_emu" --info "${usb_cams[@]}") || die "usbcam --info failed"
	while read -r kind rest; do
		case "$kind" in
		module) [[ " ${usb_modules[*]} " == *" $rest "* ]] ||
			usb_modules+=("$rest") ;;
		smbios) usb_smbios+=(-smbios "$rest") ;;
		xfer) [ "${rest#* }" = iso ] && usb_iso[${rest%% *}]=1 ;;
		esac
	done <<<"$info"
fi

mkdir -p "$cache" || skip "cannot create cache dir $cache"
cache=$(realpath "$cache")

# ---------------------------------------------------------------- guest /init
# Runs as PID 1 in the initramfs. Kept here so that the runner is one file;
# its hash names the initramfs, so an edit rebuilds it.
read -r -d '' GUEST_INIT <<'EOF_INIT' || true
#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
exec </dev/console >/dev/console 2>&1

halt_now() {
	sync
	poweroff -f
	sleep 10
}
fail() {
	echo "vivid-vm init: $*"
	halt_now
}

loaded=" "
for m in $(cat /lib/modules/base.list); do
	insmod /lib/modules/$m || fail "insmod $m"
	loaded="$loaded$m "
done
mkdir -p /job
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 job /job ||
	fail "cannot mount the job share"
. /job/config
for m in $(cat /lib/modules/vivid.list); do
	if [ $m = vivid.ko ]; then
		insmod /lib/modules/$m $VIVID_OPTS || fail "insmod vivid $VIVID_OPTS"
	else
		insmod /lib/modules/$m || fail "insmod $m"
	fi
	loaded="$loaded$m "
done
# USB cameras: their drivers first, the host controller last, so that
# each driver is there when its device appears (there is no udev).
[ -z "$USB_MODULES" ] || for d in $USB_MODULES xhci-pci; do
	[ -f /lib/modules/usb-$d.list ] || fail "no driver $d in the initramfs"
	for m in $(cat /lib/modules/usb-$d.list); do
		case "$loaded" in *" $m "*) continue ;; esac
		insmod /lib/modules/$m || fail "insmod $m"
		loaded="$loaded$m "
	done
done
# Device nodes appear asynchronously; wait for the first capture node.
i=0
while [ ! -e /dev/video0 ] && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
chmod 0666 /dev/video* /dev/media* /dev/v4l-* /dev/radio* /dev/swradio* \
	/dev/vbi* /dev/cec* 2>/dev/null

mkdir -p /lower /upper /newroot
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000,ro,cache=mmap \
	hostroot /lower || fail "cannot mount the host root"
mount -t tmpfs -o mode=0755 tmpfs /upper
mkdir -p /upper/u /upper/w
mount -t overlay overlay -o lowerdir=/lower,upperdir=/upper/u,workdir=/upper/w \
	/newroot || fail "cannot mount the overlay"
mount --bind /dev /newroot/dev
mkdir -p /newroot/dev/pts /newroot/dev/shm
mount -t devpts devpts /newroot/dev/pts
mount -t tmpfs -o mode=1777 tmpfs /newroot/dev/shm
mount -t proc proc /newroot/proc
mount -t sysfs sysfs /newroot/sys
mount -t tmpfs -o mode=0755 tmpfs /newroot/run
mkdir -p /newroot/tmp && chmod 1777 /newroot/tmp
mkdir -p "/newroot$JOBDIR"
mount --bind /job "/newroot$JOBDIR" || fail "cannot bind the job share"

echo "vivid-vm init: running"
chroot /newroot /usr/bin/env -i /bin/bash "$JOBDIR/cmd.sh" \
	>/job/stdout 2>/job/stderr </dev/null
echo $? >/job/rc
halt_now
EOF_INIT

BASE_MODULES="virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev
virtio_pci netfs fscache 9pnet 9pnet_virtio 9p overlay"
VIVID_MODULES="vivid"
# Every driver a USB camera of tests/usb can need (each loaded on demand).
USB_MODULES="xhci-pci uvcvideo gspca_pac207 gspca_mr97310a gspca_sonixb
gspca_spca505 gspca_spca508 gspca_sq905c gspca_jl2005bcd gspca_se401"

# ---------------------------------------------------------------- assets
lock_fd=9
exec 9>"$cache/lock"
flock $lock_fd

kpkg=${VIVID_VM_KPKG:-}
if [ -z "$kpkg" ]; then
	kpkg=$(apt-cache depends linux-image-amd64 2>/dev/null |
		awk '/Depends: linux-image-[0-9]/ { print $2; exit }') || true
fi
if [ -z "$kpkg" ]; then
	# Offline: fall back to a package already in the cache.
	deb=$(ls -t "$cache"/linux-image-*.deb 2>/dev/null | head -n 1) || true
	[ -n "$deb" ] || skip "cannot resolve linux-image-amd64 (no apt metadata?)"
	kpkg=$(basename "$deb" | sed 's/_.*//')
fi
kver=${kpkg#linux-image-}
vmlinux=$cache/vmlinux-$kver

deb=$(ls "$cache/${kpkg}"_*.deb 2>/dev/null | head -n 1) || true
if [ -z "$deb" ]; then
	dl=$(mktemp -d "$cache/download.XXXXXX")
	echo "$me: downloading $kpkg (once)" >&2
	if ! (cd "$dl" && apt-get download -q "$kpkg" >"$dl/log" 2>&1); then
		tail -n 5 "$dl/log" >&2
		rm -rf "$dl"
		skip "cannot download $kpkg"
	fi
	mv "$dl"/*.deb "$cache/"
	rm -rf "$dl"
	deb=$(ls "$cache/${kpkg}"_*.deb | head -n 1)
fi

bb_version=$("$busybox" 2>&1 | head -n 1) || true
mods_hash=$(printf '%s\n' "$GUEST_INIT" "$BASE_MODULES" "$VIVID_MODULES" \
	"$USB_MODULES" "$bb_version" | sha256sum | cut -c1-12)
initrd=$cache/initrd-$kver-$mods_hash.cpio

if [ ! -s "$vmlinux" ] || [ ! -s "$initrd" ]; then
	echo "$me: building VM assets for $kver in $cache (once)" >&2
	work=$(mktemp -d "$cache/build.XXXXXX")
	trap 'rm -rf "$work"' EXIT
	dpkg -x "$deb" "$work/root" || skip "cannot unpack $deb"
	kimage=$work/root/boot/vmlinuz-$kver
	[ -f "$kimage" ] || die "$deb has no boot/vmlinuz-$kver"

	if [ ! -s "$vmlinux" ]; then
		# The bzImage payload is an xz stream; unpack the ELF vmlinux
		# once so that qemu boots it through its PVH entry point.
		off=$(LC_ALL=C grep -obUaP '\xfd7zXZ\x00' "$kimage" |
			head -n 1 | cut -d: -f1) || true
		[ -n "$off" ] || die "no xz payload in $kimage"
		tail -c +$((off + 1)) "$kimage" |
			xz -dc --single-stream >"$work/vmlinux" 2>/dev/null || true
		[ "$(head -c 4 "$work/vmlinux" | od -An -c | tr -d ' ')" = \
			'177ELF' ] || die "unpacked kernel is not an ELF file"
		mv "$work/vmlinux" "$vmlinux"
	fi

	if [ ! -s "$initrd" ]; then
		depmod -b "$work/root" "$kver" || die "depmod failed"
		ird=$work/initrd
		mkdir -p "$ird"/{bin,dev,proc,sys,lib/modules}
		cp "$busybox" "$ird/bin/busybox"
		printf '%s\n' "$GUEST_INIT" >"$ird/init"
		chmod 0755 "$ird/init"
		for set in base vivid; do
			if [ $set = base ]; then list=$BASE_MODULES; else list=$VIVID_MODULES; fi
			: >"$ird/lib/modules/$set.list"
			for m in $list; do
				modprobe -d "$work/root" -S "$kver" --show-depends "$m" ||
					die "modprobe cannot resolve $m"
			done | awk '$1 == "insmod" { print $2 }' >"$work/$set.paths"
			while read -r p; do
				src=$p
				[ -f "$src" ] || src=$work/root$p
				[ -f "$src" ] || die "module file $p not found"
				name=$(basename "$src")
				case "$name" in
				*.ko.xz) out=${name%.xz}; xz -dc "$src" >"$ird/lib/modules/$out" ;;
				*.ko.zst) out=${name%.zst}; zstd -qdc "$src" >"$ird/lib/modules/$out" ;;
				*) out=$name; cp "$src" "$ird/lib/modules/$out" ;;
				esac
				grep -qx "$out" "$ird"/lib/modules/*.list ||
					echo "$out" >>"$ird/lib/modules/$set.list"
			done <"$work/$set.paths"
		done
		grep -qx vivid.ko "$ird/lib/modules/vivid.list" ||
			die "vivid.ko not found in $kpkg"
		# USB: per driver, its whole insmod order (loaded on demand).
		for m in $USB_MODULES; do
			modprobe -d "$work/root" -S "$kver" --show-depends "$m" |
				awk '$1 == "insmod" { print $2 }' >"$work/usb.paths" ||
				die "modprobe cannot resolve $m"
			: >"$ird/lib/modules/usb-$m.list"
			while read -r p; do
				src=$p
				[ -f "$src" ] || src=$work/root$p
				[ -f "$src" ] || die "module file $p not found"
				name=$(basename "$src")
				case "$name" in
				*.ko.xz) out=${name%.xz}; [ -f "$ird/lib/modules/$out" ] ||
					xz -dc "$src" >"$ird/lib/modules/$out" ;;
				*.ko.zst) out=${name%.zst}; [ -f "$ird/lib/modules/$out" ] ||
					zstd -qdc "$src" >"$ird/lib/modules/$out" ;;
				*) out=$name; [ -f "$ird/lib/modules/$out" ] ||
					cp "$src" "$ird/lib/modules/$out" ;;
				esac
				echo "$out" >>"$ird/lib/modules/usb-$m.list"
			done <"$work/usb.paths"
		done
		(cd "$ird" && find . | LC_ALL=C sort |
			"$busybox" cpio -o -H newc 2>/dev/null) >"$work/initrd.cpio"
		mv "$work/initrd.cpio" "$initrd"
		# Older initramfs builds of this kernel are stale now.
		for old in "$cache"/initrd-"$kver"-*.cpio; do
			[ "$old" = "$initrd" ] || rm -f "$old"
		done
	fi
	rm -rf "$work"
	trap - EXIT
fi
flock -u $lock_fd
exec 9>&-

# ---------------------------------------------------------------- the run
job=$(mktemp -d "${TMPDIR:-/tmp}/vivid-vm.XXXXXX")
job=$(realpath "$job")
chmod 0755 "$job"
cleanup() {
	if [ $keep = 1 ]; then
		echo "$me: job directory kept: $job" >&2
	else
		rm -rf "$job"
	fi
}
trap cleanup EXIT

{
	printf 'JOBDIR=%q\n' "$job"
	printf 'VIVID_OPTS=%q\n' "$vivid_opts"
	printf 'USB_MODULES=%q\n' "${usb_modules[*]}"
} >"$job/config"
{
	echo '# generated by vivid-vm.sh'
	printf 'cd %q 2>/dev/null || cd /\n' "$PWD"
	echo 'export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'
	echo 'export HOME=/root LANG=C.UTF-8 TERM=dumb'
	printf 'export VM_JOBDIR=%q\n' "$job"
	if [ ${#usb_cams[@]} -gt 0 ]; then
		printf 'export USBCAM_DIR=%q\n' "$job/usb"
		printf 'export USBCAM_CAMS=%q\n' "${usb_cams[*]}"
		printf 'export USBCAM_QEMU_LOG=%q\n' "$job/qemu.log"
	fi
	# libv4l's tuning knobs follow the caller into the guest, and CI (a
	# guest test may be strict there: tests/vm/batch-clients.sh).
	while IFS='=' read -r name _; do
		case "$name" in
		LIBV4L* | CI) printf 'export %s=%q\n' "$name" "${!name}" ;;
		esac
	done < <(env)
	for kv in ${extra_env[@]+"${extra_env[@]}"}; do
		printf 'export %s=%q\n' "${kv%%=*}" "${kv#*=}"
	done
	printf 'exec /bin/bash %q' "$script"
	for a in "$@"; do printf ' %q' "$a"; done
	echo
} >"$job/cmd.sh"

if [ $use_kvm = 1 ]; then
	accel=(-accel kvm -cpu qemu64)
else
	accel=(-accel tcg,thread=multi -cpu max)
fi

# The camera emulator listens before qemu connects to it.
usb_args=()
usb_pid=
stop_usb() {
	if [ -n "$usb_pid" ]; then
		kill "$usb_pid" 2>/dev/null || true
		wait "$usb_pid" 2>/dev/null || true
		usb_pid=
	fi
}
if [ ${#usb_cams[@]} -gt 0 ]; then
	mkdir -p "$job/usb"
	"$usb_emu" --dir "$job/usb" "${usb_cams[@]}" 2>"$job/usb/usbcam.err" &
	usb_pid=$!
	trap 'stop_usb; cleanup' EXIT
	usb_args=(-device qemu-xhci,id=xhci,p2=14,p3=1)
	for i in "${!usb_cams[@]}"; do
		for _ in $(seq 100); do
			[ -S "$job/usb/cam$i.sock" ] && break
			sleep 0.05
		done
		[ -S "$job/usb/cam$i.sock" ] || {
			cat "$job/usb/usbcam.err" >&2
			die "the camera emulator did not start"
		}
		# An isochronous camera's usb-redir says when it drops
		# packets (debug level 4: its buffer overflowed because the
		# guest fell behind, on a loaded host) in qemu.log, where the
		# guest's checks read it ($USBCAM_QEMU_LOG).
		dbg=
		[ -z "${usb_iso[$i]:-}" ] || dbg=,debug=4
		usb_args+=(-chardev "socket,id=cam$i,path=$job/usb/cam$i.sock"
			-device "usb-redir,chardev=cam$i,bus=xhci.0$dbg")
	done
fi

start=$(date +%s.%N)
set +e
timeout --kill-after=10 "$timeout_s" qemu-system-x86_64 \
	-nodefaults -no-user-config -machine pc "${accel[@]}" \
	-m 1024 -smp 1 -display none -vga none -monitor none -no-reboot \
	-serial "file:$job/console.log" \
	-kernel "$vmlinux" -initrd "$initrd" \
	-append "console=ttyS0 quiet loglevel=3 panic=-1 rdinit=/init" \
	-fsdev local,id=fsroot,path=/,security_model=none,readonly=on,multidevs=remap \
	-device virtio-9p-pci,fsdev=fsroot,mount_tag=hostroot \
	-fsdev "local,id=fsjob,path=$job,security_model=none" \
	-device virtio-9p-pci,fsdev=fsjob,mount_tag=job \
	${usb_args[@]+"${usb_args[@]}"} ${usb_smbios[@]+"${usb_smbios[@]}"} \
	</dev/null >"$job/qemu.log" 2>&1
qrc=$?
set -e
end=$(date +%s.%N)
stop_usb

[ -f "$job/stdout" ] && cat "$job/stdout"
[ -f "$job/stderr" ] && cat "$job/stderr" >&2
elapsed=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
if [ -s "$job/rc" ]; then
	rc=$(cat "$job/rc")
	echo "$me: guest exit code $rc, VM wall time ${elapsed}s" >&2
	exit "$rc"
fi
if [ $qrc = 124 ] || [ $qrc = 137 ]; then
	echo "$me: timeout after ${timeout_s}s" >&2
	rc=124
else
	echo "$me: the VM produced no result (qemu exit $qrc)" >&2
	rc=125
fi
echo "--- qemu:" >&2
tail -n 20 "$job/qemu.log" >&2 || true
echo "--- guest console:" >&2
tail -n 40 "$job/console.log" >&2 || true
exit $rc
