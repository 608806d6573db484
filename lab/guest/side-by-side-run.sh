#!/usr/bin/env bash
# The part of lab/experiments/side-by-side.sh that runs where the RDMA device is.
# Args: ROUNDS OUTDIR [ROWS] — ROWS: words among listen, steady, steady-lat, steady-bw, steady-bw-2,
# steady-bw-64k, default, default-lat, default-bw, or all (the default). TOOLS (optional): the tools to run, e.g.
# "ib_send_lat ib_send_bw"; all if empty.
#
# For each row, A B A B ... A: A is Debian's C perftest, B perftest-java, each run a fresh server+client pair in
# loopback. Each B is divided by the mean of the two A runs beside it, and the median over the rounds is printed;
# the C/C noise of the same boot (each inner A divided by its neighbours) sits next to it. The ratio of the two
# implementations' median runs and of their best runs follow (see whole_ratios).
#
# BENCH_GATE=1 (the default): each round is A B A with both A runs within seconds of B's measured window. The Java
# pair starts, warms up and connects; its client then holds at a start gate (the system property
# rdmaffm.bench.startGate) while a C pair runs; then the Java client runs its window and another C pair follows at
# once. Without the gate (BENCH_GATE=0) the C runs beside a Java run are half a minute (its start and warm-up)
# away from its window, and the host's speed changes within seconds. The C/C noise is then each round's
# before-run over its after-run. BENCH_FREEZE=1 (the default, with the gate): the waiting Java pair is stopped
# (SIGSTOP) while the C pair before its window runs, and continued after it, so that C run has the guest to itself
# as the C run after has.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# shellcheck source=../../scripts/common.sh
source "$ROOT/scripts/common.sh"
rounds="$1"
outdir="$2"
rows="${3:-all}"
tools="${4:-}"
dev="${RDMA_DEVICE:?}"
ip="${RDMA_IP:?}"
gid="${RDMA_GID_INDEX:-1}"
JAVA="$ROOT/bin/rdma-perftest"
gate="${BENCH_GATE:-1}"
# Seconds between a pair's end and the next pair's measured window in a gated round (BENCH_GAP).
gap="${BENCH_GAP:-2}"
freeze="${BENCH_FREEZE:-1}"
# BENCH_C_ALONE=1: each gated round starts with one more C pair, before the Java pair exists, to tell whether the
# stopped Java pair (its JVMs, QPs and registered memory) slows the C run before its window.
c_alone="${BENCH_C_ALONE:-0}"
java_bin="${JAVA_HOME:?}/bin/java"
mkdir -p "$outdir"
# Both implementations get every CPU of the VM (the VM runner keeps commands on CPU 0 by default); then server
# on CPU 0 and client on CPU 1, for C and Java alike (under multi-threaded TCG a JVM whose threads move between
# emulated CPUs crashed in JIT-compiled code now and then).
pin_server=()
pin_client=()
if command -v taskset > /dev/null && [[ $(nproc --all) -gt 1 ]]; then
	taskset -pc "0-$(($(nproc --all) - 1))" $$ > /dev/null
	pin_server=(taskset -c 0)
	pin_client=(taskset -c 1)
fi

# Ports: a global counter (never bumped inside $(...), where the increment would be lost).
port=20000
next_port() {
	port=$((port + 1))
}

now_ns() {
	date +%s%N
}

# Milliseconds from $1 (ns) until /proc/net/tcp shows port $2 in state $3: "listen" (the local port
# listening) or "connected" (an established connection to the remote port: the client's first connect); "none"
# after 120 s.
ms_until() {
	local t0="$1" port_hex col state
	port_hex="$(printf ':%04X' "$2")"
	if [[ "$3" == listen ]]; then col=2 state=0A; else col=3 state=01; fi
	for _ in $(seq 1 12000); do
		if awk -v p="$port_hex" -v c="$col" -v s="$state" '$c ~ p"$" && $4 == s {f=1} END {exit !f}' \
			/proc/net/tcp /proc/net/tcp6 2> /dev/null; then
			echo $((($(now_ns) - t0) / 1000000))
			return 0
		fi
		sleep 0.01
	done
	echo none
}

