#!/usr/bin/env bash
# lab: JMH: one post+poll and one empty poll through FFM, JNI and C (about 15 min in the VM)
# JMH benchmark (not a test): the per-operation cost of one post+poll (a signaled 8-byte RDMA WRITE on an RC
# QP connected to itself, polled until its completion) and of one empty poll, through verbs-ffm (critical
# poll downcall and not), through JNI (Java -> JNI -> the C verb, as DiSNI does) and as a loop in C: same
# device, QP set-up and memory, one boot. Builds the benchmarks module, runs it on the RDMA device (natively
# or in the Soft-RoCE VM, via rdma-env.sh) and prints ns/op with JMH's 99.9% error and the ratios.
# Under the emulated CPU absolute figures mean nothing; the ratios do.
#
# usage (as root): [JMH_ARGS="-f 1 -wi 10 -w 1s -i 10 -r 1s"] lab/run.sh jmh [JMH benchmark regex]
#        (defaults sized for the VM: about 15 minutes under qemu TCG on a shared 2-core machine, most of it
#        thirteen JVM starts and device set-ups: one JMH fork per path and benchmark)
set -euo pipefail
LAB="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROOT="$(cd "$LAB/.." && pwd)"
# shellcheck source=../../scripts/common.sh
source "$ROOT/scripts/common.sh"
bench_build
out="$ROOT/target/jmh"
mkdir -p "$out"
rm -f "$out/results.json"
# Other work on this machine moves the figures: say how busy it was (before the VM boots, and after).
load() { echo "lab jmh: host load average $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs ($1)"; }
load before
classpath="$ROOT/benchmarks/target/classes:$(cat "$ROOT/benchmarks/target/classpath.txt")"
# As lab/run.sh side-by-side: multi-threaded TCG, the TSC as the guest's clock (not HPET), pinned vCPUs.
# The VM runs the command on one vCPU, so JMH and its forked JVMs never move between emulated CPUs.
bench_vm_settings
# JMH_ARGS is split into words on purpose.
# shellcheck disable=SC2086
"$ROOT/scripts/rdma-env.sh" --timeout 2400 -- "$JAVA_HOME/bin/java" -cp "$classpath" org.openjdk.jmh.Main \
	${JMH_ARGS:--f 1 -wi 10 -w 1s -i 10 -r 1s} -foe true -rf json -rff "$out/results.json" "${1:-io.rdmaffm.benchmarks}" \
	| tee "$out/output.txt"
load after
[[ -s "$out/results.json" ]] || die "JMH wrote no results (see $out/output.txt)"

# The table, from JMH's JSON: mean ± JMH's 99.9% error, median and minimum of the measured iterations (the
# minimum is the quietest iteration, the least moved by other work on the CPU); ratios of each.
awk '
function num(line) { sub(/.*: */, "", line); sub(/,$/, "", line); gsub(/"/, "", line); return line + 0 }
/"benchmark" :/ { n = split($0, p, "."); b = p[n - 1]; k = p[n]; sub(/",?$/, "", k) }
/"score" :/ { score[b, k] = num($0) }
/"scoreError" :/ { err[b, k] = num($0) }
/"0.0" :/ { low[b, k] = num($0) }
/"50.0" :/ { med[b, k] = num($0) }
function ratio(b, a, c, label) {
	if (!((b, a) in score) || !((b, c) in score) || score[b, c] == 0 || med[b, c] == 0 || low[b, c] == 0) return
	r = score[b, a] / score[b, c]
	printf "| %-18s | %-28s | %7.3f ± %6.3f | %10.3f | %10.3f |\n", b, label, r,
		r * (err[b, a] / score[b, a] + err[b, c] / score[b, c]), med[b, a] / med[b, c], low[b, a] / low[b, c]
}
END {
	split("PostPollBenchmark EmptyPollBenchmark", bs, " ")
	n = split("ffm ffmConfined ffmNoCriticalPoll jni c", paths, " ")
	print "| benchmark          | path                         | ns/op mean ± 99.9% |   median |  minimum |"
	print "|--------------------|------------------------------|--------------------|----------|----------|"
	for (j = 1; j <= 2; j++) for (i = 1; i <= n; i++) if ((bs[j], paths[i]) in score)
		printf "| %-18s | %-28s | %8.1f ± %7.1f | %8.1f | %8.1f |\n", bs[j], paths[i], score[bs[j], paths[i]],
			err[bs[j], paths[i]], med[bs[j], paths[i]], low[bs[j], paths[i]]
	print ""
	print "| benchmark          | ratio                        | of means ± error | of medians | of minima  |"
	print "|--------------------|------------------------------|------------------|------------|------------|"
	for (j = 1; j <= 2; j++) {
		ratio(bs[j], "ffm", "c", "FFM (critical poll) / C")
		ratio(bs[j], "ffmConfined", "c", "FFM (critical, confined) / C")
		ratio(bs[j], "ffmNoCriticalPoll", "c", "FFM (no critical poll) / C")
		ratio(bs[j], "jni", "c", "JNI / C")
		ratio(bs[j], "ffm", "jni", "FFM (critical poll) / JNI")
		ratio(bs[j], "ffmConfined", "jni", "FFM (critical, confined) / JNI")
		ratio(bs[j], "ffmConfined", "ffm", "FFM confined / shared")
		ratio(bs[j], "ffmNoCriticalPoll", "jni", "FFM (no critical poll) / JNI")
	}
	# The parts of one call, each alone (CallPartsBenchmark), beside the whole call and C'"'"'s.
	n = split("EmptyPollBenchmark ffm;EmptyPollBenchmark c;CallPartsBenchmark downcallWithoutGuard;" \
		"CallPartsBenchmark downcallWithSegments;CallPartsBenchmark guardedDowncall;CallPartsBenchmark guard;" \
		"CallPartsBenchmark nanoTime;CallPartsBenchmark cClock;CallPartsBenchmark cTsc", rows, ";")
	split("empty poll, FFM (CompletionQueue.poll);empty poll, C;empty poll, critical downcall without guard (pointers as long);" \
		"the same downcall, pointers as segments;the same downcall in a guard of its own;" \
		"lifetime guard alone (enter + exit);System.nanoTime;clock_gettime(CLOCK_MONOTONIC) in C;rdtsc in C", names, ";")
	parts = 0
	for (k in score) if (index(k, "CallPartsBenchmark" SUBSEP) == 1) parts = 1
	if (parts) {
		print ""
		print "| part of a call                              | ns/op mean ± 99.9% |   median |  minimum |"
		print "|---------------------------------------------|--------------------|----------|----------|"
		for (i = 1; i <= n; i++) {
			split(rows[i], bk, " ")
			if ((bk[1], bk[2]) in score)
				printf "| %-43s | %8.1f ± %7.1f | %8.1f | %8.1f |\n", names[i], score[bk[1], bk[2]], err[bk[1], bk[2]],
					med[bk[1], bk[2]], low[bk[1], bk[2]]
		}
	}
}' "$out/results.json" | tee "$out/table.md"
grep -h ": set-up " "$out/output.txt" || true
