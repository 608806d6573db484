#!/usr/bin/env bash
# Brings up Soft-RoCE (rdma_rxe) on a Linux host whose kernel has it. Idempotent: reuses an rxe device
# already bound to the interface. Prints the device, its netdev, IPv4 address and RoCE v2 GID index.
#
# usage (as root): scripts/softroce-up.sh [--netdev IF] [--name rxe0] [--export]
#   --netdev IF  interface to bind (default: the interface of the default route, else the first UP one
#                with an IPv4 address)
#   --export     print shell assignments (RDMA_DEVICE=... RDMA_GID_INDEX=...) instead of a report
set -euo pipefail
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=common.sh
source "$SCRIPT_DIR/common.sh"

netdev=""
name=rxe0
export_vars=0
while [[ $# -gt 0 ]]; do
	case "$1" in
	--netdev) netdev="$2"; shift 2 ;;
	--name) name="$2"; shift 2 ;;
	--export) export_vars=1; shift ;;
	-h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown option $1" ;;
	esac
done

ensure_packages "${RDMA_PACKAGES[@]}"
if [[ ! -d /sys/module/rdma_rxe ]]; then
	[[ $(id -u) -eq 0 ]] || die "Soft-RoCE needs root: run $0 as root"
	modprobe rdma_rxe 2>/dev/null || die "this kernel has no rdma_rxe module; use scripts/rxe-vm.sh (Soft-RoCE in a VM)"
fi
if [[ -z "$netdev" ]]; then
	netdev="$(ip -o route show default 2>/dev/null | awk '{for (i=1;i<NF;i++) if ($i=="dev") {print $(i+1); exit}}')"
	[[ -n "$netdev" ]] || netdev="$(ip -o -4 addr show up scope global | awk '{print $2; exit}')"
fi
[[ -n "$netdev" && -d "/sys/class/net/$netdev" ]] || die "no usable network interface (give --netdev IF)"

existing=""
for d in /sys/class/infiniband/*; do
	[[ -e "$d" ]] || continue
	if [[ -e "$d/ports/1/gid_attrs/ndevs/0" ]] && [[ "$(cat "$d/ports/1/gid_attrs/ndevs/0" 2>/dev/null)" == "$netdev" ]]; then
		existing="$(basename "$d")"
	fi
done
if [[ -n "$existing" ]]; then
	name="$existing"
else
	[[ $(id -u) -eq 0 ]] || die "Soft-RoCE needs root: run $0 as root"
	rdma link add "$name" type rxe netdev "$netdev"
fi

ipv4="$(ip -o -4 addr show dev "$netdev" | awk '{split($4,a,"/"); print a[1]; exit}')"
gid_index=""
for _ in $(seq 1 50); do
	for g in /sys/class/infiniband/"$name"/ports/1/gids/*; do
		idx="${g##*/}"
		val="$(cat "$g" 2>/dev/null || true)"
		type="$(cat "/sys/class/infiniband/$name/ports/1/gid_attrs/types/$idx" 2>/dev/null || true)"
		if [[ "$val" == 0000:0000:0000:0000:0000:ffff:* && "$type" == "RoCE v2" ]]; then
			gid_index="$idx"
			break 2
		fi
	done
	sleep 0.1
done
[[ -n "$gid_index" ]] || die "$name has no RoCE v2 IPv4 GID (does $netdev have an IPv4 address?)"

if [[ $export_vars -eq 1 ]]; then
	echo "export RDMA_DEVICE=$name RDMA_GID_INDEX=$gid_index RDMA_IP=$ipv4 RDMA_NETDEV=$netdev"
else
	echo "Soft-RoCE device $name on $netdev ($ipv4): RoCE v2 GID index $gid_index (perftest: -d $name -x $gid_index)"
fi
