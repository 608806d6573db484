#!/usr/bin/env bash
# Runs a command where a real RDMA device is available, exporting RDMA_DEVICE, RDMA_GID_INDEX, RDMA_IP
# and RDMA_NETDEV for it:
#   - an RDMA device already present (ConnectX, or rxe set up by hand): natively (set RDMA_DEVICE to pick one);
#   - a kernel with rdma_rxe: Soft-RoCE natively, via scripts/softroce-up.sh;
#   - otherwise: inside the throwaway Soft-RoCE VM (scripts/rxe-vm.sh).
# RDMAFFM_RDMA_MODE=native|vm forces a mode.
#
# usage: scripts/rdma-env.sh [--timeout SEC] -- COMMAND [ARG...]
set -euo pipefail
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=common.sh
source "$SCRIPT_DIR/common.sh"

timeout_s=1500
while [[ $# -gt 0 ]]; do
	case "$1" in
	--timeout) timeout_s="$2"; shift 2 ;;
	--) shift; break ;;
	*) break ;;
	esac
done
[[ $# -gt 0 ]] || die "no command given"

mode="${RDMAFFM_RDMA_MODE:-}"
if [[ -z "$mode" ]]; then
	if ls /sys/class/infiniband/ 2>/dev/null | grep -q .; then
		mode=native
	elif [[ $(id -u) -eq 0 ]] && modprobe -n rdma_rxe 2>/dev/null && modprobe rdma_rxe 2>/dev/null; then
		mode=native
	else
		mode=vm
	fi
fi

case "$mode" in
native)
	if [[ -z "${RDMA_DEVICE:-}" ]]; then
		eval "$("$SCRIPT_DIR/softroce-up.sh" --export)"
	fi
	echo "rdma-env: running on $RDMA_DEVICE natively" >&2
	exec timeout "$timeout_s" "$@"
	;;
vm)
	echo "rdma-env: this kernel has no usable RDMA device; running in a Soft-RoCE VM" >&2
	exec "$SCRIPT_DIR/rxe-vm.sh" --timeout "$timeout_s" -- "$@"
	;;
*) die "RDMAFFM_RDMA_MODE must be native or vm, not $mode" ;;
esac