# run_pair IMPL TOOL ARGS... -> sets ROW (the client's data row) and JIT (Java: "compilations deopts gcs").
run_pair() {
	local impl="$1" tool="$2"
	shift 2
	local cmd json=()
	if [[ "$impl" == C ]]; then
		cmd=("/usr/bin/$tool")
	else
		cmd=("$JAVA" "$tool")
		json=(--out_json_file "$outdir/client.json")
		rm -f "$outdir/client.json"
	fi
	next_port
	# Neither side may hang the benchmark: C perftest waits forever for a peer that died.
	timeout 900 "${pin_server[@]}" "${cmd[@]}" -d "$dev" -x "$gid" -p "$port" "$@" > "$outdir/server.out" 2>&1 &
	local spid=$!
	wait_tcp_listening "$port" 1800 || { kill "$spid" 2> /dev/null; ROW=""; return 0; }
	timeout 900 "${pin_client[@]}" "${cmd[@]}" -d "$dev" -x "$gid" -p "$port" "$@" "${json[@]}" "$ip" \
		> "$outdir/client.out" 2>&1 || tail -3 "$outdir/client.out" >&2
	wait "$spid" 2> /dev/null || true
	ROW="$(awk '/#bytes/ {getline; print; exit}' "$outdir/client.out")"
	JIT=""
	if [[ "$impl" == J ]]; then
		JIT="$(jit_counts)"
	fi
}

# The Java client's measured window from its JSON: compilations, deoptimizations, GCs, major page faults.
jit_counts() {
	[[ -s "$outdir/client.json" ]] || return 0
	python3 -c 'import json,sys
w = json.load(open(sys.argv[1])).get("measured_window") or {}
mf = w.get("major_faults")
print(w.get("compilations", "?"), w.get("deoptimizations", "?"), w.get("gcs", "?"), "?" if mf is None else mf)' "$outdir/client.json"
}

# measure IMPL TOOL ARGS... -> ROW, repeated (at most twice more) when C perftest's TSC calibration fails
# under emulation ("Can't produce a report", inf) or a run gave no row.
# A Java pair whose client holds at the start gate while a C pair runs, then runs its window; a C pair follows.
# Sets CB (the C row before), ROW and JIT (Java's), CA (the C row after). The Java sides get --timeout 120: the
# server waits at the barrier while the C pair runs.
run_gated() {
	local tool="$1" gatep="$outdir/gate" spid cpid jrow jjit
	shift
	CL=""
	if [[ "$c_alone" == 1 ]]; then
		measure C "$tool" "$@"
		CL="$ROW"
		sleep "$gap"
	fi
	rm -f "$gatep.waiting" "$gatep.go" "$outdir/client.json"
	next_port
	rm -f "$outdir/server.json"
	timeout 900 "${pin_server[@]}" "$JAVA" "$tool" -d "$dev" -x "$gid" -p "$port" --timeout 120 "$@" \
		--out_json_file "$outdir/server.json" > "$outdir/java-server.out" 2>&1 &
	spid=$!
	wait_tcp_listening "$port" 1800 || { kill "$spid" 2> /dev/null; CB="" ROW="" CA=""; return 0; }
	RDMA_PERFTEST_JAVA_OPTS="-Drdmaffm.bench.startGate=$gatep" timeout 900 "${pin_client[@]}" "$JAVA" "$tool" \
		-d "$dev" -x "$gid" -p "$port" --timeout 120 "$@" --out_json_file "$outdir/client.json" "$ip" \
		> "$outdir/java-client.out" 2>&1 &
	cpid=$!
	while [[ ! -e "$gatep.waiting" ]] && kill -0 "$cpid" 2> /dev/null; do
		sleep 0.2
	done
	# Two idle JVMs (their periodic threads, the flight recorder, the gate's polling) woke on the vCPUs the C
	# processes spin on: with them running, the C run before had p99 and p99.9 1.5-5.6 times the C run after.
	[[ "$freeze" == 1 ]] && signal_java_pair STOP
	sleep "$gap"
	measure C "$tool" "$@"
	CB="$ROW"
	[[ "$freeze" == 1 ]] && signal_java_pair CONT
	# A C pair's exit leaves the kernel work to do (its QPs, CQs and MRs torn down, deferred frees): that lands in
	# whatever runs next unless the next run waits for it, as each of the pair's C runs does for the other's.
	sleep "$gap"
	touch "$gatep.go"
	wait "$cpid" 2> /dev/null || tail -3 "$outdir/java-client.out" >&2
	wait "$spid" 2> /dev/null || true
	jrow="$(awk '/#bytes/ {getline; print; exit}' "$outdir/java-client.out")"
	jjit="$(jit_counts)"
	sleep "$gap"
	mkdir -p "$outdir/rounds"
	cp "$outdir/client.json" "$outdir/rounds/$tool-$port-client.json" 2> /dev/null || true
	cp "$outdir/server.json" "$outdir/rounds/$tool-$port-server.json" 2> /dev/null || true
	measure C "$tool" "$@"
	CA="$ROW"
	ROW="$jrow"
	JIT="$jjit"
}

