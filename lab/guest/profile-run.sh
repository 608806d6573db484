#!/usr/bin/env bash
# The part of lab/experiments/profile.sh that runs where the RDMA device is. Args: TOOL ROUNDS OUTDIR.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# shellcheck source=../../scripts/common.sh
source "$ROOT/scripts/common.sh"
# shellcheck source=server-client.sh
source "$ROOT/lab/guest/server-client.sh"
tool="$1" rounds="$2" out="$3"
mkdir -p "$out"
command -v perf > /dev/null || die "perf is not installed (linux-perf)"
[[ $(nproc --all) -gt 1 ]] || die "needs two CPUs: the server on one, the profiled client on the other"
taskset -pc "0-$(($(nproc --all) - 1))" $$ > /dev/null
# Kernel symbols and system-wide sampling (root in the VM or on the host).
echo 0 > /proc/sys/kernel/kptr_restrict || true
echo -1 > /proc/sys/kernel/perf_event_paranoid || true
port=24000
for ((r = 1; r <= rounds; r++)); do
	for impl in C Java; do
		port=$((port + 1))
		start_server_and_client "$tool" "$impl" "$port" 300000 "$out/client.out" "$out/server.out"
		sleep 1
		perf record -q -C 1 -e cpu-clock -F 5000 -o "$out/$impl$r.data" -- sleep 3 > /dev/null 2>&1
		wait "$CLIENT_PID" || true
		wait "$SERVER_PID" || true
		echo "profile: $tool round $r client $impl: typical p99 p99.9 avg (usec): $(awk '/#bytes/ {getline; print $5, $8, $9, $6; exit}' "$out/client.out")"
		perf report -q -i "$out/$impl$r.data" --sort comm,dso --stdio 2> /dev/null | awk 'NF && $1+0 >= 0.1' | sed "s/^/profile: $impl$r by library: /"
		perf report -q -i "$out/$impl$r.data" --sort sym --stdio 2> /dev/null | awk 'NF' | head -n 12 | sed "s/^/profile: $impl$r symbol: /"
		if [[ $impl == Java ]]; then
			perf report -q -i "$out/$impl$r.data" --comm java --sort dso,sym --stdio 2> /dev/null | grep -F '[JIT]' \
				| head -n 15 | sed "s/^/profile: $impl$r compiled code: /"
		fi
	done
done
