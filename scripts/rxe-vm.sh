#!/usr/bin/env bash
# Runs one command inside a throwaway qemu VM whose kernel has Soft-RoCE (rdma_rxe), for hosts whose own
# kernel has no RDMA support. The guest boots Debian's linux-image-amd64 and mounts this machine's root
# file system read-only over virtio-9p, so it sees the same JDK, rdma-core, perftest and build output.
# The current directory (and ~/.m2, and any --share DIR) is mounted writable at the same path.
# In the guest: rxe0 on veth0 (10.77.0.1/24), GID index 1 = ::ffff:10.77.0.1 (RoCE v2).
# The command's output streams to stdout; its exit status becomes this script's exit status.
#
# usage: scripts/rxe-vm.sh [--timeout SEC] [--mem MB] [--smp N] [--share DIR]... [--] COMMAND [ARG...]
# Environment: RXE_VM_TCG_THREAD=single|multi (default single), RXE_VM_KERNEL_ARGS (appended to the guest kernel
# command line, e.g. tsc=reliable).
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=common.sh
source "$SCRIPT_DIR/common.sh"

timeout_s=1200
mem_mb=4096
smp=2
shares=()
while [[ $# -gt 0 ]]; do
	case "$1" in
	--timeout) timeout_s="$2"; shift 2 ;;
	--mem) mem_mb="$2"; shift 2 ;;
	--smp) smp="$2"; shift 2 ;;
	--share) shares+=("$(cd "$2" && pwd)"); shift 2 ;;
	--) shift; break ;;
	-h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) break ;;
	esac
done
[[ $# -gt 0 ]] || die "no command given (usage: scripts/rxe-vm.sh [options] -- COMMAND)"

require_vm_packages

kver="$(newest_kernel_version)" || die "no Debian kernel in /boot: install linux-image-amd64"
kernel="/boot/vmlinuz-$kver"
[[ -r "$kernel" ]] || die "cannot read $kernel (run as root, or make it readable)"

cache_dir="${XDG_CACHE_HOME:-$HOME/.cache}/rdma-ffm/vm/$kver"
initrd="$cache_dir/initramfs.cpio.gz"
if [[ ! -s "$initrd" || "$initrd" -ot "$SCRIPT_DIR/vm/initramfs-init" ]]; then
	build_initramfs "$kver" "$cache_dir" "$SCRIPT_DIR/vm/initramfs-init"
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/rxe-vm.XXXXXX")"
out="$work/out"
mkdir -p "$out"
qemu_pid=""
cleanup() {
	[[ -n "$qemu_pid" ]] && kill "$qemu_pid" 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT

# Writable shares: the working directory, the Maven repository (so Maven runs offline in the guest),
# and whatever the caller asked for. Each is mounted at the same path in the guest.
cwd="$(pwd)"
all_shares=("$cwd")
[[ -d "$HOME/.m2" ]] && all_shares+=("$HOME/.m2")
all_shares+=("${shares[@]}")

qemu_args=(
	-machine q35 -accel "tcg,thread=${RXE_VM_TCG_THREAD:-single}" -smp "$smp" -m "$mem_mb"
	-display none -monitor none -no-reboot
	-serial "file:$work/console.log"
	-kernel "$kernel" -initrd "$initrd"
	-append "console=ttyS0 quiet loglevel=3 panic=-1 ${RXE_VM_KERNEL_ARGS:-}"
	-fsdev "local,id=rootfs,path=/,security_model=none,readonly=on,multidevs=remap"
	-device "virtio-9p-pci,fsdev=rootfs,mount_tag=hostroot"
	-fsdev "local,id=outfs,path=$out,security_model=none,multidevs=remap"
	-device "virtio-9p-pci,fsdev=outfs,mount_tag=rdmaffm_out"
)
{
	echo "GUEST_CWD=$(printf %q "$cwd")"
	echo "GUEST_JAVA_HOME=$(printf %q "${JAVA_HOME:-$JDK25}")"
	echo "GUEST_PATH=$(printf %q "$PATH")"
	echo "GUEST_HOME=$(printf %q "$HOME")"
	echo "GUEST_CI=$(printf %q "${CI:-}")"
	echo "GUEST_SHARES=("
	i=0
	for s in "${all_shares[@]}"; do
		echo "  $(printf %q "share$i:$s")"
		i=$((i + 1))
	done
	echo ")"
} > "$out/guest.env"
i=0
for s in "${all_shares[@]}"; do
	qemu_args+=(-fsdev "local,id=share$i,path=$s,security_model=none,multidevs=remap"
		-device "virtio-9p-pci,fsdev=share$i,mount_tag=share$i")
	i=$((i + 1))
done
printf '%q ' "$@" > "$out/command"
echo >> "$out/command"
cp "$SCRIPT_DIR/vm/guest-init.sh" "$out/guest-init.sh"
: > "$out/output.log"

echo "rxe-vm: booting kernel $kver (qemu TCG, ${smp} vCPU, ${mem_mb} MiB), timeout ${timeout_s}s" >&2
# qemu's stdin must not be the (possibly closed) caller's stdin.
qemu-system-x86_64 "${qemu_args[@]}" < /dev/null > "$work/qemu.log" 2>&1 &
qemu_pid=$!
tail -n +1 -f --pid="$qemu_pid" "$out/output.log" &
tail_pid=$!

deadline=$((SECONDS + timeout_s))
while kill -0 "$qemu_pid" 2>/dev/null; do
	if ((SECONDS >= deadline)); then
		kill "$qemu_pid" 2>/dev/null || true
		wait "$qemu_pid" 2>/dev/null || true
		wait "$tail_pid" 2>/dev/null || true
		echo "rxe-vm: the guest did not finish within ${timeout_s}s; last console lines:" >&2
		tail -n 30 "$work/console.log" >&2 || true
		qemu_pid=""
		exit 124
	fi
	sleep 1
done
wait "$qemu_pid" 2>/dev/null || true
qemu_pid=""
wait "$tail_pid" 2>/dev/null || true

if [[ ! -s "$out/exit-status" ]]; then
	echo "rxe-vm: the guest ended without reporting an exit status; qemu said:" >&2
	tail -n 10 "$work/qemu.log" >&2 || true
	echo "rxe-vm: last console lines:" >&2
	tail -n 40 "$work/console.log" >&2 || true
	exit 125
fi
status="$(cat "$out/exit-status")"
exit "$status"
