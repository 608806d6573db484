#!/usr/bin/env bash
# lab: C perftest against perftest-java, alternating in one boot: Java/C ratios with their noise (hours)
# Side-by-side benchmark (not a test): in ONE Soft-RoCE boot (or on this host's RDMA device), runs Debian's
# C perftest and perftest-java, each run a fresh server+client pair in loopback, and prints Java/C ratios: each
# Java run divided by the mean of the C runs beside it, median over the rounds. By default (BENCH_GATE=1) each
# round is C, Java, C with both C runs within seconds of the Java run's measured window (its client holds at a
# start gate, warmed up and connected, while the first C pair runs); BENCH_GATE=0 alternates A B A B ... A,
# which puts half a minute of Java start-up and warm-up between a Java window and its C neighbours. The C/C
# figure of the same boot is printed next to each ratio, so the noise is visible; so are the ratios of the two
# implementations' median and best runs, and how steady this machine's own CPUs were before and after.
# Absolute figures of an emulated machine mean nothing; ratios do.
#
# Rows: "listen" (time from start to listening / to the first connect, next to a trivial JVM), "steady"
# (-n 100000 latency, -D 8 bandwidth at 2 B and 64 KiB, all eight tools) and "default" (perftest's default
# lengths). Each Java run's JVM activity in the measured window (from its JSON) is listed with its row.
#
# usage: [BENCH_ROWS="listen steady default"] [BENCH_TOOLS="ib_send_lat ..."] lab/run.sh side-by-side [ROUNDS]
#        [BENCH_GATE=0] [BENCH_FREEZE=0] [BENCH_C_ALONE=1] (default 5 rounds; all rows take about 2 hours under TCG)
set -euo pipefail
LAB="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROOT="$(cd "$LAB/.." && pwd)"
# shellcheck source=../../scripts/common.sh
source "$ROOT/scripts/common.sh"
bench_build
mkdir -p "$ROOT/target/bench"
bench_vm_settings
# This machine's own CPUs, before and after: the same fixed work on every CPU at once, counted per quarter
# second. On a shared cloud host, with nothing else running, one CPU's speed drifted 1.9x within 25 minutes and
# its slowest quarter second within 10 s was down to half its fastest: no ratio of two runs at different times
# can tell that from a difference between the implementations.
gcc -O2 -Wall -Wextra -Werror -o "$ROOT/target/bench/hostspeed" "$LAB/probes/hostspeed.c"
host_speed() {
	echo "bench: this machine's CPUs $1 the runs (hostspeed, 10 s, all CPUs at once):"
	"$ROOT/target/bench/hostspeed" 10 | sed 's/^/bench:   /'
}
host_speed before
# The VM's guest gets a fixed environment, so the settings travel on the command line.
settings=()
for v in BENCH_GATE BENCH_FREEZE BENCH_GAP BENCH_C_ALONE; do
	[[ -n "${!v:-}" ]] && settings+=("$v=${!v}")
done
status=0
"$ROOT/scripts/rdma-env.sh" --timeout 10800 -- env "${settings[@]}" bash "$LAB/guest/side-by-side-run.sh" "${1:-5}" "$ROOT/target/bench" "${BENCH_ROWS:-all}" "${BENCH_TOOLS:-}" || status=$?
host_speed after
exit "$status"
