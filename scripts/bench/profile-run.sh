#!/usr/bin/env bash
# The part of bench-profile.sh that runs where the RDMA device is. Args: TOOL ROUNDS OUTDIR.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# shellcheck source=../common.sh
source "$ROOT/scripts/common.sh"
tool="$1" rounds="$2" out="$3"
dev="${RDMA_DEVICE:?}" ip="${RDMA_IP:?}" gid="${RDMA_GID_INDEX:-1}"
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
		timeout 600 taskset -c 0 "/usr/bin/$tool" -d "$dev" -x "$gid" -p "$port" -s 2 -n 300000 > "$out/server.out" 2>&1 &
		spid=$!
		wait_tcp_listening "$port" 1800 || die "the C server did not listen"
		if [[ $impl == C ]]; then
			# Line-buffered, so that the header shows when the loop starts.
			client=(stdbuf -oL "/usr/bin/$tool")
		else
			client=(env "RDMA_PERFTEST_JAVA_OPTS=-XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit"
				"$ROOT/bin/rdma-perftest" "$tool")
		fi
		timeout 600 taskset -c 1 "${client[@]}" -d "$dev" -x "$gid" -p "$port" -s 2 -n 300000 "$ip" > "$out/client.out" 2>&1 &
		cpid=$!
		for _ in $(seq 1 12000); do grep -q "#bytes" "$out/client.out" && break; sleep 0.05; done
		sleep 1
		perf record -q -C 1 -e cpu-clock -F 5000 -o "$out/$impl$r.data" -- sleep 3 > /dev/null 2>&1
		wait "$cpid" || true
		wait "$spid" || true
		echo "profile: $tool round $r client $impl: typical p99 p99.9 avg (usec): $(awk '/#bytes/ {getline; print $5, $8, $9, $6; exit}' "$out/client.out")"
		perf report -q -i "$out/$impl$r.data" --sort comm,dso --stdio 2> /dev/null | awk 'NF && $1+0 >= 0.1' | sed "s/^/profile: $impl$r by library: /"
		perf report -q -i "$out/$impl$r.data" --sort sym --stdio 2> /dev/null | awk 'NF' | head -n 12 | sed "s/^/profile: $impl$r symbol: /"
		if [[ $impl == Java ]]; then
			perf report -q -i "$out/$impl$r.data" --comm java --sort dso,sym --stdio 2> /dev/null | grep -F '[JIT]' \
				| head -n 15 | sed "s/^/profile: $impl$r compiled code: /"
		fi
	done
done
