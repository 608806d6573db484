#!/usr/bin/env bash
# Runs a probe of this folder (StartupProbe, PostPollProbe, GuardCostProbe) against one or more verbs-ffm jars,
# alternating the jars, RUNS fresh JVMs each, and prints every run and the median per jar of the figure in
# awk field FIELD of the probe's line. The probes use only what every jar has, so one source measures the
# binding before and after a change. Device probes need an RDMA device, e.g. inside scripts/rxe-vm.sh.
#   usage: verbs-ffm/bench/compare.sh PROBE FIELD RUNS JAR... -- PROBE-ARGS...
#   e.g.   verbs-ffm/bench/compare.sh StartupProbe 7 5 main.jar branch.jar -- rxe0
#          verbs-ffm/bench/compare.sh PostPollProbe 3 3 main.jar branch.jar -- rxe0 1 1000000
set -euo pipefail
probe="$1" field="$2" runs="$3"; shift 3
jars=()
while [[ $# -gt 0 && "$1" != "--" ]]; do jars+=("$1"); shift; done
[[ $# -gt 0 ]] && shift
dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
declare -A figures classes
for jar in "${jars[@]}"; do
	classes["$jar"]="$(mktemp -d)"
	"$JAVA_HOME/bin/javac" -d "${classes[$jar]}" -cp "$jar" "$dir/$probe.java"
done
for ((i = 1; i <= runs; i++)); do
	for jar in "${jars[@]}"; do
		line="$("$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -cp "$jar:${classes[$jar]}" "$probe" "$@")"
		echo "$(basename "$jar") run $i: $line"
		figures["$jar"]+="$(awk -v f="$field" '{print $f}' <<<"$line") "
	done
done
for jar in "${jars[@]}"; do
	median="$(tr ' ' '\n' <<<"${figures[$jar]}" | grep . | sort -n \
		| awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}')"
	echo "$(basename "$jar"): median of field $field: $median over $runs runs"
done
