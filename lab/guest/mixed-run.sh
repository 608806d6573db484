#!/usr/bin/env bash
# The part of lab/experiments/mixed.sh that runs where the RDMA device is. Args: TOOL ROUNDS OUTDIR SIZE...
# Each round runs the four pairs CC, CJ, JC, JJ (server implementation, then client: C perftest or perftest-java)
# in turn, -D 8 at each SIZE, server on CPU 0 and client on CPU 1 as the side-by-side experiment pins them; the client's
# data row goes to OUTDIR/rows as "SIZE PAIR ROUND ROW".
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# shellcheck source=../../scripts/common.sh
source "$ROOT/scripts/common.sh"
tool="$1" rounds="$2" out="$3"
shift 3
dev="${RDMA_DEVICE:?}" ip="${RDMA_IP:?}" gid="${RDMA_GID_INDEX:-1}"
[[ $(nproc --all) -gt 1 ]] && taskset -pc "0-$(($(nproc --all) - 1))" $$ > /dev/null
port=23000
# impl_cmd C|J -> CMD: that implementation's command for the tool.
impl_cmd() {
	if [[ $1 == C ]]; then CMD=("/usr/bin/$tool"); else CMD=("$ROOT/bin/rdma-perftest" "$tool"); fi
}
for size in "$@"; do
	for ((r = 1; r <= rounds; r++)); do
		for pair in CC CJ JC JJ; do
			port=$((port + 1))
			log="$out/$size-$pair-$r"
			impl_cmd "${pair:0:1}"
			timeout 600 taskset -c 0 "${CMD[@]}" -d "$dev" -x "$gid" -p "$port" -s "$size" -D 8 > "$log.server" 2>&1 &
			spid=$!
			wait_tcp_listening "$port" 1800 || { kill "$spid"; die "the $pair server did not listen"; }
			impl_cmd "${pair:1:1}"
			timeout 600 taskset -c 1 "${CMD[@]}" -d "$dev" -x "$gid" -p "$port" -s "$size" -D 8 "$ip" \
				> "$log.client" 2>&1 || tail -3 "$log.client" >&2
			wait "$spid" || true
			echo "$size $pair $r $(awk '/#bytes/ {getline; print; exit}' "$log.client")" | tee -a "$out/rows"
			# As the side-by-side experiment: a pair's teardown is kernel work that would land in the next run.
			sleep 2
		done
	done
done
