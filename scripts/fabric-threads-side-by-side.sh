#!/usr/bin/env bash
# fabric --threads side by side: a ring all-reduce of SIZE bytes on three fabric-worker ranks on this host's one
# RDMA device (coordinated over 127.0.0.1, as FabricWorkerRdmaTest does), with --threads 1 and --threads 2, the
# two interleaved in every round (same boot, same load; the order flips each round), ROUNDS rounds. Prints each
# run's slowest rank mean iteration time and busbw (nccl-tests: S/t x 2(n-1)/n), then per thread count the median
# and the ratio T2/T1, and the load before and after. Every rank must end with exit 0 and #wrong 0, else the
# script fails. Runs where an RDMA device is: scripts/rdma-env.sh -- scripts/fabric-threads-side-by-side.sh
# Needs a build: mvn -B -o package -DskipTests.
#
# usage: scripts/fabric-threads-side-by-side.sh [ROUNDS (default 2)] [SIZE (default 3145728)] [ITERS (default 10)]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=common.sh
source "$ROOT/scripts/common.sh"
PT="$ROOT/bin/rdma-perftest"
dev="${RDMA_DEVICE:?RDMA_DEVICE not set (run through scripts/rdma-env.sh)}"
gid="${RDMA_GID_INDEX:-1}"
rounds="${1:-2}"
size="${2:-3145728}"
iters="${3:-10}"
ranks=3
out="$(mktemp -d "${TMPDIR:-/tmp}/fabric-threads-sbs.XXXXXX")"
trap 'rm -rf "$out"' EXIT
port=19700
# rdma-env may have pinned this shell to one CPU (the VM keeps JVMs on CPU 0): a second thread needs the second.
if command -v taskset > /dev/null && [[ $(nproc --all) -gt 1 ]]; then
	taskset -pc "0-$(($(nproc --all) - 1))" $$ > /dev/null
fi

# run T ROUND: three ranks; the slowest rank's mean time_us appended to $out/T.times.
run() {
	local t="$1" round="$2" pids=() r rc=0
	port=$((port + 1))
	for ((r = 0; r < ranks; r++)); do
		JDK_JAVA_OPTIONS=-XX:TieredStopAtLevel=1 timeout 600 "$PT" fabric-worker --pattern allreduce --rank "$r" \
			--ranks "$ranks" --coordinator "127.0.0.1:$port" -d "$dev" -x "$gid" -s "$size" --iters "$iters" \
			--warmup 2 --join-timeout 300 --step-timeout 60 --threads "$t" > "$out/rank$r.out" 2> "$out/rank$r.err" &
		pids+=($!)
	done
	for pid in "${pids[@]}"; do
		wait "$pid" || rc=$?
	done
	local slowest=0 mean wrong
	for ((r = 0; r < ranks; r++)); do
		mean="$(grep -o '"time_us":{"mean":[0-9.]*' "$out/rank$r.out" | head -1 | grep -o '[0-9.]*$' || true)"
		wrong="$(grep -o '"wrong":[0-9]*' "$out/rank$r.out" | head -1 | grep -o '[0-9]*$' || true)"
		if [[ "$rc" -ne 0 || -z "$mean" || "$wrong" != 0 ]]; then
			echo "threads=$t round=$round: FAILED (exit $rc, rank $r mean '$mean', wrong '$wrong')"
			cat "$out"/rank*.out "$out"/rank*.err
			return 1
		fi
		slowest="$(awk -v a="$slowest" -v b="$mean" 'BEGIN {print (b > a) ? b : a}')"
	done
	awk -v t="$t" -v r="$round" -v us="$slowest" -v s="$size" -v n="$ranks" 'BEGIN {
		printf "threads=%s round=%s: time %.1f us, busbw %.4f GB/s\n", t, r, us, s / (us * 1e3) * 2 * (n - 1) / n }'
	echo "$slowest" >> "$out/$t.times"
}

echo "load before: $(cat /proc/loadavg), $(nproc) CPUs; allreduce -s $size, $ranks ranks, --iters $iters --warmup 2"
for ((r = 1; r <= rounds; r++)); do
	if ((r % 2)); then order=(1 2); else order=(2 1); fi
	for t in "${order[@]}"; do
		run "$t" "$r"
	done
done
echo "load after: $(cat /proc/loadavg)"

median() {
	sort -g "$1" | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'
}
t1="$(median "$out/1.times")"
t2="$(median "$out/2.times")"
awk -v a="$t1" -v b="$t2" -v s="$size" -v n="$ranks" -v k="$rounds" 'BEGIN {
	f = 2 * (n - 1) / n
	printf "medians of %d rounds: T1 %.1f us (busbw %.4f GB/s), T2 %.1f us (busbw %.4f GB/s), busbw T2/T1 %.2f\n",
		k, a, s / (a * 1e3) * f, b, s / (b * 1e3) * f, a / b }'
