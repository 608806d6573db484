#!/usr/bin/env bash
# lab: where a latency run's tail comes from: every sample, stalls per 10 ms
# Stalls (not a test): where a latency run's tail comes from. In one Soft-RoCE boot (or on this host's RDMA
# device), C perftest and perftest-java pairs take turns, each client printing every sample (-U); the report
# gives, per run, its median and p99, and its stalls (samples over 3 x the median): how many per 10 ms, how far
# apart, how long. Under TCG each vCPU's 250 Hz timer tick stalls both implementations every 4 ms for 50-300 us,
# so the p99 of a 1,000-iteration run (its 10th worst sample) says how many ticks fell into the run.
#
# usage: [STALLS_TOOL=ib_send_lat] [STALLS_ITERS=1000] lab/run.sh stalls [ROUNDS]   (default 3 rounds)
set -euo pipefail
LAB="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROOT="$(cd "$LAB/.." && pwd)"
# shellcheck source=../../scripts/common.sh
source "$ROOT/scripts/common.sh"
tool="${STALLS_TOOL:-ib_send_lat}"
out="$ROOT/target/stalls"
bench_vm_prepare "$out" python3
"$ROOT/scripts/rdma-env.sh" --timeout 3600 -- bash "$LAB/guest/stalls-run.sh" "$tool" "${1:-3}" \
	"${STALLS_ITERS:-1000}" "$out"
python3 "$LAB/reports/stalls-report.py" "$tool" "$out"/*.out
