#!/usr/bin/env bash
# Post+poll operations per second (PostPollProbe) for one or more verbs-ffm jars, alternating them, RUNS times
# each, each run a fresh JVM; prints each run and the median per jar. Needs an RDMA device, e.g. inside
# scripts/rxe-vm.sh (which exports RDMA_DEVICE and RDMA_GID_INDEX).
#   usage: verbs-ffm/bench/postpoll.sh RUNS OPS JAR...
set -euo pipefail
runs="$1" ops="$2"; shift 2
dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
declare -A rates classes
for jar in "$@"; do
	classes["$jar"]="$(mktemp -d)"
	"$JAVA_HOME/bin/javac" -d "${classes[$jar]}" -cp "$jar" "$dir/PostPollProbe.java"
done
for ((i = 1; i <= runs; i++)); do
	for jar in "$@"; do
		line="$("$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -cp "$jar:${classes[$jar]}" PostPollProbe \
			"${RDMA_DEVICE:?}" "${RDMA_GID_INDEX:-1}" "$ops")"
		echo "$(basename "$jar") run $i: $line"
		rates["$jar"]+="$(awk '{print $3}' <<<"$line") "
	done
done
for jar in "$@"; do
	median="$(tr ' ' '\n' <<<"${rates[$jar]}" | grep . | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}')"
	echo "$(basename "$jar"): median post+poll ops/s ${median} over $runs runs of $ops"
done
