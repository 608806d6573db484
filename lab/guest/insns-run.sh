#!/usr/bin/env bash
# The part of lab/experiments/insns.sh that runs in the Soft-RoCE VM. Args: TOOL ROUNDS OUTDIR MARKER.
# Each round: a C server on CPU 0; a C, then a Java client on CPU 1 (-s 2 -n 400000); 2 s after the client's
# header the start marker runs (on CPU 0), 4 s later the end marker, and the plugin writes what CPU 1 executed
# in between. Then the client's memory map (and, for Java, its compiled methods with their tiers) are saved.
# Every thread's scheduler statistics are read just after the start marker and just before the end one, so the
# report can say which threads (the client's, the JVM's others, the kernel's) used the client's CPU meanwhile.
# IMPLS (default "C Java") may add JavaAlt: a Java client with JAVA_ALT_OPTS (JVM options) as well.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# shellcheck source=../../scripts/common.sh
source "$ROOT/scripts/common.sh"
# shellcheck source=server-client.sh
source "$ROOT/lab/guest/server-client.sh"
tool="$1" rounds="$2" out="$3" mark="$4" impls="${5:-C Java}" java_alt_opts="${6:-}"

# Thread id, time on a CPU (ns), time slices, the CPU it last ran on and its name, for every thread; bash builtins
# only (a process start per thread would take seconds of the emulated CPU 0).
thread_times() {
	local d comm run wait slices stat
	for d in /proc/[0-9]*/task/[0-9]*; do
		{ read -r run wait slices < "$d/schedstat" && read -r comm < "$d/comm" && read -r stat < "$d/stat"; } \
			2> /dev/null || continue
		stat="${stat##*) }"
		# shellcheck disable=SC2086 # split into stat's fields; the 39th (the CPU) is the 37th after the name
		set -- $stat
		echo "${d##*/} $run $slices ${37} ${comm// /_}"
	done
}
find_jdk25
# This script (and so the scheduler snapshots' reads of /proc) stays on CPU 0: on CPU 1 its instructions would
# count as the client's (seen with ib_send_lat, whose server keeps CPU 0 busy too). Clients ask for CPU 1.
taskset -pc 0 $$ > /dev/null
port=25000
# Kernel addresses for the report's kernel functions (randomized at every boot).
cat /proc/kallsyms > "$out/kallsyms.txt"
for ((r = 1; r <= rounds; r++)); do
	for impl in $impls; do
		port=$((port + 1))
		run="$impl$r"
		extra=""
		[[ $impl == JavaAlt ]] && extra="$java_alt_opts"
		start_server_and_client "$tool" "${impl%Alt}" "$port" 400000 "$out/client-$run.out" "$out/server.out" "$extra"
		sleep 2
		taskset -c 0 "$mark" start
		thread_times > "$out/threads-start-$run.txt"
		sleep 3
		thread_times > "$out/threads-end-$run.txt"
		sleep 1
		taskset -c 0 "$mark" end
		pid=$(ps -eo pid,comm | awk -v t="$tool" '$2 == "java" || $2 == t {p = $1} END {print p}')
		cat "/proc/$pid/maps" > "$out/maps-$run.txt"
		if [[ $impl == Java* ]]; then
			taskset -c 0 "$JAVA_HOME/bin/jcmd" "$pid" Compiler.codelist > "$out/codelist-$run.txt" 2>&1 || true
		fi
		sleep 1
		cp "$out/counts.txt" "$out/counts-$run.txt"
		wait "$CLIENT_PID" || true
		wait "$SERVER_PID" || true
		[[ $impl == Java* ]] && cp "/tmp/perf-$pid.map" "$out/perfmap-$run.txt" 2> /dev/null || true
		echo "insns: $tool round $r client $impl: typical p99 p99.9 avg (usec): $(awk '/#bytes/ {getline; print $5, $8, $9, $6; exit}' "$out/client-$run.out")"
		python3 "$ROOT/lab/reports/insns-report.py" "$out" "$run" | sed "s/^/insns: $run /"
	done
done
