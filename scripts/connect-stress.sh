#!/usr/bin/env bash
# Long form of the connection API's virtual-thread stress test (issue 34). CI runs the short form in its rdma
# stage (carrier parallelism 1, 8 clients x 20 rounds); this runs ConnectionVirtualThreadRdmaTest with a child JVM
# per parallelism in STRESS_PARALLELISM: a virtual-thread server and STRESS_CLIENTS virtual-thread clients first
# wait idle (receive, receiveAsync().get, accept: each must end by its deadline, and a virtual thread sleeping 10 ms
# in a loop must keep running), then do STRESS_ROUNDS rounds each, alternating the blocking and the future style
# (request/response, RDMA READ, every 16th round a 64 KiB WRITE), every call with a deadline of STRESS_DEADLINE_MS.
# It fails when a call misses its deadline (a lost wake-up), anything throws, or the sleeper starved. It prints,
# per parallelism and style, the calls, those past the deadline and p50/p99/max, and traces each step past its
# deadline (server got/sent, future completed by whom, waiter resumed) with the carrier and machine stalls beside it.
# The default 64 x 1000 takes hours per parallelism in the TCG VM on a 2-core host (docs/connection-api.md).
#
# Each run also prints what held the carriers (native call times on them, CPU by thread group; docs/connection-api.md,
# "What holds a carrier"); STRESS_DUMP_DIR=DIR writes a JSON thread dump per stall there, STRESS_JVM_ARGS adds options
# to the stress JVM ("{p}" becomes the parallelism), e.g. -XX:StartFlightRecording=filename=DIR/p{p}.jfr.
# usage: [STRESS_PARALLELISM=1,2] [STRESS_CLIENTS=64] [STRESS_ROUNDS=1000] [STRESS_DEADLINE_MS=5000] scripts/connect-stress.sh
# Runs on this host's RDMA device, else in a Soft-RoCE VM (scripts/rdma-env.sh). Builds first unless
# STRESS_NO_BUILD is set.
set -euo pipefail
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$SCRIPT_DIR/.." && pwd)"
# shellcheck source=common.sh
source "$SCRIPT_DIR/common.sh"
find_jdk25
cd "$ROOT"
if [[ -z "${STRESS_NO_BUILD:-}" ]]; then
	mvn -B -ntp -q -pl verbs-ffm -am test-compile
fi
exec "$SCRIPT_DIR/rdma-env.sh" --timeout 3600 -- mvn -B -ntp -o surefire:test -pl verbs-ffm \
	-Dtest=ConnectionVirtualThreadRdmaTest -Drdma.groups=rdma -Drdma.excludedGroups= \
	-Dstress.parallelism="${STRESS_PARALLELISM:-1,2}" -Dstress.clients="${STRESS_CLIENTS:-64}" -Dstress.rounds="${STRESS_ROUNDS:-1000}" \
	-Dstress.deadlineMillis="${STRESS_DEADLINE_MS:-5000}" -Dstress.dumpDir="${STRESS_DUMP_DIR:-}" \
	-Dstress.jvmArgs="${STRESS_JVM_ARGS:-}"
