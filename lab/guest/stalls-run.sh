#!/usr/bin/env bash
# The part of lab/experiments/stalls.sh that runs where the RDMA device is. Args: TOOL ROUNDS ITERS OUTDIR.
# Each round a C pair, then a Java pair (server on CPU 0, client on CPU 1, as the side-by-side experiment pins them),
# both -s 2 -n ITERS -U; each client's output goes to OUTDIR/IMPL-ROUND.out for stalls-report.py.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# shellcheck source=../../scripts/common.sh
source "$ROOT/scripts/common.sh"
tool="$1" rounds="$2" iters="$3" out="$4"
dev="${RDMA_DEVICE:?}" ip="${RDMA_IP:?}" gid="${RDMA_GID_INDEX:-1}"
[[ $(nproc --all) -gt 1 ]] && taskset -pc "0-$(($(nproc --all) - 1))" $$ > /dev/null
port=21000
for ((r = 1; r <= rounds; r++)); do
	for impl in C Java; do
		if [[ $impl == C ]]; then cmd=("/usr/bin/$tool"); else cmd=("$ROOT/bin/rdma-perftest" "$tool"); fi
		port=$((port + 1))
		timeout 600 taskset -c 0 "${cmd[@]}" -d "$dev" -x "$gid" -p "$port" -s 2 -n "$iters" \
			> "$out/$impl-$r.server" 2>&1 &
		spid=$!
		wait_tcp_listening "$port" 1800 || { kill "$spid"; die "the $impl server did not listen"; }
		timeout 600 taskset -c 1 "${cmd[@]}" -d "$dev" -x "$gid" -p "$port" -s 2 -n "$iters" -U "$ip" \
			> "$out/$impl-$r.out" 2>&1 || tail -3 "$out/$impl-$r.out" >&2
		wait "$spid" || true
		# As the side-by-side experiment: a pair's teardown is kernel work that would land in the next run.
		sleep 2
	done
done
