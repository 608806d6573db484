#!/usr/bin/env bash
# The part of bench-insns.sh that runs in the Soft-RoCE VM. Args: TOOL ROUNDS OUTDIR MARKER.
# Each round: a C server on CPU 0; a C, then a Java client on CPU 1 (-s 2 -n 400000); 2 s after the client's
# header the start marker runs (on CPU 0), 4 s later the end marker, and the plugin writes what CPU 1 executed
# in between. Then the client's memory map (and, for Java, its compiled methods with their tiers) are saved.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# shellcheck source=../common.sh
source "$ROOT/scripts/common.sh"
# shellcheck source=server-client.sh
source "$ROOT/scripts/bench/server-client.sh"
tool="$1" rounds="$2" out="$3" mark="$4"
find_jdk25
taskset -pc 0-1 $$ > /dev/null
port=25000
for ((r = 1; r <= rounds; r++)); do
	for impl in C Java; do
		port=$((port + 1))
		run="$impl$r"
		start_server_and_client "$tool" "$impl" "$port" 400000 "$out/client-$run.out" "$out/server.out"
		sleep 2
		taskset -c 0 "$mark" start
		sleep 4
		taskset -c 0 "$mark" end
		pid=$(ps -eo pid,comm | awk -v t="$tool" '$2 == "java" || $2 == t {p = $1} END {print p}')
		cat "/proc/$pid/maps" > "$out/maps-$run.txt"
		if [[ $impl == Java ]]; then
			taskset -c 0 "$JAVA_HOME/bin/jcmd" "$pid" Compiler.codelist > "$out/codelist-$run.txt" 2>&1 || true
		fi
		sleep 1
		cp "$out/counts.txt" "$out/counts-$run.txt"
		wait "$CLIENT_PID" || true
		wait "$SERVER_PID" || true
		[[ $impl == Java ]] && cp "/tmp/perf-$pid.map" "$out/perfmap-$run.txt" 2> /dev/null || true
		echo "insns: $tool round $r client $impl: typical p99 p99.9 avg (usec): $(awk '/#bytes/ {getline; print $5, $8, $9, $6; exit}' "$out/client-$run.out")"
		python3 "$ROOT/scripts/bench/insns-report.py" "$out" "$run" | sed "s/^/insns: $run /"
	done
done
