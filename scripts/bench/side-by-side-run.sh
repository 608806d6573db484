#!/usr/bin/env bash
# The part of bench-side-by-side.sh that runs where the RDMA device is. Args: ROUNDS OUTDIR [TOOLS] [ITERATIONS].
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# shellcheck source=../common.sh
source "$ROOT/scripts/common.sh"
# Both implementations get every CPU of the VM (the VM runner keeps commands on CPU 0 by default).
cpu_pin=()
if command -v taskset > /dev/null && [[ $(nproc --all) -gt 1 ]]; then
	taskset -pc "0-$(($(nproc --all) - 1))" $$ > /dev/null
	cpu_pin=(yes)
fi
rounds="$1"
outdir="$2"
BENCH_ONLY="${3:-}"
dev="${RDMA_DEVICE:?}"
ip="${RDMA_IP:?}"
gid="${RDMA_GID_INDEX:-1}"
JAVA="$ROOT/bin/rdma-perftest"
port=20000


# run_pair IMPL PORT TOOL ARGS... -> prints the client's result row (runs in a subshell)
run_pair() {
	local impl="$1" port="$2" tool="$3"
	shift 3
	local srv cli
	if [[ "$impl" == C ]]; then
		srv=("/usr/bin/$tool")
		cli=("/usr/bin/$tool")
	else
		srv=("$JAVA" "$tool")
		cli=("$JAVA" "$tool")
	fi
	# One CPU per process: server on CPU 0, client on CPU 1. Under multi-threaded TCG a JVM whose threads
	# move between emulated CPUs crashed in JIT-compiled code (SIGILL/SIGSEGV); C gets the same placement.
	if [[ ${#cpu_pin[@]} -gt 0 ]]; then
		srv=(taskset -c 0 "${srv[@]}")
		cli=(taskset -c 1 "${cli[@]}")
	fi
	# Neither side may hang the benchmark: C perftest waits forever for a peer that died.
	timeout 600 "${srv[@]}" -d "$dev" -x "$gid" -p "$port" "$@" > "$outdir/server.out" 2>&1 &
	local spid=$!
	wait_tcp_listening "$port" 1200 || { kill "$spid" 2> /dev/null; return 0; }
	timeout 600 "${cli[@]}" -d "$dev" -x "$gid" -p "$port" "$@" "$ip" > "$outdir/client.out" 2>&1 || cat "$outdir/client.out" >&2
	sleep 2
	kill "$spid" 2> /dev/null || true
	wait "$spid" 2> /dev/null || true
	# The client's data row: the line after the table header.
	awk '/#bytes/ {getline; print; exit}' "$outdir/client.out"
}

# measure IMPL TOOL ARGS... -> a usable row. C perftest's TSC calibration fails now and then under emulation
# ("Can't produce a report", inf): such a run, or any run without a row, is repeated (at most twice).
measure() {
	local impl="$1" row attempt
	shift
	for attempt in 1 2 3; do
		port=$((port + 1))
		row="$(run_pair "$impl" "$port" "$@")"
		if [[ -n "$row" && "$row" != *inf* && "$row" != *nan* ]]; then
			echo "$row"
			return 0
		fi
		echo "bench: $impl $* attempt $attempt gave no usable row; repeating" >&2
	done
	echo ""
}

# metric extraction from a row: lat -> "typical p99", bw -> "bw_avg msgrate"
metrics() {
	local kind="$1" row="$2"
	if [[ "$kind" == lat ]]; then
		awk '{print $5, $8}' <<< "$row"
	else
		awk '{print $4, $5}' <<< "$row"
	fi
}

median() {
	sort -g | awk '{a[NR]=$1} END {if (NR==0) {print "nan"; exit} if (NR%2) print a[(NR+1)/2]; else printf "%.4f\n", (a[NR/2]+a[NR/2+1])/2}'
}

table="$outdir/side-by-side.md"
{
	echo "| test | metric | Java/C (median of $rounds) | C/C noise (same boot) |"
	echo "|---|---|---|---|"
} > "$table"

bench() {
	local kind="$1" tool="$2"
	shift 2
	# BENCH_ONLY="ib_send_lat ib_write_bw" runs a subset (each test costs minutes under emulation).
	if [[ -n "${BENCH_ONLY:-}" && " $BENCH_ONLY " != *" $tool "* ]]; then
		return 0
	fi
	local label="$tool $*"
	declare -a a1 a2 b1 b2
	local i
	# A B A B ... A
	for ((i = 0; i <= rounds; i++)); do
		read -r x y < <(metrics "$kind" "$(measure C "$tool" "$@")")
		a1[i]="$x"; a2[i]="$y"
		echo "bench: $label C: ${x:-none} ${y:-none}" >&2
		if ((i < rounds)); then
			read -r x y < <(metrics "$kind" "$(measure J "$tool" "$@")")
			b1[i]="$x"; b2[i]="$y"
			echo "bench: $label Java: ${x:-none} ${y:-none}" >&2
		fi
	done
	local m1 m2 n1 n2
	m1="$(for ((i = 0; i < rounds; i++)); do awk -v b="${b1[i]}" -v l="${a1[i]}" -v r="${a1[i+1]}" 'BEGIN {if (l+r > 0) printf "%.4f\n", b/((l+r)/2)}'; done | median)"
	m2="$(for ((i = 0; i < rounds; i++)); do awk -v b="${b2[i]}" -v l="${a2[i]}" -v r="${a2[i+1]}" 'BEGIN {if (l+r > 0) printf "%.4f\n", b/((l+r)/2)}'; done | median)"
	n1="$(for ((i = 1; i < rounds; i++)); do awk -v b="${a1[i]}" -v l="${a1[i-1]}" -v r="${a1[i+1]}" 'BEGIN {if (l+r > 0) printf "%.4f\n", b/((l+r)/2)}'; done | median)"
	n2="$(for ((i = 1; i < rounds; i++)); do awk -v b="${a2[i]}" -v l="${a2[i-1]}" -v r="${a2[i+1]}" 'BEGIN {if (l+r > 0) printf "%.4f\n", b/((l+r)/2)}'; done | median)"
	if [[ "$kind" == lat ]]; then
		echo "| $label | typical latency | $m1 | $n1 |" >> "$table"
		echo "| $label | p99 latency | $m2 | $n2 |" >> "$table"
	else
		echo "| $label | bandwidth | $m1 | $n1 |" >> "$table"
		echo "| $label | msg rate | $m2 | $n2 |" >> "$table"
	fi
	echo "bench: $label done" >&2
}

iters="${4:-5000}"
bench lat ib_send_lat -s 2 -n "$iters"
bench lat ib_write_lat -s 2 -n "$iters"
bench lat ib_read_lat -s 2 -n "$iters"
bench lat ib_atomic_lat -n "$iters"
for s in 2 4096 65536; do
	bench bw ib_write_bw -s "$s" -n "$iters"
	bench bw ib_send_bw -s "$s" -n "$iters"
	bench bw ib_read_bw -s "$s" -n "$iters"
done
echo
echo "Side-by-side, $(date -u +%Y-%m-%d), device $dev, kernel $(uname -r), $(nproc) CPUs:"
cat "$table"