# Sends SIG$1 to every process of the gated Java pair (the wrappers, the launchers and the JVMs: each has its run
# JSON's path on its command line).
signal_java_pair() {
	pkill -"$1" -f "out_json_file $outdir/(server|client)[.]json" || true
}

measure() {
	local impl="$1" attempt
	shift
	for attempt in 1 2 3; do
		run_pair "$impl" "$@"
		if [[ -n "$ROW" && "$ROW" != *inf* && "$ROW" != *nan* ]]; then
			return 0
		fi
		echo "bench: $impl $* attempt $attempt gave no usable row; repeating" >&2
	done
	ROW=""
}

# The metrics of a row, by kind: lat -> typical p99 p99.9 avg; bw -> bw_avg msg_rate.
metrics() {
	if [[ "$1" == lat ]]; then
		awk '{print $5, $8, $9, $6}' <<< "$2"
	else
		awk '{print $4, $5}' <<< "$2"
	fi
}

median() {
	sort -g | awk '{a[NR]=$1} END {if (NR==0) {print "n/a"; exit} if (NR%2) print a[(NR+1)/2]; else printf "%.4g\n", (a[NR/2]+a[NR/2+1])/2}'
}

# awk: b over the mean of its neighbours l and r; over the one there is when the other gave no usable row (C's
# clock calibration fails now and then under emulation), nothing when neither did.
over_neighbours='BEGIN {n = (l != "") + (r != ""); m = n ? (l + r) / n : 0; if (b != "" && m > 0) printf "%.3f\n", b / m}'

# neighbour_ratio COL NUMERATOR FIRST: median over i = FIRST..rounds-1 of column COL of NUMERATOR[i] divided by
# the mean of the C runs either side of it (A[i-FIRST] and A[i+1]). NUMERATOR B, FIRST 0: Java/C; NUMERATOR A,
# FIRST 1: the C/C noise of the same boot.
neighbour_ratio() {
	local col="$1" first="$3" i
	local -n num="$2"
	for ((i = first; i < rounds; i++)); do
		awk -v b="$(cut -d' ' -f"$col" <<< "${num[i]}")" -v l="$(cut -d' ' -f"$col" <<< "${A[i-first]}")" \
			-v r="$(cut -d' ' -f"$col" <<< "${A[i+1]}")" "$over_neighbours"
	done | median
}

# With the gate, B[i]'s neighbours are its own round's C runs, A[2i] (before) and A[2i+1] (after).
gated_ratio() {
	local col="$1" i
	for ((i = 0; i < rounds; i++)); do
		awk -v b="$(cut -d' ' -f"$col" <<< "${B[i]}")" -v l="$(cut -d' ' -f"$col" <<< "${A[2 * i]}")" \
			-v r="$(cut -d' ' -f"$col" <<< "${A[2 * i + 1]}")" "$over_neighbours"
	done | median
}

gated_noise() {
	local col="$1" i
	for ((i = 0; i < rounds; i++)); do
		quotient "$(cut -d' ' -f"$col" <<< "${A[2 * i]}")" "$(cut -d' ' -f"$col" <<< "${A[2 * i + 1]}")"
	done | grep -v n/a | median
}

ratios() {
	if [[ "$gate" == 1 ]]; then gated_ratio "$1"; else neighbour_ratio "$1" B 0; fi
}

noise() {
	if [[ "$gate" == 1 ]]; then gated_noise "$1"; else neighbour_ratio "$1" A 1; fi
}

