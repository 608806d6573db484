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
# command line, e.g. tsc=reliable), RXE_VM_PLUGIN (a TCG plugin and its arguments, for qemu's -plugin),
# RXE_VM_PIN_VCPUS (host CPUs for the vCPU threads in order, e.g. "0 1"; the benchmarks set it).
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=common.sh
source "$SCRIPT_DIR/common.sh"
# shellcheck source=vm/lib.sh
source "$SCRIPT_DIR/vm/lib.sh"

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

vm_setup rxe-vm
vm_shares "${shares[@]}"
echo "rxe-vm: booting kernel $VM_KVER (qemu TCG, ${smp} vCPU, ${mem_mb} MiB), timeout ${timeout_s}s" >&2
vm_boot 1 1 single "$mem_mb" "$smp" "$@"
status=0
vm_await "$timeout_s" || status=$?
exit "$status"
