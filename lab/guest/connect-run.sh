#!/usr/bin/env bash
# The part of lab/experiments/connect.sh that runs where the RDMA device is. Args: ROUNDS ITERATIONS.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# shellcheck source=../../scripts/common.sh
source "$ROOT/scripts/common.sh"
rounds="$1"
iters="$2"
dev="${RDMA_DEVICE:?}"
ip="${RDMA_IP:?}"
gid="${RDMA_GID_INDEX:-1}"
ex="$ROOT/bin/rdma-example"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
# Every CPU of the VM (the VM runner keeps commands on CPU 0); each JVM then on one CPU: under multi-threaded
# TCG a JVM whose threads move between emulated CPUs crashed in JIT-compiled code.
cpu0=() cpu1=()
if command -v taskset > /dev/null && [[ $(nproc --all) -gt 1 ]]; then
	taskset -pc "0-$(($(nproc --all) - 1))" $$ > /dev/null
	cpu0=(taskset -c 0) cpu1=(taskset -c 1)
fi

echo "== connection API vs raw verbs: $rounds rounds, one JVM"
"${cpu1[@]}" "$ex" overhead "$ip" --rounds "$rounds" --mib 64 --reads "$iters" --warmup 20000

port=21000
c_lat() { # -> t_typical of one C ib_send_lat pair
	port=$((port + 1))
	timeout 300 "${cpu0[@]}" ib_send_lat -d "$dev" -x "$gid" -p "$port" -s 2 -n "$iters" > "$out/s" 2>&1 &
	local spid=$!
	wait_tcp_listening "$port" 300 || { kill "$spid" 2> /dev/null; return 0; }
	timeout 300 "${cpu1[@]}" ib_send_lat -d "$dev" -x "$gid" -p "$port" -s 2 -n "$iters" "$ip" > "$out/c" 2>&1 || true
	wait "$spid" 2> /dev/null || true
	awk '/#bytes/ {getline; print $5; exit}' "$out/c"
}
# C perftest's TSC calibration fails now and then under emulation (inf, or no row): repeat such a run (twice at most).
c_lat_usable() {
	local v attempt
	for attempt in 1 2 3; do
		v="$(c_lat)"
		if [[ -n "$v" && "$v" != *inf* && "$v" != *nan* ]]; then
			echo "$v"
			return 0
		fi
	done
	echo ""
}
j_lat() { # -> typical (p50) one-way latency of one rdma-example pingpong pair
	port=$((port + 1))
	timeout 300 "${cpu0[@]}" "$ex" pingpong server "$ip:$port" --size 2 > "$out/s" 2>&1 &
	local spid=$! i
	for ((i = 0; i < 300; i++)); do
		grep -q "server on" "$out/s" 2> /dev/null && break
		sleep 0.1
	done
	timeout 300 "${cpu1[@]}" "$ex" pingpong client "$ip:$port" --size 2 --loop "$iters" --warmup 20000 > "$out/c" 2>&1 || cat "$out/c" >&2
	wait "$spid" 2> /dev/null || true
	sed -n 's/.*typical (p50) \([0-9.]*\).*/\1/p' "$out/c"
}

echo "== ping-pong, 2 bytes, $iters iterations: C ib_send_lat (A) and rdma-example pingpong (B), one-way typical us"
declare -a a b
for ((i = 0; i <= rounds; i++)); do
	a[i]="$(c_lat_usable)"
	echo "A C ib_send_lat            ${a[i]:-none}"
	if ((i < rounds)); then
		b[i]="$(j_lat)"
		echo "B connection API pingpong  ${b[i]:-none}"
	fi
done
ratios="$(for ((i = 0; i < rounds; i++)); do awk -v b="${b[i]}" -v l="${a[i]}" -v r="${a[i+1]}" 'BEGIN {if (l+r > 0 && b > 0) printf "%.4f\n", b/((l+r)/2)}'; done)"
noise="$(for ((i = 1; i < rounds; i++)); do awk -v b="${a[i]}" -v l="${a[i-1]}" -v r="${a[i+1]}" 'BEGIN {if (l+r > 0) printf "%.4f\n", b/((l+r)/2)}'; done)"
med() { sort -g | awk '{v[NR]=$1} END {if (NR==0) {print "nan"; exit} if (NR%2) print v[(NR+1)/2]; else printf "%.4f\n", (v[NR/2]+v[NR/2+1])/2}'; }
echo "pingpong/ib_send_lat typical, median of $rounds: $(med <<< "$ratios") (C/C noise: $(med <<< "$noise"))"
