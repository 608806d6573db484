#!/usr/bin/env bash
# lab: C/Java server and client in all four pairs: which side costs a bandwidth run's rate
# Mixed pairs (not a test): which side of a bandwidth run costs the rate. In one Soft-RoCE boot (or on this host's
# RDMA device) the four pairs C/C, C/Java, Java/C and Java/Java (server, client) take turns at each size, -D 8;
# the report gives each pair's runs, median and best, and the Java/C ratio of the client side and of the server
# side. Ungated: each run is a fresh pair, so a ratio holds the host's fast and slow stretches in its runs.
#
# usage: [MIXED_TOOL=ib_read_bw] [MIXED_SIZES="65536 2"] lab/run.sh mixed [ROUNDS]   (default 3 rounds)
set -euo pipefail
LAB="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROOT="$(cd "$LAB/.." && pwd)"
# shellcheck source=../../scripts/common.sh
source "$ROOT/scripts/common.sh"
tool="${MIXED_TOOL:-ib_read_bw}"
out="$ROOT/target/mixed"
bench_vm_prepare "$out" python3
# shellcheck disable=SC2086 # the sizes are words
"$ROOT/scripts/rdma-env.sh" --timeout 3600 -- bash "$LAB/guest/mixed-run.sh" "$tool" "${1:-3}" "$out" \
	${MIXED_SIZES:-65536 2}
python3 "$LAB/reports/mixed-report.py" "$out/rows"
