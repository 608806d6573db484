#!/usr/bin/env bash
# Times StartupProbe against one or more verbs-ffm jars, alternating them, RUNS times each, and prints each
# run and the median per jar. Device mode needs an RDMA device (e.g. inside scripts/rxe-vm.sh); --handles runs
# anywhere libibverbs is installed.
#   usage: verbs-ffm/bench/startup.sh RUNS (DEVICE|--handles) JAR...
set -euo pipefail
runs="$1" mode="$2"; shift 2
java="${JAVA_HOME:?set JAVA_HOME to a JDK 25}/bin/java"
dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
declare -A totals classes
for jar in "$@"; do
	classes["$jar"]="$(mktemp -d)"
	"$JAVA_HOME/bin/javac" -d "${classes[$jar]}" -cp "$jar" "$dir/StartupProbe.java"
done
for ((i = 1; i <= runs; i++)); do
	for jar in "$@"; do
		line="$("$java" --enable-native-access=ALL-UNNAMED -cp "$jar:${classes[$jar]}" StartupProbe "$mode")"
		echo "$(basename "$jar") run $i: $line"
		totals["$jar"]+="$(awk '{print $7}' <<<"$line") "
	done
done
for jar in "$@"; do
	median="$(tr ' ' '\n' <<<"${totals[$jar]}" | grep . | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}')"
	echo "$(basename "$jar"): median jvm-to-done ${median} ms over $runs runs"
done
