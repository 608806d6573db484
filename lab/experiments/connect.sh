#!/usr/bin/env bash
# lab: the connection API against raw verbs, and DiSNI's ping-pong against C ib_send_lat
# Benchmark (not a test) of verbs-ffm's connection API, in ONE Soft-RoCE boot (or on this host's RDMA device):
#   1. the connection API against the same work on raw verbs (rdma-example overhead: a 64 MiB transfer by pipelined
#      RDMA WRITEs, 16 in flight, every 8th signaled, and 10,000 8-byte RDMA READs one at a time), alternating rounds
#      in one JVM pinned to one CPU, printing the median of the per-round ratios;
#   2. DiSNI's SendRecv ping-pong on the connection API (rdma-example pingpong, 2 bytes) against C perftest's
#      ib_send_lat, alternating A B A B ... A, server on CPU 0 and client on CPU 1, each a fresh pair.
# Absolute figures of an emulated machine mean nothing; the ratios do.
#
# usage (as root): [BENCH_ROUNDS=5] [BENCH_ITERS=10000] lab/run.sh connect
set -euo pipefail
LAB="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROOT="$(cd "$LAB/.." && pwd)"
# shellcheck source=../../scripts/common.sh
source "$ROOT/scripts/common.sh"
find_jdk25
cd "$ROOT"
if [[ -z "${BENCH_NO_BUILD:-}" ]]; then
	ensure_packages "${BUILD_PACKAGES[@]}" "${RDMA_PACKAGES[@]}"
	mvn -B -ntp -q package -DskipTests
fi
# As the side-by-side experiment: multi-threaded TCG (each process on its own CPU), the TSC as clock, pinned vCPUs.
bench_vm_settings
exec "$ROOT/scripts/rdma-env.sh" --timeout 3600 -- bash "$LAB/guest/connect-run.sh" "${BENCH_ROUNDS:-5}" \
	"${BENCH_ITERS:-10000}"
