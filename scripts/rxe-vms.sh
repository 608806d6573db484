#!/usr/bin/env bash
# Runs one command on the first of N throwaway Soft-RoCE VMs (N = 2 or 3) that form a small cluster, for
# tests and tools that need more than one host. Each guest is booted as in scripts/rxe-vm.sh (this machine's
# root read-only; the current directory, ~/.m2 and any --share DIR writable at the same path) and has:
#   - the name rxe-hostK (K = 1..N), and rxe-hostK6 for its IPv6 address, in /etc/hosts of every guest;
#   - eth0 on one Ethernet segment shared by the N guests and nothing else (datagram links over unix sockets
#     in a private directory; no route, no NIC to the outside), with 10.77.0.K/24 and fd77::K/64;
#   - rxe0 on eth0 with its own GIDs (the IPv4 GID's index differs between neighbouring guests: choose it per
#     host, e.g. from RDMA_GID_INDEX, which is exported in the command and in every ssh session);
#   - sshd: `ssh rxe-hostJ COMMAND` works from any guest without prompts (keys made at boot, for this run).
# The command runs on rxe-host1 once every guest answers over ssh; its output streams to stdout and its exit
# status becomes this script's. For function, never speed: RDMA between the guests is emulated and lossy
# (milliseconds per round trip, tens at the tail; retransmissions); use few iterations and generous timeouts.
#
# usage: scripts/rxe-vms.sh [--vms N] [--timeout SEC] [--mem MB] [--smp N] [--share DIR]... [--] COMMAND [ARG...]
#   --vms N      number of guests, 2 (default) or 3
#   --timeout    for the whole run, boots included (default 900 s); on expiry every console's tail is printed
#   --mem        MiB per guest (default: 3072 for rxe-host1, which runs the command, 2048 for the others)
#   --smp        vCPUs per guest (default 1: two guests on a two-core machine get one core each)
# Environment: RXE_VM_TCG_THREAD=single|multi (default single), RXE_VM_KERNEL_ARGS (as for rxe-vm.sh).
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=common.sh
source "$SCRIPT_DIR/common.sh"
# shellcheck source=vm/lib.sh
source "$SCRIPT_DIR/vm/lib.sh"

vms=2
timeout_s=900
mem_mb=""
smp=1
shares=()
while [[ $# -gt 0 ]]; do
	case "$1" in
	--vms) vms="$2"; shift 2 ;;
	--timeout) timeout_s="$2"; shift 2 ;;
	--mem) mem_mb="$2"; shift 2 ;;
	--smp) smp="$2"; shift 2 ;;
	--share) shares+=("$(cd "$2" && pwd)"); shift 2 ;;
	--) shift; break ;;
	-h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) die "unknown option $1 (scripts/rxe-vms.sh --help)" ;;
	*) break ;;
	esac
done
[[ "$vms" == 2 || "$vms" == 3 ]] || die "--vms must be 2 or 3, not $vms"
[[ "$timeout_s" =~ ^[1-9][0-9]*$ ]] || die "--timeout must be a number of seconds, not $timeout_s"
[[ $# -gt 0 ]] || die "no command given (usage: scripts/rxe-vms.sh [options] -- COMMAND)"

vm_setup rxe-vms "${MULTIHOST_PACKAGES[@]}"
vm_shares "${shares[@]}"
vm_write_hosts "$vms"
echo "rxe-vms: booting $vms guests, kernel $VM_KVER (qemu TCG, ${smp} vCPU each), timeout ${timeout_s}s" >&2
for ((k = vms; k >= 2; k--)); do
	vm_boot "$k" "$vms" multi "${mem_mb:-2048}" "$smp"
done
vm_boot 1 "$vms" multi "${mem_mb:-3072}" "$smp" "$@"
status=0
vm_await "$timeout_s" || status=$?
exit "$status"
