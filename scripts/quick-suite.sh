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

# Java/C of the figures FIGURES ("NAME:COLUMN ...") in the first row of two client outputs, on one line:
# "typical 1.05 (C 12.30, Java 12.92 usec), ..."; a figure either side lacks or printed as inf/nan is "n/a".
ratios() {
	awk -v figures="$3" -v unit="$4" '
		FNR == 1 { file++ }
		/#bytes/ { getline; for (i = 1; i <= NF; i++) row[file, i] = $i; nextfile }
		function num(s) { return s ~ /^[0-9]+(\.[0-9]+)?$/ }
		END {
			n = split(figures, f, " ")
			for (k = 1; k <= n; k++) {
				split(f[k], p, ":"); c = row[1, p[2]]; j = row[2, p[2]]
				line = line (k > 1 ? ", " : "") p[1] " "
				if (num(c) && num(j) && c > 0) line = line sprintf("%.2f (C %s, Java %s%s)", j / c, c, j, k == 1 ? " " unit : "")
				else line = line "n/a"
			}
			print line
		}' "$1" "$2"
}

# Bold when the demo's stdout is a terminal (scripts/demo.sh decides: here stdout may be the VM's log file).
bold="" plain=""
if [[ "${DEMO_COLOUR:-0}" == 1 ]]; then
	bold=$'\e[1m' plain=$'\e[0m'
fi

status=0
summary=()
# TOOL ARGS : FIGURES (NAME:COLUMN of perftest's row) : UNIT of the first figure
for run in "ib_write_bw -s 65536 -n 2000:BW_average:4 msg_rate:5:MB/s" \
	"ib_send_lat -s 2 -n 1000:typical:5 average:6 p99:8:usec" "ib_read_lat -s 2 -n 1000:typical:5 average:6 p99:8:usec"; do
	cmdline="${run%%:*}"
	rest="${run#*:}"
	unit="${rest##*:}"
	figures="${rest%:*}"
	read -r tool args <<< "$cmdline"
	echo
	echo "${bold}==== $tool $args (loopback on $dev, GID index $gid) ====${plain}"
	ok=1
	for impl in C Java; do
		# shellcheck disable=SC2086
		if ! run_pair "$impl" "$tool" $args; then
			echo "$impl run failed:"
			cat "$out/$impl.out" "$out/$impl.server" 2> /dev/null | tail -n 5
			status=1
			ok=0
			continue
		fi
		echo "-- $([[ $impl == C ]] && echo "C perftest (Debian)" || echo "perftest-java") --"
		table "$out/$impl.out"
	done
	line="failed"
	((ok)) && line="$(ratios "$out/C.out" "$out/Java.out" "$figures" "$unit" | sed 's/_/ /g')"
	echo "Java/C: $line"
	summary+=("$(printf '%-28s %s' "$tool $args" "$(sed 's/ ([^)]*)//g' <<< "$line")")")
done
echo
echo "${bold}Summary, Java/C per figure${plain} (latency below 1, bandwidth above 1: Java ahead; one short run a"
echo "side, so on an emulated CPU a second try moves these figures, C's as much as Java's)"
printf '  %s\n' "${summary[@]}"
exit "$status"
