#!/usr/bin/env bash
# Runs on a host with an RDMA device (see rdma-env.sh): the device report, then three tools in loopback
# (server and client on the same device), each by Debian's C perftest and by perftest-java in turn, with the
# two tables printed one under the other and the ratio of their headline figures.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=common.sh
source "$ROOT/scripts/common.sh"
PT="$ROOT/bin/rdma-perftest"
dev="${RDMA_DEVICE:?RDMA_DEVICE not set (run through scripts/rdma-env.sh)}"
ip="${RDMA_IP:?RDMA_IP not set}"
gid="${RDMA_GID_INDEX:-1}"
out="$(mktemp -d "${TMPDIR:-/tmp}/quick-suite.XXXXXX")"
trap 'rm -rf "$out"' EXIT

# Server and client each on a CPU of their own where there are two: a spinning client that shares a CPU with
# its server measures the scheduler, not the device.
srv_pin=()
cli_pin=()
if command -v taskset > /dev/null && [[ $(nproc --all) -gt 1 ]]; then
	taskset -pc "0-$(($(nproc --all) - 1))" $$ > /dev/null
	srv_pin=(taskset -c 0)
	cli_pin=(taskset -c 1)
fi

"$PT" devices -d "$dev"
echo
if [[ -n "${RDMA_IN_VM:-}" ]]; then
	echo "Note: this device is Soft-RoCE in a VM with an emulated CPU (qemu TCG, no KVM): every figure is many"
	echo "times a real host's. Read C and Java side by side; compare neither with published numbers."
fi

port=18515
# run_pair IMPL TOOL ARGS... : one server+client pair; the client's output in $out/IMPL.out. C perftest waits
# forever for a dead peer, so every process is bounded.
run_pair() {
	local impl="$1" tool="$2"
	shift 2
	local cmd=("/usr/bin/$tool")
	[[ "$impl" == Java ]] && cmd=("$PT" "$tool")
	port=$((port + 1))
	timeout 300 "${srv_pin[@]}" "${cmd[@]}" -d "$dev" -x "$gid" -p "$port" "$@" > "$out/$impl.server" 2>&1 &
	local srv=$!
	wait_tcp_listening "$port" 1800 || { kill "$srv" 2> /dev/null; return 1; }
	local rc=0
	timeout 300 "${cli_pin[@]}" "${cmd[@]}" -d "$dev" -x "$gid" -p "$port" "$@" "$ip" > "$out/$impl.out" 2>&1 || rc=$?
	wait "$srv" || rc=$?
	return "$rc"
}

# The table of a client's output: header and rows, between the result lines.
table() {
	awk '/#bytes/ {on=1} on && /^-+$/ {exit} on' "$1"
}

# The headline figure of a row: typical latency (column 5) or average bandwidth (column 4).
headline() {
	awk -v c="$2" '/#bytes/ {getline; print $c; exit}' "$1"
}

status=0
for run in "ib_write_bw -s 65536 -n 2000:4:average bandwidth (MB/s)" \
	"ib_send_lat -s 2 -n 1000:5:typical latency (usec)" "ib_read_lat -s 2 -n 1000:5:typical latency (usec)"; do
	IFS=: read -r cmdline col what <<< "$run"
	read -r tool args <<< "$cmdline"
	echo
	echo "==== $tool $args (loopback on $dev, GID index $gid) ===="
	for impl in C Java; do
		# shellcheck disable=SC2086
		if ! run_pair "$impl" "$tool" $args; then
			echo "$impl run failed:"
			cat "$out/$impl.out" "$out/$impl.server" 2> /dev/null | tail -n 5
			status=1
			continue
		fi
		echo "-- $([[ $impl == C ]] && echo "C perftest (Debian)" || echo "perftest-java") --"
		table "$out/$impl.out"
	done
	c="$(headline "$out/C.out" "$col" 2> /dev/null || true)"
	j="$(headline "$out/Java.out" "$col" 2> /dev/null || true)"
	if [[ -n "$c" && -n "$j" ]]; then
		awk -v c="$c" -v j="$j" -v w="$what" 'BEGIN {if (c > 0) printf "%s: C %s, Java %s, Java/C %.2f\n", w, c, j, j / c}'
	fi
done
exit "$status"