# Under emulation a whole run can come out up to twice as slow as the next with the same binary (C perftest's
# write_lat alternated 12-13 and 21-24 us in one boot; the instructions per operation stayed the same), so a
# ratio to the neighbours can compare a fast run with slow ones. Two estimators that need no neighbours sit
# beside it: the ratio of each implementation's median run, and of each one's best run (least latency, most
# bandwidth); their C/C noise compares the boot's even-numbered C runs with its odd-numbered ones.
# pick COL all|even|odd ARRAY: column COL of the array's runs, all of them or the even- or odd-numbered ones.
pick() {
	local col="$1" which="$2" i
	local -n runs="$3"
	for ((i = 0; i < ${#runs[@]}; i++)); do
		[[ $which == even && $((i % 2)) -ne 0 || $which == odd && $((i % 2)) -ne 1 ]] && continue
		cut -d' ' -f"$col" <<< "${runs[i]}"
	done | grep -v '^$' || true
}

# best KIND: the least (latency) or greatest (bandwidth) of the numbers on stdin.
best() {
	sort -g | if [[ "$1" == lat ]]; then head -1; else tail -1; fi
}

quotient() {
	awk -v a="$1" -v b="$2" 'BEGIN {if (a != "" && a != "n/a" && b + 0 > 0) printf "%.3f\n", a / b; else print "n/a"}'
}

# whole_ratios KIND COL: "median ratio (C/C), best ratio (C/C)".
whole_ratios() {
	local kind="$1" col="$2"
	echo "$(quotient "$(pick "$col" all B | median)" "$(pick "$col" all A | median)")" \
		"($(quotient "$(pick "$col" even A | median)" "$(pick "$col" odd A | median)"))," \
		"best $(quotient "$(pick "$col" all B | best "$kind")" "$(pick "$col" all A | best "$kind")")" \
		"($(quotient "$(pick "$col" even A | best "$kind")" "$(pick "$col" odd A | best "$kind")"))"
}

table="$outdir/side-by-side.md"
listen_table="$outdir/time-to-listen.md"

bench() {
	local kind="$1" tool="$2"
	shift 2
	if [[ -n "$tools" && " $tools " != *" $tool "* ]]; then
		return 0
	fi
	local label="$tool $*" i jit_max=0 jit_all=""
	A=()
	B=()
	if [[ "$gate" == 1 ]]; then
		for ((i = 0; i < rounds; i++)); do
			run_gated "$tool" "$@"
			A[2 * i]="$(metrics "$kind" "$CB")"
			B[i]="$(metrics "$kind" "$ROW")"
			A[2 * i + 1]="$(metrics "$kind" "$CA")"
			jit_all+="${JIT:-?} / "
			[[ -n "$CL" ]] && echo "bench: $label C alone, before the Java pair started: $(metrics "$kind" "$CL")" >&2
			echo "bench: $label C before: ${A[2 * i]:-none}; Java: ${B[i]:-none} (window: compilations deopts gcs majflt = ${JIT:-?}); C after: ${A[2 * i + 1]:-none}" >&2
		done
	fi
	for ((i = 0; i <= rounds && gate != 1; i++)); do
		measure C "$tool" "$@"
		A[i]="$(metrics "$kind" "$ROW")"
		echo "bench: $label C: ${A[i]:-none}" >&2
		if ((i < rounds)); then
			measure J "$tool" "$@"
			B[i]="$(metrics "$kind" "$ROW")"
			jit_all+="${JIT:-?} / "
			echo "bench: $label Java: ${B[i]:-none} (window: compilations deopts gcs majflt = ${JIT:-?})" >&2
		fi
	done
	jit_all="${jit_all% / }"
	if [[ "$kind" == lat ]]; then
		echo "| $label | typical $(ratios 1) ($(noise 1)) | p99 $(ratios 2) ($(noise 2)) | p99.9 $(ratios 3) ($(noise 3)) | avg $(ratios 4) ($(noise 4)) | typical $(whole_ratios lat 1) | $jit_all |" >> "$table"
	else
		echo "| $label | BW $(ratios 1) ($(noise 1)) | msg rate $(ratios 2) ($(noise 2)) | | | msg rate $(whole_ratios bw 2) | $jit_all |" >> "$table"
	fi
	echo "bench: $label done" >&2
}

# A trivial Java program that listens: the floor any JVM-based server starts from.
trivial_listener() {
	mkdir -p "$outdir/trivial"
	cat > "$outdir/trivial/Listen.java" << 'EOF'
public class Listen {
    public static void main(String[] a) throws Exception {
        try (var s = new java.net.ServerSocket(Integer.parseInt(a[0]))) {
            s.accept().close();
        }
    }
}
EOF
	"$JAVA_HOME/bin/javac" -d "$outdir/trivial" "$outdir/trivial/Listen.java"
}

# Time to listen (server) and to connect (client, against a C server that listens already), in ms.
startup_row() {
	local what="$1" t0 spid ms
	next_port
	t0="$(now_ns)"
	case "$what" in
		C) /usr/bin/ib_write_bw -d "$dev" -x "$gid" -p "$port" > /dev/null 2>&1 & ;;
		J) "$JAVA" ib_write_bw -d "$dev" -x "$gid" -p "$port" > /dev/null 2>&1 & ;;
		trivial) "$java_bin" -XX:+UseSerialGC -cp "$outdir/trivial" Listen "$port" > /dev/null 2>&1 & ;;
	esac
	spid=$!
	ms="$(ms_until "$t0" "$port" listen)"
	kill "$spid" 2> /dev/null || true
	wait "$spid" 2> /dev/null || true
	LISTEN_MS="$ms"
	CONNECT_MS=""
	if [[ "$what" != trivial ]]; then
		next_port
		/usr/bin/ib_write_bw -d "$dev" -x "$gid" -p "$port" > /dev/null 2>&1 &
		spid=$!
		wait_tcp_listening "$port" 600 || true
		t0="$(now_ns)"
		if [[ "$what" == C ]]; then
			/usr/bin/ib_write_bw -d "$dev" -x "$gid" -p "$port" "$ip" > /dev/null 2>&1 &
		else
			"$JAVA" ib_write_bw -d "$dev" -x "$gid" -p "$port" "$ip" > /dev/null 2>&1 &
		fi
		local cpid=$!
		CONNECT_MS="$(ms_until "$t0" "$port" connected)"
		wait "$cpid" 2> /dev/null || true
		kill "$spid" 2> /dev/null || true
		wait "$spid" 2> /dev/null || true
	fi
}

