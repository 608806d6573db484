#!/usr/bin/env bash
# --threads side by side: perftest-java's ib_write_bw with -q 2 and -q 4 at 2 B, 4 KiB and 64 KiB, each with
# --threads 1 and --threads 2, the two interleaved in every round (same boot, same load; the order flips each
# round), ROUNDS rounds of a -D SECONDS run each. Prints every run's row, then per case the median BW and
# message rate of each thread count and their ratio (T2/T1), and the load before and after. The server is
# passive (RDMA write): only the client's threads are varied. Nothing is pinned: the second thread needs the
# second CPU. Runs where an RDMA device is: scripts/rdma-env.sh -- scripts/threads-side-by-side.sh
#
# usage: scripts/threads-side-by-side.sh [ROUNDS (default 3)] [SECONDS (default 2)]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=common.sh
source "$ROOT/scripts/common.sh"
PT="$ROOT/bin/rdma-perftest"
dev="${RDMA_DEVICE:?RDMA_DEVICE not set (run through scripts/rdma-env.sh)}"
ip="${RDMA_IP:?RDMA_IP not set}"
gid="${RDMA_GID_INDEX:-1}"
rounds="${1:-3}"
secs="${2:-2}"
out="$(mktemp -d "${TMPDIR:-/tmp}/threads-sbs.XXXXXX")"
trap 'rm -rf "$out"' EXIT
port=19500
# rdma-env may have pinned this shell to one CPU (the VM keeps JVMs on CPU 0): the second thread needs the second.
if command -v taskset > /dev/null && [[ $(nproc --all) -gt 1 ]]; then
	taskset -pc "0-$(($(nproc --all) - 1))" $$ > /dev/null
fi

# run Q SIZE T ROUND: one server+client pair; the client's row in $out/Q-SIZE-T.rows (one line per round).
run() {
	local q="$1" size="$2" t="$3" round="$4"
	port=$((port + 1))
	timeout 300 "$PT" ib_write_bw -d "$dev" -x "$gid" -p "$port" -q "$q" -s "$size" -D "$secs" \
		> "$out/server.out" 2>&1 &
	local srv=$!
	wait_tcp_listening "$port" 1800 || { kill "$srv" 2> /dev/null; return 1; }
	local rc=0
	timeout 300 "$PT" ib_write_bw -d "$dev" -x "$gid" -p "$port" -q "$q" -s "$size" -D "$secs" --threads "$t" \
		"$ip" > "$out/client.out" 2>&1 || rc=$?
	wait "$srv" || rc=$?
	local row
	row="$(awk '/#bytes/ {getline; print; exit}' "$out/client.out")"
	if [[ "$rc" -ne 0 || -z "$row" ]]; then
		echo "q=$q size=$size threads=$t round=$round: FAILED (exit $rc)"
		cat "$out/client.out" "$out/server.out"
		return 1
	fi
	echo "q=$q size=$size threads=$t round=$round: $row"
	echo "$row" >> "$out/$q-$size-$t.rows"
}

echo "load before: $(cat /proc/loadavg), $(nproc) CPUs"
for ((r = 1; r <= rounds; r++)); do
	for q in 2 4; do
		for size in 2 4096 65536; do
			if ((r % 2)); then order=(1 2); else order=(2 1); fi
			for t in "${order[@]}"; do
				run "$q" "$size" "$t" "$r"
			done
		done
	done
done
echo "load after: $(cat /proc/loadavg)"

# median FILE COLUMN
median() {
	awk -v c="$2" '{print $c}' "$1" | sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'
}
echo
echo "medians of $rounds rounds, -D $secs (BW average MB/sec, MsgRate Mpps):"
printf '%-4s %-7s %12s %12s %7s %10s %10s %7s\n' q bytes "BW T1" "BW T2" T2/T1 "Mpps T1" "Mpps T2" T2/T1
for q in 2 4; do
	for size in 2 4096 65536; do
		b1="$(median "$out/$q-$size-1.rows" 4)" b2="$(median "$out/$q-$size-2.rows" 4)"
		m1="$(median "$out/$q-$size-1.rows" 5)" m2="$(median "$out/$q-$size-2.rows" 5)"
		awk -v q="$q" -v s="$size" -v b1="$b1" -v b2="$b2" -v m1="$m1" -v m2="$m2" 'BEGIN {
			printf "%-4s %-7s %12.2f %12.2f %7.2f %10.6f %10.6f %7.2f\n", q, s, b1, b2, (b1 > 0 ? b2 / b1 : 0),
				m1, m2, (m1 > 0 ? m2 / m1 : 0) }'
	done
done