startup() {
	trivial_listener
	local i c_l=() c_c=() j_l=() j_c=() t_l=()
	for ((i = 0; i < rounds; i++)); do
		startup_row trivial; t_l+=("$LISTEN_MS")
		startup_row C; c_l+=("$LISTEN_MS"); c_c+=("$CONNECT_MS")
		startup_row J; j_l+=("$LISTEN_MS"); j_c+=("$CONNECT_MS")
		echo "bench: start-up round $i: trivial JVM listens ${t_l[i]} ms; C ${c_l[i]} / ${c_c[i]} ms; Java ${j_l[i]} / ${j_c[i]} ms (listen / connect)" >&2
	done
	{
		echo "| start-up (ms, median of $rounds) | to listen (server) | to first connect (client) |"
		echo "|---|---|---|"
		echo "| C perftest | $(printf '%s\n' "${c_l[@]}" | median) | $(printf '%s\n' "${c_c[@]}" | median) |"
		echo "| trivial JVM (ServerSocket in main) | $(printf '%s\n' "${t_l[@]}" | median) | |"
		echo "| perftest-java | $(printf '%s\n' "${j_l[@]}" | median) | $(printf '%s\n' "${j_c[@]}" | median) |"
	} > "$listen_table"
}

# ROWS words: listen, steady (= steady-lat steady-bw), steady-bw (= steady-bw-2 steady-bw-64k), default
# (= default-lat default-bw), all: a word selects the rows named by it and by every name that starts with it and
# a dash.
wants() {
	local w
	[[ "$rows" == all ]] && return 0
	for w in $rows; do
		[[ "$1" == "$w" || "$1" == "$w"-* ]] && return 0
	done
	return 1
}

{
	echo "| test | latency or BW: Java/C (C/C) | | | | of the medians (C/C), of the best runs (C/C) | Java window: compilations deopts GCs major-faults, per round |"
	echo "|---|---|---|---|---|---|---|"
} > "$table"
if wants listen; then
	startup
fi
if wants steady-lat; then
	for t in ib_send_lat ib_write_lat ib_read_lat; do bench lat "$t" -s 2 -n 100000; done
	bench lat ib_atomic_lat -n 100000
fi
if wants steady-bw-2; then
	for t in ib_write_bw ib_send_bw ib_read_bw; do bench bw "$t" -s 2 -D 8; done
	bench bw ib_atomic_bw -D 8
fi
if wants steady-bw-64k; then
	for t in ib_write_bw ib_send_bw ib_read_bw; do bench bw "$t" -s 65536 -D 8; done
fi
if wants default-lat; then
	for t in ib_send_lat ib_write_lat ib_read_lat; do bench lat "$t" -s 2; done
	bench lat ib_atomic_lat
fi
if wants default-bw; then
	for t in ib_write_bw ib_send_bw ib_read_bw; do bench bw "$t" -s 2; done
	bench bw ib_atomic_bw
fi
echo
if [[ "$gate" == 1 ]]; then
	method="each round C, Java, C with both C runs right before and after the Java window (start gate)"
else
	method="C and Java alternated, A B ... A"
fi
echo "Side-by-side, $(date -u +%Y-%m-%d), device $dev, kernel $(uname -r), $(nproc) CPUs, $rounds rounds, $method:"
[[ -s "$listen_table" ]] && cat "$listen_table" && echo
cat "$table"
